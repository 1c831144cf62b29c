import type { SharedStore } from "./redis.js";

/** How long a looked-up address is reused before it is read again (a gone replica is found by its refused connection). */
const CACHE_MS = 2000;

/**
 * The replicas alive now, in Redis (docs/scale.md): each writes `replica:<id>` = its advertised URL with a TTL, and
 * renews it (the heartbeat) three times per TTL. A replica that stops renewing is gone once the key expires.
 */
export class ReplicaRegistry {
  private timer: NodeJS.Timeout | null = null;
  private stopWatching: (() => void) | null = null;
  private advertised: string | null = null;
  private readonly cache = new Map<string, { url: string | null; at: number }>();

  /** `ttlMs`: a replica whose heartbeat is older than this is gone. */
  constructor(
    private readonly store: SharedStore,
    readonly id: string,
    private readonly ttlMs = 10_000,
  ) {}

  /** Starts the heartbeat once this replica listens: other replicas reach it at `url`. */
  announce(url: string): void {
    this.advertised = url;
    // At once, and again whenever Redis comes (back) up: a beat missed while it was away is not waited for.
    this.stopWatching = this.store.onState((s) => s.state === "up" && this.beat());
    this.timer = setInterval(() => this.beat(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /** The URL replica `id` is reached at, or null when it is gone (no heartbeat). Rejects when Redis cannot tell. */
  async urlOf(id: string): Promise<string | null> {
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.url;
    const url = await this.store.client.get(this.store.key("replica", id));
    if (this.cache.size > 1024) this.cache.clear();
    this.cache.set(id, { url, at: Date.now() });
    return url;
  }

  /** A replica's connection was refused: read its address again next time. */
  forget(id: string): void {
    this.cache.delete(id);
  }

  /** Stops the heartbeat and removes this replica at once (a graceful stop), rather than waiting for the TTL. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopWatching?.();
    if (this.advertised === null) return;
    try {
      await this.store.client.del(this.store.key("replica", this.id));
    } catch {
      // the key expires on its own
    }
  }

  private beat(): void {
    // Needs no answer: a missed beat is made good by the next (the TTL spans three).
    this.store.client.set(this.store.key("replica", this.id), this.advertised as string, "PX", this.ttlMs).catch(() => {});
  }
}

/** The URL a replica advertises: `replica.advertise`, else the address it listens on when that names one host. */
export function advertisedUrl(advertise: string | undefined, host: string, port: number): string | null {
  if (advertise) return advertise.replace(/\/$/, "");
  if (host === "0.0.0.0" || host === "::" || host === "") return null;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
