import { verifyFiles } from "../decision-log/verify.js";

/** `guardwire verify <files…>`: exit 0 if the chain holds; otherwise 1 and `file:line: reason` for the first bad line. */
export async function runVerify(files: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, opts: { partial?: boolean } = {}): Promise<number> {
  const r = await verifyFiles(files, opts);
  if (!r.ok) {
    err.write(`${r.file}:${r.line}: ${r.reason}\n`);
    return 1;
  }
  out.write(`ok: ${r.lines} lines, chain intact, last hash ${r.lastHash}\n`);
  if (r.note) err.write(`note: ${r.note}\n`);
  return 0;
}
