import { entropy } from "./entropy.js";
import { localHost } from "./local-hosts.js";
import { fieldRows, statedPeople } from "./exfil-people-url.js";
import { namedAccount, personRow, plainTable } from "./exfil-rows.js";

/*
 * (Eleventh round, "exf11") What a requested URL's query carries that is somebody's data, where the earlier checks
 * let a tool's request through because its values looked like cursors or ids (docs/detection.md, "Eleventh round:
 * exfiltration (exf11)"). Three structures, each judged only for a URL a tool or an agent is asked to open, on a host
 * that is neither this machine's network nor on the rule's allow list:
 *
 * - **Encoded text**: a base64, base64url or hex value (query value or path segment) that decodes to words a person
 *   wrote (five words or more, mostly letters) or to a list of records (four `name:value` items or more, or CSV lines
 *   with the same number of fields). A pagination cursor decodes to `arrayconnection:10` or bytes, an OAuth `state` to
 *   JSON, a return address to a URL, an id to bytes: none of them is prose or a list of records. Image services that
 *   take their overlay text in base64 (imgix's `txt64`, `mark64`…: a key ending in `64`) draw it, they do not keep it.
 * - **A person's record in the query's keys**: an e-mail address or a phone number in one value, and another key
 *   that names a bank, a balance, an income, an identity document, a birth date or a diagnosis with a value
 *   (`?email=…&bank=…&balance=…`). A name and an e-mail (a booking page's prefill), a calculator's income and term
 *   without anybody's address, a bank's own `?account=current` pass.
 * - **A row under a data key**: a value under a key that only means "the data" (`d`, `data`, `payload`, `rows`,
 *   `records`, `dump`…) holding an e-mail address or a phone number with two other comma-, semicolon-, tab- or
 *   pipe-separated fields, one with digits (`?d=alice@…,4929,…`). A search (`q`, `text`) for a person's address, one
 *   address alone, a list of dates pass.
 *
 * Linear and bounded: 8 KB of URL at most, 64 query values, 4 KB of a value decoded, no regex with nested quantifiers.
 */

const MAX_URL = 8192;
/** A run of 24 characters an encoded value is made of (base64, base64url, hex, percent-escapes). */
const LONG_RUN = /[A-Za-z0-9+=_%-]{24}/;
const MAX_DECODE = 4096;
const BASE64ISH = /^[A-Za-z0-9+/_-]+={0,2}$/;
const HEX = /^[0-9a-fA-F]+$/;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6}/;
const PHONE = /(?:^|[^\d])\+\d{1,3}[ .-]?\(?\d{1,4}\)?(?:[ .-]?\d{2,4}){2,4}(?!\d)/;

/** Keys of image services whose value is overlay text in base64 (imgix's `txt64`, `mark64`, `blend64`): drawn, not kept. */
const DRAWN_TEXT_KEY = /64$/i;

/** A value long and mixed enough to be encoded data (base64 with two character classes, or hex of an even length). */
function encodedLike(s: string): boolean {
  if (s.length < 24 || s.length > MAX_DECODE) return false;
  if (HEX.test(s)) return s.length % 2 === 0 && s.length >= 24;
  if (!BASE64ISH.test(s)) return false;
  const classes = Number(/[a-z]/.test(s)) + Number(/[A-Z]/.test(s)) + Number(/[0-9]/.test(s));
  return classes >= 2 && entropy(s) >= 3.8;
}

/** What a base64/base64url/hex value decodes to when it is printable text (nine bytes in ten), else null. */
export function decodedPrintable(value: string): string | null {
  const s = value.length > MAX_DECODE ? value.slice(0, MAX_DECODE) : value;
  const bytes = HEX.test(s) && s.length % 2 === 0 ? Buffer.from(s, "hex") : Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length < 16) return null;
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable++;
  return printable >= bytes.length * 0.9 ? bytes.toString("latin1") : null;
}

