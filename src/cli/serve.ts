import { loadConfig } from "../config/load.js";
import { REPLICA_ID, type Config, type GuardianConfig } from "../config/schema.js";
import { formatFileProblem } from "../yaml.js";
import { GuardwireError } from "../errors.js";
import { createGuardServer, type ServedRoute } from "../proxy/server.js";
import { A2A_STREAMING_METHODS } from "../protocol/a2a.js";
import { a2aEndpoint } from "../transports/downstream/a2a-http.js";
import { legacySseEndpoint } from "../transports/downstream/legacy-sse.js";
import { A2aRemote } from "../transports/upstream/a2a.js";
import { websocketEndpoint } from "../transports/downstream/websocket.js";
import type { UpstreamFactory } from "../transports/types.js";
import { legacySseUpstream } from "../transports/upstream/legacy-sse.js";
import { stdioUpstream } from "../transports/upstream/stdio.js";
import { streamableHttpUpstream, upstreamAgent } from "../transports/upstream/streamable-http.js";
import { websocketUpstream } from "../transports/upstream/websocket.js";
import { noteTo } from "./alerts.js";
import { hostPort, listenOn, logView } from "./startup.js";
import { startOperatorAdmin, type StartedAdmin } from "./admin.js";
import { answerHeldFirst, openCore, Runtime } from "./runtime.js";
import { hostname } from "node:os";
import type { SharedStore } from "../store/redis.js";
import { OpsBus } from "../store/ops-bus.js";
import { SessionTokens } from "../store/session-token.js";
import { advertisedUrl, ReplicaRegistry } from "../store/replicas.js";
import { DEFAULT_SESSION_MAX_AGE_SECONDS, routeContinuity, SessionEnds } from "../store/continuity.js";
import { SessionForwarder } from "../store/forward.js";
import type { SessionContinuity } from "../transports/downstream/streamable-http.js";

export interface ServeOptions {
  config: string;
  version?: string;
  pins?: string;
  watch?: boolean;
  /** `--listen HOST:PORT`: over the config's `listen:`. */
  listen?: { host: string; port: number };
}

