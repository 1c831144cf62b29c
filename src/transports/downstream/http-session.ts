import type { ServerResponse } from "node:http";
import { ErrorCode, idKey } from "../../protocol/json-rpc.js";
import type { Connection, Downstream, HttpRefusal, SendInfo } from "../types.js";
import { Receipt, type Undelivered } from "../receipt.js";
import type { EventStore } from "./event-store.js";
import { endWithText, eventWriter, httpError } from "./http-util.js";
import { PendingPosts, sessionEnded, type Exchange, type PostCarry, type PostFrame } from "./pending-posts.js";
import { SessionStreams, type Stream } from "./sse-streams.js";
import { inTurn } from "../../turn.js";

/** Server messages tied to no request kept, while no stream is open, for the agent's GET stream. */
const UNRELATED_BUFFER = 64;
/** The server's requests this replica delivered, kept to know their answers are its own. */
const ASKED_KEPT = 256;

/**
 * One Streamable HTTP session toward the agent (or one stateless exchange): where each message the session sends
 * goes — the POST of the request it answers or relates to (as JSON, or SSE once a related message comes first), the
 * GET stream, or a buffer until the agent opens one — and the session's lifecycle.
 */
export class HttpSession implements Downstream {
  connection!: Connection;
  private readonly pending = new PendingPosts();
  private readonly streams: SessionStreams;
  /** Server messages tied to no request while no stream is open: delivered when the agent opens its GET stream. */
  private readonly unrelated: string[] = [];
  private lastSeen = Date.now();
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
    store: EventStore,
    /**
     * `ended`: for good (DELETE, kill, upstream gone); false: let go here while another replica may go on with it. What
     * it returns (the end told to the other replicas) is awaited before the session's end settles.
     */
    private readonly onEnd: (ended: boolean) => Promise<void> | undefined | void,
    /** Starts every stream's event ids: the replica keeping the replay log, for a resumption elsewhere to find it. */
    eventPrefix: string,
  ) {
    this.streams = new SessionStreams(store, eventPrefix, {
      headers: () => this.idHeader,
      touch: () => this.touch(),
      pause: () => this.connection.upstream.pause?.(),
      resume: () => this.connection.upstream.resume?.(),
    });
  }

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
    return this.pending.size > 0 || this.streams.listening ? 0 : now - this.lastSeen;
  }

  idle(): { since: number; ends: number } | null {
    if (this.ended || this.guardianSession === "" || this.idleSince(Date.now()) === 0) return null;
    return { since: this.lastSeen, ends: this.lastSeen + this.idleMs };
  }

  keepalive(): void {
    this.streams.keepalive();
  }

  /** A POST awaits answers to these requests. */
  expect(res: ServerResponse, requests: string[], batch: boolean, metadata: () => string): Exchange {
    const ex = this.pending.add(res, requests, batch, metadata);
    res.on("close", () => {
      this.touch();
      if (ex.waiting.size === 0) return;
      // The agent stopped listening: release the upstream stream (the answer, if any, stays resumable).
      this.pending.cut(ex, (k) => this.connection.upstream.abandon?.(k));
      // A batch still waiting has had none of its answers: its stream owes one per request, a repeated id each time.
      if (ex.stream) this.streams.cutOff(ex.stream, ex.batch ? ex.requests : ex.waiting);
    });
    return ex;
  }

  /** Hands notifications or responses to the session; settles once the server has them, or with why it does not. */
  deliver(frame: PostFrame): Promise<Undelivered | null> {
    const receipt = (frame.carry.receipt = new Receipt());
    inTurn(() => this.connection.receive(frame));
    receipt.close();
    return receipt.settled;
  }

  send(text: string, info?: SendInfo): void {
    if (this.ended) return;
    if (this.onAsk && !info?.answer) this.noteAsk(text);
    const key = info?.stream ?? null;
    const answer = info?.answer === true;
    const own = (info?.carry as PostCarry | undefined)?.exchange;
    if (own) {
      if (!own.cut) return this.toExchange(own, key, text, answer);
      if (own.stream) this.toStream(own.stream, text, answer);
      return;
    }
    if (key !== null) {
      const ex = this.pending.first(key);
      if (ex) return this.toExchange(ex, key, text, answer);
      const s = this.streams.forKey(key);
      if (s) return this.toStream(s, text, answer);
      if (answer) return; // its request is gone and so is its stream: nobody is waiting
    }
    const standalone = this.streams.standalone;
    if (standalone?.res) return this.streams.write(standalone, text);
    // No stream to put it on: a request's stream still open is the best guess of where the agent is listening.
    const open = this.pending.open().pop();
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
    if (this.asked.size >= ASKED_KEPT) this.asked.delete(this.asked.values().next().value as string);
    this.asked.add(key);
    this.onAsk?.(key);
  }

  refused(requests: string[], http: HttpRefusal): void {
    const ex = requests[0] !== undefined ? this.pending.first(requests[0]) : undefined;
    if (!ex || ex.stream || ex.res.headersSent) return;
    this.pending.settle(ex, ex.waiting);
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
    const s = this.streams.listen(res);
    if (!s) return httpError(res, 409, ErrorCode.ServerError, "Conflict: Only one SSE stream is allowed per session");
    this.connection.upstream.openStandalone?.();
    for (const text of this.unrelated.splice(0)) this.streams.write(s, text);
  }

  /** GET with Last-Event-ID: replay what followed that event on its stream, then go on with it live. */
  resume(lastEventId: string, res: ServerResponse): void {
    if (!this.streams.resume(lastEventId, res)) httpError(res, 404, ErrorCode.ServerError, "Not Found: that stream cannot be resumed");
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
    this.pending.answerOrphans((ex, key, text) => this.toExchange(ex, key, text, true));
    for (const ex of this.pending.open()) eventWriter(ex.res).end();
    this.pending.clear();
    this.streams.endAll((key) => JSON.stringify(sessionEnded(key)));
    await Promise.all([told, release && this.connection.release ? this.connection.release() : this.connection.close()]);
  }

  private toStream(s: Stream, text: string, answer: boolean): void {
    this.streams.write(s, text);
    if (answer) this.streams.finish(s);
  }

  private toExchange(ex: Exchange, key: string | null, text: string, answer: boolean): void {
    if (answer && key !== null) this.pending.settle(ex, ex.batch ? ex.waiting : [key]);
    const complete = answer && ex.waiting.size === 0;
    if (!ex.stream && complete && !ex.res.headersSent) {
      // The common case: one answer and nothing before it, as plain JSON.
      const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
      const id = this.id;
      if (id !== "") headers["mcp-session-id"] = id;
      ex.res.writeHead(200, headers);
      endWithText(ex.res, text);
      return;
    }
    if (!ex.stream) {
      if (ex.res.headersSent) return;
      ex.stream = this.streams.open(ex.res);
    }
    if (answer && ex.batch) {
      // SSE carries one message per event: a re-joined batch answer is split again.
      for (const m of JSON.parse(text) as unknown[]) this.streams.write(ex.stream, JSON.stringify(m));
    } else {
      this.streams.write(ex.stream, text);
    }
    if (complete) this.streams.finish(ex.stream);
  }
}

/**
 * The answer to a POST of notifications or responses: 202 once the server has them; 404 when the server no longer knows
 * the session (the agent starts a new one); 502 when they did not reach it.
 */
export function acknowledge(res: ServerResponse, problem: Undelivered | null, sessionId: string): void {
  if (res.writableEnded || res.destroyed) return;
  if (problem?.status === 404) return httpError(res, 404, ErrorCode.SessionNotFound, `Session not found: ${problem.reason}`);
  if (problem) return httpError(res, 502, ErrorCode.UpstreamUnavailable, `Bad Gateway: the server did not take the message: ${problem.reason}`);
  res.writeHead(202, sessionId === "" ? {} : { "mcp-session-id": sessionId }).end();
}
