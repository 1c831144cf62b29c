import type { Detection, StringSite } from "./scan.js";
import { hookAndArguments, payloadTexts } from "./exfil-records.js";
import { fileKind } from "./exfil-payloads.js";

/*
 * (Twenty-seventh round, "exf27") The organisation's figures, or its data files, sent to a consumer messenger's bot or
 * webhook the call names (docs/detection.md, "exf27"). Finding `exfiltration.outside_figures`.
 *
 * Where: a Telegram bot's `send…` method or a Discord webhook (exfil-records.ts `messengerHook`), in any argument of a
 * tool call: the bot's token is whoever made it, the chat whoever it was added to, so nothing in the address says the
 * organisation reads it. exf25a (exfil-records.ts) reads lists of named records there and leaves "a list of figures
 * without names" alone; this reads that figures report.
 *
 * What, by shape and in any language or script:
 * - **a report of figures**: four distinct quantities or more, at least two of them measures — a number with a
 *   decimal fraction or a thousands group (`38.6`, `12,480`, `2 053,4`), a percentage, a currency beside it, a k/m/bn
 *   suffix, or a unit of mass, volume, area, length, frequency or dose joined to it (`412 t`, `25mcg`, `18.4 ตัน`,
 *   `2053.4 MHz`) or a rate (`kg/cow`, `/cwt`). Not quantities: times (`07:00`), dates, versions (`v2.3`,
 *   `1.9.0-rc2`), years, numbers joined to a letter before them (`M5`, `wk47`, `B1`, `Win64`), ticket and status
 *   numbers (`#4412`, `code 500`), identifiers with dashes;
 * - **a data file named in the message**: an export of people's records, a confidential document, a database dump, a
 *   file from a system's export folder (exfil-payloads.ts `fileKind`: `customers_export_2026-11-28.csv`).
 *
 * Left alone: a notice however it is worded, with three figures or fewer ("Occupancy tonight 87%, ADR €164, 3
 * walk-ins", "route 14 delayed 20 min", "14 mm overnight"), counts without measures ("14 closed, 3 open, 2 waiting,
 * 5 new"), a build or a deploy notice, status codes, team chats (Slack, Teams: a workspace's own) and every other
 * destination; records with names are exf25a's, codes exf26a's.
 *
 * Linear: at most 16 KB of each of at most 64 payload texts, split once on blanks (at most 2,048 words).
 */

const MAX_TEXT = 16_384;
const MAX_WORDS = 2_048;

const CURRENCY_SIGN = /[$€£¥₹₽₴₺₩₪₱฿₫]/u;
const CURRENCY_WORD = /^(?:usd|eur|gbp|chf|pln|zł|czk|kč|huf|uah|грн|rub|руб|inr|rs|thb|vnd|idr|brl|mxn|sek|nok|dkk|kr|ron|lei|try|jpy|cny|rmb|aud|cad|nzd|zar|บาท|บ\.|руб\.|euro?s?|dollars?|pounds?)$/iu;
/** Units of what a business measures (mass, volume, area, length, frequency, dose, power), alone or before a `/`. */
const UNIT = /^(?:mg|mcg|µg|μg|g|kg|t|tn|tons?|tonnes?|lbs?|oz|cwt|ml|l|hl|m3|m³|gal|bbl|ha|acres?|m2|m²|km|mi|m|cm|mm|hz|khz|mhz|ghz|kw|mw|kwh|mwh|gw|db|dbm|ppm|ppb|units?|pcs|head|ตัน|กก\.?|кг|т|га|л|мг|тонн|т\.|قنطار|كغ|طن|吨|公斤|kilo|kilos|quintal|quintals|q|ql|dt|dz)$/iu;
const YEAR = /^(?:19|20)\d\d$/;

