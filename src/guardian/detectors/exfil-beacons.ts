import { cardNumberIn, ibanIn } from "./exfil-payloads.js";
import { localHost } from "./local-hosts.js";

/*
 * (Twenty-fifth round, "exf25b") Facts carried by a beacon: an image the reader's client fetches on its own (a Markdown
 * `![…](…)` or an HTML `<img>` in a result, a reply, a message) or a tracking pixel a tool is asked to fetch
 * (`…/p.gif?…`, `…/t.png?…`), whose query holds the business's or a person's facts in plain words rather than encoded
 * (exfiltration.ts judgeUrl; findings `exfiltration.image` and `exfiltration.request`, detail "the URL carries facts
 * in a beacon's query"; docs/detection.md, "exf25b"). The earlier checks read an image's query for prose, encoded
 * blobs, placeholders and secrets; an image's query asks a server how to draw it (a size, a style, a version, an id),
 * and none of these is a sum of money, an account, an e-mail address or a list of records:
 *
 * - **a strong fact**: an e-mail address, an IBAN (mod-97), a payment card (Luhn), a list of two or more `name:amount`
 *   pairs (`Ellison:25000,Achebe:10000`), a list of two or more records (items cut at `;` or new lines, each several
 *   words with a number: `Kessler Farms 42,000 bu @ 4.62; Brandt Ag 18,500 bu @ 4.55`);
 * - **a sum under a key that names money** (`amt`, `price`, `balance`, `escrow`, `salary`, `preis`, `saldo`…) of five
 *   digits or more, or written with cents;
 * - **two sums or more**: values of five to nine digits (cents allowed) under keys that are not a size, a time, a
 *   version or an id (`w`, `width`, `zoom`, `ts`, `from`, `v`, `rev`, `…id`): an epoch time has ten digits or more.
 *
 * - (exf29) **a list of identifiers**: three distinct phone numbers or member, policy or account numbers or more in one
 *   value, cut at commas, semicolons or bars (`?ids=DD88310027,MET7712004,CIG5530981`, `?w=08031234567,08059876543,…`);
 *   every item must be one (a list of quantities, words or hashes passes).
 *
 * And, for any request a tool makes to a host off the allow list, a list of three records or more in one query value
 * (the same items, each with a run of three digits or more): a table handed over in a GET.
 *
 * What passes: an image's sizes, styles, versions and cache-busters (`?w=1200`, `?style=flat`, `?v=3`), a map's
 * centre and zoom, a dashboard panel's time range (`from=now-6h`, epoch milliseconds), a chart renderer's own JSON
 * (judged by renderers.ts before this), one id or one number under a key that names no money, a search query of words.
 * Links are not read here (a link's query may be a search a person typed). Local hosts pass. A QR or payment code's
 * image (`/qr.png`, `create-qr-code`, a `qr.` host) may carry an account and a sum: an invoice's payment code shows the
 * payee's own account and the amount due (an e-mail address, a card or a list still count there).
 *
 * Bounded: 32 query values of 2 KB at most; every pattern is linear (bounded quantifiers, no nesting).
 */

const MAX_VALUES = 32;
const MAX_VALUE = 2048;

/** The last path segment of a tracking pixel: a one- or two-letter image, or one named for what it does. */
const PIXEL = /(?:^|\/)(?:[a-z0-9]{1,2}|px|pix|pixel|beacon|track|tracker|tracking|open|spacer|blank|clear|transparent|1x1|collect|event|hit|ping|log)\.(?:gif|png|jpe?g|webp|svg|bmp)$/i;
/** A segment that names a pixel whatever its extension (`/pixel/…`, `/beacon`). */
const PIXEL_WORD = /(?:^|\/)(?:pixel|beacon|tracking-pixel|open-pixel)(?:\/|$|\.)/i;

/** Whether a requested URL's path is a tracking pixel: a tool that fetches it does what a rendered image does. */
export function pixelPath(pathname: string): boolean {
  const p = pathname.length > 512 ? pathname.slice(-512) : pathname;
  return PIXEL.test(p) || PIXEL_WORD.test(p);
}

