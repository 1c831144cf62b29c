import type { ApprovalBroker } from "../approvals/broker.js";
import { isScope } from "../approvals/broker.js";
import { fail, type AdminRoute } from "./server.js";

/** Held approvals: list, read, approve, deny (docs/approvals.md). */
export function approvalRoutes(broker: ApprovalBroker): AdminRoute[] {
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
    { method: "GET", pattern: /^\/api\/approvals$/, doc: "GET /api/approvals", run: () => [200, { approvals: broker.list() }] },
    {
      method: "GET",
      pattern: /^\/api\/approvals\/([\w-]+)$/,
      doc: "GET /api/approvals/:id",
      run: (m) => {
        const a = broker.get(m[1] as string);
        return a ? [200, { approval: a }] : fail(404, "NOT_FOUND", `no held approval ${m[1]}`);
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
        const d = broker.decide(m[1] as string, { approve, channel, by, reason, remember: approve && isScope(b.remember) ? b.remember : undefined });
        if (!d.ok) return fail(d.code === "NOT_FOUND" ? 404 : 400, d.code, d.message);
        return [200, { approval: d.approval, decision: approve ? "approved" : "refused" }];
      },
    },
  ];
}
