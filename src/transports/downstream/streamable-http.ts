import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { classify, ErrorCode, errorResponse, idKey, idOfKey } from "../../protocol/json-rpc.js";
import { batchesAllowed, envelopeVersionOf, isStatelessVersion, MCP_DEFAULT_HTTP_VERSION, MCP_PROTOCOL_VERSIONS } from "../../protocol/mcp.js";
import { DEFAULT_MAX_DEPTH, parseJson } from "../../protocol/safe-json.js";
import { sseEventParts, SSE_KEEPALIVE } from "../../protocol/sse.js";
import type { Connect, Connection, Downstream, HttpCarry, HttpRefusal, SendInfo, UpstreamState } from "../types.js";
import { Receipt, type Undelivered } from "../receipt.js";
import { accepts, endWithText, eventWriter, httpError, readBody, SSE_HEADERS, traceHeadersOf } from "./http-util.js";

export interface StreamableHttpOptions {
  connect: Connect;
  maxBodyBytes: number;
  /** A session with no open stream and no request for this long is ended (its upstream released). */
  idleMs: number;
  /** Events kept per stream for `Last-Event-ID` resumption. */
  replayEvents?: number;
  /** Characters of event text kept per session for resumption, over all its streams (default 16 Mi). */
  replayChars?: number;
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

/** What a session token seals about a session, besides its route. */
export interface SessionState {
  agent: string | null;
  /** The guardian's session id: the same on every replica that continues the session. */
  session: string;
  upstream: UpstreamState | null;
  server: { name: string; version: string } | null;
}

/** Why a token's session is not continued here: the HTTP status, the message, and the JSON-RPC code (default -32001). */
export interface RestoreRefusal {
  status: 404 | 503;
  message: string;
  code?: number;
}

/** Session ids as sealed tokens (docs/scale.md), for one route. */
export interface SessionContinuity {
  /** The token naming this session; `owned`: it lives in this replica whatever the route's upstream. */
  seal(state: SessionState, owned?: boolean): string;
  /**
   * The session a token names, to continue here; or the refusal: 404 (not sealed by us, another route or agent, killed
   * or ended, or it lives in a replica) or 503 (the shared store cannot say whether it was killed).
   */
  restore(token: string, agent: string | null): Promise<SessionState | RestoreRefusal>;
  /**
   * The session ended for good (DELETE, kill, the server lost it): no replica continues it, and every replica holding
   * it ends its copy; settles once they have.
   */
  ended(session: string): Promise<void>;
  /** Sessions ended on another replica are ended here through `w` (several replicas). */
  watch?(w: EndWatcher): () => void;
  /** Other replicas may continue sessions: one that idles out or a replica that stops lets go without ending it. */
  readonly shared: boolean;
  /** Event ids of resumable streams start with this (`<replica>~`), so a resumption finds the replica keeping them. */
  readonly eventPrefix: string;
  /**
   * Several replicas: the server's requests to the agent (sampling, elicitation…) are recorded with the replica that
   * delivered them, and the agent's answer landing on another replica is relayed there, to the session awaiting it.
   */
  relay?: {
    asked(session: string, request: string): void;
    askedWhere(session: string, request: string): Promise<string | null>;
    /** False: not sent (the request was itself forwarded here): it is answered here. */
    send(replica: string, req: IncomingMessage, res: ServerResponse, body: string): boolean;
  };
}

/** A route's sessions as the replicas' ends reach them (src/proxy/continuity.ts). */
export interface EndWatcher {
  /** Another replica ended this session (its server session is gone): end the copy held here; true if there was one. */
  end(session: string): boolean;
  /** The guardian session ids held here, to be checked after a time ends could not be heard of. */
  held(): string[];
}

/** The agent making an HTTP request, as the server's auth layer established it. */
export interface HttpCaller {
  agent: { id: string } | null;
  /** Protocol headers to pass upstream (e.g. the agent's Authorization when guardwire did not consume it). */
  forward: Record<string, string>;
}

/**
 * Who a sessionless caller is, for the guardian session its calls share (MCP 2026-07-28 exchanges, A2A calls): its
 * key's id, or its address on a route without keys.
 */
export function callerName(req: IncomingMessage, caller: HttpCaller): string {
  return caller.agent?.id ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * MCP Streamable HTTP toward the agent, at one route path: POST (JSON or SSE replies), GET (the standalone stream, or a
 * resumed one with `Last-Event-ID`), DELETE, `Mcp-Session-Id`. Each downstream session has its own guarded session
 * and upstream. Every reply goes on the stream of the request it answers or relates to.
 */
export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, HttpSession>();
  /** Tokens being restored (a read of the shared store): a second request for one waits for the first. */
  private readonly restoring = new Map<string, Promise<HttpSession | RestoreRefusal>>();
  private readonly timer: NodeJS.Timeout;

  private readonly unwatch: () => void;
  /**
   * Why sessions ended here without the agent's DELETE (killed by an operator, the server gone), by the id the agent
   * holds: its next request learns why in the 404. Bounded: the newest GONE_KEPT, for at most GONE_MS.
   */
  private readonly endedWhy = new Map<string, { reason: string; at: number }>();

  constructor(private readonly opts: StreamableHttpOptions) {
    this.timer = setInterval(() => this.sweep(), Math.min(20_000, Math.max(1000, opts.idleMs / 2)));
    this.timer.unref();
    this.unwatch = opts.continuity?.watch?.({ end: (id) => this.endedElsewhere(id), held: () => this.held() }) ?? (() => {});
  }

  /** Stateless (2026-07-28) exchanges in flight. */
  private exchanges = 0;

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
    this.unwatch();
    // Sessions another replica can continue are let go here, not ended upstream.
    await Promise.all([...new Set(this.sessions.values())].map((s) => this.letGo(s)));
  }