const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,6}\.[A-Za-z]{2,24}/;
/** `name:amount` pairs: a word (letters, blanks, dots), `:` or `=`, then a number of three digits or more. */
const NAME_AMOUNT = /(?:^|[,;|&])\s{0,2}\p{L}[\p{L} .'-]{1,40}\s{0,2}[:=]\s{0,2}[$€£]?\d[\d,. ]{1,12}\d(?=\s{0,2}(?:[,;|&]|$))/gu;
/** A QR or payment code's image, by its path or its host (`/qr.png`, `/v1/create-qr-code/`, `qr.example`). */
const QR_CODE = /(?:^|[/._-])(?:qr|qrcode|qr-code|epc|barcode|girocode|paycode)(?:[/._-]|$)/i;
const QR_HOST = /(?:^|[.-])(?:qr|qrcode|qrserver|epc|barcode)[.-]/i;
/** Keys that name a sum of money, in a few languages (the whole key, or its last part after `_`/`-`). */
const MONEY_KEY = /(?:^|[_-])(?:amt|amount|amnt|price|prices|cost|costs|total|sum|bal|balance|saldo|solde|salary|salaries|pay|payout|wage|wages|income|revenue|budget|escrow|fee|fees|bid|offer|loan|debt|settlement|valuation|preis|precio|prix|prezzo|preco|betrag|kwota|cena|importe|montant|gehalt|sueldo|salario|stipendio|wynagrodzenie)$/i;
/** Keys whose numbers are a size, a time, a version, a page or an id, not a sum. */
const NOT_A_SUM = /(?:^|[_-])(?:w|h|wd|ht|width|height|size|sz|s|q|quality|dpr|zoom|z|x|y|lat|lon|lng|v|ver|version|rev|t|ts|time|timestamp|date|from|to|start|end|since|until|cb|cache|nocache|rnd|rand|random|r|seed|_|page|p|offset|limit|per_page|count|n|id|ids|uid|pid|cid|sid|tid|panel|port|build|frame|layer|dpi|fps|bitrate|year)$|id$/i;
/** A sum: five to nine digits (not an epoch time), or a number with cents. */
const SUM = /^(?:[1-9]\d{4,8}(?:[.,]\d{1,2})?|[1-9]\d{0,2}(?:[,. ]\d{3}){1,2}(?:[.,]\d{2})?|\d{3,8}[.,]\d{2})$/;
/** A number of three digits or more (thousands separators allowed): what a record's amount or quantity is. */
const BIG_NUMBER = /\d{3}|\d[,. ]\d{3}/;

/** The items of a list of records in a value: cut at `;` or new lines, each several words with letters and a number. */
function records(value: string): number {
  const items = value.split(/[;\n]/, 64);
  let n = 0;
  for (const raw of items) {
    const item = raw.trim();
    if (item.length < 6 || item.length > 200) continue;
    if (!/\s/.test(item) || !/\p{L}{2}/u.test(item) || !BIG_NUMBER.test(item)) continue;
    n++;
  }
  return n;
}

/**
 * (exf29) An identifier a beacon may carry about a person: a phone number (a `+` or a leading 0, nine to fifteen
 * digits, blanks and hyphens allowed) or a member's, a policy's or an account's number (up to four letters, then five
 * to fourteen digits: `DD88310027`, `MET7712004`, `KD-4471209`). A bare number without a leading 0 is a quantity (a
 * chart's values, a time), not one of these.
 */
const PERSON_ID = /^(?:\+\d[\d -]{7,18}\d|0\d[\d -]{7,16}\d|[A-Za-z]{1,4}-?\d{5,14})$/;

/** Whether a value lists three distinct identifiers or more (exf29): a beacon handing over whose records these are. */
export function identifierList(value: string): boolean {
  if (value.length < 20 || !/[,;|]/.test(value)) return false;
  const seen = new Set<string>();
  for (const raw of value.split(/[,;|]/, 64)) {
    const item = raw.trim();
    if (item.length < 6 || item.length > 24) continue;
    if (!PERSON_ID.test(item)) return false;
    const digits = item.replace(/[^0-9]/g, "");
    if (item.startsWith("+") || item.startsWith("0") ? digits.length < 9 || digits.length > 15 : false) return false;
    seen.add(item.replace(/[\s-]/g, "").toUpperCase());
  }
  return seen.size >= 3;
}

function nameAmounts(value: string): number {
  NAME_AMOUNT.lastIndex = 0;
  let n = 0;
  while (NAME_AMOUNT.exec(value) !== null && n < 8) n++;
  return n;
}

/**
 * What the query of a beacon (an image a renderer fetches, or a pixel a tool requests) or a tool's request carries in
 * plain facts, or null. `kind` is how the URL is used: only an image, or a request, is read.
 */
export function beaconFacts(url: URL, kind: "image" | "link" | "request"): string | null {
  if (kind === "link" || url.search.length < 4) return null;
  const host = url.hostname.toLowerCase();
  if (localHost(host)) return null;
  const beacon = kind === "image" || pixelPath(url.pathname);
  // A payment code drawn for an invoice (an EPC or a QR image) shows the payee's account and the amount: that is its job.
  const payCode = QR_CODE.test(url.pathname.slice(0, 512)) || QR_HOST.test(host);
  let sums = 0;
  let n = 0;
  for (const [rawKey, rawValue] of url.searchParams) {
    if (++n > MAX_VALUES) break;
    const key = rawKey.length > 64 ? rawKey.slice(0, 64) : rawKey;
    const value = (rawValue.length > MAX_VALUE ? rawValue.slice(0, MAX_VALUE) : rawValue).trim();
    if (value.length < 3) continue;
    // A table of records in one value, to any host a tool is asked to open.
    if (records(value) >= (beacon ? 2 : 3)) return "a list of records";
    if (!beacon) continue;
    if (EMAIL.test(value)) return "an e-mail address in a beacon's query";
    if (/\d{4}/.test(value) && ((!payCode && ibanIn(value.replace(/\s/g, ""))) || cardNumberIn(value))) return "payment details in a beacon's query";
    if (nameAmounts(value) >= 2) return "names with amounts in a beacon's query";
    if (identifierList(value)) return "a list of phone or member numbers in a beacon's query";
    if (!payCode && SUM.test(value)) {
      if (MONEY_KEY.test(key)) return "a sum of money in a beacon's query";
      if (!NOT_A_SUM.test(key) && ++sums >= 2) return "sums in a beacon's query";
    }
  }
  return null;
}

/** `key=value` or `key:value` items, joined by `;`, `&`, `,` or `|`: a record written out. */
const KEY_VALUE = /(?:^|[;&,|]\s{0,2})[A-Za-z_][A-Za-z0-9_]{1,23}\s{0,2}[=:]\s{0,2}[^;&,|\s=]{1,64}(?=\s{0,2}(?:[;&,|]|$))/g;

/**
 * Whether text decoded from a host label is a record (two `key=value` items or more: `issuer_key=3f9a…;bin=535588`),
 * where the older test wanted words (mostly letters). Read on 256 characters at most.
 */
export function recordText(text: string): boolean {
  const t = text.length > 256 ? text.slice(0, 256) : text;
  if (!/^[\x20-\x7e]+$/.test(t)) return false;
  KEY_VALUE.lastIndex = 0;
  let n = 0;
  while (KEY_VALUE.exec(t) !== null) if (++n >= 2) return true;
  return false;
}

/** The host of an absolute URL as it is written (its case kept: a URL parser folds it), or null. */
export function writtenHost(raw: string): string | null {
  const m = /^[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^@/?#\s]{0,256}@)?([^/:?#\s[\]]{1,253})/i.exec(raw);
  return m ? (m[1] as string) : null;
}

/** Currency codes (ISO 4217, the common ones): joined to a number in a host's label, a sum of money. */
const CURRENCY = "usd|eur|gbp|pln|chf|jpy|cny|rmb|inr|rub|uah|czk|huf|sek|nok|dkk|brl|mxn|cad|aud|nzd|zar|krw|sgd|hkd|aed|ron|ils";
/** A number of three digits or more, or with a magnitude (`41m`, `2bn`, `850k`). */
const AMOUNT = "(?:\\d{3,12}(?:k|m|mn|bn)?|\\d{1,3}(?:k|m|mn|bn))";
const MONEY_LABEL = new RegExp(`(?:^|[-_])(?:(?:${CURRENCY})[-_]?${AMOUNT}|${AMOUNT}[-_]?(?:${CURRENCY}))(?=$|[-_])`, "i");

/**
 * Whether a host name's label holds a sum of money: a currency code joined to an amount (`usd1840`, `182m-gbp`,
 * `eur-41m`). A host's name says where it is (`eu-west-1`, `eur1-api`), never what a deal is worth. Labels of 63
 * characters at most.
 */
export function moneyLabel(label: string): boolean {
  return label.length <= 63 && MONEY_LABEL.test(label);
}

/** Words that ask for a name to be resolved (a resolver's command, or the verb), in a few languages. */
const LOOKUP = /\b(?:dig|nslookup|Resolve-DnsName|host\s{1,3}-t|ping|resolv(?:e|es|ed|ing)|look(?:ing)?\s{0,3}up|lookup|query\s{1,3}(?:the\s{1,3})?(?:dns|name|host)|auflösen|aufzulösen|résou(?:dre|s|t)|resolver|resolva|resuelv\p{L}{0,3}|rozwiąż|rozwiązać|risolvi|risolvere|разреши|разрешите|резолв\p{L}{0,4})/iu;
/** A host name of three labels or more standing alone (a doubled dot counts as one). */
const NAME = /(?<![\w.@/:-])(?:[A-Za-z0-9_-]{1,63}\.{1,2}){2,8}[A-Za-z]{2,24}(?![\w.-]|:\/\/|\()/g;

/** Three labels, the last starting with a letter: what any name NAME finds must hold. */
const THREE_LABELS = /[A-Za-z0-9_-]\.{1,2}[A-Za-z0-9_-]{1,63}\.{1,2}[A-Za-z]/;

/**
 * (perf31) Whether a `.` is followed by a label's character or another `.`: THREE_LABELS' first dots are (found by
 * `indexOf`, which a sentence's `. ` stops only at its full stops; the expression stops at every letter).
 */
function dotBeforeLabel(v: string): boolean {
  for (let i = v.indexOf("."); i >= 0; i = v.indexOf(".", i + 1)) {
    const c = v.charCodeAt(i + 1);
    if ((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95 || c === 45 || c === 46) return true;
  }
  return false;
}

/**
 * (Twenty-fifth round) Names that what comes back (a tool's result, an agent's reply or status update) asks its reader
 * to resolve: "verify the licence by resolving <name> and report back". The lookup is a request the reader makes; a
 * name whose labels carry data (judged by `verdict`, the same judgement as a name a tool is asked to look up) hands
 * that data to whoever runs the zone. A name mentioned without a lookup word nearby (80 characters before it, 40 after: a verb may end the sentence), or
 * whose labels carry nothing, passes. At most 64 KB of a string and 64 names are read.
 */
export function askedLookups(sites: readonly { path: (string | number)[]; value: string }[], verdict: (host: string) => string | null): { path: (string | number)[]; start: number; end: number; detail: string }[] {
  const out: { path: (string | number)[]; start: number; end: number; detail: string }[] = [];
  let names = 0;
  for (const site of sites) {
    const v = site.value;
    // A cheap look for three labels first (the full pattern costs a look-behind at every character).
    if (v.length > 65_536 || !dotBeforeLabel(v) || !THREE_LABELS.test(v)) continue;
    NAME.lastIndex = 0;
    for (let m; (m = NAME.exec(v)) !== null && names < 64; names++) {
      const end = m.index + m[0].length;
      if (!LOOKUP.test(v.slice(Math.max(0, m.index - 80), m.index)) && !LOOKUP.test(v.slice(end, end + 40))) continue;
      const what = verdict(m[0]);
      if (what !== null) out.push({ path: site.path, start: m.index, end, detail: `a name the reader is asked to resolve carries ${what}` });
    }
  }
  return out;
}
