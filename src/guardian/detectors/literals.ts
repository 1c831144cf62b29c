import type { StringSite } from "./scan.js";

/*
 * The detectors' literal prefilter for a short message: one pass over all its strings notes which pairs of adjacent
 * characters it holds (case-folded), which single characters, and how many digits. A literal whose pairs are
 * not all there cannot occur in the message in any case, so a detector whose literals are all absent skips its
 * regexes. Only a necessary condition: whatever it lets through is still decided by the detector's own regexes, so
 * the findings are exactly those of a full scan (a test holds them to it).
 *
 * One pass costs about what V8 spends on one case-insensitive alternation of a few literals; it replaces a dozen of
 * them (every group's literal prefilter, the sensitive-path hints, the secret-assignment stems).
 */

/** Messages at least this long (all strings together) are not prefiltered here: a per-character loop would cost more than the literal searches of long strings. */
const SHORT = 4096;

/**
 * Registered literals, by id, as what the pass must have seen for each: its first character (lower-cased), then each
 * pair of adjacent characters as an index into `pairs`.
 */
const registry: Int32Array[] = [];
const ids = new Map<string, number>();

/** The id of a literal (registered at module load by the detectors that need it). */
export function literalId(text: string): number {
  const key = text.toLowerCase();
  let id = ids.get(key);
  if (id === undefined) {
    if (!/^[\x00-\x7f]+$/.test(key)) throw new Error(`a prefilter literal is ASCII: ${JSON.stringify(text)}`);
    const seen = new Int32Array(key.length);
    seen[0] = fold(key.charCodeAt(0));
    for (let i = 1; i < key.length; i++) seen[i] = (fold(key.charCodeAt(i - 1)) << 7) | fold(key.charCodeAt(i));
    id = registry.length;
    registry.push(seen);
    ids.set(key, id);
  }
  return id;
}

/** What one pass found in a message. */
export class MessageLiterals {
  constructor(
    readonly sites: StringSite[],
    private stamp: number,
    /** How many ASCII digits the message holds. */
    readonly digits: number,
    /** (perf31) Whether every code unit of the message is ASCII (below 128). */
    readonly ascii: boolean = false,
  ) {}

  /** Whether any of these literals may occur (in any case). */
  any(literals: readonly number[]): boolean {
    // The tables are shared: when another message was scanned since, this one is scanned again.
    if (this.stamp !== epoch) this.stamp = mark(this.sites);
    const e = this.stamp;
    if (literals.length === 1) return holds(registry[literals[0] as number] as Int32Array, e);
    const { entries, starts } = groupOf(literals);
    for (let k = 0, j = 0; k < literals.length; k++) {
      const end = starts[k + 1] as number;
      while (j < end && stamps[entries[j] as number] === e) j++;
      if (j === end) return true;
      j = end;
    }
    return false;
  }

  /** The places in `literals` of those that may occur (in any case). */
  passing(literals: readonly number[]): number[] {
    if (this.stamp !== epoch) this.stamp = mark(this.sites);
    const e = this.stamp;
    const out: number[] = [];
    const { entries, starts } = groupOf(literals);
    for (let k = 0, j = 0; k < literals.length; k++) {
      const end = starts[k + 1] as number;
      while (j < end && stamps[entries[j] as number] === e) j++;
      if (j === end) out.push(k);
      j = end;
    }
    return out;
  }
}

/**
 * A list of literals as `any` and `passing` read it (issue 25): every literal's entries (its pairs, then its first
 * character) one after another in one array of indices into `stamps`, literal k's from `starts[k]` to `starts[k + 1]`.
 * Made once per list (the detectors' lists are module constants), so a check of 450 literals reads two typed arrays
 * and not 450 of them; a literal holds when all its entries do, whatever order they are read in.
 */
