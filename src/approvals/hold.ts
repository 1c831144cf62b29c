import { randomBytes } from "node:crypto";
import type { ApprovalBroker, ApprovalOutcome, HeldApproval, RememberScope } from "./broker.js";
import { isScope, SCOPES } from "./broker.js";
import type { ApprovalStep, DecisionInput } from "../decision-log/record.js";
import { redactedPreview } from "../decision-log/preview.js";
import type { ApprovalAsk, Verdict } from "../guardian/verdict.js";
import { idKey, type JsonObject } from "../protocol/json-rpc.js";
import type { Peer } from "../transports/types.js";
import { progressHeartbeats } from "../proxy/heartbeats.js";
import type { HoldRequest, SessionHandle, StageFactory } from "../proxy/pipeline.js";

export interface HoldHost {
  broker: ApprovalBroker;
  downstream: Peer;
  /** The session's fields of a log line (session, route, transport, protocol, agent). */
  base(): Pick<DecisionInput, "session" | "route" | "transport" | "protocol" | "agent">;
  record(make: () => DecisionInput): void;
  heartbeatMs?: number;
  /** A caller's session shared by its calls (A2A, stateless): its `session` approvals outlive this one, for a while. */
  shared?: boolean;
}

interface Elicit {
  approval: string;
  id: string;
  allowed: RememberScope[];
}

/**
 * The approvals side of one session: asks the broker, asks the agent's own client through MCP elicitation when it
 * can, sends progress heartbeats, and turns the outcome into the verdict the session then applies. Requests sent to
 * the client carry guardwire's own ids; their answers are taken here and never reach the server.
 */
export class SessionHolds {
  private canElicit = false;
  private readonly elicits = new Map<string, Elicit>();
  /** Held agent requests (id key) → approval id. */
  private readonly byKey = new Map<string, string>();

  constructor(private readonly host: HoldHost) {}

  /**
   * The session is ending: what it holds is answered with a deny, and its remembered approvals are forgotten (not a
   * caller's shared session's: its next call is another session of the same id, and they expire instead).
   */
  close(): void {
    for (const approval of this.byKey.values()) this.host.broker.stop(approval);
    if (!this.host.shared) this.host.broker.endSession(this.host.base().session);
  }

  isHeld(key: string): boolean {
    return this.byKey.has(key);
  }

  /**
   * Sees every agent message before the guardian does: notes the client's elicitation capability, takes the answers
   * to guardwire's own requests, and withdraws a held request the agent cancelled. True: the message is consumed.
   */
  intercept(value: unknown): boolean {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
    const m = value as JsonObject;
    if (m.method === "initialize") {
      const caps = (m.params as { capabilities?: { elicitation?: unknown } } | undefined)?.capabilities?.elicitation;
      this.canElicit = caps !== null && typeof caps === "object" && (!("url" in caps) || "form" in caps);
      return false;
    }
    if (m.method === "notifications/cancelled") {
      const rid = (m.params as { requestId?: unknown } | undefined)?.requestId;
      const approval = typeof rid === "string" || typeof rid === "number" ? this.byKey.get(idKey(rid)) : undefined;
      if (approval) this.host.broker.cancel(approval, "the agent cancelled its request");
      return approval !== undefined;
    }
    if (m.method !== undefined || typeof m.id !== "string") return false;
    const e = this.elicits.get(m.id);
    if (!e) return false;
    this.elicits.delete(m.id);
    this.answer(e, m);
    return true;
  }

