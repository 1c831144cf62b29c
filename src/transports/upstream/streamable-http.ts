import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import { Agent, request, type Dispatcher } from "undici";
import { idKey } from "../../protocol/json-rpc.js";
import { isStatelessVersion, protocolVersionOf, statelessHeadersOf } from "../../protocol/mcp.js";
import { DEFAULT_MAX_DEPTH } from "../../defaults.js";
import { parseJson, peekId } from "../../protocol/safe-json.js";
import { readSse, SseTooLarge, type SseReadResult } from "../sse-reader.js";
import type { Undelivered } from "../receipt.js";
import type { Frame, HttpCarry, SendInfo, UpstreamFactory, UpstreamSink, UpstreamState } from "../types.js";
import { lostSession, readBounded, readErrorBody, refusalOf, saysSessionLost } from "./http-body.js";
import { inTurn } from "../../turn.js";

export interface StreamableHttpOptions {
  url: string;
  /** Configured headers sent on every upstream request (e.g. the server's own API key). */
  headers?: Record<string, string>;
  /** How long to wait for the server's response headers. */
  timeoutMs?: number;
  /** Shared by every session of a route: one keep-alive connection pool per upstream. */
  dispatcher?: Dispatcher;
}

/** An HTTP connection pool for one route's upstream. */
export function upstreamAgent(): Agent {
  // A connection reused just as the server closes it fails a request the server never saw (-32052), and a busy event
  // loop widens that window. A server's `Keep-Alive: timeout=5` (Node's default) is trusted for 1 s, not 3; a server
  // that sends no hint — the MCP SDK's SSE answers set their own `connection` header, so Node adds none — may still
  // close at Node's 5 s: such a connection is let go after 3 s (undici's idle timers tick about once a second).
  return new Agent({ keepAliveTimeout: 3_000, keepAliveTimeoutThreshold: 4_000, connectTimeout: 5_000, pipelining: 1 });
}

/**
 * The one signal that ends every request of a session. undici takes an EventEmitter as well as an AbortSignal: this one
 * costs an object, where an AbortController builds an EventTarget and each request's listener is registered on it
 * with options (an A2A call makes a session, and so one of these, per POST).
 */
class SessionSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  constructor() {
    super();
    // Every request in flight listens: a session may have many at once.
    this.setMaxListeners(0);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}

type Target = { origin: string; path: string };

/** Where a POST goes: origin and path, split once per upstream URL (undici's `request(url)` parses it on every call). */
function targetOf(url: string): Target {
  const u = new URL(url);
  return { origin: u.origin, path: u.search ? u.pathname + u.search : u.pathname };
}

const MAX_RESUMES = 3;
/** Requests in a row that fail to reach the server before the session is ended (docs/serve.md). */
const UNREACHABLE_LIMIT = 3;
const SESSION_ENDED = new Error("session ended");

/**
 * MCP Streamable HTTP toward the server (2025-03-26 and later): one POST per frame; a JSON or SSE reply; server
 * messages that arrive on a POST's SSE stream are tagged with that request, so they reach the agent on the matching
 * downstream stream. The server's session id and protocol version are carried on every later request.
 */
export function streamableHttpUpstream(opts: StreamableHttpOptions): UpstreamFactory {
  const dispatcher = opts.dispatcher ?? upstreamAgent();
  let split: Target | undefined;
  const target = () => (split ??= targetOf(opts.url));
  return (sink, ctx) => new StreamableHttpUpstream(opts, dispatcher, target, sink, ctx.route, ctx.maxFrameBytes, ctx.resume ?? null);
}

class StreamableHttpUpstream {
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private gone: string | null = null;
  /** One signal ends every request of the session; a single request is let go through its `InFlight`. */
  private readonly all = new SessionSignal();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly bodies = new Set<Readable>();
  private paused = false;
  private standalone = false;
  /** Requests in a row that could not reach the server. */
  private unreachable = 0;
  /** Settles once the server has answered every notification and response POSTed so far (null: none is on its way). */
  private unanswered: Promise<unknown> | null = null;

  constructor(
    private readonly opts: StreamableHttpOptions,
    private readonly dispatcher: Dispatcher,
    /** The URL split once for every session of the upstream (on the first POST: a bad URL fails that request). */
    private readonly target: () => Target,
    private readonly sink: UpstreamSink,
    private readonly route: string,
    private readonly maxFrameBytes: number,
    resume: UpstreamState | null,
  ) {
    // A session continued from its token (another replica initialized it): no second initialize upstream.
    this.sessionId = resume?.sessionId;
    this.protocolVersion = resume?.protocolVersion ?? undefined;
  }

