/**
 * The sentences of a text, as [start, end) spans without their leading blanks (at most 64). A sentence ends at ".",
 * "!" or "?" before a blank or the text's end; with `clauses`, at ";" and a line break too; with `abbreviations`, a "."
 * before a digit or a lower-case word ends none ("account no. 4471 …", "e.g. the").
 */
export function sentenceSpans(t: string, opts: { clauses?: boolean; abbreviations?: boolean } = {}): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < t.length && out.length < 64; i++) {
    const c = t[i] as string;
    const stop = c === "." || c === "!" || c === "?" || (opts.clauses === true && (c === ";" || c === "\n"));
    if (!stop) continue;
    if (i + 1 < t.length && !/\s/.test(t[i + 1] as string)) continue;
    if (opts.abbreviations === true && c === "." && /^\s{1,3}[\p{Ll}\d]/u.test(t.slice(i + 1, i + 5))) continue;
    out.push([start, i + 1]);
    start = i + 1;
    while (start < t.length && /\s/.test(t[start] as string)) start++;
    i = start - 1;
  }
  if (start < t.length && out.length < 64) out.push([start, t.length]);
  return out;
}
