import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { hashHex, LOG_RECOVERED, readChained, type ChainedLine } from "./line.js";
import { noteOf, type DecisionInput } from "./record.js";

/**
 * Where a log a restart reopens stands: its last whole record, which the chain continues from, and what a crash
 * mid-write left after it. Lines are read as verify reads them (line.ts `readChained`), so a line the writer takes as
 * torn is one verify accepts as torn, and the note that closes it is the one verify accepts (`closesTorn`).
 */
export interface LogEnd {
  record: ChainedLine | undefined;
  torn: TornTail | undefined;
}

/** What a crash mid-write left at the end of a log: its last line, unreadable. */
export interface TornTail {
  /** The torn text ended with a newline (a whole line that does not parse) rather than mid-line. */
  ended: boolean;
  /** Only the last line is bad, and the line before it (if any) is a whole record: a crash, not damage. */
  clean: boolean;
  /** sha256 of the torn line's text, as `verify` reads it: the note that closes it names it by this. */
  hash: string;
  length: number;
}

/** The end of a log file, read from its last MiB. */
export function readEnd(path: string): LogEnd {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const window = Math.min(size, 1024 * 1024);
    const buf = Buffer.alloc(window);
    readSync(fd, buf, 0, window, size - window);
    const ended = size === 0 || buf[window - 1] === 0x0a;
    const lines = buf.toString("utf8").split("\n");
    if (ended) lines.pop();
    const last = lines[lines.length - 1];
    let torn: TornTail | undefined;
    if (last !== undefined && !isRecord(last)) {
      const before = lines.length >= 2 ? isRecord(lines[lines.length - 2] as string) : false;
      torn = { ended, clean: before || (lines.length === 1 && window === size), hash: hashHex(last), length: last.length };
      lines.pop();
    } else if (!ended) {
      // A whole record whose newline did not make it: only the newline is missing.
      torn = { ended, clean: false, hash: "", length: 0 };
    }
    for (let i = lines.length - 1; i >= 0; i--) {
      const r = readChained(lines[i] as string);
      if (typeof r !== "string") return { record: r, torn };
    }
    return { record: undefined, torn };
  } finally {
    closeSync(fd);
  }
}

const isRecord = (line: string): boolean => typeof readChained(line) !== "string";

/**
 * What the writer appends to close a torn tail: a newline when the torn text has none, and — when the tear is a crash's
 * (only the last line bad) — a `LOG_RECOVERED` note naming the torn text, to be chained from the last whole record.
 */
export function closingOf(torn: TornTail): { newline: boolean; note: (DecisionInput & { torn: string }) | undefined } {
  const note = torn.clean
    ? { ...noteOf(LOG_RECOVERED, `a torn last line (${torn.length} characters, a crash mid-write) was closed on restart; the chain continues from the line before it`), torn: torn.hash }
    : undefined;
  return { newline: !torn.ended, note };
}
