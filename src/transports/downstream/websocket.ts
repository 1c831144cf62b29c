import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { DEFAULT_MAX_SESSIONS_PER_ROUTE } from "../../defaults.js";
import type { Connect, Connection, Downstream } from "../types.js";
import { frameMeterOf } from "./http-util.js";
import type { HttpCaller } from "./streamable-http.js";

export interface WebsocketOptions {
  connect: Connect;
  maxFrameBytes: number;
  /** Open sockets at once; past it an upgrade is refused with 503. */
  maxSessions?: number;
}

/** Past this many bytes queued toward a slow agent, the upstream is paused until the socket catches up. */
const HIGH_WATER = 1024 * 1024;

/**
 * MCP over WebSocket toward the agent at `<route>/ws` (subprotocol `mcp`, as the MCP SDK's WebSocket client asks):
 * one JSON-RPC message per text frame. A message over the size limit closes the socket with 1009, one past the byte
 * budget `serve`'s front sets (`meterFrames`) with 1013; closing the socket ends the session and releases its upstream.
 */
export function websocketEndpoint(opts: WebsocketOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxFrameBytes,
    handleProtocols: (protocols) => (protocols.has("mcp") ? "mcp" : false),
  });
  return {
    upgrade(suffix: string, req: IncomingMessage, socket: Duplex, head: Buffer, caller: HttpCaller): boolean {
      if (suffix !== "ws") return false;
      if (wss.clients.size >= (opts.maxSessions ?? DEFAULT_MAX_SESSIONS_PER_ROUTE)) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nretry-after: 5\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
        return true;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const s = new WsSession(ws);
        s.connection = opts.connect(s, { transport: "websocket", agent: caller.agent, sessionId: randomUUID() });
        // The front's byte budget: a message's bytes count while it arrives; past the budget the session closes (1013).
        const meter = frameMeterOf(req);
        if (meter) {
          socket.on("data", (c: Buffer) => {
            if (meter.take(c.length)) return;
            // Nothing more is read: the close frame goes out, and the socket is cut a moment later, not after the
            // close handshake's 30 s (the agent's close frame would never be read).
            socket.pause();
            ws.close(1013, "too many request bytes in flight, try again later");
            setTimeout(() => ws.terminate(), 1000).unref();
          });
        }
        ws.on("message", (data, binary) => {
          meter?.settle();
          const text = binary ? null : Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
          if (text === null) return ws.close(1003, "text frames only");
          s.connection.receive({ text });
        });
        ws.on("close", () => void s.connection.close());
        ws.on("error", () => ws.terminate());
      });
      return true;
    },
    async close(): Promise<void> {
      for (const ws of wss.clients) ws.close(1001, "proxy shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

class WsSession implements Downstream {
  connection!: Connection;
  private queued = 0;
  private paused = false;

  constructor(private readonly ws: WebSocket) {}

  send(text: string): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const bytes = Buffer.byteLength(text);
    this.queued += bytes;
    if (this.queued > HIGH_WATER && !this.paused) {
      this.paused = true;
      this.connection.upstream.pause?.();
    }
    this.ws.send(text, () => {
      this.queued -= bytes;
      if (this.paused && this.queued < HIGH_WATER / 2) {
        this.paused = false;
        this.connection.upstream.resume?.();
      }
    });
  }

  upstreamGone(reason: string): void {
    this.ws.close(1011, reason.slice(0, 120));
  }
}
