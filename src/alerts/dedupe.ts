import type { AlertEvent } from "./event.js";

/**
 * Decides whether an alert is posted or held back as a repeat. Synchronous in memory, so raising stays constant time;
 * the one shared across replicas (src/alerts/shared-deduper.ts) answers from a local cache when it can, else asks Redis.
 */
export interface AlertDeduper {
  /** null: a repeat within the window, held back. A number: post it, saying how many repeats were held back before it. */
  admit(key: string, now: number): number | null | Promise<number | null>;
}

/** Same alerting rules, session, reason codes and decision: the same alert. */
export function dedupeKey(e: AlertEvent): string {
  return `${e.rules.join(",")}\u0000${e.session}\u0000${e.reasonCode.join(",")}\u0000${e.decision}`;
}

/** In memory, one window per key from its first alert, at most `maxKeys` keys (the oldest forgotten first). */
export class WindowDeduper implements AlertDeduper {
  private readonly seen = new Map<string, { until: number; held: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  admit(key: string, now: number): number | null {
    const s = this.seen.get(key);
    if (s && now < s.until) {
      s.held++;
      return null;
    }
    this.seen.delete(key);
    if (this.seen.size >= this.maxKeys) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(key, { until: now + this.windowMs, held: 0 });
    return s?.held ?? 0;
  }
}
