import type { ControlResult, SessionDesk, SessionInfo, SessionRegistry, SuspendMode } from "./registry.js";
import type { ChainableCommander } from "ioredis";
import type { OpsBus } from "../store/ops-bus.js";
import { KILLED_MS, killedKey } from "../store/session-token.js";

export interface SharedSessionsOptions {
  /** Every replica rewrites its sessions' entries this often (default 5 s); they expire after `ttlMs` (default 15 s). */
  refreshMs?: number;
  ttlMs?: number;
  /** A session opened, updated or closed is written within this (default 500 ms), never more often. */
  gapMs?: number;
  /** How long a kill is marked in Redis (default a day): at least as long as a session token can be continued. */
  killedMs?: number;
}

type Action = { action: "suspend"; id: string; o: { mode?: SuspendMode; reason?: string; by?: string } } | { action: "resume"; id: string; o: { by?: string } } | { action: "kill"; id: string; reason?: string; by?: string };

const EVENTS = ["opened", "updated", "closed"] as const;

/**
 * The live sessions of every replica (docs/scale.md). Each replica keeps its own list in a Redis hash, rewritten every
 * few seconds and soon after a session opens, changes or closes (never per message), with a TTL, so a replica that
 * died drops out. Listing reads every live replica's hash and merges the copies of one session (a session continued
 * on several replicas is one row, with the sums of its counts and every replica it went through, also those that let
 * go of their copy); suspend, resume and kill go to every replica over the operator channel, and each acts on the copy
 * it holds. A kill is also marked in Redis.
 */
export class SharedSessions implements SessionDesk {
  private readonly timer: NodeJS.Timeout;
  private pending: NodeJS.Timeout | undefined;
  private last = 0;
  private readonly opts: Required<SharedSessionsOptions>;
  private readonly stops: (() => void)[] = [];
  /** This replica's session events, told to the others once the list they describe is in Redis. */
  private readonly outbox: [string, SessionInfo][] = [];

  constructor(
    private readonly bus: OpsBus,
    private readonly registry: SessionRegistry,
    opts: SharedSessionsOptions = {},
  ) {
    this.opts = { refreshMs: 5000, ttlMs: 15_000, gapMs: 500, killedMs: KILLED_MS, ...opts };
    for (const name of EVENTS) {
      const f = (session: SessionInfo) => {
        const copy = this.tag(session);
        // A copy let go of here: what it counted goes to Redis now, on the connection this replica answers the bus on,
        // so an operator's kill or listing answered after this cannot miss it (the list's next write may be `gapMs` away).
        if (name === "closed") this.keep(copy);
        this.outbox.push([`session.${name}`, copy]);
        this.soon();
      };
      registry.on(name, f);
      this.stops.push(() => registry.off(name, f));
    }
    bus.handle("session.control", (body) => this.here(body as Action));
    this.timer = setInterval(() => this.flush(), this.opts.refreshMs).unref();
  }

  /**
   * Sessions opened, changed and closed on any replica (for the event stream), each as the merged row the list shows:
   * `session.closed` once no replica holds the session any more, `session.updated` while another still does.
   */
  events(emit: (event: string, data: unknown) => void): () => void {
    // One after the other: a session's events must not overtake each other while their rows are read.
    let chain = Promise.resolve();
    const changed = (name: (typeof EVENTS)[number], copy: SessionInfo, from: string) => {
      chain = chain.then(() => this.merged(name, copy, from)).then(([event, session]) => emit(event, { session }));
    };
    const offs = EVENTS.flatMap((name) => {
      const local = (s: SessionInfo) => changed(name, this.tag(s), this.bus.replica);
      this.registry.on(name, local);
      const remote = this.bus.on(`session.${name}`, (b, from) => changed(name, (b as { session: SessionInfo }).session, from));
      return [() => this.registry.off(name, local), remote];
    });
    return () => offs.forEach((off) => off());
  }

