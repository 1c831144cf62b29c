import { z } from "zod";

/** A JSON-RPC 2.0 id. `null` only appears on error replies to unreadable input. */
export type JsonRpcId = string | number | null;

export type JsonObject = { [key: string]: unknown };

export type MessageKind = "request" | "response" | "notification";

/** The envelope is validated strictly; everything inside params/result is passed through untouched. */
const idSchema = z.union([z.string(), z.number()]);
const paramsSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();

export const requestSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: idSchema,
  method: z.string(),
  params: paramsSchema,
});

export const notificationSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: paramsSchema,
});

export const errorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

export const responseSchema = z.union([
  z.looseObject({ jsonrpc: z.literal("2.0"), id: idSchema.nullable(), result: z.unknown() }),
  z.looseObject({ jsonrpc: z.literal("2.0"), id: idSchema.nullable(), error: errorObjectSchema }),
]);

export type JsonRpcRequest = z.infer<typeof requestSchema>;
export type JsonRpcNotification = z.infer<typeof notificationSchema>;
export type JsonRpcErrorObject = z.infer<typeof errorObjectSchema>;
export interface JsonRpcResponse extends JsonObject {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: JsonRpcErrorObject;
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type Classified =
  | { ok: true; kind: MessageKind; message: JsonObject; id: JsonRpcId; method?: string }
  | { ok: false; id: JsonRpcId; reason: string };

const has = (o: JsonObject, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Decide what a parsed JSON value is: a request, a response, a notification, or invalid (with the id, if readable). */
export function classify(value: unknown): Classified {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, id: null, reason: "a JSON-RPC message must be an object" };
  }
  const o = value as JsonObject;
  const rawId = o.id;
  const readableId: JsonRpcId = typeof rawId === "string" || typeof rawId === "number" ? rawId : null;
  if (has(o, "method")) {
    if (has(o, "result") || has(o, "error")) {
      return { ok: false, id: readableId, reason: "a message cannot carry both method and result/error" };
    }
    if (o.jsonrpc === "2.0" && typeof o.method === "string" && paramsOk(o.params)) {
      // The envelope is plainly valid: the schema would say the same, only slower (this runs for every message).
      if (typeof rawId === "string" || typeof rawId === "number") return { ok: true, kind: "request", message: o, id: rawId, method: o.method };
      if (!has(o, "id")) return { ok: true, kind: "notification", message: o, id: null, method: o.method };
    }
    if (has(o, "id")) {
      const r = requestSchema.safeParse(o);
      if (!r.success) return { ok: false, id: readableId, reason: describe(r.error) };
      return { ok: true, kind: "request", message: o, id: o.id as string | number, method: o.method as string };
    }
    const n = notificationSchema.safeParse(o);
    if (!n.success) return { ok: false, id: null, reason: describe(n.error) };
    return { ok: true, kind: "notification", message: o, id: null, method: o.method as string };
  }
  if (has(o, "result") !== has(o, "error")) {
    if (o.jsonrpc === "2.0" && (readableId !== null || rawId === null) && (has(o, "result") || errorOk(o.error))) {
      return { ok: true, kind: "response", message: o, id: readableId };
    }
    const r = responseSchema.safeParse(o);
    if (!r.success) return { ok: false, id: readableId, reason: describe(r.error) };
    return { ok: true, kind: "response", message: o, id: readableId };
  }
  return { ok: false, id: readableId, reason: "not a request, notification or response" };
}

function paramsOk(p: unknown): boolean {
  return p === undefined || (typeof p === "object" && p !== null);
}

function errorOk(e: unknown): boolean {
  if (typeof e !== "object" || e === null || Array.isArray(e)) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return Number.isInteger(code) && typeof message === "string";
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid JSON-RPC envelope";
  const at = issue.path.length ? ` at ${issue.path.join(".")}` : "";
  return `invalid JSON-RPC envelope${at}: ${issue.message}`;
}

/** Wire error codes, by name (the catalogue with their HTTP statuses and meanings: src/errors.ts, docs/errors.md). */
export { ErrorCode } from "../errors.js";

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** Ids are compared by type and value: 1 and "1" are different requests. */
export function idKey(id: string | number): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

/** The id an `idKey` was made from. */
export function idOfKey(key: string): string | number {
  return key.startsWith("n:") ? Number(key.slice(2)) : key.slice(2);
}
