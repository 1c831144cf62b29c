import { a2aOperation } from "../protocol/a2a.js";
import { MCP_PLUMBING, toolOf } from "../protocol/mcp.js";
import { alertOf, mergeAlerts, type AlertInfo } from "./alert.js";
import { MessageScan, type Detection } from "./detectors/index.js";
import type { NewPin, PinStore } from "./detectors/pins.js";
import { renderPrompt } from "./ask.js";
import { applyEdits, applyRedactions, type Redaction } from "./edits.js";
import type { CompiledRule, CompiledRuleSet, Direction, Protocol } from "./rules/compile.js";

export type Kind = "request" | "response" | "notification" | "event";
export type DecisionName = "allow" | "deny" | "modify" | "ask";

/** What the proxy knows about a message besides the message itself (AOS `params.context`). */
export interface MessageContext {
  direction: Direction;
  session?: string;
  route?: string;
  transport?: string;
  agent?: { id: string } | null;
  server?: { name: string; version?: string } | null;
  /** For a response: the request it answers. */
  request?: Record<string, unknown> | null;
  /** Set by the proxy when it already knows; derived from the message otherwise. */
  kind?: Kind;
}

export interface SessionView {
  id: string;
  labels: string[];
  counts: Record<string, number>;
}

export interface Decision {
  decision: DecisionName;
  mode: "enforce" | "audit";
  /** Ids of the rules that fired and decided (enforced). */
  rules: string[];
  /** The rule reported to the caller on a block: the first deny in load order. */
  rule?: string;
  reasonCode: string[];
  message: string;
  /** The message to send instead, for `modify` (and for `ask`, once approved, when modify rules also fired). */
  modified?: Record<string, unknown>;
  /** decision: ask — what the person is asked (the prompt filled in), and what an approval covers. */
  ask?: { rule: string; prompt: string; timeoutMs: number; onTimeout: "deny" | "allow"; remember: "once" | "session" | "always" };
  /** What audit-mode rules would have done, when any fired. */
  audit?: { decision: DecisionName; rules: string[]; reasonCode: string[] };
  /** Rules whose evaluation failed (each is a deny RULE_ERROR unless failing open). */
  errors?: { rule: string; error: string }[];
  /** Session labels added by the rules that fired. */
  labels?: string[];
  /** Detection types found by the rules that fired. */
  detected?: string[];
  /** Tools seen for the first time by tool_changed, for the guardian to pin. */
  newPins?: NewPin[];
  /** The requests an `input_required` result let through to the client, for the guardian to know the answers by. */
  inputRequests?: InputRequest[];
  /** Alerting rules among those that fired (enforced or audited), with their highest severity. */
  alert?: AlertInfo;
}

/** A request inside an MCP 2026-07-28 `input_required` result, by its key. */
export interface InputRequest {
  key: string;
  method: string;
  params?: unknown;
}

export interface EvaluateOptions {
  /** failMode: open — a rule that fails to evaluate is skipped instead of denying. */
  failOpen?: boolean;
  /** Pinned tool fingerprints, for the tool_changed detector. */
  pins?: PinStore | null;
  /** Sliding-window counters for `limit`. */
  limiter?: Limiter | null;
  /** Milliseconds, for `limit` windows. */
  now?: number;
  /** The request an `inputResponses` entry answers, as the session's earlier `input_required` result asked it. */
  inputRequest?: (key: string) => InputRequest | undefined;
}

/** Counts hits per key in a sliding window; returns the count including this hit. */
export interface Limiter {
  hit(key: string, windowMs: number, now: number): number;
}

/**
 * The embedded guardian's judgement: pure, no I/O. Every rule whose match holds and whose `when` is true fires;
 * deny beats modify beats allow; modifications apply in load order; no rule fired means the rule set's default.
 *
 * An MCP 2026-07-28 `input_required` result carries the server's requests to the client (sampling, elicitation,
 * roots) inside it: each is also judged as the inbound request it stands for, so the rules written for
 * `sampling/createMessage` or `elicitation/create` act on either revision. One denied denies the result; a modified
 * one is rewritten in place.
 */
