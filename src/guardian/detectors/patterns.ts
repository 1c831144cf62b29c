import { escapeRegExp } from "../../protocol/glob.js";
import { literalId, literalsOf } from "./literals.js";
import { nextMatch, type Detection, type StringSite } from "./scan.js";

/*
 * The pattern engine: a detector's catalogue of regular expressions (pii.ts) run over a message's strings, each with
 * cheap prefilters in front of it — literals it cannot match without (from the message-wide pass of literals.ts on a
 * short message, a search per literal on a long string), a count of digits, places every match starts (`starts`) or
 * holds (`anchor`). A prefilter only skips what could not match: the findings are those of a full scan (a test holds
 * the two to it). Every pattern is written to run in linear time: no nested unbounded quantifiers.
 */

export interface Pattern {
  type: string;
  re: RegExp;
  /** Skip the regex unless one of these literals occurs in the string (in any case when `re` has the `i` flag). */
  needs?: string[];
  /**
   * Every match starts where this matches. In a long string `re` then runs only at those places, so a common word it
   * needs ("you", "send") costs one search for the word, not a full pass of `re`.
   */
  starts?: RegExp;
  /**
   * Run only around this literal: every match holds it, preceded by at most `max` characters of the class `back`,
   * and `after` matches at it. For patterns a full scan would make slow (a long unanchored prefix before `@` or `://`).
   */
  anchor?: { literal: string; back: RegExp; max: number; after: RegExp };
  group?: number;
  accept?: (match: string) => boolean;
  /** Every match holds at least this many ASCII digits: a message with fewer is skipped. */
  digits?: number;
  /**
   * A simpler regex (no look-arounds, no counted groups) that matches inside every match of `re`: a long string
   * without a match of it is skipped. V8 runs such a regex over a megabyte several times faster than `re` (the card
   * number pattern: 2 ms, its hint 0.2 ms); a string that has one is scanned by `re` as before.
   */
  hint?: RegExp;
}

/** Strings at least this long take the literal-search paths; shorter ones one small regex. */
const LONG = 4096;

/**
 * Whether a literal occurs in a long string, remembered per string: several patterns and groups share literals.
 * Exact-case literals are an `includes`; case-insensitive ones a one-literal regex (Boyer-Moore in V8), so no
 * lower-cased copy of a large string is ever made.
 */
const seen = new WeakMap<StringSite, Map<string, boolean>>();
function contains(site: StringSite, needle: Needle): boolean {
  let m = seen.get(site);
  if (!m) {
    m = new Map();
    seen.set(site, m);
  }
  let hit = m.get(needle.key);
  if (hit === undefined) {
    // The literal's rarest characters first: memchr-speed searches that rule a literal out when one is missing.
    hit = needle.rare.every((cs) => cs.some((c) => hasChar(m, site.value, c))) && (needle.re ? needle.re.test(site.value) : site.value.includes(needle.text));
    m.set(needle.key, hit);
  }
  return hit;
}

function hasChar(cache: Map<string, boolean>, value: string, c: string): boolean {
  const key = "c:" + c;
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = value.includes(c);
    cache.set(key, hit);
  }
  return hit;
}

interface Needle {
  key: string;
  text: string;
  /** A case-insensitive search, for a literal with letters in an `i` pattern; otherwise `includes`. */
  re: RegExp | null;
  /** The literal's three least common characters, each as the forms it can take (both cases in an `i` pattern). */
  rare: string[][];
}

/** Characters from the most to the least common in English prose and source code; anything absent is rarer still. */
const BY_FREQUENCY = " etaoinsrhldcu\nmfpgwyb.,v/k\"'-_:=x()0123456789jq;{}z<>[]*#|@ETAOINSRHLDCUMFPGWYBVKXJQZ";