  async list(): Promise<{ sessions: SessionInfo[]; incomplete?: string }> {
    const mine = this.registry.list().map((s) => this.tag(s));
    try {
      const others = await this.others();
      return { sessions: await this.withHistory(mergeSessions([...mine, ...others.flatMap((texts) => texts.map((t) => JSON.parse(t) as SessionInfo))])) };
    } catch (e) {
      return { sessions: mine, incomplete: this.bus.store.unavailable((e as Error).message).message };
    }
  }

  async get(id: string): Promise<SessionInfo | undefined> {
    const mine = this.registry.get(id);
    const copies = mine ? [this.tag(mine)] : [];
    try {
      copies.push(...(await this.copiesOf(id, [this.bus.replica])));
      if (copies.length > 0) return (await this.withHistory([mergeSession(copies)]))[0];
    } catch {
      // Redis away: only this replica's sessions can be seen
    }
    return copies.length > 0 ? mergeSession(copies) : undefined;
  }

  /**
   * Rows with what replicas that let go of their copy (idle there, or stopped) had counted: a session's counts and
   * replicas cover every replica it went through while it lives somewhere.
   */
  private async withHistory(rows: SessionInfo[]): Promise<SessionInfo[]> {
    const kept = rows.filter((r) => !isCaller(r.id));
    if (kept.length === 0) return rows;
    const p = this.bus.store.client.pipeline();
    for (const r of kept) p.hgetall(this.historyOf(r.id));
    const found = new Map(((await p.exec()) ?? []).map(([, h], i) => [kept[i]?.id, h as Record<string, string>]));
    return rows.map((r) => withGone(r, found.get(r.id)));
  }

  /** The copies of a session held by the live replicas other than `except`, as they last wrote them to Redis. */
  private async copiesOf(id: string, except: string[]): Promise<SessionInfo[]> {
    const replicas = (await this.bus.replicas()).filter((r) => !except.includes(r));
    if (replicas.length === 0) return [];
    const p = this.bus.store.client.pipeline();
    for (const r of replicas) p.hget(this.hashOf(r), id);
    return ((await p.exec()) ?? []).flatMap(([, text]) => (typeof text === "string" ? [JSON.parse(text) as SessionInfo] : []));
  }

  /** A session's event as the merged row: `from`'s copy as the event says, the others' as held here or in Redis. */
  private async merged(name: (typeof EVENTS)[number], copy: SessionInfo, from: string): Promise<[string, SessionInfo]> {
    const copies = name === "closed" ? [] : [copy];
    try {
      if (from !== this.bus.replica) {
        const mine = this.registry.get(copy.id);
        if (mine) copies.push(this.tag(mine));
      }
      copies.push(...(await this.copiesOf(copy.id, [from, this.bus.replica])));
    } catch {
      return [`session.${name}`, copy];
    }
    if (copies.length === 0) return ["session.closed", copy];
    const merged = (await this.withHistory([mergeSession(copies)]).catch(() => [mergeSession(copies)]))[0] as SessionInfo;
    return [name === "opened" && copies.length === 1 ? "session.opened" : "session.updated", merged];
  }

  suspend(id: string, o: { mode?: SuspendMode; reason?: string; by?: string }): Promise<ControlResult> {
    return this.control({ action: "suspend", id, o });
  }

  resume(id: string, o: { by?: string }): Promise<ControlResult> {
    return this.control({ action: "resume", id, o });
  }

  kill(id: string, reason?: string, by?: string): Promise<ControlResult> {
    return this.control({ action: "kill", id, reason, by });
  }

