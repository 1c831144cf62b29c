import { tajHu, validDate } from "./pii-checks.js";
import { luhn } from "./pii.js";

/*
 * (Twenty-fourth round) People's lists keyed by national identity numbers that nobody labelled
 * (`pii_bulk.national_ids`): a payroll, a client list or an aid roll where each record is a name beside a country's
 * identity number, with nothing else personal beside it (a salary, a bank, a second card's number) and no column or
 * label that says what the number is. The number says it itself, by the structure its country gives it:
 *
 *   - numbers that carry their holder's birth date and pass their country's check (`nationalDated`), the record's
 *     identifier and birth date at once:
 *       Sweden     personnummer / samordningsnummer  10 or 12 digits (YY)YYMMDD NNN C, day +60 for coordination numbers, Luhn
 *       Norway     fødselsnummer / D-nummer          11 digits DDMMYY III K1 K2, day +40 for D-numbers, two mod-11 checks
 *       Latvia     personas kods (before 2017)       11 digits DDMMYY C NNN K, weighted mod-11 check
 *       Korea      resident registration number      13 digits YYMMDD S NNNNN C, S 1–8, weighted mod-11 check
 *       China      resident identity card            18 characters: region, YYYYMMDD, order, ISO 7064 mod 11-2 (X = 10)
 *       Indonesia  NIK                               16 digits: province 11–94, regency, district, DDMMYY (day +40
 *                                                    for women), a serial other than 0000 (no check digit: the date
 *                                                    and the region carry it)
 *   - a column of numbers of one length that all pass one short check (`checkedColumn`): one check digit is passed by
 *     one random number in ten, so it names a code only when three records or more all pass it (one time in a
 *     thousand by chance):
 *       Luhn over nine digits (Israel's teudat zehut, Canada's SIN), Japan's My Number (12 digits, mod 11),
 *       Hungary's tax id (10 digits opening with 8, mod 11), Hungary's TAJ (9 digits, 3-7 weights).
 *   - and the ten-, eleven- and fourteen-digit numbers pii-checks.ts already checks (Ecuador's cédula, the Czech
 *     birth number, Austria's SVNR, Belgium's national number, Egypt's national id) now name a record's code as a
 *     label would: a name beside one of them is a person's record with nothing else.
 *
 * What passes: lists of names with codes that do not pass (order, account, employee or ticket numbers of any length);
 * a column where only some codes pass a short check; card numbers (Luhn over 13–19 digits is a card's, read as one);
 * phone numbers (read as phones before codes); lists of one or two people (pii-people.ts's counts are unchanged).
 * Each check is a fixed loop over at most eighteen characters.
 */

function dg(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

function two(s: string, i: number): number {
  return dg(s, i) * 10 + dg(s, i + 1);
}

/** A year before now: a date of this year is more often an order's or a batch's number than a birth. */
const LATEST = Date.now() - 365 * 24 * 3600 * 1000;
/** A real date, a year ago or more. */
function born(y: number, m: number, d: number): boolean {
  return validDate(y, m, d) && Date.UTC(y, m - 1, d) <= LATEST;
}

/** A two-digit year read as the latest century that does not put it in the future. */
function yearOf(yy: number, m: number, d: number): number {
  const y = 2000 + yy;
  return born(y, m, d) ? y : 1900 + yy;
}

/** Sweden's personnummer or samordningsnummer, 10 digits (YYMMDDNNNC) or 12 (YYYYMMDDNNNC). */
export function personnummerSe(s: string): boolean {
  const t = s.length === 12 ? s.slice(2) : s;
  if (t.length !== 10 || (s.length === 12 && s[0] !== "1" && s[0] !== "2")) return false;
  const m = two(t, 2);
  let d = two(t, 4);
  if (d > 60) d -= 60;
  const y = s.length === 12 ? two(s, 0) * 100 + two(t, 0) : yearOf(two(t, 0), m, d);
  return born(y, m, d) && luhn(t);
}

/** Norway's fødselsnummer or D-nummer. */
export function fodselsnummerNo(s: string): boolean {
  if (s.length !== 11) return false;
  let d = two(s, 0);
  if (d > 40) d -= 40;
  const m = two(s, 2);
  if (!born(yearOf(two(s, 4), m, d), m, d)) return false;
  const w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2];
  const w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  let a = 0;
  for (let i = 0; i < 9; i++) a += dg(s, i) * (w1[i] as number);
  const k1 = (11 - (a % 11)) % 11;
  if (k1 === 10 || k1 !== dg(s, 9)) return false;
  let b = 0;
  for (let i = 0; i < 10; i++) b += dg(s, i) * (w2[i] as number);
  const k2 = (11 - (b % 11)) % 11;
  return k2 !== 10 && k2 === dg(s, 10);
}

