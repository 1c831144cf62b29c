import { hash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { canonicalize } from "../protocol/canonical.js";
import { readHead } from "./head.js";
import { GENESIS } from "./record.js";

export type VerifyResult =
  | { ok: true; lines: number; lastHash: string; lastSeq: number }
  | { ok: false; line: number; reason: string; lines: number };

/**
 * Checks a log's hash chain: every line parses, its hash is sha256(prev + canonical(line without hash)), its prev is
 * the previous line's hash, and seq counts up by one. The first line must start the chain (prev = GENESIS) unless
 * the chain it continues is given.
 */
export function verifyChain(text: string, start: { prev?: string; seq?: number } = {}): VerifyResult {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let prev = start.prev ?? GENESIS;
  let seq = start.seq;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i] as string;
    const fail = (reason: string): VerifyResult => ({ ok: false, line: n, reason, lines: lines.length });
    if (line.trim() === "") return fail("blank line inside the log");
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return fail("not JSON (edited or torn line)");
    }
    if (rec === null || typeof rec !== "object" || typeof rec.hash !== "string" || typeof rec.prev !== "string" || typeof rec.seq !== "number") {
      return fail("not a decision record (hash, prev or seq missing)");
    }
    if (rec.prev !== prev) {
      if (i === 0 && start.prev === undefined) {
        return fail("the chain does not start at genesis: its first lines were deleted, or this is a rotated file (verify the earlier files with it, oldest first)");
      }
      return fail("prev does not match the previous line's hash (a line before it was deleted, changed or reordered)");
    }
    if (seq !== undefined && rec.seq !== seq) return fail(`seq is ${rec.seq}, expected ${seq} (a line was deleted or reordered)`);
    const { hash: lineHash, ...rest } = rec;
    const expected = hash("sha256", prev + canonicalize(rest), "hex");
    if (lineHash !== expected) return fail("hash does not match the line's content (the line was changed)");
    prev = lineHash as string;
    seq = (rec.seq as number) + 1;
  }
  return { ok: true, lines: lines.length, lastHash: prev, lastSeq: (seq ?? 0) - 1 };
}

export type FilesResult =
  | { ok: true; lines: number; lastHash: string; lastSeq: number; note?: string }
  | { ok: false; file: string; line: number; reason: string };

/**
 * Verifies several files (oldest first, e.g. log.2 log.1 log) as one chain, then checks the newest file against the
 * head kept beside it, which catches lines deleted from the end.
 */
export async function verifyFiles(paths: string[], opts: { partial?: boolean } = {}): Promise<FilesResult> {
  let start: { prev?: string; seq?: number } = {};
  let first = true;
  let total = 0;
  let newestLines = 0;
  let last: { hash: string; seq: number } = { hash: GENESIS, seq: -1 };
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      return { ok: false, file: path, line: 0, reason: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    if (first && opts.partial) {
      // The oldest files were rotated away: trust where the first line says the chain stood.
      const head = text.slice(0, text.indexOf("\n") >>> 0);
      try {
        const rec = JSON.parse(head) as { prev?: unknown; seq?: unknown };
        if (typeof rec.prev === "string" && typeof rec.seq === "number") start = { prev: rec.prev, seq: rec.seq };
      } catch {
        // verifyChain reports the unreadable line
      }
    }
    first = false;
    const r = verifyChain(text, start);
    if (!r.ok) return { ok: false, file: path, line: r.line, reason: r.reason };
    total += r.lines;
    newestLines = r.lines;
    if (r.lines > 0) last = { hash: r.lastHash, seq: r.lastSeq };
    start = { prev: last.hash, seq: last.seq + 1 };
  }
  const newest = paths[paths.length - 1];
  const head = newest ? readHead(newest) : undefined;
  if (newest && head) {
    if (head.seq < 0) return { ok: false, file: `${newest}.head`, line: 1, reason: "the chain head file is unreadable" };
    if (head.seq > last.seq) {
      return {
        ok: false,
        file: newest,
        line: newestLines + 1,
        reason: `missing: the log ends at seq ${last.seq} but its head records seq ${head.seq} (lines deleted from the end)`,
      };
    }
    if (head.seq === last.seq && head.hash !== last.hash) {
      return { ok: false, file: newest, line: newestLines, reason: "the last line does not match the chain head (it was changed or replaced)" };
    }
  }
  return { ok: true, lines: total, lastHash: last.hash, lastSeq: last.seq, note: head ? undefined : "no chain head beside the log: deletions at its end cannot be detected" };
}
