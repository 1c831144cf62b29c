import { verifyFiles } from "../decision-log/verify.js";
import { chainsOf, expandLogPaths } from "./log-files.js";

/** Exit codes of `guardwire verify` (docs/decision-log.md). */
export const VERIFY_EXIT = { ok: 0, tampered: 1, unreadable: 2, torn: 3 } as const;

/** Several chains: the worst outcome decides the exit code (tampered, then unreadable, then torn). */
const SEVERITY: number[] = [VERIFY_EXIT.ok, VERIFY_EXIT.torn, VERIFY_EXIT.unreadable, VERIFY_EXIT.tampered];

/**
 * `guardwire verify <files or directories…>`: every chain among them (a log with its rotated files is one chain; one
 * log per server or per replica, each its own). Per chain: 0 if it holds; 3 if it holds up to a torn last line (a
 * crash mid-write); 1 and `file:line: tampered: reason` for the first bad line otherwise; 2 if a file cannot be read.
 * With several chains each result line names its chain, and the exit code is the worst.
 */
export async function runVerify(paths: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, opts: { partial?: boolean } = {}): Promise<number> {
  const files = expandLogPaths(paths);
  if (files.length === 0) {
    err.write(`${paths.join(", ")}: no decision logs (*.ndjson) there\n`);
    return VERIFY_EXIT.unreadable;
  }
  const chains = chainsOf(files);
  let worst: number = VERIFY_EXIT.ok;
  for (const chain of chains) {
    const name = chains.length > 1 ? `${chain[chain.length - 1]}: ` : "";
    const code = await verifyChainFiles(chain, name, out, err, opts);
    if (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst)) worst = code;
  }
  return worst;
}

async function verifyChainFiles(files: string[], name: string, out: NodeJS.WritableStream, err: NodeJS.WritableStream, opts: { partial?: boolean }): Promise<number> {
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
    out.write(`${name}torn last line (crash): ${r.lines} lines before it, chain intact${recovered}, last hash ${r.lastHash}\n`);
    err.write(`${r.torn.file}:${r.torn.line}: torn last line (crash): the writer stopped mid-line; nothing before it was changed\n`);
    if (r.note) err.write(`${name}note: ${r.note}\n`);
    return VERIFY_EXIT.torn;
  }
  out.write(`${name}ok: ${r.lines} lines, chain intact${recovered}, last hash ${r.lastHash}\n`);
  if (r.note) err.write(`${name}note: ${r.note}\n`);
  return VERIFY_EXIT.ok;
}
