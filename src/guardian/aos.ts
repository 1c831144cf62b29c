import { z } from "zod";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { MessageContext } from "./evaluate.js";

/** AOS 0.1.0 (seed 003): the guardian contract. */
export const AOS_VERSION = "0.1.0";

export type AosProtocolMethod = "protocols/MCP" | "protocols/A2A";

export interface AosRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: JsonObject;
}

export const aosResultSchema = z.looseObject({
  decision: z.enum(["allow", "deny", "modify"]),
  message: z.string(),
  reasoning: z.string().optional(),
  reasonCode: z.array(z.string()).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  modifiedRequest: z
    .looseObject({
      jsonrpc: z.literal("2.0"),
      id: z.union([z.string(), z.number()]),
      method: z.string(),
      params: z.looseObject({ message: z.record(z.string(), z.unknown()) }),
    })
    .optional(),
});
export type AosResult = z.infer<typeof aosResultSchema>;

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
