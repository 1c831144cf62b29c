import { existsSync, fdatasync, statSync } from "node:fs";
import { LogFile, type LogFailure } from "./file.js";
import { HeadKeeper, type HeadHost } from "./head.js";
import { hashHex, hashTail, lineBody, prevField, timeField } from "./line.js";
import { acquireLock, releaseLock, type LockOwner } from "./lock.js";
import { GENESIS, noteOf, type DecisionInput } from "./record.js";
import { closingOf, readEnd } from "./recovery.js";
import { isoNow, Stamp } from "./stamp.js";
import { atTurnEnd } from "../turn.js";

export { noteOf, type LogFailure };

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
  /**
   * What `barrier()` waits for. `interval` (default): the lines are written to the file (the OS has them: a killed
   * process loses none); they reach the disk with the next chain-head update (at most `headEveryMs` later) or at exit.
   * `always`: the lines are also fsynced. Either way a turn's lines are one write (and one fsync): a group commit.
   */
  sync?: LogSync;
  /** While the file cannot be written, how often to try again, in ms (default 1000). */
  retryMs?: number;
  /** Lines held while the file cannot be written, at most (bytes, default 8 MiB); more are counted, not kept. */
  maxHeldBytes?: number;
  /** Told when the file stops or starts being writable (one line each, for stderr). */
  onProblem?: (text: string) => void;
  /** Hold `<dest>.lock` for this process: a second writer on the same file is refused (LOG_IN_USE). */
  lock?: LockOwner;
  /** Written as `replica` on every line (several replicas, docs/scale.md). */
  replica?: string;
  /** The hash of the rules in force now, written as `ruleset` on every line that does not name the rules that decided it. */
  ruleset?: () => string;
}

export type LogSync = "interval" | "always";

/** Something waiting for the lines written so far to be committed (`barrier`). */
interface Waiter {
  then: () => void;
  failed: () => void;
}

/**
 * The decision log: one NDJSON line per decision, each chained to the previous by SHA-256 over the exact bytes of
 * the line up to its hash, which include the previous line's hash (`prev`): record version 2 (docs/decision-log.md).
 * Lines are buffered and written with synchronous writes, so no write can overtake another (which would reorder lines
 * and break the chain): at each `barrier()` — the proxy's commit point before it forwards what the lines decide, one
 * write per turn however many sessions wait — or every `flushEveryMs` for lines nobody waits on. With `sync: always`
 * a barrier also waits for an fsync, run off the event loop; while one runs, the next turns' lines gather for the next.
 * The chain head beside the file names only lines an fsync has covered, so a machine crash never leaves it ahead of
 * the log. flushSync() (exit, signals) writes and fsyncs everything. Reopening an existing file continues its chain.
 * When the file cannot be written, `failure` says why, the lines are held (bounded) and written, in order, when it can
 * be again. Its parts: the line format (line.ts, with stamp.ts), the file (file.ts), the chain head (head.ts), what a
 * restart finds at the end of the file (recovery.ts); this class chains, buffers, commits and rotates.
 */
export class DecisionLog {
  /** The file (file.ts): appends, fsyncs, rotation, and what happens while it cannot be written. */
  private readonly file: LogFile;
  private pending: string[] = [];
  private pendingChars = 0;
  private prev = GENESIS;
  /** `,"prev":"…"`, made when the hash is: this writer's own hashes are hex, quoted as they are. */
  private prevField = `,"prev":"${GENESIS}"`;
  private nextSeq = 0;
  /** The last line known to be in the file (what the head may name). */
  private written = { seq: -1, hash: GENESIS, time: "" };
  private timer: NodeJS.Timeout | undefined;
  /** The chain head beside the file, naming the last line an fsync has covered (head.ts). */
  private readonly head: HeadKeeper;
  private lastTime = "";
  /** Waiting for this turn's write; `always`: waiting for the next fsync, and covered by the one in flight. */
  private waiters: Waiter[] = [];
  private unsynced: Waiter[] = [];
  private syncing = false;
  private commitQueued = false;
  private dropped = 0;
  /** Totals since this process opened the log, for metrics: bytes written, lines dropped, the first seq it wrote. */
  private readonly totals = { bytes: 0, dropped: 0, fromSeq: 0 };
  private locked = false;
  private readonly stamp: Stamp;
  /** The first error met (disk full, closed pipe, failed rotation); logging goes on being attempted, the proxy never crashes. */
  error: Error | undefined;

