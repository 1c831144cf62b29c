import { contactsIn, PERSON_NAME } from "./pii-contacts.js";
import { checkedIdentity, validDate } from "./pii-checks.js";
import { nationalSure } from "./pii-national.js";
import { literalsOf } from "./literals.js";
import { catalogueChecked, catalogueLabel } from "./pii-catalogue.js";
import { namesIdentity } from "./pii-people.js";
import type { Detection, StringSite } from "./scan.js";
import { asciiDigits, otherDigit } from "./digits.js";

/*
 * (Twenty-sixth round) People's records handed back (`pii_bulk.people_rows`): a tool's result or an agent's reply
 * that lists several people, each with what identifies them privately — a birth date or an identity number — beside a
 * way to reach them or a second such field. Whatever was asked (a count, a status, "how many opted in"), an answer
 * that dumps the rows themselves hands the model data it can be steered to pass on, and the conversation keeps it.
 * The rule that uses it (`redact-bulk-pii-returned`) cuts the records and leaves the rest of the answer.
 *
 * A record is a line of a text (a new line or `;` between people) with a person's name on it (two capitalised words,
 * or a word of a script without capitals: `Oliver Grant`, `امیر حسینی`, `राहुल शर्मा`), or the item of a JSON list (an A2A data
 * part's `accounts`, a result's `rows`, of any name and language: only values and the keys' meaning are read).
 * Its fields, in any language (digits of other scripts — Persian, Arabic, the Indic scripts, Thai, Lao, Myanmar,
 * Khmer, full width: digits.ts, shared with exfil-personal-bulk.ts since exf31 — are read as digits):
 *   - a birth date: a calendar date ten years ago or more (`1983-06-14`, `02/11/2001`), or any past date under a key
 *     that names a birth;
 *   - an identity number: a US SSN's shape with a valid area, a number that passes a national check (the catalogue's,
 *     the dated numbers of pii-national.ts, Iran's ten-digit national code), or a value under a key that names one;
 *   - a contact: a phone or a personal mailbox's address (pii-contacts.ts's reading).
 * Bulk: three records or more, each with a birth date or an identity number and one field more; or two records
 * each with both a birth date and an identity number (the two halves of a stolen identity, per person).
 *
 * What passes: one person's record or a couple's (the user's own profile, a family's booking); directories and
 * lead lists (names with work or personal contacts, a creation date of this decade: nothing private); lists of
 * numbers without names; test data whose only contacts are placeholders (`example.test`, no phone); dates that are
 * recent (orders, visits, logins). Cost: a message with fewer than 30 digits is done after counting them; strings of
 * 64 KB at most, 512 lines each, lines of 1,000 characters, JSON fields of 200 and 256 JSON records; every pattern is
 * bounded (no nested quantifiers).
 */

const MAX_TEXT = 64 * 1024;
const MAX_LINE = 1000;
const MAX_RECORDS = 256;

/** Ten years before now: an earlier date beside a person's name is read as a birth (an order of 2026 is not). */
const BORN_BEFORE = Date.now() - 10 * 365.25 * 24 * 3600 * 1000;

/**
 * A person's name: pii-contacts.ts's (two capitalised words, or a word of Arabic, Georgian, Amharic, Thai or East Asian
 * script), or a word of another script without capitals (Hebrew, Devanagari, Bengali, the other Indic scripts).
 */
const OTHER_NAME = /[\u0590-\u05ff\u0900-\u0dff]{2}/;
const named = (v: string) => PERSON_NAME.test(v) || OTHER_NAME.test(v);

const MIN_DIGITS = 30;

/**
 * How many digits (of the scripts read) a string holds, counting up to `enough`. (Issue 25, perf27: the count is
 * tested only where it grows, and an ASCII digit by one unsigned compare; twice as fast on a 1 KB result's prose,
 * where every character was tested against `enough` as well. The same count.)
 */
