import { alertOf } from "./alert.js";
import { renderPrompt } from "./ask.js";
import { MessageScan, type Detection } from "./detectors/index.js";
import { combine, filterToolList } from "./evaluate-combine.js";
import { foldEmbedded, inputRequestsOf } from "./evaluate-embedded.js";
import { bindVariables, factsOf, limitKey, matchesStatically } from "./evaluate-facts.js";
import type { Decision, EvaluateOptions, MessageContext, SessionView } from "./evaluate-types.js";
import type { CompiledRule, CompiledRuleSet, Protocol } from "./rules/compile.js";

// The evaluator's types and helpers live beside it: evaluate-types.ts (its vocabulary), evaluate-facts.ts (what a
// message is and whether a rule matches it), evaluate-combine.ts (the decision from the rules that fired) and
// evaluate-embedded.ts (messages carried inside a message). Callers keep importing them from here.
export type { DecisionName, Decision, EvaluateOptions, InputRequest, Kind, Limiter, MessageContext, SessionView } from "./evaluate-types.js";
export { factsOf, kindOf, limitKey, matchesStatically } from "./evaluate-facts.js";

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

/** A rule that fired and changes what happens to the message (not a second opinion itself). */
const acted = (r: CompiledRule) => r.decision !== "allow" && !r.secondOpinion;

/** Takes the second opinions out of `rules`, and their detections out of `found`. */
function dropSecondOpinions(rules: CompiledRule[], found: Map<CompiledRule, Detection[]>): void {
  for (let i = rules.length - 1; i >= 0; i--) if ((rules[i] as CompiledRule).secondOpinion) found.delete(rules.splice(i, 1)[0] as CompiledRule);
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
    // A second opinion is not asked for once a rule has acted (nor counted if one acts after it, below).
    if (rule.secondOpinion && enforced.some(acted)) continue;
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

  // Enforced second opinions yield to an enforced rule that acted; audited ones to any rule that acted.
  const enforcedActed = enforced.some(acted);
  if (enforcedActed) dropSecondOpinions(enforced, found);
  if (enforcedActed || audited.some(acted)) dropSecondOpinions(audited, found);
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