  private constructor(
    private readonly opts: DecisionLogOptions,
    size: number,
  ) {
    this.stamp = new Stamp(opts.replica, opts.ruleset);
    const retry = (): void => {
      this.flushBuffer();
      this.fsync();
      if (!this.failure) this.head.schedule();
    };
    this.file = new LogFile(opts.dest, { retryMs: opts.retryMs ?? 1000, retry, onProblem: opts.onProblem, error: (e) => (this.error ??= e) }, size);
    const host: HeadHost = {
      dest: opts.dest,
      flushed: () => {
        if (!this.failure) this.flushBuffer();
        return this.failure || this.file.fd < 0 ? undefined : { fd: this.file.fd, gen: this.file.gen, written: this.written };
      },
      fileGen: () => this.file.gen,
      lastSeq: () => this.nextSeq - 1,
      error: (e) => (this.error ??= e),
    };
    this.head = new HeadKeeper(host, opts.headEveryMs ?? 1000, this.written);
  }

  static open(opts: DecisionLogOptions): DecisionLog {
    if (opts.dest !== "-" && opts.lock) acquireLock(opts.dest, opts.lock);
    const exists = opts.dest !== "-" && existsSync(opts.dest);
    const log = new DecisionLog(opts, exists ? statSync(opts.dest).size : 0);
    log.locked = opts.dest !== "-" && !!opts.lock;
    let closing: ReturnType<typeof closingOf> | undefined;
    if (exists) {
      const end = readEnd(opts.dest);
      if (end.record) {
        log.prev = end.record.hash;
        // Read back from the file: escaped like any string (a damaged file's last hash may be anything).
        log.prevField = prevField(log.prev, false);
        log.nextSeq = end.record.seq + 1;
        log.written = { seq: end.record.seq, hash: end.record.hash, time: end.record.time as string };
        log.head.durable = log.written;
      }
      if (end.torn) closing = closingOf(end.torn);
    }
    log.totals.fromSeq = log.nextSeq;
    // A stream error (EPIPE when whoever reads stderr went away) is remembered, never thrown at the proxy.
    if (opts.dest === "-") opts.stderr?.on("error", (e: Error) => (log.error ??= e));
    else log.file.open();
    // A crash mid-write left a torn last line: end it, and say so in the chain, which continues from the last whole line.
    if (closing?.newline) log.pending.push("\n");
    if (closing?.note) log.write(closing.note);
    return log;
  }

  /** Set while the file cannot be written; the session refuses traffic meanwhile (nothing goes through unlogged). */
  get failure(): LogFailure | undefined {
    return this.file.failure;
  }

  get lastHash(): string {
    return this.prev;
  }

  get seq(): number {
    return this.nextSeq;
  }

  /** Read-only figures for metrics: lines chained and bytes written by this process, lines dropped, the chain's head. */
  stats(): { lines: number; bytes: number; dropped: number; head: { seq: number; time: string }; writable: boolean } {
    return { lines: this.nextSeq - this.totals.fromSeq, bytes: this.totals.bytes, dropped: this.totals.dropped, head: { seq: this.nextSeq - 1, time: this.lastTime || this.written.time }, writable: !this.failure };
  }

  get sync(): LogSync {
    return this.opts.sync ?? "interval";
  }

  /** Chains the line and buffers it; `barrier()` (or the next timer) writes it. */
  write(input: DecisionInput): void {
    if (this.failure && this.heldChars() >= (this.opts.maxHeldBytes ?? MAX_HELD)) {
      // Bounded: past the cap a line is not chained at all (so the chain stays whole), only counted.
      this.dropped++;
      this.totals.dropped++;
      return;
    }
    // The writer's own time is ISO digits and punctuation, quoted as is; a given clock's is escaped like any string.
    const time = this.opts.clock ? this.opts.clock().toISOString() : isoNow();
    // Version 2 (line.ts): the hash covers the exact bytes of the line before its hash (prev included), serialized once.
    const body = lineBody(time, timeField(time, !this.opts.clock), this.nextSeq, input, this.prev, this.prevField, this.stamp);
    const hash = hashHex(body);
    const full = body + hashTail(hash) + "\n";
    // Sizes are counted in UTF-16 units: rotation is approximate for non-ASCII text, which is fine for a size cap.
    const size = this.file.size + this.pendingChars;
    if (this.opts.maxBytes && this.opts.dest !== "-" && !this.failure && size > 0 && size + full.length > this.opts.maxBytes) this.rotate();
    this.pending.push(full);
    this.pendingChars += full.length;
    this.prev = hash;
    this.prevField = prevField(hash, true);
    this.nextSeq++;
    this.lastTime = time;
    this.head.dirty = true;
    if (this.pendingChars >= FLUSH_AT && !this.failure) this.flushBuffer();
    else this.schedule();
  }

