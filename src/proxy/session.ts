import { createHash, hash, randomBytes } from "node:crypto";
import { alertFromDecision, type AlertSink } from "../alerts/event.js";
import { renderBlock, renderUpstreamFailure, staleToolListNotice, DEFAULT_RENDER, type RenderOptions } from "../actions/render.js";
import type { DecisionInput } from "../decision-log/record.js";
import { buildAosRequest, type AosProtocolMethod, type AosRequest, type AosResponse } from "../guardian/aos.js";
import { judgementDeadlineMs, type Guardian } from "../guardian/guardian.js";
import { readVerdict, unavailable, type Verdict } from "../guardian/verdict.js";
import { redactedPreview } from "../decision-log/preview.js";
import { canonicalize, writeCanonical } from "../protocol/canonical.js";
import { classify, ErrorCode, errorResponse, idKey, type JsonObject, type JsonRpcId } from "../protocol/json-rpc.js";
import { a2aIdsOf } from "../protocol/a2a.js";
import { envelopeVersionOf, isStatelessVersion, serverInfoOf, toolOf } from "../protocol/mcp.js";
import { DEFAULT_MAX_DEPTH, parseJson, peekId } from "../protocol/safe-json.js";
import type { Frame, HttpRefusal, Peer, SendInfo } from "../transports/types.js";
import { receiptOf } from "../transports/receipt.js";
import type { ApprovalBroker } from "../approvals/broker.js";
import { SessionHolds } from "./hold.js";
import type { UpstreamHops } from "./hops.js";

export type Direction = "outbound" | "inbound";

export type { Frame, Peer, SendInfo } from "../transports/types.js";

export interface DecisionSink {
  write(input: DecisionInput): unknown;
  /**
   * The commit point: `then` runs once every line written so far is committed (in the file, and with `--log-sync
   * always` fsynced), `failed` if it cannot be. A session forwards what a turn decided only from `then`
   * (decision-log.md). A sink without it is taken as committed at once.
   */
  barrier?(then: () => void, failed: () => void): void;
  /** Set while the log cannot be written: every message is refused meanwhile (-32051), nothing goes through unlogged. */
  readonly failure?: { file: string; code: string } | undefined;
}

/**
 * Live control (src/control): what an operator's suspension makes of a message from the agent. `pass` goes on; a
 * refusal is answered (requests; `answer: false`: withdrawn, nothing owed) or dropped (notifications), and logged; a
 * promise holds the message until it settles (resume: `pass`; kill, shutdown: a refusal).
 */
export type GateRefusal = { message: string; reasonCode: string; answer?: boolean };
export type GateResult = "pass" | GateRefusal | Promise<"pass" | GateRefusal>;
export interface SessionGate {
  gate(value: unknown, frame: Frame): GateResult;
}

export interface SessionOptions {
  guardian: Guardian;
  log: DecisionSink;
  route: string;
  transport: string;
  protocol?: "mcp" | "a2a";
  failMode?: "closed" | "open";
  maxDepth?: number;
  maxFrameBytes?: number;
  maxPending?: number;
  /** How long a verdict is waited for; default: the guardian's own timeout and a margin (`judgementDeadlineMs`). */
  guardianTimeoutMs?: number;
  render?: RenderOptions;
  agent?: { id: string } | null;
  sessionId?: string;
  /** Log a redacted preview of each message (off by default: raw content stays out of the log). */
  logPreview?: boolean;
  /** Methods answered by a stream of responses with the request's id (A2A), ended by `requestsEnded`. */
  streamingMethods?: ReadonlySet<string>;
  /** The peer, when known before any message (an A2A agent's card). */
  server?: { name: string; version: string } | null;
  now?: () => number;
  /** Where decisions of alerting rules are raised (docs/alerts.md). */
  alerts?: AlertSink | null;
  /** Where `decision: ask` holds messages (docs/approvals.md); without it such messages are blocked. */
  approvals?: ApprovalBroker;
  /** Traces (docs/observability.md): told of every judged message; absent, tracing costs one null check per message. */
  tracer?: MessageTracer | null;
  /** The session id the agent holds (`Mcp-Session-Id`), for traces; none for stdio, WebSocket and A2A. */
  clientSession?: () => string | null;
}

/** One judged message and its verdict, as a tracer sees it (src/observe/tracing.ts). */
export interface JudgedMessage {
  session: string;
  route: string;
  transport: string;
  protocol: "mcp" | "a2a";
  direction: Direction;
  kind: "request" | "response" | "notification" | "event";
  id: JsonRpcId;
  method: string | null;
  tool: string | null;
  /** As received; `sent` is what goes on (rewritten or as received), null when the message stops here. */
  message: JsonObject;
  sent: JsonObject | null;
  verdict: Verdict;
  evalUs: number;
  /** The session id the agent holds (`Mcp-Session-Id`), once it has one; null otherwise. */
  clientSession: string | null;
  /** The downstream's context of the frame (over HTTP, `HttpCarry`: the request's trace headers among it). */
  carry: unknown;
}

export interface MessageTracer {
  /** Records the message's span; for a request or notification that goes on, may return it with its `params._meta` carrying the span. */
  judged(m: JudgedMessage): JsonObject | undefined;
  /** The upstream hop of a new session (`upstream`: the server's transport, `stdio`, `streamable-http`, …, when known). */
  hops?(session: () => string, upstream: string | null): UpstreamHops | null;
}