  /**
   * The session a request names, continued from its token when another replica began it; or the HTTP answer that it
   * has none (400 missing, 404 unknown or not the caller's).
   */
  private async sessionOf(req: IncomingMessage, res: ServerResponse, caller: HttpCaller): Promise<HttpSession | null> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid !== "string") {
      httpError(res, 400, ErrorCode.ServerError, "Bad Request: Mcp-Session-Id header is required");
      return null;
    }
    const agent = caller.agent?.id ?? null;
    const found = this.sessions.get(sid) ?? (await this.restore(sid, caller));
    if (!(found instanceof HttpSession) || found.agentId !== agent) {
      const why = found instanceof HttpSession ? undefined : this.endedWhy.get(sid);
      const refusal = found instanceof HttpSession ? null : why && Date.now() - why.at < GONE_MS ? { status: 404 as const, message: `Session not found: ${why.reason}` } : found;
      httpError(res, refusal?.status ?? 404, refusal?.code ?? ErrorCode.SessionNotFound, refusal?.message ?? "Session not found", null, refusal?.status === 503 ? { "retry-after": "1" } : {});
      return null;
    }
    const s = found;
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
    const existing = hasSession ? await this.sessionOf(req, res, caller) : null;
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
    const carry = carryOf(req, caller);
    if (!existing && !batch && this.opts.stateless && (isStatelessVersion(req.headers["mcp-protocol-version"]) || isStatelessVersion(envelopeVersionOf(parsed.value)))) {
      return this.stateless(req, res, caller, requests, { text: body.text, value: parsed.value, carry: statelessCarry(req, carry) });
    }
    let session = existing;
    if (!session) {
      if (!initialize || batch) return httpError(res, 400, ErrorCode.ServerError, "Bad Request: Mcp-Session-Id header is required");
      if (this.sessions.size >= (this.opts.maxSessions ?? 10_000)) {
        return httpError(res, 503, ErrorCode.ServerError, `Service Unavailable: this route already has ${this.sessions.size} sessions; end one (DELETE) or retry later`, null, { "retry-after": "5" });
      }
      session = this.open(caller);
    }
    if (existing && requests.length === 0 && answers.length > 0) {
      const elsewhere = await this.askedElsewhere(existing, answers);
      if (elsewhere && this.opts.continuity?.relay?.send(elsewhere, req, res, body.text)) return;
    }
    const frame = { text: body.text, value: parsed.value, carry };
    if (requests.length === 0) {
      // Notifications and responses are acknowledged once the server has them (or they were judged not to go on), so
      // what the agent sends next, through whichever replica, reaches the server after them (docs/scale.md, Order).
      const s = session;
      void this.delivered(s, frame).then((problem) => acknowledge(res, problem, s.id));
      return;
    }
    carry.exchange = session.expect(res, requests, batch, () => metadataUrl(req));
    session.connection.receive(frame);
  }

  /**
   * A stateless-era POST (MCP 2026-07-28): no session on either side, so it is one guarded exchange of its own — judged,
   * sent upstream with its headers, its answer (JSON or a stream) judged on the way back, then let go. A notification
   * is acknowledged, and let go, once the server has it.
   */
  private stateless(req: IncomingMessage, res: ServerResponse, caller: HttpCaller, requests: string[], frame: PostFrame): void {
    // Exchanges in flight count against the route's session limit: a flood of them cannot hold unbounded upstreams.
    if (this.sessions.size + this.exchanges >= (this.opts.maxSessions ?? 10_000)) {
      return httpError(res, 503, ErrorCode.ServerError, `Service Unavailable: this route already has ${this.sessions.size + this.exchanges} sessions and exchanges; retry later`, null, { "retry-after": "5" });
    }
    this.exchanges++;
    // No session on the wire, but the guardian's flow rules and limits need one: every stateless request of one caller
    // is judged in the same guardian session.
    const s = this.session("", caller, `stateless:${callerName(req, caller)}`, () => {
      this.exchanges--;
    });
    if (requests.length === 0) {
      void this.delivered(s, frame).then((problem) => {
        acknowledge(res, problem, "");
        void s.end();
      });
      return;
    }
    frame.carry.exchange = s.expect(res, requests, false, () => metadataUrl(req));
    res.on("close", () => void s.end());
    s.connection.receive(frame);
  }

  /** Hands notifications or responses to the session; settles once the server has them, or with why it does not. */
  private delivered(s: HttpSession, frame: PostFrame): Promise<Undelivered | null> {
    const receipt = (frame.carry.receipt = new Receipt());
    s.connection.receive(frame);
    receipt.close();
    return receipt.settled;
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

  /** Another replica ended the session: this replica's copy is let go (the server's session is already ended). */
  private endedElsewhere(guardianSession: string): boolean {
    let found = false;
    for (const s of this.sessions.values()) {
      if (s.guardianSession !== guardianSession) continue;
      found = true;
      void s.letGo();
    }
    return found;
  }

  /** The guardian session ids of the sessions held here that another replica could end (they have a token). */
  private held(): string[] {
    return [...new Set([...this.sessions.values()].filter((s) => s.sealed !== null).map((s) => s.guardianSession))];
  }

  /**
   * A new session. Its id is sealed when first sent, with the answer to `initialize`: by then the token can carry the
   * server's session and name. Until then it is known here by its guardian session id alone.
   */
  private open(caller: HttpCaller): HttpSession {
    const guardian = randomUUID();
    const continuity = this.opts.continuity;
    const agent = caller.agent?.id ?? null;
    const s = this.session(guardian, caller, guardian, (ended) => this.forget(s, ended));
    if (continuity) {
      s.sealer = () => {
        const token = continuity.seal({ agent, session: guardian, ...s.connection.state?.() ?? { upstream: null, server: null } });
        this.sessions.delete(guardian);
        this.sessions.set(token, s);
        return token;
      };
    }
    this.sessions.set(guardian, s);
    return s;
  }

  /**
   * The replica that delivered the server requests these answers are for, when it is not this one (the agent answers
   * through whichever replica the load balancer picks); null: they are this replica's.
   */
  private async askedElsewhere(s: HttpSession, answers: string[]): Promise<string | null> {
    const relay = this.opts.continuity?.relay;
    const unknown = answers.filter((k) => !s.asked.delete(k));
    if (!relay || unknown.length === 0) return null;
    return relay.askedWhere(s.guardianSession, unknown[0] as string);
  }

  /** The session ended because its upstream did (or an operator killed it): remembered for the agent's next request. */
  private gone(s: HttpSession, reason: string): void {
    const id = s.clientSessionId();
    if (id === null) return;
    this.endedWhy.delete(id);
    this.endedWhy.set(id, { reason, at: Date.now() });
    while (this.endedWhy.size > GONE_KEPT) this.endedWhy.delete(this.endedWhy.keys().next().value as string);
  }

  /** A session idle or on a replica that stops: released when another replica may continue it, else ended. */
  private letGo(s: HttpSession): Promise<void> {
    return this.opts.continuity?.shared ? s.letGo() : s.end();
  }

  private forget(s: HttpSession, ended: boolean): Promise<void> | undefined {
    this.sessions.delete(s.guardianSession);
    if (s.sealed !== null) this.sessions.delete(s.sealed);
    return ended && s.sealed !== null ? this.opts.continuity?.ended(s.guardianSession) : undefined;
  }

  /** A session another replica began (or this one let go of), continued from its token; or why it cannot be. */
  private restore(token: string, caller: HttpCaller): Promise<HttpSession | RestoreRefusal> {
    const continuity = this.opts.continuity;
    if (!continuity) return Promise.resolve({ status: 404, message: "Session not found" });
    let pending = this.restoring.get(token);
    if (pending) return pending;
    pending = (async () => {
      const state = await continuity.restore(token, caller.agent?.id ?? null);
      if ("status" in state) return state;
      const again = this.sessions.get(token);
      if (again) return again;
      if (this.sessions.size >= (this.opts.maxSessions ?? 10_000)) return { status: 503 as const, code: ErrorCode.ServerError, message: `Service Unavailable: this route already has ${this.sessions.size} sessions on this replica; retry later` };
      const s = this.session(state.session, caller, state.session, (ended) => this.forget(s, ended), { upstream: state.upstream, server: state.server });
      s.sealed = token;
      this.sessions.set(token, s);
      return s;
    })().finally(() => this.restoring.delete(token));
    if (this.restoring.size < 1024) this.restoring.set(token, pending);
    return pending;
  }

  /** A downstream session (`id` "" for a stateless exchange) linked to a new guarded session upstream. */
  private session(id: string, caller: HttpCaller, guardianSession: string, onEnd: (ended: boolean) => Promise<void> | undefined | void, resume?: { upstream: UpstreamState | null; server: SessionState["server"] }): HttpSession {
    const s = new HttpSession(id, caller.agent?.id ?? null, this.opts.replayEvents ?? 256, this.opts.replayChars ?? 16 << 20, onEnd, this.opts.continuity?.eventPrefix ?? "");
    s.idleMs = this.opts.idleMs;
    s.onGone = (reason) => this.gone(s, reason);
    const relay = this.opts.continuity?.relay;
    if (relay && id !== "") s.onAsk = (key) => relay.asked(id, key);
    s.connection = this.opts.connect(s, { transport: "streamable-http", agent: caller.agent, sessionId: guardianSession, resume });
    return s;
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of new Set(this.sessions.values())) {
      if (s.idleSince(now) > this.opts.idleMs) void this.letGo(s);
      else s.keepalive();
    }
  }
}

