import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { connect, type AddressInfo } from "node:net";
import type { Server } from "node:http";
import { checkAdminListen, createAdminServer, parseListen, type AdminRoute } from "../admin/server.js";
import { approvalEvents, approvalRoutes, HeldArguments } from "../admin/approvals-api.js";
import type { ApprovalLinks } from "../admin/approval-links.js";
import { eventRoutes, type EventSource } from "../admin/events.js";
import { metricsRoutes } from "../admin/metrics-api.js";
import type { GuardwireMetrics } from "../observe/metrics.js";
import { sessionEvents, sessionRoutes } from "../admin/sessions-api.js";
import type { SessionRegistry } from "../control/registry.js";
import type { SharedApprovals } from "../approvals/shared-approvals.js";
import type { SharedSessions } from "../control/shared-sessions.js";
import type { ApprovalBroker } from "../approvals/broker.js";
import type { DecisionFeed } from "../observe/feed.js";
import { consoleRoutes } from "../admin/console.js";
import { rulesRoutes, type RulesControl } from "../admin/rules-api.js";
import { playgroundRoutes } from "../admin/playground-api.js";
import { DecisionStats, RecentDecisions, recentRoutes, statsRoutes } from "../admin/stats.js";
import type { DecisionInput } from "../decision-log/record.js";
import { logRoutes, type LogView } from "../admin/log-api.js";
import { exportRoutes } from "../admin/export-api.js";
import type { AnyEmbeddedGuardian } from "../guardian/embedded.js";
import { GuardwireError } from "../errors.js";
import { makeDirs } from "../fs-dirs.js";
import { adminFile } from "./admin-client.js";

// The admin listener and its routes: loaded by `startOperatorAdmin` (./admin.ts) only when the admin API is configured,
// so that `wrap` and `serve` without one start without the admin modules (and the playground's diff).

/** What the admin listener shows and controls. */
export interface AdminParts {
  version: string;
  broker: ApprovalBroker;
  /** Every decision as it is logged (the live decision stream). */
  feed: DecisionFeed;
  /** The approval webhook's signed links (public routes), when approval webhooks are configured. */
  links?: ApprovalLinks;
  /** `GET /metrics` (docs/observability.md). */
  metrics?: GuardwireMetrics;
  /** The live sessions (docs/sessions.md). */
  sessions?: SessionRegistry;
  /** The browser console's views of the rules, the playground and the log (docs/console.md). */
  console?: ConsoleParts;
  /** With a shared store: every replica's held approvals and live sessions (docs/scale.md). */
  shared?: Shared;
}

export interface Shared {
  approvals?: SharedApprovals;
  sessions?: SharedSessions;
}

export interface ConsoleParts {
  embedded: AnyEmbeddedGuardian;
  rules: RulesControl;
  log: LogView;
}

/** The routes of the admin listener, from each part (docs/approvals.md lists the API). */
export function adminRoutes(parts: AdminParts): AdminRoute[] {
  const { broker, feed, sessions } = parts;
  const args = new HeldArguments(broker);
  const approvals = approvalEvents(broker, args);
  const shown = (decision: DecisionInput, at: number) => ({ time: new Date(at).toISOString(), ...decision });
  const decisions: EventSource = (emit) => feed.add((decision, at) => emit("decision", shown(decision, at)));
  const { shared } = parts;
  // With a shared store, session events (this replica's and the others') carry the merged row the list shows.
  const live = sessions ? { routes: sessionRoutes(shared?.sessions ?? sessions), events: shared?.sessions ? [] : [sessionEvents(sessions)] } : { routes: [], events: [] };
  // Other replicas' approvals and sessions reach this replica's event stream over the operator channel.
  const remote: EventSource[] = [shared?.approvals, shared?.sessions].flatMap((s) => (s ? [(emit: Parameters<EventSource>[0]) => s.events(emit)] : []));
  const stats = new DecisionStats();
  const recent = new RecentDecisions();
  feed.add((decision, at) => {
    stats.observe(decision, at);
    if (decision.kind !== "log") recent.add(shown(decision, at));
  });
  const { links, metrics, console: ui } = parts;
  const consoleApi = ui ? [...rulesRoutes(ui.rules, stats), ...playgroundRoutes(ui.embedded), ...logRoutes(ui.log), ...exportRoutes(ui.log)] : [];
  const routes = [
    ...approvalRoutes(broker, shared?.approvals, args),
    ...live.routes,
    ...eventRoutes([approvals, decisions, ...live.events, ...remote]),
    ...statsRoutes(stats),
    ...recentRoutes(recent),
    ...consoleApi,
    ...consoleRoutes(),
    ...(links?.routes() ?? []),
    ...(metrics ? metricsRoutes(metrics) : []),
  ];
  return [...routes, openApiRoute(parts.version, routes)];
}