export function evaluate(
  protocol: Protocol,
  message: Record<string, unknown>,
  ctx: MessageContext,
  ruleSet: CompiledRuleSet,
  session: SessionView | (() => SessionView) | null = null,
  opts: EvaluateOptions = {},
): Decision {
  const decision = evaluateMessage(protocol, message, ctx, ruleSet, session, opts);
  if (protocol !== "mcp" || decision.decision === "deny") return decision;
  if (ctx.direction === "outbound") return judgeInputResponses(decision, message, ctx, ruleSet, session, opts);
  const base = decision.modified ?? message;
  const inputs = inputRequestsOf(base);
  if (inputs === null) return decision;
  const folded = foldEmbedded(
    decision,
    inputs.map(([key, req]) => ({
      key,
      where: `${req.method} (input request "${key}")`,
      judge: () => evaluateMessage(protocol, { jsonrpc: "2.0", id: `input:${key}`, method: req.method, params: req.params ?? {} }, { ...ctx, kind: "request", request: null }, ruleSet, session, opts),
      rewrite: (m: Record<string, unknown>) => ({ ...req, params: m.params }),
    })),
  );
  if ("deny" in folded) return folded.deny;
  if (folded.changed) {
    const result = base.result as { inputRequests: Record<string, unknown> };
    decision.modified = { ...base, result: { ...result, inputRequests: { ...result.inputRequests, ...folded.changed } } };
  }
  const sent = inputRequestsOf(decision.modified ?? base) ?? [];
  decision.inputRequests = sent.map(([key, req]) => ({ key, method: req.method, params: req.params }));
  return decision;
}

/**
 * A retried request's `inputResponses` (MCP 2026-07-28) are the client's answers to the requests an earlier
 * `input_required` result carried: each is judged as the outbound response it stands for, to the request the guardian
 * remembered under its key (so `direction: outbound, kind: response, method: sampling/createMessage` rules act). One
 * denied denies the retry; a modified one is rewritten in place.
 */
function judgeInputResponses(
  decision: Decision,
  message: Record<string, unknown>,
  ctx: MessageContext,
  ruleSet: CompiledRuleSet,
  session: SessionView | (() => SessionView) | null,
  opts: EvaluateOptions,
): Decision {
  const base = decision.modified ?? message;
  const params = base.params as { inputResponses?: unknown } | undefined;
  const responses = params?.inputResponses;
  if (responses === null || typeof responses !== "object" || Array.isArray(responses)) return decision;
  const folded = foldEmbedded(
    decision,
    Object.entries(responses as Record<string, unknown>).map(([key, result]) => {
      const asked = opts.inputRequest?.(key);
      const id = `input:${key}`;
      const request = asked ? { jsonrpc: "2.0", id, method: asked.method, params: asked.params ?? {} } : null;
      return {
        key,
        where: `the answer to ${asked?.method ?? "an input request"} ("${key}")`,
        judge: () => evaluateMessage("mcp", { jsonrpc: "2.0", id, result }, { ...ctx, kind: "response", request }, ruleSet, session, opts),
        rewrite: (m: Record<string, unknown>) => m.result,
      };
    }),
  );
  if ("deny" in folded) return folded.deny;
  if (folded.changed) decision.modified = { ...base, params: { ...(params as object), inputResponses: { ...(responses as object), ...folded.changed } } };
  return decision;
}

/**
 * Judges the messages embedded in one message, in order, into its decision: the first denied one denies it (its
 * message says where, and nothing after it is judged); modified ones come back rewritten, by key, to be put in place.
 */
function foldEmbedded(
  decision: Decision,
  items: { key: string; where: string; judge: () => Decision; rewrite: (modified: Record<string, unknown>) => unknown }[],
): { deny: Decision } | { changed: Record<string, unknown> | null } {
  let changed: Record<string, unknown> | null = null;
  for (const { key, where, judge, rewrite } of items) {
    const d = judge();
    mergeInto(decision, d);
    if (d.decision === "deny") {
      return { deny: { ...decision, decision: "deny", mode: d.mode, rule: d.rule, reasonCode: d.reasonCode, message: `${d.message} — in ${where}`, modified: undefined } };
    }
    if (d.decision === "ask") {
      // A request carried inside a result cannot be held for a person on its own: it is refused (fail closed).
      const why = `${d.message} — in ${where}, where approval cannot hold it`;
      return { deny: { ...decision, decision: "deny", mode: d.mode, rule: d.rule, reasonCode: ["APPROVAL_UNAVAILABLE", ...d.reasonCode], message: why, modified: undefined, ask: undefined } };
    }
    if (d.decision === "modify" && d.modified) {
      (changed ??= {})[key] = rewrite(d.modified);
      decision.message = decision.decision === "modify" ? `${decision.message}; ${d.message} — in ${where}` : `${d.message} — in ${where}`;
      decision.decision = "modify";
      decision.rule ??= d.rule;
    }
  }
  return { changed };
}

