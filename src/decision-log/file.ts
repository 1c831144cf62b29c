import { closeSync, existsSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { syncDirSync } from "../fs-atomic.js";
import { makeDirs } from "../fs-dirs.js";

/** Why the log cannot be written right now. */
export interface LogFailure {
  file: string;
  /** errno code (ENOSPC, EACCES, EFBIG…). */
  code: string;
  message: string;
}

export interface LogFileHooks {
  /** While the file cannot be written, how often to try again, in ms. */
  retryMs: number;
  /** Try again: write what waits and fsync (the writer's, which knows what waits). */
  retry(): void;
  /** Told when the file stops or starts being writable (one line each, for stderr). */
  onProblem?: (text: string) => void;
  /** The first error met is kept by the writer. */
  error(e: Error): void;
}

/**
 * The log's file: bytes appended in order with synchronous writes (no write can overtake another), fsynced, rotated.
 * When it cannot be written, `failure` says why, the bytes a failed write did not take are kept to go first (a line
 * cut by ENOSPC is completed, not repeated), and it is tried again every `retryMs`.
 */
export class LogFile {
  fd = -1;
  /** Bytes in the file now (for rotation). */
  size: number;
  /** Counts files opened by rotation and closes: an fsync of a file rotated away was covered by the rotation's own. */
  gen = 0;
  /** Set while the file cannot be written; the session refuses traffic meanwhile (nothing goes through unlogged). */
  failure: LogFailure | undefined;
  /** Bytes of a write that failed part-way: they go first. */
  private stuck: Buffer | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly path: string,
    private readonly hooks: LogFileHooks,
    size: number,
  ) {
    this.size = size;
  }

  /** Bytes a failed write left, waiting. */
  get held(): number {
    return this.stuck?.length ?? 0;
  }

  open(): boolean {
    if (this.fd >= 0) return true;
    try {
      this.fd = openLogFile(this.path);
      return true;
    } catch (e) {
      this.fail(e as NodeJS.ErrnoException);
      return false;
    }
  }

  /**
   * Appends what a failed write left, then `data`, to the file `open()` opened. Returns the bytes written and, when this
   * write ended a failure, the failure it ended; `failure` is set when it could not write them all.
   */
  append(data: Buffer | undefined): { bytes: number; ended?: LogFailure } {
    const buf = this.stuck && data ? Buffer.concat([this.stuck, data]) : (this.stuck ?? data ?? Buffer.alloc(0));
    this.stuck = undefined;
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.fd, buf, off);
    } catch (e) {
      this.size += off;
      this.stuck = buf.subarray(off);
      this.fail(e as NodeJS.ErrnoException);
      return { bytes: off };
    }
    this.size += buf.length;
    const ended = this.failure;
    if (ended) this.writable();
    return { bytes: buf.length, ended };
  }

  /** Everything written is on disk when this returns true. */
  fsync(): boolean {
    if (this.fd < 0 || this.failure) return false;
    try {
      fsyncSync(this.fd);
      return true;
    } catch (e) {
      this.fail(e as NodeJS.ErrnoException);
      return false;
    }
  }

  /** `log` → `log.1` → … (`keep` kept) and a new `log`; the caller wrote and fsynced everything first. */
  rotate(keep: number): void {
    this.gen++;
    this.size = 0;
    try {
      shiftRotated(this.path, keep);
    } catch (e) {
      // Cannot rotate (permissions, something in the way): keep appending to this file, try again after maxBytes more.
      this.hooks.error(e as Error);
      return;
    }
    closeSync(this.fd);
    this.fd = -1;
    this.open();
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    // An fsync still in flight on the closed file was covered by the caller's.
    this.gen++;
  }

  fail(e: NodeJS.ErrnoException): void {
    this.hooks.error(e);
    const first = !this.failure;
    this.failure = { file: this.path, code: e.code ?? "EIO", message: e.message };
    if (first) this.hooks.onProblem?.(`guardwire: cannot write the decision log ${this.path} (${this.failure.code}): traffic is refused until it can be written`);
    this.scheduleRetry();
  }

  private writable(): void {
    const was = this.failure;
    this.failure = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.hooks.onProblem?.(`guardwire: the decision log ${this.path} is writable again (after ${was?.code}); traffic resumes`);
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.hooks.retry();
      if (this.failure) this.scheduleRetry();
    }, this.hooks.retryMs);
    this.retryTimer.unref();
  }
}

/**
 * Opens the log for appending, making its folder if needed; throws what the open met (ENOTDIR, EACCES…). A file it
 * creates has its name made durable at once (an fsync of its folder), so a crash never leaves a head — written after
 * an fsync of the log — beside no log at all.
 */
function openLogFile(path: string): number {
  try {
    makeDirs(dirname(path));
  } catch {
    // opening says why more plainly (ENOTDIR, EACCES)
  }
  const created = !existsSync(path);
  const fd = openSync(path, "a");
  if (created) syncNewName(dirname(path));
  return fd;
}

/** Moves `log` → `log.1` → `log.2` … keeping `keep` rotated files; throws when a rename fails. */
function shiftRotated(path: string, keep: number): void {
  for (let i = keep - 1; i >= 1; i--) {
    if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  }
  renameSync(path, `${path}.1`);
}

/** Best effort: a directory this process may write in but not open (no read permission) keeps the log working. */
function syncNewName(dir: string): void {
  try {
    syncDirSync(dir);
  } catch {
    // the name becomes durable at the filesystem's next commit
  }
}