/** One SSE stream of a session, kept as a short log so a reconnecting agent can resume it (`Last-Event-ID`). */
interface Stream {
  tag: string;
  seq: number;
  log: [number, string][];
  /** Characters of text in `log`. */
  chars: number;
  /** The last event no longer kept: a resume from before it cannot be served intact. */
  dropped: number;
  res: ServerResponse | null;
  /** The stream's request was answered: once written, the stream ends. */
  done: boolean;
}

/** One POST that carried requests: it is answered as JSON, or switches to SSE when a related message comes first. */
interface Exchange {
  res: ServerResponse;
  waiting: Set<string>;
  batch: boolean;
  stream: Stream | null;
  /** The proxy's own protected-resource metadata URL for this route, for an upstream's auth challenge (made if one comes). */
  metadata: () => string;
  /** The agent stopped listening before every answer came: what follows goes to its stream's replay log. */
  cut: boolean;
}

/**
 * The `carry` of a POST: its protocol headers, and the exchange that waits for its answers. Request ids are the
 * agent's to choose and may repeat (a duplicate of a pending id is refused by the session), so an answer is routed
 * by the exchange it names, never by its id alone.
 */
interface PostCarry extends HttpCarry {
  exchange?: Exchange;
}

/** A POST's body as the session receives it. */
interface PostFrame {
  text: string;
  value: unknown;
  carry: PostCarry;
}

