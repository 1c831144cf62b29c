import { createHash } from "node:crypto";
import type { AlertDeduper } from "./dedupe.js";
import type { SharedStore } from "../store/redis.js";

/**
 * Alert de-duplication across replicas (docs/scale.md): the first replica to raise an alert in a window takes the
 * window in Redis (SET NX PX) and posts it; the others hold it back. Each replica remembers a window it knows of until
 * it ends, so repeats cost no round trip. Redis unreachable: the alert is posted (a lost alert is worse than a second
 * copy) and this replica's own window applies, as without a store.
 */
export class SharedDeduper implements AlertDeduper {
  private readonly seen = new Map<string, { until: number; held: number }>();
  private readonly asking = new Map<string, Promise<number | null>>();

  constructor(
    private readonly store: SharedStore,
    private readonly replica: string,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  admit(key: string, now: number): number | null | Promise<number | null> {
    const s = this.seen.get(key);
    if (s && now < s.until) {
      s.held++;
      return null;
    }
    const asking = this.asking.get(key);
    if (asking) return asking.then(() => this.repeat(key));
    const ask = this.ask(key, now, s?.held ?? 0).finally(() => this.asking.delete(key));
    this.asking.set(key, ask);
    return ask;
  }

  private async ask(key: string, now: number, heldBefore: number): Promise<number | null> {
    const k = this.store.key("alert", createHash("sha256").update(key).digest("hex").slice(0, 32));
    let first = true;
    let left = this.windowMs;
    try {
      const r = await this.store.client.multi().set(k, this.replica, "PX", this.windowMs, "NX").pttl(k).exec();
      first = r?.[0]?.[1] === "OK";
      const pttl = r?.[1]?.[1];
      if (!first && typeof pttl === "number" && pttl > 0) left = pttl;
    } catch {
      // Redis away: posted, with this replica's own window
    }
    this.remember(key, now + left, first ? 0 : 1);
    return first ? heldBefore : null;
  }

  /** Raised again while this replica was asking Redis about the same alert. */
  private repeat(key: string): null {
    const s = this.seen.get(key);
    if (s) s.held++;
    return null;
  }

  private remember(key: string, until: number, held: number): void {
    this.seen.delete(key);
    if (this.seen.size >= this.maxKeys) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(key, { until, held });
  }
}
