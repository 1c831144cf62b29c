import { readFileSync, renameSync, writeFileSync } from "node:fs";

/**
 * The chain's head, kept beside the log as `<log>.head`: the seq and hash of the last line written. A hash chain alone
 * cannot tell a log whose last lines were deleted from one that simply ended there; the head can. It is rewritten
 * (atomically, via rename) when the log is flushed, so it may lag the log, never lead it.
 */
export interface ChainHead {
  seq: number;
  hash: string;
  time: string;
}

export const headPath = (logPath: string): string => `${logPath}.head`;

export function writeHead(logPath: string, head: ChainHead): void {
  const path = headPath(logPath);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(head) + "\n");
  renameSync(tmp, path);
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