/** The requests inside an `input_required` result, by key, when the message is one. */
function inputRequestsOf(message: Record<string, unknown>): [string, { method: string; params?: unknown }][] | null {
  const result = message.result as { resultType?: unknown; inputRequests?: unknown } | undefined;
  if (!result || result.resultType !== "input_required" || result.inputRequests === null || typeof result.inputRequests !== "object") return null;
  const out: [string, { method: string; params?: unknown }][] = [];
  for (const [key, req] of Object.entries(result.inputRequests as Record<string, unknown>)) {
    if (req !== null && typeof req === "object" && typeof (req as { method?: unknown }).method === "string") out.push([key, req as { method: string; params?: unknown }]);
  }
  return out.length > 0 ? out : null;
}

/** What an embedded request's judgement adds to its result's: the rules, codes, labels and findings, and any error. */
function mergeInto(into: Decision, d: Decision): void {
  const union = <T>(a: T[] | undefined, b: T[] | undefined) => (b && b.length > 0 ? [...new Set([...(a ?? []), ...b])] : a);
  into.rules = union(into.rules, d.rules) ?? [];
  into.reasonCode = union(into.reasonCode, d.reasonCode) ?? [];
  const labels = union(into.labels, d.labels);
  if (labels) into.labels = labels;
  const detected = union(into.detected, d.detected);
  if (detected) into.detected = detected;
  if (d.errors) into.errors = [...(into.errors ?? []), ...d.errors];
  if (d.audit && !into.audit) into.audit = d.audit;
  if (d.mode === "enforce" && d.rules.length > 0) into.mode = "enforce";
  const alert = mergeAlerts(into.alert, d.alert);
  if (alert) into.alert = alert;
}