  /** Resolves with the verdict to apply, or null when nothing is owed (the agent cancelled). */
  async hold(req: HoldRequest): Promise<Verdict | null> {
    const { broker } = this.host;
    const ask = req.verdict.ask;
    const covered = broker.coveredBy(req.ctx, ask);
    if (covered) {
      return approvedVerdict(req.verdict, { id: covered, step: "remembered", argsDigest: ask.argsDigest });
    }
    const channels = [...(this.canElicit ? ["elicitation"] : []), ...broker.channels];
    if (channels.length === 0) {
      return deny(req.verdict, "APPROVAL_UNAVAILABLE", "approval required, but nobody can be asked: the client has no elicitation and no admin API is on");
    }
    const asked = broker.request(req.ctx, ask, channels, () => argumentsPreview(req.message), this.host.shared === true);
    if ("limit" in asked) {
      const where = asked.limit === "session" ? "in this session" : "in guardwire";
      return deny(req.verdict, "APPROVAL_LIMIT", `approval required, but ${asked.max} approvals are already waiting ${where}; try again later`);
    }
    const { held } = asked;
    this.byKey.set(req.key, held.id);
    req.logHeld({ id: held.id, step: "requested", channels, argsDigest: ask.argsDigest, remember: ask.remember, expires: held.expiresAt });
    const stopBeats = progressHeartbeats(this.host.downstream, req.message, req.key, `waiting for approval ${held.id}`, this.host.heartbeatMs);
    const elicitId = this.canElicit ? this.elicit(held, req.key) : null;
    const outcome = await asked.outcome;
    stopBeats();
    this.byKey.delete(req.key);
    if (elicitId && this.elicits.delete(elicitId)) {
      // Decided elsewhere: the client's form is withdrawn.
      this.host.downstream.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: elicitId, reason: "decided elsewhere" } }), { stream: req.key });
    }
    return this.verdictOf(req, held, outcome);
  }

  private verdictOf(req: HoldRequest, held: HeldApproval, o: ApprovalOutcome): Verdict | null {
    const v = req.verdict;
    const step: ApprovalStep = { id: held.id, step: "decided", outcome: o.outcome, afterMs: o.afterMs };
    if ("channel" in o) step.channel = o.channel;
    if ("by" in o && o.by) step.by = o.by;
    if ("reason" in o && o.reason) step.reason = o.reason;
    if (o.outcome === "approved") return approvedVerdict(v, { ...step, remember: o.remember });
    if (o.outcome === "cancelled") {
      const id = req.message.id as string | number;
      this.host.record(() => ({ ...this.outcomeLine(held), id, decision: "deny", reasonCode: ["APPROVAL_CANCELLED"], message: o.reason, approval: step }));
      return null;
    }
    if (o.outcome === "timeout" && held.onTimeout === "allow") return { ...approvedVerdict(v, step), reasonCode: ["APPROVAL_TIMEOUT"], message: "no answer in time; onTimeout: allow" };
    if (o.outcome === "timeout") return deny(v, "APPROVAL_TIMEOUT", `approval required, but nobody answered within ${Math.round(v.ask.timeoutMs / 1000)}s`, step);
    if (o.outcome === "shutdown") return deny(v, "APPROVAL_SHUTDOWN", "approval required, but the session is closing", step);
    const by = o.by ? ` ${o.by}` : "";
    return deny(v, "APPROVAL_DENIED", `refused by the approver${by} (${o.channel})${o.reason ? `: ${o.reason}` : ""}`, step);
  }

  /** Sends the client a form: approve or deny, an optional reason, and the remember scopes the rule allows. */
  private elicit(held: HeldApproval, key: string): string {
    const id = `guardwire-approval-${held.id}-${randomBytes(8).toString("hex")}`;
    const allowed = SCOPES.slice(0, SCOPES.indexOf(held.remember) + 1);
    const properties: JsonObject = {
      decision: { type: "string", title: "Decision", enum: ["approve", "deny"], enumNames: ["Approve", "Deny"] },
      reason: { type: "string", title: "Reason (optional)", maxLength: 500 },
    };
    if (allowed.length > 1) properties.remember = { type: "string", title: "Remember this approval for", enum: allowed, default: "once" };
    const request = {
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params: { message: `guardwire: ${held.prompt}`, requestedSchema: { type: "object", properties, required: ["decision"] } },
    };
    this.elicits.set(id, { approval: held.id, id, allowed });
    this.host.downstream.send(JSON.stringify(request), { stream: key });
    this.host.record(() => ({ ...this.outcomeLine(held), direction: "inbound", kind: "request", id, method: "elicitation/create", tool: null, decision: "allow", reasonCode: [], message: "approval asked in the agent's client", approval: { id: held.id, step: "elicitation" } }));
    return id;
  }

  private answer(e: Elicit, m: JsonObject): void {
    const held = this.host.broker.get(e.approval);
    const result = m.result as { action?: unknown; content?: { decision?: unknown; reason?: unknown; remember?: unknown } } | undefined;
    const action = typeof result?.action === "string" ? result.action : "error";
    const reason = typeof result?.content?.reason === "string" && result.content.reason.length > 0 ? result.content.reason.slice(0, 500) : undefined;
    if (held) {
      this.host.record(() => ({ ...this.outcomeLine(held), kind: "response", id: e.id, method: "elicitation/create", tool: null, decision: "allow", reasonCode: [], message: `the client answered ${action}`, approval: { id: held.id, step: "elicitation" } }));
    }
    // An error means the client cannot ask: the operator channels still can, until the timeout.
    if (action === "error") return;
    const remember = result?.content?.remember;
    const approve = action === "accept" && result?.content?.decision === "approve";
    const scope = isScope(remember) && e.allowed.includes(remember) ? remember : "once";
    const why = action === "accept" ? reason : (reason ?? `${action === "cancel" ? "cancelled" : "declined"} in the client`);
    this.host.broker.decide(e.approval, { approve, channel: "elicitation", reason: why, remember: approve ? scope : undefined });
  }

  private outcomeLine(held: HeldApproval): DecisionInput {
    return {
      ...this.host.base(),
      direction: "outbound",
      kind: "request",
      id: null,
      method: held.method,
      tool: held.tool,
      decision: "deny",
      mode: "enforce",
      rules: [held.rule],
      reasonCode: [],
      message: "",
      evalUs: 0,
      digest: null,
      ruleset: held.ruleset,
    };
  }
}

function approvedVerdict(v: Verdict & { ask: ApprovalAsk }, approval: ApprovalStep): Verdict {
  const modified = v.ask.modified;
  return { ...v, action: modified ? "rewrite" : "forward", decision: modified ? "modify" : "allow", modified, reasonCode: ["APPROVED"], message: "approved", approval };
}

function deny(v: Verdict, code: string, message: string, approval?: ApprovalStep): Verdict {
  return { ...v, action: "block", decision: "deny", reasonCode: [code], message, approval };
}

/** A tool call's arguments (else the params), redacted and cut like the log's preview: for the approval webhook. */
function argumentsPreview(message: JsonObject): string {
  const params = message.params as { arguments?: unknown } | undefined;
  return redactedPreview({ params: params?.arguments ?? params ?? null }, 2000);
}

/**
 * Approvals as a pipeline stage (docs/approvals.md): a verdict `hold` is asked of a person, through the agent's own
 * client (MCP elicitation) when it can, and the broker's channels (console, `guardwire approvals`, webhooks).
 */
export function approvalStage(broker: ApprovalBroker): StageFactory {
  return (s: SessionHandle) => {
    const base = () => ({ session: s.id, route: s.route, transport: s.transport, protocol: s.protocol, agent: s.agent?.id ?? null });
    const holds = new SessionHolds({ broker, downstream: s.downstream, base, record: s.record, shared: s.shared });
    return {
      name: "approvals",
      claim: (value) => holds.intercept(value),
      hold: (req) => holds.hold(req),
      holding: (key) => holds.isHeld(key),
      close: () => holds.close(),
    };
  };
}
