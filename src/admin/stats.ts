import type { DecisionInput } from "../decision-log/record.js";
import type { AdminRoute } from "./server.js";

const DECISIONS = ["allow", "deny", "modify", "ask"] as const;
type DecisionName = (typeof DECISIONS)[number];

/** Rule ids come from the rules and from remote guardians' answers: past this many, the rest are counted as OTHER. */
export const MAX_RULES = 500;
export const OTHER = "(other)";

interface Bucket {
  start: number;
  decisions: Record<DecisionName, number>;
  rules: Map<string, number>;
}

export interface StatsOptions {
  bucketMs?: number;
  /** How many buckets are kept (default 360 of 10 s: the last hour). */
  buckets?: number;
}

/**
 * Decisions over time, for the console's charts and the rules' fired counts: a ring of fixed buckets fed by the
 * DecisionFeed, so memory stays bounded however long guardwire runs. Lines about the log itself are not decisions.
 */
export class DecisionStats {
  readonly bucketMs: number;
  private readonly max: number;
  private ring: Bucket[] = [];
  private readonly fired = new Map<string, number>();
  private readonly totals: Record<DecisionName, number> = { allow: 0, deny: 0, modify: 0, ask: 0 };
  private readonly since = Date.now();

  constructor(opts: StatsOptions = {}) {
    this.bucketMs = opts.bucketMs ?? 10_000;
    this.max = opts.buckets ?? 360;
  }

  observe(d: DecisionInput, at: number): void {
    if (d.kind === "log" || !DECISIONS.includes(d.decision)) return;
    const b = this.bucketAt(at);
    b.decisions[d.decision]++;
    this.totals[d.decision]++;
    for (const rule of new Set(d.rules)) {
      count(b.rules, rule);
      count(this.fired, rule);
    }
  }

  /** How many decisions each rule fired in since start. */
  firedByRule(): ReadonlyMap<string, number> {
    return this.fired;
  }

  snapshot(now = Date.now()) {
    const oldest = now - this.bucketMs * this.max;
    return {
      now: new Date(now).toISOString(),
      since: new Date(this.since).toISOString(),
      bucketMs: this.bucketMs,
      totals: { ...this.totals },
      buckets: this.ring.filter((b) => b.start > oldest).map((b) => ({ t: new Date(b.start).toISOString(), decisions: { ...b.decisions }, rules: Object.fromEntries(b.rules) })),
    };
  }

  private bucketAt(at: number): Bucket {
    const start = at - (at % this.bucketMs);
    const last = this.ring[this.ring.length - 1];
    if (last && last.start >= start) return last;
    const b: Bucket = { start, decisions: { allow: 0, deny: 0, modify: 0, ask: 0 }, rules: new Map() };
    this.ring.push(b);
    if (this.ring.length > this.max) this.ring.shift();
    return b;
  }
}

function count(m: Map<string, number>, key: string): void {
  const k = m.has(key) || m.size < MAX_RULES ? key : OTHER;
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** `GET /api/stats`: decisions over time, by decision and by rule. */
export function statsRoutes(stats: DecisionStats): AdminRoute[] {
  return [{ method: "GET", pattern: /^\/api\/stats$/, doc: "GET /api/stats", run: () => [200, stats.snapshot()] }];
}

/** The last decisions, as the event stream shows them: what the live view starts from when it opens. */
export class RecentDecisions {
  private ring: unknown[] = [];

  constructor(private readonly max = 200) {}

  add(shown: unknown): void {
    this.ring.push(shown);
    if (this.ring.length > this.max) this.ring.shift();
  }

  list(): unknown[] {
    return [...this.ring];
  }
}

/** `GET /api/decisions/recent`: the last decisions, oldest first. */
export function recentRoutes(recent: RecentDecisions): AdminRoute[] {
  return [{ method: "GET", pattern: /^\/api\/decisions\/recent$/, doc: "GET /api/decisions/recent", run: () => [200, { decisions: recent.list() }] }];
}