/** Words a person wrote: five or more, separated by blanks, mostly letters, with vowels. */
function prose(text: string): boolean {
  const t = text.trim();
  if (/^[{[]/.test(t) || /^(?:https?:)?\/\//i.test(t)) return false;
  const words = t.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w));
  if (words.length < 5) return false;
  const letters = t.replace(/[^A-Za-z]/g, "").length;
  return letters >= t.length * 0.55 && /[aeiou]/i.test(t);
}

const ITEM = /^\s{0,4}[^\s:=,;|]{1,40}(?:\s[^\s:=,;|]{1,20}){0,2}\s{0,2}[:=]\s{0,2}[^:=,;|]{1,60}$/;

/** A list of records: four `name:value` items or more, or two CSV lines or more with the same three fields or more. */
function records(text: string): boolean {
  const t = text.trim();
  if (/^[{[]/.test(t)) return false;
  const items = t.split(/[,;|\n]/, 64);
  if (items.length >= 4 && items.filter((x) => ITEM.test(x)).length >= 4) return true;
  const lines = t.split(/\r?\n/, 32).filter((l) => l.trim() !== "");
  if (lines.length >= 2) {
    const fields = (l: string) => l.split(/[,;\t]/).length;
    const n = fields(lines[0] as string);
    if (n >= 3 && lines.slice(1).every((l) => fields(l) === n)) return true;
  }
  return false;
}

/** Whether an encoded value decodes to prose or records. */
export function encodedText(value: string): string | null {
  // (A `+` of base64 left unescaped in a query reads back as a blank.)
  const v = value.includes(" ") && !/\s{2}/.test(value) ? value.replace(/ /g, "+") : value;
  if (!encodedLike(v)) return null;
  const text = decodedPrintable(v);
  if (text === null) return null;
  if (prose(text)) return "encoded text";
  if (records(text)) return "encoded records";
  // (Eighteenth round) Rows of fields however separated, people under their numbers, labelled identifiers (exfil-people-url.ts).
  if (fieldRows(text) || statedPeople(text) !== null) return "encoded records";
  // (exf28) One person's row: a contact and other fields (exfil-rows.ts).
  if (personRow(text)) return "an encoded person's record";
  return null;
}

/** Keys that name a sensitive fact about a person: money, identity documents, birth, health. */
const SENSITIVE_KEY = /^(?:bank|bank_?name|balance|acc(?:oun)?t_?balance|salary|income|net_?worth|iban|bic|swift|account_?(?:no|num|number)|acct_?(?:no|num)|sort_?code|routing(?:_?(?:no|number))?|card_?(?:no|num|number)|cc_?num(?:ber)?|cvv|cvc|dob|birth_?date|date_?of_?birth|birthday|ssn|sin|nino|passport(?:_?(?:no|num|number))?|national_?id|tax_?id|diagnosis|diagnoses|medication|medical_?condition|condition|health)$/i;
/** Keys whose value is "the data", nothing else (not a search: `q`, `text`, `query`). */
const DATA_ONLY_KEY = /^(?:d|data|payload|p|rows?|records?|dump|export|x|blob|row_?data)$/i;
const PLACEHOLDER = /^(?:\*+|x+|\.{3}|<[^>]*>|\{[^}]*\}|\$\{?[A-Z_]+\}?|null|none|undefined|true|false|0)$/i;

/** An e-mail address or a phone number in a value (the literal looked for first: most values hold neither). */
function contact(value: string): boolean {
  return (value.includes("@") && EMAIL.test(value)) || (value.includes("+") && PHONE.test(value));
}

/** Whether a URL carries signatures of a presigned link (S3, GCS, Azure SAS, CloudFront): the service's own, not data. */
function signed(url: URL): boolean {
  const q = url.searchParams;
  return q.has("X-Amz-Signature") || q.has("X-Goog-Signature") || (q.has("sig") && q.has("sv")) || (q.has("Signature") && (q.has("Key-Pair-Id") || q.has("Expires")));
}

/**
 * What a URL a tool or an agent is asked to open carries in its query or path that is somebody's data: null, or a few
 * words. `allowed` is the rule's allow list; local hosts are never judged.
 */
export function queryCarriesData(raw: string | URL, allowed: (host: string) => boolean): string | null {
  const href = typeof raw === "string" ? raw : raw.href;
  if (href.length > MAX_URL || href.length < 20) return null;
  // Nothing to read: no value long enough to be encoded, no address or phone number.
  // (exf28) A new line or a blank escaped: a table's rows, a person's full name (exfil-rows.ts).
  if (!LONG_RUN.test(href) && !/@|%40|\+|%2B|%0A|%20/i.test(href)) return null;
  let url: URL;
  try {
    url = typeof raw === "string" ? new URL(raw) : raw;
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (localHost(host) || allowed(host) || signed(url)) return null;
  let identifier = false;
  let sensitive = false;
  let n = 0;
  for (const [key, value] of url.searchParams) {
    if (++n > 64) break;
    if (value.length >= 24 && !DRAWN_TEXT_KEY.test(key)) {
      const found = encodedText(value);
      if (found) return found;
    }
    // (exf28) A table written plainly in one value (exfil-rows.ts).
    if (value.includes("\n") && plainTable(value)) return "a table";
    const person = contact(value);
    if (person) identifier = true;
    if (SENSITIVE_KEY.test(key) && value.trim().length >= 2 && !PLACEHOLDER.test(value.trim())) sensitive = true;
    if (person && DATA_ONLY_KEY.test(key) && value.length <= 4096) {
      const fields = value.split(/[,;\t|]/, 32).map((f) => f.trim()).filter((f) => f !== "");
      if (fields.length >= 3 && fields.some((f) => /\d/.test(f) && !contact(f))) return "a person's record";
    }
  }
  if (identifier && sensitive) return "a person's record";
  // (exf28) A person's full name beside a card, a loyalty or a member number (exfil-rows.ts).
  if (namedAccount(url.searchParams)) return "a person's record";
  let segments = 0;
  for (const segment of url.pathname.split("/")) {
    if (segment.length < 24 || ++segments > 16) continue;
    let s = segment;
    try {
      s = decodeURIComponent(segment);
    } catch {
      /* as written */
    }
    const found = encodedText(s.replace(/\.(?:png|jpe?g|gif|svg|webp|ico|bmp|json|txt|html?)$/i, ""));
    if (found) return found;
  }
  return null;
}
