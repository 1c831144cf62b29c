import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ApprovalBroker, ApprovalOutcome, HeldApproval } from "../approvals/broker.js";
import type { AlertStats } from "../alerts/dispatcher.js";
import type { DecisionInput } from "../decision-log/record.js";
import type { StoreStatus } from "../store/redis.js";
import { networkTransport, refusalErrorType } from "./conventions.js";
import type { DecisionFeed } from "./feed.js";

/** What the decision log tells about itself (DecisionLog.stats). */
export interface LogStats {
  lines: number;
  bytes: number;
  dropped: number;
  head: { seq: number; time: string };
  writable: boolean;
}

/** A session as the session registry (src/control) reports it: enough to count it by route and time it. */
export interface ListedSession {
  route: string;
  transport: string;
  /** ISO time. */
  started: string;
}

/** The session registry, as metrics need it: its live sessions, and a `closed` event per session that ends. */
export interface SessionSource {
  list(): ListedSession[];
  on(event: "closed", listener: (s: ListedSession) => void): unknown;
  off(event: "closed", listener: (s: ListedSession) => void): unknown;
}

export interface MetricsOptions {
  version: string;
  feed: DecisionFeed;
  broker?: ApprovalBroker;
  log?: { stats(): LogStats };
  alerts?: { readonly stats: AlertStats } | null;
  /** The shared store of several replicas (docs/scale.md), when one is configured. */
  store?: { readonly state: StoreStatus } | null;
  /** The hash of the rules in force now (a hot reload shows at the next scrape). */
  ruleset?: () => string;
  /** A route's server transport (`stdio`, `streamable-http`, …), for the upstream time's `network_transport`. */
  upstreamTransport?: (route: string) => string | undefined;
  /** Distinct values kept per wire-named label (tool, method, rule, reason); the rest are counted as `other`. */
  labelCap?: number;
  /** A session not seen in the feed for this long is no longer counted as active (feed-based count only). */
  sessionIdleMs?: number;
  now?: () => number;
}

export const LABEL_CAP = 100;
const OTHER = "other";
/** Requests awaiting their response, for the upstream time: past this, the oldest are forgotten. */
const MAX_IN_FLIGHT = 10_000;
const MAX_SESSIONS = 50_000;
/** The MCP semantic conventions' advised buckets for operation durations (seconds). */
const OPERATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** The embedded guardian answers in microseconds; a remote one in milliseconds. */
const EVAL_BUCKETS = [0.000005, 0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const SESSION_BUCKETS = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 14400, 28800, 86400];
const APPROVAL_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Reason codes that say the guardian (or what it needs) could not judge: the message was refused unjudged. */
const GUARDIAN_ERRORS = new Set(["GUARDIAN_UNAVAILABLE", "RULE_ERROR", "LOG_UNAVAILABLE"]);

/**
 * Label values that come from the wire (tool, method and rule names) are kept to `cap` distinct values per label;
 * later newcomers are counted as `other`, so a client inventing names cannot grow the scrape without bound.
 */
export class LabelCap {
  private readonly seen = new Map<string, Set<string>>();
  constructor(private readonly cap: number) {}

  value(label: string, v: string | null | undefined): string {
    if (!v) return "";
    let set = this.seen.get(label);
    if (!set) this.seen.set(label, (set = new Set()));
    if (set.has(v)) return v;
    if (set.size >= this.cap) return OTHER;
    set.add(v);
    return v;
  }
}

interface InFlight {
  at: number;
  evalUs: number;
  route: string;
  protocol: string;
  transport: string;
  method: string;
  tool: string;
}

interface SeenSession {
  route: string;
  transport: string;
  first: number;
  last: number;
}

/**
 * guardwire's Prometheus metrics. Fed by the decision feed (every logged decision), the approval broker's events, and
 * read at scrape time from the log, the alert dispatcher and the session count. Names follow the OpenTelemetry MCP
 * semantic conventions where they name the measure (`mcp_*_duration_seconds`), guardwire's own otherwise
 * (docs/observability.md lists them).
 */