/** `guardwire serve --config <file>`: every route of the config behind one guardian and one decision log. */
export async function runServe(o: ServeOptions): Promise<void> {
  const { config, problems, unreadable } = loadConfig(o.config, process.env, undefined, { listen: o.listen });
  if (unreadable) throw new GuardwireError("CONFIG_INVALID", problems[0]?.message ?? `cannot read ${o.config}`);
  if (!config) {
    throw new GuardwireError("CONFIG_INVALID", `${o.config} is not a valid configuration:\n${problems.map((p) => "  " + formatFileProblem(p)).join("\n")}`);
  }
  // Several replicas share state through Redis (docs/scale.md); without `store:` everything stays in this process.
  const replica = replicaId(config.replica.id ?? process.env.GUARDWIRE_REPLICA ?? hostname());
  // ioredis is loaded only when a store is configured.
  const store: SharedStore | null = config.store ? new (await import("../store/redis.js")).SharedStore(config.store) : null;
  // The guardian's labels, counts, limit windows and pins then live in Redis too (docs/scale.md, Shared state).
  // After Redis lost its data, limit rules are held for a window (store.limitsAfterReset); /healthz says until when.
  let longestWindowMs = () => 0;
  const sharedState = store
    ? new (await import("../store/guardian-state.js")).SharedGuardianState(store, {
        sessionTtlMs: config.sessionIdleSeconds * 1000,
        warn: (line) => process.stderr.write(line),
        limitsAfterReset: config.store?.limitsAfterReset,
        longestWindowMs: () => longestWindowMs(),
      })
    : undefined;
  // Each replica writes its own chain, in a file named after it (guardwire verify and tail take the folder).
  const logPath = config.store ? replicaLogPath(config.log, replica) : config.log;
  // The composition root: every part opened once, in order, and closed in reverse (runtime.ts).
  const runtime = new Runtime(process.stderr);
  if (store) runtime.onClose("store", store, (s) => s.close());
  // Approvals, live sessions and alerts across replicas go over one operator channel (docs/scale.md).
  const bus = store ? runtime.onClose("operator channel", new OpsBus(store, replica), (b) => b.close()) : null;
  const registry = store ? runtime.onClose("replica registry", new ReplicaRegistry(store, replica), (r) => r.close()) : null;
  // A session ended for good (DELETE, kill, the server lost it) is ended on every replica and marked in Redis.
  const ends = new SessionEnds(store, bus, config.sessions?.maxAgeSeconds ?? DEFAULT_SESSION_MAX_AGE_SECONDS);
  const core = await openCore(
    {
      guardian: { rules: config.rules, failMode: config.failMode, pins: o.pins, watch: o.watch, remotes: remotesOf(config.guardian), shared: sharedState },
      // Every line names this replica and the rules in force (a hot reload shows in the next line).
      log: { dest: logPath, sync: config.logSync, replica },
      logFix: `choose another path with log: in ${o.config}`,
      alerts: config.alerts,
      approvals: config.approvals,
      admin: config.admin?.listen,
      cluster: bus && { bus, keys: config.sessions?.keys ?? [], sessions: { killedMs: ends.markSeconds * 1000 } },
      version: o.version,
      stderr: process.stderr,
    },
    runtime,
  );
  const { embedded, log, operator, channels } = core;
  longestWindowMs = () => Math.max(0, ...embedded.rules.rules.map((r) => r.limit?.perMs ?? 0));
  const ruleset = () => embedded.rules.hash;
  // A loss of Redis's data (and a failover that kept it) is noted in the log (kind `log`) and on stderr.
  sharedState?.noteTo(noteTo(log, process.stderr));
  // From the first stop signal /readyz answers 503, so a load balancer sends nothing new here.
  let stopping = false;
  // Sealed session ids: with `sessions.keys` every replica opens every token; without, a key of this process alone.
  const tokens = new SessionTokens(config.sessions?.keys ?? []);
  const forwarder = registry ? new SessionForwarder(tokens, registry, config.maxFrameBytes) : undefined;
  const continuityOptions = { tokens, replica, store, ends, shared: Boolean(config.sessions), cluster: registry !== null, forward: forwarder?.relay.bind(forwarder) };
  const continuities = new Map<string, SessionContinuity>();
  const continuityOf = (route: ServedRoute) => {
    let c = continuities.get(route.path);
    // Only a Streamable HTTP upstream's session can be continued by another replica; the others live in this one.
    if (!c) continuities.set(route.path, (c = routeContinuity(continuityOptions, route.runtime.name, route.runtime.stateless === true)));
    return c;
  };
  // What every route's sessions share, by reference: the judge, the log, the features as stages.
  const shared = {
    judge: core.judge,
    log: operator.sink,
    stages: core.stages,
    tracer: core.tracing?.tracer,
    sessions: operator.sessions,
    endSession: (id: string) => core.guardian.endSession?.(id),
    failMode: config.failMode,
    maxFrameBytes: config.maxFrameBytes,
    stderr: process.stderr,
    logPreview: config.logPreview,
  };
  const remotes = new Map<string, A2aRemote>();
  const routes: ServedRoute[] = config.routes.map((r) => {
    if (r.a2a) {
      const remote = new A2aRemote({ url: r.a2a.url, headers: r.a2a.headers, timeoutMs: r.a2a.timeoutMs });
      remotes.set(r.path, remote);
      return {
        path: r.path,
        runtime: {
          name: r.name,
          protocol: "a2a",
          upstream: remote.upstream(),
          upstreamTransport: "a2a",
          streamingMethods: A2A_STREAMING_METHODS,
          server: () => (remote.name ? { name: remote.name, version: "" } : null),
          ...shared,
        },
      };
    }
    if (!r.mcp) throw new GuardwireError("CONFIG_INVALID", `route ${r.name} has no upstream`);
    return {
      path: r.path,
      passthrough: "url" in r.mcp ? r.mcp.url : "sse" in r.mcp ? r.mcp.sse : undefined,
      runtime: {
        name: r.name,
        upstream: upstreamOf(r.mcp),
        upstreamTransport: upstreamTransportOf(r.mcp),
        stateless: "url" in r.mcp,
        ...shared,
      },
    };
  });
  const proxy = createGuardServer({
    host: config.listen.host,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
    agents: config.agents,
    routes,
    maxBodyBytes: config.maxFrameBytes,
    idleMs: config.sessionIdleSeconds * 1000,
    maxSessions: config.maxSessionsPerRoute,
    log: operator.sink,
    health: { version: o.version ?? "", replica, rules: () => embedded.rules, store: sharedState ?? null, stopping: () => stopping },
    front: {
      bodyBudgetBytes: config.http.bodyBudgetBytes,
      headersTimeoutMs: config.http.headersTimeoutSeconds * 1000,
      requestTimeoutMs: config.http.requestTimeoutSeconds * 1000,
      keepAliveTimeoutMs: config.http.keepAliveTimeoutSeconds * 1000,
      idleTimeoutMs: config.http.idleTimeoutSeconds * 1000,
      maxConnections: config.http.maxConnections,
      maxConnectionsPerAddress: config.http.maxConnectionsPerAddress,
    },
    continuity: continuityOf,
    forward: forwarder,
    extras: (connect, route) => {
      const remote = remotes.get(route.path);
      if (remote) {
        const passAuthorization = config.routes.find((r) => r.path === route.path)?.a2a?.passAuthorization ?? false;
        return [a2aEndpoint({ connect, maxBodyBytes: config.maxFrameBytes, cardUpstream: (url) => remote.cardUpstream(url), passAuthorization, push: remote.push, restUpstream: remote.restUpstream() })];
      }
      const maxSessions = config.maxSessionsPerRoute;
      return [legacySseEndpoint({ connect, maxBodyBytes: config.maxFrameBytes, maxSessions, continuity: continuityOf(route) }), websocketEndpoint({ connect, maxFrameBytes: config.maxFrameBytes, maxSessions })];
    },
  });
  runtime.onClose("proxy", proxy, (p) => p.close());
  const port = await listenOn(proxy.server, config.listen.port, config.listen.host, o.listen ? "choose another --listen" : `choose another listen.port in ${o.config}`);
  if (registry) {
    const url = advertisedUrl(config.replica.advertise, config.listen.host, port);
    if (url) registry.announce(url);
    else process.stderr.write(`guardwire: replica ${replica} listens on every address and has no replica.advertise: other replicas cannot forward to it, so its stdio, WebSocket and legacy-SSE sessions end when a request for them lands elsewhere (docs/scale.md)\n`);
  }
  const upstreamTransports = new Map(routes.map((r) => [r.runtime.name, r.runtime.upstreamTransport]));
  // Before "serving": a client that sees that line can use the admin API too.
  const admin: StartedAdmin | undefined = config.admin
    ? await startOperatorAdmin(config.admin.listen, config.admin.token ?? process.env.GUARDWIRE_ADMIN_TOKEN, {
        version: o.version ?? "",
        broker: channels.broker,
        operator,
        measured: { log, alerts: core.alerts, store: sharedState ?? null, ruleset, upstreamTransport: (route) => upstreamTransports.get(route) },
        links: channels.links,
        shared: { approvals: channels.shared },
        console: { embedded, rules: core.rules, log: logView(logPath, log) },
      })
    : undefined;
  if (admin) runtime.onClose("admin", admin, (a) => a.close());
  answerHeldFirst(core);
  channels.listening(admin?.url);
  const where = store ? `; replica ${replica}, shared state in ${store.state.url}` : "";
  process.stderr.write(`guardwire: serving http://${hostPort(config.listen.host, port)} (${config.routes.map((r) => `${r.name} at ${r.path}`).join(", ")}${where})\n`);

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.close();
    process.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void stop());
}