interface Pending {
  key: string;
  /** Answered by a stream of responses: stays pending until the stream ends. */
  streaming?: boolean;
  message: JsonObject;
  method: string;
  tool: string | null;
  batch?: Batch;
  /** The downstream's context of the agent frame (outbound requests): its answer goes back with it, to that exchange. */
  carry?: unknown;
  /** A batch member the agent cancelled: its batch slot is answered, and a late response from the server is dropped. */
  cancelled?: boolean;
}

/** Collects the replies of one downstream batch so they go back as one array (JSON-RPC batch semantics). */
interface Batch {
  replies: unknown[];
  waiting: number;
  forwarded: boolean;
  /** The stream the joined reply goes on: the key of the batch's first request. */
  stream: string | null;
  /** The downstream's context of the batch frame, handed back with the joined reply. */
  carry: unknown;
}

interface Plan {
  direction: Direction;
  message: JsonObject;
  kind: "request" | "response" | "notification" | "event";
  id: JsonRpcId;
  method: string | null;
  tool: string | null;
  request: Pending | undefined;
  verdict: Verdict;
  evalUs: number;
  raw?: string;
  batch?: Batch;
  /** Inbound: the agent request stream the frame came on. Outbound: the downstream's context for the upstream. */
  stream: string | null;
  carry: unknown;
}

/** An element of a batch that goes on: its text, and its request's id key (null for notifications and responses). */
interface Forward {
  text: string;
  key: string | null;
}

const DENIED_MEMORY = 1024;
const LARGE_MESSAGE = 1 << 20;

/**
 * A session pairs a downstream (the agent) with an upstream (the server). Every message from either side is
 * evaluated by the guardian before anything is sent; evaluations may overlap, but each direction delivers in the
 * order it received. Requests are correlated in both directions, so a response knows the request it answers.
 */
export class Session {
  readonly id: string;
  private readonly opts: Required<Omit<SessionOptions, "agent" | "sessionId" | "now" | "logPreview" | "streamingMethods" | "server" | "alerts" | "approvals" | "tracer" | "clientSession">> & {
    agent: { id: string } | null;
    logPreview: boolean;
    streamingMethods: ReadonlySet<string> | null;
  };
  private readonly downstream: Peer;
  private readonly upstream: Peer & { abandon?(request: string): void };
  /** What the session sent this turn, held until the turn's decision lines are committed (`record`). */
  private held: Held[] = [];
  private releasing = false;
  /** Set while the session sends an answer of its own (a block, a refusal): see `refuseHeld`. */
  private authoring = false;
  /** Requests from the agent awaiting the server's response, and the reverse. */
  private readonly pendingOut = new Map<string, Pending>();
  private readonly pendingIn = new Map<string, Pending>();
  private readonly deniedOut: string[] = [];
  private readonly queues: Record<Direction, Slot[]> = { outbound: [], inbound: [] };
  private server: { name: string; version: string } | null = null;
  private closed = false;
  private readonly now: () => number;
  private readonly alerts: AlertSink | null;
  private readonly holds: SessionHolds | null;
  private readonly tracer: MessageTracer | null;
  private readonly clientSession: (() => string | null) | null;
  /** Set by whoever registers the session for live control (src/control/registry.ts), before any frame arrives. */
  control: SessionGate | null = null;

  constructor(downstream: Peer, upstream: Peer & { abandon?(request: string): void }, opts: SessionOptions) {
    this.downstream = this.holding("downstream", downstream);
    this.upstream = this.holding("upstream", upstream);
    this.id = opts.sessionId ?? `s-${randomBytes(4).toString("hex")}`;
    this.now = opts.now ?? (() => performance.now());
    this.opts = {
      guardian: opts.guardian,
      log: opts.log,
      route: opts.route,
      transport: opts.transport,
      protocol: opts.protocol ?? "mcp",
      failMode: opts.failMode ?? "closed",
      maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH,
      maxFrameBytes: opts.maxFrameBytes ?? 16 * 1024 * 1024,
      maxPending: opts.maxPending ?? 4096,
      guardianTimeoutMs: opts.guardianTimeoutMs ?? judgementDeadlineMs(opts.guardian),
      render: opts.render ?? DEFAULT_RENDER,
      agent: opts.agent ?? null,
      logPreview: opts.logPreview ?? false,
      streamingMethods: opts.streamingMethods ?? null,
    };
    this.server = opts.server ?? null;
    this.alerts = opts.alerts ?? null;
    this.tracer = opts.tracer ?? null;
    this.clientSession = opts.clientSession ?? null;
    const base = () => ({ session: this.id, route: this.opts.route, transport: this.opts.transport, protocol: this.opts.protocol, agent: this.opts.agent?.id ?? null });
    this.holds = opts.approvals ? new SessionHolds({ broker: opts.approvals, downstream, base, record: (make) => this.record(make) }) : null;
  }

  /** A frame from the agent. */
  fromDownstream(frame: Frame): void {
    const receipt = receiptOf(frame.carry);
    if (!receipt) return this.receive("outbound", frame);
    // Its sender waits until the server has it: held until the frame, and every one before it, is decided and what
    // goes on is handed to the upstream (which holds it in turn until the server has it).
    const release = receipt.hold();
    this.receive("outbound", frame);
    this.enqueue("outbound", null, () => this.holdAction(release));
  }

  /** A frame from the server. */
  fromUpstream(frame: Frame): void {
    this.receive("inbound", frame);
  }

