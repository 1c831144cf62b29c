import { WIRE_ERRORS } from "../errors.js";
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
  // An unreachable shared store is an outage, not a policy: always the -32051 error, with the store's data.
  if (verdict.store) return errorResponse(id, ErrorCode.GuardianUnavailable, verdict.message, { decision: "deny", reasonCode: verdict.reasonCode, rules: verdict.rules, ...verdict.store });
  if (method === "tools/call" && opts.toolCallBlock === "result") {
    const why = verdict.unavailable ? `guardian unavailable (${verdict.message})` : verdict.message;
    const rule = verdict.rule ? ` [rule ${verdict.rule}]` : "";
    const result: Record<string, unknown> = { content: [{ type: "text", text: `Blocked by guardwire: ${why}${rule}` }], isError: true };
    // Stateless-era (2026-07-28) results must say they are complete.
    if (stateless) result.resultType = "complete";
    return { jsonrpc: "2.0", id, result };
  }
  const data = { decision: "deny", reasonCode: verdict.reasonCode, rules: verdict.rules, message: verdict.message };
  if (verdict.unavailable) return errorResponse(id, ErrorCode.GuardianUnavailable, WIRE_ERRORS.GuardianUnavailable.message, data);
  return errorResponse(id, ErrorCode.DeniedByPolicy, WIRE_ERRORS.DeniedByPolicy.message, data);
}

/**
 * A call refused because its tool changed (reason `TOOL_CHANGED`) shows the caller still lists that tool: it is told
 * to list again (`notifications/tools/list_changed`), and gets the list without it. Null for anything else.
 */
export function staleToolListNotice(method: string | null, verdict: Verdict): string | null {
  return method === "tools/call" && verdict.reasonCode.includes("TOOL_CHANGED") ? TOOLS_LIST_CHANGED : null;
}

const TOOLS_LIST_CHANGED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });

/** Why the server did not answer: a reason, and its HTTP status (with `Retry-After`) when it answered with one. */
export interface UpstreamFailure {
  reason: string;
  status?: number;
  retryAfter?: string;
}

/**
 * The answer to a request the server did not answer. The one place an upstream's HTTP status becomes a JSON-RPC error
 * (docs/serve.md has the table): what the agent could change (a request too large, a bad request) is -32600,
 * authorization -32053, everything else -32052 with the status, so the agent can tell them apart.
 */
export function renderUpstreamFailure(id: JsonRpcId, route: string, f: UpstreamFailure): JsonRpcResponse {
  const { status, reason } = f;
  if (status === undefined) return errorResponse(id, ErrorCode.UpstreamUnavailable, WIRE_ERRORS.UpstreamUnavailable.message, { route, reason });
  const data: Record<string, unknown> = { route, reason, status };
  const [code, message] = statusError(status);
  if (status === 429 && f.retryAfter !== undefined) data.retryAfter = f.retryAfter;
  return errorResponse(id, code, message, data);
}

function statusError(status: number): [number, string] {
  if (status === 401) return [ErrorCode.UpstreamUnauthorized, "Upstream requires authorization (HTTP 401)"];
  if (status === 403) return [ErrorCode.UpstreamUnauthorized, "Upstream refused authorization (HTTP 403)"];
  if (status === 413) return [ErrorCode.InvalidRequest, "Upstream refused the request: too large (HTTP 413)"];
  if (status === 429) return [ErrorCode.UpstreamUnavailable, "Upstream rate limited (HTTP 429)"];
  // 404/405: the route's URL is not an MCP endpoint; 408: the server timed out. Nothing the request could change.
  if (status >= 400 && status < 500 && status !== 404 && status !== 405 && status !== 408) {
    return [ErrorCode.InvalidRequest, `Upstream refused the request (HTTP ${status})`];
  }
  return [ErrorCode.UpstreamUnavailable, WIRE_ERRORS.UpstreamUnavailable.message];
}