/** The replica id as given, when it can name a file; refused otherwise (it goes into the log's file name). */
function replicaId(id: string): string {
  if (!REPLICA_ID.test(id)) throw new GuardwireError("CONFIG_INVALID", `replica id ${JSON.stringify(id)} (from replica.id, $GUARDWIRE_REPLICA or the host name) may use only letters, digits, _ . - (at most 63, not starting with . or -); set replica.id`);
  return id;
}

/** `decisions.ndjson` for replica r1 is `decisions.r1.ndjson` (`-` and stdout stay as they are). */
export function replicaLogPath(path: string, replica: string): string {
  if (path === "-") return path;
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return dot > slash + 1 ? `${path.slice(0, dot)}.${replica}${path.slice(dot)}` : `${path}.${replica}`;
}

function upstreamOf(mcp: NonNullable<Config["routes"][number]["mcp"]>): UpstreamFactory {
  if ("url" in mcp) return streamableHttpUpstream({ url: mcp.url, headers: mcp.headers, timeoutMs: mcp.timeoutMs, dispatcher: upstreamAgent() });
  if ("sse" in mcp) return legacySseUpstream({ url: mcp.sse, headers: mcp.headers });
  if ("ws" in mcp) return websocketUpstream({ url: mcp.ws, headers: mcp.headers });
  return stdioUpstream({ command: mcp.command, args: mcp.args, env: { ...process.env, ...mcp.env }, cwd: mcp.cwd });
}

/** The kind of server transport a route's `mcp:` names (the `transport` vocabulary of the log's downstreams). */
export function upstreamTransportOf(mcp: NonNullable<Config["routes"][number]["mcp"]>): string {
  return "url" in mcp ? "streamable-http" : "sse" in mcp ? "sse" : "ws" in mcp ? "websocket" : "stdio";
}

function remotesOf(g: GuardianConfig): { url: string; timeoutMs: number; headers?: Record<string, string> }[] {
  if (g.kind === "remote") return [{ url: g.url, timeoutMs: g.timeoutMs, headers: g.headers }];
  if (g.kind === "chain") return g.guardians.flatMap(remotesOf);
  return [];
}
