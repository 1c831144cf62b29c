import type { ControlResult, SessionDesk, SessionInfo, SessionRegistry, SuspendMode } from "../control/registry.js";
import type { OpsBus } from "./ops-bus.js";
import type { SharedStore } from "./redis.js";

/** A killed session stays killed this long: no replica continues it from its token (docs/scale.md). */
export const KILLED_MS = 24 * 3_600_000;

/** The mark of a killed session, checked before a replica restores a session from its token. */
export function killedKey(store: SharedStore, session: string): string {
  return store.key("session", session, "killed");
}

export interface SharedSessionsOptions {
  /** Every replica rewrites its sessions' entries this often (default 5 s); they expire after `ttlMs` (default 15 s). */
  refreshMs?: number;
  ttlMs?: number;
  /** A session opened, updated or closed is written within this (default 500 ms), never more often. */
  gapMs?: number;
}

type Action = { action: "suspend"; id: string; o: { mode?: SuspendMode; reason?: string; by?: string } } | { action: "resume"; id: string; o: { by?: string } } | { action: "kill"; id: string; reason?: string; by?: string };

const EVENTS = ["opened", "updated", "closed"] as const;

/**
 * The live sessions of every replica (docs/scale.md). Each replica keeps its own list in a Redis hash, rewritten every
 * few seconds and soon after a session opens, changes or closes (never per message), with a TTL, so a replica that
 * died drops out. Listing reads every live replica's hash; suspend, resume and kill go to every replica over the
 * operator channel, and each acts on the copy it holds. A kill is also marked in Redis for a day.
 */
export class SharedSessions implements SessionDesk {
  private readonly timer: NodeJS.Timeout;
  private pending: NodeJS.Timeout | undefined;
  private last = 0;
  private readonly opts: Required<SharedSessionsOptions>;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly bus: OpsBus,
    private readonly registry: SessionRegistry,
    opts: SharedSessionsOptions = {},
  ) {
    this.opts = { refreshMs: 5000, ttlMs: 15_000, gapMs: 500, ...opts };
    for (const name of EVENTS) {
      const f = (session: SessionInfo) => {
        this.soon();
        bus.emit(`session.${name}`, { session: this.tag(session) });
      };
      registry.on(name, f);
      this.stops.push(() => registry.off(name, f));
    }
    bus.handle("session.control", (body) => this.here(body as Action));
    this.timer = setInterval(() => this.flush(), this.opts.refreshMs).unref();
  }

  /** Sessions opened, changed and closed on other replicas (for the event stream). */
  events(emit: (event: string, data: unknown) => void): () => void {
    const offs = EVENTS.map((name) => this.bus.on(`session.${name}`, (b) => emit(`session.${name}`, b)));
    return () => offs.forEach((off) => off());
  }

  async list(): Promise<{ sessions: SessionInfo[]; incomplete?: string }> {
    const mine = this.registry.list().map((s) => this.tag(s));
    try {
      const others = await this.others();
      return { sessions: [...mine, ...others.flatMap((texts) => texts.map((t) => JSON.parse(t) as SessionInfo))] };
    } catch (e) {
      return { sessions: mine, incomplete: this.bus.store.unavailable((e as Error).message).message };
    }
  }

  async get(id: string): Promise<SessionInfo | undefined> {
    const mine = this.registry.get(id);
    if (mine) return this.tag(mine);
    try {
      const replicas = (await this.bus.replicas()).filter((r) => r !== this.bus.replica);
      const p = this.bus.store.client.pipeline();
      for (const r of replicas) p.hget(this.hashOf(r), id);
      for (const [, text] of (await p.exec()) ?? []) if (typeof text === "string") return JSON.parse(text) as SessionInfo;
    } catch {
      // Redis away: only this replica's sessions can be seen
    }
    return undefined;
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

  /** Takes this replica's entries out of Redis (guardwire is stopping). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    for (const stop of this.stops) stop();
    await this.bus.store.client.del(this.hashOf(this.bus.replica)).catch(() => undefined);
  }

  /**
   * Acts here, then asks every other replica to act on its copy; the answer is the first copy found (404 when none).
   * A kill is marked in Redis first, so a replica about to restore the session from its token refuses to.
   */
  private async control(a: Action): Promise<ControlResult> {
    const store = this.bus.store;
    let problem: string | undefined;
    if (a.action === "kill") await store.client.set(killedKey(store, a.id), "1", "PX", KILLED_MS).catch((e: Error) => (problem = e.message));
    const results = [this.here(a)];
    try {
      const replies = await this.bus.request("session.control", a);
      results.push(...replies.answers.flatMap((x) => (x.body ? [x.body as ControlResult] : [])));
      if (replies.missing > 0) problem ??= `${replies.missing} replica(s) did not answer`;
    } catch (e) {
      problem ??= (e as Error).message;
    }
    const found = results.find((r) => r.ok);
    if (found) return found;
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

  /** This replica's whole list, replaced in one transaction, sent without waiting. */
  private flush(): void {
    this.last = Date.now();
    const hash = this.hashOf(this.bus.replica);
    const m = this.bus.store.client.multi().del(hash);
    const sessions = this.registry.list();
    if (sessions.length > 0) m.hset(hash, Object.fromEntries(sessions.map((s) => [s.id, JSON.stringify(this.tag(s))]))).pexpire(hash, this.opts.ttlMs);
    m.exec().catch(() => undefined);
  }

  private tag(s: SessionInfo): SessionInfo {
    return { ...s, replica: this.bus.replica };
  }

  private hashOf(replica: string): string {
    return this.bus.store.key("ops", "sessions", replica);
  }
}
