import { randomUUID } from "node:crypto";
import type { Agent, request } from "undici";
import { severityRank } from "../guardian/alert.js";
import type { AlertsConfig, WebhookConfig } from "./config.js";
import { dedupeKey, WindowDeduper, type AlertDeduper } from "./dedupe.js";
import type { AlertEvent, AlertSink } from "./event.js";
import { render, type AlertFormat, type Posted } from "./payload.js";
import type { ReasonCode } from "../reasons.js";

export type AlertNoteCode = Extract<ReasonCode, "ALERTS_DROPPED" | "ALERTS_UNDELIVERED">;

export interface DispatcherDeps {
  /** Told about dropped and undelivered alerts: at most one note per kind every `noteEveryMs`, each summing up since the last. */
  note: (code: AlertNoteCode, message: string) => void;
  noteEveryMs?: number;
  /** What the notes call one delivery (default "alert"): the approval webhook reuses this dispatcher. */
  noun?: string;
  /** Milliseconds (dedupe windows, the shutdown deadline). */
  now?: () => number;
  random?: () => number;
  deduper?: AlertDeduper;
}

export interface AlertStats {
  raised: number;
  /** Held back as repeats (dedupeSeconds). */
  suppressed: number;
  delivered: number;
  /** Not queued: a webhook's queue was full (or guardwire was stopping). */
  dropped: number;
  /** Queued, but every attempt failed, the webhook refused it (4xx), or shutdown came first. */
  undelivered: number;
}

/**
 * One thing to post to every webhook it is queued for, rendered in each webhook's format. Its id is made at the first
 * post and sent in `idHeader`, the same on every retry and for every webhook, for the receiver to drop repeats.
 */
export interface Outgoing {
  id?: string;
  idHeader: string;
  body(format: AlertFormat, id: string): string;
}

interface Job {
  out: Outgoing;
  attempt: number;
}

interface Hook {
  cfg: WebhookConfig;
  /** The origin only: a webhook URL's path is often its secret (Slack's are), so notes never show it. */
  label: string;
  minRank: number;
  ready: Job[];
  /** Jobs this webhook holds: ready, in flight, or waiting to retry (the queue bound). */
  held: number;
  active: number;
  waiting: Set<NodeJS.Timeout>;
  scheduled: boolean;
}

/**
 * Posts alerts to webhooks. `raise` is synchronous and constant time: it only queues (per webhook, bounded) and
 * schedules; posting happens later, off the traffic's turn. Delivery is at least once while guardwire runs (each alert
 * carries an id for the receiver to drop repeats), with retries on network errors, timeouts, 5xx and 429.
 */
export class AlertDispatcher implements AlertSink {
  readonly stats: AlertStats = { raised: 0, suppressed: 0, delivered: 0, dropped: 0, undelivered: 0 };
  private readonly hooks: Hook[];
  /** undici, loaded when a dispatcher is made (only with webhooks configured): `wrap` and `serve` start without it. */
  private readonly http: Promise<{ agent: Agent; request: typeof request }>;
  private readonly abort = new AbortController();
  private readonly deduper: AlertDeduper | null;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly tally: Tally;
  private readonly inflight = new Set<Promise<void>>();
  private closing: Promise<AlertStats> | undefined;
  private deadline = Infinity;
  private wake: (() => void) | undefined;

  constructor(
    private readonly cfg: AlertsConfig,
    deps: DispatcherDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.deduper = deps.deduper ?? (cfg.dedupeSeconds > 0 ? new WindowDeduper(cfg.dedupeSeconds * 1000) : null);
    this.tally = new Tally(deps.note, deps.noteEveryMs ?? 10_000, this.now, deps.noun ?? "alert");
    this.http = import("undici").then((u) => ({ agent: new u.Agent({ connect: { timeout: cfg.timeoutMs } }), request: u.request }));
    this.hooks = cfg.webhooks.map((w) => ({
      cfg: w,
      label: new URL(w.url).origin,
      minRank: severityRank(w.minSeverity),
      ready: [],
      held: 0,
      active: 0,
      waiting: new Set(),
      scheduled: false,
    }));
  }