function evaluateMessage(
  protocol: Protocol,
  message: Record<string, unknown>,
  ctx: MessageContext,
  ruleSet: CompiledRuleSet,
  session: SessionView | (() => SessionView) | null = null,
  opts: EvaluateOptions = {},
): Decision {
  const { kind, method, params, tool } = factsOf(message, ctx);
  const candidates = ruleSet.candidates(protocol, ctx.direction, method);

  let vars: Record<string, unknown> | null = null;
  let scan: MessageScan | null = null;
  // Pins are the route's (a name the configuration gives, not one the server chooses): docs/rules.md, Tool pins.
  const scanned = () => (scan ??= new MessageScan(message, { key: ctx.route ?? ctx.server?.name ?? "", reported: ctx.server?.name ?? null }, opts.pins ?? null));
  const enforced: CompiledRule[] = [];
  const audited: CompiledRule[] = [];
  const errors: { rule: string; error: string }[] = [];
  const found = new Map<CompiledRule, Detection[]>();

  for (const rule of candidates) {
    if (!matchesStatically(rule, protocol, ctx, kind, method, tool)) continue;
    const detections: Detection[] = [];
    if (rule.detectors.length > 0) {
      try {
        for (const d of rule.detectors) for (const x of scanned().run(d)) detections.push(x);
      } catch (e) {
        errors.push({ rule: rule.id, error: `detector failed: ${(e as Error).message}` });
        continue;
      }
      if (detections.length === 0) continue;
    }
    if (rule.when) {
      vars ??= bindVariables(protocol, message, ctx, kind, method, params, tool, session);
      if (rule.needsText && vars.text === null) vars.text = protocol === "a2a" ? scanned().partsText : scanned().text;
      vars.detections = detections;
      let outcome: unknown;
      try {
        outcome = rule.when(vars);
      } catch (e) {
        errors.push({ rule: rule.id, error: (e as Error).message.split("\n")[0] ?? "evaluation failed" });
        continue;
      }
      if (typeof outcome !== "boolean") {
        errors.push({ rule: rule.id, error: `when must be true or false, got ${typeof outcome}` });
        continue;
      }
      if (!outcome) continue;
    }
    if (rule.limit) {
      const count = opts.limiter ? opts.limiter.hit(limitKey(rule, ctx, tool), rule.limit.perMs, opts.now ?? 0) : 0;
      if (count <= rule.limit.count) continue;
    }
    if (detections.length > 0) found.set(rule, detections);
    (rule.mode === "audit" ? audited : enforced).push(rule);
  }

  const decision = combine(enforced, message, ruleSet, method, found);
  const asking = decision.decision === "ask" ? enforced.find((r) => r.decision === "ask") : undefined;
  if (asking?.ask) {
    vars ??= bindVariables(protocol, message, ctx, kind, method, params, tool, session);
    const { timeoutMs, onTimeout, remember } = asking.ask;
    decision.ask = { rule: asking.id, prompt: renderPrompt(asking.ask.prompt, vars), timeoutMs, onTimeout, remember };
  }
  if (errors.length > 0) {
    decision.errors = errors;
    if (!opts.failOpen) {
      decision.decision = "deny";
      decision.modified = undefined;
      decision.ask = undefined;
      decision.rule ??= errors[0]?.rule;
      decision.rules = [...decision.rules, ...errors.map((e) => e.rule)];
      decision.reasonCode = ["RULE_ERROR", ...decision.reasonCode.filter((c) => c !== "RULE_ERROR")];
      decision.message = `Rule ${errors[0]?.rule} failed to evaluate: ${errors[0]?.error}`;
    } else {
      // Failing open still says so: the decision stands, the broken rule is named in the log.
      decision.reasonCode = [...decision.reasonCode, "RULE_ERROR"];
      decision.message = `${decision.message}; rule ${errors[0]?.rule} failed to evaluate and was skipped (failMode: open)`;
    }
  }
  const fired = enforced.concat(audited);
  if (audited.length > 0) {
    const wouldBe = combine(fired, message, ruleSet, method, found);
    decision.audit = { decision: wouldBe.decision, rules: audited.map((r) => r.id), reasonCode: wouldBe.reasonCode };
    if (enforced.length === 0 && errors.length === 0) decision.mode = "audit";
  }
  const labels = fired.flatMap((r) => r.labels);
  if (labels.length > 0) decision.labels = [...new Set(labels)];
  const alert = alertOf(fired);
  if (alert) decision.alert = alert;
  if (found.size > 0) decision.detected = [...new Set([...found.values()].flat().map((d) => d.type))];
  // `scan` is set inside `scanned()`, which the compiler cannot see through.
  const newPins = (scan as MessageScan | null)?.newPins ?? [];
  if (newPins.length > 0) decision.newPins = newPins;
  if (decision.decision !== "deny" && kind === "response" && method === "tools/list" && protocol === "mcp" && ctx.direction === "inbound") {
    filterToolList(decision, message, ctx, ruleSet);
  }
  return decision;
}

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

/**
 * A tool that the rules deny unconditionally for this caller (a deny rule with no when/detect/limit whose match names
 * it) is removed from tools/list results, so the model never plans with it. The filtering is a logged modify.
 */
function filterToolList(decision: Decision, message: Record<string, unknown>, ctx: MessageContext, ruleSet: CompiledRuleSet): void {
  const base = decision.modified ?? message;
  const result = base.result as { tools?: unknown } | undefined;
  if (!result || !Array.isArray(result.tools)) return;
  const outbound = ruleSet.candidates("mcp", "outbound", "tools/call").filter(
    (r) =>
      r.decision === "deny" &&
      r.unconditional &&
      r.mode === "enforce" &&
      r.tool !== null &&
      (!r.kinds || r.kinds.has("request")) &&
      (!r.route || r.route(ctx.route ?? "")) &&
      (!r.server || r.server(ctx.server?.name ?? "")) &&
      (!r.agent || r.agent(ctx.agent?.id ?? "")),
  );
  if (outbound.length === 0) return;
  const removedBy = new Set<string>();
  const kept = result.tools.filter((t: unknown) => {
    const name = t !== null && typeof t === "object" ? (t as { name?: unknown }).name : undefined;
    if (typeof name !== "string") return true;
    const rule = outbound.find((r) => r.tool?.(name));
    if (rule) removedBy.add(rule.id);
    return !rule;
  });
  if (removedBy.size === 0) return;
  const modified = structuredClone(base);
  (modified.result as { tools: unknown[] }).tools = kept;
  decision.modified = modified;
  decision.decision = "modify";
  decision.rules = [...decision.rules, ...removedBy];
  decision.reasonCode = [...decision.reasonCode, "TOOL_FILTERED"];
  decision.message = `${result.tools.length - kept.length} tool(s) denied by rules removed from the list`;
}

