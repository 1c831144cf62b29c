import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { SHARED_SESSION_REMEMBER_MS } from "../defaults.js";
import type { ApprovalAsk } from "../guardian/verdict.js";
import { bindingKey, RememberedApprovals, type Binding, type Remembered } from "./remembered.js";

export type RememberScope = "once" | "session" | "always";
export const SCOPES: readonly RememberScope[] = ["once", "session", "always"];

/** Where a held message came from: what an approval is bound to, with the arguments' digest and the rules' hash. */
export interface HoldContext {
  session: string;
  route: string;
  transport: string;
  agent: string | null;
  server: string | null;
  method: string | null;
  tool: string | null;
}

/** One held message as the admin API and the CLI show it. Never carries the arguments themselves. */
export interface HeldApproval extends HoldContext {
  id: string;
  /** With a shared store: the replica holding it (the call waits there). */
  replica?: string;
  rule: string;
  prompt: string;
  argsDigest: string;
  ruleset: string;
  /** The widest scope an approver may give (the rule's `remember`). */
  remember: RememberScope;
  onTimeout: "deny" | "allow";
  requestedAt: string;
  expiresAt: string;
  channels: string[];
}

export type ApprovalOutcome =
  | { outcome: "approved"; channel: string; by?: string; reason?: string; remember: RememberScope; afterMs: number }
  | { outcome: "refused"; channel: string; by?: string; reason?: string; afterMs: number }
  | { outcome: "timeout"; afterMs: number }
  | { outcome: "cancelled"; reason: string; afterMs: number }
  | { outcome: "shutdown"; afterMs: number };

export interface Decision {
  approve: boolean;
  channel: string;
  by?: string;
  reason?: string;
  remember?: RememberScope;
}

export type DecideResult = { ok: true; approval: HeldApproval } | { ok: false; code: "NOT_FOUND" | "BAD_SCOPE"; message: string };

/** With a shared store: decided already (elsewhere, or by the timeout), or the store or holding replica unreachable. */
export type DeskResult = DecideResult | { ok: false; code: "CONFLICT" | "UNAVAILABLE"; message: string };

/**
 * Where the admin API and the signed links list and decide held approvals: this process's broker, or with a shared
 * store every replica's (src/approvals/shared-approvals.ts).
 */
export interface ApprovalDesk {
  list(): HeldApproval[] | Promise<{ approvals: HeldApproval[]; incomplete?: string }>;
  get(id: string): HeldApproval | undefined | Promise<HeldApproval | undefined>;
  decide(id: string, d: Decision): DeskResult | Promise<DeskResult>;
}

export interface BrokerOptions {
  /** Held messages per session and in all (default 16 and 256): past either, a new ask is refused at once. */
  maxPerSession?: number;
  maxTotal?: number;
  /** Remembered approvals kept (default 4096, oldest dropped first) and how long `always` lasts (default 24h). */
  maxRemembered?: number;
  rememberAlwaysMs?: number;
  /** Where `remember: always` approvals are kept across restarts (docs/approvals.md); none: in memory only. */
  rememberFile?: string | null;
  /** Told what goes wrong with the file after start (it cannot be written). */
  warn?: (message: string) => void;
  now?: () => number;
}

interface Entry {
  held: HeldApproval;
  /** Held in a caller's shared session (A2A, stateless): a `session` approval expires instead of ending with it. */
  shared: boolean;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (o: ApprovalOutcome) => void;
}

/**
 * Holds messages that a rule asks a person about, until someone decides, the timeout passes, the caller goes away
 * or guardwire stops. Every held message gets exactly one outcome. Channels (the agent's client, the admin API, the
 * CLI through it) call `decide`; the admin API and a console follow `requested` and `decided` events.
 */