  raise(event: AlertEvent): void {
    this.stats.raised++;
    if (!this.deduper) return this.queue(event, 0);
    const admitted = this.deduper.admit(dedupeKey(event), this.now());
    // A deduper shared across replicas may have to ask its store first: the alert is queued when it answers.
    if (admitted instanceof Promise) void admitted.then((n) => this.admitted(event, n));
    else this.admitted(event, admitted);
  }

  private admitted(event: AlertEvent, heldBack: number | null): void {
    if (heldBack === null) {
      this.stats.suppressed++;
      return;
    }
    this.queue(event, heldBack);
  }

  private queue(event: AlertEvent, heldBack: number): void {
    // Made once, only if some webhook takes it: the drop path stays as cheap as a counter.
    let out: Outgoing | undefined;
    for (const h of this.hooks) {
      if (severityRank(event.severity) < h.minRank) continue;
      if (!this.admit(h)) continue;
      if (!out) {
        const posted: Posted = { at: this.now(), suppressed: heldBack, event };
        out = { idHeader: "x-guardwire-alert-id", body: (format, id) => render(format, { ...posted, id }) };
      }
      this.enqueue(h, out);
    }
  }

  /** Queues one delivery for every webhook (no severity filter, no de-duplication): the approval webhook's way in. */
  deliver(out: Outgoing): void {
    this.stats.raised++;
    for (const h of this.hooks) if (this.admit(h)) this.enqueue(h, out);
  }

  /** Room in the webhook's queue, or the delivery is dropped (counted, noted). */
  private admit(h: Hook): boolean {
    if (h.held < this.cfg.queue && !this.closing) return true;
    this.stats.dropped++;
    this.tally.count("ALERTS_DROPPED", h.label, this.closing ? "guardwire was stopping" : `its queue of ${this.cfg.queue} was full`);
    return false;
  }

  private enqueue(h: Hook, out: Outgoing): void {
    h.held++;
    h.ready.push({ out, attempt: 0 });
    this.schedule(h);
  }

