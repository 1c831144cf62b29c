import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { SessionView } from "../guardian/evaluate.js";
import type { SharedReads, SharedState, WindowHit } from "../guardian/state.js";
import type { SharedStore } from "./redis.js";
import { SharedPins } from "./guardian-pins.js";

/** A session counts at most this many distinct method and tool names (as in memory). */
const MAX_COUNTED = 1024;
/** A window keeps at most this many hits: beyond them the exact number no longer matters (as in memory). */
const MAX_HITS = 10_000;

/**
 * Everything one message reads, in one command: the session's labels and counts (KEYS 1 and 2, when ARGV[1] is 1),
 * and one hit in each sliding window (KEYS 3…, with their length and a member in ARGV), on Redis's clock (one clock
 * for every replica): hits older than the window dropped, this one added, the count returned, the key expiring with
 * the window.
 */
const READ = `
local out = {{}, {}}
if ARGV[1] == '1' then
  out[1] = redis.call('SMEMBERS', KEYS[1])
  out[2] = redis.call('HGETALL', KEYS[2])
end
if #KEYS > 2 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for i = 3, #KEYS do
    local w = tonumber(ARGV[2 * i - 4])
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - w)
    redis.call('ZADD', KEYS[i], now, ARGV[2 * i - 3])
    local n = redis.call('ZCARD', KEYS[i])
    if n > ${MAX_HITS} then
      redis.call('ZREMRANGEBYRANK', KEYS[i], 0, n - ${MAX_HITS} - 1)
      n = ${MAX_HITS}
    end
    redis.call('PEXPIRE', KEYS[i], w)
    out[i] = n
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
  gwRead(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<[string[], string[], ...number[]]>;
  gwSessionWrite(labels: string, counts: string, ttlMs: number, nLabels: number, ...names: string[]): Promise<unknown>;
};

export interface SharedGuardianStateOptions {
  /** How long a session's labels and counts outlive its last message (refreshed on every write). */
  sessionTtlMs?: number;
  /** Where `local` mode says, once per outage, that it judges with this replica's memory. */
  warn?: (line: string) => void;
}

/**
 * The guardian's state in Redis (docs/scale.md, Shared state). Per guardian session a set of labels and a hash of
 * counts; per limit rule and key a sorted set of hits (a sliding window); pins in a hash per server, read from a
 * local copy kept current by pub/sub. Reads for one message go in one pipeline; writes are sent without waiting.
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
  }

  get available(): boolean {
    return this.store.up && this.pins.loaded;
  }

  unavailable(detail?: string): ReturnType<SharedStore["unavailable"]> {
    return this.store.unavailable(detail);
  }

  fetch(session: string | null, windows: { key: string; windowMs: number }[]): Promise<SharedReads> {
    const id = session ?? "";
    const keys = [this.sessionKey(id, "labels"), this.sessionKey(id, "counts"), ...windows.map((w) => this.store.key("limit", w.key))];
    const args: (string | number)[] = [session !== null ? 1 : 0];
    const members = windows.map((w) => {
      const member = `${this.tag}:${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER)}`;
      args.push(w.windowMs, member);
      return member;
    });
    return this.client.gwRead(keys.length, ...keys, ...args).then(([labels, flat, ...counts]) => {
      let view: SessionView | null = null;
      if (session !== null) {
        const tally = Object.create(null) as Record<string, number>;
        for (let i = 0; i + 1 < flat.length; i += 2) tally[flat[i] as string] = Number(flat[i + 1]);
        view = { id: session, labels, counts: tally };
      }
      return { session: view, hits: windows.map((w, i) => ({ key: w.key, count: Number(counts[i]), member: members[i] as string })) };
    });
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
}
