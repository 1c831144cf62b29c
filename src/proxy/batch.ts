import { idKey } from "../protocol/json-rpc.js";

/**
 * A JSON-RPC batch from the agent is judged element by element and applied as one unit: the allowed requests go to the
 * server one by one (MCP dropped batches in 2025-06-18), and every reply — the server's answers, guardwire's blocks and
 * refusals, a cancelled member's error — goes back as one array once the last one is in. A `Batch` collects them.
 */
export interface Batch {
  replies: unknown[];
  waiting: number;
  forwarded: boolean;
  /** The stream the joined reply goes on: the key of the batch's first request. */
  stream: string | null;
  /** The downstream's context of the batch frame, handed back with the joined reply. */
  carry: unknown;
}

/** A new batch for the values of one frame; `forwarded` when nothing of it will go upstream. */
export function newBatch(values: unknown[], carry: unknown, forwarded = false): Batch {
  return { replies: [], waiting: 0, forwarded, stream: firstRequestKey(values), carry };
}

/** The joined reply, once every member is answered and the batch went out; null while it is not complete. */
export function joinedReply(batch: Batch): string | null {
  if (!batch.forwarded || batch.waiting > 0 || batch.replies.length === 0) return null;
  return JSON.stringify(batch.replies.splice(0));
}

export function firstRequestKey(values: unknown[]): string | null {
  for (const v of values) {
    const o = v as { id?: unknown; method?: unknown } | null;
    if (o && typeof o === "object" && typeof o.method === "string" && (typeof o.id === "string" || typeof o.id === "number")) return idKey(o.id);
  }
  return null;
}
