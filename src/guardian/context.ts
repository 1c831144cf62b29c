import type { JsonObject } from "../protocol/json-rpc.js";
import { kindOf, type MessageContext } from "./evaluate.js";

/** An AOS request's `params.context` as the evaluator reads it; what is missing is derived from the message. */
export function readContext(raw: unknown, message: JsonObject): MessageContext {
  const c = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as JsonObject) : {};
  const kind = kindOf(message);
  const direction = c.direction === "inbound" || c.direction === "outbound" ? c.direction : kind === "response" ? "inbound" : "outbound";
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const obj = (v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : null);
  const agent = obj(c.agent);
  const server = obj(c.server) ?? obj(c.peer);
  return {
    direction,
    session: str(c.session),
    route: str(c.route),
    transport: str(c.transport),
    agent: agent && typeof agent.id === "string" ? { id: agent.id } : null,
    server: server && typeof server.name === "string" ? { name: server.name, version: str(server.version) } : null,
    request: obj(c.request),
    kind: c.kind === "event" ? "event" : undefined,
  };
}
