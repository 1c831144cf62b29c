import type { Detection, JsonPath, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "sec15") Text JSON-encoded inside a string: an HTTP call's `body` given as JSON text whose fields
 * hold code or a log (`{"body": "const apiKey = \"35f1…\";"}`). Its escaped quotes and newlines hide a named key from
 * a reading of the raw string. The string leaves that JSON escapes differently from their raw text are read as sites
 * of their own, and a finding in one is mapped back to the exact span of the raw text (checked: a span that does not
 * read back the same is dropped).
 *
 * Bounded: only strings of 32 to 65,536 characters that start with `{` or `[` and hold a backslash; 256 leaves, depth 16.
 */

const MAX = 65_536;
const MAX_LEAVES = 256;

interface Leaf {
  site: StringSite;
  origin: StringSite;
  /** Where the leaf's escaped text starts in the origin's value. */
  at: number;
  text: string;
}

const esc = (s: string) => JSON.stringify(s).slice(1, -1);

/** The leaves of JSON text in the sites that read differently escaped, as sites, and a mapper of their findings. */
export function jsonLeaves(sites: readonly StringSite[]): { sites: StringSite[]; back: (found: Detection[]) => Detection[] } | null {
  let leaves: Leaf[] | null = null;
  for (const origin of sites) {
    const v = origin.value;
    if (v.length < 32 || v.length > MAX || origin.encoded !== undefined || !v.includes("\\")) continue;
    const c = v.trimStart()[0];
    if (c !== "{" && c !== "[") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      continue;
    }
    const texts: string[] = [];
    walk(parsed, 0, texts);
    let cursor = 0;
    for (const text of texts) {
      const e = esc(text);
      if (e === text) continue;
      const at = v.indexOf(e, cursor);
      if (at < 0) continue;
      cursor = at + e.length;
      const path: JsonPath = [...origin.path];
      (leaves ??= []).push({ site: { path, value: text, normal: undefined }, origin, at, text });
      if (leaves.length >= MAX_LEAVES) break;
    }
  }
  if (leaves === null) return null;
  const all = leaves;
  return {
    sites: all.map((l) => l.site),
    back: (found) => {
      const out: Detection[] = [];
      for (const d of found) {
        const l = all.find((x) => x.site.path === d.path);
        if (l === undefined || d.whole) continue;
        const start = l.at + esc(l.text.slice(0, d.start)).length;
        const piece = esc(l.text.slice(d.start, d.end));
        if (l.origin.value.slice(start, start + piece.length) !== piece) continue;
        out.push({ ...d, path: l.origin.path, start, end: start + piece.length });
      }
      return out;
    },
  };
}

function walk(x: unknown, depth: number, out: string[]): void {
  if (out.length >= MAX_LEAVES || depth > 16) return;
  if (typeof x === "string") out.push(x);
  else if (Array.isArray(x)) for (const y of x) walk(y, depth + 1, out);
  else if (x !== null && typeof x === "object") for (const y of Object.values(x as Record<string, unknown>)) walk(y, depth + 1, out);
}
