import { EventEmitter } from "node:events";
import type { ApprovalBroker } from "../approvals/broker.js";
import type { DecisionFeed } from "../observe/feed.js";
import type { DecisionSink } from "../proxy/session.js";
import { idKey, type JsonObject } from "../protocol/json-rpc.js";
import { clientInfoOf } from "../protocol/mcp.js";
import { progressHeartbeats } from "../proxy/hold.js";
import type { Frame, GateRefusal, GateResult, Peer, SessionGate } from "../proxy/session.js";
import type { Downstream } from "../transports/types.js";

export type SuspendMode = "hold" | "refuse";
export type PeerInfo = { name: string; version: string };

/** One live session as the admin API, the CLI and the console show it (docs/sessions.md). */
export interface SessionInfo {
  id: string;
  /** With a shared store: the replicas it went through (a session continued on several is one entry, its counts summed). */
  replicas?: string[];
  route: string;
  transport: string;
  protocol: "mcp" | "a2a";
  agent: string | null;
  client: PeerInfo | null;
  server: PeerInfo | null;
  started: string;
  lastActivity: string;
  messages: { outbound: number; inbound: number };
  denies: number;
  /** Approvals waiting in this session, and requests held by a suspension. */
  held: number;
  state: "active" | "suspended";
  suspend?: { mode: SuspendMode; reason?: string; since: string };
  /**
   * The agent's transport has nothing open (Streamable HTTP: no stream, no request in flight): since when, and when
   * the session ends unless the agent comes back (`sessionIdleSeconds`). Absent while it is connected.
   */
  idle?: { since: string; ends: string };
}

/** What the creator of a guarded session (link.ts, the stdio launcher) hands the registry. */
export interface SessionLink {
  session: { readonly id: string; readonly serverInfo: PeerInfo | null; control: SessionGate | null };
  route: string;
  transport: string;
  protocol: "mcp" | "a2a";
  agent: string | null;
  /** Where heartbeats of held requests go (the agent's side); whether it is idle. */
  downstream: Peer & Pick<Downstream, "idle">;
  /** The id names a caller whose exchanges come and go (A2A, stateless MCP): a suspension outlasts them. */
  shared?: boolean;
  /** Answers what is pending and closes both ends; called once, by kill. */
  kill(message: string): void;
}

export type ControlResult = { ok: true; session: SessionInfo } | { ok: false; code: "NOT_FOUND" | "UNAVAILABLE"; message: string };

/**
 * Where the admin API lists and controls live sessions: this process's registry, or with a shared store every
 * replica's (src/control/shared-sessions.ts).
 */
export interface SessionDesk {
  list(): SessionInfo[] | Promise<{ sessions: SessionInfo[]; incomplete?: string }>;
  get(id: string): SessionInfo | undefined | Promise<SessionInfo | undefined>;
  suspend(id: string, o: { mode?: SuspendMode; reason?: string; by?: string }): ControlResult | Promise<ControlResult>;
  resume(id: string, o: { by?: string }): ControlResult | Promise<ControlResult>;
  kill(id: string, reason?: string, by?: string): ControlResult | Promise<ControlResult>;
}

export interface RegistryOptions {
  /** Where held approvals are counted per session. */
  broker?: ApprovalBroker;
  /** Where each operator action (suspend, resume, kill) is written, as a decision line of kind `control`. */
  log?: DecisionSink;
  /** Messages a suspension holds per session and in all (default 64 and 1024); past either, a request is refused. */
  maxHeld?: number;
  maxHeldTotal?: number;
  /** Characters of held messages in all (default 64 Mi): held messages stay bounded in memory. */
  maxHeldChars?: number;
  heartbeatMs?: number;
  /** A caller's entry (A2A, stateless MCP) stays listed this long after its last exchange (default 10 min). */
  callerIdleMs?: number;
}

interface Held {
  live: Live;
  link: SessionLink;
  key: string | null;
  chars: number;
  settle(r: "pass" | GateRefusal): void;
}

