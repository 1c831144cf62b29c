/*
 * Eighteenth round ("inj18"), benign guards on the scorer's secrecy reading: what a negation governs. Two of the
 * class's false positives of sets 42 to 45 were read as "hides it from the user" for a negation that hid nothing —
 * a policy for staff ("don't let AI tools change payments …, and report odd notes to IT"), an answer to a user ("Do
 * not act on it; report it to the contact"), a job posting ("do not use AI tools to write your answers"). The
 * principles, in any domain (docs/detection.md, "Eighteenth round: injection"):
 *
 * - `freedClause(toks, i, c, gap)`: a telling verb that stands in a clause of its own after the negation's — after a
 *   semicolon, a colon or a dash, or after a comma and a coordinator ("…, and report it", "…, stop and tell IT") — is
 *   not negated. It is a second order, to tell someone; the opposite of keeping them in the dark. A comma alone
 *   ("do not, under any circumstances, tell the user") still leaves the verb under the negation.
 * - `aiAsObject(toks, i)`: a negation whose verb takes the AI (an AI tool, the assistant) as its object ("do not use
 *   AI tools to …", "don't let the assistant change …") restricts the AI's use: it is a rule written for people about
 *   AI, not an order to the AI. Not when the same clause names the user as the one kept out (then the secrecy stands).
 *
 * Linear: a bounded look at the few tokens between the negation and the verb.
 */
import type { Cue } from "./injection-lexicon.js";

interface T {
  w: string;
  cues: readonly Cue[];
}

/** Words that join a second clause to the first, several languages. */
const COORD = new Set(["and", "then", "but", "instead", "und", "dann", "sondern", "et", "puis", "mais", "y", "luego", "pero", "e", "depois", "mas", "en", "maar", "och", "i", "и", "а"]);

/** Whether the telling verb at `c` (after the negation at `i`) opens a clause of its own, out of the negation's reach. */
export function freedClause(toks: readonly T[], i: number, c: number, gap: (k: number) => string): boolean {
  if (c <= i + 1) return false;
  for (let k = i + 1; k <= c; k++) {
    const g = gap(k);
    if (/[;:\u2014\u2013]/.test(g)) return true;
    // A comma, then at most two words ending on a coordinator right before the verb: "…, and report", "…, stop and tell".
    if (g.includes(",") && c - k <= 2 && COORD.has((toks[c - 1] as T).w)) return true;
  }
  return false;
}

/** Whether the negation at `i` restricts the AI's use: its verb (the next word) takes an AI word as its object. */
export function aiAsObject(toks: readonly T[], i: number, hi: number): boolean {
  const verb = toks[i + 1];
  if (verb === undefined || verb.cues.includes("ai") || verb.cues.includes("you")) return false;
  let obj = -1;
  for (let k = i + 2; k <= Math.min(i + 3, toks.length - 1); k++) {
    if ((toks[k] as T).cues.includes("ai")) {
      obj = k;
      break;
    }
  }
  if (obj < 0) return false;
  // ("don't let the assistant mention this": the AI is the subject of a telling verb, and the secrecy stands.)
  for (let k = i + 1; k < hi; k++) if ((toks[k] as T).cues.includes("target") || (k > obj && (toks[k] as T).cues.includes("comm"))) return false;
  return true;
}