export class ApprovalBroker extends EventEmitter<{
  requested: [HeldApproval, (() => string) | undefined];
  decided: [HeldApproval, ApprovalOutcome];
  /** An approval remembered for good (`always`), or forgotten through the admin API: shared with other replicas. */
  remembered: [Remembered];
  forgot: [string | "all"];
}> {
  private readonly held = new Map<string, Entry>();
  private readonly remembered: RememberedApprovals;
  private readonly opts: Required<Omit<BrokerOptions, "rememberFile" | "warn">>;
  private stopped = false;
  /** The operator channels that can decide (the admin API once it listens); the agent's client adds elicitation. */
  readonly channels = new Set<string>();

  constructor(opts: BrokerOptions = {}) {
    super();
    this.opts = {
      maxPerSession: opts.maxPerSession ?? 16,
      maxTotal: opts.maxTotal ?? 256,
      maxRemembered: opts.maxRemembered ?? 4096,
      rememberAlwaysMs: opts.rememberAlwaysMs ?? 86_400_000,
      now: opts.now ?? Date.now,
    };
    this.remembered = new RememberedApprovals(opts.rememberFile ?? null, this.opts.maxRemembered, this.opts.now, opts.warn ?? (() => {}));
  }

  /** The id of an earlier approval that covers this exact call (same binding, arguments and rules), if any. */
  coveredBy(ctx: HoldContext, ask: ApprovalAsk): string | null {
    const b = binding(ctx, ask);
    return (this.remembered.find(bindingKey(b, ctx.session)) ?? this.remembered.find(bindingKey(b, null)))?.id ?? null;
  }

  /** The approvals remembered now (session and always), for the admin API. */
  listRemembered(): Remembered[] {
    return this.remembered.list();
  }

  /** Revokes remembered approvals: the one an approval id granted, or every one; returns how many went. */
  forget(id: string | "all"): number {
    const n = this.drop(id);
    if (n > 0) this.emit("forgot", id);
    return n;
  }

  /** Another replica remembered an approval for good (docs/scale.md): it covers the same calls here. */
  adopt(r: Remembered): void {
    if (r.scope === "always" && (!r.expiresAt || Date.parse(r.expiresAt) > this.opts.now())) this.remembered.add(r);
  }

  /** Another replica forgot remembered approvals: forgotten here too, without telling anyone. */
  drop(id: string | "all"): number {
    return this.remembered.remove((r) => id === "all" || r.id === id);
  }

  /**
   * Holds a message, or says which bound refused it. `args` gives a redacted preview of its arguments for channels
   * that show them (the webhook); the held approval itself never carries them.
   */
  request(ctx: HoldContext, ask: ApprovalAsk, channels: string[], args?: () => string, shared = false): { held: HeldApproval; outcome: Promise<ApprovalOutcome> } | { limit: "session" | "process"; max: number } {
    if (this.stopped || this.held.size >= this.opts.maxTotal) return { limit: "process", max: this.opts.maxTotal };
    let mine = 0;
    for (const e of this.held.values()) if (e.held.session === ctx.session) mine++;
    if (mine >= this.opts.maxPerSession) return { limit: "session", max: this.opts.maxPerSession };
    const started = this.opts.now();
    const held: HeldApproval = {
      id: `ap-${randomBytes(6).toString("hex")}`,
      ...ctx,
      rule: ask.rule,
      prompt: ask.prompt,
      argsDigest: ask.argsDigest,
      ruleset: ask.ruleset,
      remember: ask.remember,
      onTimeout: ask.onTimeout,
      requestedAt: new Date(started).toISOString(),
      expiresAt: new Date(started + ask.timeoutMs).toISOString(),
      channels,
    };
    const outcome = new Promise<ApprovalOutcome>((resolve) => {
      const timer = setTimeout(() => this.finish(held.id, { outcome: "timeout", afterMs: this.opts.now() - started }), ask.timeoutMs);
      this.held.set(held.id, { held, shared, started, timer, resolve });
    });
    this.emit("requested", held, args);
    return { held, outcome };
  }

  decide(id: string, d: Decision): DecideResult {
    const entry = this.held.get(id);
    if (!entry) return { ok: false, code: "NOT_FOUND", message: `no held approval ${id} (decided, expired or never asked)` };
    const afterMs = this.opts.now() - entry.started;
    if (!d.approve) {
      this.finish(id, { outcome: "refused", channel: d.channel, by: d.by, reason: d.reason, afterMs });
      return { ok: true, approval: entry.held };
    }
    const remember = d.remember ?? "once";
    if (SCOPES.indexOf(remember) > SCOPES.indexOf(entry.held.remember)) {
      return { ok: false, code: "BAD_SCOPE", message: `rule ${entry.held.rule} allows remembering at most "${entry.held.remember}", not "${remember}"` };
    }
    if (remember !== "once") this.remember(entry, remember);
    this.finish(id, { outcome: "approved", channel: d.channel, by: d.by, reason: d.reason, remember, afterMs });
    return { ok: true, approval: entry.held };
  }

  /** The caller withdrew (cancelled its request, went away): no answer is owed. */
  cancel(id: string, reason: string): void {
    const entry = this.held.get(id);
    if (entry) this.finish(id, { outcome: "cancelled", reason, afterMs: this.opts.now() - entry.started });
  }

  /** The session holding it is closing: answered with a deny. */
  stop(id: string): void {
    const entry = this.held.get(id);
    if (entry) this.finish(id, { outcome: "shutdown", afterMs: this.opts.now() - entry.started });
  }

  get(id: string): HeldApproval | undefined {
    return this.held.get(id)?.held;
  }

  list(): HeldApproval[] {
    return [...this.held.values()].map((e) => e.held);
  }

  /** A session ended: its remembered approvals go with it. */
  endSession(session: string): void {
    this.remembered.endSession(session);
  }

  /** guardwire is stopping: every held message is answered (a deny), and nothing new is held. */
  shutdown(): void {
    this.stopped = true;
    for (const [id, e] of this.held) this.finish(id, { outcome: "shutdown", afterMs: this.opts.now() - e.started });
  }

  private finish(id: string, outcome: ApprovalOutcome): void {
    const entry = this.held.get(id);
    if (!entry) return;
    this.held.delete(id);
    clearTimeout(entry.timer);
    entry.resolve(outcome);
    this.emit("decided", entry.held, outcome);
  }

  private remember({ held: h, shared }: Entry, scope: "session" | "always"): void {
    const now = this.opts.now();
    const ms = scope === "always" ? this.opts.rememberAlwaysMs : shared ? SHARED_SESSION_REMEMBER_MS : null;
    const r: Remembered = {
      id: h.id,
      scope,
      session: scope === "session" ? h.session : null,
      ...binding(h, h),
      grantedAt: new Date(now).toISOString(),
      expiresAt: ms === null ? null : new Date(now + ms).toISOString(),
    };
    this.remembered.add(r);
    if (scope === "always") this.emit("remembered", r);
  }
}

function binding(ctx: Omit<HoldContext, "session">, ask: Pick<ApprovalAsk, "rule" | "argsDigest" | "ruleset">): Binding {
  return { route: ctx.route, agent: ctx.agent, server: ctx.server, method: ctx.method, tool: ctx.tool, rule: ask.rule, argsDigest: ask.argsDigest, ruleset: ask.ruleset };
}

export function isScope(v: unknown): v is RememberScope {
  return v === "once" || v === "session" || v === "always";
}
