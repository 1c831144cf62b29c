import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { SessionView } from "../guardian/evaluate.js";
import type { SharedReads, SharedState, WindowHit } from "../guardian/state.js";
import { ErrorCode } from "../protocol/json-rpc.js";
import type { SharedStore, StoreStatus } from "./redis.js";
import { SharedPins } from "./guardian-pins.js";
import type { ReasonCode } from "../reasons.js";

/** A session counts at most this many distinct method and tool names (as in memory). */
const MAX_COUNTED = 1024;
/** A window keeps at most this many hits: beyond them the exact number no longer matters (as in memory). */
const MAX_HITS = 10_000;

/**
 * Everything one message reads, in one command: the session's labels and counts (KEYS 1 and 2, when ARGV[1] is 1),
 * and one hit in each sliding window (KEYS 4…, with their length and a member in ARGV), on Redis's clock (one clock
 * for every replica): hits older than the window dropped, this one added, the count returned, the key expiring with
 * the window. First, the epoch marker (KEYS[3]) must still be the one this replica knows (ARGV[2]): if not, guardwire's
 * data was lost (a restart without persistence, FLUSHALL) and nothing is read or counted ('lost').
 */
const READ = `
if redis.call('HGET', KEYS[3], 'id') ~= ARGV[2] then return {'lost'} end
local out = {{}, {}}
if ARGV[1] == '1' then
  out[1] = redis.call('SMEMBERS', KEYS[1])
  out[2] = redis.call('HGETALL', KEYS[2])
end
if #KEYS > 3 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for i = 4, #KEYS do
    local w = tonumber(ARGV[2 * i - 5])
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - w)
    redis.call('ZADD', KEYS[i], now, ARGV[2 * i - 4])
    local n = redis.call('ZCARD', KEYS[i])
    if n > ${MAX_HITS} then
      redis.call('ZREMRANGEBYRANK', KEYS[i], 0, n - ${MAX_HITS} - 1)
      n = ${MAX_HITS}
    end
    redis.call('PEXPIRE', KEYS[i], w)
    out[i - 1] = n
  end
end
return out`;

/** A decision's labels and counted names added to its session (at most 1,024 names), the TTL refreshed. */
const SESSION_WRITE = `
local nl = tonumber(ARGV[2])
for i = 3, 2 + nl do redis.call('SADD', KEYS[1], ARGV[i]) end
for i = 3 + nl, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 or redis.call('HLEN', KEYS[2]) < ${MAX_COUNTED} then
    redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 0`;

