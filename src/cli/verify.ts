import { verifyFiles } from "../decision-log/verify.js";

/** Exit codes of `guardwire verify` (docs/decision-log.md). */
export const VERIFY_EXIT = { ok: 0, tampered: 1, unreadable: 2, torn: 3 } as const;

/**
 * `guardwire verify <files…>`: 0 if the chain holds; 3 if it holds up to a torn last line (a crash mid-write); 1 and
 * `file:line: tampered: reason` for the first bad line otherwise; 2 if a file cannot be read.
 */
export async function runVerify(files: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, opts: { partial?: boolean } = {}): Promise<number> {
  const r = await verifyFiles(files, opts);
  if (!r.ok && r.line === 0) {
    err.write(`${r.file}: ${r.reason}\n`);
    return VERIFY_EXIT.unreadable;
  }
  if (!r.ok) {
    err.write(`${r.file}:${r.line}: tampered: ${r.reason}\n`);
    return VERIFY_EXIT.tampered;
  }
  const recovered = r.recovered > 0 ? `, ${r.recovered} torn line${r.recovered === 1 ? "" : "s"} from earlier crashes closed on restart` : "";
  if (r.torn) {
    out.write(`torn last line (crash): ${r.lines} lines before it, chain intact${recovered}, last hash ${r.lastHash}\n`);
    err.write(`${r.torn.file}:${r.torn.line}: torn last line (crash): the writer stopped mid-line; nothing before it was changed\n`);
    if (r.note) err.write(`note: ${r.note}\n`);
    return VERIFY_EXIT.torn;
  }
  out.write(`ok: ${r.lines} lines, chain intact${recovered}, last hash ${r.lastHash}\n`);
  if (r.note) err.write(`note: ${r.note}\n`);
  return VERIFY_EXIT.ok;
}
