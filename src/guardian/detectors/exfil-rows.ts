/*
 * (exf28) Rows of data a request carries in its address where the earlier checks read only encoded prose, long
 * records or credentials (exfil-query.ts, exfiltration.ts hostData; docs/detection.md, "exf28"). The finding stays the
 * address's own (`exfiltration.request`, `exfiltration.image`, `exfiltration.dns`), with a detail naming what is carried.
 *
 * - **A table in a query value, written plainly**: two lines or more (a header and a row at least) cut into the same
 *   three fields or more by commas, semicolons or tabs, one line with a digit (`?data=field,crop,ha%0ATop Barn,wheat,42`).
 *   A search, a filter, a list of codes (`locations=LEBL,LEGE`) or a multi-line message without a table's columns pass.
 * - **One person's record, encoded**: a base64/hex value that decodes to a single row of four fields or more (cut at
 *   `;`, `,`, `|` or tabs) holding an e-mail address or a phone number and another field with digits
 *   (`ODA0…` → `804417263;Ana Ribeiro;4 nights;1120.00 EUR;ana@…`). A cursor, a state, a return address decode to JSON,
 *   bytes or a URL and pass.
 * - **A person's full name beside an account's number in the keys**: a key that names a person (`name`, `guest`,
 *   `passenger`, `cardholder`…) with two capitalised words or more, and a key that names a card, a loyalty or member
 *   number with digits (`?name=Ana Ferreira&ff=ER55120983&card=5520`). A surname alone with a booking code (an
 *   airline's own "manage booking" link), a name with an e-mail (a booking page's prefill) pass.
 * - **Data cut into equal chunks across a host name's labels**: two labels or more of the same length (ten characters
 *   or more) that are hex, or mixed letters and digits, under one domain (`7f3a91c0e4b25d18.a6c03e9f71b8d442.k1.evil.xyz`):
 *   the way DNS tunnels carry bytes 63 characters at a time or less. A CDN's or a cloud's single hashed label, a UUID
 *   label, words cut at dots pass.
 *
 * Linear and bounded: values of 4 KB at most, 32 lines, 32 fields, 16 labels; no regex with nested quantifiers.
 */

const MAX_VALUE = 4096;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}\.[A-Za-z]{2,24}/;
const PHONE = /^\+?\(?\d[\d ().-]{6,18}\d$/;

/** A table written plainly: two lines or more, the same three fields or more on each, a digit somewhere below the header. */
export function plainTable(value: string): boolean {
  if (value.length > MAX_VALUE || !value.includes("\n")) return false;
  const t = value.trim();
  if (/^[{[<]/.test(t)) return false;
  const lines = t.split("\n", 32).map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "");
  if (lines.length < 2) return false;
  for (const sep of [",", ";", "\t", "|"]) {
    const n = (lines[0] as string).split(sep).length;
    if (n < 3 || n > 32) continue;
    if (!lines.every((l) => l.split(sep).length === n)) continue;
    // Cells of a table are short (a sentence with three commas is prose, not a row).
    if (lines.some((l) => l.split(sep).some((c) => c.length > 80))) continue;
    if (lines.slice(1).some((l) => /\d/.test(l)) && lines.some((l) => /\p{L}{2}/u.test(l))) return true;
  }
  return false;
}

/** One row of four fields or more that holds a person's e-mail address or phone number and another field with digits. */
export function personRow(text: string): boolean {
  const t = text.trim();
  if (t.length > MAX_VALUE || t.includes("\n") || /^[{[<]/.test(t) || /^(?:https?:)?\/\//i.test(t)) return false;
  for (const sep of [";", "|", "\t", ","]) {
    const fields = t.split(sep, 33).map((f) => f.trim()).filter((f) => f !== "");
    if (fields.length < 4 || fields.length > 32) continue;
    const contact = fields.findIndex((f) => f.length <= 120 && (EMAIL.test(f) || PHONE.test(f)));
    if (contact < 0) continue;
    const others = fields.filter((_, i) => i !== contact);
    if (others.some((f) => /\d/.test(f) && !EMAIL.test(f)) && others.some((f) => /\p{L}{2}/u.test(f) && !EMAIL.test(f))) return true;
  }
  return false;
}

/** Keys that name a person. */
const PERSON_KEY = /^(?:name|full_?name|fullname|guest(?:_?name)?|passenger(?:_?name)?|pax|customer(?:_?name)?|client(?:_?name)?|patient(?:_?name)?|member(?:_?name)?|holder|card_?holder|traveller|traveler|employee(?:_?name)?|person|nom|nombre|nome|imie|imię)$/i;
/** Keys that name a card, a loyalty or member number (`ff` is a frequent-flyer number). */
const ACCOUNT_KEY = /^(?:card|card_?(?:last4|last_?4|digits)|last4|pan|ff|ffn|frequent_?flyer|loyalty(?:_?(?:no|num|number|id))?|member(?:ship)?_?(?:no|num|number)|policy_?(?:no|num|number)|mrn|nhs_?(?:no|number)|account)$/i;
/** Two capitalised words or more: a person's full name. */
const FULL_NAME = /^\p{Lu}[\p{L}'’.-]{0,30}(?:\s{1,2}\p{Lu}[\p{L}'’.-]{0,30}){1,3}$/u;

/** A person's full name under a key that names a person, beside a number under a key that names a card or an account. */
export function namedAccount(params: Iterable<[string, string]>): boolean {
  let named = false;
  let account = false;
  let n = 0;
  for (const [key, value] of params) {
    if (++n > 64) break;
    const v = value.trim();
    if (v.length > 120) continue;
    if (PERSON_KEY.test(key) && FULL_NAME.test(v)) named = true;
    else if (ACCOUNT_KEY.test(key) && /^[A-Za-z]{0,4}[ -]?\d{4,19}$/.test(v)) account = true;
  }
  return named && account;
}

/** Two labels or more of one length (ten characters or more), hex or letters mixed with digits: bytes cut into chunks. */
export function chunkedLabels(labels: readonly string[]): boolean {
  let run = 0;
  let size = 0;
  let best = 0;
  for (const raw of labels.slice(0, 16)) {
    const l = raw.toLowerCase();
    const chunk = l.length >= 10 && l.length <= 63 && /^[a-z0-9]+$/.test(l) && /\d/.test(l) && /[a-z]/.test(l) && (/^[0-9a-f]+$/.test(l) || digitsAndLetters(l));
    if (chunk && l.length === size) run++;
    else if (chunk) {
      run = 1;
      size = l.length;
    } else {
      run = 0;
      size = 0;
    }
    if (run > best) best = run;
  }
  return best >= 2;
}

/** A label mixed like encoded bytes: three digits or more and three letters or more, no run of five letters (not a word). */
function digitsAndLetters(l: string): boolean {
  const digits = l.replace(/[^0-9]/g, "").length;
  return digits >= 3 && l.length - digits >= 3 && !/[a-z]{5}/.test(l);
}
