/** The words every floor shares, defined once. */

/** Which way a message goes: `outbound` from the agent to the server, `inbound` back. */
export type Direction = "outbound" | "inbound";

/** The agent protocols guardwire proxies. */
export type AgentProtocol = "mcp" | "a2a";

/** What a decision is about: an agent protocol, or AOS (a message judged at the guardian's own endpoint). */
export type Protocol = AgentProtocol | "aos";