export class GuardwireMetrics {
  readonly registry = new Registry();
  private readonly cap: LabelCap;
  private readonly now: () => number;
  private readonly idleMs: number;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly upstreamTransport: (route: string) => string | undefined;
  private readonly sessions = new Map<string, SeenSession>();
  private sessionSource: SessionSource | null = null;
  private readonly stops: (() => void)[] = [];

  private readonly decisions: Counter;
  private readonly ruleMatches: Counter;
  private readonly evaluation: Histogram;
  private readonly guardianErrors: Counter;
  private readonly serverOperation: Histogram;
  private readonly clientOperation: Histogram;
  private readonly a2aUpstream: Histogram;
  private readonly sessionDuration: Histogram;
  private readonly approvals: Counter;
  private readonly approvalLatency: Histogram;

  constructor(opts: MetricsOptions) {
    this.cap = new LabelCap(opts.labelCap ?? LABEL_CAP);
    this.now = opts.now ?? (() => performance.now());
    this.idleMs = opts.sessionIdleMs ?? 10 * 60_000;
    this.upstreamTransport = opts.upstreamTransport ?? (() => undefined);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    new Gauge({ name: "guardwire_info", help: "guardwire's version (always 1)", labelNames: ["version"], registers }).set({ version: opts.version }, 1);

    // The method and tool under the conventions' names, as the histograms and spans carry them (A2A's as rpc_method).
    this.decisions = new Counter({
      name: "guardwire_decisions_total",
      help: "Decisions logged, by route, protocol, direction, kind, method (mcp_method_name or rpc_method), tool (gen_ai_tool_name), decision, mode and the first rule that fired",
      labelNames: ["route", "protocol", "direction", "kind", "mcp_method_name", "rpc_method", "gen_ai_tool_name", "decision", "mode", "rule"],
      registers,
    });
    this.ruleMatches = new Counter({ name: "guardwire_rule_matches_total", help: "Rules that fired, each counted once per decision it took part in", labelNames: ["route", "rule", "decision"], registers });
    this.evaluation = new Histogram({ name: "guardwire_guardian_evaluation_seconds", help: "Time the guardian took to judge a message", labelNames: ["route", "protocol", "direction"], buckets: EVAL_BUCKETS, registers });
    this.guardianErrors = new Counter({ name: "guardwire_guardian_errors_total", help: "Messages the guardian, a rule or the log could not judge or record (refused, or let through by failMode: open)", labelNames: ["route", "reason"], registers });
    const mcpLabels = ["route", "mcp_method_name", "gen_ai_tool_name", "error_type", "network_transport"];
    this.serverOperation = new Histogram({ name: "mcp_server_operation_duration_seconds", help: "MCP requests from agents, from receipt until guardwire's answer went back (OpenTelemetry mcp.server.operation.duration)", labelNames: mcpLabels, buckets: OPERATION_BUCKETS, registers });
    this.clientOperation = new Histogram({ name: "mcp_client_operation_duration_seconds", help: "MCP requests guardwire forwarded, from sending until the server's response arrived (OpenTelemetry mcp.client.operation.duration)", labelNames: mcpLabels, buckets: OPERATION_BUCKETS, registers });
    this.a2aUpstream = new Histogram({ name: "guardwire_a2a_upstream_duration_seconds", help: "A2A calls guardwire forwarded, from sending until the remote agent's response arrived", labelNames: ["route", "rpc_method", "error_type"], buckets: OPERATION_BUCKETS, registers });
    this.sessionDuration = new Histogram({ name: "mcp_server_session_duration_seconds", help: "Sessions from their first message to their end (OpenTelemetry mcp.server.session.duration)", labelNames: ["route", "network_transport"], buckets: SESSION_BUCKETS, registers });
    const active = () => this.activeSessions();
    new Gauge({
      name: "guardwire_sessions_active",
      help: "Sessions open now, by route",
      labelNames: ["route"],
      registers,
      collect() {
        this.reset();
        for (const { route, count } of active()) this.set({ route }, count);
      },
    });

    this.approvals = new Counter({ name: "guardwire_approvals_total", help: "Held messages by how they ended", labelNames: ["route", "outcome"], registers });
    this.approvalLatency = new Histogram({ name: "guardwire_approval_duration_seconds", help: "Time a message was held for a person's answer, by outcome", labelNames: ["route", "outcome"], buckets: APPROVAL_BUCKETS, registers });
    const broker = opts.broker;
    if (broker) {
      new Gauge({
        name: "guardwire_approvals_held",
        help: "Messages held for a person's answer now",
        registers,
        collect() {
          this.set(broker.list().length);
        },
      });
      const decided = (held: HeldApproval, outcome: ApprovalOutcome) => {
        const labels = { route: held.route, outcome: outcome.outcome };
        this.approvals.inc(labels);
        this.approvalLatency.observe(labels, outcome.afterMs / 1000);
      };
      broker.on("decided", decided);
      this.stops.push(() => broker.off("decided", decided));
    }
    if (opts.log) this.logMetrics(opts.log, registers);
    this.alertMetrics(opts.alerts ?? null, registers);
    if (opts.store) storeMetrics(opts.store, registers);
    const ruleset = opts.ruleset;
    if (ruleset) {
      new Gauge({
        name: "guardwire_rules_info",
        help: "The rules in force, by the hash each log line carries as `ruleset` (always 1): a rollout has converged when every replica shows the same",
        labelNames: ["ruleset"],
        registers,
        collect() {
          this.reset();
          this.set({ ruleset: ruleset() }, 1);
        },
      });
    }
    this.stops.push(opts.feed.add((d) => this.observe(d)));
  }

