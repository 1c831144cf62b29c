/*
 * (Twenty-first round, the lead) Credentials a message to a phone may not carry, by their shape rather than a word that
 * names them (docs/detection.md, "Twenty-first round: credentials in a text message by their shape"):
 *
 * - **Several passwords**: two distinct values or more with a password's shape (8–32 characters without blanks, with a
 *   lower-case letter, a capital, a digit and a symbol), each standing as a word of its own. A guest's one Wi-Fi
 *   password, an order's code, a booking reference (no symbol, or one value) pass; a list of machines' or accounts'
 *   passwords is what a text message or a messenger never needs to carry, in any language.
 * - **Recovery codes**: three groups or more of digits joined by a hyphen (`4410-8812`, `83920-11472`), beside a word
 *   for codes in any of several languages. One-time codes are single; a year range (`2025-2026`) and opening hours
 *   (`0900-1700`) are not codes.
 *
 * Linear: two bounded global regexes over at most 64 KB, at most 64 matches read each.
 */

const MAX_TEXT = 65_536;

/** A value with a password's shape, standing alone (after a blank, `:`, `=`, `/`, `(`, `,`, `;`, or at the start). */
const PASSWORD_SHAPE = /(?<![^\s:=/(,;])[A-Za-z0-9!#$%&*?@^~._+-]{8,32}(?![^\s,;)])/g;

function passwordShaped(v: string): boolean {
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/[0-9]/.test(v) || !/[!#$%&*?@^~]/.test(v)) return false;
  // An address (`name@host.tld`) or a handle is not a password.
  return !/@[A-Za-z0-9-]{1,63}\.[A-Za-z]{2,}/.test(v);
}

/** Two or more distinct password-shaped values. */
export function passwordList(text: string): boolean {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const seen = new Set<string>();
  PASSWORD_SHAPE.lastIndex = 0;
  for (let m, n = 0; (m = PASSWORD_SHAPE.exec(t)) !== null && n < 64; n++) {
    const v = m[0].replace(/[.]+$/, "");
    if (passwordShaped(v)) seen.add(v);
    if (seen.size >= 2) return true;
  }
  return false;
}

/** A year, and a time of day written as four digits (`0900-1700` is opening hours). */
const YEAR = /^(?:19|20)\d\d$/;
const HOURS = /^(?:[01]\d|2[0-3])[0-5]\d$/;
const CODE_GROUP = /(?<![\w-])(\d{4,5})-(\d{4,5})(?![\w-])/g;
/** A word for codes: code(s), código(s), codice/codici, kod/kody/kodu/kodları, код/коды/коди, コード, 코드, 码/碼. */
const CODE_WORD = /cod[eiu]|c[oó]digo|\bkod|код|コード|코드|码|碼/i;

/** Three or more recovery-code groups (digits joined by a hyphen, not a year range) beside a word for codes. */
export function recoveryCodes(text: string): boolean {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (!CODE_WORD.test(t)) return false;
  const seen = new Set<string>();
  CODE_GROUP.lastIndex = 0;
  for (let m, n = 0; (m = CODE_GROUP.exec(t)) !== null && n < 64; n++) {
    const a = m[1] as string;
    const b = m[2] as string;
    if (a.length === 4 && b.length === 4 && ((YEAR.test(a) && YEAR.test(b)) || (HOURS.test(a) && HOURS.test(b)))) continue;
    seen.add(m[0]);
    if (seen.size >= 3) return true;
  }
  return false;
}