/** Latvia's personas kods of the old form (DDMMYY C NNN K). */
export function personasKodsLv(s: string): boolean {
  if (s.length !== 11) return false;
  const d = two(s, 0);
  const m = two(s, 2);
  if (!born(yearOf(two(s, 4), m, d), m, d)) return false;
  const w = [1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += dg(s, i) * (w[i] as number);
  return ((1101 - sum) % 11) % 10 === dg(s, 10);
}

/** Korea's resident registration number. */
export function rrnKr(s: string): boolean {
  if (s.length !== 13) return false;
  const sx = dg(s, 6);
  if (sx < 1 || sx > 8) return false;
  const century = sx === 3 || sx === 4 || sx === 7 || sx === 8 ? 2000 : 1900;
  if (!born(century + two(s, 0), two(s, 2), two(s, 4))) return false;
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += dg(s, i) * (w[i] as number);
  return (11 - (sum % 11)) % 10 === dg(s, 12);
}

/** China's resident identity number (18 characters, the last a digit or X). */
export function residentIdCn(s: string): boolean {
  if (!/^[1-9]\d{16}[\dX]$/.test(s)) return false;
  if (!born(two(s, 6) * 100 + two(s, 8), two(s, 10), two(s, 12))) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += dg(s, i) * ((1 << (17 - i)) % 11);
  const c = (12 - (sum % 11)) % 11;
  return s[17] === (c === 10 ? "X" : String(c));
}

/** Indonesia's provinces, the NIK's first two digits. */
const ID_PROVINCES = new Set([11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 31, 32, 33, 34, 35, 36, 51, 52, 53, 61, 62, 63, 64, 65, 71, 72, 73, 74, 75, 76, 81, 82, 91, 92, 93, 94]);

/** Indonesia's NIK: region, birth date (day +40 for women), serial. */
export function nikId(s: string): boolean {
  if (s.length !== 16 || !/^\d+$/.test(s)) return false;
  if (!ID_PROVINCES.has(two(s, 0))) return false;
  let d = two(s, 6);
  if (d > 40) d -= 40;
  const m = two(s, 8);
  return born(yearOf(two(s, 10), m, d), m, d) && s.slice(12) !== "0000";
}

/**
 * Whether a dated number also has a check digit (all but the NIK): two such records are already a list, as two named
 * numbers are; NIKs need three.
 */
export function nationalSure(compact: string): boolean {
  return compact.length !== 16 && nationalDated(compact);
}

/** A national identity number that carries a birth date and passes its country's check (see above). */
export function nationalDated(compact: string): boolean {
  if (!/^\d{9,17}[\dX]$/.test(compact)) return false;
  switch (compact.length) {
    case 10:
      return personnummerSe(compact);
    case 11:
      return fodselsnummerNo(compact) || personasKodsLv(compact);
    case 12:
      return personnummerSe(compact);
    case 13:
      return rrnKr(compact);
    case 16:
      return nikId(compact);
    case 18:
      return residentIdCn(compact);
    default:
      return false;
  }
}

function myNumberJp(s: string): boolean {
  if (s.length !== 12) return false;
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += dg(s, 11 - n) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === dg(s, 11);
}

function taxIdHu(s: string): boolean {
  if (s.length !== 10 || s[0] !== "8") return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += dg(s, i) * (i + 1);
  return sum % 11 === dg(s, 9);
}

const COLUMN_CHECKS: ((s: string) => boolean)[] = [(s) => s.length === 9 && luhn(s), myNumberJp, taxIdHu, tajHu];

/**
 * Whether the codes of three records or more (digits only, distinct) are all of one length and all pass one of the
 * short checks: a column of identity numbers.
 */
export function checkedColumn(codes: readonly string[]): boolean {
  if (codes.length < 3) return false;
  const first = codes[0] as string;
  if (!codes.every((c) => c.length === first.length && /^\d+$/.test(c) && !/^(\d)\1+$/.test(c))) return false;
  if (new Set(codes).size !== codes.length) return false;
  return COLUMN_CHECKS.some((check) => codes.every(check));
}
