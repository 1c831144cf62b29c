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
}

export type StoreState = "connecting" | "up" | "down";

export interface StoreStatus {
  backend: "redis";
  state: StoreState;
  /** Where, with any password left out. */
  url: string;
  since: string;
  lastError?: string;
  reconnects: number;
}

/** Backoff between reconnection attempts: 50 ms doubling to 2 s, with a little jitter so replicas do not move in step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(2000, 50 * 2 ** Math.min(attempt - 1, 6));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * guardwire's link to Redis (docs/scale.md): one connection for commands (pipelined, no offline queue, so a command
 * while Redis is away fails at once instead of piling up in memory) and, on first use, one for subscriptions. Its
 * state (`connecting`, `up`, `down`) is what /healthz, /readyz and /metrics report and what fail-closed decisions name.
 */
export class SharedStore {
  readonly client: Redis;
  readonly prefix: string;
  readonly onUnavailable: "closed" | "local";
  private sub: Redis | null = null;
  private status: StoreStatus;
  private readonly listeners = new Set<(s: StoreStatus) => void>();
  private closed = false;

  constructor(private readonly opts: StoreOptions) {
    this.prefix = opts.keyPrefix;
    this.onUnavailable = opts.onUnavailable;
    this.status = { backend: "redis", state: "connecting", url: redactUrl(opts.redis), since: new Date().toISOString(), reconnects: 0 };
    this.client = this.connect("commands");
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
      r.on("ready", () => this.set("up"));
      r.on("error", (e: Error) => this.set("down", e.message));
      r.on("close", () => this.set("down"));
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

  get state(): StoreStatus {
    return { ...this.status };
  }

  /** Called on every change of state (and once at once with the present one). */
  onState(listener: (s: StoreStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  /** The JSON-RPC error a message gets when it needs shared state that cannot be reached (fail closed). */
  unavailable(detail?: string): { code: number; message: string; data: Record<string, unknown> } {
    const why = detail ?? this.status.lastError ?? this.status.state;
    return {
      code: ErrorCode.GuardianUnavailable,
      message: `guardwire's shared state store (Redis) is unavailable: ${why}`,
      data: { store: "redis", state: this.status.state, url: this.status.url, error: why },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
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
