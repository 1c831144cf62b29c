import type { HeldApproval } from "../approvals/broker.js";
import type { Remembered } from "../approvals/remembered.js";
import { GuardwireError } from "../errors.js";
import { adminClient, userName, type AdminClientOptions } from "./admin-client.js";

export interface ApprovalsOptions extends AdminClientOptions {
  remember?: string;
  reason?: string;
  json?: boolean;
  /** forget: every remembered approval. */
  all?: boolean;
}

const ACTIONS = ["list", "approve", "deny", "remembered", "forget"];

/**
 * `guardwire approvals [list]`, `approvals approve ID`, `approvals deny ID`, `approvals remembered`,
 * `approvals forget ID|--all`: through the admin API of a running guardwire (--admin/--token,
 * GUARDWIRE_ADMIN_URL/GUARDWIRE_ADMIN_TOKEN, or the admin file it wrote), over TCP or its Unix socket.
 */
export async function runApprovals(args: string[], o: ApprovalsOptions, out: NodeJS.WritableStream): Promise<number> {
  const [action = "list", id] = args;
  if (!ACTIONS.includes(action)) throw new GuardwireError("USAGE", `unknown approvals action "${action}" (list, approve ID, deny ID, remembered, forget ID|--all)`);
  if ((action === "approve" || action === "deny") && !id) throw new GuardwireError("USAGE", `approvals ${action} needs the approval id (see guardwire approvals)`);
  if (action === "forget" && !id === !o.all) throw new GuardwireError("USAGE", "approvals forget needs the id of a remembered approval, or --all (see guardwire approvals remembered)");
  if (action === "deny" && o.remember) throw new GuardwireError("USAGE", "--remember only applies to approve");
  const call = adminClient(o);

  const print = <T>(list: T[], none: string, line: (x: T) => string) => {
    if (o.json) out.write(JSON.stringify(list, null, 2) + "\n");
    else if (list.length === 0) out.write(none + "\n");
    else for (const x of list) out.write(line(x) + "\n");
    return 0;
  };
  if (action === "list") {
    const listed = await call<{ approvals: HeldApproval[]; incomplete?: string }>("GET", "/api/approvals");
    if (listed.incomplete && !o.json) out.write(`only this replica's approvals: ${listed.incomplete}\n`);
    return print(listed.approvals, "no approvals waiting", describe);
  }
  if (action === "remembered") {
    return print((await call<{ remembered: Remembered[] }>("GET", "/api/approvals/remembered")).remembered, "no remembered approvals", describeRemembered);
  }
  if (action === "forget") {
    const r = await call<{ forgotten: number }>("DELETE", id ? `/api/approvals/remembered/${encodeURIComponent(id)}` : "/api/approvals/remembered");
    out.write(`forgot ${r.forgotten} remembered approval(s)\n`);
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
  return `${a.id}  ${what}  route ${a.route}${a.agent ? `  agent ${a.agent}` : ""}${a.replica ? `  on ${a.replica}` : ""}  rule ${a.rule}  ${left}s left  remember ≤ ${a.remember}\n    ${a.prompt}`;
}

function describeRemembered(r: Remembered): string {
  const what = r.tool ? `${r.method} ${r.tool}` : (r.method ?? "");
  const until = r.expiresAt ? `until ${r.expiresAt}` : `for session ${r.session}`;
  return `${r.id}  ${r.scope}  ${what}  route ${r.route}${r.agent ? `  agent ${r.agent}` : ""}  rule ${r.rule}  args ${r.argsDigest.slice(0, 12)}…  ${until}`;
}