  state(): UpstreamState | null {
    return this.sessionId === undefined ? null : { sessionId: this.sessionId, protocolVersion: this.protocolVersion ?? null };
  }

  send(text: string, info?: SendInfo): void {
    const requests = info?.requests ?? [];
    if (this.gone !== null) {
      if (requests.length > 0) queueMicrotask(() => this.sink.failed(requests, this.gone ?? "closed"));
      return;
    }
    const carry = info?.carry as HttpCarry | undefined;
    void this.post(text, requests, info?.stream ?? null, carry?.headers, requests.length === 0 ? carry?.receipt?.hold() : undefined);
  }

  openStandalone(): void {
    if (this.standalone || this.gone !== null || this.sessionId === undefined) return;
    this.standalone = true;
    void this.listen(undefined, new Set(), null, 0).finally(() => {
      this.standalone = false;
    });
  }

  abandon(key: string): void {
    const f = this.inFlight.get(key);
    if (!f || f.stopped) return;
    f.stopped = new Error("the agent stopped listening");
    f.body?.destroy(f.stopped);
  }

  pause(): void {
    this.paused = true;
    for (const b of this.bodies) b.pause();
  }

  resume(): void {
    this.paused = false;
    for (const b of this.bodies) b.resume();
  }

  async close(): Promise<void> {
    await this.release();
    if (this.sessionId === undefined) return;
    // End the server's session too; a server that ignores DELETE (405) is fine.
    try {
      const res = await request(this.opts.url, { method: "DELETE", headers: this.headers(), dispatcher: this.dispatcher, headersTimeout: 2000, bodyTimeout: 2000 });
      await res.body.dump();
    } catch {
      // nothing to do: the server may already be gone
    }
  }

  /** Stops this connection's streams; the server's session stays, for another replica to go on with. */
  async release(): Promise<void> {
    if (this.gone === null) this.gone = "session ended";
    // Only when something is still in flight: an abort (and its Error) costs more than the rest of a short exchange.
    if (this.inFlight.size > 0 || this.bodies.size > 0) this.all.abort(SESSION_ENDED);
  }

