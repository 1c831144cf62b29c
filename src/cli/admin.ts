import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { checkAdminListen, createAdminServer, parseListen, type AdminRoute } from "../admin/server.js";
import { approvalRoutes } from "../admin/approvals-api.js";
import { eventRoutes, type EventSource } from "../admin/events.js";
import { sessionEvents, sessionRoutes } from "../admin/sessions-api.js";
import type { SessionRegistry } from "../control/registry.js";
import type { ApprovalBroker, ApprovalOutcome, HeldApproval } from "../approvals/broker.js";
import type { DecisionFeed } from "../observe/feed.js";
import { consoleRoutes } from "../admin/console.js";
import { rulesRoutes, type RulesControl } from "../admin/rules-api.js";
import { playgroundRoutes } from "../admin/playground-api.js";
import { DecisionStats, RecentDecisions, recentRoutes, statsRoutes } from "../admin/stats.js";
import type { DecisionInput } from "../decision-log/record.js";
import { logRoutes, type LogView } from "../admin/log-api.js";
import type { EmbeddedGuardian } from "../guardian/embedded.js";
import { GuardwireError } from "../errors.js";

/** Where a running guardwire leaves its admin URL and token for `guardwire approvals` (mode 0600). */
export function adminFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.GUARDWIRE_ADMIN_FILE ?? join(homedir(), ".guardwire", "admin.json");
}

/** What the admin listener shows and controls. */
export interface AdminParts {
  version: string;
  broker: ApprovalBroker;
  /** Every decision as it is logged (the live decision stream). */
  feed: DecisionFeed;
  /** The live sessions (docs/sessions.md). */
  sessions?: SessionRegistry;
  /** The browser console's views of the rules, the playground and the log (docs/console.md). */
  console?: ConsoleParts;
}

export interface ConsoleParts {
  embedded: EmbeddedGuardian;
  rules: RulesControl;
  log: LogView;
}

/** The routes of the admin listener, from each part (docs/approvals.md lists the API). */
export function adminRoutes(parts: AdminParts): AdminRoute[] {
  const { broker, feed, sessions } = parts;
  const approvals: EventSource = (emit) => {
    const requested = (approval: HeldApproval) => emit("approval.requested", { approval });
    const decided = (approval: HeldApproval, outcome: ApprovalOutcome) => emit("approval.decided", { approval, outcome });
    broker.on("requested", requested);
    broker.on("decided", decided);
    return () => {
      broker.off("requested", requested);
      broker.off("decided", decided);
    };
  };
  const shown = (decision: DecisionInput, at: number) => ({ time: new Date(at).toISOString(), ...decision });
  const decisions: EventSource = (emit) => feed.add((decision, at) => emit("decision", shown(decision, at)));
  const live = sessions ? { routes: sessionRoutes(sessions), events: [sessionEvents(sessions)] } : { routes: [], events: [] };
  const stats = new DecisionStats();
  const recent = new RecentDecisions();
  feed.add((decision, at) => {
    stats.observe(decision, at);
    if (decision.kind !== "log") recent.add(shown(decision, at));
  });
  const ui = parts.console;
  const consoleApi = ui ? [...rulesRoutes(ui.rules, stats), ...playgroundRoutes(ui.embedded), ...logRoutes(ui.log)] : [];
  return [
    ...approvalRoutes(broker),
    ...live.routes,
    ...eventRoutes([approvals, decisions, ...live.events]),
    ...statsRoutes(stats),
    ...recentRoutes(recent),
    ...consoleApi,
    ...consoleRoutes(),
  ];
}

export interface StartedAdmin {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the admin API. Without a token (only allowed on loopback) one is made up; URL and token are written to the
 * admin file so the CLI on this machine finds them, and the file is removed at exit.
 */
export async function startAdmin(listen: string | { host: string; port: number }, token: string | undefined, parts: AdminParts): Promise<StartedAdmin> {
  const { host, port } = typeof listen === "string" ? parseListen(listen) : listen;
  checkAdminListen(host, token);
  const secret = token ?? randomBytes(24).toString("base64url");
  const server: Server = createAdminServer({ token: secret, version: parts.version, routes: adminRoutes(parts) });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(new GuardwireError("USAGE", `cannot listen for the admin API on ${host}:${port}: ${e.code ?? e.message}`)));
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  const file = adminFile();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify({ url, token: secret, pid: process.pid }) + "\n", { mode: 0o600 });
  const forget = () => {
    try {
      const now = JSON.parse(readFileSync(file, "utf8")) as { pid?: number };
      if (now.pid === process.pid) rmSync(file);
    } catch {
      // gone already, or another guardwire's
    }
  };
  process.once("exit", forget);
  process.stderr.write(`guardwire: admin API on ${url} (token in ${file})\n`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        forget();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