const UNRELATED_BUFFER = 64;
/** Ended sessions whose reason is kept for the agent's next request, and for how long. */
const GONE_KEPT = 1024;
const GONE_MS = 3_600_000;
/** Cut streams (and their request keys) kept for resumption per session. */
const MAX_DETACHED = 128;

class HttpSession implements Downstream {
  connection!: Connection;
  /** The POSTs waiting for each request id key, oldest first: the first is the one messages by id alone go to. */
  private readonly exchanges = new Map<string, Exchange[]>();
  /** Streams whose connection dropped before they were done, by tag: kept for resumption. */
  private readonly detached = new Map<string, Stream>();
  /** Characters kept in every stream's replay log, together. */
  private logChars = 0;
  private standalone: Stream | null = null;
  /** Server messages tied to no request while no stream is open: delivered when the agent opens its GET stream. */
  private readonly unrelated: string[] = [];
  private streams = 0;
  private lastSeen = Date.now();
  /** Responses whose buffers are full: the upstream is paused while any is. */
  private readonly blocked = new Set<ServerResponse>();
  private ended = false;
  /** The token the agent knows this session by, once sent; `sealer` makes it (without one: the guardian session id). */
  sealed: string | null = null;
  sealer: (() => string) | null = null;
  /** Several replicas: the server's requests this replica delivered, awaiting the agent's answer (bounded). */
  readonly asked = new Set<string>();
  onAsk: ((request: string) => void) | null = null;
  /** The endpoint's idle limit: a session idle this long is ended. */
  idleMs = 0;
  /** Told why the session ends when its upstream does (an operator's kill, the server gone). */
  onGone: ((reason: string) => void) | null = null;

