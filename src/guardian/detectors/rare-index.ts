import { rank } from "./literal-finder.js";

/*
 * `indexOf` for a literal in a long string, looked for at its rarest character (literal-finder.ts's order). V8 finds
 * a short literal by searching for its first character: `"eyJ"` stops at every `e` of a megabyte of prose (0.2–0.3 ms),
 * while a search for its `J` is a memchr that rarely stops. Where the rare character turns out to be common in this
 * text (a miss every few dozen characters), the search falls back to V8's own from there: never much worse than it.
 * The result is exactly `text.indexOf(literal, from)`.
 */

/** Shorter strings are searched by `indexOf` itself (nothing to gain). */
const LONG = 4096;
const anchors = new Map<string, number>();

/** Where the rarest character of a literal is (the last of the rarest). */
function anchorOf(literal: string): number {
  let at = anchors.get(literal);
  if (at === undefined) {
    at = 0;
    for (let i = 1; i < literal.length; i++) if (rank(literal[i] as string) >= rank(literal[at] as string)) at = i;
    anchors.set(literal, at);
  }
  return at;
}

/** `text.indexOf(literal, from)`, for a non-empty literal and `from` ≥ 0. */
export function indexOfRare(text: string, literal: string, from = 0): number {
  if (text.length < LONG || literal.length < 2) return text.indexOf(literal, from);
  const at = anchorOf(literal);
  const c = literal[at] as string;
  let misses = 0;
  for (let j = text.indexOf(c, from + at); j >= 0; j = text.indexOf(c, j + 1)) {
    const s = j - at;
    if (text.startsWith(literal, s)) return s;
    // (A miss more often than every 32 characters read: this character is no rarer here than the first.)
    if (++misses * 32 > j - from + 8192) return text.indexOf(literal, s + 1);
  }
  return -1;
}

/** `text.includes(literal)`. */
export function includesRare(text: string, literal: string): boolean {
  return indexOfRare(text, literal) >= 0;
}