function combine(
  fired: CompiledRule[],
  message: Record<string, unknown>,
  ruleSet: CompiledRuleSet,
  method: string | null,
  found: Map<CompiledRule, Detection[]>,
): Decision {
  const deny = fired.find((r) => r.decision === "deny");
  const ids = fired.map((r) => r.id);
  const codes = (rs: CompiledRule[]) => [...new Set(rs.flatMap((r) => (r.reasonCode ? [r.reasonCode] : [])))];
  if (deny) {
    return {
      decision: "deny",
      mode: "enforce",
      rules: ids,
      rule: deny.id,
      reasonCode: codes(fired.filter((r) => r.decision === "deny")),
      message: messageOf(deny, found, `denied by rule ${deny.id}`),
    };
  }
  const modifiers = fired.filter((r) => r.decision === "modify");
  const ask = fired.find((r) => r.decision === "ask");
  if (ask) {
    // Held for a person; an approval forwards the message as the modify rules that also fired left it.
    let modified: Record<string, unknown> | undefined;
    for (const r of modifiers) modified = applyEdits(modified ?? message, r.edits, found.get(r));
    const d: Decision = { decision: "ask", mode: "enforce", rules: ids, rule: ask.id, reasonCode: codes([ask]), message: ask.message ?? ask.description ?? `approval required by rule ${ask.id}` };
    if (modified) d.modified = modified;
    return d;
  }
  if (modifiers.length > 0) {
    // Every rule's redactions in one pass (their offsets are into the original), then the other edits in load order.
    const redactions: Redaction[] = [];
    for (const r of modifiers) {
      const edit = r.edits.find((e) => e.op === "redact");
      if (edit) for (const d of found.get(r) ?? []) redactions.push({ ...d, with: edit.with });
    }
    let modified = applyRedactions(message, redactions);
    for (const r of modifiers) {
      const rest = r.edits.filter((e) => e.op !== "redact");
      if (rest.length > 0) modified = applyEdits(modified, rest);
    }
    return {
      decision: "modify",
      mode: "enforce",
      rules: ids,
      rule: modifiers[0]?.id,
      reasonCode: codes(modifiers),
      message: modifiers.map((r) => messageOf(r, found, `modified by rule ${r.id}`)).join("; "),
      modified,
    };
  }
  if (fired.length > 0) {
    return { decision: "allow", mode: "enforce", rules: ids, reasonCode: codes(fired), message: "allowed by rule" };
  }
  if (ruleSet.default === "deny" && !isPlumbing(message, method)) {
    if (ruleSet.defaultMode === "audit") {
      return {
        decision: "allow",
        mode: "audit",
        rules: [],
        reasonCode: [],
        message: "no rule matched",
        audit: { decision: "deny", rules: [], reasonCode: ["DEFAULT_DENY"] },
      };
    }
    return { decision: "deny", mode: "enforce", rules: [], reasonCode: ["DEFAULT_DENY"], message: "not allowed by any rule (default: deny)" };
  }
  return { decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "no rule matched" };
}

/** A rule's message, with what its findings say about themselves (which tool changed) when they say anything. */
function messageOf(rule: CompiledRule, found: Map<CompiledRule, Detection[]>, fallback: string): string {
  const base = rule.message ?? rule.description ?? fallback;
  const details = [...new Set((found.get(rule) ?? []).flatMap((d) => (d.detail ? [d.detail] : [])))];
  return details.length > 0 ? `${base}: ${details.join("; ")}` : base;
}

/** Under `default: deny`, protocol plumbing and responses still pass unless a rule denies them. */
function isPlumbing(message: Record<string, unknown>, method: string | null): boolean {
  if (kindOf(message) === "response") return true;
  return method !== null && MCP_PLUMBING.has(method);
}

export function kindOf(message: Record<string, unknown>): Kind {
  if (typeof message.method === "string") return "id" in message ? "request" : "notification";
  return "response";
}

function bindVariables(
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