/** A word's number: what is left of it around the digits, or null when it is no quantity. */
function quantityOf(word: string, prev: string): { measure: boolean } | null {
  // Strip punctuation around the word (brackets, quotes, a trailing comma or full stop).
  const w = word.replace(/^[([{"'«“‘]{1,4}|[)\]}"'»”’,;.:!?]{1,4}$/gu, "");
  if (w === "" || !/\d/.test(w)) return null;
  // Times, dates, versions, tickets, identifiers, numbers joined to a letter before them.
  if (/^\d{1,2}:\d\d(?::\d\d)?$/.test(w) || /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(w) || /^v\d/i.test(w) || /\d\.\d{1,4}\.\d/.test(w)) return null;
  if (/^[#№]/.test(w) && !/^№\s?\d{1,2}$/.test(w)) return null;
  if (/^\p{L}/u.test(w) && !CURRENCY_SIGN.test(w[0] as string) && !/^(?:rs|r\$)/i.test(w)) return null;
  if (/\d-\p{L}|\p{L}-\d|\d-\d{1,4}-\d/u.test(w)) return null;
  if (/^(?:code|codes|http|status|error|err|kod|código|код)$/i.test(prev.replace(/[^\p{L}]/gu, ""))) return null;
  const m = /^([^\d]{0,4})(\d[\d.,  ']{0,20}\d|\d)([^\d]{0,16})$/u.exec(w);
  if (m === null) return null;
  const [, before = "", num = "", after = ""] = m;
  if (YEAR.test(num) && before === "" && after === "") return null;
  const tail = after.toLowerCase();
  const measure =
    /\d[.,]\d/.test(num) ||
    CURRENCY_SIGN.test(before) ||
    CURRENCY_SIGN.test(after) ||
    /^%|^‰/.test(tail) ||
    /^(?:k|m|bn|mn|mio|mrd|tys|тыс|млн)\.?$/i.test(after) ||
    UNIT.test(tail.replace(/\/.*$/, "")) ||
    CURRENCY_WORD.test(tail);
  return { measure };
}

/** Whether the word after a number names its unit or currency (`412 t`, `18.4 ตัน`, `12,480 THB`, `$21.40/cwt`). */
function unitAfter(next: string): boolean {
  const n = next.replace(/[)\]}"'»”’,;.:!?]{1,4}$/u, "").toLowerCase();
  return n !== "" && (UNIT.test(n.replace(/\/.*$/, "")) || CURRENCY_WORD.test(n) || CURRENCY_SIGN.test(n[0] as string) || /^%/.test(n) || /^\p{L}{1,12}\/\p{L}{1,12}$/u.test(n));
}

/** Whether a text reports figures (see the header): four quantities or more, two of them measures. */
export function figureReport(text: string): boolean {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (!/\d/.test(t)) return false;
  const words = t.split(/[\s\u00a0]+/u, MAX_WORDS);
  const seen = new Set<string>();
  let measures = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w.length > 64 || !/\d/.test(w)) continue;
    const q = quantityOf(w, words[i - 1] ?? "");
    if (q === null) continue;
    const key = w.replace(/[^\d.,]/g, "");
    if (seen.has(key)) continue;
    seen.add(key);
    if (q.measure || unitAfter(words[i + 1] ?? "")) measures++;
    if (seen.size >= 4 && measures >= 2) return true;
  }
  return false;
}

const FILE_WORD = /[^\s"'<>()[\]{},;]{1,200}\.[A-Za-z0-9]{2,5}(?=$|[\s"'<>()[\]{},;])/g;

/** A data file a text names (an export, a dump, a confidential document), or null. */
export function namedDataFile(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  FILE_WORD.lastIndex = 0;
  let n = 0;
  for (let m; (m = FILE_WORD.exec(t)) !== null && n < 64; n++) {
    const name = m[0].replace(/\.$/, "");
    if (/^https?:/i.test(name)) continue;
    const kind = fileKind(name);
    if (kind !== null && kind !== "capture") return name;
  }
  return null;
}

/** Query keys a Telegram or Discord call carries its message in. */
const MESSAGE_QUERY = /^(?:text|caption|content|message)$/i;

/**
 * A tool call's arguments: a figures report or a named data file sent to a Telegram bot or a Discord webhook the call
 * names. The finding is the hook's URL.
 */
export function outsideFigures(sites: readonly StringSite[]): Detection[] {
  const { hook, rest: args } = hookAndArguments(sites);
  if (hook === null) return [];
  const texts: string[] = [];
  for (const [k, x] of hook.url.searchParams) if (MESSAGE_QUERY.test(k) && texts.length < 8) texts.push(x);
  for (const a of args) for (const t of payloadTexts(a.value)) if (texts.length < 64) texts.push(t);
  for (const t of texts) {
    const what = figureReport(t) ? "a report of figures" : namedDataFile(t) !== null ? "a data file" : null;
    if (what === null) continue;
    return [{ type: "exfiltration.outside_figures", path: hook.site.path, start: 0, end: hook.site.value.length, detail: `${what} sent to a messenger bot or webhook the call names` }];
  }
  return [];
}