type ScriptedClient = Redis & {
  gwRead(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<[string[], string[], ...number[]] | ["lost"]>;
  gwSessionWrite(labels: string, counts: string, ttlMs: number, nLabels: number, ...names: string[]): Promise<unknown>;
};

export interface SharedGuardianStateOptions {
  /** How long a session's labels and counts outlive its last message (refreshed on every write). */
  sessionTtlMs?: number;
  /** Where `local` mode says, once per outage, that it judges with this replica's memory. */
  warn?: (line: string) => void;
  /**
   * After guardwire's data in Redis was lost: `window` (default) holds each limit rule closed for one of its own
   * windows; a number of seconds holds every limit rule that long; 0 holds nothing (store.limitsAfterReset).
   */
  limitsAfterReset?: "window" | number;
  /** The longest `per` of the limit rules in force (what /healthz reports the hold ends by, in `window` mode). */
  longestWindowMs?: () => number;
}

type StoreError = ReturnType<SharedStore["unavailable"]>;

/**
 * The guardian's state in Redis (docs/scale.md, Shared state). Per guardian session a set of labels and a hash of
 * counts; per limit rule and key a sorted set of hits (a sliding window); pins in a hash per server, read from a
 * local copy kept current by pub/sub. Reads for one message go in one pipeline; writes are sent without waiting.
 * When the store lost guardwire's data, limit rules are held closed for a window (`held`), and that is said in the
 * decision log and on stderr (`noteTo`).
 */
export class SharedGuardianState implements SharedState {
  readonly pins: SharedPins;
  readonly onUnavailable: "closed" | "local";
  private readonly client: ScriptedClient;
  /** Window members are unique per replica and hit. */
  private readonly tag = randomBytes(6).toString("base64url");
  private seq = 0;
  private warned = false;
  private readonly sessionTtlMs: number;
  /** The last loss of guardwire's data in Redis this replica knows of (this machine's clock). */
  private reset: { at: number; cause: string } | null = null;
  private note: ((code: string, message: string) => void) | null = null;
  /** Notes found before the decision log was open (a few at most). */
  private readonly pendingNotes: [string, string][] = [];

  constructor(
    private readonly store: SharedStore,
    private readonly opts: SharedGuardianStateOptions = {},
  ) {
    this.onUnavailable = store.onUnavailable;
    this.sessionTtlMs = Math.max(60_000, opts.sessionTtlMs ?? 3_600_000);
    const client = store.client;
    // EVALSHA, with the script sent once more when Redis forgot it (a restart).
    client.defineCommand("gwRead", { lua: READ });
    client.defineCommand("gwSessionWrite", { numberOfKeys: 2, lua: SESSION_WRITE });
    this.client = client as ScriptedClient;
    this.pins = new SharedPins(store);
    store.onState((s) => {
      if (s.state === "up") this.warned = false;
    });
    store.onData((e) => {
      if (e.kind === "kept") return this.say("STORE_RESTARTED", e.cause);
      if (!this.reset || e.at > this.reset.at) this.reset = { at: e.at, cause: e.cause };
      const until = e.at + this.holdMs(this.longestWindowMs());
      // Found at start and long over: nothing this replica holds or lost.
      if (e.atStart && until <= Date.now()) return;
      this.say("STORE_RESET", `${e.cause}: ${this.consequence(until)}`);
    });
  }

  /** Where notes go (the decision log, kind `log`, and stderr); those found before are written now. */
  noteTo(note: (code: string, message: string) => void): void {
    this.note = note;
    for (const [code, message] of this.pendingNotes.splice(0)) note(code, message);
  }

  get available(): boolean {
    return this.store.checked && this.pins.loaded;
  }

  unavailable(detail?: string): StoreError {
    return this.store.unavailable(detail ?? (this.store.up ? "reconnected; guardwire's state there is being read again" : undefined));
  }

  /** The store's status, with when limit rules stop being held after a loss of data (for /healthz and /metrics). */
  get state(): StoreStatus {
    const s = this.store.state;
    const until = this.reset ? this.reset.at + this.holdMs(this.longestWindowMs()) : 0;
    return until > Date.now() ? { ...s, limitsHeldUntil: new Date(until).toISOString() } : s;
  }

  /**
   * The refusal for a message that limit windows of these lengths counted, while they are held after a loss of
   * guardwire's data (each for its own window, or `limitsAfterReset` seconds); null when none is held.
   */
  held(windows: readonly { windowMs: number }[]): StoreError | null {
    const reset = this.reset;
    if (!reset || windows.length === 0) return null;
    const now = Date.now();
    let until = 0;
    for (const w of windows) until = Math.max(until, reset.at + this.holdMs(w.windowMs));
    if (until <= now) return null;
    const at = new Date(reset.at).toISOString();
    const end = new Date(until).toISOString();
    return {
      code: ErrorCode.GuardianUnavailable,
      message: `guardwire's shared state store (Redis) lost its limit counts at ${at}: ${reset.cause}; the limit rules that count this message refuse it until ${end} (store.limitsAfterReset)`,
      data: { store: "redis", state: "reset", url: this.store.state.url, error: reset.cause, resetAt: at, heldUntil: end },
    };
  }

  async fetch(session: string | null, windows: { key: string; windowMs: number }[]): Promise<SharedReads> {
    let reads = await this.read(session, windows);
    if (reads === null) {
      // The epoch marker is not the one this replica knows: the check finds out what was lost (and holds limits).
      await this.store.check();
      reads = await this.read(session, windows);
      if (reads === null) throw new Error("guardwire's data in Redis changed while being read");
    }
    return reads;
  }

  /** The session's labels and counts and a hit in each window; null when the epoch marker is not the one known. */
  private async read(session: string | null, windows: { key: string; windowMs: number }[]): Promise<SharedReads | null> {
    const id = session ?? "";
    const keys = [this.sessionKey(id, "labels"), this.sessionKey(id, "counts"), this.store.key("epoch"), ...windows.map((w) => this.store.key("limit", w.key))];
    const args: (string | number)[] = [session !== null ? 1 : 0, this.store.epochId];
    const members = windows.map((w) => {
      const member = `${this.tag}:${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER)}`;
      args.push(w.windowMs, member);
      return member;
    });
    const answer = await this.client.gwRead(keys.length, ...keys, ...args);
    if (answer[0] === "lost") return null;
    const [labels, flat, ...counts] = answer as [string[], string[], ...number[]];
    let view: SessionView | null = null;
    if (session !== null) {
      const tally = Object.create(null) as Record<string, number>;
      for (let i = 0; i + 1 < flat.length; i += 2) tally[flat[i] as string] = Number(flat[i + 1]);
      view = { id: session, labels, counts: tally };
    }
    return { session: view, hits: windows.map((w, i) => ({ key: w.key, windowMs: w.windowMs, count: Number(counts[i]), member: members[i] as string })) };
  }

  record(session: string, labels: readonly string[], counted: readonly string[], released: readonly WindowHit[]): void {
    const ignore = () => {
      // The decision stands; a write lost to an outage is what `closed` refuses messages for from then on.
    };
    if (labels.length > 0 || counted.length > 0) {
      this.client.gwSessionWrite(this.sessionKey(session, "labels"), this.sessionKey(session, "counts"), this.sessionTtlMs, labels.length, ...labels, ...counted).catch(ignore);
    }
    for (const h of released) this.client.zrem(this.store.key("limit", h.key), h.member).catch(ignore);
  }

  fellBack(why: string): void {
    if (this.warned) return;
    this.warned = true;
    this.opts.warn?.(`guardwire: shared state (Redis) unavailable (${why}); judging with this replica's own state until it is back (store.onUnavailable: local)\n`);
  }

  private sessionKey(session: string, what: "labels" | "counts"): string {
    return this.store.key("session", session, what);
  }

  /** How long after a loss of data a limit rule with this window is held. */
  private holdMs(windowMs: number): number {
    const after = this.opts.limitsAfterReset ?? "window";
    return after === "window" ? windowMs : after * 1000;
  }

  private longestWindowMs(): number {
    return this.opts.longestWindowMs?.() ?? 0;
  }

  /** What a loss of data means for this replica's limit rules, for its note. */
  private consequence(until: number): string {
    const after = this.opts.limitsAfterReset ?? "window";
    const lost = "the limit windows (and session labels and counts) kept there are gone";
    if (until <= Date.now()) {
      return after === 0 ? `${lost}; limits count afresh from now (store.limitsAfterReset: 0)` : `${lost}; no limit rule is in force, nothing is held`;
    }
    const how = after === "window" ? "until each has counted one whole window again" : `for ${after} s`;
    return `${lost}, so limit rules refuse the messages they count (-32051, STORE_RESET) ${how}: until ${new Date(until).toISOString()} at the latest (store.limitsAfterReset: ${after})`;
  }

  private say(code: ReasonCode, message: string): void {
    if (this.note) return this.note(code, message);
    if (this.pendingNotes.length < 16) this.pendingNotes.push([code, message]);
  }
}