  /**
   * Active sessions and session durations from the session registry, instead of the estimate from the feed (sessions
   * seen in it, expired when idle).
   */
  followSessions(source: SessionSource): void {
    this.sessionSource = source;
    this.sessions.clear();
    const closed = (s: ListedSession) => this.sessionEnded(s.route, s.transport, Date.now() - Date.parse(s.started));
    source.on("closed", closed);
    this.stops.push(() => source.off("closed", closed));
  }

  /** Prometheus text exposition. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private observe(d: DecisionInput): void {
    if (d.kind === "log" || d.kind === "refused") return;
    const method = this.cap.value("method", d.method);
    const tool = this.cap.value("tool", d.tool);
    const rule = this.cap.value("rule", d.rules[0]);
    const a2a = d.protocol === "a2a";
    this.decisions.inc({
      route: d.route,
      protocol: d.protocol,
      direction: d.direction,
      kind: d.kind,
      mcp_method_name: a2a ? "" : method,
      rpc_method: a2a ? method : "",
      gen_ai_tool_name: tool,
      decision: d.decision,
      mode: d.mode,
      rule,
    });
    // A held message is logged again when it is decided: its rules and evaluation were counted the first time.
    const again = d.approval !== undefined && d.approval.step !== "requested";
    if (!again) {
      for (const r of d.rules) this.ruleMatches.inc({ route: d.route, rule: this.cap.value("rule", r), decision: d.decision });
      if (d.evalUs > 0) this.evaluation.observe({ route: d.route, protocol: d.protocol, direction: d.direction }, d.evalUs / 1e6);
    }
    for (const code of d.reasonCode) if (GUARDIAN_ERRORS.has(code)) this.guardianErrors.inc({ route: d.route, reason: code });
    this.trackSession(d);
    this.pair(d, method, tool);
  }

  /**
   * Upstream time from the feed alone: an agent request that went on is remembered by session and id, and its response
   * closes the pair. The feed sees each decision right after its turn, so both ends carry the same small lag; the
   * map is bounded (the oldest forgotten), so requests never answered cannot grow it.
   */
  private pair(d: DecisionInput, method: string, tool: string): void {
    if (d.id === null) return;
    const key = `${d.session}\u0000${typeof d.id}:${d.id}`;
    if (d.direction === "outbound" && d.kind === "request") {
      if (d.decision === "ask") return; // held: paired when its final decision is logged
      // An audit-mode deny was forwarded all the same: only an enforced one was answered here.
      if (d.decision === "deny" && d.mode === "enforce") return this.answeredHere(d, method, tool, d.evalUs / 1e6);
      this.inFlight.delete(key);
      this.inFlight.set(key, { at: this.now(), evalUs: d.evalUs, route: d.route, protocol: d.protocol, transport: d.transport, method, tool });
      if (this.inFlight.size > MAX_IN_FLIGHT) this.inFlight.delete(this.inFlight.keys().next().value as string);
      return;
    }
    if (d.direction !== "inbound" || (d.kind !== "response" && d.kind !== "event")) return;
    const sent = this.inFlight.get(key);
    if (!sent) return;
    this.inFlight.delete(key);
    const elapsed = Math.max(0, (this.now() - sent.at) / 1000);
    const errorType = d.decision === "deny" && d.mode === "enforce" ? refusalErrorType(d.reasonCode, d.method) : "";
    if (sent.protocol === "a2a") {
      this.a2aUpstream.observe({ route: sent.route, rpc_method: sent.method, error_type: errorType }, Math.max(0, elapsed - d.evalUs / 1e6));
      return;
    }
    const labels = { route: sent.route, mcp_method_name: sent.method, gen_ai_tool_name: sent.tool, error_type: errorType };
    // Each side's own transport: the server's for the upstream time (pipe for a stdio server), the agent's for the rest.
    const upstream = this.upstreamTransport(sent.route);
    this.clientOperation.observe({ ...labels, network_transport: upstream ? networkTransport(upstream) : "" }, Math.max(0, elapsed - d.evalUs / 1e6));
    this.serverOperation.observe({ ...labels, network_transport: networkTransport(sent.transport) }, elapsed + sent.evalUs / 1e6);
  }

