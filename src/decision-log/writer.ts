import { hash } from "node:crypto";
import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { canonicalize } from "../protocol/canonical.js";
import { writeHead } from "./head.js";
import { GENESIS, type DecisionInput, type DecisionRecord } from "./record.js";

export interface DecisionLogOptions {
  /** A file path, or "-" for stderr. */
  dest: string;
  /** Used when dest is "-". */
  stderr?: NodeJS.WritableStream;
  /** Rotate when the file would exceed this many bytes; 0 or unset: never. */
  maxBytes?: number;
  /** Rotated files kept (file.1 … file.N). */
  keep?: number;
  clock?: () => Date;
  /** How often buffered lines are written, in ms (default 100). */
  flushEveryMs?: number;
  /** How often, at most, the chain head beside the file is rewritten while lines keep coming, in ms (default 1000). */
  headEveryMs?: number;
}


/**
 * The decision log: one NDJSON line per decision, each chained to the previous by SHA-256:
 * hash = sha256(prev + canonical(line without hash)). Lines are buffered and written with one synchronous write per
 * 64 KiB or per `flushEveryMs`, so the hot path does not touch the disk and no write can overtake another (which would
 * reorder lines and break the chain). flushSync() (exit, signals) writes and fsyncs everything. Reopening an existing
 * file continues its chain.
 */
export class DecisionLog {
  private fd = -1;
  private pending: string[] = [];
  private pendingChars = 0;
  private prev = GENESIS;
  private nextSeq = 0;
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private headDirty = false;
  private headTimer: NodeJS.Timeout | undefined;
  private lastHeadAt = 0;
  private lastTime = "";
  /** The first write error (disk full, closed pipe); logging goes on being attempted, the proxy never crashes. */
  error: Error | undefined;

  private constructor(private readonly opts: DecisionLogOptions) {}

  static open(opts: DecisionLogOptions): DecisionLog {
    const log = new DecisionLog(opts);
    let torn = false;
    if (opts.dest !== "-" && existsSync(opts.dest)) {
      const end = lastRecord(opts.dest);
      if (end.record) {
        log.prev = end.record.hash;
        log.nextSeq = end.record.seq + 1;
      }
      torn = end.torn;
      log.bytes = statSync(opts.dest).size;
    }
    // A stream error (EPIPE when whoever reads stderr went away) is remembered, never thrown at the proxy.
    if (opts.dest === "-") opts.stderr?.on("error", (e: Error) => (log.error ??= e));
    log.openFile();
    // A crash mid-write left half a line: end it, so the next record starts a line of its own (verify names the torn one).
    if (torn) log.pending.push("\n");
    return log;
  }

  get lastHash(): string {
    return this.prev;
  }

  get seq(): number {
    return this.nextSeq;
  }

  write(input: DecisionInput): void {
    const time = this.opts.clock ? this.opts.clock().toISOString() : isoNow();
    const seq = this.nextSeq;
    const prev = this.prev;
    const { line, canonical } = serialize(time, seq, input, prev);
    const hash = hashHex(prev + canonical);
    const full = line + ',"hash":"' + hash + '"}\n';
    // Sizes are counted in UTF-16 units: rotation is approximate for non-ASCII text, which is fine for a size cap.
    const size = this.bytes + this.pendingChars;
    if (this.opts.maxBytes && this.opts.dest !== "-" && size > 0 && size + full.length > this.opts.maxBytes) this.rotate();
    this.pending.push(full);
    this.pendingChars += full.length;
    this.prev = hash;
    this.nextSeq++;
    this.lastTime = time;
    this.headDirty = true;
    if (this.pendingChars >= FLUSH_AT) this.flushBuffer();
    else this.schedule();
  }

  /** Everything written so far is on disk when this returns (exit, signals). */
  flushSync(): void {
    this.flushBuffer();
    if (this.fd >= 0) {
      try {
        fsyncSync(this.fd);
      } catch (e) {
        this.error ??= e as Error;
      }
    }
    this.writeHeadNow();
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.headTimer) clearTimeout(this.headTimer);
    this.timer = undefined;
    this.headTimer = undefined;
    this.flushSync();
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private openFile(): void {
    if (this.opts.dest === "-") return;
    mkdirSync(dirname(this.opts.dest), { recursive: true });
    this.fd = openSync(this.opts.dest, "a");
  }

