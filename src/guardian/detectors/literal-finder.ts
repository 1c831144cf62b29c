/*
 * Finds every occurrence of a set of literals in one pass per distinct "rare" character: each literal is looked for
 * only where its rarest character occurs (a memchr-speed `indexOf`), and there only the literals that share that
 * character *and* the character beside it are compared. A megabyte of prose or source costs a few searches for
 * characters such as `_`, `J` or `~`, not one pass per literal (a regex alternation of sixty literals costs ten times
 * more in V8, a search per literal thirty times more).
 */

/**
 * Characters from the most to the least common in English prose and source code (capitals that start common words
 * first); anything absent is rarer still. A literal is looked for at its rarest character by this order.
 */
const BY_FREQUENCY = " etaoinsrhldcu\nmfpgwyb.,/v\"'0123456789x:=()k-;{}_<>[]*#|@~?!$%^&+\\ETAOLINSRHDCUMFPGWYBVKXJQZ";
export const rank = (c: string): number => {
  const i = BY_FREQUENCY.indexOf(c);
  return i < 0 ? BY_FREQUENCY.length : i;
};

/** A character at least this rare may anchor a literal that shares it with others (`k`, `-` and rarer). */
const SHARED_RANK = rank("k");

interface Entry {
  /** Index of the literal in the list given. */
  id: number;
  literal: string;
  /** Where the rare character sits in the literal. */
  at: number;
}

/**
 * Literals by rare character, then by the character before it (or after it, when the rare one starts the literal),
 * folded to seven bits: a table of 128 slots each.
 */
interface Group {
  char: string;
  before: (Entry[] | undefined)[];
  after: (Entry[] | undefined)[];
  /** A one-character literal: every occurrence is a hit. */
  alone: Entry[] | undefined;
}

export class LiteralFinder {
  private readonly groups: Group[] = [];

  /** The character each literal is looked for at. */
  readonly anchors: string[] = [];

  constructor(readonly literals: readonly string[]) {
    const byChar = new Map<string, Group>();
    const ats = literals.map((literal) => {
      if (literal.length === 0) throw new Error("an empty literal");
      let at = 0;
      for (let i = 1; i < literal.length; i++) if (rank(literal[i] as string) >= rank(literal[at] as string)) at = i;
      return at;
    });
    // Each distinct character is one pass over a long text, found or not: a literal alone at its character moves to
    // another of its characters that other literals are anchored at, when that one is rare too (`EZAK` to `K`).
    const uses = new Map<string, number>();
    literals.forEach((l, id) => uses.set(l[ats[id] as number] as string, (uses.get(l[ats[id] as number] as string) ?? 0) + 1));
    literals.forEach((l, id) => {
      if (uses.get(l[ats[id] as number] as string) !== 1) return;
      let best = -1;
      for (let i = 0; i < l.length; i++) {
        const c = l[i] as string;
        if (i !== ats[id] && (uses.get(c) ?? 0) > 0 && rank(c) >= SHARED_RANK && (best < 0 || rank(c) > rank(l[best] as string))) best = i;
      }
      if (best >= 0) {
        uses.set(l[ats[id] as number] as string, 0);
        uses.set(l[best] as string, (uses.get(l[best] as string) ?? 0) + 1);
        ats[id] = best;
      }
    });
    literals.forEach((literal, id) => {
      const at = ats[id] as number;
      const char = literal[at] as string;
      this.anchors.push(char);
      let g = byChar.get(char);
      if (!g) {
        g = { char, before: new Array<Entry[] | undefined>(128).fill(undefined), after: new Array<Entry[] | undefined>(128).fill(undefined), alone: undefined };
        byChar.set(char, g);
        this.groups.push(g);
      }
      const e = { id, literal, at };
      if (literal.length === 1) (g.alone ??= []).push(e);
      else if (at > 0) push(g.before, literal.charCodeAt(at - 1), e);
      else push(g.after, literal.charCodeAt(1), e);
    });
  }

  /** Calls `hit(id, start)` for every occurrence of every literal in `text` (grouped by rare character, not in order). */
  find(text: string, hit: (id: number, start: number) => void): void {
    const groups = this.groups;
    for (let k = 0; k < groups.length; k++) {
      const g = groups[k] as Group;
      const c = g.char;
      for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) {
        if (g.alone !== undefined) for (const e of g.alone) hit(e.id, i);
        const before = i > 0 ? g.before[text.charCodeAt(i - 1) & 127] : undefined;
        if (before !== undefined) for (let j = 0; j < before.length; j++) check(text, before[j] as Entry, i, hit);
        const after = g.after[text.charCodeAt(i + 1) & 127];
        if (after !== undefined) for (let j = 0; j < after.length; j++) check(text, after[j] as Entry, i, hit);
      }
    }
  }
}

function push(table: (Entry[] | undefined)[], code: number, e: Entry): void {
  (table[code & 127] ??= []).push(e);
}

function check(text: string, e: Entry, i: number, hit: (id: number, start: number) => void): void {
  const start = i - e.at;
  if (start >= 0 && text.startsWith(e.literal, start)) hit(e.id, start);
}
