/** Values of the OpenTelemetry MCP semantic conventions that metrics and traces both derive from guardwire's data. */

/**
 * `network.transport` of a transport, the agent's or the server's: `pipe` for stdio (`wrap`, and a route's
 * `mcp: {command}`), `tcp` for everything over HTTP and WebSocket.
 */
export function networkTransport(transport: string): string {
  return transport === "stdio" ? "pipe" : "tcp";
}

/** `network.protocol.name`: `http`, or `websocket`; none over stdio. */
export function networkProtocol(transport: string): string | undefined {
  if (transport === "stdio") return undefined;
  return transport === "websocket" ? "websocket" : "http";
}

/** What the caller got when guardwire answered a request itself, per reason code (the JSON-RPC code, as `error.type`). */
const ANSWERED_WITH: Record<string, string> = { GUARDIAN_UNAVAILABLE: "-32051", LOG_UNAVAILABLE: "-32051", UPSTREAM_UNAVAILABLE: "-32052", UPSTREAM_REFUSED: "upstream_refused" };

/**
 * `error.type` of a request guardwire refused: the JSON-RPC code it answered with; a blocked tool call is answered as an
 * `isError` result by default (actions/render), which the conventions call `tool_error`.
 */
export function refusalErrorType(reasonCode: readonly string[], method: string | null): string {
  for (const code of reasonCode) {
    const wire = ANSWERED_WITH[code];
    if (wire) return wire;
  }
  return method === "tools/call" ? "tool_error" : "-32050";
}
