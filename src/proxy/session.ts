import { randomBytes } from "node:crypto";
import { renderBlock, staleToolListNotice } from "../actions/render.js";
import { judgeOf, type Judge, type Judgement } from "../guardian/judge.js";
import type { Verdict } from "../guardian/verdict.js";
import { classify, ErrorCode, errorResponse, idKey, type JsonObject } from "../protocol/json-rpc.js";
import { envelopeVersionOf, isStatelessVersion, serverInfoOf, toolOf } from "../protocol/mcp.js";
import type { Frame, HttpRefusal, Peer } from "../transports/types.js";
import { receiptOf } from "../transports/receipt.js";
import { TurnCommit } from "./commit.js";
import { readFrame } from "./read-frame.js";
import { Answers } from "./answers.js";
import { DirectionOrder } from "./order.js";
import { judgedMessage, type Forward, type Plan } from "./plan.js";
import { newBatch, type Batch } from "./batch.js";
import { Correlation } from "./correlation.js";
import { decisionLine, logUnavailable, type LineBase } from "./decision-line.js";
import { Stages, type DecisionSink, type Direction, type GateRefusal, type GateResult, type PeerInfo, type SessionHandle, type Stage } from "./pipeline.js";

import { settingsOf, type SessionOptions, type SessionSettings } from "./session-options.js";

type Upstream = Peer & { abandon?(request: string): void };

/**
 * A session pairs a downstream (the agent) with an upstream (the server). Every message from either side goes through
 * the pipeline (pipeline.ts): classified once, admitted, judged, held, applied and recorded; evaluations may overlap,
 * but each direction delivers in the order it received. Correlation is `correlation.ts`, the decision-before-send
 * commit `commit.ts`, the lines `decision-line.ts`; features are stages.
 */
export class Session {
  readonly id: string;
  private readonly judge: Judge;
  private readonly log: DecisionSink;
  private readonly o: SessionSettings;
  private readonly agent: { id: string } | null;
  private readonly base: LineBase;
  private readonly downstream: Peer;
  private readonly upstream: Upstream;
  private readonly commit: TurnCommit;
  private readonly answers: Answers;
  private readonly pending = new Correlation();
  private readonly order = new DirectionOrder();
  private readonly stages = new Stages();
  private server: PeerInfo | null;
  private closed = false;
  private readonly now: () => number;
  private readonly clientSession: () => string | null;

  constructor(downstream: Peer, upstream: Upstream, opts: SessionOptions) {
    this.id = opts.sessionId ?? `s-${randomBytes(4).toString("hex")}`;
    const judge = opts.judge ?? (opts.guardian ? judgeOf(opts.guardian, { deadlineMs: opts.guardianTimeoutMs }) : null);
    if (!judge) throw new Error("a session needs a judge or a guardian");
    this.judge = judge;
    this.log = opts.log;
    this.now = opts.now ?? (() => performance.now());
    this.o = settingsOf(opts);
    this.agent = opts.agent ?? null;
    this.base = { session: this.id, route: this.o.route, transport: this.o.transport, protocol: this.o.protocol, agent: this.agent?.id ?? null };
    this.server = opts.server ?? null;
    this.commit = new TurnCommit(this.log, (held) => this.answers.refuseHeld(held), (line, v) => this.stages.recorded(line, v));
    this.downstream = this.commit.peer("downstream", downstream);
    this.upstream = this.commit.peer("upstream", upstream);
    this.answers = new Answers(this.base, this.o.render, this.log, this.pending, this.commit, this.downstream, this.upstream);
    const clientSession = (this.clientSession = opts.clientSession ?? (() => null));
    const handle: SessionHandle = {
      id: this.id, route: this.o.route, transport: this.o.transport, protocol: this.o.protocol, agent: this.agent, shared: opts.shared === true,
      downstream, serverInfo: () => this.server, record: (make) => this.commit.record(make), clientSession,
    };
    for (const make of opts.stages ?? []) {
      const stage = make(handle);
      if (stage) this.stages.add(stage);
    }
  }

  /** Adds a stage to a running session (live control registers its gate so); returns its removal. */
  use(stage: Stage): () => void {
    return this.stages.add(stage);
  }

  /** A frame from the agent. */
  fromDownstream(frame: Frame): void {
    const receipt = receiptOf(frame.carry);
    if (!receipt) return this.receive("outbound", frame);
    // Its sender waits until the server has it: held until the frame, and every one before it, is decided and what
    // goes on is handed to the upstream (which holds it in turn until the server has it).
    const release = receipt.hold();
    this.receive("outbound", frame);
    this.order.enqueue("outbound", null, () => this.commit.hold(release));
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
    this.stages.close();
    // After the frames that arrived before it: a response already under evaluation still gets through.
    this.order.enqueue("inbound", null, () => {
      this.answers.failPending([...this.pending.out.keys()], reason);
      if (after) this.commit.hold(after);
    });
  }