  /**
   * Runs `then` once every line written so far is committed — in the file (`interval`), or in the file and fsynced
   * (`always`) — or `failed` if it cannot be (`failure` says why). The barriers of one turn share one write: the first
   * queues the commit at the turn's end (turn.ts: a stdio chunk's, else a microtask), so whatever else this turn
   * decides joins it. Barriers complete in the order they
   * were made.
   */
  barrier(then: () => void, failed: () => void): void {
    this.waiters.push({ then, failed });
    if (this.commitQueued) return;
    this.commitQueued = true;
    atTurnEnd(this.commitTurn);
  }

  private readonly commitTurn = (): void => {
    this.commitQueued = false;
    const waiters = this.waiters;
    this.waiters = [];
    if (!this.failure) this.flushBuffer();
    if (this.failure) {
      for (const w of waiters) w.failed();
      return;
    }
    if (this.opts.sync !== "always" || this.opts.dest === "-") {
      for (const w of waiters) w.then();
      this.head.schedule();
      return;
    }
    for (const w of waiters) this.unsynced.push(w);
    this.syncNext();
  };

  /** `always`: one fsync at a time, off the event loop, covering every line written before it started. */
  private syncNext(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    if (this.failure) {
      for (const w of this.unsynced.splice(0)) w.failed();
      return;
    }
    const covered = this.unsynced;
    this.unsynced = [];
    const mark = this.written;
    const gen = this.file.gen;
    this.syncing = true;
    fdatasync(this.file.fd, (e) => {
      this.syncing = false;
      // A file rotated away meanwhile was fsynced by the rotation before it was closed.
      if (e && gen === this.file.gen) this.file.fail(e);
      if (this.failure) {
        for (const w of covered) w.failed();
      } else {
        if (gen === this.file.gen) this.head.covered(mark);
        for (const w of covered) w.then();
        this.head.schedule();
      }
      this.syncNext();
    });
  }

  /** Everything written so far is on disk when this returns (exit, signals). */
  flushSync(): void {
    this.flushBuffer();
    this.fsync();
    this.head.writeNow();
    this.settleWaiters();
    if (this.failure && this.heldChars() > 0) {
      this.opts.onProblem?.(`guardwire: ${this.heldChars()} bytes of decision lines could not be written to ${this.failure.file} (${this.failure.code}) and are lost`);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.head.stop();
    this.flushSync();
    this.file.close();
    this.releaseLock();
  }

  /** Lets another process open the file (close() does it; at a hard exit the lock is found stale). */
  releaseLock(): void {
    if (!this.locked || !this.opts.lock) return;
    this.locked = false;
    releaseLock(this.opts.dest, this.opts.lock);
  }

  private heldChars(): number {
    return this.pendingChars + this.file.held;
  }

  /** After a synchronous flush and fsync (exit, rotation): whoever waits is told, written or not. */
  private settleWaiters(): void {
    const all = [...this.unsynced, ...this.waiters];
    this.unsynced = [];
    this.waiters = [];
    for (const w of all) (this.failure ? w.failed : w.then)();
  }

  private fsync(): void {
    if (this.file.fsync()) this.head.covered(this.written);
  }

  private flushBuffer(): void {
    if (this.pending.length === 0 && this.file.held === 0) return;
    if (this.opts.dest === "-") {
      const data = this.pending.join("");
      this.pending = [];
      this.pendingChars = 0;
      // stderr: its own stream keeps the order; a pipe there may be non-blocking, so no writeSync.
      if (!this.error) this.opts.stderr?.write(data);
      this.totals.bytes += Buffer.byteLength(data);
      return;
    }
    // Lines stay pending while the file cannot even be opened.
    if (!this.file.open()) return;
    const fresh = this.pending.length > 0 ? Buffer.from(this.pending.join("")) : undefined;
    this.pending = [];
    this.pendingChars = 0;
    const done = this.file.append(fresh);
    this.totals.bytes += done.bytes;
    if (this.failure) return;
    this.written = { seq: this.nextSeq - 1, hash: this.prev, time: this.lastTime };
    if (done.ended && this.dropped > 0) {
      const n = this.dropped;
      this.dropped = 0;
      this.write(noteOf("LOG_LINES_DROPPED", `${n} decision line(s) were not kept while the log could not be written (${done.ended.code}): more than ${this.opts.maxHeldBytes ?? MAX_HELD} bytes were waiting`));
    }
  }

  private schedule(): void {
    if (this.timer) return;
    // Lines reach the file (for tail -f) this often; no fsync on this path.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.failure) this.flushBuffer();
      this.head.schedule();
    }, this.opts.flushEveryMs ?? 100);
    this.timer.unref();
  }

  private rotate(): void {
    this.flushSync();
    if (!this.failure) this.file.rotate(this.opts.keep ?? 5);
  }
}

const MAX_HELD = 8 * 1024 * 1024;
const FLUSH_AT = 64 * 1024;
