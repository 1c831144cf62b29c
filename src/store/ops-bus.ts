import { randomBytes } from "node:crypto";
import type { SharedStore } from "./redis.js";

/** What travels on the operator channel: events for consoles, and requests that replicas answer. */
type Wire =
  | { kind: "event"; from: string; type: string; body: unknown }
  | { kind: "req"; from: string; to?: string; rid: string; type: string; body: unknown }
  | { kind: "res"; from: string; to: string; rid: string; body: unknown };

export interface BusOptions {
  /** How often this replica says it is alive (default 5 s), and how long that lasts (default 15 s). */
  heartbeatMs?: number;
  aliveMs?: number;
  /** How long a request waits for the replicas' answers (default 3 s). */
  replyMs?: number;
}

export interface Replies {
  /** One answer per replica that answered, with its id. */
  answers: { replica: string; body: unknown }[];
  /** Replicas that received the request but did not answer in time (a count: Redis says how many received it). */
  missing: number;
}

interface Waiting {
  want: number;
  answers: Replies["answers"];
  done(): void;
}

/**
 * The operator side's link between replicas (docs/scale.md): one Redis pub/sub channel for events (an approval held,
 * a session opened) and for requests a replica answers (decide this approval you hold, kill this session), and a
 * heartbeat in a sorted set, so what a replica that died left behind is recognised as such and not shown.
 * Nothing here is on the path of a judged message: only operator actions and events use it.
 */
export class OpsBus {
  readonly channel: string;
  private readonly alive: string;
  private readonly opts: Required<BusOptions>;
  private readonly handlers = new Map<string, (body: unknown) => unknown>();
  private readonly listeners = new Map<string, Set<(body: unknown, from: string) => void>>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly subscribed = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly stopState: () => void;
  private closed = false;

  constructor(
    readonly store: SharedStore,
    readonly replica: string,
    opts: BusOptions = {},
  ) {
    this.opts = { heartbeatMs: 5000, aliveMs: 15_000, replyMs: 3000, ...opts };
    this.channel = store.key("ops", "bus");
    this.alive = store.key("ops", "replicas");
    store.listen(
      this.channel,
      (text) => this.receive(text),
      async () => {
        for (const l of this.subscribed) l();
      },
    );
    this.stopState = store.onState((s) => {
      if (s.state === "up") this.beat();
    });
    this.timer = setInterval(() => this.beat(), this.opts.heartbeatMs).unref();
  }

  /** Answers requests of `type` from other replicas (the answer goes back to the asker only; null where none is set). */
  handle(type: string, answer: (body: unknown) => unknown): void {
    this.handlers.set(type, answer);
  }

  /** Events of `type` from other replicas (never this one's own). */
  on(type: string, listener: (body: unknown, from: string) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Runs whenever the channel is (again) subscribed: what was published while this replica was not listening is lost,
   * so whoever must not miss a message catches up from Redis here.
   */
  onSubscribed(listener: () => void): () => void {
    this.subscribed.add(listener);
    return () => this.subscribed.delete(listener);
  }

  /** Tells the other replicas, without waiting (an event lost while Redis is away is not retried). */
  emit(type: string, body: unknown): void {
    this.publish({ kind: "event", from: this.replica, type, body }).catch(() => undefined);
  }

  /**
   * Asks the other replicas (or only `to`) and waits for every one that received the request to answer, at most
   * `replyMs`. Rejects when Redis cannot be reached.
   */
  async request(type: string, body: unknown, to?: string): Promise<Replies> {
    const rid = randomBytes(8).toString("hex");
    const answers: Replies["answers"] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const w: Waiting = { want: Infinity, answers, done };
    this.waiting.set(rid, w);
    try {
      const received = await this.publish({ kind: "req", from: this.replica, to, rid, type, body });
      // This replica's own subscriber receives it too, and ignores it.
      w.want = to ? Math.min(1, received - 1) : received - 1;
      if (answers.length < w.want) {
        const timer = setTimeout(done, this.opts.replyMs);
        await finished;
        clearTimeout(timer);
      }
      return { answers, missing: Math.max(0, w.want - answers.length) };
    } finally {
      this.waiting.delete(rid);
    }
  }

  /** The replicas whose heartbeat is recent (this one included while Redis can be reached). */
  async replicas(): Promise<string[]> {
    return this.store.client.zrangebyscore(this.alive, Date.now() - this.opts.aliveMs, "+inf");
  }

  /** Stops the heartbeat and takes this replica off the list at once (its entries are no longer shown). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.stopState();
    for (const w of this.waiting.values()) w.done();
    await this.store.client.zrem(this.alive, this.replica).catch(() => undefined);
  }

  private beat(): void {
    if (this.closed) return;
    const now = Date.now();
    this.store.client
      .multi()
      .zadd(this.alive, now, this.replica)
      .zremrangebyscore(this.alive, "-inf", now - this.opts.aliveMs * 4)
      .pexpire(this.alive, this.opts.aliveMs * 4)
      .exec()
      .catch(() => undefined);
  }

  private publish(w: Wire): Promise<number> {
    return this.store.client.publish(this.channel, JSON.stringify(w));
  }

  private receive(text: string): void {
    let w: Wire;
    try {
      w = JSON.parse(text) as Wire;
    } catch {
      return;
    }
    if (w.from === this.replica || this.closed) return;
    if (w.kind === "event") {
      for (const l of this.listeners.get(w.type) ?? []) l(w.body, w.from);
    } else if (w.kind === "req") {
      if (w.to !== undefined && w.to !== this.replica) return;
      // A replica without this part (no admin API, so no session registry) still answers, with null: no one waits.
      const answer = this.handlers.get(w.type) ?? (() => null);
      void Promise.resolve()
        .then(() => answer(w.body))
        .then((body) => this.publish({ kind: "res", from: this.replica, to: w.from, rid: w.rid, body }))
        .catch(() => undefined);
    } else if (w.to === this.replica) {
      const waiting = this.waiting.get(w.rid);
      if (!waiting) return;
      waiting.answers.push({ replica: w.from, body: w.body });
      if (waiting.answers.length >= waiting.want) waiting.done();
    }
  }
}
