import type { ApprovalStep, DecisionRecord } from "./record.js";

const C = { reset: "\x1b[0m", dim: "\x1b[2m", red: "\x1b[31m", green: "\x1b[32m", yellow: "\x1b[33m", magenta: "\x1b[35m", bold: "\x1b[1m" };

/** One readable line per decision, as `guardwire tail` prints it. */
export function formatDecision(r: DecisionRecord, opts: { color: boolean }): string {
  const paint = (code: string, s: string) => (opts.color ? code + s + C.reset : s);
  const time = typeof r.time === "string" ? r.time.slice(11, 23) : "";
  const label = (r.kind === "log" ? "LOG" : r.mode === "audit" ? `AUDIT:${r.decision}` : r.decision.toUpperCase()).padEnd(12);
  const colour = r.mode === "audit" || r.decision === "ask" ? C.magenta : r.decision === "deny" ? C.red : r.decision === "modify" ? C.yellow : C.green;
  // A refusal before the guardian names no JSON-RPC message: the line says who was refused, its message what and why.
  const refused = r.kind === "refused";
  const what = refused ? `from ${r.peer ?? "?"}` : [r.method ?? "(no method)", r.tool ?? "", r.id !== null && r.id !== undefined ? `#${r.id}` : ""].filter(Boolean).join(" ");
  const parts = [
    paint(C.dim, time),
    paint(C.bold + colour, label),
    `${r.direction.padEnd(8)} ${r.kind.padEnd(12)}`,
    what,
  ];
  if (r.rules?.length) parts.push(`[${r.rules.join(", ")}]`);
  if (r.reasonCode?.length) parts.push(r.reasonCode.join(","));
  if ((r.decision !== "allow" || r.kind === "log" || r.kind === "control") && r.message) parts.push(paint(colour, r.message));
  // A2A: who called whom about which task, so a chain of delegations can be followed across lines.
  const a2a = r.protocol === "a2a" && !refused ? [`${r.agent ?? "?"}→${r.peer ?? r.route}`, r.task ? `task ${r.task}` : "", r.context ? `ctx ${r.context}` : ""].filter(Boolean).join(" ") : "";
  if (a2a) parts.push(a2a);
  if (r.approval) parts.push(paint(C.bold, approvalText(r.approval)));
  // Logs of several replicas merged by time: which one wrote the line.
  parts.push(paint(C.dim, `(${r.evalUs}µs) ${r.session} ${r.route}${r.replica ? ` @${r.replica}` : ""}${r.failOpen ? " FAIL-OPEN" : ""}`));
  return parts.join("  ");
}

function approvalText(a: ApprovalStep): string {
  if (a.step === "requested") return `approval ${a.id} requested via ${a.channels?.join(",") ?? "?"} until ${a.expires?.slice(11, 19) ?? "?"}`;
  if (a.step === "decided") {
    const by = [a.by, a.channel].filter(Boolean).join(" via ");
    return `approval ${a.id} ${a.outcome}${by ? ` by ${by}` : ""} after ${((a.afterMs ?? 0) / 1000).toFixed(1)}s${a.remember && a.remember !== "once" ? ` (remember ${a.remember})` : ""}`;
  }
  return `approval ${a.id} ${a.step}`;
}

