import type { ApprovalBroker, ApprovalDesk, ApprovalOutcome, DeskResult, HeldApproval } from "../approvals/broker.js";
import { isScope } from "../approvals/broker.js";
import type { EventSource } from "./events.js";
import { fail, type AdminAnswer, type AdminRoute } from "./server.js";

/** A held approval as the admin API shows it: with the call's arguments, redacted, when this process holds it. */
export type ShownApproval = HeldApproval & { arguments?: string };

/**
 * The redacted arguments of the approvals this process holds (the preview the approval webhook sends: secret-looking
 * keys and credential-shaped values masked, at most 2000 characters), so the person approving sees what they approve.
 * Kept while the approval is held; bounded as the broker bounds held approvals.
 */
export class HeldArguments {
  private readonly text = new Map<string, string>();

  constructor(broker: ApprovalBroker) {
    broker.on("requested", (a, args) => {
      if (args) this.text.set(a.id, args());
    });
    broker.on("decided", (a) => this.text.delete(a.id));
  }

  show(a: HeldApproval): ShownApproval {
    const args = this.text.get(a.id);
    return args === undefined ? a : { ...a, arguments: args };
  }
}

/** `approval.requested` (with the arguments) and `approval.decided` on `GET /api/events`. */
export function approvalEvents(broker: ApprovalBroker, args: HeldArguments): EventSource {
  return (emit) => {
    const requested = (approval: HeldApproval) => emit("approval.requested", { approval: args.show(approval) });
    const decided = (approval: HeldApproval, outcome: ApprovalOutcome) => emit("approval.decided", { approval, outcome });
    broker.on("requested", requested);
    broker.on("decided", decided);
    return () => {
      broker.off("requested", requested);
      broker.off("decided", decided);
    };
  };
}

/**
 * Held approvals: list, read, approve, deny (docs/approvals.md). `desk` lists and decides them: the broker, or with a
 * shared store those of every replica (docs/scale.md); remembered approvals are the broker's.
 */
export function approvalRoutes(broker: ApprovalBroker, desk: ApprovalDesk = broker, args?: HeldArguments): AdminRoute[] {
  const show = (a: HeldApproval): ShownApproval => args?.show(a) ?? a;
  broker.channels.add("admin");
  return [
    // Before /api/approvals/:id, which would take "remembered" for an id.
    { method: "GET", pattern: /^\/api\/approvals\/remembered$/, doc: "GET /api/approvals/remembered", run: () => [200, { remembered: broker.listRemembered() }] },
    { method: "DELETE", pattern: /^\/api\/approvals\/remembered$/, doc: "DELETE /api/approvals/remembered", run: () => [200, { forgotten: broker.forget("all") }] },
    {
      method: "DELETE",
      pattern: /^\/api\/approvals\/remembered\/([\w-]+)$/,
      doc: "DELETE /api/approvals/remembered/:id",
      run: (m) => {
        const n = broker.forget(m[1] as string);
        return n > 0 ? [200, { forgotten: n }] : fail(404, "NOT_FOUND", `no remembered approval ${m[1]}`);
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/approvals$/,
      doc: "GET /api/approvals",
      run: async () => {
        const listed = await desk.list();
        return [200, Array.isArray(listed) ? { approvals: listed.map(show) } : { ...listed, approvals: listed.approvals.map(show) }];
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/approvals\/([\w-]+)$/,
      doc: "GET /api/approvals/:id",
      run: async (m) => {
        const a = await desk.get(m[1] as string);
        return a ? [200, { approval: show(a) }] : fail(404, "NOT_FOUND", `no held approval ${m[1]}`);
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/approvals\/([\w-]+)\/(approve|deny)$/,
      doc: "POST /api/approvals/:id/approve|deny",
      run: async (m, r) => {
        const b = await r.body();
        const reason = b.reason;
        const by = b.by;
        if (reason !== undefined && (typeof reason !== "string" || reason.length > 500)) return fail(400, "BAD_REQUEST", "reason must be a string of at most 500 characters");
        if (by !== undefined && (typeof by !== "string" || by.length > 100)) return fail(400, "BAD_REQUEST", "by must be a string of at most 100 characters");
        if (b.remember !== undefined && !isScope(b.remember)) return fail(400, "BAD_REQUEST", "remember must be once, session or always");
        const channel = b.channel === "cli" ? "cli" : "api";
        const approve = m[2] === "approve";
        const d = await desk.decide(m[1] as string, { approve, channel, by, reason, remember: approve && isScope(b.remember) ? b.remember : undefined });
        if (!d.ok) return refusal(d);
        return [200, { approval: d.approval, decision: approve ? "approved" : "refused" }];
      },
    },
  ];
}

const STATUS = { NOT_FOUND: 404, BAD_SCOPE: 400, CONFLICT: 409, UNAVAILABLE: 503 } as const;

/** Why a decision was not taken, as the admin API's error (409: decided already, on any replica). */
function refusal(d: Extract<DeskResult, { ok: false }>): AdminAnswer {
  return fail(STATUS[d.code], d.code, d.message);
}