function digitsIn(v: string, enough: number): number {
  if (enough <= 0) return 0;
  let n = 0;
  const length = v.length;
  for (let i = 0; i < length; i++) {
    const c = v.charCodeAt(i);
    if ((c - 48) >>> 0 < 10 || (c >= 0x0660 && otherDigit(c) >= 0)) {
      if (++n >= enough) return n;
    }
  }
  return n;
}

/** A date: year first (`1983-06-14`) or last (`14.06.1983`, `06/14/1983`). */
const DATE = /(?<![\d.\/-])(?:((?:19|20)\d\d)[-./](\d{1,2})[-./](\d{1,2})|(\d{1,2})[-./](\d{1,2})[-./]((?:19|20)\d\d))(?![\d\/])/g;

/** Words that name a birth before its date, in several languages (`born`, `geb.`, `né le`, `nacido`, `род.`, `जन्म`, `تولد`). */
const BIRTH_WORD = /(?:born|b\.|dob|d\.o\.b|birth|geb|n[ée]e?|nac|nat[oa]|nasc|urodz|ro[đd]|rojen|syntyn|f[öø]d|род|γενν|do[ğg]um|sinh|lahir|kuzaliwa|生|誕|출생|생년|जन्म|জন্ম|ميلاد|تولد|לידה)[\p{L}.]{0,12}$/iu;
/** What a date's field says before it: separators dropped, the last word (up to 24 characters before the separators). */
const BEFORE = /(\p{L}[\p{L}.']{0,23})[\s:;=,(|·•—–-]{0,4}$/u;

/**
 * How the words just before a date label it: `birth` (a birth word), `other` (a word in lower case: `since`, `joined`,
 * `ordered on`, `fundada en`), or `none` (a separator, a number, a capitalised name: a column of a record).
 */
function labelOf(v: string, at: number): "birth" | "other" | "none" {
  const m = BEFORE.exec(v.slice(Math.max(0, at - 32), at));
  if (m === null) return "none";
  const word = m[1] as string;
  if (BIRTH_WORD.test(word)) return "birth";
  return /^\p{Ll}/u.test(word) ? "other" : "none";
}

/**
 * The dates in a string that are real and in the past: a birth word's (or under a birth key: `keyed`) of any past year,
 * an unlabelled one only ten years ago or more. A date another word labels (`since 1921-04-01`, `joined 2009-03-02`) is
 * not a birth.
 */
function birthDates(v: string, keyed: boolean): string[] {
  const out: string[] = [];
  DATE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = DATE.exec(v)) !== null && out.length < 8; ) {
    const y = Number(m[1] ?? m[6]);
    const a = Number(m[2] ?? m[4]);
    const b = Number(m[3] ?? m[5]);
    // Month and day in either order (`06/14/1983`, `14/06/1983`).
    const [mo, d] = m[1] !== undefined ? [a, b] : validDate(y, b, a) ? [b, a] : [a, b];
    if (!validDate(y, mo, d)) continue;
    const label = keyed ? "birth" : labelOf(v, m.index);
    if (label === "other") continue;
    const t = Date.UTC(y, mo - 1, d);
    if (t <= (label === "birth" ? Date.now() : BORN_BEFORE)) out.push(m[0]);
  }
  return out;
}

/** A US SSN's shape with a valid area, group and serial. */
const SSN = /(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])/g;
/** A code of 6–21 letters and digits, single dots or dashes between them (each step reads one or two characters). */
const CODE = /(?<![\p{L}\p{N}.-])[A-Z0-9](?:[A-Z0-9]|[.-](?=[A-Z0-9])){5,20}(?![\p{L}\p{N}])/gu;

