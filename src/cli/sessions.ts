import type { SessionInfo } from "../control/registry.js";
import { GuardwireError } from "../errors.js";
import { adminClient, userName, type AdminClientOptions } from "./admin-client.js";

export interface SessionsOptions extends AdminClientOptions {
  mode?: string;
  reason?: string;
  json?: boolean;
}

const ACTIONS = ["list", "suspend", "resume", "kill"] as const;

/**
 * `guardwire sessions [list]`, `sessions suspend ID [--mode hold|refuse] [--reason …]`, `sessions resume ID`,
 * `sessions kill ID [--reason …]`: through the admin API of a running guardwire (docs/sessions.md).
 */
export async function runSessions(args: string[], o: SessionsOptions, out: NodeJS.WritableStream): Promise<number> {
  const [action = "list", id] = args;
  if (!(ACTIONS as readonly string[]).includes(action)) throw new GuardwireError("USAGE", `unknown sessions action "${action}" (list, suspend ID, resume ID, kill ID)`);
  if (action !== "list" && !id) throw new GuardwireError("USAGE", `sessions ${action} needs the session id (see guardwire sessions)`);
  if (o.mode !== undefined && action !== "suspend") throw new GuardwireError("USAGE", "--mode only applies to suspend");
  if (o.reason !== undefined && action !== "suspend" && action !== "kill") throw new GuardwireError("USAGE", "--reason only applies to suspend and kill");
  const call = adminClient(o);

  if (action === "list") {
    const { sessions, incomplete } = await call<{ sessions: SessionInfo[]; incomplete?: string }>("GET", "/api/sessions");
    if (incomplete && !o.json) out.write(`only this replica's sessions: ${incomplete}\n`);
    if (o.json) out.write(JSON.stringify(sessions, null, 2) + "\n");
    else if (sessions.length === 0) out.write("no live sessions\n");
    else out.write(table(sessions));
    return 0;
  }
  const path = `/api/sessions/${encodeURIComponent(id as string)}/${action}`;
  const by = userName();
  const body = action === "suspend" ? { mode: o.mode, reason: o.reason, by } : action === "kill" ? { reason: o.reason, by } : { by };
  const { session } = await call<{ session: SessionInfo }>("POST", path, body);
  if (o.json) out.write(JSON.stringify(session, null, 2) + "\n");
  else out.write(`${PAST[action as keyof typeof PAST]} ${session.id} (${session.transport} on ${session.route})${action === "suspend" ? `: new requests ${session.suspend?.mode === "refuse" ? "refused" : "held"}` : ""}\n`);
  return 0;
}

const PAST = { suspend: "suspended", resume: "resumed", kill: "killed" } as const;

/** With a shared store every entry names the replicas holding it: a REPLICAS column after the id. */
function table(sessions: SessionInfo[]): string {
  const replicas = sessions.some((s) => s.replicas !== undefined);
  const head = ["ID", ...(replicas ? ["REPLICAS"] : []), "ROUTE", "TRANSPORT", "AGENT", "CLIENT", "SERVER", "STARTED", "OUT/IN", "DENIES", "HELD", "LAST", "STATE"];
  const rows = sessions.map((s) => [
    s.id,
    ...(replicas ? [s.replicas?.join(",") || "-"] : []),
    s.route,
    s.transport,
    s.agent ?? "-",
    peer(s.client),
    peer(s.server),
    clock(s.started),
    `${s.messages.outbound}/${s.messages.inbound}`,
    String(s.denies),
    String(s.held),
    ago(s.lastActivity),
    s.state === "suspended" ? `suspended (${s.suspend?.mode}${s.suspend?.reason ? `: ${s.suspend.reason}` : ""})` : s.state,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join("  ") + "\n";
  return line(head) + rows.map(line).join("");
}

const peer = (p: { name: string; version: string } | null) => (p ? `${p.name}${p.version ? ` ${p.version}` : ""}` : "-");
const clock = (iso: string) => iso.slice(11, 19);

function ago(iso: string): string {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}
