import { literalsOf } from "./literals.js";
import { detectPiiBulk } from "./pii-bulk.js";
import { detectPeopleRows } from "./pii-rows.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Seventeenth round) Bulk identity or payment data handed back to the agent: a tool's result or an agent's reply that
 * holds several people's identity numbers, cards with their details, or account numbers. Whatever the agent asked, its
 * answer never needs the numbers themselves; the model that reads them can be steered to pass them on, and the
 * conversation keeps them. The rule cuts the numbers (the findings' spans) and leaves the rest of the answer.
 *
 * Only the findings of people's identifiers count here — lists by definition (`people`, `id_list`, `ssn_list`,
 * `card_list`) — and a number with its details (`identity`, `payment_card`) only when two or more are found: one
 * person's own record read back (the user's card on file, their passport) is what they asked for. A bare list of
 * IBANs is not (a payables tool lists its suppliers' accounts); people's accounts count as `people`, beside names.
 * Health notes, homes and contact exports without a number are left to the outbound rule: in a reply they are
 * ordinary records a user reads.
 */

const LISTS = new Set(["pii_bulk.people", "pii_bulk.id_list", "pii_bulk.ssn_list", "pii_bulk.card_list"]);
const PAIRED = new Set(["pii_bulk.identity", "pii_bulk.payment_card"]);

/** Each string is judged on its head: a table's first rows say whose records it holds. */
const HEAD = 64 * 1024;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A separator inside a number: `.`, `-`, `/` or one space. */
function isJoin(c: number): boolean {
  return c === 46 || c === 45 || c === 47 || c === 32;
}

/** Six digits in one number; each attempt reads eleven characters at most (no backtracking beyond that). */
const LONG_NUMBER = /\d(?:[./ -]?\d){5}/g;

/**
 * Two identity or card numbers are two long numbers: six digits or more each, in groups joined by one separator
 * (`529.982.247-25`, `4532 0149 7731 5829`, `EK4418203`). A message with fewer — build numbers, counts, years,
 * timestamps split by words — is done before any scan.
 */
function twoLongNumbers(sites: readonly StringSite[]): boolean {
  // (perf31) Two numbers apart hold twelve ASCII digits (`\d` is ASCII): a short message with fewer holds none.
  const lits = literalsOf(sites as StringSite[]);
  if (lits !== null && lits.digits < 12) return false;
  let found = 0;
  for (const s of sites) {
    const v = s.value.length > HEAD ? s.value.slice(0, HEAD) : s.value;
    LONG_NUMBER.lastIndex = 0;
    while (LONG_NUMBER.exec(v) !== null) {
      if (++found >= 2) return true;
      // the rest of this number is the same number
      let i = LONG_NUMBER.lastIndex;
      while (i < v.length && (isDigit(v.charCodeAt(i)) || (isJoin(v.charCodeAt(i)) && isDigit(v.charCodeAt(i + 1))))) i++;
      LONG_NUMBER.lastIndex = i;
    }
  }
  return false;
}

export function detectReturnedBulk(sites: StringSite[]): Detection[] {
  // (Twenty-sixth round) people's rows: names with birth dates or identity numbers beside contacts (pii-rows.ts).
  const rows = detectPeopleRows(sites);
  if (!twoLongNumbers(sites)) return rows;
  const heads = sites.map((s) => (s.value.length > HEAD ? { ...s, value: s.value.slice(0, HEAD) } : s));
  const found = detectPiiBulk(heads);
  const lists = found.filter((d) => LISTS.has(d.type));
  const paired = found.filter((d) => PAIRED.has(d.type));
  const distinct = new Set(paired.map((d) => `${String(d.path)}:${d.start}`));
  return [...rows, ...(distinct.size >= 2 ? [...lists, ...paired] : lists)];
}