  private headers(extra?: Record<string, string>, accept = "application/json, text/event-stream", more?: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.opts.headers, ...extra, ...more, accept };
    if (this.sessionId !== undefined) h["mcp-session-id"] = this.sessionId;
    if (h["mcp-protocol-version"] === undefined && this.protocolVersion !== undefined) h["mcp-protocol-version"] = this.protocolVersion;
    return h;
  }

  private track(requests: Iterable<string>): InFlight {
    const f: InFlight = { body: null, stopped: null };
    for (const k of requests) this.inFlight.set(k, f);
    return f;
  }

  private untrack(f: InFlight, requests: Iterable<string>): void {
    for (const k of requests) if (this.inFlight.get(k) === f) this.inFlight.delete(k);
  }

  /** The response has arrived: its body can now be let go of, and is at once if the agent already left. */
  private holds(f: InFlight, body: Readable): void {
    f.body = body;
    if (f.stopped) {
      body.destroy(f.stopped);
      throw f.stopped;
    }
  }

  /**
   * Notifications and responses: sent in order with the session's other messages (a later POST waits until the server
   * answered them, so it cannot overtake them on another connection), and the agent's POST that carried them is
   * acknowledged once it did (`delivered`, src/transports/receipt.ts).
   */
  private async post(text: string, requests: string[], stream: string | null, carried: Record<string, string> | undefined, delivered?: (problem?: Undelivered) => void): Promise<void> {
    const ahead = this.unanswered;
    let answered: (problem?: Undelivered) => void = () => {};
    if (requests.length === 0) {
      const mine = new Promise<Undelivered | undefined>((resolve) => (answered = resolve));
      void mine.then(delivered);
      const all = ahead ? Promise.all([ahead, mine]) : mine;
      this.unanswered = all;
      void all.then(() => {
        if (this.unanswered === all) this.unanswered = null;
      });
    }
    if (ahead) await ahead;
    const f = this.track(requests);
    const waiting = new Set(requests);
    const initialize = requests.length > 0 && this.sessionId === undefined && text.includes('"initialize"');
    // A stateless-era request names its method (and tool, prompt, resource or task) in headers that must match the
    // body: they are taken from the body as judged, so a rewrite by the rules cannot leave them disagreeing.
    const derived = isStatelessVersion(carried?.["mcp-protocol-version"]) ? statelessHeadersOf(JSON.parse(text)) : undefined;
    try {
      // Straight to the dispatcher, with the URL split once per upstream URL (targetOf).
      const { origin, path } = this.target();
      const headers = this.headers(carried, undefined, derived);
      headers["content-type"] = "application/json";
      const res = await this.dispatcher.request({
        origin,
        path,
        method: "POST",
        headers,
        body: text,
        signal: this.all,
        headersTimeout: this.opts.timeoutMs ?? 60_000,
        bodyTimeout: 0,
      });
      this.holds(f, res.body);
      this.unreachable = 0;
      const sentSession = this.sessionId !== undefined;
      if (res.statusCode < 300) answered();
      const sid = header(res.headers["mcp-session-id"]);
      if (sid !== undefined) this.sessionId = sid;
      const type = header(res.headers["content-type"]) ?? "";
      let stop: SseReadResult | undefined;
      if (type.startsWith("text/event-stream") && res.statusCode < 300) {
        stop = await this.readStream(res.body, waiting, stream, initialize);
      } else if (res.statusCode === 202 || res.statusCode === 204 || (res.statusCode < 300 && type === "")) {
        await res.body.dump();
      } else if (res.statusCode < 300) {
        const body = await readBounded(res.body, this.maxFrameBytes);
        if (typeof body !== "string") this.deliver(body, waiting, stream, initialize);
        else if (type.includes("json") && body.length > 0) this.deliver({ text: body }, waiting, stream, initialize);
      } else {
        const text = await readErrorBody(res.body);
        if (sentSession && lostSession(res.statusCode, text)) {
          // The server no longer knows the session (ended, or restarted): the requests in flight are answered, then
          // the downstream session ends too, so the agent's next request gets 404 and it starts over.
          const reason = `the server lost the session (HTTP ${res.statusCode}); the agent must initialize again`;
          answered({ status: 404, reason });
          if (waiting.size > 0) this.sink.failed([...waiting], reason);
          waiting.clear();
          this.terminate(reason);
          return;
        }
        // The server's own JSON-RPC answer to a request, in an error status, is its answer (judged like any other);
        // not to an auth challenge, though: the agent's OAuth flow starts from the status itself.
        answered({ status: 502, reason: `HTTP ${res.statusCode} from upstream` });
        const challenge = res.statusCode === 401 || res.statusCode === 403;
        if (!challenge && answersAny(text, waiting)) this.deliver({ text }, waiting, stream, initialize);
        if (waiting.size > 0) {
          this.sink.failed([...waiting], `HTTP ${res.statusCode} from upstream`, refusalOf(res.statusCode, res.headers));
          waiting.clear();
        }
      }
      // The stream ended without the answer: resume it where it stopped, as a client would (2025-11-25 polling).
      if (waiting.size > 0 && stop?.lastEventId !== undefined) {
        await this.listen(stop.lastEventId, waiting, stream, stop.retryMs ?? 0);
      }
      if (waiting.size > 0) throw new Error("the server closed the stream before answering");
      if (requests.length > 0) this.sink.ended?.(requests);
    } catch (e) {
      // Every request of the POST: one already answered is no longer pending (a no-op), while a streamed answer (A2A)
      // that broke after some events still is, and must be ended with an error rather than left open.
      const reason = reasonOf(e, f.stopped ?? this.all.reason);
      answered({ status: this.all.reason === SESSION_ENDED ? 404 : 502, reason });
      if (requests.length > 0) this.sink.failed(requests, reason);
      // A server that stays unreachable has lost the session even if it comes back: end it rather than fail forever.
      if (unreachable(e) && ++this.unreachable >= UNREACHABLE_LIMIT) this.terminate(`the server has been unreachable for ${this.unreachable} requests in a row (${reason})`);
    } finally {
      answered();
      this.untrack(f, requests);
    }
  }

  /** GET: the standalone stream (no last id), or a resumed POST stream (with `Last-Event-ID`). */
  private async listen(lastEventId: string | undefined, waiting: Set<string>, stream: string | null, delayMs: number): Promise<void> {
    for (let attempt = 0; attempt < MAX_RESUMES && this.gone === null; attempt++) {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, Math.min(delayMs, 5000)));
      const f = this.track(waiting);
      try {
        const extra: Record<string, string> = lastEventId !== undefined ? { "last-event-id": lastEventId } : {};
        const res = await request(this.opts.url, { method: "GET", headers: this.headers(extra, "text/event-stream"), dispatcher: this.dispatcher, signal: this.all, bodyTimeout: 0 });
        this.holds(f, res.body);
        if (res.statusCode !== 200) {
          if (saysSessionLost(res.statusCode, await readErrorBody(res.body))) this.terminate(`the server lost the session (HTTP ${res.statusCode})`);
          return;
        }
        const stop = await this.readStream(res.body, waiting, stream, false);
        if (stop.lastEventId === undefined) return;
        if (lastEventId === undefined && waiting.size === 0) attempt = -1; // a standalone stream is kept open
        lastEventId = stop.lastEventId;
        delayMs = stop.retryMs ?? 1000;
      } catch {
        return;
      } finally {
        this.untrack(f, waiting);
      }
    }
  }

  private async readStream(body: Readable, waiting: Set<string>, stream: string | null, initialize: boolean): Promise<SseReadResult> {
    this.bodies.add(body);
    if (this.paused) body.pause();
    try {
      return await readSse(body, this.maxFrameBytes, (ev) => {
        if (ev.data.length > 0 && (ev.event === undefined || ev.event === "message")) this.deliver({ text: ev.data }, waiting, stream, initialize);
      });
    } catch (e) {
      if (e instanceof SseTooLarge) {
        this.deliver({ oversize: "", bytes: e.bytes }, waiting, stream, initialize);
      }
      throw e;
    } finally {
      this.bodies.delete(body);
    }
  }

  /** Parses once (the session reuses the value), notes which awaited requests are answered, and hands it on. */
  private deliver(frame: Frame, waiting: Set<string>, stream: string | null, initialize: boolean): void {
    if ("oversize" in frame) {
      const id = peekId(frame.oversize);
      if (id !== null) waiting.delete(idKey(id));
      this.sink.frame({ ...frame, stream });
      return;
    }
    const parsed = parseJson(frame.text, { maxDepth: DEFAULT_MAX_DEPTH });
    if (!parsed.ok) {
      this.sink.frame({ text: frame.text, stream });
      return;
    }
    const awaited = waiting.size > 0;
    for (const m of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const o = m as { id?: unknown; method?: unknown; result?: unknown } | null;
      if (o === null || typeof o !== "object" || o.method !== undefined) continue;
      if (typeof o.id === "string" || typeof o.id === "number") {
        waiting.delete(idKey(o.id));
        if (initialize) this.protocolVersion = protocolVersionOf(o.result) ?? this.protocolVersion;
      }
    }
    const answered = { text: frame.text, value: parsed.value, stream };
    // The answer the POST waited for, the last it awaited: nothing more is expected on this stream, so it is one turn
    // (turn.ts) — judged, its line committed and sent on before this returns, not after the stream's own end. Other
    // events (progress, a streamed answer's further events) wait for a microtask as before, so that a burst of them
    // read at once shares one commit.
    if (awaited && waiting.size === 0) inTurn(() => this.sink.frame(answered));
    else this.sink.frame(answered);
  }

  private terminate(reason: string): void {
    if (this.gone !== null) return;
    this.gone = reason;
    this.all.abort(new Error(reason));
    this.sink.closed(reason);
  }
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