  /**
   * Takes this replica's entries out of Redis (guardwire is stopping: its sessions are let go of, and other replicas
   * may go on with them), keeping what they counted with each session.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    for (const stop of this.stops) stop();
    const m = this.bus.store.client.multi().del(this.hashOf(this.bus.replica));
    for (const s of this.registry.list()) this.keepCounts(m, this.tag(s));
    await m.exec().catch(() => undefined);
  }

  /**
   * Acts here, then asks every other replica to act on its copy; the answer is the merged row of the copies acted on
   * (404 when none).
   * A kill is marked in Redis first, so a replica about to restore the session from its token refuses to.
   */
  private async control(a: Action): Promise<ControlResult> {
    const store = this.bus.store;
    let problem: string | undefined;
    if (a.action === "kill") await store.client.set(killedKey(store, a.id), "1", "PX", this.opts.killedMs).catch((e: Error) => (problem = e.message));
    const results = [this.here(a)];
    try {
      const replies = await this.bus.request("session.control", a);
      results.push(...replies.answers.flatMap((x) => (x.body ? [x.body as ControlResult] : [])));
      if (replies.missing > 0) problem ??= `${replies.missing} replica(s) did not answer`;
    } catch (e) {
      problem ??= (e as Error).message;
    }
    const found = results.flatMap((r) => (r.ok ? [r.session] : []));
    if (found.length > 0) return { ok: true, session: (await this.withHistory([mergeSession(found)]).catch(() => [mergeSession(found)]))[0] as SessionInfo };
    if (problem) return { ok: false, code: "UNAVAILABLE", message: `no live session ${a.id} here, and the other replicas could not all be asked: ${store.unavailable(problem).message}` };
    return { ok: false, code: "NOT_FOUND", message: `no live session ${a.id} on any replica` };
  }

  /** The action on this replica's copy. */
  private here(a: Action): ControlResult {
    const r = a.action === "suspend" ? this.registry.suspend(a.id, a.o) : a.action === "resume" ? this.registry.resume(a.id, a.o) : this.registry.kill(a.id, a.reason, a.by);
    return r.ok ? { ok: true, session: this.tag(r.session) } : r;
  }

  private async others(): Promise<string[][]> {
    const replicas = (await this.bus.replicas()).filter((r) => r !== this.bus.replica);
    if (replicas.length === 0) return [];
    const p = this.bus.store.client.pipeline();
    for (const r of replicas) p.hvals(this.hashOf(r));
    return ((await p.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      return v as string[];
    });
  }

  private soon(): void {
    if (this.pending) return;
    const wait = Math.max(0, this.last + this.opts.gapMs - Date.now());
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.flush();
    }, wait).unref();
  }

  /**
   * This replica's whole list, replaced in one transaction, sent without waiting; the events it reflects are told to
   * the other replicas once it is written, so a row they read on an event is the one the event describes.
   */
  private flush(): void {
    this.last = Date.now();
    const hash = this.hashOf(this.bus.replica);
    const m = this.bus.store.client.multi().del(hash);
    const sessions = this.registry.list();
    if (sessions.length > 0) m.hset(hash, Object.fromEntries(sessions.map((s) => [s.id, JSON.stringify(this.tag(s))]))).pexpire(hash, this.opts.ttlMs);
    const told = this.outbox.splice(0);
    const tell = () => {
      for (const [event, session] of told) this.bus.emit(event, { session });
    };
    m.exec().then(tell, tell);
  }

  private tag(s: SessionInfo): SessionInfo {
    return { ...s, replicas: [this.bus.replica] };
  }

  private hashOf(replica: string): string {
    return this.bus.store.key("ops", "sessions", replica);
  }

  private keep(s: SessionInfo): void {
    const m = this.bus.store.client.multi();
    this.keepCounts(m, s);
    m.exec().catch(() => undefined);
  }

  /** Adds what this replica's copy of a session counted to the session's record of copies let go of. */
  private keepCounts(m: ChainableCommander, s: SessionInfo): void {
    if (isCaller(s.id)) return;
    const h = this.historyOf(s.id);
    const r = this.bus.replica;
    // Per replica, so a reader that sees this copy both still listed and already let go of counts it once.
    m.hincrby(h, `outbound:${r}`, s.messages.outbound).hincrby(h, `inbound:${r}`, s.messages.inbound).hincrby(h, `denies:${r}`, s.denies);
    m.hsetnx(h, `started:${r}`, s.started).hset(h, `last:${r}`, s.lastActivity).pexpire(h, this.opts.killedMs);
  }

  /** What the copies of a session that were let go of had counted, and on which replicas. */
  private historyOf(id: string): string {
    return this.bus.store.key("ops", "session", id, "gone");
  }
}

