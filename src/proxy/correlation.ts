import { errorResponse, ErrorCode, idKey, type JsonObject } from "../protocol/json-rpc.js";
import type { Batch } from "./batch.js";

export type { Batch } from "./batch.js";
import type { Direction } from "./pipeline.js";

/** A request awaiting its answer: from the agent (outbound) or from the server (inbound). */
export interface Pending {
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

const DENIED_MEMORY = 1024;

/**
 * The session's one pending table per direction: requests from the agent awaiting the server's response (`out`), and
 * the reverse (`in`), with what is needed to answer them (their batch, their exchange) and to judge what refers to
 * them (cancellations, progress). Agent request ids the guardian denied are remembered (bounded) so their
 * notifications are dropped.
 */
export class Correlation {
  readonly out = new Map<string, Pending>();
  readonly in = new Map<string, Pending>();
  private readonly deniedOut: string[] = [];

  /** The table of requests sent by the side that `direction` comes from. */
  of(direction: Direction): Map<string, Pending> {
    return direction === "outbound" ? this.out : this.in;
  }

  /** The table of requests a message from `direction` may answer. */
  answering(direction: Direction): Map<string, Pending> {
    return direction === "outbound" ? this.in : this.out;
  }

  /**
   * A request that goes on becomes pending on its side; returns why it cannot instead (its id is taken — pending, or
   * held by a stage — or `max` are pending already).
   */
  open(direction: Direction, pending: Pending, max: number, taken: boolean): "DUPLICATE_ID" | "TOO_MANY_PENDING" | null {
    const mine = this.of(direction);
    if (taken) return "DUPLICATE_ID";
    if (mine.size >= max) return "TOO_MANY_PENDING";
    mine.set(pending.key, pending);
    if (pending.batch) pending.batch.waiting++;
    return null;
  }

  get size(): number {
    return this.out.size + this.in.size;
  }

  rememberDenied(key: string): void {
    this.deniedOut.push(key);
    if (this.deniedOut.length > DENIED_MEMORY) this.deniedOut.shift();
  }

  /** A cancellation or progress from the agent about a request the guardian denied. */
  aboutDenied(method: string | null, message: JsonObject): boolean {
    if (method !== "notifications/cancelled" && method !== "notifications/progress") return false;
    const rid = requestIdOf(message);
    return rid !== null && this.deniedOut.includes(idKey(rid));
  }

  /** A `notifications/cancelled` naming a request the sender has no pending request for, on its side. */
  cancelsNothing(direction: Direction, method: string | null, message: JsonObject): boolean {
    if (method !== "notifications/cancelled") return false;
    const rid = requestIdOf(message);
    return rid !== null && !this.of(direction).has(idKey(rid));
  }

  /** The agent request a server progress notification belongs to (by its token): the stream it goes on. */
  progressStream(message: JsonObject): string | null {
    const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
    if (token === undefined) return null;
    for (const pending of this.out.values()) {
      const meta = (pending.message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
      if (meta?.progressToken === token) return pending.key;
    }
    return null;
  }

  /**
   * The agent cancelled a request it sent in a batch: the server may now never answer it (MCP says it should not), so
   * its slot in the joined reply is answered here. Returns the batch to flush, if any. A single request stays pending
   * (the agent expects nothing; an answer that still comes is passed on).
   */
  cancelInBatch(message: JsonObject): Batch | null {
    const rid = requestIdOf(message);
    if (rid === null) return null;
    const pending = this.out.get(idKey(rid));
    if (!pending?.batch || pending.cancelled) return null;
    const batch = pending.batch;
    pending.cancelled = true;
    pending.batch = undefined;
    batch.replies.push(errorResponse(rid, ErrorCode.Cancelled, "Request cancelled by the client"));
    batch.waiting--;
    return batch;
  }
}

function requestIdOf(message: JsonObject): string | number | null {
  const rid = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof rid === "string" || typeof rid === "number" ? rid : null;
}