  /** Keeps delivering for at most `flushMs`, then abandons the rest (counted, noted); resolves with the final counts. */
  close(): Promise<AlertStats> {
    this.closing ??= (async () => {
      this.deadline = this.now() + this.cfg.flushMs;
      if (this.hooks.some((h) => h.held > 0)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.cfg.flushMs);
          this.wake = () => (clearTimeout(timer), resolve());
        });
      }
      this.abort.abort();
      for (const h of this.hooks) {
        for (const t of h.waiting) clearTimeout(t);
        const left = h.ready.length + h.waiting.size;
        h.waiting.clear();
        h.ready.length = 0;
        h.held -= left;
        this.gaveUp(h, left, "guardwire stopped first");
      }
      await Promise.allSettled([...this.inflight]);
      await (await this.http).agent.destroy().catch(() => undefined);
      this.tally.flush();
      return this.stats;
    })();
    return this.closing;
  }

  /** Posting starts on a later turn: raising never costs the traffic a request's set-up. */
  private schedule(h: Hook): void {
    if (h.scheduled) return;
    h.scheduled = true;
    setImmediate(() => {
      h.scheduled = false;
      this.pump(h);
    });
  }

  private pump(h: Hook): void {
    while (h.active < this.cfg.concurrency && h.ready.length > 0 && !this.abort.signal.aborted) {
      const job = h.ready.shift() as Job;
      h.active++;
      const p = this.attempt(h, job).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  private async attempt(h: Hook, job: Job): Promise<void> {
    job.attempt++;
    const outcome = await this.post(h.cfg, job.out);
    h.active--;
    if (outcome.ok) {
      h.held--;
      this.stats.delivered++;
    } else {
      const delay = outcome.retryAfterMs ?? this.backoff(job.attempt);
      const retry = outcome.retry && job.attempt < this.cfg.maxAttempts && !this.abort.signal.aborted && this.now() + delay < this.deadline;
      if (retry) {
        const t = setTimeout(() => {
          h.waiting.delete(t);
          h.ready.push(job);
          this.pump(h);
        }, delay);
        t.unref();
        h.waiting.add(t);
      } else {
        h.held--;
        const last = `${outcome.why}, attempt ${job.attempt} of ${this.cfg.maxAttempts}`;
        const why = outcome.retry && job.attempt < this.cfg.maxAttempts ? `guardwire stopped first (last: ${last})` : last;
        this.gaveUp(h, 1, why);
      }
    }
    this.pump(h);
    if (this.wake && this.hooks.every((x) => x.held === 0)) this.wake();
  }

  private gaveUp(h: Hook, n: number, why: string): void {
    if (n <= 0) return;
    this.stats.undelivered += n;
    this.tally.count("ALERTS_UNDELIVERED", h.label, why, n);
  }

  /** Exponential, capped, with jitter (half to all of the step), so many proxies do not retry in step. */
  private backoff(attempt: number): number {
    const step = Math.min(this.cfg.maxBackoffMs, this.cfg.backoffMs * 2 ** (attempt - 1));
    return Math.round(step * (0.5 + this.random() / 2));
  }

  private async post(w: WebhookConfig, out: Outgoing): Promise<{ ok: true } | { ok: false; retry: boolean; retryAfterMs?: number; why: string }> {
    const id = (out.id ??= randomUUID());
    const { agent, request } = await this.http;
    try {
      const res = await request(w.url, {
        method: "POST",
        dispatcher: agent,
        headers: { "content-type": "application/json", "user-agent": "guardwire-alerts", [out.idHeader]: id, ...w.headers },
        body: out.body(w.format, id),
        signal: AbortSignal.any([AbortSignal.timeout(this.cfg.timeoutMs), this.abort.signal]),
      });
      await res.body.dump().catch(() => undefined);
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
      const retry = res.statusCode === 429 || res.statusCode >= 500;
      const after = retry ? retryAfterMs(res.headers["retry-after"], this.now()) : undefined;
      return { ok: false, retry, retryAfterMs: after === undefined ? undefined : Math.min(after, this.cfg.maxBackoffMs), why: `HTTP ${res.statusCode}` };
    } catch (e) {
      const err = e as Error & { code?: string };
      const why = err.name === "TimeoutError" ? `no answer within ${this.cfg.timeoutMs} ms` : (err.code ?? err.name);
      return { ok: false, retry: true, why };
    }
  }
}

/** `Retry-After`: seconds or an HTTP date. */
export function retryAfterMs(v: string | string[] | undefined, now: number): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || s.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Counts dropped and undelivered alerts, and says so at most once per interval per kind (the first at once), so a
 * flood of drops is a few lines, never one per alert; every note carries the total since start.
 */
class Tally {
  private readonly since = new Map<AlertNoteCode, { n: number; hook: string; why: string }>();
  private readonly totals = new Map<AlertNoteCode, number>();
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly note: DispatcherDeps["note"],
    private readonly everyMs: number,
    private readonly now: () => number,
    private readonly noun: string,
  ) {}

  count(code: AlertNoteCode, hook: string, why: string, n = 1): void {
    const s = this.since.get(code) ?? { n: 0, hook, why };
    s.n += n;
    s.hook = hook;
    s.why = why;
    this.since.set(code, s);
    this.totals.set(code, (this.totals.get(code) ?? 0) + n);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.last + this.everyMs - this.now()));
    this.timer.unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.since.size === 0) return;
    this.last = this.now();
    for (const [code, s] of this.since) {
      const total = this.totals.get(code) ?? s.n;
      const what = code === "ALERTS_DROPPED" ? "dropped" : "not delivered";
      this.note(code, `${s.n} ${this.noun}(s) ${what} for webhook ${s.hook}: ${s.why} (${total} ${what} since start)`);
    }
    this.since.clear();
  }
}