/** One row per session: the copies of each (one per replica holding it) merged, in the order first seen. */
export function mergeSessions(copies: SessionInfo[]): SessionInfo[] {
  const byId = new Map<string, SessionInfo[]>();
  for (const c of copies) {
    const list = byId.get(c.id);
    if (list) list.push(c);
    else byId.set(c.id, [c]);
  }
  return [...byId.values()].map(mergeSession);
}

/**
 * The copies of one session held by several replicas, as one: counts summed, the earliest start and the latest
 * activity, the client and server where known, suspended if any copy is, and every replica holding it (sorted).
 */
export function mergeSession(copies: SessionInfo[]): SessionInfo {
  const [first, ...rest] = copies as [SessionInfo, ...SessionInfo[]];
  if (rest.length === 0) return first;
  const all = [first, ...rest];
  const suspended = all.find((c) => c.state === "suspended");
  const merged: SessionInfo = {
    ...first,
    replicas: [...new Set(all.flatMap((c) => c.replicas ?? []))].sort(),
    client: all.find((c) => c.client !== null)?.client ?? null,
    server: all.find((c) => c.server !== null)?.server ?? null,
    started: all.map((c) => c.started).sort()[0] as string,
    lastActivity: all.map((c) => c.lastActivity).sort().at(-1) as string,
    messages: { outbound: sum(all, (c) => c.messages.outbound), inbound: sum(all, (c) => c.messages.inbound) },
    denies: sum(all, (c) => c.denies),
    held: sum(all, (c) => c.held),
    state: suspended ? "suspended" : "active",
  };
  if (suspended?.suspend) merged.suspend = suspended.suspend;
  else delete merged.suspend;
  return merged;
}

const sum = (all: SessionInfo[], f: (c: SessionInfo) => number) => all.reduce((n, c) => n + f(c), 0);

/** An A2A or stateless caller's entry: each is a caller's exchanges, counted afresh once its entry is gone. */
const isCaller = (id: string) => id.startsWith("a2a:") || id.startsWith("stateless:");

/**
 * A row with the counts and replicas of the copies let go of (`gone`, as written at their close, per replica). A
 * replica whose copy the row already holds is not counted again from `gone`: reads of the lists and of `gone` are not
 * one snapshot, so a copy may show in both (a kill's answer, a listing made while a replica lets go). A replica that
 * held the session, let go of it and holds it again shows its new copy's counts until it lets go again.
 */
function withGone(row: SessionInfo, gone: Record<string, string> | undefined): SessionInfo {
  if (!gone || Object.keys(gone).length === 0) return row;
  const live = new Set(row.replicas ?? []);
  const replicas = new Set(live);
  let { started, lastActivity } = row;
  const sum = { outbound: 0, inbound: 0, denies: 0 };
  for (const [k, v] of Object.entries(gone)) {
    const at = k.indexOf(":");
    if (at < 0) continue;
    const field = k.slice(0, at);
    const replica = k.slice(at + 1);
    replicas.add(replica);
    if (field === "started" && v < started) started = v;
    else if (field === "last" && v > lastActivity) lastActivity = v;
    else if ((field === "outbound" || field === "inbound" || field === "denies") && !live.has(replica)) sum[field] += Number(v) || 0;
  }
  return {
    ...row,
    replicas: [...replicas].sort(),
    started,
    lastActivity,
    messages: { outbound: row.messages.outbound + sum.outbound, inbound: row.messages.inbound + sum.inbound },
    denies: row.denies + sum.denies,
  };
}
