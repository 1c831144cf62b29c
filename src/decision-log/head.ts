import { close, closeSync, fsync, fsyncSync, open, openSync, readFileSync, renameSync, unlink, write, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";

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

/** The temporary file a head is written to: this process's own, so two writers never share one. */
const ASIDE = randomBytes(6).toString("hex");
const asideOf = (path: string): string => `${path}.${ASIDE}.tmp`;

/** Writes the head and waits for the disk (exit, rotation). The log must have been fsynced up to `head` before. */
export function writeHead(logPath: string, head: ChainHead): void {
  const path = headPath(logPath);
  const aside = asideOf(path);
  const fd = openSync(aside, "w");
  try {
    writeSync(fd, JSON.stringify(head) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(aside, path);
  syncDirSync(dirname(path));
}

/**
 * The same, with the fsyncs off the event loop. The rename is made on the event loop, and only if `current()` still
 * says so when the head is on disk aside: a head written meanwhile by `writeHead` (newer) is never replaced by this one.
 */
export function writeHeadDurably(logPath: string, head: ChainHead, current: () => boolean, done: (e?: Error | null) => void): void {
  const path = headPath(logPath);
  const aside = asideOf(path);
  const text = JSON.stringify(head) + "\n";
  open(aside, "w", (e, fd) => {
    if (e) return done(e);
    const finish = (err: Error | null): void =>
      close(fd, () => {
        if (err || !current()) return unlink(aside, () => done(err));
        try {
          renameSync(aside, path);
        } catch (re) {
          return done(re as Error);
        }
        syncDir(dirname(path), done);
      });
    write(fd, text, (we) => (we ? finish(we) : fsync(fd, (fe) => finish(fe))));
  });
}

/** A rename is durable once its directory is: fsync of the directory (where the platform allows it). */
function syncDirSync(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, "r");
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // some platforms and filesystems cannot fsync a directory; the rename is still atomic
  } finally {
    closeSync(fd);
  }
}

function syncDir(dir: string, done: (e?: Error | null) => void): void {
  open(dir, "r", (e, fd) => {
    if (e) return done();
    fsync(fd, () => close(fd, () => done()));
  });
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