interface Live {
  id: string;
  links: Set<SessionLink>;
  /** Who opened the entry (route, transport, protocol, agent, shared), kept apart from any one session object. */
  about: Pick<SessionLink, "route" | "transport" | "protocol" | "agent" | "shared">;
  client: PeerInfo | null;
  /** The server, as the last session that knew it said. */
  server: PeerInfo | null;
  started: number;
  last: number;
  outbound: number;
  inbound: number;
  denies: number;
  suspend: { mode: SuspendMode; reason?: string; since: number } | null;
  held: Held[];
  killed?: string;
  /** A caller's entry with no exchange in flight: dropped when this fires. */
  idle?: NodeJS.Timeout;
}

const INFO_CHARS = 200;

/**
 * The live sessions of this process, for an operator: listed with their statistics, suspended (new requests from the
 * agent held, or refused), resumed (held requests go on, in order) and killed (pending requests answered, both ends
 * closed). Each session gets a gate (`Session.control`) checked where agent messages enter; statistics come from the
 * decision feed. Events `opened`, `updated` (suspended, resumed, the client or server known, a request or approval held
 * or let go) and `closed` carry a SessionInfo.
 */
export class SessionRegistry extends EventEmitter<{ opened: [SessionInfo]; updated: [SessionInfo]; closed: [SessionInfo] }> {
  private readonly live = new Map<string, Live>();
  private heldCount = 0;
  private heldChars = 0;
  private readonly opts: Required<Omit<RegistryOptions, "broker" | "log">> & Pick<RegistryOptions, "broker" | "log">;

  constructor(opts: RegistryOptions = {}) {
    super();
    this.opts = { maxHeld: 64, maxHeldTotal: 1024, maxHeldChars: 64 << 20, heartbeatMs: 5000, callerIdleMs: 600_000, ...opts };
    // A session's held count includes its waiting approvals: each one held or decided is an update of the session.
    const approvalChanged = (a: { session: string }) => {
      const live = this.live.get(a.session);
      if (live) this.changed(live);
    };
    opts.broker?.on("requested", approvalChanged);
    opts.broker?.on("decided", approvalChanged);
  }

  /** Counts each session's messages, denies and last activity from the decisions as they are logged. */
  observe(feed: DecisionFeed): () => void {
    return feed.add((d, at) => {
      const live = this.live.get(d.session);
      if (!live) return;
      live.last = at;
      // An approval's request and elicitation lines are steps of one message, counted once (its decided line).
      const step = d.approval?.step;
      if (step === "requested" || step === "elicitation" || d.kind === "control") return;
      if (d.direction === "outbound") live.outbound++;
      else live.inbound++;
      if (d.decision === "deny") live.denies++;
      // The server became known (its answer to initialize): an update, once.
      if (live.server === null && [...live.links].some((l) => l.session.serverInfo !== null)) this.changed(live);
    });
  }

  /** Lists a session (or joins its caller's entry) and gives it its gate; returns the unregister. */
  register(link: SessionLink): () => void {
    const id = link.session.id;
    let live = this.live.get(id);
    const opened = !live;
    if (!live) {
      const now = Date.now();
      const about = { route: link.route, transport: link.transport, protocol: link.protocol, agent: link.agent, shared: link.shared };
      live = { id, links: new Set(), about, client: null, server: null, started: now, last: now, outbound: 0, inbound: 0, denies: 0, suspend: null, held: [] };
      this.live.set(id, live);
    }
    live.links.add(link);
    clearTimeout(live.idle);
    const entry = live;
    link.session.control = { gate: (value, frame) => this.gate(entry, link, value, frame) };
    if (opened) this.emit("opened", this.info(entry));
    return () => this.unlink(entry, link);
  }

  list(): SessionInfo[] {
    return [...this.live.values()].map((l) => this.info(l));
  }

  get(id: string): SessionInfo | undefined {
    const live = this.live.get(id);
    return live && this.info(live);
  }

  /** New requests from the agent are held (`hold`, the default) or refused; a second suspend changes mode and reason. */
  suspend(id: string, o: { mode?: SuspendMode; reason?: string; by?: string } = {}): ControlResult {
    const live = this.live.get(id);
    if (!live) return notFound(id);
    live.suspend = { mode: o.mode ?? "hold", reason: o.reason, since: live.suspend?.since ?? Date.now() };
    this.note(live, "suspend", "deny", "SESSION_SUSPENDED", `session suspended by an operator (${live.suspend.mode})`, o);
    return this.changed(live);
  }