  /** These agent requests cannot be answered by the server: -32052, or what the HTTP status means (`renderUpstreamFailure`). */
  requestsFailed(keys: string[], reason: string, http?: HttpRefusal): void {
    this.order.enqueue("inbound", null, () => this.answers.failPending(keys, reason, http));
  }

  /** The streams of these requests ended: their streamed answers are complete. */
  requestsEnded(keys: string[]): void {
    this.order.enqueue("inbound", null, () => {
      for (const key of keys) {
        if (!this.pending.out.get(key)?.streaming) continue;
        this.pending.out.delete(key);
        this.downstream.end?.(key);
      }
    });
  }

  /**
   * An operator killed the session (src/control): every request still waiting for the server is answered with a deny
   * (SESSION_KILLED), each logged; `after` (closing both ends) runs once those answers, and what this turn answered
   * besides (held requests, approvals), are out: once their lines are committed.
   */
  kill(message: string, after: () => void): void {
    const then = (): void => void setImmediate(() => this.commit.afterCommitted(after));
    if (this.closed) return then();
    this.closed = true;
    this.stages.close();
    this.order.enqueue("inbound", null, () => {
      this.answers.answerPending([...this.pending.out.keys()], (id) => ({ answer: errorResponse(id, ErrorCode.DeniedByPolicy, message), code: "SESSION_KILLED", message }));
      then();
    });
  }

