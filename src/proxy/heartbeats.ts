import type { JsonObject } from "../protocol/json-rpc.js";
import type { Peer } from "../transports/types.js";

/** How often a held request that carries a progressToken is told it is still waiting. */
export const HEARTBEAT_MS = 5000;

/**
 * Tells a held request that carries a progressToken, every `everyMs`, that it is still waiting (clients that reset
 * their timeout on progress keep waiting). Used by approvals and by a suspended session (src/control). Returns the stop.
 */
export function progressHeartbeats(downstream: Peer, message: JsonObject, key: string, note: string, everyMs = HEARTBEAT_MS): () => void {
  const token = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
  if (typeof token !== "string" && typeof token !== "number") return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    const beat = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: ++progress, message: note } };
    downstream.send(JSON.stringify(beat), { stream: key });
  }, everyMs);
  return () => clearInterval(timer);
}
