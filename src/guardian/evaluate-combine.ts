import { MCP_PLUMBING } from "../protocol/mcp.js";
import type { Detection } from "./detectors/index.js";
import { applyEdits, applyRedactions, type Redaction } from "./edits.js";
import { kindOf } from "./evaluate-facts.js";
import type { Decision, MessageContext } from "./evaluate-types.js";
import type { CompiledRule, CompiledRuleSet } from "./rules/compile.js";

/*
 * The evaluator's decision from the rules that fired (evaluate.ts): deny beats ask beats modify beats allow,
 * modifications in load order, the rule set's default when none fired; and tools/list results without the tools the
 * rules deny outright.
 */

/**
 * A tool that the rules deny unconditionally for this caller (a deny rule with no when/detect/limit whose match names
 * it) is removed from tools/list results, so the model never plans with it. The filtering is a logged modify.
 */
export function filterToolList(decision: Decision, message: Record<string, unknown>, ctx: MessageContext, ruleSet: CompiledRuleSet): void {
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

export function combine(
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
