import { userInfo } from "node:os";
import type { HeldApproval } from "../approvals/broker.js";
import { GuardwireError } from "../errors.js";
import { adminClient, type AdminClientOptions } from "./admin-client.js";

export interface ApprovalsOptions extends AdminClientOptions {
  remember?: string;
  reason?: string;
  json?: boolean;
}

/**
 * `guardwire approvals [list]`, `approvals approve ID`, `approvals deny ID`: through the admin API of a running
 * guardwire (--admin/--token, GUARDWIRE_ADMIN_URL/GUARDWIRE_ADMIN_TOKEN, or the admin file it wrote).
 */
export async function runApprovals(args: string[], o: ApprovalsOptions, out: NodeJS.WritableStream): Promise<number> {
  const [action = "list", id] = args;
  if (action !== "list" && action !== "approve" && action !== "deny") throw new GuardwireError("USAGE", `unknown approvals action "${action}" (list, approve ID, deny ID)`);
  if (action !== "list" && !id) throw new GuardwireError("USAGE", `approvals ${action} needs the approval id (see guardwire approvals)`);
  if (action === "deny" && o.remember) throw new GuardwireError("USAGE", "--remember only applies to approve");
  const call = adminClient(o);

  if (action === "list") {
    const { approvals } = await call<{ approvals: HeldApproval[] }>("GET", "/api/approvals");
    if (o.json) out.write(JSON.stringify(approvals, null, 2) + "\n");
    else if (approvals.length === 0) out.write("no approvals waiting\n");
    else for (const a of approvals) out.write(describe(a) + "\n");
    return 0;
  }
  const body = { reason: o.reason, remember: o.remember, by: userName(), channel: "cli" };
  const r = await call<{ approval: HeldApproval }>("POST", `/api/approvals/${encodeURIComponent(id as string)}/${action}`, body);
  out.write(`${action === "approve" ? "approved" : "refused"} ${id} (${r.approval.tool ?? r.approval.method} on ${r.approval.route})\n`);
  return 0;
}

function describe(a: HeldApproval): string {
  const left = Math.max(0, Math.round((Date.parse(a.expiresAt) - Date.now()) / 1000));
  const what = a.tool ? `${a.method} ${a.tool}` : (a.method ?? "");
  return `${a.id}  ${what}  route ${a.route}${a.agent ? `  agent ${a.agent}` : ""}  rule ${a.rule}  ${left}s left  remember ≤ ${a.remember}\n    ${a.prompt}`;
}

function userName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
