import { readFileSync, renameSync, statSync, unwatchFile, watchFile, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { InputRequest, Limiter, SessionView } from "./evaluate.js";
import type { NewPin, Pin, PinStore } from "./detectors/pins.js";
import { makeDirs } from "../fs-dirs.js";

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

/**
 * Guardian state shared by several replicas (docs/scale.md, Shared state), kept in a store outside the process:
 * src/store/guardian-state.ts keeps it in Redis. The embedded guardian reads it in at most one round trip per message.
 */
export interface SharedState {
  /** Pins, read from a local copy the store keeps current (no round trip); first sightings and changes written through. */
  readonly pins: PinStore & { add(list: NewPin[]): unknown };
  /** Whether the store can be used now (connected, pins loaded). */
  readonly available: boolean;
  /** While it cannot: refuse what needs it (`closed`), or judge with this replica's memory (`local`). */
  readonly onUnavailable: "closed" | "local";
  /** The error a message that needs shared state gets while the store is away (-32051, data naming the store). */
  unavailable(detail?: string): { code: number; message: string; data: Record<string, unknown> };
  /** One round trip: the session's labels and counts (when `session` is given), and a hit recorded in each window. */
  fetch(session: string | null, windows: { key: string; windowMs: number }[]): Promise<SharedReads>;
  /** After a decision, not awaited: labels and counts added, the hits of windows whose rule did not fire given back. */
  record(session: string, labels: readonly string[], counted: readonly string[], released: readonly WindowHit[]): void;
  /** Judging goes on with local state while the store is away (`local`): said once per outage. */
  fellBack(why: string): void;
  /**
   * The refusal (-32051) for a message these limit windows counted, while they are held closed because the store
   * lost its data (docs/scale.md, Redis restarted or emptied); null when none is.
   */
  held(windows: readonly { windowMs: number }[]): { code: number; message: string; data: Record<string, unknown> } | null;
}

export interface WindowHit {
  key: string;
  windowMs: number;
  /** The hits in the window, this one included. */
  count: number;
  /** What identifies this hit in the window, to give it back. */
  member: string;
}

export interface SharedReads {
  session: SessionView | null;
  hits: WindowHit[];
}

/**
 * A limiter answering from the hits the shared store recorded before evaluation. A window that was not fetched (a
 * request judged inside an `input_required` result) is counted by this replica alone.
 */
export class PrefetchedLimiter implements Limiter {
  private readonly hits = new Map<string, WindowHit>();
  private readonly used: WindowHit[] = [];
  constructor(
    hits: WindowHit[],
    private readonly fallback: Limiter,
  ) {
    for (const h of hits) this.hits.set(h.key, h);
  }

  hit(key: string, windowMs: number, now: number): number {
    const h = this.hits.get(key);
    if (!h) return this.fallback.hit(key, windowMs, now);
    this.hits.delete(key);
    this.used.push(h);
    return h.count;
  }

  /** The hits evaluation asked for: their rules counted the message. */
  consulted(): WindowHit[] {
    return this.used;
  }

  /** The hits evaluation never asked for: their rule's other conditions did not hold, so they do not count. */
  unused(): WindowHit[] {
    return [...this.hits.values()];
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
  protected pins: Record<string, Record<string, Pin>> = Object.create(null) as Record<string, Record<string, Pin>>;

  get(server: string, tool: string): Pin | undefined {
    return Object.prototype.hasOwnProperty.call(this.pins, server) ? this.pins[server]?.[tool] : undefined;
  }

  /** Applies what an evaluation found: first sightings are pinned, changes kept pending, settled pins tidied. */
  add(list: NewPin[]): boolean {
    let changed = false;
    for (const p of list) {
      const pin = this.get(p.server, p.tool);
      const seen = p.definition ? { fingerprint: p.fingerprint, definition: p.definition } : { fingerprint: p.fingerprint };
      if (p.kind === "new") {
        if (pin !== undefined) continue;
        const forServer = (this.pins[p.server] ??= Object.create(null) as Record<string, Pin>);
        define(forServer, p.tool, seen);
      } else if (p.kind === "changed") {
        if (pin === undefined || pin.pending?.fingerprint === p.fingerprint) continue;
        pin.pending = seen;
      } else {
        if (pin === undefined) continue;
        if (pin.legacy) define(this.pins[p.server] as Record<string, Pin>, p.tool, seen);
        else if (pin.pending) delete pin.pending;
        else continue;
      }
      changed = true;
    }
    return changed;
  }
}

/** Names from the wire (servers, tools) as own properties, whatever they are (`__proto__` included). */
export function define(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

const HEX64 = /^[0-9a-f]{64}$/;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** One pin as stored: a fingerprint alone (version 1 files), or `{ fingerprint, definition?, pending? }`. */
function readPin(raw: unknown, where: string): Pin {
  if (typeof raw === "string") {
    if (!HEX64.test(raw)) throw new Error(`bad fingerprint for ${where}`);
    return { fingerprint: raw, legacy: true };
  }
  if (!isObject(raw) || typeof raw.fingerprint !== "string" || !HEX64.test(raw.fingerprint)) throw new Error(`bad pin for ${where}`);
  if (raw.definition !== undefined && !isObject(raw.definition)) throw new Error(`bad definition for ${where}`);
  const pin: Pin = { fingerprint: raw.fingerprint };
  if (raw.definition !== undefined) pin.definition = raw.definition;
  if (raw.legacy === true) pin.legacy = true;
  if (raw.pending !== undefined) {
    const p = raw.pending;
    if (!isObject(p) || typeof p.fingerprint !== "string" || !HEX64.test(p.fingerprint) || (p.definition !== undefined && !isObject(p.definition))) {
      throw new Error(`bad pending change for ${where}`);
    }
    pin.pending = p.definition !== undefined ? { fingerprint: p.fingerprint, definition: p.definition } : { fingerprint: p.fingerprint };
  }
  return pin;
}

/** The pins of a pins file's text (also for read-only users such as `scan` and `doctor`); throws, saying why, when it is not one. */
export function parsePins(text: string): Record<string, Record<string, Pin>> {
  const parsed = JSON.parse(text) as { version?: unknown; servers?: unknown };
  if ((parsed.version !== 1 && parsed.version !== 2) || !isObject(parsed.servers)) throw new Error("not a guardwire pins file");
  const pins = Object.create(null) as Record<string, Record<string, Pin>>;
  for (const [server, tools] of Object.entries(parsed.servers)) {
    if (!isObject(tools)) throw new Error(`bad entry for server ${server}`);
    const forServer = Object.create(null) as Record<string, Pin>;
    for (const [tool, raw] of Object.entries(tools)) define(forServer, tool, readPin(raw, `${server}/${tool}`));
    define(pins, server, forServer);
  }
  return pins;
}


/**
 * Pins persisted in a JSON file (default ~/.guardwire/pins.json): per tool its fingerprint and approved definition,
 * and a change waiting for approval. Version 1 files (fingerprints only) still load; their pins gain a definition the
 * next time the tool is seen unchanged. A file that cannot be read as pins is never trusted: it is moved aside as
 * `<file>.corrupt-<time>`, reported, and the pins are rebuilt from what is seen next. A running guardian picks up what
 * `guardwire pins approve` or `reset` wrote within about a second.
 */
export class PinFile extends MemoryPinStore {
  readonly problem: string | undefined;
  private mtimeMs = 0;
  private readonly onChange = () => this.reload();

  constructor(
    private readonly path: string,
    now: () => Date = () => new Date(),
  ) {
    super();
    // Approvals and resets come from another process (the pins command): the file is polled once a second, outside
    // any evaluation, and never keeps the process alive.
    watchFile(path, { interval: 1000, persistent: false }, this.onChange);
    let text: string | undefined;
    try {
      text = readFileSync(path, "utf8");
      this.mtimeMs = statSync(path).mtimeMs;
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

  /** Stops watching the file. */
  close(): void {
    unwatchFile(this.path, this.onChange);
  }

  all(): Record<string, Record<string, Pin>> {
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

  /** Accepts a tool's pending change as its new pin; false when there is none to accept. */
  approve(server: string, tool: string): boolean {
    const pin = this.get(server, tool);
    if (!pin?.pending) return false;
    define(this.pins[server] as Record<string, Pin>, tool, pin.pending);
    this.save();
    return true;
  }

  override add(list: NewPin[]): boolean {
    const changed = super.add(list);
    if (changed) this.save();
    return changed;
  }

  /** Re-reads the file when another process changed it; an unreadable file leaves the pins held (saved again on the next change). */
  private reload(): void {
    try {
      const mtimeMs = statSync(this.path).mtimeMs;
      if (mtimeMs === this.mtimeMs) return;
      this.pins = parsePins(readFileSync(this.path, "utf8"));
      this.mtimeMs = mtimeMs;
    } catch {
      // missing or unreadable now
    }
  }

  private save(): void {
    makeDirs(dirname(this.path));
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 2, servers: this.pins }, null, 2) + "\n");
    renameSync(tmp, this.path);
    this.mtimeMs = statSync(this.path).mtimeMs;
  }
}
