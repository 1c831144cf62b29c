import type { JsonObject } from "../protocol/json-rpc.js";
import type { AosRequest, AosResponse, AosResult } from "./aos.js";
import type { Guardian } from "./guardian.js";
import { mergeAlerts, type AlertInfo } from "./alert.js";
import { readVerdict, type ApprovalAsk } from "./verdict.js";

/**
 * Several guardians in order. The most restrictive decision wins: the first deny ends the chain; an ask (approval
 * required) beats modify and allow, and is what the chain answers unless a later guardian denies; modifications
 * compose (each guardian judges the message as the previous one left it); a guardian that fails fails the chain.
 */
export class ChainGuardian implements Guardian {
  /** The members are asked one after the other: a message may wait for each one's timeout in turn. */
  readonly timeoutMs: number | undefined;

  constructor(private readonly guardians: Guardian[]) {
    const timed = guardians.filter((g) => g.timeoutMs !== undefined);
    this.timeoutMs = timed.length > 0 ? timed.reduce((sum, g) => sum + (g.timeoutMs ?? 0), 0) : undefined;
  }

  async call(request: AosRequest): Promise<AosResponse> {
    const params = (request.params ?? {}) as JsonObject;
    const flat = params.jsonrpc === "2.0";
    const original = (flat ? params : params.message) as JsonObject;
    let message = original;
    const rules: string[] = [];
    const reasonCode: string[] = [];
    const messages: string[] = [];
    let modified = false;
    let alert: AlertInfo | undefined;
    const dataOf = (more: JsonObject): JsonObject => (alert ? { ...more, alert: alert as unknown as JsonObject } : more);
    let ask: { ask: ApprovalAsk; message: string; rule?: string } | undefined;
    for (const g of this.guardians) {
      const req: AosRequest = { ...request, params: flat ? message : { ...params, message } };
      let res: AosResponse;
      try {
        res = await g.call(req);
      } catch (e) {
        return { jsonrpc: "2.0", id: request.id, error: { code: -32603, message: `a guardian in the chain failed: ${(e as Error).message}` } };
      }
      const v = readVerdict(req, res, message);
      if (v.store && "error" in res) return { jsonrpc: "2.0", id: request.id, error: res.error };
      if (v.unavailable) return { jsonrpc: "2.0", id: request.id, error: { code: -32603, message: `a guardian in the chain failed: ${v.message}` } };
      rules.push(...v.rules);
      reasonCode.push(...v.reasonCode);
      alert = mergeAlerts(alert, v.alert);
      if (v.action === "block") {
        return { jsonrpc: "2.0", id: request.id, result: { decision: "deny", message: v.message, reasonCode, data: dataOf({ rules, rule: v.rule ?? null, mode: "enforce" }) } };
      }
      if (v.action === "hold" && v.ask) {
        ask ??= { ask: v.ask, message: v.message, rule: v.rule };
        if (v.ask.modified) {
          message = v.ask.modified;
          modified = true;
        }
      }
      if (v.action === "rewrite" && v.modified) {
        message = v.modified;
        modified = true;
        messages.push(v.message);
      }
    }
    if (ask) {
      // Approval required: once approved, the message as the whole chain left it is forwarded.
      const approval: JsonObject = { ...ask.ask, modified: modified ? message : undefined };
      const data: JsonObject = { rules, rule: ask.rule ?? null, mode: "enforce", approval };
      return { jsonrpc: "2.0", id: request.id, result: { decision: "deny", message: ask.message, reasonCode: ["APPROVAL_REQUIRED", ...reasonCode.filter((c) => c !== "APPROVAL_REQUIRED")], data } };
    }
    const result: AosResult = modified
      ? {
          decision: "modify",
          message: messages.join("; "),
          reasonCode,
          data: dataOf({ rules, mode: "enforce" }),
          modifiedRequest: { jsonrpc: "2.0", id: request.id, method: request.method, params: (flat ? message : { ...params, message }) as { message: JsonObject } },
        }
      : { decision: "allow", message: "allowed by every guardian in the chain", reasonCode, data: dataOf({ rules, mode: "enforce" }) };
    return { jsonrpc: "2.0", id: request.id, result };
  }
}
