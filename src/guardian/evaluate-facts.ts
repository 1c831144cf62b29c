import { a2aOperation } from "../protocol/a2a.js";
import { toolOf } from "../protocol/mcp.js";
import type { Kind, MessageContext, SessionView } from "./evaluate-types.js";
import type { CompiledRule, Protocol } from "./rules/compile.js";

/*
 * What the evaluator (evaluate.ts) knows of a message before it runs a rule: its kind, method, params and tool; whether
 * a rule's `match` holds; the window a `limit` counts it in; the variables a `when` reads.
 */

/**
 * What rules match a message by: its kind, its method (a response's is its request's), the params that say what it is
 * about (a response's are its request's) and the tool they name.
 */
export function factsOf(message: Record<string, unknown>, ctx: MessageContext): { kind: Kind; method: string | null; params: unknown; tool: string | null } {
  const kind = ctx.kind ?? kindOf(message);
  const request = ctx.request ?? null;
  const method = typeof message.method === "string" ? message.method : typeof request?.method === "string" ? request.method : null;
  const params = (kind === "response" ? request?.params : message.params) ?? null;
  return { kind, method, params, tool: toolOf(method ?? undefined, params) };
}

/**
 * Whether a rule's `match` (everything but `when`, detectors and `limit`) holds for a message: the part of a rule that
 * can be decided before any state is read (the shared store prefetches limit windows by it).
 */
export function matchesStatically(rule: CompiledRule, protocol: Protocol, ctx: MessageContext, kind: Kind, method: string | null, tool: string | null): boolean {
  if (rule.kinds && !rule.kinds.has(kind)) return false;
  // Only a request can be held for a person: an ask rule lets responses and notifications by.
  if (rule.decision === "ask" && kind !== "request") return false;
  if (rule.method && (method === null || !rule.method(method))) return false;
  if (rule.tool && (tool === null || !rule.tool(tool))) return false;
  if (rule.operation) {
    const op = protocol === "a2a" ? a2aOperation(method) : null;
    if (op === null || !rule.operation(op)) return false;
  }
  if (rule.route && !rule.route(ctx.route ?? "")) return false;
  if (rule.server && !rule.server(ctx.server?.name ?? "")) return false;
  if (rule.agent && !rule.agent(ctx.agent?.id ?? "")) return false;
  return true;
}

/** The window a `limit` rule counts this message in: the rule, and who it is counted for (`limit.key`). */
export function limitKey(rule: CompiledRule, ctx: MessageContext, tool: string | null): string {
  const by = rule.limit?.key;
  const who = by === "session" ? (ctx.session ?? "") : by === "agent" ? (ctx.agent?.id ?? "") : by === "route" ? (ctx.route ?? "") : (tool ?? "");
  return `${rule.id}\u0000${who}`;
}

export function kindOf(message: Record<string, unknown>): Kind {
  if (typeof message.method === "string") return "id" in message ? "request" : "notification";
  return "response";
}

export function bindVariables(
  protocol: Protocol,
  message: Record<string, unknown>,
  ctx: MessageContext,
  kind: Kind,
  method: string | null,
  params: unknown,
  tool: string | null,
  session: SessionView | (() => SessionView) | null,
): Record<string, unknown> {
  const p = params !== null && typeof params === "object" ? (params as Record<string, unknown>) : null;
  const args = p && p.arguments !== null && typeof p.arguments === "object" ? p.arguments : {};
  return {
    message,
    method,
    operation: protocol === "a2a" ? a2aOperation(method) : null,
    params: p ?? {},
    result: message.result ?? null,
    error: message.error ?? null,
    tool,
    args,
    text: null,
    direction: ctx.direction,
    kind,
    protocol,
    route: ctx.route ?? null,
    server: ctx.server ?? null,
    agent: ctx.agent?.id ?? null,
    request: ctx.request ?? null,
    session: (typeof session === "function" ? session() : session) ?? { id: ctx.session ?? "", labels: [], counts: {} },
    detections: [],
  };
}
