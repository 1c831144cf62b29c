import type { IncomingMessage, ServerResponse } from "node:http";
import { classify, ErrorCode, idKey } from "../../protocol/json-rpc.js";
import { batchesAllowed, envelopeVersionOf, isStatelessVersion, MCP_DEFAULT_HTTP_VERSION, MCP_PROTOCOL_VERSIONS } from "../../protocol/mcp.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_SESSIONS_PER_ROUTE } from "../../defaults.js";
import { parseJson } from "../../protocol/safe-json.js";
import type { Connect, UpstreamState } from "../types.js";
import { DEFAULT_EVENT_STORE_BOUNDS, MemoryEventStore, type EventStore } from "./event-store.js";
import { acknowledge, HttpSession } from "./http-session.js";
import { accepts, httpError, readBody } from "./http-util.js";
import { carryOf, metadataUrl } from "./pending-posts.js";
import { RouteSessions, type HttpCaller, type SessionContinuity, type SessionState } from "./route-sessions.js";
import { StatelessExchanges } from "./stateless.js";
import { inTurn } from "../../turn.js";

export type { EndWatcher, HttpCaller, RestoreRefusal, SessionContinuity, SessionState } from "./route-sessions.js";
export { callerName } from "./stateless.js";
export type { EventStore } from "./event-store.js";

export interface StreamableHttpOptions {
  connect: Connect;
  maxBodyBytes: number;
  /** A session with no open stream and no request for this long is ended (its upstream released). */
  idleMs: number;
  /** Events kept per stream for `Last-Event-ID` resumption (default 256). */
  replayEvents?: number;
  /** Characters of event text kept per session for resumption, over all its streams (default 16 Mi). */
  replayChars?: number;
  /** Each session's replay log; default: a `MemoryEventStore` within `replayEvents` and `replayChars`. */
  eventStore?: () => EventStore;
  /** Live sessions on this route; past it, a new initialize is refused with 503 (memory and children stay bounded). */
  maxSessions?: number;
  /**
   * The upstream takes stateless (2026-07-28) requests: each such POST is judged as a guarded exchange of its own.
   * Otherwise they are refused with 400, and clients that negotiate fall back to `initialize`.
   */
  stateless?: boolean;
  /** Sealed session ids that any replica can continue (src/proxy/continuity.ts); none: a random id per session. */
  continuity?: SessionContinuity;
}

/**
 * MCP Streamable HTTP toward the agent, at one route path: POST (JSON or SSE replies), GET (the standalone stream, or a
 * resumed one with `Last-Event-ID`), DELETE, `Mcp-Session-Id`. Each downstream session has its own guarded session
 * and upstream. Every reply goes on the stream of the request it answers or relates to.
 */
export class StreamableHttpEndpoint {
  private readonly sessions: RouteSessions;
  private readonly exchanges: StatelessExchanges;
  private readonly timer: NodeJS.Timeout;
  private readonly maxSessions: number;

  constructor(private readonly opts: StreamableHttpOptions) {
    this.maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS_PER_ROUTE;
    const make = this.session.bind(this);
    this.sessions = new RouteSessions(opts.continuity, this.maxSessions, make);
    this.exchanges = new StatelessExchanges(make);
    this.timer = setInterval(() => this.sweep(), Math.min(20_000, Math.max(1000, opts.idleMs / 2)));
    this.timer.unref();
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): Promise<void> {
    const method = req.method ?? "GET";
    if (method === "POST") return this.post(req, res, caller);
    if (method === "GET") return this.get(req, res, caller);
    if (method === "DELETE") return this.delete(req, res, caller);
    httpError(res, 405, ErrorCode.ServerError, "Method not allowed", null, { allow: "GET, POST, DELETE" });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // Sessions another replica can continue are let go here, not ended upstream.
    await this.sessions.close();
  }