  private flushBuffer(): void {
    if (this.pending.length === 0) return;
    const data = this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    if (this.opts.dest === "-") {
      // stderr: its own stream keeps the order; a pipe there may be non-blocking, so no writeSync.
      if (!this.error) this.opts.stderr?.write(data);
      return;
    }
    const buf = Buffer.from(data);
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off);
      this.bytes += buf.length;
    } catch (e) {
      this.error ??= e as Error;
    }
  }

  private schedule(): void {
    if (this.timer) return;
    // Lines reach the file (for tail -f) this often; no fsync on this path.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushBuffer();
      this.scheduleHead();
    }, this.opts.flushEveryMs ?? 100);
    this.timer.unref();
  }

  /** The head is a file rewrite and a rename: at most once per `headEveryMs`, and always after the lines it names. */
  private scheduleHead(): void {
    if (this.headTimer || !this.headDirty) return;
    const wait = Math.max(0, this.lastHeadAt + (this.opts.headEveryMs ?? 1000) - Date.now());
    this.headTimer = setTimeout(() => {
      this.headTimer = undefined;
      this.flushBuffer();
      this.writeHeadNow();
    }, wait);
    this.headTimer.unref();
  }

  private rotate(): void {
    this.flushSync();
    this.bytes = 0;
    const keep = this.opts.keep ?? 5;
    const file = this.opts.dest;
    try {
      for (let i = keep - 1; i >= 1; i--) {
        if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      }
      renameSync(file, `${file}.1`);
    } catch (e) {
      // Cannot rotate (permissions, something in the way): keep appending to this file, try again after maxBytes more.
      this.error ??= e as Error;
      return;
    }
    try {
      closeSync(this.fd);
      this.openFile();
    } catch (e) {
      this.error ??= e as Error;
      this.fd = -1;
    }
  }

  private writeHeadNow(): void {
    if (!this.headDirty || this.opts.dest === "-") return;
    this.headDirty = false;
    this.lastHeadAt = Date.now();
    try {
      writeHead(this.opts.dest, { seq: this.nextSeq - 1, hash: this.prev, time: this.lastTime });
    } catch (e) {
      this.error ??= e as Error;
    }
  }
}

const FLUSH_AT = 64 * 1024;

/** Field order of a line (documented); `hash` comes last. */
const LINE_KEYS = [
  "time", "seq", "session", "route", "transport", "protocol", "direction", "kind", "id", "method", "tool", "agent",
  "decision", "mode", "rules", "reasonCode", "message", "evalUs", "digest", "ruleset", "failOpen", "preview",
  "peer", "task", "context", "prev",
] as const;
const QUOTED = LINE_KEYS.map((k) => JSON.stringify(k));
/** Positions of LINE_KEYS in canonical (sorted) order. */
const SORTED = LINE_KEYS.map((_k, i) => i).sort((a, b) => ((LINE_KEYS[a] as string) < (LINE_KEYS[b] as string) ? -1 : 1));
const KNOWN = new Set<string>(LINE_KEYS);

/**
 * The line (fields in documented order, without hash) and the canonical form the hash covers (sorted keys), from one
 * serialization of each value. Values are primitives or string arrays, for which JSON.stringify is canonical.
 */
function serialize(time: string, seq: number, input: DecisionInput, prev: string): { line: string; canonical: string } {
  const fields = input as unknown as Record<string, unknown>;
  for (const k in input) {
    if (!KNOWN.has(k)) {
      // A field this writer does not know: generic (slower) path, same result.
      const rec = Object.assign({ time, seq }, input, { prev });
      const line = JSON.stringify(rec);
      return { line: line.slice(0, -1), canonical: canonicalize(rec) };
    }
  }
  const parts: (string | undefined)[] = new Array(LINE_KEYS.length);
  for (let i = 0; i < LINE_KEYS.length; i++) {
    const k = LINE_KEYS[i] as string;
    const v = k === "time" ? time : k === "seq" ? seq : k === "prev" ? prev : fields[k];
    parts[i] = v === undefined ? undefined : jsonValue(v);
  }
  let line = "{";
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === undefined) continue;
    if (line.length > 1) line += ",";
    line += QUOTED[i] + ":" + parts[i];
  }
  let canonical = "{";
  for (const i of SORTED) {
    if (parts[i] === undefined) continue;
    if (canonical.length > 1) canonical += ",";
    canonical += QUOTED[i] + ":" + parts[i];
  }
  return { line, canonical: canonical + "}" };
}

/** JSON.stringify for the values a record holds, without its per-call cost for the common plain strings. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
function jsonValue(v: unknown): string {
  if (typeof v === "string") return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : '"' + v + '"';
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i > 0 ? "," : "") + jsonValue(v[i]);
    return out + "]";
  }
  return canonicalize(v);
}

/** toISOString is costly per call; decisions come many per millisecond under load. */
let lastMs = -1;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function hashHex(text: string): string {
  return hash("sha256", text, "hex");
}

/** The last complete record of a log file, read from its end, and whether the file ends mid-line. */
function lastRecord(path: string): { record: DecisionRecord | undefined; torn: boolean } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const window = Math.min(size, 1024 * 1024);
    const buf = Buffer.alloc(window);
    readSync(fd, buf, 0, window, size - window);
    const torn = size > 0 && buf[window - 1] !== 0x0a;
    const lines = buf.toString("utf8").split("\n").filter((l) => l.trim().length > 0);
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const r = JSON.parse(lines[i] as string) as DecisionRecord;
        if (typeof r.hash === "string" && typeof r.seq === "number") return { record: r, torn };
      } catch {
        // a torn last line (crash mid-write): look further back
      }
    }
    return { record: undefined, torn };
  } finally {
    closeSync(fd);
  }
}
