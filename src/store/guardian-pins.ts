import type { NewPin, Pin } from "../guardian/detectors/pins.js";
import { define, MemoryPinStore } from "../guardian/state.js";
import type { SharedStore } from "./redis.js";

/** A pending change made the pin, in one step, and every replica told (`guardwire pins approve`). */
const APPROVE = `
local p = redis.call('HGET', KEYS[2], ARGV[1])
if not p then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], p)
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1`;

type Pins = Record<string, Record<string, Pin>>;

/**
 * Tool pins in Redis, shared by every replica (docs/scale.md, Shared state): per server a hash of approved pins and a
 * hash of pending changes, the servers in a set, all permanent like a pins file. Reads come from a local copy (no
 * round trip); a write changes the copy at once, goes to Redis without waiting, and is announced on a channel on
 * which every replica re-reads that server. The copy is read in whole whenever the link comes back; until then
 * `loaded` is false (a message whose rules read pins then needs the store).
 */
export class SharedPins extends MemoryPinStore {
  loaded = false;
  private generation = 0;
  private readonly channel: string;

  constructor(private readonly store: SharedStore) {
    super();
    this.channel = store.key("pins-changed");
    store.client.defineCommand("gwPinApprove", { numberOfKeys: 2, lua: APPROVE });
    // Changes announced while either connection was down were missed: the whole copy is read again once subscribed.
    store.listen(this.channel, (server) => void this.reread([server]), () => this.load());
    store.onState((s) => {
      if (s.state === "up") void this.load().catch(() => {});
      else this.loaded = false;
    });
  }

  /** Reads every server's pins into the local copy. */
  async load(): Promise<void> {
    const generation = ++this.generation;
    const servers = await this.store.client.smembers(this.serversKey());
    const fresh = await this.read(servers);
    if (generation !== this.generation) return;
    this.pins = fresh;
    this.loaded = true;
  }

  all(): Pins {
    return this.pins;
  }

  override add(list: NewPin[]): boolean {
    // Pins found under the name a server reports (kept so before pins were keyed by route) become the route's.
    const adopted = new Set(list.filter((n) => n.from !== undefined && !this.has(n.server) && this.has(n.from)).map((n) => n.server));
    const changed = super.add(list);
    if (list.length === 0) return changed;
    const p = this.store.client.pipeline();
    const servers = new Set<string>();
    for (const server of adopted) {
      for (const [tool, { pending, ...pin }] of Object.entries(this.pins[server] ?? {})) {
        p.hsetnx(this.pinsKey(server), tool, JSON.stringify(pin)).sadd(this.serversKey(), server);
        if (pending) p.hsetnx(this.pendingKey(server), tool, JSON.stringify(pending));
      }
    }
    for (const n of list) {
      const seen = JSON.stringify(n.definition ? { fingerprint: n.fingerprint, definition: n.definition } : { fingerprint: n.fingerprint });
      // A first sighting never replaces a pin another replica wrote first (the announcement brings that one here).
      if (n.kind === "new") p.hsetnx(this.pinsKey(n.server), n.tool, seen).sadd(this.serversKey(), n.server);
      else if (n.kind === "changed") p.hset(this.pendingKey(n.server), n.tool, seen);
      else p.hdel(this.pendingKey(n.server), n.tool);
      servers.add(n.server);
    }
    for (const s of servers) p.publish(this.channel, s);
    p.exec().catch(() => {
      // Lost with the link: the copy is read again when it returns.
    });
    return changed;
  }

  /** Accepts a tool's pending change as its new pin, for every replica; false when there is none to accept. */
  async approve(server: string, tool: string): Promise<boolean> {
    const client = this.store.client as typeof this.store.client & { gwPinApprove(a: string, b: string, tool: string, channel: string, server: string): Promise<number> };
    const done = (await client.gwPinApprove(this.pinsKey(server), this.pendingKey(server), tool, this.channel, server)) === 1;
    await this.reread([server]);
    return done;
  }

  /** Forgets the pins of one server, or all of them, for every replica; returns how many were dropped. */
  async reset(server?: string): Promise<number> {
    const servers = server !== undefined ? [server] : await this.store.client.smembers(this.serversKey());
    let n = 0;
    for (const s of servers) {
      const done = await this.store.client.multi().hlen(this.pinsKey(s)).del(this.pinsKey(s), this.pendingKey(s)).srem(this.serversKey(), s).publish(this.channel, s).exec();
      n += Number(done?.[0]?.[1] ?? 0);
    }
    await this.reread(servers);
    return n;
  }

  /** Re-reads some servers' pins after an announcement. */
  private async reread(servers: string[]): Promise<void> {
    let fresh: Pins;
    try {
      fresh = await this.read(servers);
    } catch {
      this.loaded = false; // read in whole when the link is back
      return;
    }
    for (const s of servers) {
      if (fresh[s]) define(this.pins, s, fresh[s]);
      else delete this.pins[s];
    }
  }

  private async read(servers: string[]): Promise<Pins> {
    const p = this.store.client.pipeline();
    for (const s of servers) p.hgetall(this.pinsKey(s)).hgetall(this.pendingKey(s));
    const results = (await p.exec()) ?? [];
    const pins = Object.create(null) as Pins;
    servers.forEach((server, i) => {
      const [e1, approved] = results[2 * i] ?? [];
      const [e2, pending] = results[2 * i + 1] ?? [];
      if (e1 || e2) throw e1 ?? e2;
      const tools = Object.create(null) as Record<string, Pin>;
      for (const [tool, text] of Object.entries(approved as Record<string, string>)) {
        const pin = JSON.parse(text) as Pin;
        const change = (pending as Record<string, string>)[tool];
        if (change !== undefined) pin.pending = JSON.parse(change) as Pin["pending"];
        define(tools, tool, pin);
      }
      if (Object.keys(tools).length > 0) define(pins, server, tools);
    });
    return pins;
  }

  private serversKey(): string {
    return this.store.key("pins");
  }

  private pinsKey(server: string): string {
    return this.store.key("pins", server);
  }

  private pendingKey(server: string): string {
    return this.store.key("pins-pending", server);
  }
}