interface LiteralGroup {
  entries: Int32Array;
  starts: Int32Array;
}
const groups = new WeakMap<readonly number[], LiteralGroup>();
function groupOf(literals: readonly number[]): LiteralGroup {
  let g = groups.get(literals);
  if (g === undefined) {
    const starts = new Int32Array(literals.length + 1);
    const all: number[] = [];
    literals.forEach((id, k) => {
      const seen = registry[id] as Int32Array;
      // (perf31) Its pairs rarest first (by how common their characters are: pairCommonness), so that a literal absent
      // from a message is mostly known absent at its first read; any order gives the same answer.
      const pairs = Array.from(seen.subarray(1)).sort((a, b) => pairCommonness(a) - pairCommonness(b) || a - b);
      for (const p of pairs) all.push(p);
      all.push(SINGLES + (seen[0] as number));
      starts[k + 1] = all.length;
    });
    g = { entries: Int32Array.from(all), starts };
    groups.set(literals, g);
  }
  return g;
}

/**
 * Characters as the pass sees them: the 0x20 bit set (upper-case ASCII letters become lower-case) and only the low
 * seven bits kept. Coarser than case folding (`@` and a backtick, or a non-ASCII character and some ASCII one, look
 * alike), which only lets more through, and branch-free.
 */
const fold = (c: number): number => (c | 0x20) & 0x7f;

/**
 * (perf31) How common a character is, as the pass sees it (folded), in the text and arguments of messages: letters by
 * their frequency in English, then blanks and a path's punctuation; a string's start (0) is rare (a message has few
 * strings). Only orders a literal's pairs for groupOf: an estimate, never a condition.
 */
const COMMON = new Float64Array(128).fill(2);
COMMON[0] = 3;
for (let c = 0x30; c <= 0x39; c++) COMMON[c] = 5;
"etaoinshrdlcumwfgypbvkjxqz".split("").forEach((ch, i) => (COMMON[ch.charCodeAt(0)] = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1][i] as number));
for (const [ch, n] of [[" ", 180], ["/", 30], [".", 20], ["-", 15], [",", 10], ["_", 10], [":", 8], ['"', 5]] as const) COMMON[fold(ch.charCodeAt(0))] = n;
/** A pair's commonness (`prev << 7 | c`): the product of its characters'. */
const pairCommonness = (pair: number): number => (COMMON[pair >> 7] as number) * (COMMON[pair & 0x7f] as number);

/**
 * The pass (epoch) that last saw each pair of characters (at `prev << 7 | c`) and each character (at SINGLES + c):
 * nothing is cleared between messages.
 */
const SINGLES = 128 * 128;
const stamps = new Uint16Array(SINGLES + 128);
let epoch = 0;

/**
 * The last message asked about (the detectors of one message ask one after the other), and only a short one, so no
 * large message outlives its turn here.
 */
let last: MessageLiterals | null = null;

/** The literals of a short message (null for a long one), computed once per list of strings. */
export function literalsOf(sites: StringSite[]): MessageLiterals | null {
  if (last !== null && last.sites === sites) return last;
  let size = 0;
  for (const s of sites) size += s.value.length;
  if (size >= SHORT) return null;
  const stamp = mark(sites);
  last = new MessageLiterals(sites, stamp, markedDigits, markedAscii);
  return last;
}

/** The ASCII digits the last `mark` saw. */
let markedDigits = 0;
/** Whether every code unit the last `mark` saw was ASCII. */
let markedAscii = true;

/** Stamps every character and pair of the strings with a new epoch, counting digits on the way. */
function mark(sites: StringSite[]): number {
  if (++epoch === 0xffff) {
    stamps.fill(0);
    epoch = 1;
  }
  const e = epoch;
  let digits = 0;
  // every code unit or-ed together: below 128 when all are ASCII
  let all = 0;
  for (let k = 0; k < sites.length; k++) {
    const v = (sites[k] as StringSite).value;
    let prev = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      all |= c;
      const f = fold(c);
      stamps[SINGLES + f] = e;
      stamps[(prev << 7) | f] = e;
      prev = f;
      // Counted without a branch (a digit among letters is a branch mispredicted).
      digits += c - 48 >>> 0 < 10 ? 1 : 0;
    }
  }
  markedDigits = digits;
  markedAscii = all < 128;
  return e;
}

/** Whether one literal may occur: its first character and every pair of it seen in pass `e`. */
function holds(seen: Int32Array, e: number): boolean {
  if (stamps[SINGLES + (seen[0] as number)] !== e) return false;
  for (let i = 1; i < seen.length; i++) if (stamps[seen[i] as number] !== e) return false;
  return true;
}
