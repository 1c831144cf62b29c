import { renderBlock, renderUpstreamFailure, type RenderOptions } from "../actions/render.js";
import { ErrorCode, errorResponse, idKey, type JsonRpcId } from "../protocol/json-rpc.js";
import type { HttpRefusal, Peer } from "../transports/types.js";
import { refuseUncommitted, type Held, type TurnCommit } from "./commit.js";
import { joinedReply, newBatch, type Batch } from "./batch.js";
import { refusalsOf } from "./admission.js";
import type { Correlation, Pending } from "./correlation.js";
import { logUnavailable, refusalLine, type LineBase } from "./decision-line.js";
import type { DecisionSink, Direction, GateRefusal } from "./pipeline.js";
import type { Forward } from "./plan.js";

/** What a refusal is about, for its line and for where its answer goes. */
export interface RefusalAbout {
  batch?: Batch;
  method?: string | null;
  tool?: string | null;
  carry?: unknown;
  /** The refused message is a request (its id is not a pending request's answer). */
  request?: boolean;
}

/**
 * The one place a session answers a caller itself rather than passing the peer's answer on: responses delivered to
 * the side that asked (into its batch if it came in one), refusals of messages that cannot be judged, requests the
 * server will never answer (gone, killed), and turns whose lines could not be committed. Every caller gets exactly one
 * answer: each of these takes the request out of its pending table as it answers it.
 */
export class Answers {
  constructor(
    private readonly base: LineBase,
    private readonly render: RenderOptions,
    private readonly log: DecisionSink,
    private readonly pending: Correlation,
    private readonly commit: TurnCommit,
    private readonly downstream: Peer,
    private readonly upstream: Peer,
  ) {}

  /** Sends a response toward the side that asked, into its batch if it came in one. */
  deliver(direction: Direction, text: string, pending: Pending, carry?: unknown, batchForward?: Forward[]): void {
    if (pending.cancelled) return; // its batch slot was answered when the agent cancelled it
    if (direction === "inbound" && pending.batch) {
      pending.batch.replies.push(JSON.parse(text));
      pending.batch.waiting--;
      return this.flushBatch(pending.batch);
    }
    if (batchForward) batchForward.push({ text, key: null });
    else if (direction === "outbound") this.upstream.send(text, { stream: null, carry });
    else this.downstream.send(text, { stream: pending.key, answer: true, carry: pending.carry });
  }

  /** Answers the sender of a message directly (a block, a refusal), on the exchange its frame came in (`carry`). */
  reply(sender: Direction, response: unknown, batch?: Batch, carry?: unknown): void {
    if (sender === "outbound" && batch) {
      batch.replies.push(response);
      return;
    }
    const id = (response as { id?: JsonRpcId }).id;
    this.commit.authored(() => {
      if (sender === "outbound") this.downstream.send(JSON.stringify(response), id === null || id === undefined ? { stream: null } : { stream: idKey(id), answer: true, carry });
      else this.upstream.send(JSON.stringify(response), { stream: null });
    });
  }

  /** The batch's joined reply, once every element is answered. */
  flushBatch(batch: Batch): void {
    const reply = joinedReply(batch);
    if (reply) this.downstream.send(reply, { stream: batch.stream, answer: true, carry: batch.carry });
  }

  /** A message that cannot be judged (unparsable, too large, invalid): the sender gets an error if it can be addressed. */
  refuse(sender: Direction, id: JsonRpcId, code: number, message: string, reason: string, about: RefusalAbout = {}): void {
    this.commit.record(() => refusalLine(this.base, { direction: sender, kind: id === null ? "notification" : "request", id, method: about.method ?? null, tool: about.tool ?? null }, [reason], message));
    // The server gets no answer to garbage it prints (it asked nothing); a request-shaped frame is answered.
    if (sender === "inbound" && id === null) return;
    const pending = sender === "inbound" && id !== null && !about.request ? this.pending.out.get(idKey(id)) : undefined;
    if (pending && id !== null) {
      // An unreadable response: the agent's request is answered instead of left hanging. (A refused server request
      // that shares an agent request's id is the server's to be answered, and leaves the agent's alone.)
      this.pending.out.delete(idKey(id));
      return this.commit.authored(() => this.deliver("inbound", JSON.stringify(errorResponse(id, code, message)), pending));
    }
    this.reply(sender, errorResponse(id, code, message), about.batch, about.carry);
  }

  /**
   * An admission stage refused an agent frame (admission.ts `refusalsOf`): its requests are answered with the refusal,
   * its notifications dropped and logged, its responses `pass` on to be judged as usual.
   */
  refuseAdmission(value: unknown, r: GateRefusal, carry: unknown, pass: (response: unknown) => void): void {
    const batch = Array.isArray(value) ? newBatch(value, carry, true) : undefined;
    for (const a of refusalsOf(value, r)) {
      if (a.pass) pass(a.pass);
      else if (a.answer) this.refuse("outbound", a.id, ErrorCode.DeniedByPolicy, r.message, r.reasonCode, { batch, method: a.method, tool: a.tool, carry, request: true });
      else this.commit.record(() => refusalLine(this.base, { direction: "outbound", kind: a.id === null ? "notification" : "request", id: a.id ?? null, method: a.method ?? null, tool: a.tool ?? null }, [r.reasonCode], r.message));
    }
    if (batch) this.flushBatch(batch);
  }

  /** These agent requests cannot be answered by the server: -32052, or what the HTTP status means. */
  failPending(keys: string[], reason: string, http?: HttpRefusal): void {
    this.answerPending(keys, (id) => {
      const answer = renderUpstreamFailure(id, this.base.route, { reason, status: http?.status, retryAfter: http?.headers["retry-after"] });
      const down = answer.error?.code === ErrorCode.UpstreamUnavailable;
      return { answer, code: down ? "UPSTREAM_UNAVAILABLE" : "UPSTREAM_REFUSED", message: `upstream ${down ? "unavailable" : "refused"}: ${reason}` };
    });
  }

  /** These agent requests will get no answer from the server: each is answered here, and logged as a deny. */
  answerPending(keys: string[], answerOf: (id: string | number) => { answer: unknown; code: string; message: string }): void {
    for (const key of keys) {
      const p = this.pending.out.get(key);
      if (!p) continue;
      this.pending.out.delete(key);
      const id = p.message.id as string | number;
      const { answer, code, message } = answerOf(id);
      this.commit.authored(() => this.deliver("inbound", JSON.stringify(answer), p));
      this.commit.record(() => refusalLine(this.base, { direction: "inbound", kind: "response", id, method: p.method, tool: p.tool }, [code], message));
    }
  }

  /** The lines of a turn could not be committed (commit.ts `refuseUncommitted`): -32051 instead of what it would send. */
  refuseHeld(held: Held[]): void {
    const verdict = logUnavailable(this.log.failure ?? { file: "(decision log)", code: "EIO" });
    const refusal = (id: JsonRpcId) => renderBlock(id, null, verdict, { toolCallBlock: "error" });
    refuseUncommitted(held, {
      refusal,
      requestRefused: (side, id) => {
        const key = idKey(id);
        if (side === "downstream") {
          this.pending.in.delete(key);
          return this.upstream.send(JSON.stringify(refusal(id)), { stream: null });
        }
        const pending = this.pending.out.get(key);
        this.pending.out.delete(key);
        if (pending) this.deliver("inbound", JSON.stringify(renderBlock(id, pending.method, verdict, this.render)), pending);
      },
      send: (side, text, info) => (side === "upstream" ? this.upstream : this.downstream).send(text, info),
    });
  }
}