interface InFlight {
  body: Readable | null;
  /** Why this request was let go of (the agent stopped listening), once it was. */
  stopped: Error | null;
}

/** Does this body hold a response to one of these requests (id keys)? */
function answersAny(text: string, waiting: Set<string>): boolean {
  const parsed = parseJson(text, { maxDepth: DEFAULT_MAX_DEPTH });
  if (!parsed.ok) return false;
  return (Array.isArray(parsed.value) ? parsed.value : [parsed.value]).some((m) => {
    const o = m as { id?: unknown; method?: unknown } | null;
    return o !== null && typeof o === "object" && o.method === undefined && (typeof o.id === "string" || typeof o.id === "number") && waiting.has(idKey(o.id));
  });
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"]);

/** The request never reached a server that could answer it (nothing listening, the connection cut). */
function unreachable(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return UNREACHABLE.has(err.code ?? err.cause?.code ?? "");
}

function reasonOf(e: unknown, stopped: unknown): string {
  if (stopped instanceof Error) return stopped.message;
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === "UND_ERR_HEADERS_TIMEOUT") return "the server did not answer in time";
  if (code === "UND_ERR_CONNECT_TIMEOUT") return "connecting to the server timed out";
  const detail = err.cause?.message ?? err.message ?? String(e);
  if (code === "ECONNREFUSED") return `the server refused the connection: nothing listens there (${detail})`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return `the server closed the connection (${detail})`;
  return detail;
}