  /**
   * The upstream is gone: every request still waiting for it is answered with -32052, each one logged; then `after`
   * runs (ending the downstream session), once those answers are out.
   */
  upstreamClosed(reason: string, after?: () => void): void {
    if (this.closed) return;
    this.closed = true;
    this.holds?.close();
    // After the frames that arrived before it: a response already under evaluation still gets through.
    this.enqueue("inbound", null, () => {
      this.failPending([...this.pendingOut.keys()], reason);
      if (after) this.holdAction(after);
    });
  }

  /**
   * These agent requests (id keys) cannot be answered by the server (a failed HTTP send, a broken stream, an HTTP error
   * status without an answer): -32052, or what the status means (actions/render `renderUpstreamFailure`).
   */
  requestsFailed(keys: string[], reason: string, http?: HttpRefusal): void {
    this.enqueue("inbound", null, () => this.failPending(keys, reason, http));
  }

  /** The streams of these requests ended: their streamed answers are complete. */
  requestsEnded(keys: string[]): void {
    this.enqueue("inbound", null, () => {
      for (const key of keys) {
        const p = this.pendingOut.get(key);
        if (!p?.streaming) continue;
        this.pendingOut.delete(key);
        this.downstream.end?.(key);
      }
    });
  }

  private failPending(keys: string[], reason: string, http?: HttpRefusal): void {
    this.answerPending(keys, (id) => {
      const answer = renderUpstreamFailure(id, this.opts.route, { reason, status: http?.status, retryAfter: http?.headers["retry-after"] });
      const unavailable = answer.error?.code === ErrorCode.UpstreamUnavailable;
      return { answer, code: unavailable ? "UPSTREAM_UNAVAILABLE" : "UPSTREAM_REFUSED", message: `upstream ${unavailable ? "unavailable" : "refused"}: ${reason}` };
    });
  }

  /** These agent requests will get no answer from the server: each is answered here, and logged as a deny. */
  private answerPending(keys: string[], answerOf: (id: string | number) => { answer: unknown; code: string; message: string }): void {
    for (const key of keys) {
      const p = this.pendingOut.get(key);
      if (!p) continue;
      this.pendingOut.delete(key);
      const id = p.message.id as string | number;
      const { answer, code, message } = answerOf(id);
      this.authored(() => this.deliver("inbound", JSON.stringify(answer), p));
      this.logRaw("inbound", "response", id, p.method, p.tool, "deny", [code], message, null);
    }
  }

  /** The server's name and version, once its `initialize` answer (or the route) told them. */
  get serverInfo(): { name: string; version: string } | null {
    return this.server;
  }

  /**
   * An operator killed the session (src/control): every request still waiting for the server is answered with a
   * deny (SESSION_KILLED), each logged; `after` (closing both ends) runs once those answers, and what this turn
   * answered besides (held requests, approvals), are out: once their lines are committed.
   */
  kill(message: string, after: () => void): void {
    const then = (): void => void setImmediate(() => this.afterCommitted(after));
    if (this.closed) return then();
    this.closed = true;
    this.holds?.close();
    this.enqueue("inbound", null, () => {
      this.answerPending([...this.pendingOut.keys()], (id) => ({ answer: errorResponse(id, ErrorCode.DeniedByPolicy, message), code: "SESSION_KILLED", message }));
      then();
    });
  }

  // ---- live control: the gate's answer for an agent message; true when the message is not to be processed now.
  private gated(g: GateResult, value: unknown, frame: Frame): boolean {
    if (g === "pass") return false;
    if (g instanceof Promise) void g.then((r) => (r === "pass" ? this.receive("outbound", { ...frame, value } as Frame) : this.refuseGated(value, frame, r)));
    else this.refuseGated(value, frame, g);
    return true;
  }

