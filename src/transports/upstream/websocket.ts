import { WebSocket } from "ws";
import type { UpstreamFactory } from "../types.js";
import { SendQueue } from "./queue.js";

export interface WebsocketUpstreamOptions {
  url: string;
  headers?: Record<string, string>;
}

/** MCP over WebSocket toward the server (subprotocol `mcp`, one JSON-RPC message per text frame). */
export function websocketUpstream(opts: WebsocketUpstreamOptions): UpstreamFactory {
  return (sink, ctx) => {
    const queue = new SendQueue(sink);
    const ws = new WebSocket(opts.url, "mcp", { headers: opts.headers, maxPayload: ctx.maxFrameBytes, handshakeTimeout: 5000 });
    const paused = { on: false };
    ws.on("open", () => queue.drain((text) => ws.send(text)));
    ws.on("message", (data, binary) => {
      if (binary) return;
      const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
      sink.frame({ text });
    });
    ws.on("error", (e) => queue.close(e.message));
    ws.on("close", (code, reason) => queue.close(`the server closed the WebSocket (${code}${reason.length ? ` ${reason.toString()}` : ""})`));
    return {
      send(text, info) {
        if (!queue.hold(text, info, ws.readyState === WebSocket.OPEN)) ws.send(text);
      },
      async close() {
        queue.close("session ended", false);
        if (ws.readyState === WebSocket.CLOSED) return;
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 1000);
          ws.once("close", () => {
            clearTimeout(t);
            resolve();
          });
          ws.close(1000);
        });
      },
      pause() {
        paused.on = true;
        ws.pause();
      },
      resume() {
        paused.on = false;
        ws.resume();
      },
    };
  };
}