  /** The server's name and version, once its `initialize` answer (or the route) told them. */
  get serverInfo(): PeerInfo | null {
    return this.server;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  // ---- classify and admit

  private receive(direction: Direction, frame: Frame): void {
    const read = readFrame(frame, this.o);
    if (!read.ok) return this.answers.refuse(direction, read.id, read.code, read.message, read.reason, { carry: frame.carry });
    const value = read.value;
    if (direction === "outbound" && (this.admitted(this.stages.admit(value, frame), value, frame) || this.stages.claim(value))) return;
    if (!Array.isArray(value)) {
      const plan = this.judgeOne(direction, value, frame, read.text);
      return this.order.enqueue(direction, plan, (p) => p && this.apply(p));
    }
    // A batch is judged element by element, and applied as one unit so its replies can be re-joined.
    const batch = direction === "outbound" ? newBatch(value, frame.carry) : undefined;
    const plans = value.map((v) => this.judgeOne(direction, v, frame, undefined, batch));
    const all = plans.some((p) => p instanceof Promise) ? Promise.all(plans) : (plans as (Plan | null)[]);
    this.order.enqueue(direction, all, (ps) => {
      const forward: Forward[] = [];
      for (const p of ps) if (p) this.apply(p, forward);
      if (batch) {
        // One by one: MCP dropped batches in 2025-06-18, and servers that follow it (the SDK's stdio server) drop a
        // batch unanswered. The replies are re-joined here all the same.
        for (const f of forward) this.upstream.send(f.text, f.key ? { stream: f.key, requests: [f.key], carry: frame.carry } : { stream: null, carry: frame.carry });
        batch.forwarded = true;
        this.answers.flushBatch(batch);
      } else if (forward.length > 0) {
        // A batch from the server is passed on as a batch.
        this.downstream.send(`[${forward.map((f) => f.text).join(",")}]`, { stream: frame.stream ?? null });
      }
    });
  }

  /** True when an admission stage did not let the message pass now (refused, or waiting for it to be: admission.ts). */
  private admitted(g: GateResult, value: unknown, frame: Frame): boolean {
    if (g === "pass") return false;
    const refuse = (r: GateRefusal) => this.answers.refuseAdmission(value, r, frame.carry, (pass) => this.receive("outbound", { text: JSON.stringify(pass), value: pass, carry: frame.carry }));
    if (g instanceof Promise) void g.then((r) => (r === "pass" ? this.receive("outbound", { ...frame, value } as Frame) : refuse(r)));
    else refuse(g);
    return true;
  }

  // ---- judge

  private judgeOne(direction: Direction, value: unknown, frame: Frame, raw?: string, batch?: Batch): Plan | null | Promise<Plan | null> {
    const c = classify(value);
    if (!c.ok) {
      this.answers.refuse(direction, c.id, ErrorCode.InvalidRequest, `Invalid Request: ${c.reason}`, "INVALID_REQUEST", { batch, carry: frame.carry });
      return null;
    }
    const message = c.message;
    const request = c.kind === "response" && c.id !== null ? this.pending.answering(direction).get(idKey(c.id)) : undefined;
    const method = c.method ?? request?.method ?? null;
    const tool = c.kind === "response" ? (request?.tool ?? null) : toolOf(c.method, message.params);
    const stream = frame.stream ?? null;
    const carry = frame.carry;
    // Plans are built as literals: object spread is a slow path in V8 for this shape, and this runs per message.
    const plan = (verdict: Verdict, evalUs: number): Plan => ({ direction, message, kind: c.kind, id: c.id, method, tool, request, raw, batch, verdict, evalUs, stream, carry });
    const started = this.now();
    const v: Judgement = this.judge(message, {
      protocol: this.o.protocol, direction, kind: c.kind, session: this.id, route: this.o.route, transport: this.o.transport,
      agent: this.agent, server: this.server, request: request?.message ?? null,
    });
    if (!(v instanceof Promise)) return plan(v, this.elapsedUs(started));
    return v.then((verdict) => plan(verdict, this.elapsedUs(started)));
  }

  // ---- apply

  /** Turns a verdict into bytes on a wire, updates correlation, and records the decision once. */
  private apply(p: Plan, batchForward?: Forward[]): void {
    let v = p.verdict;
    let failOpen = false;
    // A store refusal is store.onUnavailable's to decide (closed), not failMode's.
    if (v.unavailable && !v.store && this.o.failMode === "open") {
      failOpen = true;
      v = { ...v, action: "forward", decision: "allow" };
    }
    const logDown = this.log.failure;
    if (logDown) {
      failOpen = false;
      v = logUnavailable(logDown);
    }
    const key = p.id !== null && p.kind !== "notification" ? idKey(p.id) : null;
    if (p.kind === "notification") {
      if (p.direction === "outbound" && this.pending.aboutDenied(p.method, p.message)) return this.drop(p, v, "REQUEST_DENIED", "notification about a denied request dropped");
      // Nothing pending to cancel: passed on, it could cancel a request that arrives later with the same id.
      if (this.o.protocol === "mcp" && this.pending.cancelsNothing(p.direction, p.method, p.message)) return this.drop(p, v, "CANCEL_UNKNOWN_REQUEST", "cancellation of a request that is not pending dropped");
    }
    if (v.action === "hold") return this.hold(p, v);
    if (v.action === "block") return this.block(p, v, key, failOpen);
    const text = v.action === "rewrite" && v.modified ? JSON.stringify(v.modified) : (p.raw ?? JSON.stringify(p.message));
    if (p.kind === "request" && key && !this.track(p, v, key)) return;
    if (p.kind === "response" && key) return this.answer(p, v, key, text, failOpen, batchForward);
    const traced = this.record(p, v, failOpen);
    const out = traced ? JSON.stringify(traced) : text;
    if (p.direction === "outbound" && p.method === "notifications/cancelled") {
      const batch = this.pending.cancelInBatch(p.message);
      if (batch) this.answers.flushBatch(batch);
    }
    if (batchForward) batchForward.push({ text: out, key });
    else if (p.direction === "outbound") this.upstream.send(out, key ? { stream: key, requests: [key], carry: p.carry } : { stream: null, carry: p.carry });
    else this.downstream.send(out, { stream: p.stream ?? (p.method === "notifications/progress" ? this.pending.progressStream(p.message) : null) });
  }

  private drop(p: Plan, v: Verdict, code: string, message: string): void {
    this.record(p, { ...v, action: "block", decision: "deny", reasonCode: [code], message }, false);
  }

  private block(p: Plan, v: Verdict, key: string | null, failOpen: boolean): void {
    if (p.kind === "request") {
      const stale = p.direction === "outbound" && !p.batch ? staleToolListNotice(p.method, v) : null;
      if (stale) this.commit.authored(() => this.downstream.send(stale, { stream: key }));
      this.answers.reply(p.direction, renderBlock(p.id, p.method, v, this.o.render, isStatelessVersion(envelopeVersionOf(p.message))), p.batch, p.carry);
      // A denied request that reuses a pending id says nothing about the pending one (its cancellation still goes on).
      if (p.direction === "outbound" && key && !this.pending.out.has(key)) this.pending.rememberDenied(key);
    } else if (p.kind === "response" && key) {
      // The response is replaced, so the requester is still answered.
      const mine = this.pending.answering(p.direction);
      const pending = mine.get(key);
      mine.delete(key);
      if (pending) {
        const block = renderBlock(p.id, p.direction === "outbound" ? null : pending.method, v, this.o.render, isStatelessVersion(envelopeVersionOf(pending.message)));
        this.commit.authored(() => this.answers.deliver(p.direction, JSON.stringify(block), pending, p.carry));
        // A denied event ends its stream: the agent got the error event, the server's stream is let go.
        if (pending.streaming) {
          this.upstream.abandon?.(key);
          this.record({ ...p, kind: "event" }, v, failOpen);
          return;
        }
      }
    }
    this.record(p, v, failOpen);
  }

  /** A request that goes on becomes pending on its side; false when it is refused instead (a duplicate id, too many). */
  private track(p: Plan, v: Verdict, key: string): boolean {
    const sent = v.action === "rewrite" && v.modified ? v.modified : p.message;
    const streaming = p.direction === "outbound" && p.method !== null && this.o.streamingMethods?.has(p.method) === true;
    const carry = p.direction === "outbound" ? p.carry : undefined;
    const refused = this.pending.open(p.direction, { key, message: sent, method: p.method ?? "", tool: p.tool, batch: p.batch, streaming, carry }, this.o.maxPending, this.idTaken(p.direction, key));
    if (refused) this.refuseRequest(p, refused);
    return refused === null;
  }

  /** A request that cannot become pending: its id is in use on its side, or too many requests are pending there. */
  private refuseRequest(p: Plan, reason: "DUPLICATE_ID" | "TOO_MANY_PENDING"): void {
    const why = reason === "DUPLICATE_ID" ? "a request with this id is already pending" : `more than ${this.o.maxPending} requests pending`;
    this.answers.refuse(p.direction, p.id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`, reason, { batch: p.batch, method: p.method, tool: p.tool, carry: p.carry, request: true });
  }

  /** A response that goes on, to the request it answers (or a streamed answer's event). */
  private answer(p: Plan, v: Verdict, key: string, text: string, failOpen: boolean, batchForward?: Forward[]): void {
    const mine = this.pending.answering(p.direction);
    const pending = mine.get(key);
    if (!pending) return this.drop(p, v, "UNSOLICITED_RESPONSE", "response to no pending request dropped");
    if (pending.streaming) {
      // One event of a streamed answer: the request stays pending until its stream ends.
      this.record({ ...p, kind: "event" }, v, failOpen);
      this.downstream.send(text, { stream: key });
      return;
    }
    mine.delete(key);
    if (pending.cancelled) return this.drop(p, v, "REQUEST_CANCELLED", "response to a request the agent cancelled dropped (its batch was answered)");
    if (pending.method === "initialize" && p.direction === "inbound") this.server = serverInfoOf(p.message.result) ?? this.server;
    this.record(p, v, failOpen);
    this.answers.deliver(p.direction, text, pending, p.carry, batchForward);
  }

  // ---- hold: a held request leaves the ordered queue; the hold stage asks, and its final verdict is applied here.
  private hold(p: Plan, v: Verdict): void {
    const key = p.id !== null ? idKey(p.id) : null;
    if (key !== null && p.direction === "outbound" && this.idTaken("outbound", key)) return this.refuseRequest(p, "DUPLICATE_ID");
    const holder = this.stages.holder;
    if (!holder?.hold || !v.ask || p.kind !== "request" || p.direction !== "outbound" || p.batch || key === null) {
      const why = holder ? "approval cannot hold this message (only single agent requests can be held)" : "no approval channel is configured";
      return this.apply({ ...p, verdict: { ...v, action: "block", decision: "deny", reasonCode: ["APPROVAL_UNAVAILABLE"], message: `${v.message} — approval required, but ${why}` } });
    }
    const ctx = { session: this.id, route: this.o.route, transport: this.o.transport, agent: this.agent?.id ?? null, server: this.server?.name ?? null, method: p.method, tool: p.tool };
    const logHeld = (approval: NonNullable<Verdict["approval"]>) => this.record(p, { ...v, approval }, false);
    void holder.hold({ ctx, key, message: p.message, verdict: { ...v, ask: v.ask }, logHeld }).then((final) => final && this.apply({ ...p, verdict: final }));
  }

  // ---- record

  /** Records the decision (with the turn); with `judged` stages (tracing), returns the message to send instead. */
  private record(p: Plan, v: Verdict, failOpen: boolean): JsonObject | undefined {
    const traced = this.stages.observing ? this.stages.judged(judgedMessage(this.base, p, v, this.clientSession())) : undefined;
    this.commit.record(() => decisionLine(this.base, { ...p, request: p.request?.message }, v, { failOpen, preview: this.o.logPreview, server: this.server }), v);
    return traced;
  }

  /** A request id still in use on that side: pending, or (from the agent) held by a stage. */
  private idTaken(direction: Direction, key: string): boolean {
    if (direction === "inbound") return this.pending.in.has(key);
    return this.pending.out.has(key) || this.stages.holding(key);
  }

  private elapsedUs(started: number): number {
    return Math.round((this.now() - started) * 1000);
  }
}
