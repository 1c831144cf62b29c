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
  return peerInfoOf(result, "serverInfo");
}

/** The agent's client, from the params of its `initialize`. */
export function clientInfoOf(params: unknown): { name: string; version: string } | null {
  return peerInfoOf(params, "clientInfo");
}

function peerInfoOf(result: unknown, key: "serverInfo" | "clientInfo"): { name: string; version: string } | null {
  if (result === null || typeof result !== "object") return null;
  const info = (result as Record<string, unknown>)[key];
  if (info === null || typeof info !== "object") return null;
  const { name, version } = info as { name?: unknown; version?: unknown };
  return typeof name === "string" ? { name, version: typeof version === "string" ? version : "" } : null;
}

/** Protocol revisions a `MCP-Protocol-Version` header may name. */
export const MCP_PROTOCOL_VERSIONS = new Set(["2024-10-07", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);

/** The revision assumed when a Streamable HTTP request carries no version header (MCP 2025-06-18, "Protocol Version Header"). */
export const MCP_DEFAULT_HTTP_VERSION = "2025-03-26";

/**
 * The stateless revisions (2026-07-28 on): no initialize, no session; every request carries its protocol version in
 * `params._meta` and the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers.
 */
export function isStatelessVersion(v: unknown): boolean {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && v >= "2026-07-28";
}

/** The protocol version a stateless-era request claims in its `_meta` envelope, if any. */
export function envelopeVersionOf(message: unknown): string | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const v = meta !== null && typeof meta === "object" ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
  return typeof v === "string" ? v : null;
}

/** The params field `Mcp-Name` mirrors, per method (MCP 2026-07-28). */
const MCP_NAME_SOURCE: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri", "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" };

const B64_PREFIX = "=?base64?";
const B64_SUFFIX = "?=";

/**
 * The `Mcp-Method` and `Mcp-Name` headers a stateless-era request must carry, derived from its body (so they still
 * match it after a rule rewrote it). Values that are not plain printable ASCII go base64-encoded in the `=?base64?…?=`
 * sentinel, as the SDKs encode them.
 */
export function statelessHeadersOf(message: unknown): Record<string, string> {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return {};
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  if (typeof method !== "string") return {};
  const out: Record<string, string> = { "mcp-method": method };
  const field = MCP_NAME_SOURCE[method];
  const value = field !== undefined && params !== null && typeof params === "object" ? params[field] : undefined;
  if (typeof value === "string") {
    const plain = value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !(value.startsWith(B64_PREFIX) && value.endsWith(B64_SUFFIX));
    out["mcp-name"] = plain ? value : B64_PREFIX + Buffer.from(value, "utf8").toString("base64") + B64_SUFFIX;
  }
  return out;
}

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
