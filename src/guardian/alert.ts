/**
 * Alerts as the guardian sees them: a rule may carry `alert: { severity }`; a decision whose fired rules include such
 * rules carries their highest severity and their ids (AOS `data.alert`). Delivery is elsewhere (src/alerts/).
 */
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface AlertInfo {
  severity: Severity;
  /** The alerting rules among those that fired, in load order. */
  rules: string[];
}

export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

/** The alert of a set of fired rules: their highest severity, or none when no fired rule alerts. */
export function alertOf(fired: readonly { id: string; alert: { severity: Severity } | null }[]): AlertInfo | undefined {
  let out: AlertInfo | undefined;
  for (const r of fired) {
    if (!r.alert) continue;
    out ??= { severity: r.alert.severity, rules: [] };
    out.rules.push(r.id);
    if (severityRank(r.alert.severity) > severityRank(out.severity)) out.severity = r.alert.severity;
  }
  return out;
}

/** Two alerts as one (an embedded message's, a chain's guardians'): the higher severity, every rule once. */
export function mergeAlerts(a: AlertInfo | undefined, b: AlertInfo | undefined): AlertInfo | undefined {
  if (!a || !b) return a ?? b;
  return { severity: severityRank(b.severity) > severityRank(a.severity) ? b.severity : a.severity, rules: [...new Set([...a.rules, ...b.rules])] };
}

/**
 * `data.alert` of any guardian's answer. An alert is a side channel, never a reason to refuse traffic: a malformed one
 * is ignored (the decision itself is read strictly).
 */
export function readAlert(v: unknown): AlertInfo | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const { severity, rules } = v as { severity?: unknown; rules?: unknown };
  if (typeof severity !== "string" || !(SEVERITIES as readonly string[]).includes(severity)) return undefined;
  return { severity: severity as Severity, rules: Array.isArray(rules) ? rules.filter((r): r is string => typeof r === "string") : [] };
}