  /** Held requests go on, in the order they came. */
  resume(id: string, o: { by?: string } = {}): ControlResult {
    const live = this.live.get(id);
    if (!live) return notFound(id);
    live.suspend = null;
    this.note(live, "resume", "allow", "SESSION_RESUMED", `session resumed by an operator (${live.held.length} held request(s) go on)`, o);
    this.release(live.held.splice(0), "pass");
    return this.changed(live);
  }

  /** Held requests are refused, each link answers what is pending and closes both ends (SESSION_KILLED). */
  kill(id: string, reason?: string, by?: string): ControlResult {
    const live = this.live.get(id);
    if (!live) return notFound(id);
    this.note(live, "kill", "deny", "SESSION_KILLED", "session killed by an operator", { reason, by });
    const message = `session killed by an operator${reason ? `: ${reason}` : ""}`;
    live.killed = message;
    const session = this.info(live);
    this.release(live.held.splice(0), { message, reasonCode: "SESSION_KILLED" });
    for (const link of live.links) link.kill(message);
    this.drop(live);
    return { ok: true, session };
  }

  /** guardwire is stopping: every held request gets its answer (a deny) before the sessions close. */
  shutdown(): void {
    for (const live of this.live.values()) this.release(live.held.splice(0), { message: "guardwire is shutting down: the session was suspended, its request not forwarded", reasonCode: "SESSION_SHUTDOWN" });
  }

  private gate(live: Live, link: SessionLink, value: unknown, frame: Frame): GateResult {
    if (live.suspend === null && live.killed === undefined) {
      if (live.client === null) this.noteClient(live, value);
      return "pass";
    }
    if (live.killed !== undefined) return { message: live.killed, reasonCode: "SESSION_KILLED" };
    const s = live.suspend as NonNullable<Live["suspend"]>;
    const m = (Array.isArray(value) ? null : value) as JsonObject | null;
    if (isResponseOnly(value)) return "pass";
    if (m?.method === "notifications/cancelled") {
      this.withdraw(live, link, (m.params as { requestId?: unknown } | undefined)?.requestId);
      return "pass";
    }
    const why = `session suspended by an operator${s.reason ? `: ${s.reason}` : ""}`;
    if (s.mode === "refuse") return { message: why, reasonCode: "SESSION_SUSPENDED" };
    const chars = "text" in frame ? frame.text.length : 0;
    if (live.held.length >= this.opts.maxHeld || this.heldCount >= this.opts.maxHeldTotal || this.heldChars + chars > this.opts.maxHeldChars) {
      return { message: `${why} (too many requests are already held; try again after it is resumed)`, reasonCode: "SESSION_SUSPENDED" };
    }
    const id = m?.id;
    const key = typeof id === "string" || typeof id === "number" ? idKey(id) : null;
    return new Promise((resolve) => {
      const stop = m && key ? progressHeartbeats(link.downstream, m, key, `session suspended by an operator: request held`, this.opts.heartbeatMs) : () => {};
      const held: Held = {
        live,
        link,
        key,
        chars,
        settle: (r) => {
          stop();
          this.heldCount--;
          this.heldChars -= chars;
          resolve(r);
        },
      };
      live.held.push(held);
      this.heldCount++;
      this.heldChars += chars;
      this.changed(live);
    });
  }

  /** The agent cancelled a request that is held: it is let go, logged, and owed no answer (MCP). */
  private withdraw(live: Live, link: SessionLink, rid: unknown): void {
    if (typeof rid !== "string" && typeof rid !== "number") return;
    const i = live.held.findIndex((h) => h.link === link && h.key === idKey(rid));
    if (i < 0) return;
    const [h] = live.held.splice(i, 1);
    h?.settle({ message: "request cancelled by the agent while its session was suspended", reasonCode: "REQUEST_CANCELLED", answer: false });
    this.changed(live);
  }

  private release(held: Held[], r: "pass" | GateRefusal): void {
    for (const h of held) h.settle(r);
  }

