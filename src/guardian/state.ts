import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { InputRequest, Limiter, SessionView } from "./evaluate.js";
import type { NewPin, PinStore } from "./detectors/pins.js";

/** A Map that forgets its least recently used entries beyond `max`: state keyed by wire data stays bounded. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  /** The most recently used key: asking for it again (the common case) need not reorder anything. */
  private newest: K | undefined;
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
}

/** Per-session labels (for flow rules) and message counts, kept by the guardian between evaluations. */
export class SessionStore {
  private readonly sessions = new Lru<string, { labels: Set<string>; list: string[]; counts: Record<string, number> }>(10_000);

  /** What rules see as `session`: the live state, read-only by contract (CEL cannot write), never copied. */
  view(id: string): SessionView {
    const s = this.sessions.get(id);
    return s ? { id, labels: s.list, counts: s.counts } : { id, labels: [], counts: {} };
  }

  update(id: string, labels: string[] | undefined, counted: string[]): void {
    let s = this.sessions.get(id);
    if (!s) {
      s = { labels: new Set(), list: [], counts: Object.create(null) as Record<string, number> };
      this.sessions.set(id, s);
    }
    for (const l of labels ?? []) {
      if (s.labels.has(l)) continue;
      s.labels.add(l);
      s.list.push(l);
    }
    for (const c of counted) {
      // Method and tool names come from the wire: a session counts at most 1,024 distinct ones.
      if (s.counts[c] === undefined && Object.keys(s.counts).length >= 1024) continue;
      s.counts[c] = (s.counts[c] ?? 0) + 1;
    }
  }
}

/**
 * The requests `input_required` results let through to each session's client (MCP 2026-07-28), by key, so the
 * answers in its retries can be judged as answers to them. Bounded: 10,000 sessions, the last 64 keys each.
 */
export class InputRequestStore {
  private readonly sessions = new Lru<string, Map<string, InputRequest>>(10_000);

  remember(session: string, requests: InputRequest[]): void {
    let m = this.sessions.get(session);
    if (!m) {
      m = new Map();
      this.sessions.set(session, m);
    }
    for (const r of requests) {
      m.delete(r.key);
      m.set(r.key, r);
      if (m.size > 64) m.delete(m.keys().next().value as string);
    }
  }

  get(session: string, key: string): InputRequest | undefined {
    return this.sessions.get(session)?.get(key);
  }
}

/** Sliding-window counters for `limit`: each key keeps at most the timestamps its window can hold. */
export class SlidingWindowLimiter implements Limiter {
  private readonly hits = new Lru<string, number[]>(50_000);

  hit(key: string, windowMs: number, now: number): number {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < windowMs);
    list.push(now);
    // A limit fires once the count passes it; beyond 10,000 hits the exact number no longer matters.
    if (list.length > 10_000) list.shift();
    this.hits.set(key, list);
    return list.length;
  }
}

export class MemoryPinStore implements PinStore {
  protected pins: Record<string, Record<string, string>> = Object.create(null) as Record<string, Record<string, string>>;

  get(server: string, tool: string): string | undefined {
    return Object.prototype.hasOwnProperty.call(this.pins, server) ? this.pins[server]?.[tool] : undefined;
  }

  add(list: NewPin[]): boolean {
    let changed = false;
    for (const p of list) {
      if (this.get(p.server, p.tool) !== undefined) continue;
      const forServer = (this.pins[p.server] ??= Object.create(null) as Record<string, string>);
      forServer[p.tool] = p.fingerprint;
      changed = true;
    }
    return changed;
  }
}

/** The pins of a pins file's text; throws, saying why, when it is not one. */
export function parsePins(text: string): Record<string, Record<string, string>> {
  const parsed = JSON.parse(text) as { version?: unknown; servers?: unknown };
  if (parsed.version !== 1 || parsed.servers === null || typeof parsed.servers !== "object") throw new Error("not a guardwire pins file");
  for (const [server, tools] of Object.entries(parsed.servers as Record<string, unknown>)) {
    if (tools === null || typeof tools !== "object") throw new Error(`bad entry for server ${server}`);
    for (const [tool, fp] of Object.entries(tools as Record<string, unknown>)) {
      if (typeof fp !== "string" || !/^[0-9a-f]{64}$/.test(fp)) throw new Error(`bad fingerprint for ${server}/${tool}`);
    }
  }
  return Object.assign(Object.create(null), parsed.servers) as Record<string, Record<string, string>>;
}

/**
 * Pins persisted in a JSON file (default ~/.guardwire/pins.json). A file that cannot be read as pins is never
 * trusted: it is moved aside as `<file>.corrupt-<time>`, reported, and the pins are rebuilt from what is seen next.
 */
export class PinFile extends MemoryPinStore {
  readonly problem: string | undefined;

  constructor(private readonly path: string, now: () => Date = () => new Date()) {
    super();
    let text: string | undefined;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return; // no pins yet
    }
    try {
      this.pins = parsePins(text);
    } catch (e) {
      const aside = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
      try {
        renameSync(path, aside);
      } catch {
        // reported below either way
      }
      this.problem = `pins file ${path} is corrupt (${(e as Error).message}); moved to ${aside}, pins will be rebuilt`;
    }
  }

  all(): Record<string, Record<string, string>> {
    return this.pins;
  }

  /** Forgets the pins of one server, or all of them; returns how many were dropped. */
  reset(server?: string): number {
    let n = 0;
    for (const s of Object.keys(this.pins)) {
      if (server !== undefined && s !== server) continue;
      n += Object.keys(this.pins[s] ?? {}).length;
      delete this.pins[s];
    }
    this.save();
    return n;
  }

  override add(list: NewPin[]): boolean {
    const changed = super.add(list);
    if (changed) this.save();
    return changed;
  }

  private save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, servers: this.pins }, null, 2) + "\n");
    renameSync(tmp, this.path);
  }
}
