import { RE2JS } from "re2js";
import { escapeRegExp } from "../protocol/glob.js";

/**
 * Regular expressions written by rule authors (`matches()` in CEL, `replace` edits) run on RE2 (re2js): matching is
 * linear in the input whatever the pattern, so no rule can backtrack catastrophically. RE2 syntax is what CEL
 * specifies for `matches()`; lookaround and backreferences are not available.
 */
export interface SafeRegex {
  test(input: string): boolean;
  replaceAll(input: string, replacement: string): string;
}

/** Compiled patterns by flags, then pattern: a lookup per `matches()` call, without building a key string. */
const caches = new Map<string, Map<string, SafeRegex>>();
const MAX_CACHED = 1024;

export function safeRegex(pattern: string, flags = ""): SafeRegex {
  let cache = caches.get(flags);
  if (!cache) {
    cache = new Map();
    caches.set(flags, cache);
  }
  const hit = cache.get(pattern);
  if (hit) return hit;
  let f = 0;
  if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("s")) f |= RE2JS.DOTALL;
  if (flags.includes("m")) f |= RE2JS.MULTILINE;
  const re = RE2JS.compile(pattern, f);
  // A literal every match must contain: when it is absent, RE2 need not run at all.
  const required = requiredLiteral(pattern, flags.includes("i"));
  // Searched for with one V8 regex of the escaped literals: an alternation of literals cannot backtrack.
  const prefilter = required ? new RegExp(required.anyOf.map(escapeRegExp).join("|"), required.ci ? "iu" : "") : null;
  const compiled: SafeRegex = {
    test: prefilter ? (input) => prefilter.test(input) && re.matcher(input).find() : (input) => re.matcher(input).find(),
    // Replacement text is literal: `$` has no special meaning.
    replaceAll: (input, replacement) => re.matcher(input).replaceAll(() => replacement),
  };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

/** The reason a pattern is refused, or null. */
export function regexProblem(pattern: string, flags = ""): string | null {
  try {
    safeRegex(pattern, flags);
    return null;
  } catch (e) {
    return `invalid regular expression (RE2 syntax): ${(e as Error).message}`;
  }
}

/** What every match must contain: one literal, or one of several (a required alternation). */
export type Requirement = { anyOf: string[]; ci: boolean };

type Atom =
  | { kind: "char"; ch: string; q: string }
  | { kind: "group"; branches: Atom[][]; q: string }
  | { kind: "other"; q: string };

/**
 * A tiny reader of the regex syntax that matters here: sequences, groups, alternation, classes, escapes, quantifiers.
 * It only has to be right about which atoms are fixed characters; anything it does not understand is "other".
 */
function parseSeq(p: string, i: number): { branches: Atom[][]; end: number } {
  const branches: Atom[][] = [[]];
  const quant = (j: number): { q: string; next: number } => {
    const c = p[j];
    if (c === "*" || c === "+" || c === "?") return { q: c + (p[j + 1] === "?" ? "?" : ""), next: j + (p[j + 1] === "?" ? 2 : 1) };
    if (c === "{") {
      const close = p.indexOf("}", j);
      if (close > j && /^\{\d*(,\d*)?\}$/.test(p.slice(j, close + 1))) return { q: p.slice(j, close + 1), next: close + 1 };
    }
    return { q: "", next: j };
  };
  while (i < p.length) {
    const c = p[i] as string;
    const seq = branches[branches.length - 1] as Atom[];
    if (c === ")") return { branches, end: i };
    if (c === "|") {
      branches.push([]);
      i++;
      continue;
    }
    let atom: Atom;
    let j: number;
    if (c === "(") {
      let k = i + 1;
      if (p[k] === "?") {
        // (?:…) and (?P<name>…)/(?<name>…) group; inline flags (?i) are "other".
        if (p[k + 1] === ":") k += 2;
        else if (p[k + 1] === "P" || p[k + 1] === "<") k = p.indexOf(">", k) + 1;
        else {
          const close = p.indexOf(")", k);
          atom = { kind: "other", q: "" };
          j = close + 1;
          seq.push(atom);
          i = j;
          continue;
        }
      }
      const inner = parseSeq(p, k);
      const qq = quant(inner.end + 1);
      atom = { kind: "group", branches: inner.branches, q: qq.q };
      j = qq.next;
    } else if (c === "[") {
      let k = i + 1;
      if (p[k] === "^") k++;
      if (p[k] === "]") k++;
      while (k < p.length && p[k] !== "]") k += p[k] === "\\" ? 2 : 1;
      const qq = quant(k + 1);
      atom = { kind: "other", q: qq.q };
      j = qq.next;
    } else if (c === "\\") {
      const next = p[i + 1] ?? "";
      const qq = quant(i + 2);
      atom = /[A-Za-z0-9]/.test(next) ? { kind: "other", q: qq.q } : { kind: "char", ch: next, q: qq.q };
      j = qq.next;
    } else {
      const qq = quant(i + 1);
      atom = c === "." || c === "^" || c === "$" ? { kind: "other", q: qq.q } : { kind: "char", ch: c, q: qq.q };
      j = qq.next;
    }
    seq.push(atom);
    i = j;
  }
  return { branches, end: i };
}

const mandatory = (q: string) => q === "" || q.startsWith("+") || /^\{[1-9]/.test(q);
const score = (r: string[]) => Math.min(...r.map((x) => x.length)) - (r.length - 1) * 0.5;

/** The most selective requirement of a sequence: a run of fixed characters, or a required group's alternatives. */
function requirementOf(seq: Atom[]): string[] | null {
  let best: string[] | null = null;
  const consider = (r: string[] | null) => {
    if (r && r.every((x) => x.length >= 2) && (!best || score(r) > score(best))) best = r;
  };
  let run = "";
  for (const a of seq) {
    if (a.kind === "char" && a.q === "") {
      run += a.ch;
      continue;
    }
    if (a.kind === "char" && mandatory(a.q)) run += a.ch;
    consider(run ? [run] : null);
    run = "";
    if (a.kind === "group" && mandatory(a.q)) consider(alternatives(a.branches));
  }
  consider(run ? [run] : null);
  return best;
}

function alternatives(branches: Atom[][]): string[] | null {
  const out: string[] = [];
  for (const b of branches) {
    const r = requirementOf(b);
    if (!r) return null;
    out.push(...r);
  }
  return out;
}

/**
 * What every match of the pattern must contain, as one literal or a set of alternatives (each 2+ characters), or
 * null when nothing is certain. Sound by construction: only atoms that match one fixed character, or required groups
 * whose every branch has a requirement, count. It lets `matches()` skip RE2 when the text cannot match.
 */
export function requiredLiteral(pattern: string, caseInsensitive: boolean): Requirement | null {
  let p = pattern;
  let ci = caseInsensitive;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(p);
  if (inline) {
    if ((inline[1] as string).includes("i")) ci = true;
    p = p.slice(inline[0].length);
  }
  if (p.includes("\\Q") || /\(\?[a-zA-Z-]+[):]/.test(p)) return null;
  const { branches, end } = parseSeq(p, 0);
  if (end < p.length) return null;
  const r = alternatives(branches);
  if (!r || r.length > 16) return null;
  return { anyOf: ci ? r.map((x) => x.toLowerCase()) : r, ci };
}
