import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { ErrorCode } from "../protocol/json-rpc.js";

export interface StoreOptions {
  /** redis:// or rediss:// URL. */
  redis: string;
  /** Every key starts with this. */
  keyPrefix: string;
  /** While Redis cannot be reached: refuse judged messages (`closed`) or judge with this replica's memory (`local`). */
  onUnavailable: "closed" | "local";
  /** A command slower than this fails (counts as unavailable). */
  timeoutMs: number;
  /** How often the link is checked while up (default PROBE_MS; not in the config: tests that count commands set it). */
  probeMs?: number;
}

/** `unresponsive`: connected, but Redis does not answer within `timeoutMs` (frozen, or stalled). */
export type StoreState = "connecting" | "up" | "unresponsive" | "down";

export interface StoreStatus {
  backend: "redis";
  state: StoreState;
  /** Where, with any password left out. */
  url: string;
  since: string;
  lastError?: string;
  reconnects: number;
  /** How often this replica found guardwire's data in Redis lost (restarted empty, flushed) while it was running. */
  resets: number;
  /** The last loss of guardwire's data this replica knows of (also one found at its start). */
  lastReset?: { at: string; cause: string };
  /** While limit rules are held closed after that loss: until when (the longest hold of the rules in force). */
  limitsHeldUntil?: string;
}

/** What a check of the store's epoch marker found, besides nothing new. */
export type StoreDataEvent =
  /** guardwire's data in Redis was lost at `at` (this machine's clock); `atStart`: found at this replica's first look. */
  | { kind: "lost"; at: number; cause: string; atStart: boolean }
  /** Redis is another server, or restarted, and guardwire's data is there (failover, persistence): nothing was lost. */
  | { kind: "kept"; cause: string };

/** How often the link is checked while up: an epoch check with the command deadline (a frozen Redis, a FLUSHALL). */
export const PROBE_MS = 1000;

/**
 * The epoch marker (KEYS[1], a hash {id, resetAt}): written by the first guardwire to find Redis without it, and read
 * by every replica on each connection and every PROBE_MS. ARGV[1] is the id this replica knows ('' at its first
 * look), ARGV[2] a fresh one. Missing while this replica knew one: the data was lost (restart without persistence,
 * FLUSHALL), and the new marker says when (`resetAt`, Redis's clock), so replicas that find it later hold their limits
 * from the same moment. Missing at a first look: a new store, nothing lost. Another id with `resetAt` 0 (a replica
 * started after the loss took the store for new): this replica knew the old one, so it records the loss.
 */
const EPOCH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = redis.call('HGET', KEYS[1], 'id')
local resetAt = 0
local found = 'seen'
if not id then
  id = ARGV[2]
  if ARGV[1] ~= '' then resetAt = now; found = 'lost' else found = 'new' end
  redis.call('HSET', KEYS[1], 'id', id, 'resetAt', resetAt)
else
  resetAt = tonumber(redis.call('HGET', KEYS[1], 'resetAt')) or 0
  if ARGV[1] ~= '' and id ~= ARGV[1] and resetAt == 0 then
    resetAt = now
    found = 'lost'
    redis.call('HSET', KEYS[1], 'resetAt', resetAt)
  end
