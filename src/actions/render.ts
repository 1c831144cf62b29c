import type { Verdict } from "../guardian/verdict.js";
import { ErrorCode, errorResponse, type JsonRpcId, type JsonRpcResponse } from "../protocol/json-rpc.js";

export interface RenderOptions {
  /** A blocked `tools/call` becomes an `isError` result the model can read (default), or a JSON-RPC error. */
  toolCallBlock: "result" | "error";
}

export const DEFAULT_RENDER: RenderOptions = { toolCallBlock: "result" };

/**
 * The reply a caller gets instead of what it asked for. A blocked tool call is a normal result with `isError`, so the
 * model sees why and the session survives; anything else is -32050 (denied) or -32051 (guardian unavailable).
 */
export function renderBlock(id: JsonRpcId, method: string | null, verdict: Verdict, opts: RenderOptions = DEFAULT_RENDER, stateless = false): JsonRpcResponse {
  if (method === "tools/call" && opts.toolCallBlock === "result") {
    const why = verdict.unavailable ? `guardian unavailable (${verdict.message})` : verdict.message;
    const rule = verdict.rule ? ` [rule ${verdict.rule}]` : "";
    const result: Record<string, unknown> = { content: [{ type: "text", text: `Blocked by guardwire: ${why}${rule}` }], isError: true };
    // Stateless-era (2026-07-28) results must say they are complete.
    if (stateless) result.resultType = "complete";
    return { jsonrpc: "2.0", id, result };
  }
  const data = { decision: "deny", reasonCode: verdict.reasonCode, rules: verdict.rules, message: verdict.message };
  if (verdict.unavailable) return errorResponse(id, ErrorCode.GuardianUnavailable, "Guardian unavailable", data);
  return errorResponse(id, ErrorCode.DeniedByPolicy, "Denied by policy", data);
}

export function renderUpstreamUnavailable(id: JsonRpcId, route: string, reason: string): JsonRpcResponse {
  return errorResponse(id, ErrorCode.UpstreamUnavailable, "Upstream unavailable", { route, reason });
}