  /** An agent request guardwire answered itself (denied): the operation took the judgement. */
  private answeredHere(d: DecisionInput, method: string, tool: string, seconds: number): void {
    if (d.protocol !== "mcp") return;
    this.serverOperation.observe({ route: d.route, mcp_method_name: method, gen_ai_tool_name: tool, error_type: refusalErrorType(d.reasonCode, d.method), network_transport: networkTransport(d.transport) }, seconds);
  }

  private trackSession(d: DecisionInput): void {
    if (this.sessionSource) return;
    const at = this.now();
    const s = this.sessions.get(d.session);
    if (s) {
      s.last = at;
      this.sessions.delete(d.session); // kept in order of last activity: the idle ones come first
      this.sessions.set(d.session, s);
      return;
    }
    this.sessions.set(d.session, { route: d.route, transport: d.transport, first: at, last: at });
    if (this.sessions.size > MAX_SESSIONS) this.expire(this.sessions.keys().next().value as string);
  }

  private activeSessions(): Iterable<{ route: string; count: number }> {
    if (this.sessionSource) return countByRoute(this.sessionSource.list());
    const cutoff = this.now() - this.idleMs;
    for (const [id, s] of this.sessions) {
      if (s.last > cutoff) break;
      this.expire(id);
    }
    return countByRoute(this.sessions.values());
  }

  private expire(id: string): void {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.sessionEnded(s.route, s.transport, s.last - s.first);
  }

  private sessionEnded(route: string, transport: string, durationMs: number): void {
    this.sessionDuration.observe({ route, network_transport: networkTransport(transport) }, Math.max(0, durationMs) / 1000);
  }