function needle(text: string, ci: boolean): Needle {
  const letters = ci && /[a-z]/i.test(text);
  const rank = (c: string) => (BY_FREQUENCY.includes(c) ? BY_FREQUENCY.indexOf(c) : BY_FREQUENCY.length);
  const chars = [...new Set(letters ? text.toLowerCase() : text)].sort((a, b) => rank(b) - rank(a)).slice(0, 3);
  return {
    key: (letters ? "i:" + text.toLowerCase() : text),
    text,
    re: letters ? new RegExp(escapeRegExp(text), "i") : null,
    rare: chars.map((c) => (letters && c.toUpperCase() !== c ? [c, c.toUpperCase()] : [c])),
  };
}

const sticky = (re: RegExp) => new RegExp(re.source, re.flags.replace("g", "") + "y");

/** A pattern ready to run: every field always present, so the loops over patterns see one object shape. */
export class CompiledPattern {
  readonly type: string;
  readonly re: RegExp;
  readonly group: number;
  readonly accept: ((match: string) => boolean) | null;
  readonly needles: Needle[] | null;
  /** The `needs` as ids for the message-wide prefilter (`literals.ts`). */
  readonly needIds: number[] | null;
  readonly digits: number;
  readonly hint: RegExp | null;
  /**
   * A test that any of the message's strings could match, run on all of them joined by newlines: the literals it
   * needs, or for a pattern without literals and without `^`/`$` (which a newline would change) `re` itself.
   */
  readonly prefilter: RegExp | null;
  /** `re` as a sticky regex, to try at one place. */
  readonly at: RegExp;
  readonly starts: RegExp | null;
  readonly anchor: { literal: string; max: number; after: RegExp; back: Uint8Array } | null;

  constructor(p: Pattern) {
    const ci = p.re.flags.includes("i");
    this.type = p.type;
    this.group = p.group ?? 0;
    // A group's own span comes from the match's indices (`d`): searching the match for the group's text would find an
    // earlier copy of it (`postgres://u:u@…` has the password twice).
    this.re = this.group > 0 && !p.re.flags.includes("d") ? new RegExp(p.re.source, p.re.flags + "d") : p.re;
    this.accept = p.accept ?? null;
    this.needles = p.needs ? p.needs.map((n) => needle(n, ci)) : null;
    this.needIds = p.needs ? p.needs.map(literalId) : null;
    this.digits = p.digits ?? 0;
    this.hint = p.hint ?? null;
    const anchors = /(?<!\\)\$|(?<![[\\])\^/.test(p.re.source);
    this.prefilter = p.needs
      ? new RegExp(p.needs.map(escapeRegExp).join("|"), ci ? "i" : "")
      : anchors
        ? null
        : new RegExp(p.re.source, p.re.flags.replace("g", ""));
    this.at = sticky(this.re);
    this.starts = p.starts ?? null;
    this.anchor = null;
    if (p.anchor) {
      const back = new Uint8Array(128);
      for (let c = 0; c < 128; c++) back[c] = p.anchor.back.test(String.fromCharCode(c)) ? 1 : 0;
      this.anchor = { literal: p.anchor.literal, max: p.anchor.max, after: sticky(p.anchor.after), back };
    }
  }
}

/**
 * Patterns with cheap prefilters: a search for literals the pattern cannot match without. A large benign result
 * costs a few literal searches, not one regex pass per pattern.
 */
export class PatternGroup {
  readonly patterns: readonly CompiledPattern[];
  constructor(patterns: Pattern[]) {
    this.patterns = patterns.map((p) => new CompiledPattern(p));
  }

