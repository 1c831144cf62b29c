import { readFileSync } from "node:fs";
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