  /**
   * The session a request names, continued from its token when another replica began it; or the HTTP answer that it
   * has none (400 missing, 404 unknown or not the caller's, 503 when that cannot be known now).
   */
  private sessionOf(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): HttpSession | null | Promise<HttpSession | null> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid !== "string") {
      httpError(res, 400, ErrorCode.ServerError, "Bad Request: Mcp-Session-Id header is required");
      return null;
    }
    // A session held here is found at once: a POST's body is then read without first waiting two promise turns.
    const held = this.sessions.heldFor(sid, caller);
    if (held) return this.checked(req, res, held);
    return this.sessions.find(sid, caller).then((s) => {
      if (!(s instanceof HttpSession)) {
        httpError(res, s.status, s.code ?? ErrorCode.SessionNotFound, s.message, null, s.status === 503 ? { "retry-after": "1" } : {});
        return null;
      }
      return this.checked(req, res, s);
    });
  }

  /** The request's protocol version is one MCP knows (or absent): the session is used, and so kept alive. */
  private checked(req: IncomingMessage, res: ServerResponse, s: HttpSession): HttpSession | null {
    const version = req.headers["mcp-protocol-version"];
    if (version !== undefined && (typeof version !== "string" || !MCP_PROTOCOL_VERSIONS.has(version))) {
      httpError(res, 400, ErrorCode.ServerError, `Bad Request: Unsupported protocol version: ${String(version)}`);
      return null;
    }
    s.touch();
    return s;
  }

  private async post(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): Promise<void> {
    const type = req.headers["content-type"] ?? "";
    if (!type.toLowerCase().startsWith("application/json")) {
      req.resume();
      return httpError(res, 415, ErrorCode.ServerError, "Unsupported Media Type: Content-Type must be application/json");
    }
    const accept = req.headers.accept;
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
      req.resume();
      return httpError(res, 406, ErrorCode.ServerError, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    const hasSession = req.headers["mcp-session-id"] !== undefined;
    const found = hasSession ? this.sessionOf(req, res, caller) : null;
    const existing = found instanceof Promise ? await found : found;
    if (hasSession && !existing) return void req.resume();

    const body = await readBody(req, this.opts.maxBodyBytes);
    if (!body.ok) {
      if (body.status === 413) return httpError(res, 413, ErrorCode.InvalidRequest, `Payload Too Large: ${body.bytes} bytes exceeds the ${this.opts.maxBodyBytes}-byte limit`);
      return httpError(res, 400, ErrorCode.ParseError, "Parse error: the request body could not be read");
    }
    const parsed = parseJson(body.text, { maxDepth: DEFAULT_MAX_DEPTH });
    if (!parsed.ok) {
      if (parsed.code === "TOO_DEEP") return httpError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${parsed.detail}`, parsed.id);
      return httpError(res, 400, ErrorCode.ParseError, "Parse error: Invalid JSON");
    }
    const batch = Array.isArray(parsed.value);
    const items: unknown[] = batch ? (parsed.value as unknown[]) : [parsed.value];
    const version = (req.headers["mcp-protocol-version"] as string | undefined) ?? MCP_DEFAULT_HTTP_VERSION;
    if (batch && (items.length === 0 || !batchesAllowed(version))) {
      const why = items.length === 0 ? "empty batch" : `batches are not allowed in protocol version ${version}`;
      return httpError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
    }
    const requests: string[] = [];
    const answers: string[] = [];
    let initialize = false;
    for (const item of items) {
      const c = classify(item);
      if (!c.ok) return httpError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${c.reason}`, c.id);
      if (c.kind === "response" && (typeof c.id === "string" || typeof c.id === "number")) answers.push(idKey(c.id));
      if (c.kind === "request") {
        requests.push(idKey(c.id as string | number));
        if (c.method === "initialize") initialize = true;
      }
    }
    const frame = { text: body.text, value: parsed.value, carry: carryOf(req, caller.forward) };
    if (!existing && !batch && this.opts.stateless && (isStatelessVersion(req.headers["mcp-protocol-version"]) || isStatelessVersion(envelopeVersionOf(parsed.value)))) {
      return this.exchanges.handle(req, res, caller, requests, frame, this.sessions.size, this.maxSessions);
    }
    let session = existing;
    if (!session) {
      if (!initialize || batch) return httpError(res, 400, ErrorCode.ServerError, "Bad Request: Mcp-Session-Id header is required");
      if (this.sessions.size >= this.maxSessions) {
        return httpError(res, 503, ErrorCode.ServerError, `Service Unavailable: this route already has ${this.sessions.size} sessions; end one (DELETE) or retry later`, null, { "retry-after": "5" });
      }
      session = this.sessions.open(caller);
    }
    if (existing && requests.length === 0 && answers.length > 0) {
      const elsewhere = await this.sessions.askedElsewhere(existing, answers);
      if (elsewhere && this.opts.continuity?.relay?.send(elsewhere, req, res, body.text)) return;
    }
    if (requests.length === 0) {
      // Notifications and responses are acknowledged once the server has them (or they were judged not to go on), so
      // what the agent sends next, through whichever replica, reaches the server after them (docs/scale.md, Order).
      const s = session;
      void s.deliver(frame).then((problem) => acknowledge(res, problem, s.id));
      return;
    }
    frame.carry.exchange = session.expect(res, requests, batch, () => metadataUrl(req));
    // One turn (turn.ts): the body's messages are judged, their lines committed and what goes on sent before this
    // returns, not after whatever else the event loop has queued.
    const connection = session.connection;
    inTurn(() => connection.receive(frame));
  }

  private async get(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): Promise<void> {
    if (!accepts(req.headers.accept, "text/event-stream")) {
      return httpError(res, 406, ErrorCode.ServerError, "Not Acceptable: Client must accept text/event-stream");
    }
    const session = await this.sessionOf(req, res, caller);
    if (!session) return;
    const last = req.headers["last-event-id"];
    if (typeof last === "string" && last.length > 0) return session.resume(last, res);
    session.listen(res);
  }

  /** Ends the session for good: upstream, and on every replica that holds it, before the answer (docs/scale.md, Ends). */
  private async delete(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): Promise<void> {
    const session = await this.sessionOf(req, res, caller);
    if (!session) return;
    await session.end();
    res.writeHead(200, { "mcp-session-id": session.id }).end();
  }

  /** A downstream session (`id` "" for a stateless exchange) linked to a new guarded session upstream. */
  private session(id: string, caller: HttpCaller, guardianSession: string, onEnd: (ended: boolean) => Promise<void> | undefined | void, resume?: { upstream: UpstreamState | null; server: SessionState["server"] }): HttpSession {
    const store = this.opts.eventStore?.() ?? new MemoryEventStore({ eventsPerStream: this.opts.replayEvents ?? DEFAULT_EVENT_STORE_BOUNDS.eventsPerStream, chars: this.opts.replayChars ?? DEFAULT_EVENT_STORE_BOUNDS.chars });
    const s = new HttpSession(id, caller.agent?.id ?? null, store, onEnd, this.opts.continuity?.eventPrefix ?? "");
    s.idleMs = this.opts.idleMs;
    s.onGone = (reason) => this.sessions.gone(s, reason);
    const relay = this.opts.continuity?.relay;
    if (relay && id !== "") s.onAsk = (key) => relay.asked(id, key);
    s.connection = this.opts.connect(s, { transport: "streamable-http", agent: caller.agent, sessionId: guardianSession, resume });
    return s;
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of this.sessions.all()) {
      if (s.idleSince(now) > this.opts.idleMs) void this.sessions.letGo(s);
      else s.keepalive();
    }
  }
}