  constructor(
    /** The guardian's session id ("" for a stateless exchange). */
    readonly guardianSession: string,
    readonly agentId: string | null,
    private readonly replayEvents: number,
    private readonly replayChars: number,
    /**
     * `ended`: for good (DELETE, kill, upstream gone); false: let go here while another replica may go on with it. What
     * it returns (the end told to the other replicas) is awaited before the session's end settles.
     */
    private readonly onEnd: (ended: boolean) => Promise<void> | undefined | void,
    /** Starts every stream's event ids: the replica keeping the replay log, for a resumption elsewhere to find it. */
    private readonly eventPrefix: string,
  ) {}

  /** The agent's `Mcp-Session-Id` ("" for a stateless exchange): sealed on first use. */
  get id(): string {
    if (this.guardianSession === "") return "";
    this.sealed ??= this.sealer ? this.sealer() : this.guardianSession;
    return this.sealed;
  }

  /** The `Mcp-Session-Id` the agent was given, without sealing it (null before its first use, and for an exchange). */
  clientSessionId(): string | null {
    if (this.guardianSession === "") return null;
    return this.sealed ?? (this.sealer ? null : this.guardianSession);
  }

  touch(): void {
    this.lastSeen = Date.now();
  }

  /** The session's id as a response header; a stateless exchange (id "") has none. */
  private get idHeader(): Record<string, string> {
    return this.id === "" ? {} : { "mcp-session-id": this.id };
  }

  idleSince(now: number): number {
    return this.exchanges.size > 0 || this.standalone?.res ? 0 : now - this.lastSeen;
  }

  idle(): { since: number; ends: number } | null {
    if (this.ended || this.guardianSession === "" || this.idleSince(Date.now()) === 0) return null;
    return { since: this.lastSeen, ends: this.lastSeen + this.idleMs };
  }

  keepalive(): void {
    if (this.standalone?.res) eventWriter(this.standalone.res).idleWrite(SSE_KEEPALIVE);
  }