end
return {id, tostring(resetAt), tostring(now), found}`;

type EpochClient = Redis & { gwEpoch(key: string, known: string, fresh: string): Promise<[string, string, string, "new" | "seen" | "lost"]> };

/** Backoff between reconnection attempts: 50 ms doubling to 2 s, with a little jitter so replicas do not move in step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(2000, 50 * 2 ** Math.min(attempt - 1, 6));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * guardwire's link to Redis (docs/scale.md): one connection for commands (pipelined, no offline queue, so a command
 * while Redis is away fails at once instead of piling up in memory) and, on first use, one for subscriptions. Its
 * state (`connecting`, `up`, `unresponsive`, `down`) is what /healthz, /readyz and /metrics report and what
 * fail-closed decisions name. A command that times out makes it `unresponsive`: the connection, and what was sent on
 * it, is dropped and opened again until Redis answers. An epoch marker tells a store that lost guardwire's data
 * (restarted empty, flushed) from one that kept it (`onData`).
 */
export class SharedStore {
  readonly client: Redis;
  readonly prefix: string;
  readonly onUnavailable: "closed" | "local";
  private sub: Redis | null = null;
  private status: StoreStatus;
  private readonly listeners = new Set<(s: StoreStatus) => void>();
  private readonly dataListeners = new Set<(e: StoreDataEvent) => void>();
  /** The last loss found, told to listeners that come later (one registered after the first check). */
  private lastLoss: StoreDataEvent | null = null;
  private closed = false;
  /** A command timed out: the link stays `unresponsive` through reconnection attempts that time out too. */
  private frozen = false;
  /** The epoch marker as this replica knows it; undefined before its first look. */
  private epoch: { id: string; resetAt: number } | undefined;
  /** The marker was checked on the present connection. */
  private checkedNow = false;
  private checking: Promise<void> | null = null;
  /** Redis's run_id: the last one read, whether the present connection has read it, and the one of the last check. */
  private runId: string | undefined;
  private runIdRead = false;
  private runIdChecked: string | undefined;
  private readonly probe: NodeJS.Timeout;
  /** Counts reads from Redis on the command connection. */
  private heard = 0;

  constructor(private readonly opts: StoreOptions) {
    this.prefix = opts.keyPrefix;
    this.onUnavailable = opts.onUnavailable;
    this.status = { backend: "redis", state: "connecting", url: redactUrl(opts.redis), since: new Date().toISOString(), reconnects: 0, resets: 0 };
    this.client = this.connect("commands");
    this.client.defineCommand("gwEpoch", { numberOfKeys: 1, lua: EPOCH });
    this.probe = setInterval(() => {
      if (this.client.status === "ready" && !this.checking) this.check().catch(() => undefined);
    }, opts.probeMs ?? PROBE_MS);
    this.probe.unref();
  }

  /** A new connection with guardwire's settings; `role` names it in Redis (CLIENT LIST). */
  private connect(role: string): Redis {
    const r = new Redis(this.opts.redis, {
      connectionName: `guardwire-${role}`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: this.opts.timeoutMs,
      connectTimeout: Math.max(1000, this.opts.timeoutMs * 4),
      retryStrategy: (times) => (this.closed ? null : reconnectDelay(times)),
      // Commands never wait for a reconnection: the caller decides (fail closed or local).
      autoResendUnfulfilledCommands: false,
      // `listen` subscribes again on every ready; ioredis's own resubscription, sent without an offline queue as the
      // link comes and goes, could fail with nobody to catch it (an unhandled rejection).
      autoResubscribe: false,
    });
    if (role === "commands") {
      // A command Redis does not answer in time, whoever sent it, makes the link unresponsive at once (the periodic
      // check finds a freeze when nothing else is sent).
      const send = r.sendCommand.bind(r);
      r.sendCommand = ((command: Parameters<Redis["sendCommand"]>[0], stream?: Parameters<Redis["sendCommand"]>[1]) => {
        const answer = send(command, stream);
        // ioredis returns the command's promise (typed unknown).
        if (answer instanceof Promise) answer.catch((e: unknown) => this.failed(e));
        return answer;
      }) as Redis["sendCommand"];
      // Anything read from Redis: a timeout is not a freeze when an answer was waiting (a stalled event loop here).
      r.on("connect", () => r.stream.on("data", () => this.heard++));
      r.on("ready", () => {
        this.frozen = false;
        this.runIdRead = false;
        this.set("up");
        this.check().catch(() => undefined);
      });
      r.on("error", (e: Error) => {
        // A connection opened to a frozen Redis times out in its ready check (or, its backlog full, in connecting):
        // unresponsive, not down.
        if (timedOut(e) || (this.frozen && /ETIMEDOUT/.test(e.message))) return this.unresponsive();
        this.frozen = false;
        this.set("down", e.message);
      });
      r.on("close", () => {
        this.checkedNow = false;
        if (!this.frozen) this.set("down");
      });
      r.on("reconnecting", () => {
        this.status.reconnects++;
      });
    } else {
      r.on("error", () => {
        // reported through the command connection's state
      });
    }
    return r;
  }

  /** The connection for SUBSCRIBE (a subscribed connection can run nothing else); opened on first use. */
  subscriber(): Redis {
    this.sub ??= this.connect("subscriber");
    return this.sub;
  }

  /**
   * Messages published on `channel`. The subscriber has no offline queue (and ioredis's own resubscription is off), so
   * the subscription is asked for whenever its connection is (again) ready; `subscribed` runs after each, for a caller
   * to catch up on what it missed.
   */
  listen(channel: string, onMessage: (text: string) => void, subscribed?: () => Promise<unknown>): void {
    const sub = this.subscriber();
    sub.on("message", (c: string, text: string) => {
      if (c === channel) onMessage(text);
    });
    const subscribe = () =>
      void sub
        .subscribe(channel)
        .then(() => subscribed?.())
        .catch(() => {
          // asked again when the connection is next ready
        });
    sub.on("ready", subscribe);
    if (sub.status === "ready") subscribe();
  }

  /** A key in guardwire's namespace: the prefix and the parts joined with `:`. */
  key(...parts: string[]): string {
    return this.prefix + parts.join(":");
  }

  get up(): boolean {
    return this.status.state === "up";
  }

  /** Up, and the epoch marker checked on this connection (a loss of data, if any, is known). */
  get checked(): boolean {
    return this.up && this.checkedNow;
  }

  /** The epoch marker's id this replica knows ('' before its first look): scripts compare it to find a loss at once. */
  get epochId(): string {
    return this.epoch?.id ?? "";
  }

  /** Called on every loss of guardwire's data found (at once with the last one, if any), and every restart or failover that kept it. */
  onData(listener: (e: StoreDataEvent) => void): () => void {
    this.dataListeners.add(listener);
    if (this.lastLoss) listener(this.lastLoss);
    return () => this.dataListeners.delete(listener);
  }

  /**
   * Reads Redis's run_id (once per connection) and checks the epoch marker; what it finds goes to `onData`. One check
   * at a time; callers at once share it. A timeout makes the link `unresponsive`.
   */
  check(): Promise<void> {
    this.checking ??= this.runCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  private async runCheck(): Promise<void> {
    const client = this.client as EpochClient;
    if (!this.runIdRead) {
      // A hint only (a failover changes it and keeps the data): the marker says whether data was lost.
      const info = await client.info("server").catch((e: Error) => {
        if (timedOut(e)) throw e;
        return ""; // INFO not allowed for this user: no hint
      });
      this.runId = /^run_id:(\w+)/m.exec(info)?.[1] ?? this.runId;
      this.runIdRead = true;
    }
    const before = this.runIdChecked;
    const restarted = before !== undefined && this.runId !== before ? `run_id ${short(before)} → ${short(this.runId)}` : null;
    const known = this.epoch;
    const [id, resetText, nowText, found] = await client.gwEpoch(this.key("epoch"), known?.id ?? "", randomBytes(9).toString("base64url"));
    const resetAt = Number(resetText);
    // Redis's clock, read in the same script, turns the loss's time into this machine's.
    const at = Date.now() - (Number(nowText) - resetAt);
    this.epoch = { id, resetAt };
    this.runIdChecked = this.runId;
    this.checkedNow = true;
    if (found === "lost") {
      const cause = restarted ? `Redis restarted empty (${restarted})` : "guardwire's keys in Redis were deleted without a restart (FLUSHALL, FLUSHDB or by hand)";
      this.lost(at, cause, false);
    } else if (resetAt > 0 && resetAt !== known?.resetAt) {
      const cause = known ? "another replica found guardwire's data in Redis lost" : "guardwire's data in Redis was lost before this replica started";
      this.lost(at, `${cause} at ${new Date(at).toISOString()}${restarted ? ` (${restarted})` : ""}`, known === undefined);
    } else if (restarted && known?.id === id) {
      this.emit({ kind: "kept", cause: `Redis restarted or failed over (${restarted}) with guardwire's data intact: nothing was lost` });
    }
  }

  private lost(at: number, cause: string, atStart: boolean): void {
    if (!atStart) this.status.resets++;
    this.status.lastReset = { at: new Date(at).toISOString(), cause };
    this.lastLoss = { kind: "lost", at, cause, atStart };
    this.emit(this.lastLoss);
  }

  private emit(e: StoreDataEvent): void {
    for (const l of this.dataListeners) l(e);
  }

  /**
   * What a failed command says about the link (every command's failure comes here): a timeout makes it
   * `unresponsive` (the reason fail-closed answers give is then "not answering within N ms"); other failures are
   * reported by the connection's own events.
   */
  private failed(e: unknown): void {
    if (!(e instanceof Error && timedOut(e))) return;
    // Decided after the socket's pending input is read (setImmediate runs after I/O): when this process was too busy
    // to read an answer that had arrived, Redis is not the one stalled.
    const heard = this.heard;
    setImmediate(() => {
      if (this.heard === heard) this.unresponsive();
    });
  }

  /** Redis does not answer in time: the connection and what waits on it are dropped, and it is opened again (backoff). */
  private unresponsive(): void {
    if (this.closed) return;
    this.set("unresponsive", `not answering within ${this.opts.timeoutMs} ms`);
    if (this.frozen) return;
    this.frozen = true;
    this.checkedNow = false;
    this.client.disconnect(true);
  }

  get state(): StoreStatus {
    return { ...this.status };
  }

  /** Called on every change of state (and once at once with the present one). */
  onState(listener: (s: StoreStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  /**
   * The JSON-RPC error a message gets when it needs shared state that cannot be reached (fail closed). While the link
   * is not up, the reason is its state's (`not answering within 500 ms`, `connect ECONNREFUSED …`); `detail` is for
   * a link that is up.
   */
  unavailable(detail?: string): { code: number; message: string; data: Record<string, unknown> } {
    const stalled = `not answering within ${this.opts.timeoutMs} ms`;
    const why = this.status.state === "up" ? (detail === "Command timed out" ? stalled : (detail ?? "up")) : (this.status.lastError ?? this.status.state);
    return {
      code: ErrorCode.GuardianUnavailable,
      message: `guardwire's shared state store (Redis) is unavailable: ${why}`,
      data: { store: "redis", state: this.status.state, url: this.status.url, error: why },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    const quit = async (r: Redis) => {
      try {
        if (r.status === "ready") await r.quit();
        else r.disconnect();
      } catch {
        r.disconnect();
      }
    };
    await Promise.all([quit(this.client), ...(this.sub ? [quit(this.sub)] : [])]);
  }

  private set(state: StoreState, error?: string): void {
    if (error !== undefined) this.status.lastError = error;
    if (state === this.status.state) return;
    this.status = { ...this.status, state, since: new Date().toISOString() };
    if (state === "up") delete this.status.lastError;
    for (const l of this.listeners) l(this.state);
  }
}

/** A command, or a connection's ready check, that Redis did not answer in time (ioredis's commandTimeout). */
function timedOut(e: Error): boolean {
  return e.message.includes("Command timed out");
}

/** The first 8 characters of a run_id (enough to tell two apart in a log line). */
function short(id: string | undefined): string {
  return (id ?? "?").slice(0, 8);
}

/** A Redis URL with its password, if any, replaced by `***` (for logs, /healthz and errors). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "redis://(unparsable)";
  }
}
