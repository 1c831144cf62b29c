import { classify, type JsonObject } from "../protocol/json-rpc.js";
import type { AosRequest, AosResponse } from "./aos.js";
import { isAosResult } from "./aos.js";
import { readAlert, type AlertInfo } from "./alert.js";

/** What the proxy does with one message, read from a guardian's AOS answer. */
export interface Verdict {
  action: "forward" | "block" | "rewrite";
  /** The decision as logged (in audit mode: what would have happened). */
  decision: "allow" | "deny" | "modify";
  mode: "enforce" | "audit";
  rules: string[];
  rule?: string;
  reasonCode: string[];
  message: string;
  ruleset?: string;
  /** The message to send instead (action "rewrite"). */
  modified?: JsonObject;
  /** The alerting rules that fired and their highest severity (`data.alert`), to be raised by the proxy. */
  alert?: AlertInfo;
  /** The guardian could not judge: error, timeout, malformed or invariant-breaking answer. */
  unavailable?: boolean;
}

/**
 * Reads a guardian's answer strictly. Anything malformed, and any `modify` that changes the wrapped message's id,
 * kind or method, is a failed evaluation: the caller turns it into GUARDIAN_UNAVAILABLE (fail closed).
 */
export function readVerdict(req: AosRequest, res: AosResponse, original: JsonObject): Verdict {
  if (!res || typeof res !== "object" || res.id !== req.id) return unavailable("guardian answered a different request");
  if ("error" in res) return unavailable(`guardian error ${res.error?.code}: ${res.error?.message}`);
  if (!isAosResult(res.result)) return unavailable("malformed guardian decision");
  const r = res.result;
  const data = r.data ?? {};
  const rules = Array.isArray(data.rules) ? data.rules.filter((x): x is string => typeof x === "string") : [];
  const rule = typeof data.rule === "string" ? data.rule : undefined;
  const ruleset = typeof data.ruleset === "string" ? data.ruleset : undefined;
  const alert = data.alert === undefined ? undefined : readAlert(data.alert);
  // Literals rather than object spread: this runs once per message, and spread is a slow path in V8 here.
  const make = (action: Verdict["action"], decision: Verdict["decision"], mode: Verdict["mode"], reasonCode: string[], ids: string[], modified?: JsonObject): Verdict => ({
    action, decision, mode, rules: ids, rule, reasonCode, message: r.message, ruleset, modified, alert,
  });
  const reasonCode = r.reasonCode ?? [];
  if (data.mode === "audit") {
    if (r.decision !== "allow") return unavailable("audit-mode decision must be allow");
    const wouldBe = data.wouldBe === "deny" || data.wouldBe === "modify" || data.wouldBe === "allow" ? data.wouldBe : r.decision;
    const auditInfo = data.audit as { rules?: unknown; reasonCode?: unknown } | undefined;
    const auditRules = Array.isArray(auditInfo?.rules) ? (auditInfo.rules as string[]) : [];
    const auditCodes = Array.isArray(auditInfo?.reasonCode) ? (auditInfo.reasonCode as string[]) : reasonCode;
    return make("forward", wouldBe, "audit", auditCodes, rules.concat(auditRules));
  }
  if (r.decision === "allow") return make("forward", "allow", "enforce", reasonCode, rules);
  if (r.decision === "deny") return make("block", "deny", "enforce", reasonCode, rules);
  const mr = r.modifiedRequest;
  if (!mr || mr.id !== req.id || mr.method !== req.method) return unavailable("modify without a matching modifiedRequest");
  const modified = (mr.params.jsonrpc === "2.0" ? mr.params : mr.params.message) as JsonObject;
  const problem = invariantBroken(original, modified);
  if (problem) return unavailable(`modify rejected: ${problem}`);
  return make("rewrite", "modify", "enforce", reasonCode, rules, modified);
}

/** A modification may change content, never the message's id, kind or method. */
export function invariantBroken(original: JsonObject, modified: JsonObject): string | null {
  const a = classify(original);
  const b = classify(modified);
  if (!b.ok) return `the modified message is not valid JSON-RPC (${b.reason})`;
  if (!a.ok) return "the original message is not valid JSON-RPC";
  if (a.kind !== b.kind) return `kind changed from ${a.kind} to ${b.kind}`;
  if (a.id !== b.id) return "id changed";
  if (a.method !== b.method) return "method changed";
  return null;
}

export function unavailable(message: string): Verdict {
  return {
    action: "block",
    decision: "deny",
    mode: "enforce",
    rules: [],
    reasonCode: ["GUARDIAN_UNAVAILABLE"],
    message,
    unavailable: true,
  };
}