  private logMetrics(log: { stats(): LogStats }, registers: Registry[]): void {
    const read = (pick: (s: LogStats) => number) =>
      function (this: Counter | Gauge) {
        this.reset();
        (this as Gauge).set(pick(log.stats()));
      };
    // Counters read from the log at scrape time: reset, then set to the log's own total (prom-client has no counter.set).
    const counter = (name: string, help: string, pick: (s: LogStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(pick(log.stats()));
        },
      });
    counter("guardwire_log_lines_total", "Decision lines written by this process", (s) => s.lines);
    counter("guardwire_log_bytes_total", "Bytes written to the decision log by this process", (s) => s.bytes);
    counter("guardwire_log_dropped_lines_total", "Decision lines not kept while the log could not be written (past its hold cap)", (s) => s.dropped);
    new Gauge({ name: "guardwire_log_head_seq", help: "Sequence number of the last line in the chain (-1: none yet)", registers, collect: read((s) => s.head.seq) });
    new Gauge({ name: "guardwire_log_head_timestamp_seconds", help: "Time of the last line in the chain (0: none yet)", registers, collect: read((s) => (s.head.time ? Date.parse(s.head.time) / 1000 : 0)) });
    new Gauge({ name: "guardwire_log_writable", help: "1 while the decision log can be written; 0 while it cannot (all traffic is refused meanwhile)", registers, collect: read((s) => (s.writable ? 1 : 0)) });
  }

  /** Listed without alerts configured too (all zero), so dashboards and alerting rules find the series. */
  private alertMetrics(alerts: { readonly stats: AlertStats } | null, registers: Registry[]): void {
    new Counter({
      name: "guardwire_alerts_total",
      help: "Alerts by what became of them: raised, suppressed (repeats), delivered, dropped (queue full), undelivered",
      labelNames: ["outcome"],
      registers,
      collect() {
        this.reset();
        const stats: AlertStats = alerts?.stats ?? { raised: 0, suppressed: 0, delivered: 0, dropped: 0, undelivered: 0 };
        for (const [outcome, n] of Object.entries(stats)) this.inc({ outcome }, n);
      },
    });
  }
}

/** Read at scrape time from the store's own state. */
function storeMetrics(store: { readonly state: StoreStatus }, registers: Registry[]): void {
  new Gauge({
    name: "guardwire_store_up",
    help: "1 while the shared store (Redis) is connected and answering; 0 while connecting, unresponsive (not answering in time) or down",
    registers,
    collect() {
      this.set(store.state.state === "up" ? 1 : 0);
    },
  });
  new Counter({
    name: "guardwire_store_reconnects_total",
    help: "Reconnection attempts to the shared store (Redis) since start",
    registers,
    collect() {
      this.reset();
      this.inc(store.state.reconnects);
    },
  });
  new Gauge({
    name: "guardwire_store_state_since_seconds",
    help: "When the shared store's connection last changed state (Unix time)",
    registers,
    collect() {
      this.set(Date.parse(store.state.since) / 1000);
    },
  });
  new Counter({
    name: "guardwire_store_resets_total",
    help: "Losses of guardwire's data in the shared store (Redis restarted empty, flushed) this replica found while running",
    registers,
    collect() {
      this.reset();
      this.inc(store.state.resets);
    },
  });
  new Gauge({
    name: "guardwire_store_limits_held",
    help: "1 while limit rules are held closed after the shared store lost its data (store.limitsAfterReset); 0 otherwise",
    registers,
    collect() {
      this.set(store.state.limitsHeldUntil ? 1 : 0);
    },
  });
}

function countByRoute(sessions: Iterable<{ route: string }>): { route: string; count: number }[] {
  const byRoute = new Map<string, number>();
  for (const s of sessions) byRoute.set(s.route, (byRoute.get(s.route) ?? 0) + 1);
  return [...byRoute].map(([route, count]) => ({ route, count }));
}
