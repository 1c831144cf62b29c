import { mergeAlerts } from "./alert.js";
import type { Decision } from "./evaluate-types.js";

/*
 * Messages carried inside a message (MCP 2026-07-28 `input_required` results and the `inputResponses` of a retry):
 * each is judged on its own by the evaluator (evaluate.ts), and these fold the judgements into the carrier's decision.
 */

/**
 * Judges the messages embedded in one message, in order, into its decision: the first denied one denies it (its
 * message says where, and nothing after it is judged); modified ones come back rewritten, by key, to be put in place.
 */
export function foldEmbedded(
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
export function inputRequestsOf(message: Record<string, unknown>): [string, { method: string; params?: unknown }][] | null {
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
