import { fdatasync, readFileSync } from "node:fs";
import { writeFileAtomic, writeFileAtomicSync } from "../fs-atomic.js";

/**
 * The chain's head, kept beside the log as `<log>.head`: the seq and hash of the last line on disk. A hash chain alone
 * cannot tell a log whose last lines were deleted from one that simply ended there; the head can. It is replaced
 * whole — written aside, fsynced, renamed into place, its directory fsynced — and only after the log itself was
 * fsynced up to the line it names, so after a crash (of the process or of the machine) it may lag the log, never lead
 * it.
 */
export interface ChainHead {
  seq: number;
  hash: string;
  time: string;
}

export const headPath = (logPath: string): string => `${logPath}.head`;

/** Writes the head and waits for the disk (exit, rotation). The log must have been fsynced up to `head` before. */
export function writeHead(logPath: string, head: ChainHead): void {
  writeFileAtomicSync(headPath(logPath), JSON.stringify(head) + "\n");
}

/**
 * The same, with the writes and fsyncs off the event loop; it replaces the head only if `current()` still says so once
 * the new head is on disk aside: a head written meanwhile by `writeHead` (newer) is never replaced by this one.
 */
export function writeHeadDurably(logPath: string, head: ChainHead, current: () => boolean, done: (e?: Error | null) => void): void {
  writeFileAtomic(headPath(logPath), JSON.stringify(head) + "\n", { replaceIf: current }).then(
    () => done(),
    (e: Error) => done(e),
  );
}

export function readHead(logPath: string): ChainHead | undefined {
  let text: string;
  try {
    text = readFileSync(headPath(logPath), "utf8");
  } catch {
    return undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<ChainHead>;
    if (typeof h.seq === "number" && typeof h.hash === "string") return { seq: h.seq, hash: h.hash, time: String(h.time ?? "") };
  } catch {
    // an unreadable head is reported by verify as such
  }
  return { seq: -1, hash: "", time: "" };
}

/** What the head keeper needs of the log whose head it keeps (writer.ts). */
export interface HeadHost {
  readonly dest: string;
  /**
   * Writes the buffered lines if the file can be written, and gives the file now open — its descriptor, its generation
   * (rotation and close change it) and the last line in it — or undefined while the log cannot be written.
   */
  flushed(): { fd: number; gen: number; written: ChainHead } | undefined;
  /** The generation of the file open now. */
  fileGen(): number;
  /** The seq of the last line chained, written or not. */
  lastSeq(): number;
  error(e: Error): void;
}

/**
 * Keeps the head beside the log: rewritten at most once per `everyMs` while lines come, naming only lines on disk —
 * the log is fsynced first, then the head is written aside, fsynced, renamed into place and its directory fsynced. The
 * fsyncs run off the event loop. So after a machine crash the head may lag the log, never lead it.
 */
export class HeadKeeper {
  /** Lines were chained since the head was last written. */
  dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** An update is under way (its fsyncs run off the event loop). */
  private busy = false;
  /** Counts heads written at once (exit, rotation): an update that started before one of them does not rename its head in. */
  private gen = 0;
  private lastAt = 0;

  constructor(
    private readonly host: HeadHost,
    private readonly everyMs: number,
    /** The last line an fsync has covered: the most the head may name. */
    public durable: ChainHead,
  ) {}

  /** An fsync of the log covered it up to `mark`. */
  covered(mark: ChainHead): void {
    if (mark.seq > this.durable.seq) this.durable = mark;
  }

  schedule(): void {
    if (this.timer || this.busy || !this.dirty || this.host.dest === "-") return;
    const wait = Math.max(0, this.lastAt + this.everyMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, wait);
    this.timer.unref();
  }

  private update(): void {
    const file = this.host.flushed();
    if (!file || file.written.seq < 0) return;
    const mark = file.written;
    const gen = this.gen;
    this.busy = true;
    this.dirty = false;
    this.lastAt = Date.now();
    const done = (e?: Error | null): void => {
      this.busy = false;
      if (e) this.host.error(e);
      if (e || mark.seq !== this.host.lastSeq()) this.dirty = true;
      this.schedule();
    };
    fdatasync(file.fd, (e) => {
      if (e) return done(file.gen === this.host.fileGen() ? e : null);
      if (file.gen !== this.host.fileGen()) return done();
      this.covered(mark);
      // Renamed in only if no head was written since this one started (a rotation, an exit): never backwards.
      writeHeadDurably(this.host.dest, this.durable, () => gen === this.gen, done);
    });
  }

  /** After an fsync of the log (exit, rotation): the head, written and synced before this returns. */
  writeNow(): void {
    if (!this.dirty || this.host.dest === "-" || this.durable.seq < 0) return;
    // The head names only lines on disk: while some are held, it waits for them.
    this.dirty = this.durable.seq !== this.host.lastSeq();
    this.lastAt = Date.now();
    this.gen++;
    try {
      writeHead(this.host.dest, this.durable);
    } catch (e) {
      this.host.error(e as Error);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
