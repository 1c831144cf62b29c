import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import pino from "pino";
import { canonicalize } from "../protocol/canonical.js";
import { writeHead } from "./head.js";
import { GENESIS, type DecisionInput, type DecisionRecord } from "./record.js";

export interface DecisionLogOptions {
  /** A file path, or "-" for stderr. */
  dest: string;
  /** Used when dest is "-". */
  stderr?: NodeJS.WritableStream & { fd?: number };
  /** Rotate when the file would exceed this many bytes; 0 or unset: never. */
  maxBytes?: number;
  /** Rotated files kept (file.1 … file.N). */
  keep?: number;
  clock?: () => Date;
  /** How often the chain head beside the file is refreshed, in ms. */
  headEveryMs?: number;
}

type Destination = ReturnType<typeof pino.destination>;

/**
 * The decision log: one NDJSON line per decision, written through pino's destination (sonic-boom, buffering lines
 * into 4 KiB writes so the hot path rarely touches the disk), each line chained to the previous by SHA-256:
 * hash = sha256(prev + canonical(line without hash)). Reopening an existing file continues its chain.
 */
export class DecisionLog {
  private dest!: Destination;
  private prev = GENESIS;
  private nextSeq = 0;
  private bytes = 0;
  private headTimer: NodeJS.Timeout | undefined;
  private headDirty = false;
  private lastTime = "";
  /** The first write error (disk full, closed pipe); logging goes on being attempted, the proxy never crashes. */
  error: Error | undefined;

  private constructor(private readonly opts: DecisionLogOptions) {}

  static open(opts: DecisionLogOptions): DecisionLog {
    const log = new DecisionLog(opts);
    if (opts.dest !== "-" && existsSync(opts.dest)) {
      const last = lastRecord(opts.dest);
      if (last) {
        log.prev = last.hash;
        log.nextSeq = last.seq + 1;
      }
      log.bytes = statSync(opts.dest).size;
    }
    log.openDestination();
    return log;
  }

  get lastHash(): string {
    return this.prev;
  }

  get seq(): number {
    return this.nextSeq;
  }

  write(input: DecisionInput): DecisionRecord {
    const time = (this.opts.clock?.() ?? new Date()).toISOString();
    const unhashed = { time, seq: this.nextSeq, ...input, prev: this.prev };
    const hash = createHash("sha256").update(this.prev).update(canonicalize(unhashed)).digest("hex");
    const record: DecisionRecord = { ...unhashed, hash };
    const line = JSON.stringify(record);
    if (this.opts.maxBytes && this.bytes > 0 && this.bytes + line.length + 1 > this.opts.maxBytes) this.rotate();
    this.dest.write(line + "\n");
    this.bytes += Buffer.byteLength(line) + 1;
    this.prev = hash;
    this.nextSeq++;
    this.lastTime = time;
    this.markHead();
    return record;
  }

  /** Everything written so far is on disk when this returns (exit, signals). */
  flushSync(): void {
    try {
      this.dest.flushSync();
    } catch (e) {
      this.error ??= e as Error;
    }
    this.writeHeadNow();
  }

  async close(): Promise<void> {
    if (this.headTimer) clearTimeout(this.headTimer);
    this.headTimer = undefined;
    this.flushSync();
    if (this.opts.dest === "-") return;
    await new Promise<void>((resolve) => {
      this.dest.once("close", () => resolve());
      this.dest.once("error", () => resolve());
      this.dest.end();
    });
  }

  private openDestination(): void {
    // Opened synchronously so the destination is ready at once: flushSync works from the first line on.
    let fd: number;
    if (this.opts.dest === "-") fd = this.opts.stderr?.fd ?? 2;
    else {
      mkdirSync(dirname(this.opts.dest), { recursive: true });
      fd = openSync(this.opts.dest, "a");
    }
    // Synchronous writes of 4 KiB batches: cheap per line, and never an async write in flight that a later
    // flush could overtake (which would reorder lines and break the chain).
    this.dest = pino.destination({ fd, sync: true, minLength: 4096 });
    this.dest.on("error", (e: Error) => {
      this.error ??= e;
    });
  }

  private rotate(): void {
    this.flushSync();
    this.dest.end();
    const keep = this.opts.keep ?? 5;
    const file = this.opts.dest;
    for (let i = keep - 1; i >= 1; i--) {
      if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    }
    renameSync(file, `${file}.1`);
    this.bytes = 0;
    this.openDestination();
  }

  private markHead(): void {
    if (this.opts.dest === "-") return;
    this.headDirty = true;
    if (this.headTimer) return;
    // Lines reach the file (for tail -f) and the head is refreshed at most this often; no fsync on this path.
    this.headTimer = setTimeout(() => {
      this.headTimer = undefined;
      try {
        this.dest.flush();
      } catch (e) {
        this.error ??= e as Error;
      }
      this.writeHeadNow();
    }, this.opts.headEveryMs ?? 250);
    this.headTimer.unref();
  }

  private writeHeadNow(): void {
    if (!this.headDirty || this.opts.dest === "-") return;
    this.headDirty = false;
    try {
      writeHead(this.opts.dest, { seq: this.nextSeq - 1, hash: this.prev, time: this.lastTime });
    } catch (e) {
      this.error ??= e as Error;
    }
  }
}

/** The last complete line of a log file, read from its end. */
function lastRecord(path: string): DecisionRecord | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const window = Math.min(size, 1024 * 1024);
    const buf = Buffer.alloc(window);
    readSync(fd, buf, 0, window, size - window);
    const lines = buf.toString("utf8").split("\n").filter((l) => l.trim().length > 0);
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const r = JSON.parse(lines[i] as string) as DecisionRecord;
        if (typeof r.hash === "string" && typeof r.seq === "number") return r;
      } catch {
        // a torn last line (crash mid-write): look further back
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