  /** Requests get a -32050 error carrying the message, notifications are dropped; agent responses in a batch go on. */
  private refuseGated(value: unknown, frame: Frame, r: GateRefusal): void {
    const values = Array.isArray(value) ? value : [value];
    const batch: Batch | undefined = Array.isArray(value) ? { replies: [], waiting: 0, forwarded: true, stream: firstRequestKey(value), carry: frame.carry } : undefined;
    for (const el of values) {
      const m = (el ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
      const method = typeof m.method === "string" ? m.method : null;
      const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
      if (method === null) {
        if (id !== null) this.receive("outbound", { text: JSON.stringify(el), value: el, carry: frame.carry });
        continue;
      }
      const tool = toolOf(method, m.params);
      if (id === null || r.answer === false) this.logRaw("outbound", id === null ? "notification" : "request", id, method, tool, "deny", [r.reasonCode], r.message, null);
      else this.refuse("outbound", id, ErrorCode.DeniedByPolicy, r.message, r.reasonCode, { batch, method, tool, carry: frame.carry, request: true });
    }
    if (batch) this.flushBatch(batch);
  }
  // ---- end live control

  get pendingCount(): number {
    return this.pendingOut.size + this.pendingIn.size;
  }

  private receive(direction: Direction, frame: Frame): void {
    if ("oversize" in frame) {
      const id = peekId(frame.oversize);
      this.refuse(direction, id, ErrorCode.InvalidRequest, `Message too large: ${frame.bytes} bytes exceeds the ${this.opts.maxFrameBytes}-byte limit`, "FRAME_TOO_LARGE", { carry: frame.carry });
      return;
    }
    const parsed = frame.value !== undefined ? { ok: true as const, value: frame.value } : parseJson(frame.text, { maxDepth: this.opts.maxDepth });
    if (!parsed.ok) {
      if (parsed.code === "TOO_DEEP") {
        this.refuse(direction, parsed.id, ErrorCode.InvalidRequest, `Invalid Request: ${parsed.detail}`, "TOO_DEEP", { carry: frame.carry });
      } else {
        this.refuse(direction, null, ErrorCode.ParseError, "Parse error", "PARSE_ERROR", { carry: frame.carry });
      }
      return;
    }
    const value = parsed.value;
    if (direction === "outbound" && this.control && this.gated(this.control.gate(value, frame), value, frame)) return;
    if (direction === "outbound" && this.holds?.intercept(value)) return;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.refuse(direction, null, ErrorCode.InvalidRequest, "Invalid Request: empty batch", "INVALID_REQUEST", { carry: frame.carry });
        return;
      }
      this.receiveBatch(direction, value, frame);
      return;
    }
    const plan = this.evaluateOne(direction, value, frame, frame.text);
    this.enqueue(direction, plan, (p) => p && this.apply(p));
  }

  private receiveBatch(direction: Direction, values: unknown[], frame: Frame): void {
    // A batch is evaluated element by element, and applied as one unit so its replies can be re-joined.
    const batch: Batch | undefined = direction === "outbound" ? { replies: [], waiting: 0, forwarded: false, stream: firstRequestKey(values), carry: frame.carry } : undefined;
    const plans = values.map((v) => this.evaluateOne(direction, v, frame, undefined, batch));
    const all = plans.some((p) => p instanceof Promise) ? Promise.all(plans) : (plans as (Plan | null)[]);
    this.enqueue(direction, all, (ps) => {
      const forward: Forward[] = [];
      for (const p of ps) if (p) this.apply(p, forward);
      if (batch) {
        // One by one: MCP dropped batches in 2025-06-18, and servers that follow it (the SDK's stdio server) drop a
        // batch unanswered. The replies are re-joined here all the same.
        for (const f of forward) this.upstream.send(f.text, f.key ? { stream: f.key, requests: [f.key], carry: frame.carry } : { stream: null, carry: frame.carry });
        batch.forwarded = true;
        this.flushBatch(batch);
      } else if (forward.length > 0) {
        // A batch from the server is passed on as a batch.
        this.downstream.send(`[${forward.map((f) => f.text).join(",")}]`, { stream: frame.stream ?? null });
      }
    });
  }

  private evaluateOne(direction: Direction, value: unknown, frame: Frame, raw?: string, batch?: Batch): Plan | null | Promise<Plan | null> {
    const c = classify(value);
    if (!c.ok) {
      this.refuse(direction, c.id, ErrorCode.InvalidRequest, `Invalid Request: ${c.reason}`, "INVALID_REQUEST", { batch, carry: frame.carry });
      return null;
    }
    const stream = frame.stream ?? null;
    const carry = frame.carry;
    const message = c.message;
    const pendingOther = direction === "outbound" ? this.pendingIn : this.pendingOut;
    const request = c.kind === "response" && c.id !== null ? pendingOther.get(idKey(c.id)) : undefined;
    const method = c.method ?? request?.method ?? null;
    const tool = c.kind === "response" ? (request?.tool ?? null) : toolOf(c.method, message.params);
    // Plans are built as literals: object spread is a slow path in V8 for this shape, and this runs per message.
    const plan = (verdict: Verdict, evalUs: number): Plan => ({ direction, message, kind: c.kind, id: c.id, method, tool, request, raw, batch, verdict, evalUs, stream, carry });

    const aos = buildAosRequest(this.aosMethod(), message, {
      direction,
      session: this.id,
      route: this.opts.route,
      transport: this.opts.transport,
      agent: this.opts.agent,
      server: this.server,
      request: request?.message ?? null,
    });
    const started = this.now();
    let answer: AosResponse | Promise<AosResponse>;
    try {
      answer = this.opts.guardian.call(aos);
    } catch (e) {
      return plan(unavailable(`guardian threw: ${(e as Error).message}`), this.elapsedUs(started));
    }
    if (!(answer instanceof Promise)) {
      return plan(this.verdictOf(aos, answer, message), this.elapsedUs(started));
    }
    return withTimeout(answer, this.opts.guardianTimeoutMs).then(
      (res) => plan(this.verdictOf(aos, res, message), this.elapsedUs(started)),
      (e: Error) => plan(unavailable(e.message), this.elapsedUs(started)),
    );
  }

  private verdictOf(aos: AosRequest, res: AosResponse, message: JsonObject): Verdict {
    try {
      return readVerdict(aos, res, message);
    } catch (e) {
      return unavailable(`unreadable guardian answer: ${(e as Error).message}`);
    }
  }

  /** Turns a verdict into bytes on a wire, updates correlation state, and logs the decision once. */
  private apply(p: Plan, batchForward?: Forward[]): void {
    let v = p.verdict;
    let failOpen = false;
    // A store refusal is store.onUnavailable's to decide (closed), not failMode's.
    if (v.unavailable && !v.store && this.opts.failMode === "open") {
      failOpen = true;
      v = { ...v, action: "forward", decision: "allow" };
    }
    const logDown = this.opts.log.failure;
    if (logDown) {
      failOpen = false;
      v = logUnavailable(logDown);
    }
    const sender = p.direction;
    const key = p.id !== null && p.kind !== "notification" ? idKey(p.id) : null;

    if (p.kind === "notification" && p.direction === "outbound" && this.isAboutDeniedRequest(p)) {
      this.log(p, { ...v, action: "block", decision: "deny", reasonCode: ["REQUEST_DENIED"], message: "notification about a denied request dropped" }, false);
      return;
    }
    if (p.kind === "notification" && this.cancelsNothing(p)) {
      // Nothing pending to cancel: passed on, it could cancel a request that arrives later with the same id.
      this.log(p, { ...v, action: "block", decision: "deny", reasonCode: ["CANCEL_UNKNOWN_REQUEST"], message: "cancellation of a request that is not pending dropped" }, false);
      return;
    }

    if (v.action === "hold") return this.hold(p, v);
    if (v.action === "block") {
      if (p.kind === "request") {
        const stale = p.direction === "outbound" && !p.batch ? staleToolListNotice(p.method, v) : null;
        if (stale) this.authored(() => this.downstream.send(stale, { stream: key }));
        this.reply(sender, renderBlock(p.id, p.method, v, this.opts.render, isStatelessVersion(envelopeVersionOf(p.message))), p.batch, p.carry);
        // A denied request that reuses a pending id says nothing about the pending one (its cancellation still goes on).
        if (p.direction === "outbound" && key && !this.pendingOut.has(key)) this.rememberDenied(key);
      } else if (p.kind === "response" && key) {
        // The response is replaced, so the requester is still answered.
        const mine = p.direction === "outbound" ? this.pendingIn : this.pendingOut;
        const pending = mine.get(key);
        mine.delete(key);
        if (pending) {
          const block = renderBlock(p.id, p.direction === "outbound" ? null : pending.method, v, this.opts.render, isStatelessVersion(envelopeVersionOf(pending.message)));
          this.authored(() => this.deliver(p.direction, JSON.stringify(block), pending, p.carry));
          // A denied event ends its stream: the agent got the error event, the server's stream is let go.
          if (pending.streaming) {
            this.upstream.abandon?.(key);
            this.log({ ...p, kind: "event" }, v, failOpen);
            return;
          }
        }
      }
      this.log(p, v, failOpen);
      return;
    }

    const text = v.action === "rewrite" && v.modified ? JSON.stringify(v.modified) : (p.raw ?? JSON.stringify(p.message));
    if (p.kind === "request" && key) {
      const mine = p.direction === "outbound" ? this.pendingOut : this.pendingIn;
      const taken = this.idTaken(p.direction, key);
      if (mine.size >= this.opts.maxPending || taken) {
        const why = taken ? "a request with this id is already pending" : `more than ${this.opts.maxPending} requests pending`;
        this.refuse(sender, p.id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`, taken ? "DUPLICATE_ID" : "TOO_MANY_PENDING", { batch: p.batch, method: p.method, tool: p.tool, carry: p.carry, request: true });
        return;
      }
      const sent = v.action === "rewrite" && v.modified ? v.modified : p.message;
      const streaming = p.direction === "outbound" && p.method !== null && this.opts.streamingMethods?.has(p.method) === true;
      mine.set(key, { key, message: sent, method: p.method ?? "", tool: p.tool, batch: p.batch, streaming, carry: p.direction === "outbound" ? p.carry : undefined });
      if (p.batch) p.batch.waiting++;
    }
    if (p.kind === "response" && key) {
      const mine = p.direction === "outbound" ? this.pendingIn : this.pendingOut;
      const pending = mine.get(key);
      if (!pending) {
        this.log(p, { ...v, action: "block", decision: "deny", reasonCode: ["UNSOLICITED_RESPONSE"], message: "response to no pending request dropped" }, false);
        return;
      }
      if (pending.streaming) {
        // One event of a streamed answer: the request stays pending until its stream ends.
        this.log({ ...p, kind: "event" }, v, failOpen);
        this.downstream.send(text, { stream: key });
        return;
      }
      mine.delete(key);
      if (pending.cancelled) {
        this.log(p, { ...v, action: "block", decision: "deny", reasonCode: ["REQUEST_CANCELLED"], message: "response to a request the agent cancelled dropped (its batch was answered)" }, false);
        return;
      }
      if (pending.method === "initialize" && p.direction === "inbound") this.server = serverInfoOf(p.message.result) ?? this.server;
      this.log(p, v, failOpen);
      this.deliver(p.direction, text, pending, p.carry, batchForward);
      return;
    }
    const traced = this.log(p, v, failOpen);
    const out = traced ? JSON.stringify(traced) : text;
    if (p.direction === "outbound" && p.method === "notifications/cancelled") this.answerCancelledInBatch(p);
    if (batchForward) batchForward.push({ text: out, key });
    else if (p.direction === "outbound") this.upstream.send(out, key ? { stream: key, requests: [key], carry: p.carry } : { stream: null, carry: p.carry });
    else this.downstream.send(out, { stream: p.stream ?? this.streamOf(p) });
  }

  // ---- approvals: a held request leaves the ordered queue; hold.ts asks, and its final verdict is applied here.
  private hold(p: Plan, v: Verdict): void {
    const key = p.id !== null ? idKey(p.id) : null;
    if (key !== null && p.direction === "outbound" && this.idTaken("outbound", key)) {
      return this.refuse("outbound", p.id, ErrorCode.InvalidRequest, "Invalid Request: a request with this id is already pending", "DUPLICATE_ID", { batch: p.batch, method: p.method, tool: p.tool, carry: p.carry, request: true });
    }
    if (!this.holds || !v.ask || p.kind !== "request" || p.direction !== "outbound" || p.batch || key === null) {
      const why = this.holds ? "approval cannot hold this message (only single agent requests can be held)" : "no approval channel is configured";
      return this.apply({ ...p, verdict: { ...v, action: "block", decision: "deny", reasonCode: ["APPROVAL_UNAVAILABLE"], message: `${v.message} — approval required, but ${why}` } });
    }
    const ctx = { session: this.id, route: this.opts.route, transport: this.opts.transport, agent: this.opts.agent?.id ?? null, server: this.server?.name ?? null, method: p.method, tool: p.tool };
    const logHeld = (approval: NonNullable<Verdict["approval"]>) => this.log(p, { ...v, approval }, false);
    void this.holds.hold({ ctx, key, message: p.message, verdict: { ...v, ask: v.ask }, logHeld }).then((final) => final && this.apply({ ...p, verdict: final }));
  }
  // ---- end approvals

  /** A server message that came on no request's stream (stdio, WebSocket): progress is tied by its token. */
  private streamOf(p: Plan): string | null {
    if (p.method !== "notifications/progress") return null;
    const token = (p.message.params as { progressToken?: unknown } | undefined)?.progressToken;
    if (token === undefined) return null;
    for (const pending of this.pendingOut.values()) {
      const meta = (pending.message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
      if (meta?.progressToken === token) return pending.key;
    }
    return null;
  }

  /** Sends a response toward the side that asked, into its batch if it came in one. */
  private deliver(direction: Direction, text: string, pending: Pending, carry?: unknown, batchForward?: Forward[]): void {
    if (pending.cancelled) return; // its batch slot was answered when the agent cancelled it
    if (direction === "inbound" && pending.batch) {
      pending.batch.replies.push(JSON.parse(text));
      pending.batch.waiting--;
      this.flushBatch(pending.batch);
      return;
    }
    if (batchForward) batchForward.push({ text, key: null });
    else if (direction === "outbound") this.upstream.send(text, { stream: null, carry });
    else this.downstream.send(text, { stream: pending.key, answer: true, carry: pending.carry });
  }

  /** Answers the sender of a message directly (a block, a refusal), on the exchange its frame came in (`carry`). */
  private reply(sender: Direction, response: unknown, batch?: Batch, carry?: unknown): void {
    if (sender === "outbound" && batch) {
      batch.replies.push(response);
      return;
    }
    const id = (response as { id?: JsonRpcId }).id;
    this.authoring = true;
    try {
      if (sender === "outbound") this.downstream.send(JSON.stringify(response), id === null || id === undefined ? { stream: null } : { stream: idKey(id), answer: true, carry });
      else this.upstream.send(JSON.stringify(response), { stream: null });
    } finally {
      this.authoring = false;
    }
  }

  /** Runs `send` as an answer of the session's own (a block, a refusal, an error), not something passed on. */
  private authored(send: () => void): void {
    this.authoring = true;
    try {
      send();
    } finally {
      this.authoring = false;
    }
  }

  /**
   * The agent cancelled a request it sent in a batch: the server may now never answer it (MCP says it should not), so
   * its slot in the joined reply is answered here and the rest of the batch goes back. A single request stays pending
   * (the agent expects nothing; an answer that still comes is passed on).
   */
  private answerCancelledInBatch(p: Plan): void {
    const rid = (p.message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof rid !== "string" && typeof rid !== "number") return;
    const pending = this.pendingOut.get(idKey(rid));
    if (!pending?.batch || pending.cancelled) return;
    const batch = pending.batch;
    pending.cancelled = true;
    pending.batch = undefined;
    batch.replies.push(errorResponse(rid, ErrorCode.Cancelled, "Request cancelled by the client"));
    batch.waiting--;
    this.flushBatch(batch);
  }

  private flushBatch(batch: Batch): void {
    if (!batch.forwarded || batch.waiting > 0 || batch.replies.length === 0) return;
    const replies = batch.replies.splice(0);
    this.downstream.send(JSON.stringify(replies), { stream: batch.stream, answer: true, carry: batch.carry });
  }

  /** A message that cannot be evaluated (unparsable, too large, invalid): the sender gets an error if it can be addressed. */
  private refuse(
    sender: Direction,
    id: JsonRpcId,
    code: number,
    message: string,
    reason: string,
    about: { batch?: Batch; method?: string | null; tool?: string | null; carry?: unknown; request?: boolean } = {},
  ): void {
    this.logRaw(sender, id === null ? "notification" : "request", id, about.method ?? null, about.tool ?? null, "deny", [reason], message, null);
    // The server gets no answer to garbage it prints (it asked nothing); a request-shaped frame is answered.
    if (sender === "inbound" && id === null) return;
    if (sender === "inbound" && id !== null && !about.request && this.pendingOut.has(idKey(id))) {
      // An unreadable response: the agent's request is answered instead of left hanging. (A refused server request
      // that shares an agent request's id is the server's to be answered, and leaves the agent's alone.)
      const pending = this.pendingOut.get(idKey(id));
      this.pendingOut.delete(idKey(id));
      if (pending) this.authored(() => this.deliver("inbound", JSON.stringify(errorResponse(id, code, message)), pending));
      return;
    }
    this.reply(sender, errorResponse(id, code, message), about.batch, about.carry);
  }

  private enqueue<T>(direction: Direction, value: T | Promise<T>, run: (v: T) => void): void {
    const queue = this.queues[direction];
    if (!(value instanceof Promise) && queue.length === 0) {
      run(value);
      return;
    }
    const slot: Slot = { done: false, run: () => {} };
    queue.push(slot);
    Promise.resolve(value).then((v) => {
      slot.run = () => run(v);
      slot.done = true;
      while (queue.length > 0 && queue[0]?.done) queue.shift()?.run();
    });
  }

  private isAboutDeniedRequest(p: Plan): boolean {
    if (p.method !== "notifications/cancelled" && p.method !== "notifications/progress") return false;
    const params = p.message.params as { requestId?: unknown } | undefined;
    const rid = params?.requestId;
    return (typeof rid === "string" || typeof rid === "number") && this.deniedOut.includes(idKey(rid));
  }

  /** A request id still in use on that side: pending, or (from the agent) held for approval. */
  private idTaken(direction: Direction, key: string): boolean {
    if (direction === "inbound") return this.pendingIn.has(key);
    return this.pendingOut.has(key) || this.holds?.isHeld(key) === true;
  }

  /** A `notifications/cancelled` naming a request the sender has no pending request for, on this side. */
  private cancelsNothing(p: Plan): boolean {
    if (p.method !== "notifications/cancelled" || this.opts.protocol !== "mcp") return false;
    const rid = (p.message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof rid !== "string" && typeof rid !== "number") return false;
    return !(p.direction === "outbound" ? this.pendingOut : this.pendingIn).has(idKey(rid));
  }

  private rememberDenied(key: string): void {
    this.deniedOut.push(key);
    if (this.deniedOut.length > DENIED_MEMORY) this.deniedOut.shift();
  }

  private aosMethod(): AosProtocolMethod {
    return this.opts.protocol === "a2a" ? "protocols/A2A" : "protocols/MCP";
  }

  private elapsedUs(started: number): number {
    return Math.round((this.now() - started) * 1000);
  }

  /**
   * A decision is committed to the log before what it decided leaves: the session's sends are held (`holding`), and at
   * the end of the turn — a microtask, once everything the turn's input held has been judged — the turn's decision
   * lines are made and written, and the log's barrier releases the held sends, in order, once the lines are in the
   * file (with `--log-sync always`, on disk). Every session's turn shares the log's one write (group commit). If the
   * lines cannot be committed, nothing of the turn goes on (`refuseHeld`). So a `kill -9` never leaves a forwarded
   * message without its decision line.
   */
  private record(make: () => DecisionInput): void {
    this.backlog.push(make);
    if (this.backlog.length === 1 && this.held.length === 0) queueMicrotask(this.drainBacklog);
  }

  private readonly backlog: (() => DecisionInput)[] = [];
  private readonly drainBacklog = (): void => {
    const log = this.opts.log;
    if (this.backlog.length > 0) for (const make of this.backlog.splice(0)) log.write(make());
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    if (!log.barrier) return release(held);
    log.barrier(
      () => release(held),
      () => this.refuseHeld(held),
    );
  };

  /** Runs `fn` once everything sent so far has been released (its lines committed), or could not be. */
  private afterCommitted(fn: () => void): void {
    if (this.opts.log.barrier) this.opts.log.barrier(fn, fn);
    else fn();
  }

  /** Runs `fn` with this turn's sends, after them: once their lines are committed (or could not be). */
  private holdAction(fn: () => void, send?: Held["send"]): void {
    if (this.releasing) return fn();
    this.held.push({ run: fn, send });
    if (this.held.length === 1 && this.backlog.length === 0) queueMicrotask(this.drainBacklog);
  }

  /** A peer whose sends wait for the decision lines of their turn (see `record`). */
  private holding<P extends Peer & { abandon?(request: string): void }>(side: "upstream" | "downstream", peer: P): P {
    const hold = (run: () => void, send?: Held["send"]): void => this.holdAction(run, send);
    const holding = {
      send: (text: string, info?: SendInfo) => hold(() => peer.send(text, info), { side, text, info, own: this.authoring }),
      end: peer.end ? (stream: string) => hold(() => peer.end?.(stream)) : undefined,
      abandon: peer.abandon ? (request: string) => hold(() => peer.abandon?.(request)) : undefined,
    };
    return holding as unknown as P;
  }

  /**
   * The lines of a turn could not be committed: nothing of that turn is forwarded. Requests are answered with -32051
   * (the agent's through its pending entry, the server's directly), responses are replaced by -32051 to the same id,
   * notifications are dropped; streams are still ended; the session's own answers (blocks, refusals: nothing passed
   * on) go as they are. The decision lines stay held by the writer and are written when it can.
   */
  private refuseHeld(held: Held[]): void {
    const failure = this.opts.log.failure ?? { file: "(decision log)", code: "EIO" };
    const verdict = logUnavailable(failure);
    const refusal = (id: JsonRpcId, method: string | null) => renderBlock(id, method, verdict, { toolCallBlock: "error" });
    this.releasing = true;
    try {
      for (const { run, send } of held) {
        if (!send || send.own) {
          run();
          continue;
        }
        const { side, text, info } = send;
        const value: unknown = JSON.parse(text);
        const kept: unknown[] = [];
        for (const el of Array.isArray(value) ? value : [value]) {
          const c = classify(el);
          if (!c.ok || c.kind === "notification") continue;
          if (c.kind === "response") kept.push(refusal(c.id, null));
          else if (c.id === null) continue;
          else if (side === "upstream") {
            const pending = this.pendingOut.get(idKey(c.id));
            this.pendingOut.delete(idKey(c.id));
            if (pending) this.deliver("inbound", JSON.stringify(renderBlock(c.id, pending.method, verdict, this.opts.render)), pending);
          } else {
            this.pendingIn.delete(idKey(c.id));
            this.upstream.send(JSON.stringify(refusal(c.id, null)), { stream: null });
          }
        }
        if (kept.length === 0) continue;
        const out = JSON.stringify(Array.isArray(value) ? kept : kept[0]);
        (side === "upstream" ? this.upstream : this.downstream).send(out, info);
      }
    } finally {
      this.releasing = false;
    }
  }

  /** Logs the decision (after the turn); with tracing on, returns the message to send instead (trace context in `_meta`). */
  private log(p: Plan, v: Verdict, failOpen: boolean): JsonObject | undefined {
    const traced = this.tracer ? this.trace(p, v) : undefined;
    const { alert } = v;
    if (!alert || !this.alerts) {
      this.record(() => this.decisionOf(p, v, failOpen));
      return traced;
    }
    // Raised from the log line, after the turn: the alert shares its digest and costs the message nothing.
    const alerts = this.alerts;
    this.record(() => {
      const input = this.decisionOf(p, v, failOpen);
      try {
        alerts.raise(alertFromDecision(input, alert, this.server));
      } catch {
        // An alert is a side channel: whatever befalls it, the decision line is written.
      }
      return input;
    });
    return traced;
  }

  private trace(p: Plan, v: Verdict): JsonObject | undefined {
    const goesOn = v.action === "forward" || v.action === "rewrite";
    const sent = goesOn ? (v.action === "rewrite" && v.modified ? v.modified : p.message) : null;
    const { direction, kind, id, method, tool, message, evalUs } = p;
    const clientSession = this.clientSession?.() ?? null;
    const m: JudgedMessage = { session: this.id, route: this.opts.route, transport: this.opts.transport, protocol: this.opts.protocol, direction, kind, id, method, tool, message, sent, verdict: v, evalUs, clientSession, carry: p.carry };
    try {
      return this.tracer?.judged(m);
    } catch {
      return undefined; // a tracer's failure never touches the traffic
    }
  }

  private decisionOf(p: Plan, v: Verdict, failOpen: boolean): DecisionInput {
    const input: DecisionInput = {
      session: this.id,
      route: this.opts.route,
      transport: this.opts.transport,
      protocol: this.opts.protocol,
      direction: p.direction,
      kind: p.kind,
      id: p.id,
      method: p.method,
      tool: p.tool,
      agent: this.opts.agent?.id ?? null,
      decision: v.decision,
      mode: v.mode,
      rules: v.rules,
      reasonCode: v.reasonCode,
      message: v.message,
      evalUs: p.evalUs,
      digest: digest(p.message, p.raw?.length ?? 0),
    };
    if (v.ruleset) input.ruleset = v.ruleset;
    if (v.approval) input.approval = v.approval;
    if (failOpen) input.failOpen = true;
    if (this.opts.logPreview) input.preview = redactedPreview(p.message);
    if (this.opts.protocol === "a2a") {
      // The multi-agent view: which remote agent, which task and context, so delegation chains can be followed.
      if (this.server) input.peer = this.server.name;
      const ids = a2aIdsOf(p.message.result !== undefined || p.message.params !== undefined ? p.message : (p.request?.message ?? p.message));
      if (ids.taskId) input.task = ids.taskId;
      if (ids.contextId) input.context = ids.contextId;
    }
    return input;
  }

  private logRaw(
    direction: Direction,
    kind: DecisionInput["kind"],
    id: JsonRpcId,
    method: string | null,
    tool: string | null,
    decision: DecisionInput["decision"],
    reasonCode: string[],
    message: string,
    messageDigest: string | null,
  ): void {
    this.record(() => ({
      session: this.id,
      route: this.opts.route,
      transport: this.opts.transport,
      protocol: this.opts.protocol,
      direction,
      kind,
      id,
      method,
      tool,
      agent: this.opts.agent?.id ?? null,
      decision,
      mode: "enforce",
      rules: [],
      reasonCode,
      message,
      evalUs: 0,
      digest: messageDigest,
    }));
  }
}

interface Slot {
  done: boolean;
  run: () => void;
}

/** Something the session did toward a peer, held until its turn's lines are committed; a send says what it was, so it can be refused instead. */
interface Held {
  run: () => void;
  send?: { side: "upstream" | "downstream"; text: string; info: SendInfo | undefined; own: boolean };
}

function release(held: Held[]): void {
  for (const h of held) h.run();
}

/** While the decision log cannot be written, every message is refused: -32051, naming the file and the errno. */
function logUnavailable(failure: { file: string; code: string }): Verdict {
  const why = `the decision log ${failure.file} cannot be written (${failure.code}): nothing is forwarded until it can be`;
  return { ...unavailable(why), reasonCode: ["LOG_UNAVAILABLE"] };
}

/** SHA-256 of the canonical JSON of a message; a large one (by its wire size) is hashed piece by piece. */
export function digest(message: unknown, size = 0): string {
  if (size < LARGE_MESSAGE) return hash("sha256", canonicalize(message), "hex");
  const h = createHash("sha256");
  writeCanonical(message, (piece) => h.update(piece));
  return h.digest("hex");
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`guardian timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function firstRequestKey(values: unknown[]): string | null {
  for (const v of values) {
    const o = v as { id?: unknown; method?: unknown } | null;
    if (o && typeof o === "object" && typeof o.method === "string" && (typeof o.id === "string" || typeof o.id === "number")) return idKey(o.id);
  }
  return null;
}