  /** A POST awaits answers to these requests. */
  expect(res: ServerResponse, requests: string[], batch: boolean, metadata: () => string): Exchange {
    const ex: Exchange = { res, waiting: new Set(requests), batch, stream: null, metadata, cut: false };
    for (const k of ex.waiting) {
      const list = this.exchanges.get(k);
      if (list) list.push(ex);
      else this.exchanges.set(k, [ex]);
    }
    res.on("close", () => {
      this.touch();
      if (ex.waiting.size === 0) return;
      ex.cut = true;
      // The agent stopped listening: release the upstream stream (the answer, if any, stays resumable). Only the
      // exchange that holds the id releases it: a refused duplicate's POST has no upstream request of its own.
      for (const k of ex.waiting) {
        if (this.exchanges.get(k)?.[0] === ex) this.connection.upstream.abandon?.(k);
        this.unbind(k, ex);
      }
      if (ex.stream) {
        ex.stream.res = null;
        this.detached.set(ex.stream.tag, ex.stream);
        for (const k of ex.waiting) this.detached.set(k, ex.stream);
        // Bounded: an agent that keeps dropping streams cannot make the session keep them all.
        while (this.detached.size > MAX_DETACHED) {
          const oldest = this.detached.keys().next().value as string;
          const gone = this.detached.get(oldest) as Stream;
          this.detached.delete(oldest);
          if (![...this.detached.values()].includes(gone)) this.release(gone);
        }
      }
    });
    return ex;
  }

  private unbind(key: string, ex: Exchange): void {
    const list = this.exchanges.get(key);
    if (!list) return;
    const at = list.indexOf(ex);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.exchanges.delete(key);
  }

  send(text: string, info?: SendInfo): void {
    if (this.ended) return;
    if (this.onAsk && !info?.answer) this.noteAsk(text);
    const key = info?.stream ?? null;
    const own = (info?.carry as PostCarry | undefined)?.exchange;
    if (own) {
      if (!own.cut) return this.toExchange(own, key, text, info?.answer === true);
      if (own.stream) {
        this.write(own.stream, text);
        if (info?.answer) this.finish(own.stream, key);
      }
      return;
    }
    if (key !== null) {
      const ex = this.exchanges.get(key)?.[0];
      if (ex) return this.toExchange(ex, key, text, info?.answer === true);
      const s = this.detached.get(key);
      if (s) {
        this.write(s, text);
        if (info?.answer) this.finish(s, key);
        return;
      }
      if (info?.answer) return; // its request is gone and so is its stream: nobody is waiting
    }
    if (this.standalone?.res) return this.write(this.standalone, text);
    // No stream to put it on: a request's stream still open is the best guess of where the agent is listening.
    const open = this.openExchanges().pop();
    if (open) return this.toExchange(open, null, text, false);
    if (this.unrelated.length >= UNRELATED_BUFFER) this.unrelated.shift();
    this.unrelated.push(text);
  }

  /** A request of the server's: its answer may come through another replica, which must find this one. */
  private noteAsk(text: string): void {
    if (!text.includes('"method"') || !text.includes('"id"')) return;
    const m = JSON.parse(text) as { id?: unknown; method?: unknown };
    if (typeof m.method !== "string" || (typeof m.id !== "string" && typeof m.id !== "number")) return;
    const key = idKey(m.id);
    if (this.asked.size >= 256) this.asked.delete(this.asked.values().next().value as string);
    this.asked.add(key);
    this.onAsk?.(key);
  }

  refused(requests: string[], http: HttpRefusal): void {
    const ex = requests[0] !== undefined ? this.exchanges.get(requests[0])?.[0] : undefined;
    if (!ex || ex.stream || ex.res.headersSent) return;
    for (const k of ex.waiting) this.unbind(k, ex);
    ex.waiting.clear();
    // The challenge names the proxy's metadata, so the agent's OAuth flow is for the URL it connected to.
    const headers = { ...http.headers };
    const challenge = headers["www-authenticate"];
    if (challenge) headers["www-authenticate"] = challenge.replace(/resource_metadata="[^"]*"/, `resource_metadata="${ex.metadata()}"`);
    ex.res.writeHead(http.status, { ...headers, ...this.idHeader }).end();
  }

  upstreamGone(reason: string): void {
    this.onGone?.(reason);
    void this.end();
  }

  /** GET without Last-Event-ID: the standalone stream (one at a time, as MCP says). */
  listen(res: ServerResponse): void {
    if (this.standalone?.res) {
      httpError(res, 409, ErrorCode.ServerError, "Conflict: Only one SSE stream is allowed per session");
      return;
    }
    this.standalone ??= { tag: `${this.eventPrefix}g`, seq: 0, log: [], chars: 0, dropped: 0, res: null, done: false };
    this.attach(this.standalone, res);
    this.connection.upstream.openStandalone?.();
    for (const text of this.unrelated.splice(0)) this.write(this.standalone, text);
  }

