import type { ApprovalStep } from "../decision-log/record.js";
import { classify, ErrorCode, type JsonObject } from "../protocol/json-rpc.js";
import type { AosRequest, AosResponse } from "./aos.js";
import { isAosResult } from "./aos.js";
import { readAlert, type AlertInfo } from "./alert.js";
import { ASK_MAX_TIMEOUT_MS } from "./ask.js";

/** What the proxy does with one message, read from a guardian's AOS answer. */
export interface Verdict {
  action: "forward" | "block" | "rewrite" | "hold";
  /** The decision as logged (in audit mode: what would have happened). */
  decision: "allow" | "deny" | "modify" | "ask";
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
  /** The guardian could not reach its shared state store: its error's `data` (naming the store), passed to the caller. */
  store?: Record<string, unknown>;
  /** action "hold": what a person is asked (an APPROVAL_REQUIRED answer's `data.approval`). */
  ask?: ApprovalAsk;
  /** How a hold ended, or the remembered approval that let it pass: logged with the decision. */
  approval?: ApprovalStep;
}

/** An APPROVAL_REQUIRED answer's `data.approval` (docs/guardian.md). */
export interface ApprovalAsk {
  rule: string;
  prompt: string;
  timeoutMs: number;
  onTimeout: "deny" | "allow";
  remember: "once" | "session" | "always";
  argsDigest: string;
  ruleset: string;
  /** What is forwarded once approved, when the rules also modify the message. */
  modified?: JsonObject;
}

/**
 * Reads a guardian's answer strictly. Anything malformed, and any `modify` that changes the wrapped message's id,
 * kind or method, is a failed evaluation: the caller turns it into GUARDIAN_UNAVAILABLE (fail closed).
 */
export function readVerdict(req: AosRequest, res: AosResponse, original: JsonObject): Verdict {
  if (!res || typeof res !== "object" || res.id !== req.id) return unavailable("guardian answered a different request");
  if ("error" in res) return storeUnavailable(res.error) ?? unavailable(`guardian error ${res.error?.code}: ${res.error?.message}`);
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
    const wouldBe = data.wouldBe === "deny" || data.wouldBe === "modify" || data.wouldBe === "allow" || data.wouldBe === "ask" ? data.wouldBe : r.decision;
    const auditInfo = data.audit as { rules?: unknown; reasonCode?: unknown } | undefined;
    const auditRules = Array.isArray(auditInfo?.rules) ? (auditInfo.rules as string[]) : [];
    const auditCodes = Array.isArray(auditInfo?.reasonCode) ? (auditInfo.reasonCode as string[]) : reasonCode;
    return make("forward", wouldBe, "audit", auditCodes, rules.concat(auditRules));
  }
  if (r.decision === "allow") return make("forward", "allow", "enforce", reasonCode, rules);
  if (r.decision === "deny" && reasonCode.includes("APPROVAL_REQUIRED")) {
    // A malformed approval request is an ordinary deny: the message is blocked, never forwarded unasked.
    const ask = readAsk(data.approval, original);
    if (ask) return { ...make("hold", "ask", "enforce", reasonCode, rules), ask };
  }
  if (r.decision === "deny") return make("block", "deny", "enforce", reasonCode, rules);
  const mr = r.modifiedRequest;
  if (!mr || mr.id !== req.id || mr.method !== req.method) return unavailable("modify without a matching modifiedRequest");
  const modified = (mr.params.jsonrpc === "2.0" ? mr.params : mr.params.message) as JsonObject;
  const problem = invariantBroken(original, modified);
  if (problem) return unavailable(`modify rejected: ${problem}`);
  return make("rewrite", "modify", "enforce", reasonCode, rules, modified);
}

function readAsk(raw: unknown, original: JsonObject): ApprovalAsk | null {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const a = raw as Record<string, unknown>;
  const ok =
    typeof a.rule === "string" &&
    typeof a.prompt === "string" &&
    typeof a.timeoutMs === "number" && a.timeoutMs > 0 && a.timeoutMs <= ASK_MAX_TIMEOUT_MS &&
    (a.onTimeout === "deny" || a.onTimeout === "allow") &&
    (a.remember === "once" || a.remember === "session" || a.remember === "always") &&
    typeof a.argsDigest === "string" && /^[0-9a-f]{64}$/.test(a.argsDigest) &&
    typeof a.ruleset === "string";
  if (!ok) return null;
  const ask: ApprovalAsk = {
    rule: a.rule as string, prompt: a.prompt as string, timeoutMs: a.timeoutMs as number, onTimeout: a.onTimeout as ApprovalAsk["onTimeout"],
    remember: a.remember as ApprovalAsk["remember"], argsDigest: a.argsDigest as string, ruleset: a.ruleset as string,
  };
  if (a.modified !== undefined) {
    if (a.modified === null || typeof a.modified !== "object" || invariantBroken(original, a.modified as JsonObject)) return null;
    ask.modified = a.modified as JsonObject;
  }
  return ask;
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

/**
 * A guardian's -32051 whose data names a store (Redis): the message is refused with that error as it is. Reason
 * STORE_RESET when the store lost its data and limits are held (`state: "reset"`), STORE_UNAVAILABLE otherwise.
 */
export function storeUnavailable(error: { code: number; message: string; data?: unknown } | undefined): Verdict | null {
  const data = error?.data;
  if (error?.code !== ErrorCode.GuardianUnavailable || data === null || typeof data !== "object" || typeof (data as { store?: unknown }).store !== "string") return null;
  const reason = (data as { state?: unknown }).state === "reset" ? "STORE_RESET" : "STORE_UNAVAILABLE";
  return { ...unavailable(error.message), reasonCode: [reason], store: data as Record<string, unknown> };
}