  private unlink(live: Live, link: SessionLink): void {
    if (!live.links.delete(link)) return;
    const mine = live.held.filter((h) => h.link === link);
    live.held = live.held.filter((h) => h.link !== link);
    this.release(mine, { message: "the session closed while suspended: request not forwarded", reasonCode: "SESSION_CLOSED" });
    if (live.links.size > 0) return;
    if (!live.about.shared || live.killed !== undefined) return this.drop(live);
    // A caller is listed between its calls, so it can be suspended; a suspension outlasts its exchanges.
    const idle = () => {
      if (live.links.size > 0) return;
      if (live.suspend) live.idle = setTimeout(idle, this.opts.callerIdleMs).unref();
      else this.drop(live);
    };
    live.idle = setTimeout(idle, this.opts.callerIdleMs).unref();
  }

  private drop(live: Live): void {
    clearTimeout(live.idle);
    if (this.live.get(live.id) !== live) return;
    this.live.delete(live.id);
    this.emit("closed", this.info(live));
  }

  private noteClient(live: Live, value: unknown): void {
    const m = value as { method?: unknown; params?: unknown } | null;
    if (m === null || typeof m !== "object" || m.method !== "initialize") return;
    const info = clientInfoOf(m.params);
    if (!info) return;
    live.client = { name: info.name.slice(0, INFO_CHARS), version: info.version.slice(0, INFO_CHARS) };
    this.changed(live);
  }

  /** The operator's action, in the hash chain before anything it causes: who (when known), what, and why. */
  private note(live: Live, action: "suspend" | "resume" | "kill", decision: "allow" | "deny", reasonCode: string, what: string, o: { reason?: string; by?: string }): void {
    const message = `${what}${o.by ? ` (${o.by})` : ""}${o.reason ? `: ${o.reason}` : ""}`;
    const { route, transport, protocol, agent } = live.about;
    this.opts.log?.write({ session: live.id, route, transport, protocol, direction: "outbound", kind: "control", id: null, method: `guardwire/${action}`, tool: null, agent, decision, mode: "enforce", rules: [], reasonCode: [reasonCode], message, evalUs: 0, digest: null });
  }

  private changed(live: Live): ControlResult {
    const session = this.info(live);
    this.emit("updated", session);
    return { ok: true, session };
  }

  private info(live: Live): SessionInfo {
    const { about } = live;
    for (const l of live.links) live.server = l.session.serverInfo ?? live.server;
    const approvals = this.opts.broker?.list().filter((a) => a.session === live.id).length ?? 0;
    const info: SessionInfo = {
      id: live.id,
      route: about.route,
      transport: about.transport,
      protocol: about.protocol,
      agent: about.agent,
      client: live.client,
      server: live.server,
      started: new Date(live.started).toISOString(),
      lastActivity: new Date(live.last).toISOString(),
      messages: { outbound: live.outbound, inbound: live.inbound },
      denies: live.denies,
      held: approvals + live.held.length,
      state: live.suspend ? "suspended" : "active",
    };
    if (live.suspend) info.suspend = { mode: live.suspend.mode, ...(live.suspend.reason ? { reason: live.suspend.reason } : {}), since: new Date(live.suspend.since).toISOString() };
    const idle = [...live.links].map((l) => l.downstream.idle?.() ?? null);
    if (idle.length > 0 && idle.every((i) => i !== null)) {
      const since = Math.max(...idle.map((i) => (i as { since: number }).since));
      const ends = Math.min(...idle.map((i) => (i as { ends: number }).ends));
      info.idle = { since: new Date(since).toISOString(), ends: new Date(ends).toISOString() };
    }
    return info;
  }
}

function notFound(id: string): ControlResult {
  return { ok: false, code: "NOT_FOUND", message: `no live session ${id}` };
}

/** Answers from the agent (to the server's requests) go on while suspended: the server is waiting for them. */
function isResponseOnly(value: unknown): boolean {
  const isResponse = (v: unknown) => v !== null && typeof v === "object" && !("method" in v);
  return Array.isArray(value) ? value.length > 0 && value.every(isResponse) : isResponse(value);
}