  run(sites: StringSite[], only?: (p: CompiledPattern) => boolean, exhaustive = false): Detection[] {
    const out: Detection[] = [];
    // A short message: first the literals and digits every pattern needs, from one pass shared by all detectors;
    // then each pattern that may match is asked once, on all the strings together, before any one string is.
    const lits = exhaustive ? null : literalsOf(sites);
    let all: string | null | undefined = exhaustive ? null : undefined;
    for (const p of this.patterns) {
      if (only && !only(p)) continue;
      if (lits !== null && ((p.needIds !== null && !lits.any(p.needIds)) || p.digits > lits.digits)) continue;
      if (all === undefined) all = shortText(sites);
      if (all !== null && p.prefilter !== null && !p.prefilter.test(all)) continue;
      for (const site of sites) {
        if (exhaustive) {
          found(site, p, out);
          continue;
        }
        const long = site.value.length >= LONG;
        const needs = p.needles;
        // Short strings: one small regex of the literals. Long ones: a search per literal, shared by every pattern.
        if (needs && !(long ? needs.some((n) => contains(site, n)) : (p.prefilter as RegExp).test(site.value))) continue;
        if (long && p.hint !== null && !p.hint.test(site.value)) continue;
        if (p.anchor !== null) anchored(site, p, p.anchor, out);
        else if (p.starts !== null && long) startingAt(site, p, p.starts, out);
        else found(site, p, out);
      }
    }
    return out;
  }
}

/**
 * All of a message's strings, joined, when they are short together (else null). Kept for the last message only (the
 * detectors of one message ask one after the other), and only a short one, so no large message outlives its turn.
 */
let lastSites: StringSite[] | null = null;
let lastJoined = "";
function shortText(sites: StringSite[]): string | null {
  if (sites.length === 1) return (sites[0] as StringSite).value.length < LONG ? (sites[0] as StringSite).value : null;
  if (sites === lastSites) return lastJoined;
  let size = 0;
  for (const s of sites) size += s.value.length + 1;
  if (size >= LONG) return null;
  lastSites = sites;
  lastJoined = sites.map((s) => s.value).join("\n");
  return lastJoined;
}

/** Records a match of `p` (or its group, exactly where the group matched) unless `accept` turns it down. */
function record(site: StringSite, p: CompiledPattern, m: RegExpExecArray, out: Detection[]): void {
  const span = p.group ? m.indices?.[p.group] : undefined;
  const text = span ? (m[p.group] as string) : m[0];
  if (p.accept !== null && !p.accept(text)) return;
  const start = span ? span[0] : m.index;
  out.push({ type: p.type, path: site.path, start, end: start + text.length });
}

/** Every match of the pattern in the string: a full scan. */
function found(site: StringSite, p: CompiledPattern, out: Detection[]): void {
  const re = p.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = nextMatch(re, site.value)) !== null) record(site, p, m, out);
}

/** The same matches as a full scan, trying `re` only where `starts` matches. */
function startingAt(site: StringSite, p: CompiledPattern, starts: RegExp, out: Detection[]): void {
  const v = site.value;
  starts.lastIndex = 0;
  let s: RegExpExecArray | null;
  while ((s = starts.exec(v)) !== null) {
    p.at.lastIndex = s.index;
    const m = p.at.exec(v);
    if (m && m[0].length > 0) {
      record(site, p, m, out);
      starts.lastIndex = s.index + m[0].length;
    } else starts.lastIndex = s.index + 1;
  }
}

/**
 * The same matches as a full scan, trying `re` only at the starts that can reach an occurrence of the anchor literal
 * (at most `max` characters of the `back` class before it), and only where `after` holds at the literal.
 */
function anchored(site: StringSite, p: CompiledPattern, anchor: NonNullable<CompiledPattern["anchor"]>, out: Detection[]): void {
  const { literal, max, after, back } = anchor;
  const v = site.value;
  let lastEnd = 0;
  let pos = v.indexOf(literal);
  while (pos >= 0) {
    let next = pos + literal.length;
    after.lastIndex = pos;
    if (after.test(v)) {
      let start = pos;
      while (start > lastEnd && pos - start < max && back[v.charCodeAt(start - 1)] === 1) start--;
      for (let s = start; s <= pos; s++) {
        p.at.lastIndex = s;
        const m = p.at.exec(v);
        if (m && m[0].length > 0) {
          record(site, p, m, out);
          lastEnd = s + m[0].length;
          next = Math.max(next, lastEnd);
          break;
        }
      }
    }
    pos = v.indexOf(literal, next);
  }
}
