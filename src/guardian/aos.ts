import type { JsonObject } from "../protocol/json-rpc.js";
import type { MessageContext } from "./evaluate.js";

/** AOS 0.1.0 (seed 003): the guardian contract. */
export const AOS_VERSION = "0.1.0";

export type AosProtocolMethod = "protocols/MCP" | "protocols/A2A";

/** The AOS step methods (spec §4): what an agent reports about its own steps. */
export const STEP_METHODS: readonly string[] = [
  "steps/agentTrigger",
  "steps/message",
  "steps/toolCallRequest",
  "steps/toolCallResult",
  "steps/knowledgeRetrieval",
  "steps/memoryStore",
  "steps/memoryContextRetrieval",
];

/** Every AOS method a complete guardian answers. */
export const AOS_METHODS: readonly string[] = ["protocols/MCP", "protocols/A2A", "ping", ...STEP_METHODS];

export interface AosRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: JsonObject;
}

export interface AosResult {
  decision: "allow" | "deny" | "modify";
  message: string;
  reasoning?: string;
  reasonCode?: string[];
  data?: Record<string, unknown>;
  modifiedRequest?: { jsonrpc: "2.0"; id: string | number; method: string; params: { message: Record<string, unknown> } & JsonObject };
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Strict check of an AOSSuccessResult, read on every message (so hand-written rather than a schema walk):
 * anything that does not fit is a failed evaluation for the caller.
 */
export function isAosResult(v: unknown): v is AosResult {
  if (!isObject(v)) return false;
  if (v.decision !== "allow" && v.decision !== "deny" && v.decision !== "modify") return false;
  if (typeof v.message !== "string") return false;
  if (v.reasoning !== undefined && typeof v.reasoning !== "string") return false;
  if (v.reasonCode !== undefined && !(Array.isArray(v.reasonCode) && v.reasonCode.every((c) => typeof c === "string"))) return false;
  if (v.data !== undefined && !isObject(v.data)) return false;
  if (v.modifiedRequest !== undefined) {
    const m = v.modifiedRequest;
    if (!isObject(m) || m.jsonrpc !== "2.0" || (typeof m.id !== "string" && typeof m.id !== "number") || typeof m.method !== "string") return false;
    // The wrapped form ({message, …}) or the flat form (the message itself as params).
    if (!isObject(m.params) || !(isObject(m.params.message) || m.params.jsonrpc === "2.0")) return false;
  }
  return true;
}

export type AosResponse =
  | { jsonrpc: "2.0"; id: string | number | null; result: AosResult | JsonObject }
  | { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/** The context guardwire adds to AOS params (AOS leaves direction, session and correlation unspecified). */
export interface AosContext extends MessageContext {
  direction: "outbound" | "inbound";
}

let nextId = 1;

/** Wraps an intercepted message as the AOS call the guardian receives. */
export function buildAosRequest(
  method: AosProtocolMethod,
  message: JsonObject,
  context: AosContext,
  reasoning?: string,
): AosRequest {
  const params: JsonObject = { message, context };
  if (reasoning !== undefined) params.reasoning = reasoning;
  return { jsonrpc: "2.0", id: nextId++, method, params };
}