  /** GET with Last-Event-ID: replay what followed that event on its stream, then go on with it live. */
  resume(lastEventId: string, res: ServerResponse): void {
    const dot = lastEventId.lastIndexOf(".");
    const tag = lastEventId.slice(0, dot);
    const after = Number(lastEventId.slice(dot + 1));
    const s = tag === `${this.eventPrefix}g` ? this.standalone : this.detached.get(tag);
    // Events after `after` that are no longer kept would be skipped without a word: refuse instead.
    if (!s || s.res || !Number.isInteger(after) || after < s.dropped) {
      httpError(res, 404, ErrorCode.ServerError, "Not Found: that stream cannot be resumed");
      return;
    }
    this.attach(s, res, after);
    if (s.done) this.finish(s, null);
  }

  /** Ends the session: its streams, and its upstream (HTTP session deleted, child stopped). */
  end(): Promise<void> {
    return this.stop(false);
  }

  /** Ends the session here only: the server's session stays for another replica to continue. */
  letGo(): Promise<void> {
    return this.stop(true);
  }

  private async stop(release: boolean): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const told = this.onEnd(!release);
    this.answerUnanswered();
    for (const ex of this.openExchanges()) eventWriter(ex.res).end();
    this.exchanges.clear();
    if (this.standalone?.res) eventWriter(this.standalone.res).end();
    this.detached.clear();
    await Promise.all([told, release && this.connection.release ? this.connection.release() : this.connection.close()]);
  }

  /**
   * A request still waiting when the session ends (a DELETE or shutdown racing it) gets its one answer here: the
   * session's own answer could no longer reach a stream that is about to close.
   */
  private answerUnanswered(): void {
    const gone = (k: string) => errorResponse(idOfKey(k), ErrorCode.UpstreamUnavailable, "Session ended before this request was answered", { reason: "session ended" });
    for (const ex of this.openExchanges()) {
      const keys = [...ex.waiting];
      if (keys.length === 0 || ex.cut) continue;
      if (ex.batch) this.toExchange(ex, keys[0] as string, JSON.stringify(keys.map(gone)), true);
      else for (const k of keys) this.toExchange(ex, k, JSON.stringify(gone(k)), true);
    }
  }

  /** Every POST still waiting, in the order they came. */
  private openExchanges(): Exchange[] {
    return [...new Set([...this.exchanges.values()].flat())];
  }

  private toExchange(ex: Exchange, key: string | null, text: string, answer: boolean): void {
    if (answer && key !== null) {
      const done = ex.batch ? [...ex.waiting] : [key];
      for (const k of done) {
        this.unbind(k, ex);
        ex.waiting.delete(k);
      }
    }
    const complete = answer && ex.waiting.size === 0;
    if (!ex.stream && complete && !ex.res.headersSent) {
      // The common case: one answer and nothing before it, as plain JSON.
      ex.res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...this.idHeader });
      endWithText(ex.res, text);
      return;
    }
    if (!ex.stream) {
      if (ex.res.headersSent) return;
      ex.stream = { tag: `${this.eventPrefix}p${++this.streams}`, seq: 0, log: [], chars: 0, dropped: 0, res: null, done: false };
      this.attach(ex.stream, ex.res);
    }
    if (answer && ex.batch) {
      // SSE carries one message per event: a re-joined batch answer is split again.
      for (const m of JSON.parse(text) as unknown[]) this.write(ex.stream, JSON.stringify(m));
    } else {
      this.write(ex.stream, text);
    }
    if (complete) this.finish(ex.stream, key);
  }

  private attach(s: Stream, res: ServerResponse, after?: number): void {
    res.writeHead(200, { ...SSE_HEADERS, ...this.idHeader });
    res.flushHeaders();
    s.res = res;
    res.on("close", () => {
      this.touch();
      if (s.res === res) s.res = null;
      this.unblock(res);
    });
    eventWriter(res, () => this.unblock(res));
    if (after !== undefined) for (const [seq, text] of s.log) if (seq > after) this.put(s, seq, text);
  }

  private write(s: Stream, text: string): void {
    const seq = ++s.seq;
    s.log.push([seq, text]);
    s.chars += text.length;
    this.logChars += text.length;
    this.trim(s);
    if (s.res) this.put(s, seq, text);
  }

  /**
   * The replay logs stay bounded in events per stream and in characters per session: past the session's budget the
   * oldest events go first, from cut streams before live ones (so a big answer cannot keep megabytes alive).
   */
  private trim(s: Stream): void {
    while (s.log.length > this.replayEvents) this.dropOldest(s);
    if (this.logChars <= this.replayChars) return;
    const streams = [...new Set(this.detached.values())];
    if (this.standalone) streams.push(this.standalone);
    if (!streams.includes(s)) streams.push(s);
    for (const t of streams) while (this.logChars > this.replayChars && t.log.length > 0) this.dropOldest(t);
  }

  private dropOldest(s: Stream): void {
    const [seq, text] = s.log.shift() as [number, string];
    s.chars -= text.length;
    this.logChars -= text.length;
    s.dropped = seq;
  }

  private put(s: Stream, seq: number, text: string): void {
    const res = s.res as ServerResponse;
    if (!eventWriter(res).write(sseEventParts(text, `${s.tag}.${seq}`)) && !this.blocked.has(res)) {
      // A slow reader: stop reading from the server until the agent catches up.
      this.blocked.add(res);
      if (this.blocked.size === 1) this.connection.upstream.pause?.();
    }
  }

  private unblock(res: ServerResponse): void {
    if (this.blocked.delete(res) && this.blocked.size === 0) this.connection.upstream.resume?.();
  }

  private finish(s: Stream, key: string | null): void {
    s.done = true;
    if (!s.res) return;
    eventWriter(s.res).end();
    s.res = null;
    this.detached.delete(s.tag);
    if (key !== null && this.detached.get(key) === s) this.detached.delete(key);
    if (s !== this.standalone) this.release(s);
  }

  /** A stream that can no longer be resumed gives its replay log back to the session's budget. */
  private release(s: Stream): void {
    this.logChars -= s.chars;
    s.chars = 0;
    s.log = [];
    s.dropped = s.seq;
  }
}

