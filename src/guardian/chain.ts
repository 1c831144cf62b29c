import { ErrorCode, type JsonObject } from "../protocol/json-rpc.js";
import type { AosRequest, AosResponse, AosResult } from "./aos.js";
import type { Guardian } from "./guardian.js";
import { mergeAlerts, type AlertInfo } from "./alert.js";
import { judgeOf, type Judge, type JudgeContext } from "./judge.js";
import { readContext } from "./context.js";
import { invariantBroken, unavailable, type ApprovalAsk, type Verdict } from "./verdict.js";

/**
 * Several guardians in order. The most restrictive decision wins: the first deny ends the chain; an ask (approval
 * required) beats modify and allow, and is what the chain answers unless a later guardian denies; modifications
 * compose (each guardian judges the message as the previous one left it); a guardian that fails fails the chain.
 * The chain combines verdicts (`judge`); over AOS (`call`) it answers what that combined verdict says.
 */
export class ChainGuardian implements Guardian {
  /** The members are asked one after the other: a message may wait for each one's timeout in turn. */
  readonly timeoutMs: number | undefined;
  private readonly judges: Judge[];

  constructor(private readonly guardians: Guardian[]) {
    const timed = guardians.filter((g) => g.timeoutMs !== undefined);
    this.timeoutMs = timed.length > 0 ? timed.reduce((sum, g) => sum + (g.timeoutMs ?? 0), 0) : undefined;
    // Each member's deadline is its own (a remote one's configured timeout).
    this.judges = guardians.map((g) => judgeOf(g));
  }

  /** Each member that keeps per-session state is told. */
  endSession(session: string): void {
    for (const g of this.guardians) g.endSession?.(session);
  }

  async judge(original: JsonObject, ctx: JudgeContext): Promise<Verdict> {
    let message = original;
    const rules: string[] = [];
    const reasonCode: string[] = [];
    const messages: string[] = [];
    let modified = false;
    let alert: AlertInfo | undefined;
    let ask: { ask: ApprovalAsk; message: string; rule?: string } | undefined;
    for (const judge of this.judges) {
      const v = await judge(message, ctx);
      if (v.store) return v;
      if (v.unavailable) return unavailable(`a guardian in the chain failed: ${v.message}`);
      rules.push(...v.rules);
      reasonCode.push(...v.reasonCode);
      alert = mergeAlerts(alert, v.alert);
      if (v.action === "block") return { action: "block", decision: "deny", mode: "enforce", rules, rule: v.rule, reasonCode, message: v.message, alert };
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
    const problem = modified ? invariantBroken(original, message) : null;
    if (problem) return unavailable(`a guardian in the chain failed: modify rejected: ${problem}`);
    if (ask) {
      // Approval required: once approved, the message as the whole chain left it is forwarded.
      const { modified: _earlier, ...asked } = ask.ask;
      const codes = ["APPROVAL_REQUIRED", ...reasonCode.filter((c) => c !== "APPROVAL_REQUIRED")];
      return { action: "hold", decision: "ask", mode: "enforce", rules, rule: ask.rule, reasonCode: codes, message: ask.message, ask: modified ? { ...asked, modified: message } : asked };
    }
    if (modified) return { action: "rewrite", decision: "modify", mode: "enforce", rules, reasonCode, message: messages.join("; "), modified: message, alert };
    return { action: "forward", decision: "allow", mode: "enforce", rules, reasonCode, message: "allowed by every guardian in the chain", alert };
  }

  async call(request: AosRequest): Promise<AosResponse> {
    const params = (request.params ?? {}) as JsonObject;
    const flat = params.jsonrpc === "2.0";
    const message = (flat ? params : params.message) as JsonObject;
    const ctx = readContext(flat ? undefined : params.context, message);
    const v = await this.judge(message, { ...ctx, protocol: request.method === "protocols/A2A" ? "a2a" : "mcp" });
    const id = request.id;
    if (v.store) return { jsonrpc: "2.0", id, error: { code: ErrorCode.GuardianUnavailable, message: v.message, data: v.store } };
    if (v.unavailable) return { jsonrpc: "2.0", id, error: { code: -32603, message: v.message } };
    const data: JsonObject = { rules: v.rules, mode: "enforce" };
    if (v.action === "block" || v.action === "hold") data.rule = v.rule ?? null;
    if (v.action === "hold") data.approval = v.ask as unknown as JsonObject;
    else if (v.alert) data.alert = v.alert as unknown as JsonObject;
    const decision = v.action === "rewrite" ? "modify" : v.action === "forward" ? "allow" : "deny";
    const result: AosResult = { decision, message: v.message, reasonCode: v.reasonCode, data };
    if (v.action === "rewrite" && v.modified) {
      result.modifiedRequest = { jsonrpc: "2.0", id, method: request.method, params: (flat ? v.modified : { ...params, message: v.modified }) as { message: JsonObject } };
    }
    return { jsonrpc: "2.0", id, result };
  }
}
