import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { Agent, request, type Dispatcher } from "undici";
import type { HeldApproval } from "../approvals/broker.js";
import type { Remembered } from "../approvals/remembered.js";
import { GuardwireError } from "../errors.js";
import { adminFile } from "./admin.js";

export interface ApprovalsOptions {
  admin?: string;
  token?: string;
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
  if (action === "list") return print(((await call("GET", "/api/approvals")) as { approvals: HeldApproval[] }).approvals, "no approvals waiting", describe);
  if (action === "remembered") {
    return print(((await call("GET", "/api/approvals/remembered")) as { remembered: Remembered[] }).remembered, "no remembered approvals", describeRemembered);
  }
  if (action === "forget") {
    const r = (await call("DELETE", id ? `/api/approvals/remembered/${encodeURIComponent(id)}` : "/api/approvals/remembered")) as { forgotten: number };
    out.write(`forgot ${r.forgotten} remembered approval(s)\n`);
    return 0;
  }
  const body = { reason: o.reason, remember: o.remember, by: userName(), channel: "cli" };
  const r = (await call("POST", `/api/approvals/${encodeURIComponent(id as string)}/${action}`, body)) as { approval: HeldApproval };
  out.write(`${action === "approve" ? "approved" : "refused"} ${id} (${r.approval.tool ?? r.approval.method} on ${r.approval.route})\n`);
  return 0;
}

type Call = (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Calls the admin API: `http(s)://…`, or `unix:/path` (its socket; the token is then optional). */
function adminClient(o: ApprovalsOptions): Call {
  const { url, token } = locate(o);
  const socketPath = url.startsWith("unix:") ? url.slice("unix:".length) : undefined;
  const dispatcher = socketPath ? new Agent({ connect: { socketPath } }) : undefined;
  const origin = socketPath ? "http://localhost" : url;
  return async (method, path, body) => {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(new URL(path, origin), {
        method,
        dispatcher,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot reach the admin API at ${url}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (is guardwire running with --admin?)`);
    }
    const data = (await res.body.json().catch(() => ({}))) as { error?: { code: string; message: string } } & Record<string, unknown>;
    if (res.statusCode >= 300) throw new GuardwireError("USAGE", `${data.error?.message ?? `HTTP ${res.statusCode}`}${data.error?.code ? ` (${data.error.code})` : ""}`);
    return data;
  };
}

function describe(a: HeldApproval): string {
  const left = Math.max(0, Math.round((Date.parse(a.expiresAt) - Date.now()) / 1000));
  const what = a.tool ? `${a.method} ${a.tool}` : (a.method ?? "");
  return `${a.id}  ${what}  route ${a.route}${a.agent ? `  agent ${a.agent}` : ""}  rule ${a.rule}  ${left}s left  remember ≤ ${a.remember}\n    ${a.prompt}`;
}

function describeRemembered(r: Remembered): string {
  const what = r.tool ? `${r.method} ${r.tool}` : (r.method ?? "");
  const until = r.expiresAt ? `until ${r.expiresAt}` : `for session ${r.session}`;
  return `${r.id}  ${r.scope}  ${what}  route ${r.route}${r.agent ? `  agent ${r.agent}` : ""}  rule ${r.rule}  args ${r.argsDigest.slice(0, 12)}…  ${until}`;
}

function locate(o: ApprovalsOptions): { url: string; token: string | undefined } {
  let url = o.admin ?? process.env.GUARDWIRE_ADMIN_URL;
  let token = o.token ?? process.env.GUARDWIRE_ADMIN_TOKEN;
  const file = adminFile();
  if (!url || !token) {
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { url?: string; token?: string | null };
      // The saved token belongs to the saved URL only.
      if (!url || url === saved.url) {
        url ??= saved.url;
        token ??= saved.token ?? undefined;
      }
    } catch {
      // reported below
    }
  }
  if (!url) throw new GuardwireError("USAGE", `no admin API found: give --admin URL (or unix:/path) and --token, or run guardwire with --admin (it writes ${file})`);
  if (url.startsWith("unix:")) return { url, token };
  if (!token) throw new GuardwireError("USAGE", `no token for the admin API at ${url}: give --token or GUARDWIRE_ADMIN_TOKEN`);
  return { url: /^https?:\/\//.test(url) ? url : `http://${url}`, token };
}

function userName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
