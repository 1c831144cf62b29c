import { readFile } from "node:fs/promises";
import { readHead } from "./head.js";
import { checkHash, closesTorn, readChained } from "./line.js";
import { GENESIS } from "./record.js";

export type VerifyResult =
  | { ok: true; lines: number; lastHash: string; lastSeq: number; torn?: number; recovered: number }
  | { ok: false; line: number; reason: string; lines: number };

/**
 * Checks a log's hash chain: every line parses, its hash holds (version 2: sha256 of the line's bytes before the hash;
 * version 1, lines without `v`: sha256(prev + canonical(line without hash))), its prev is the previous line's hash,
 * and seq counts up by one. Versions may follow each other in one file (a log written on by a newer guardwire). The first line must start the chain (prev = GENESIS) unless
 * the chain it continues is given.
 *
 * What a crash leaves is told apart from tampering: an unreadable *last* line (cut mid-write, or not a record) is
 * reported as `torn`, the chain before it intact; an unreadable line inside the log passes only when the next line is
 * the writer's `LOG_RECOVERED` note naming it by its sha256 and continuing the chain from the line before it. Any
 * other bad line — changed, removed, reordered or inserted — fails.
 */
export function verifyChain(text: string, start: { prev?: string; seq?: number } = {}): VerifyResult {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let prev = start.prev ?? GENESIS;
  let seq = start.seq;
  let recovered = 0;
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i] as string;
    const fail = (reason: string): VerifyResult => ({ ok: false, line: n, reason, lines: lines.length });
    const rec = readChained(line);
    if (typeof rec === "string") {
      if (i === lines.length - 1) return { ok: true, lines: count, lastHash: prev, lastSeq: (seq ?? 0) - 1, torn: n, recovered };
      const next = readChained(lines[i + 1] as string);
      if (typeof next !== "string" && closesTorn(next, line, prev)) {
        recovered++;
        continue;
      }
      return fail(line.trim() === "" ? "blank line inside the log" : rec);
    }
    if (rec.prev !== prev) {
      if (count === 0 && start.prev === undefined) {
        return fail("the chain does not start at genesis: its first lines were deleted, or this is a rotated file (verify the earlier files with it, oldest first)");
      }
      return fail("prev does not match the previous line's hash (a line before it was deleted, changed or reordered)");
    }
    if (seq !== undefined && rec.seq !== seq) return fail(`seq is ${rec.seq}, expected ${seq} (a line was deleted or reordered)`);
    const bad = checkHash(line, rec, prev);
    if (bad) return fail(bad);
    const lineHash = rec.hash;
    prev = lineHash;
    seq = rec.seq + 1;
    count++;
  }
  return { ok: true, lines: count, lastHash: prev, lastSeq: (seq ?? 0) - 1, recovered };
}

export type FilesResult =
  | { ok: true; lines: number; lastHash: string; lastSeq: number; note?: string; torn?: { file: string; line: number }; recovered: number }
  | { ok: false; file: string; line: number; reason: string };

/**
 * Verifies several files (oldest first, e.g. log.2 log.1 log) as one chain, then checks the newest file against the
 * head kept beside it, which catches lines deleted from the end. A torn last line is accepted only in the newest file.
 * `headFirst`: read the head before the files (for a log still being written, as the console's verify does).
 */
export async function verifyFiles(paths: string[], opts: { partial?: boolean; headFirst?: boolean } = {}): Promise<FilesResult> {
  // A log being written: its head, read before the file, names a line the read will find (the head never leads the log).
  const early = opts.headFirst && paths.length > 0 ? readHead(paths[paths.length - 1] as string) : undefined;
  let start: { prev?: string; seq?: number } = {};
  let first = true;
  let total = 0;
  let recovered = 0;
  let newestLines = 0;
  let torn: { file: string; line: number } | undefined;
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
    if (torn) return { ok: false, file: torn.file, line: torn.line, reason: "unreadable line at the end of a file the chain continues after (changed, or cut)" };
    const r = verifyChain(text, start);
    if (!r.ok) return { ok: false, file: path, line: r.line, reason: r.reason };
    total += r.lines;
    recovered += r.recovered;
    newestLines = r.lines + r.recovered;
    if (r.torn) torn = { file: path, line: r.torn };
    if (r.lines > 0) last = { hash: r.lastHash, seq: r.lastSeq };
    start = { prev: last.hash, seq: last.seq + 1 };
  }
  const newest = paths[paths.length - 1];
  const head = opts.headFirst ? early : newest ? readHead(newest) : undefined;
  if (newest && head) {
    if (head.seq < 0) return { ok: false, file: `${newest}.head`, line: 1, reason: "the chain head file is unreadable" };
    if (head.seq > last.seq) {
      return {
        ok: false,
        file: newest,
        line: torn?.line ?? newestLines + 1,
        reason: torn
          ? `the last line is unreadable, and the chain head records seq ${head.seq} past the last whole line (seq ${last.seq}): a written line was changed or cut, not torn by a crash`
          : `missing: the log ends at seq ${last.seq} but its head records seq ${head.seq} (lines deleted from the end)`,
      };
    }
    if (head.seq === last.seq && head.hash !== last.hash) {
      return { ok: false, file: newest, line: newestLines, reason: "the last line does not match the chain head (it was changed or replaced)" };
    }
  }
  const note = head ? undefined : "no chain head beside the log: deletions at its end cannot be detected";
  return { ok: true, lines: total, lastHash: last.hash, lastSeq: last.seq, note, torn, recovered };
}