/** Iran's national code (kod-e melli): ten digits, the last a weighted mod-11 check of the nine before. */
export function iranNationalCode(s: string): boolean {
  if (!/^\d{10}$/.test(s) || /^(\d)\1{9}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (s.charCodeAt(i) - 48) * (10 - i);
  const r = sum % 11;
  const c = s.charCodeAt(9) - 48;
  return r < 2 ? c === r : c === 11 - r;
}

/** The identity numbers in a string (their compact forms). */
function identityNumbers(v: string): string[] {
  const out: string[] = [];
  if (v.includes("-")) {
    SSN.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = SSN.exec(v)) !== null && out.length < 8; ) {
      const area = Number(m[1]);
      if (area === 0 || area === 666 || area >= 900 || m[2] === "00" || m[3] === "0000") continue;
      out.push(m[0].replace(/\D/g, ""));
    }
  }
  CODE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = CODE.exec(v)) !== null && out.length < 8; ) {
    const raw = m[0];
    const compact = raw.replace(/[.-]/g, "");
    if (compact.length < 6 || !/\d{4}/.test(compact)) continue;
    if (iranNationalCode(compact) || checkedIdentity(compact) || nationalSure(compact) || catalogueChecked(raw)) out.push(compact);
  }
  return out;
}

interface Fields {
  births: string[];
  ids: string[];
  contacts: string[];
}

function fieldsOf(v: string, key: string | null): Fields {
  const t = asciiDigits(v);
  const birthKey = key !== null && /dob|birth|born|geburt|nacim|naiss|nascit|geboorte|urodz|生年月日|出生/i.test(key);
  const births = birthDates(t, birthKey);
  let ids = identityNumbers(t);
  if (key !== null && !birthKey && ids.length === 0) {
    // A value under a key that names an identity number (the key is read only for a value shaped as one).
    const compact = t.replace(/[\s.-]/g, "");
    if (/^[A-Z0-9]{6,20}$/i.test(compact) && /\d{4}/.test(compact) && (namesIdentity(key) || catalogueLabel(key))) ids = [compact.toUpperCase()];
  }
  // A number read as an identity number or a date is not also a phone.
  const taken = new Set(ids);
  const contacts = contactsIn(t).filter((c) => !taken.has(c) && !births.some((b) => b.replace(/\D/g, "") === c));
  return { births, ids, contacts };
}

interface Row {
  key: string;
  strong: boolean;
  spans: { path: Detection["path"]; start: number; end: number }[];
}

/** A record's verdict: a row when it holds a birth date or an identity number and one field more. */
function rowOf(f: Fields, spans: Row["spans"]): Row | null {
  const privateKinds = (f.births.length > 0 ? 1 : 0) + (f.ids.length > 0 ? 1 : 0);
  if (privateKinds === 0 || privateKinds + (f.contacts.length > 0 ? 1 : 0) < 2) return null;
  const key = f.ids[0] ?? f.contacts[0] ?? (f.births[0] as string);
  return { key, strong: privateKinds === 2, spans };
}

function bulk(rows: readonly Row[]): boolean {
  const all = new Set(rows.map((r) => r.key));
  const strong = new Set(rows.filter((r) => r.strong).map((r) => r.key));
  return all.size >= 3 || strong.size >= 2;
}

/** One line (or a `;`-separated part of one) as a record: a name on it and the fields of a row. */
function lineRow(site: StringSite, start: number, end: number): Row | null {
  if (end - start < 12 || end - start > MAX_LINE) return null;
  const line = asciiDigits(site.value.slice(start, end));
  if (!/\d{2}/.test(line) || !named(line)) return null;
  return rowOf(fieldsOf(line, null), [{ path: site.path, start, end }]);
}

/** The lines of a text that are people's records. */
function textRows(site: StringSite): Row[] {
  const v = site.value;
  const rows: Row[] = [];
  let at = 0;
  for (let n = 0; n < 512 && at < v.length; n++) {
    let end = at;
    while (end < v.length && v[end] !== "\n") end++;
    const row = lineRow(site, at, end);
    if (row) rows.push(row);
    else if (end - at <= MAX_LINE && v.slice(at, end).includes(";")) {
      // People one after another on a line, `;` between them.
      for (let from = at, k = 0; from < end && k < 64; k++) {
        let to = v.indexOf(";", from);
        if (to < 0 || to > end) to = end;
        const part = lineRow(site, from, to);
        if (part) rows.push(part);
        from = to + 1;
      }
    }
    at = end + 1;
  }
  return rows;
}

