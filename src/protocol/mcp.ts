/** MCP vocabulary the proxy and the rules depend on. */

/** Requests a server sends to its client. */
export const SERVER_TO_CLIENT_REQUESTS = new Set(["ping", "sampling/createMessage", "elicitation/create", "roots/list"]);

/** Protocol plumbing that an allowlist (`default: deny`) still lets through unless a rule denies it. */
export const MCP_PLUMBING = new Set([
  "initialize",
  "notifications/initialized",
  "ping",
  "notifications/cancelled",
  "notifications/progress",
]);

/** The tool a message is about: the name of a `tools/call`. */
export function toolOf(method: string | undefined, params: unknown): string | null {
  if ((method !== "tools/call" && method !== "steps/toolCallRequest") || params === null || typeof params !== "object") return null;
  const name = (params as { name?: unknown }).name;
  return typeof name === "string" ? name : null;
}

/** Methods whose params/result identify a peer. */
export function serverInfoOf(result: unknown): { name: string; version: string } | null {
  if (result === null || typeof result !== "object") return null;
  const info = (result as { serverInfo?: unknown }).serverInfo;
  if (info === null || typeof info !== "object") return null;
  const { name, version } = info as { name?: unknown; version?: unknown };
  return typeof name === "string" ? { name, version: typeof version === "string" ? version : "" } : null;
}

/** Protocol revisions a `MCP-Protocol-Version` header may name. */
export const MCP_PROTOCOL_VERSIONS = new Set(["2024-10-07", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);

/** The revision assumed when a Streamable HTTP request carries no version header (MCP 2025-06-18, "Protocol Version Header"). */
export const MCP_DEFAULT_HTTP_VERSION = "2025-03-26";

/** JSON-RPC batches exist in MCP 2025-03-26 only (and in the older revisions that predate the rule). */
export function batchesAllowed(version: string): boolean {
  return version <= "2025-03-26";
}

/** The `protocolVersion` of an initialize result, if the text is one (read only for initialize responses). */
export function protocolVersionOf(result: unknown): string | null {
  if (result === null || typeof result !== "object") return null;
  const v = (result as { protocolVersion?: unknown }).protocolVersion;
  return typeof v === "string" ? v : null;
}
