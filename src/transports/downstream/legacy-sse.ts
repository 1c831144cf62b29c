import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../../protocol/json-rpc.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_SESSIONS_PER_ROUTE } from "../../defaults.js";
import { parseJson } from "../../protocol/safe-json.js";
import { sseEvent, sseEventParts, SSE_KEEPALIVE } from "../../protocol/sse.js";
import type { Connect, Connection, Downstream } from "../types.js";
import { accepts, eventWriter, httpError, readBody, SSE_HEADERS, traceHeadersOf } from "./http-util.js";
import type { HttpCaller, SessionContinuity } from "./streamable-http.js";

export interface LegacySseOptions {
  connect: Connect;
  maxBodyBytes: number;
  /** Open streams (sessions) at once; past it a new one is refused with 503. */
  maxSessions?: number;
  /**
   * Seals the `sessionId` of the messages URL, naming this replica: a POST that another replica receives is forwarded
   * here, where the session's one stream is (docs/scale.md). None: a random id.
   */
  continuity?: SessionContinuity;
}

/**
 * MCP 2024-11-05 HTTP+SSE toward the agent: `GET <route>/sse` opens the session's one stream, whose first event
 * (`endpoint`) names the proxy's own `<route>/messages?sessionId=…`; POSTs there are answered 202 and every reply
 * travels on the stream. Closing the stream ends the session and releases its upstream.
 */
export function legacySseEndpoint(opts: LegacySseOptions) {
  const sessions = new Map<string, SseSession>();
  const timer = setInterval(() => {
    for (const s of sessions.values()) eventWriter(s.res).idleWrite(SSE_KEEPALIVE);
  }, 20_000);
  timer.unref();

  const open = (req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string) => {
    if (!accepts(req.headers.accept ?? "text/event-stream", "text/event-stream")) {
      return httpError(res, 406, ErrorCode.ServerError, "Not Acceptable: Client must accept text/event-stream");
    }
    if (sessions.size >= (opts.maxSessions ?? DEFAULT_MAX_SESSIONS_PER_ROUTE)) return httpError(res, 503, ErrorCode.ServerError, "Service Unavailable: too many sessions on this route", null, { "retry-after": "5" });
    const guardian = randomUUID();
    const agent = caller.agent?.id ?? null;
    const id = opts.continuity ? opts.continuity.seal({ agent, session: guardian, upstream: null, server: null }, true) : guardian;
    const s = new SseSession(id, agent, res);
    s.connection = opts.connect(s, { transport: "sse", agent: caller.agent, sessionId: guardian });
    sessions.set(id, s);
    res.writeHead(200, SSE_HEADERS);
    const messages = new URL((req.url ?? "").replace(/\/sse(\?.*)?$/, "/messages"), base);
    eventWriter(res).write([sseEvent(`${messages.pathname}?sessionId=${id}`, undefined, "endpoint")]);
    res.on("close", () => {
      sessions.delete(id);
      void s.connection.close();
    });
  };

  const post = async (req: IncomingMessage, res: ServerResponse, caller: HttpCaller) => {
    const sid = new URL(req.url ?? "", "http://x").searchParams.get("sessionId");
    const s = sid === null ? undefined : sessions.get(sid);
    if (!s || s.agentId !== (caller.agent?.id ?? null)) {
      req.resume();
      return httpError(res, 404, ErrorCode.SessionNotFound, "Session not found");
    }
    if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      req.resume();
      return httpError(res, 415, ErrorCode.ServerError, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = await readBody(req, opts.maxBodyBytes);
    if (!body.ok) return httpError(res, body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.status === 413 ? "Payload Too Large" : "Parse error");
    const parsed = parseJson(body.text, { maxDepth: DEFAULT_MAX_DEPTH });
    if (!parsed.ok) return httpError(res, 400, parsed.code === "TOO_DEEP" ? ErrorCode.InvalidRequest : ErrorCode.ParseError, parsed.code === "TOO_DEEP" ? `Invalid Request: ${parsed.detail}` : "Parse error: Invalid JSON", parsed.id);
    res.writeHead(202, { "content-type": "text/plain" }).end("Accepted");
    const trace = traceHeadersOf(req);
    s.connection.receive(trace ? { text: body.text, value: parsed.value, carry: { headers: {}, trace } } : { text: body.text, value: parsed.value });
  };

  return {
    handle(suffix: string, req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string): boolean {
      if (suffix === "sse" && req.method === "GET") open(req, res, caller, base);
      else if (suffix === "messages" && req.method === "POST") void post(req, res, caller);
      else return false;
      return true;
    },
    async close(): Promise<void> {
      clearInterval(timer);
      for (const s of sessions.values()) eventWriter(s.res).end();
      await Promise.all([...sessions.values()].map((s) => s.connection.close()));
    },
  };
}

class SseSession implements Downstream {
  connection!: Connection;
  private blocked = false;

  constructor(
    readonly id: string,
    readonly agentId: string | null,
    readonly res: ServerResponse,
  ) {
    eventWriter(res, () => {
      if (!this.blocked) return;
      this.blocked = false;
      this.connection.upstream.resume?.();
    });
  }

  /** The `sessionId` of the messages URL the agent was given. */
  clientSessionId(): string {
    return this.id;
  }

  send(text: string): void {
    if (this.res.writableEnded) return;
    if (!eventWriter(this.res).write(sseEventParts(text, undefined, "message")) && !this.blocked) {
      this.blocked = true;
      this.connection.upstream.pause?.();
    }
  }

  upstreamGone(): void {
    eventWriter(this.res).end();
  }
}