/** `GET /api/openapi.json`: the document for these routes, made when first asked for (its schemas load only then). */
function openApiRoute(version: string, routes: AdminRoute[]): AdminRoute {
  let doc: Record<string, unknown> | undefined;
  const self: AdminRoute = {
    method: "GET",
    pattern: /^\/api\/openapi\.json$/,
    doc: "GET /api/openapi.json",
    run: async () => [200, (doc ??= (await import("../admin/openapi.js")).adminOpenApi(version, [...routes, self]))],
  };
  return self;
}

export interface StartedAdmin {
  /** `http://host:port`, or `unix:/path` for a Unix socket. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the admin API. On TCP without a token (only allowed on loopback) one is made up; on a Unix socket (mode
 * 0600) no token is needed unless one is given. URL and token are written to the admin file so the CLI on this
 * machine finds them; the file and the socket are removed at exit.
 */
export async function startAdmin(listen: string, token: string | undefined, parts: AdminParts): Promise<StartedAdmin> {
  const where = parseListen(listen);
  if ("host" in where) checkAdminListen(where.host, token);
  const secret = token ?? ("socket" in where ? null : randomBytes(24).toString("base64url"));
  const server: Server = createAdminServer({ token: secret, version: parts.version, routes: adminRoutes(parts) });
  const url = "socket" in where ? await listenSocket(server, where.socket) : await listenTcp(server, where.host, where.port);
  const file = adminFile();
  makeDirs(dirname(file), 0o700);
  writeFileSync(file, JSON.stringify({ url, token: secret, pid: process.pid }) + "\n", { mode: 0o600 });
  const forget = () => {
    if ("socket" in where) rmSync(where.socket, { force: true });
    try {
      const now = JSON.parse(readFileSync(file, "utf8")) as { pid?: number };
      if (now.pid === process.pid) rmSync(file);
    } catch {
      // gone already, or another guardwire's
    }
  };
  process.once("exit", forget);
  process.stderr.write(`guardwire: admin API on ${url} (${secret ? `token in ${file}` : "no token: the socket's file mode is the credential"})\n`);
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

async function listenTcp(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(new GuardwireError("USAGE", `cannot listen for the admin API on ${host}:${port}: ${e.code ?? e.message}`)));
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
}

/**
 * A Unix socket, mode 0600 from the start (the umask is narrowed while it is made). A live socket at the path is
 * another process's: refused. A stale one (nobody answers) is replaced; anything else there is refused.
 */
async function listenSocket(server: Server, path: string): Promise<string> {
  const taken = (why: string) => new GuardwireError("USAGE", `cannot listen for the admin API on unix:${path}: ${why}`);
  let existing;
  try {
    existing = lstatSync(path);
  } catch {
    existing = null;
  }
  if (existing && !existing.isSocket()) throw taken("the path exists and is not a socket");
  if (existing && (await answers(path))) throw taken("another process is listening on it");
  if (existing) rmSync(path);
  makeDirs(dirname(path), 0o700);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(taken(e.code ?? e.message)));
    const umask = process.umask(0o177);
    try {
      server.listen(path, resolve);
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(path, 0o600);
  return `unix:${path}`;
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}
