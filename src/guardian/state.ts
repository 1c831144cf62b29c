import { readFileSync, renameSync, statSync, unwatchFile, watchFile } from "node:fs";
import { dirname } from "node:path";
import type { InputRequest, Limiter, SessionView } from "./evaluate.js";
import type { NewPin, Pin, PinStore } from "./detectors/pins.js";
import { writeFileAtomic } from "../fs-atomic.js";
import { makeDirs } from "../fs-dirs.js";
import { withFileLock, type LockOptions, type LockOwner } from "../fs-lock.js";

/** A Map that forgets its least recently used entries beyond `max`: state keyed by wire data stays bounded. */
export class Lru<K, V> {
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
  delete(key: K): void {
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
  }
  get size(): number {
    return this.map.size;
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

  /** The session ended: its labels and counts go. */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** How many sessions' state is held (bounded: 10,000). */
  get size(): number {
    return this.sessions.size;
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

  /** The session ended: the requests held for it go. */
  forget(session: string): void {
    this.sessions.delete(session);
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

export type Pins = Record<string, Record<string, Pin>>;

const own = <T>(o: Record<string, T>, key: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined);
const hasTools = (pins: Pins, server: string): boolean => {
  const tools = own(pins, server);
  for (const _ in tools) return true;
  return false;
};

/**
 * Applies what an evaluation found to a table of pins: first sightings are pinned, changes kept pending, settled pins
 * tidied. The same list is applied to this process's copy and, when saved, to what the file holds then, so each case
 * also says what to do when another process changed the pin meanwhile: a tool it pinned first keeps its pin (a
 * different sighting here is a change waiting for approval), a change it approved is not made pending again.
 */
export function applyNewPins(pins: Pins, list: readonly NewPin[]): boolean {
  let changed = false;
  for (const p of list) {
    if (p.from !== undefined && !hasTools(pins, p.server) && hasTools(pins, p.from)) {
      // Pins found under the name the server reports (an older pins file) are the route's from now on.
      define(pins, p.server, copyTools(own(pins, p.from) as Record<string, Pin>));
      changed = true;
    }
    const tools = own(pins, p.server);
    const pin = tools && own(tools, p.tool);
    const seen = p.definition ? { fingerprint: p.fingerprint, definition: p.definition } : { fingerprint: p.fingerprint };
    const isPin = pin !== undefined && !pin.legacy && pin.fingerprint === p.fingerprint;
    if (p.kind === "new") {
      if (pin === undefined) {
        if (tools) define(tools, p.tool, seen);
        else define(pins, p.server, define(Object.create(null) as Record<string, Pin>, p.tool, seen));
      } else if (pin.legacy || isPin || pin.pending?.fingerprint === p.fingerprint) continue;
      else pin.pending = seen;
    } else if (p.kind === "changed") {
      if (pin === undefined || pin.pending?.fingerprint === p.fingerprint) continue;
      if (isPin) {
        if (!pin.pending) continue;
        delete pin.pending;
      } else pin.pending = seen;
    } else {
      if (pin === undefined) continue;
      if (pin.legacy) define(tools as Record<string, Pin>, p.tool, seen);
      else if (isPin && pin.pending) delete pin.pending;
      else continue;
    }
    changed = true;
  }
  return changed;
}

function copyTools(tools: Record<string, Pin>): Record<string, Pin> {
  const out = Object.create(null) as Record<string, Pin>;
  for (const [tool, pin] of Object.entries(tools)) define(out, tool, pin.pending ? { ...pin, pending: { ...pin.pending } } : { ...pin });
  return out;
}

export class MemoryPinStore implements PinStore {
  protected pins: Pins = Object.create(null) as Pins;

  get(server: string, tool: string): Pin | undefined {
    const tools = own(this.pins, server);
    return tools && own(tools, tool);
  }

  has(server: string): boolean {
    return hasTools(this.pins, server);
  }

  /** Applies what an evaluation found: first sightings are pinned, changes kept pending, settled pins tidied. */
  add(list: NewPin[]): boolean {
    return applyNewPins(this.pins, list);
  }

  /** Nothing to take in: only this process changes pins kept in memory. */
  refresh(): void {}
}

/** Names from the wire (servers, tools) as own properties, whatever they are (`__proto__` included). */
export function define<O extends object>(o: O, key: string, value: unknown): O {
  return Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
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


/** The options of a pins file. */
export interface PinFileOptions {
  /** This process, for the lock `<file>.lock` every writer takes (src/fs-lock.ts). */
  owner: LockOwner;
  now?: () => Date;
  /** Told when pins could not be saved (they stay in force here and are saved again later), and when they were. */
  onError?: (message: string) => void;
  lock?: LockOptions;
}

/** A change to the pins: applied to this process's copy at once, and to the file's pins, under the lock, when saved. */
interface Change {
  apply(pins: Pins): unknown;
  /** An intentional change (approve, reset) waits for the file: its result, or why it could not be saved. */
  done?(result: unknown): void;
  failed?(e: Error): void;
}

/** Changes waiting to be saved while the file cannot be written: beyond this, the oldest pins seen are saved no more. */
const MAX_UNSAVED = 10_000;

/**
 * Pins persisted in a JSON file (default ~/.guardwire/pins.json), shared by every process that uses it (each `wrap`
 * of a client, `serve`, `guardian`, the pins command): per server and tool, the fingerprint and approved definition,
 * and a change waiting for approval. A process never writes its copy over the file: each change it makes is applied,
 * under the lock `<file>.lock`, to the file as it is then, written to a temporary file, fsynced and renamed into place
 * (src/fs-atomic.ts), off the event loop; so what others pinned meanwhile is kept, and a tool another process pinned
 * first stays pinned as it saw it. The file is re-read when it changed (polled once a second, and before every tool
 * list is judged), so a rug pull is caught against pins another process wrote.
 *
 * Version 1 files (fingerprints only) still load; their pins gain a definition the next time the tool is seen
 * unchanged. A file that cannot be read as pins is never trusted: it is moved aside as `<file>.corrupt-<time>`,
 * reported, and the pins are rebuilt from what is seen next (a running process writes back what it holds).
 */
export class PinFile extends MemoryPinStore {
  problem: string | undefined;
  /** The pins as last read from or written to the file: this process's copy is these plus the changes not yet saved. */
  private base: Pins = Object.create(null) as Pins;
  /** Which version of the file `base` is (inode, size, mtime: each write is a new inode). */
  private version = "";
  private queued: Change[] = [];
  private writing: Change[] = [];
  private saving: Promise<void> | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private readonly lockPath: string;
  private readonly onChange = () => this.refresh();

  constructor(
    private readonly path: string,
    private readonly opts: PinFileOptions,
  ) {
    super();
    this.lockPath = `${path}.lock`;
    // Approvals and resets come from another process (the pins command): the file is polled once a second, outside
    // any evaluation, and never keeps the process alive.
    watchFile(path, { interval: 1000, persistent: false }, this.onChange);
    const read = this.read();
    if (read === "corrupt") this.problem = this.moveAside();
    else if (read) [this.base, this.version] = read;
    this.pins = clonePins(this.base);
  }

  /** Stops watching the file and retrying (`flush` first to save what is waiting). */
  close(): void {
    unwatchFile(this.path, this.onChange);
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  /** Saves what is waiting to be saved; resolves once it is on disk, or once saving failed (reported). */
  async flush(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    this.persist();
    while (this.saving) await this.saving;
  }

  all(): Pins {
    return this.pins;
  }

  /** Re-reads the file if another process changed it; an unreadable file leaves the pins held (saved again on the next change). */
  override refresh(): void {
    const read = this.read();
    if (read === undefined || read === "corrupt") return;
    [this.base, this.version] = read;
    this.rebuild();
  }

  /** Forgets the pins of one server, or all of them, in the file as it is; resolves to how many were dropped. */
  reset(server?: string): Promise<number> {
    return this.update((pins) => {
      let n = 0;
      for (const s of Object.keys(pins)) {
        if (server !== undefined && s !== server) continue;
        n += Object.keys(pins[s] ?? {}).length;
        delete pins[s];
      }
      return n;
    });
  }

  /**
   * Accepts a tool's pending change as its new pin; false when there is none to accept, or when the file holds
   * another change for it than the one this process read (the server changed it again: look again).
   */
  approve(server: string, tool: string): Promise<boolean> {
    this.refresh();
    const reviewed = this.get(server, tool)?.pending;
    if (!reviewed) return Promise.resolve(false);
    return this.update((pins) => {
      const tools = own(pins, server);
      const pin = tools && own(tools, tool);
      if (!tools || pin?.pending?.fingerprint !== reviewed.fingerprint) return false;
      define(tools, tool, pin.pending);
      return true;
    });
  }

  override add(list: NewPin[]): boolean {
    const changed = super.add(list);
    if (changed) {
      const oldest = this.queued.length >= MAX_UNSAVED ? this.queued.findIndex((c) => !c.done) : -1;
      if (oldest >= 0) this.queued.splice(oldest, 1);
      this.change({ apply: (pins) => applyNewPins(pins, list) });
    }
    return changed;
  }

  private update<T>(apply: (pins: Pins) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      apply(this.pins);
      this.change({ apply, done: (r) => resolve(r as T), failed: reject });
    });
  }

  private change(c: Change): void {
    this.queued.push(c);
    if (this.retry === undefined) this.persist();
  }

  /** One save at a time; a save takes every change queued when it starts, and goes on while more were queued. */
  private persist(): void {
    if (this.saving || this.queued.length === 0) return;
    this.saving = this.save().finally(() => {
      this.saving = null;
      // Queued as the save ended; after a failure the retry's timer saves them.
      if (this.retry === undefined) this.persist();
    });
  }

  private async save(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = (this.writing = this.queued);
      this.queued = [];
      let results: unknown[];
      try {
        makeDirs(dirname(this.path));
        results = await withFileLock(this.lockPath, this.opts.owner, () => this.write(batch), this.opts.lock);
      } catch (e) {
        this.writing = [];
        // An intentional change fails to whoever asked for it; pins seen stay in force here and are saved later.
        for (const c of batch) c.failed?.(e as Error);
        this.queued = [...batch.filter((c) => !c.failed), ...this.queued];
        this.rebuild();
        this.failed(e as Error);
        return;
      }
      batch.forEach((c, i) => c.done?.(results[i]));
      if (this.failures > 0) this.opts.onError?.(`pins saved to ${this.path} again`);
      this.failures = 0;
    }
  }

  /** Under the lock: the file as it is now, with the batch applied, written back (unless nothing changed). */
  private async write(batch: Change[]): Promise<unknown[]> {
    const read = this.read(true);
    let fresh: Pins;
    if (read === "corrupt") {
      this.problem = this.moveAside();
      this.opts.onError?.(this.problem);
      fresh = clonePins(this.base);
    } else fresh = read ? read[0] : (Object.create(null) as Pins);
    const before = serialize(fresh);
    const results = batch.map((c) => c.apply(fresh));
    const text = serialize(fresh);
    if (text !== before || read === undefined || read === "corrupt") await writeFileAtomic(this.path, text);
    this.base = fresh;
    this.version = versionOf(this.path);
    this.writing = [];
    this.rebuild();
    return results;
  }

  /** The copy this process judges with: the file's pins and the changes not yet in it. */
  private rebuild(): void {
    const pins = clonePins(this.base);
    for (const c of this.writing) c.apply(pins);
    for (const c of this.queued) c.apply(pins);
    this.pins = pins;
  }

  /** Saving failed: said once until it works again, and tried again after a while (at most every 30 s). */
  private failed(e: Error): void {
    if (this.failures === 0) this.opts.onError?.(`pins could not be saved to ${this.path} (${e.message}); they stay in force here and are saved again when possible`);
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.persist();
    }, Math.min(30_000, 500 * 2 ** this.failures));
    this.retry.unref?.();
  }

  /**
   * The file's pins and version; undefined when it is missing, unchanged since last read (unless `always`), or
   * unreadable; "corrupt" when it is there but not a pins file.
   */
  private read(always = false): [Pins, string] | "corrupt" | undefined {
    let text: string;
    let version: string;
    try {
      version = versionOf(this.path);
      if (!always && version === this.version) return undefined;
      text = readFileSync(this.path, "utf8");
    } catch (e) {
      if (always && (e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      return undefined;
    }
    try {
      return [parsePins(text), version];
    } catch {
      return "corrupt";
    }
  }

  private moveAside(): string {
    const aside = `${this.path}.corrupt-${(this.opts.now ?? (() => new Date()))().toISOString().replace(/[:.]/g, "-")}`;
    let why = "not a pins file";
    try {
      parsePins(readFileSync(this.path, "utf8"));
    } catch (e) {
      why = (e as Error).message;
    }
    try {
      renameSync(this.path, aside);
    } catch {
      // reported either way
    }
    return `pins file ${this.path} is corrupt (${why}); moved to ${aside}, pins will be rebuilt`;
  }
}

const serialize = (pins: Pins) => JSON.stringify({ version: 2, servers: pins }, null, 2) + "\n";
const clonePins = (pins: Pins) => parsePins(serialize(pins));

function versionOf(path: string): string {
  const st = statSync(path);
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}