/**
 * The answer to a POST of notifications or responses: 202 once the server has them; 404 when the server no longer knows
 * the session (the agent starts a new one); 502 when they did not reach it.
 */
function acknowledge(res: ServerResponse, problem: Undelivered | null, sessionId: string): void {
  if (res.writableEnded || res.destroyed) return;
  if (problem?.status === 404) return httpError(res, 404, ErrorCode.SessionNotFound, `Session not found: ${problem.reason}`);
  if (problem) return httpError(res, 502, ErrorCode.UpstreamUnavailable, `Bad Gateway: the server did not take the message: ${problem.reason}`);
  res.writeHead(202, sessionId === "" ? {} : { "mcp-session-id": sessionId }).end();
}

/** Where the route's protected-resource metadata is, as the agent reaches it (RFC 9728 path insertion). */
function metadataUrl(req: IncomingMessage): string {
  const here = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  return `${here.origin}/.well-known/oauth-protected-resource${here.pathname}`;
}

/**
 * What a stateless-era request carries upstream besides the session's own headers: its `MCP-Protocol-Version` and
 * `Mcp-Param-*` headers (the upstream derives `Mcp-Method` and `Mcp-Name` from the judged body, so they match it).
 */
function statelessCarry(req: IncomingMessage, carry: HttpCarry | undefined): HttpCarry {
  const headers: Record<string, string> = { ...carry?.headers };
  for (const [k, v] of Object.entries(req.headers)) if (k.startsWith("mcp-param-") && typeof v === "string") headers[k] = v;
  return { ...carry, headers };
}

function carryOf(req: IncomingMessage, caller: HttpCaller): PostCarry {
  const version = req.headers["mcp-protocol-version"];
  const headers: Record<string, string> = { ...caller.forward };
  if (typeof version === "string") headers["mcp-protocol-version"] = version;
  const trace = traceHeadersOf(req);
  return trace ? { headers, trace } : { headers };
}
