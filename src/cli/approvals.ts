import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import type { HeldApproval } from "../approvals/broker.js";
import { GuardwireError } from "../errors.js";
import { adminFile } from "./admin.js";

export interface ApprovalsOptions {
  admin?: string;
  token?: string;
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
  const { url, token } = locate(o);
  const call = async (method: string, path: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(new URL(path, url), {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot reach the admin API at ${url}: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message} (is guardwire running with --admin?)`);
    }
    const data = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } } & Record<string, unknown>;
    if (!res.ok) throw new GuardwireError("USAGE", `${data.error?.message ?? `HTTP ${res.status}`}${data.error?.code ? ` (${data.error.code})` : ""}`);
    return data;
  };

  if (action === "list") {
    const { approvals } = (await call("GET", "/api/approvals")) as { approvals: HeldApproval[] };
    if (o.json) out.write(JSON.stringify(approvals, null, 2) + "\n");
    else if (approvals.length === 0) out.write("no approvals waiting\n");
    else for (const a of approvals) out.write(describe(a) + "\n");
    return 0;
  }
  const body = { reason: o.reason, remember: o.remember, by: userName(), channel: "cli" };
  const r = (await call("POST", `/api/approvals/${encodeURIComponent(id as string)}/${action}`, body)) as { approval: HeldApproval };
  out.write(`${action === "approve" ? "approved" : "refused"} ${id} (${r.approval.tool ?? r.approval.method} on ${r.approval.route})\n`);
  return 0;
}

function describe(a: HeldApproval): string {
  const left = Math.max(0, Math.round((Date.parse(a.expiresAt) - Date.now()) / 1000));
  const what = a.tool ? `${a.method} ${a.tool}` : (a.method ?? "");
  return `${a.id}  ${what}  route ${a.route}${a.agent ? `  agent ${a.agent}` : ""}  rule ${a.rule}  ${left}s left  remember ≤ ${a.remember}\n    ${a.prompt}`;
}

export function locate(o: { admin?: string; token?: string }): { url: string; token: string } {
  let url = o.admin ?? process.env.GUARDWIRE_ADMIN_URL;
  let token = o.token ?? process.env.GUARDWIRE_ADMIN_TOKEN;
  if (!url || !token) {
    const file = adminFile();
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { url?: string; token?: string };
      url ??= saved.url;
      token ??= saved.token;
    } catch {
      // reported below
    }
    if (!url || !token) throw new GuardwireError("USAGE", `no admin API found: give --admin URL and --token, or run guardwire with --admin (it writes ${file})`);
  }
  return { url: /^https?:\/\//.test(url) ? url : `http://${url}`, token };
}

function userName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