/** JSON lists: each item's strings (an object's fields, or one level down), grouped by the list they belong to. */
function jsonRows(sites: readonly StringSite[]): Row[][] {
  const lists = new Map<string, Map<string, { fields: Fields; named: boolean; spans: Row["spans"] }>>();
  let seen = 0;
  /** The item index of a list a site is a field of (one object down at most), or -1. */
  const itemAt = (p: Detection["path"]) => (typeof p[p.length - 2] === "number" ? p.length - 2 : p.length >= 3 && typeof p[p.length - 3] === "number" ? p.length - 3 : -1);
  // A record's field is a short value (a name, a date, a number, an address): longer texts are read as lines. Two
  // records need two such fields with six digits or more (a birth date, an identity number): else there is no list.
  const fields = sites.filter((s) => s.value.length <= 200 && itemAt(s.path) >= 1);
  let numbered = 0;
  for (const s of fields) if (digitsIn(s.value, 6) >= 6 && ++numbered >= 2) break;
  if (numbered < 2) return [];
  for (const site of fields) {
    const p = site.path;
    const i = itemAt(p);
    const listKey = p.slice(0, i).join("\u0001");
    let list = lists.get(listKey);
    if (!list) lists.set(listKey, (list = new Map()));
    const recKey = String(p[i]);
    let rec = list.get(recKey);
    if (!rec) {
      if (++seen > MAX_RECORDS) break;
      list.set(recKey, (rec = { fields: { births: [], ids: [], contacts: [] }, named: false, spans: [] }));
    }
    const last = p[p.length - 1];
    const v = asciiDigits(site.value);
    // Only a value with a digit or an `@` holds a date, a number or a contact; a name has neither.
    if (/\d|@/.test(v)) {
      const f = fieldsOf(v, typeof last === "string" ? last : null);
      rec.fields.births.push(...f.births);
      rec.fields.ids.push(...f.ids);
      rec.fields.contacts.push(...f.contacts);
    } else if (!rec.named && v.length <= 80 && named(v)) rec.named = true;
    rec.spans.push({ path: site.path, start: 0, end: site.value.length });
  }
  const out: Row[][] = [];
  for (const list of lists.values()) {
    const rows: Row[] = [];
    for (const r of list.values()) {
      const row = r.named ? rowOf(r.fields, r.spans) : null;
      if (row) rows.push(row);
    }
    out.push(rows);
  }
  return out;
}

/** People's records in what a tool or another agent sends back (see above): the records' spans. */
export function detectPeopleRows(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  const push = (rows: readonly Row[]) => {
    if (!bulk(rows)) return;
    for (const r of rows) for (const s of r.spans) out.push({ type: "pii_bulk.people_rows", path: s.path, start: s.start, end: s.end });
  };
  // (perf31) A short message all in ASCII: its literal pass has counted its digits (all of them ASCII) already.
  const lits = literalsOf(sites as StringSite[]);
  if (lits !== null && lits.ascii && lits.digits < MIN_DIGITS) return out;
  const small = sites.filter((s) => s.value.length <= MAX_TEXT);
  // Two records hold 30 digits at least (a birth date and a phone, or a birth date and an SSN, each): a message with
  // fewer holds no bulk, and most answers are done here.
  let digits = 0;
  for (const s of small) if ((digits += digitsIn(s.value, MIN_DIGITS - digits)) >= MIN_DIGITS) break;
  if (digits < MIN_DIGITS) return out;
  for (const s of small) if (s.value.length >= 48 && digitsIn(s.value, MIN_DIGITS) >= MIN_DIGITS) push(textRows(s));
  for (const rows of jsonRows(small)) push(rows);
  return out;
}
