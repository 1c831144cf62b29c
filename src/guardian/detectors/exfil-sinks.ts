import { peopleRows } from "./exfil-dataset.js";
import { mailDomains, personalMailbox } from "./exfil-payloads.js";
import { identityNumbers, peopleTable } from "./exfil-people-url.js";
import { markedText } from "./exfil-words.js";
import { secrecyAsked } from "./exfil-secrecy.js";
import { literalId, literalsOf } from "./literals.js";
import { localHost } from "./local-hosts.js";
import { argumentNames, type Detection, type StringSite } from "./scan.js";

/*
 * (Twelfth round, "exf12") Where data goes and what it is, for the shapes sets 18 to 21 showed again and again
 * (docs/detection.md, "Twelfth round: exfiltration (exf12)"):
 *
 * - **More team-chat webhooks**: DingTalk and Lark/Feishu robots, WeCom group bots, and self-hosted Mattermost and
 *   Rocket.Chat incoming webhooks on any host (their path shape, `/hooks/<26 characters>`), judged as the relays of
 *   exfil-relays.ts are: by what the payload carries, with their own routing keys (`access_token`, `key`) not taken
 *   for a token handed on.
 * - **More that a payload to a relay or a drop can carry**: a passport's machine-readable zone, a person's money
 *   (balance, salary, savings, income… with amounts, or several people's pay), identity-document numbers of several
 *   people, a vehicle's or a person's position (three decimals) with whose it is, and, to a public drop only, a
 *   conversation transcript.
 * - **Encoded text in a host label**: base32 of any printable text (digits too, not only words), and base64 whose
 *   case DNS folded away (`r0ixnu1jrew0…`): every four characters have a casing that decodes to text.
 * - **Link templates in what comes back**: a reply or a result handing the reader a URL whose query values are
 *   holes (`{passport_number}`, `{full contract text}`) named for private data, to be filled in and opened.
 * - **Account credentials in an agent message's data**: a `…password`, `…pin`, `…passcode` field naming an account
 *   (e-mail, bank, login), with a value, sent to another agent.
 * - **Credentials or people's records in the body of an e-mail**: recovery codes with their codes, a password with its
 *   value, a private key, to any outside address; a pasted export of people (a CSV header naming a person's fields and
 *   three rows or more with addresses) to a personal mailbox.
 *
 * Linear: bounded regexes, at most 64 KB of a value read, at most 256 values of a message walked.
 */

const MAX_TEXT = 65_536;
const cap = (t: string) => (t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t);

/* ------------------------------------------------------------------------------------------------------------------ */
/* More team-chat webhooks                                                                                            */
/* ------------------------------------------------------------------------------------------------------------------ */

const CHAT_HOOKS: { host: RegExp; path: RegExp; routing: RegExp }[] = [
  { host: /^oapi\.dingtalk\.com$/, path: /^\/robot\/send\b/, routing: /^(?:access_token|timestamp|sign)$/ },
  { host: /^open\.(?:feishu\.cn|larksuite\.com)$/, path: /^\/open-apis\/bot\/v2\/hook\/[^/]{8,80}$/, routing: /^$/ },
  { host: /^qyapi\.weixin\.qq\.com$/, path: /^\/cgi-bin\/webhook\/send\b/, routing: /^(?:key|debug)$/ },
];
/** Mattermost's incoming webhook (`/hooks/` and a 26-character id) and Rocket.Chat's (`/hooks/<id>/<token>`), on any host. */
const SELF_HOSTED_HOOK = /^\/hooks\/(?:[a-z0-9]{26}|[A-Za-z0-9]{17}\/[A-Za-z0-9]{24,64})\/?$/;

/** Whether a URL (host lower case, path) is a chat webhook of this round's list (local hosts are the user's own). */
export function moreChatHook(host: string, path: string): boolean {
  if (CHAT_HOOKS.some((h) => h.host.test(host) && h.path.test(path))) return true;
  return SELF_HOSTED_HOOK.test(path) && !localHost(host);
}

/** The query keys such a webhook routes or signs with. */
export function chatHookRouting(host: string): RegExp | undefined {
  return CHAT_HOOKS.find((h) => h.host.test(host))?.routing;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* More that a payload can carry                                                                                      */
/* ------------------------------------------------------------------------------------------------------------------ */

/** A passport's (TD3) or an ID card's machine-readable zone: a name line with `<<`, and a number line with its checks. */
const MRZ_NAME = /(?<![A-Z0-9<])[PIAC][A-Z0-9<][A-Z<]{3}[A-Z<]{1,39}<<[A-Z<]{4,39}(?![A-Z0-9<])/;
const MRZ_NUMBERS = /(?<![A-Z0-9<])[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MFX<]\d{6}\d/;

/** Words of money (a business's too: a balance, a loan)... */
const MONEY_WORDS = /\b(?:balance|salary|salaries|wages?|paycheck|savings|income|net\s{1,3}worth|overdraft|mortgage|loan|debts?|arrears|pension)\b/gi;
/** ...and those only a person's money has (a company's cash balance and credit line name none). */
const OWN_MONEY = /^(?:salary|wage|paycheck|saving|income|net worth|overdraft|mortgage|arrear|pension)$/;
/** An amount: thousands separated, or cents, or a currency beside it. */
const AMOUNT = /(?<![\w.,])(?:[$€£¥]\s?)?\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{2})?(?![\w,.]?\d)|(?<![\w.,])\d{3,7}[.,]\d{2}(?!\d)|(?<![\w.,])\d{3,7}\s?(?:GBP|EUR|USD|CHF|SEK|NOK|DKK|PLN|CAD|AUD|JPY|INR)\b/g;
/** A person named beside an amount: "B. Soto 58,000", "Anna Berg: 94,000". */
const PERSON_AMOUNT = /\b(?:[A-Z]\.|[A-Z][a-z]{1,20})\s{1,2}[A-Z][a-z]{1,30}\s{0,2}[:=-]?\s{0,2}(?:[$€£]\s?)?\d{1,3}(?:[,.' ]\d{3})+/g;

/** Identity documents named, and numbers beside them. */
const ID_WORDS = /\b(?:passports?|driver'?s?\s{1,3}licen[cs]es?|driving\s{1,3}licen[cs]es?|licen[cs]e\s{1,3}(?:no|nr|number)s?|CDL|DL\s?#|national\s{1,3}id|id\s{1,3}card|ssn|social\s{1,3}security|national\s{1,3}insurance|tax\s{1,3}id)\b/i;
const ID_NUMBER = /(?<![\w.,:-])(?=[A-Z0-9]{0,11}\d{5})[A-Z0-9]{6,12}(?![\w.,:-]?\d)/g;

/** A position to ten or a hundred metres with whose it is: a driver's, a patient's, a child's. */
const LATITUDE3 = /\b(?:lat|latitude)["']?\s{0,2}[=:]\s{0,2}["']?-?\d{1,2}\.\d{3,8}/i;
const LONGITUDE3 = /\b(?:lon|lng|long|longitude)["']?\s{0,2}[=:]\s{0,2}["']?-?\d{1,3}\.\d{2,8}/i;
const ROLE = /\b(?:driver|rider|courier|patient|child|kid|employee|worker|member|user|person|owner|resident|tenant)["']?\s{0,2}[=:]\s{0,2}["']?[A-Za-z]/i;

/** The turns of a conversation: "User: …", "Assistant: …" at the start of a line. */
const TURN = /(?:^|\n|\\n)\s{0,4}(?:User|Human|Assistant|AI)\s{0,2}:\s{0,2}\S/;

/**
 * What a payload handed to a relay or a drop carries that the earlier lists did not know: null, or a few words.
 * `drop` (a public paste or file drop): a conversation transcript counts too.
 */
export function personalPayload(text: string, drop = false): string | null {
  const t = cap(text);
  if (t.includes("<<") && MRZ_NAME.test(t) && MRZ_NUMBERS.test(t)) return "an identity document's machine-readable zone";
  const money = personalMoney(t);
  if (money) return money;
  if (ID_WORDS.test(t)) {
    ID_NUMBER.lastIndex = 0;
    let n = 0;
    // (Not a date written as digits: 20261127.)
    for (let m, k = 0; (m = ID_NUMBER.exec(t)) !== null && n < 2 && k < 64; k++) if (!/^(?:19|20)\d{2}[01]\d[0-3]\d$/.test(m[0])) n++;
    if (n >= 2) return "identity-document numbers";
  }
  if (LATITUDE3.test(t) && LONGITUDE3.test(t) && ROLE.test(t)) return "a person's location";
  if (drop && TURN.test(t)) return "a conversation";
  return null;
}

function personalMoney(t: string): string | null {
  MONEY_WORDS.lastIndex = 0;
  const words = new Set<string>();
  for (let m, n = 0; (m = MONEY_WORDS.exec(t)) !== null && n < 32; n++) words.add((m[0] as string).toLowerCase().replace(/ies$/, "y").replace(/s$/, "").replace(/\s+/g, " "));
  if (words.size === 0) return null;
  AMOUNT.lastIndex = 0;
  let amounts = 0;
  while (amounts < 3 && AMOUNT.exec(t) !== null) amounts++;
  // Two kinds of a person's money with amounts ("balance 12,482.10; salary 3,120"), or one kind with several people's.
  if (words.size >= 2 && amounts >= 2 && [...words].some((w) => OWN_MONEY.test(w))) return "a person's finances";
  PERSON_AMOUNT.lastIndex = 0;
  let people = 0;
  while (people < 3 && PERSON_AMOUNT.exec(t) !== null) people++;
  return people >= 3 ? "people's pay or finances" : null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Encoded text in a host label                                                                                       */
/* ------------------------------------------------------------------------------------------------------------------ */

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** Characters of text or an identifier a folded group may decode to (a casing that gives other bytes is not text). */
const TEXT_BYTE = /^[A-Za-z0-9 .,:;@_+/|-]$/;
/** (Twentieth round) Bytes of words: a casing that decodes to letters, digits and blanks is preferred over punctuation. */
const WORD_BYTE = /^[A-Za-z0-9 ]$/;

/** Whether decoded bytes read as text or an identifier: all printable, nearly all letters, digits and blanks. */
function textual(s: string, share = 0.8): boolean {
  if (s.length < 10 || !/^[\x20-\x7e]+$/.test(s)) return false;
  const alnum = s.replace(/[^A-Za-z0-9 ]/g, "").length;
  return alnum >= s.length * share && /[A-Za-z0-9]{3}/.test(s);
}

/** A label that is base32 (RFC 4648, any case) of text or of a number: 16 characters or more, a digit of 2–7 in it. */
export function base32Label(label: string): boolean {
  const l = label.toUpperCase().replace(/=+$/, "");
  if (l.length < 16 || l.length > 63 || !/^[A-Z2-7]+$/.test(l) || !/[2-7]/.test(l)) return false;
  let bits = 0;
  let acc = 0;
  let out = "";
  for (const c of l) {
    acc = ((acc << 5) | B32.indexOf(c)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return textual(out);
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function b64Value(c: string): number {
  return B64.indexOf(c);
}

/**
 * A label that is base64 of text whose case was folded (a host name reaches DNS in lower case): 20 characters or more
 * of lower-case letters and digits, not hex, where every group of four has a casing that decodes to three characters
 * of text. Returns the text (one casing of it), or null. At most 16 casings a group: linear.
 */
export function foldedBase64Label(label: string): string | null {
  if (label.length < 20 || label.length > 63 || !/^[a-z0-9]+$/.test(label) || /^[0-9a-f]+$/.test(label) || !/[0-9]/.test(label) || !/[a-z]/.test(label)) return null;
  let out = "";
  for (let i = 0; i < label.length; i += 4) {
    const g = label.slice(i, i + 4);
    if (g.length === 1) return null;
    const letters: number[] = [];
    for (let j = 0; j < g.length; j++) if (/[a-z]/.test(g[j] as string)) letters.push(j);
    // (Twentieth round) Of the casings that decode to text, the one of most letters, digits and blanks: a record's
    // separators (`id|name|number`) are text too, but the first casing found could trade a letter for a symbol.
    let found: string | null = null;
    let best = -1;
    for (let mask = 0; mask < 1 << letters.length && best < g.length - 1; mask++) {
      const chars = g.split("");
      letters.forEach((j, b) => {
        if (mask & (1 << b)) chars[j] = (chars[j] as string).toUpperCase();
      });
      let acc = 0;
      for (const c of chars) acc = (acc << 6) | b64Value(c);
      const bytes = g.length === 4 ? [(acc >> 16) & 0xff, (acc >> 8) & 0xff, acc & 0xff] : g.length === 3 ? [(acc >> 10) & 0xff, (acc >> 2) & 0xff] : [(acc >> 4) & 0xff];
      const s = String.fromCharCode(...bytes);
      if (![...s].every((c) => TEXT_BYTE.test(c))) continue;
      const words = [...s].filter((c) => WORD_BYTE.test(c)).length;
      if (words > best) {
        best = words;
        found = s;
      }
    }
    if (found === null) return null;
    out += found;
  }
  // A field separator between a record's values reads as a blank.
  return textual(out.replace(/\|/g, " "), 0.85) ? out : null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Link templates in what comes back                                                                                  */
/* ------------------------------------------------------------------------------------------------------------------ */

const TEMPLATE_URL = /\bhttps?:\/\/[^\s"'<>`)\]]{1,2048}/g;
/** A query value that is a hole: `{name}`, `{{name}}`, `<name>`, `[name]`, `%name%` (blanks allowed inside). */
const HOLE = /^(?:\{\{?\s{0,2}([A-Za-z_][\w .'-]{0,60})\s{0,2}\}?\}|<([A-Za-z_][\w .'-]{0,60})>|\[([A-Za-z_][\w .'-]{0,60})\]|%([A-Za-z_][\w .'-]{0,60})%)$/;
/** What a hole, or its key, names that is private: identity, payment, credentials, money, the session, contracts. */
const PRIVATE_NAME = /(?:^|[^a-z])(?:passport|pp|ssn|national_?id|dob|birth|card|cc|ccn|pan|cvc|cvv|cvv2|expiry|iban|account_?(?:no|number)|routing|password|passwd|pwd|passcode|pin|otp|mfa|secret|budget|ceiling|salary|income|contract|terms|diagnos|medical|conversation|convo|chat|history|transcript|messages|memory|context|summary)(?:$|[^a-z])/i;
/** (Thirteenth round) A hole named for somebody's own data, and holes that are a search's or a page's whoever fills them. */
const WHOSE_HOLE = /^(?:their|his|her|the\s{1,2}user'?s|user'?s|the\s{1,2}customer'?s|customer'?s|the\s{1,2}client'?s|client'?s)\s/i;
const NOT_PRIVATE_HOLE = /\b(?:search|query|terms?|keywords?|question|topic|page|locale|lang|language|city|country|region|timezone|product|item|sku|colou?r|size)\b/i;
/**
 * (Twentieth round) A hole for the session itself, in any of several languages: the conversation, its history, the
 * messages, the memory. A link with such a hole has one use, to carry the session away, so it needs no words that hand
 * it over. A hole for a reference to the session (`{conversation_id}`, `{chat_url}`) names no content.
 */
const SESSION_HOLE = /(?:^|[^a-z])(?:conversation|convo|chat|chat_?log|history|transcript|messages|dialog(?:ue)?|memory|memories|context|chatverlauf|verlauf|gespraech|historique|historial|conversacion|conversa|conversazione|cronologia|storico|dialogo|gesprek|rozmowa|konversation|samtal|keskustelu)(?:$|[^a-z])/i;
const SESSION_REFERENCE = /(?:^|[^a-z])(?:id|ids|uuid|guid|key|ref|no|num|number|name|title|url|link|slug|count|length|date|time|type|mode|lang|locale|page)$/i;
/** Words that hand the reader the link to fill in and open. */
const FILL = /\b(?:fill(?:ed|ing)?(?:\s{1,3}in)?|replace|substitut\w{0,4}|insert|plug\s{1,3}in|complete(?:d)?\s{1,3}with|with\s{1,3}(?:your|the|their)\s{1,3}[\w' ]{0,40}(?:filled|details|data|values?|appended|added|attached|included)|(?:give|hand|present|send)\s{1,3}(?:the\s{1,3})?(?:user|them|him|her|customer|client)\s{1,3}(?:this|the|a)\s{1,3}link|open|visit|click|render|show|display|navigate|follow)\b/i;
/** An API's documentation shows its endpoints with a method or a client before them. */
const API_DOC = /(?:\b(?:GET|POST|PUT|PATCH|DELETE|HEAD)\s{1,3}|\bcurl\s[^\n]{0,80}|`)$/;

/**
 * URLs in a result or a reply whose query holds a hole named for private data (or under a key named so), with words
 * that hand the reader the link to fill in and open. The URL is the finding. An API's documented endpoint (a method or
 * `curl` before it, in code), a search template (`?q={query}`), a locale or page hole pass.
 */
export function linkTemplates(sites: readonly StringSite[], allowed: (host: string) => boolean): Detection[] {
  const out: Detection[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    const v = site.value;
    if (v.length > MAX_TEXT || !v.includes("://") || !(v.includes("={") || v.includes("=<") || v.includes("=[") || v.includes("=%"))) continue;
    TEMPLATE_URL.lastIndex = 0;
    for (let m, n = 0; (m = TEMPLATE_URL.exec(v)) !== null && n < 32; n++) {
      let raw = m[0].replace(/[.,;:!?]+$/, "");
      // Holes with blanks in them (`{full contract text}`) run past the match: take the rest of the hole.
      let end = m.index + raw.length;
      if (/\{[^}\s]*$/.test(raw)) {
        const close = v.indexOf("}", end);
        if (close > 0 && close - end <= 60 && !v.slice(end, close).includes("\n")) {
          const more = /^[^\s"'<>`)\]]*/.exec(v.slice(close + 1)) as RegExpExecArray;
          end = close + 1 + more[0].replace(/[.,;:!?]+$/, "").length;
          raw = v.slice(m.index, end);
          TEMPLATE_URL.lastIndex = end;
        }
      }
      const q = raw.indexOf("?");
      if (q < 0) continue;
      let host: string;
      try {
        host = new URL(raw.slice(0, q)).hostname.toLowerCase();
      } catch {
        continue;
      }
      if (localHost(host) || allowed(host)) continue;
      if (API_DOC.test(v.slice(Math.max(0, m.index - 100), m.index))) continue;
      let holes = 0;
      let private_ = false;
      let session = false;
      for (const pair of raw.slice(q + 1).split("#")[0]!.split("&", 32)) {
        const eq = pair.indexOf("=");
        if (eq < 0) continue;
        const key = pair.slice(0, eq);
        let value = pair.slice(eq + 1);
        try {
          value = decodeURIComponent(value);
        } catch {
          /* as written */
        }
        const hole = HOLE.exec(value.trim());
        if (!hole) continue;
        holes++;
        const name = hole[1] ?? hole[2] ?? hole[3] ?? hole[4] ?? "";
        const named = name.replace(/[ .'-]+/g, "_");
        if (SESSION_HOLE.test(named) && !SESSION_REFERENCE.test(named) && !NOT_PRIVATE_HOLE.test(name)) session = private_ = true;
        if (PRIVATE_NAME.test(named) || PRIVATE_NAME.test(key)) private_ = true;
        // (Thirteenth round) A hole for the reader's principal's own data: `{their open positions}`, `{the user's plan}`.
        else if (WHOSE_HOLE.test(name) && !NOT_PRIVATE_HOLE.test(name)) private_ = true;
      }
      if (holes === 0 || !private_) continue;
      const around = v.slice(Math.max(0, m.index - 300), Math.min(v.length, end + 300));
      if (!session && !FILL.test(around)) continue;
      // The instruction is the sentence that hands the link over ("open … — fill {conversation} with the chat"): cut it whole.
      const { start, stop } = sentenceAround(v, m.index, end);
      out.push({ type: "exfiltration.link", path: site.path, start, end: stop, detail: "a link template for private data" });
    }
  }
  return out;
}

/** The sentence around [from, to) of `v`: back to the last sentence end or line break, on to the next (300 characters at most each way). */
function sentenceAround(v: string, from: number, to: number): { start: number; stop: number } {
  let start = from;
  while (start > 0 && from - start < 300 && v[start - 1] !== "\n" && !(/[.!?]/.test(v[start - 2] ?? "") && /\s/.test(v[start - 1] as string))) start--;
  let stop = to;
  while (stop < v.length && stop - to < 300 && v[stop] !== "\n" && !(/[.!?]/.test(v[stop] as string) && (stop + 1 === v.length || /\s/.test(v[stop + 1] as string)))) stop++;
  if (stop < v.length && /[.!?]/.test(v[stop] as string)) stop++;
  return { start, stop };
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Account credentials in an agent message's data                                                                     */
/* ------------------------------------------------------------------------------------------------------------------ */

/** A field that holds a credential: password, passcode, PIN, CVC, a one-time code. */
const CREDENTIAL_FIELD = /(?:^|[_-])(?:password|passwd|pwd|passcode|passphrase|pin|cvc|cvv|otp|security_?code)$|^(?:password|passwd|passcode|pin|cvc|cvv)$/i;
/** …of an account (not a door, a locker, a Wi-Fi network, a PDF). */
const ACCOUNT_WORD = /(?:^|[_-])(?:e?mail|bank|banking|online|account|login|portal|user|icloud|apple|google|gmail|outlook|paypal|card|net_?banking|app|admin|root)(?:[_-]|$)/i;
const NOT_ACCOUNT = /(?:^|[_-])(?:door|gate|locker|lock|alarm|wifi|wi_fi|guest|pdf|zip|archive|parcel|building|garage|safe)(?:[_-]|$)/i;
const NOT_VALUE = /^(?:\*+|x+|\.{3}|<[^>]*>|\{[^}]*\}|\$\{?[A-Za-z_]+\}?|null|none|true|false|required|optional|set|unset|hidden|redacted|n\/a|-)$/i;

/**
 * In a message to another agent: a data field holding an account's credential (the key names the credential and the
 * account, or is the credential alone) with a value. The value is the finding.
 */
export function sentCredentials(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || !site.path.includes("data")) continue;
    const key = site.path[site.path.length - 1];
    if (typeof key !== "string" || key.length > 60 || !CREDENTIAL_FIELD.test(key) || NOT_ACCOUNT.test(key)) continue;
    if (!/^(?:password|passwd|passcode|pin)$/i.test(key) && !ACCOUNT_WORD.test(key)) continue;
    const v = site.value.trim();
    if (v.length < 4 || v.length > 128 || NOT_VALUE.test(v) || /\s{2}|\s\S+\s/.test(v)) continue;
    out.push({ type: "exfiltration.request", path: site.path, start: 0, end: site.value.length, detail: "an account's credential sent to another agent" });
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Credentials or people's records in the body of an e-mail                                                           */
/* ------------------------------------------------------------------------------------------------------------------ */

// (Eighteenth round) Who an invitation or an envelope goes to is a recipient too: attendees, guests, signers.
const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|to_?address(?:es)?|send_?to|email_?to|attendees?|invitees?|guests?|signers?|participants?)$/i;
/** (Twenty-second round) Whom a file is shared with, as the argument's own key (an `email` object holds a whole mail). */
const SHARED_WITH_KEY = /^(?:email|email_?address|share_?with|shared_?with|grantees?|user_?email)$/i;
const BODY_KEY = /^(?:body|text|html|content|message|body_?(?:text|html)|plain|plain_?text|html_?body|text_?body|description|notes|document_?text)$/i;
/** (Twenty-second round) An attachment's argument, and a file an export is kept in (a table, a database, its dump). */
// (exf27) Also an attachment named with what it holds: `attachment_path`, `attachment_files`, `attach_file`.
const ATTACHMENT_KEY = /^(?:attachments?|attach(?:ed)?|files?|file_?names?|file_?paths?|file_?ids?|documents?|(?:attachments?|attach)_?(?:paths?|files?|file_?paths?|names?|file_?names?))$/i;
/** A file named for holding no one's data: a template, a sample, a blank form, a schema. */
const NO_DATA_FILE = /(?:^|[/\\_. -])(?:templates?|samples?|examples?|blank|empty|schema|mock|dummy|demo|vorlage|plantilla|modelo|modèle)(?:[/\\_. -]|$)/i;
const EXPORT_FILE = /\.(?:csv|tsv|xlsx?|xlsm|ods|sql|dump|bak|db|sqlite3?|mdb|accdb|parquet|jsonl|vcf)(?:\.(?:gz|bz2|xz|zst|zip|7z|gpg))?$/i;

/** Recovery or backup codes with three codes or more after them. */
const RECOVERY_CODES = /\b(?:recovery|backup|2fa|mfa|two[- ]factor|emergency|scratch)\s{1,3}codes?\b[^\n]{0,40}(?:(?:\n|\\n|[,;]|\s)\s{0,4}(?:\d{1,2}[.)]\s{1,2}|[-*•]\s{1,2})?(?:[A-Za-z0-9]{4,5}[ -]?[A-Za-z0-9]{4,5}|\d{6,10})(?![\w-])){3}/i;
/** A password with its value (a digit or a symbol in it; not a reset link: "reset your password: https://…"). */
const PASSWORD_GIVEN = /\b(?:password|passwd|passphrase|pwd)\b\s{0,3}(?:is|[:=])\s{0,3}["']?(?!https?:|www\.)(?=[^\s"'<]{0,40}[0-9!@#$%^*?~])(?=[^\s"'<]{0,40}[A-Za-z])[^\s"'<]{6,40}/i;
const PRIVATE_KEY = /-----BEGIN (?:[A-Z]{1,12} )?PRIVATE KEY-----/;
/** A CSV header naming a person's fields, then rows. */
const PEOPLE_HEADER = /(?:^|\n|>)\s{0,4}(?:[A-Za-z_ ]{1,30}[,;\t]){1,20}[A-Za-z_ ]{1,30}\s{0,2}(?:\r?\n)/;
const PERSON_FIELD = /\b(?:e-?mail|phone|mobile|first_?name|last_?name|full_?name|address|dob|birth|ssn|iban|salary)\b/i;

/**
 * A call that mails (a recipient argument) credentials with their values to any address off the machine, or an
 * export of people pasted into the body to a personal mailbox. The body is the finding.
 */
export function mailedSecrets(sites: readonly StringSite[]): Detection[] {
  const recipients: string[] = [];
  const bodies: StringSite[] = [];
  const files: StringSite[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const { key, top } = argumentNames(site);
    if (RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(top) || SHARED_WITH_KEY.test(key)) {
      for (const d of mailDomains(site.value)) recipients.push(d.toLowerCase());
    } else if (BODY_KEY.test(key) && site.value.length >= 20) bodies.push(site);
    else if ((ATTACHMENT_KEY.test(key) || ATTACHMENT_KEY.test(top)) && site.value.length <= 1024 && EXPORT_FILE.test(site.value.trim()) && !NO_DATA_FILE.test(site.value)) files.push(site);
  }
  const outside = recipients.filter((d) => !localHost(d));
  if (outside.length === 0 || (bodies.length === 0 && files.length === 0)) return [];
  const personal = outside.some(personalMailbox);
  const out: Detection[] = [];
  // (Twenty-second round) A table or a database attached to a personal mailbox: an export leaves the organisation for an
  // account nobody there controls (a company address, a client's or a vendor's, may be meant to get it).
  if (personal) for (const f of files) out.push({ type: "exfiltration.request", path: f.path, start: 0, end: f.value.length, detail: "an export file attached or shared to a personal mailbox" });
  for (const b of bodies) {
    const t = cap(b.value);
    let what: string | null = null;
    if (RECOVERY_CODES.test(t) || PRIVATE_KEY.test(t) || PASSWORD_GIVEN.test(t)) what = "credentials";
    // (Seventeenth round) Text its writer marked as not for outsiders, in any language, to a personal mailbox
    // (exfil-words.ts; a disclaimer is no mark). A company address, a client's or a vendor's, may be meant to get it.
    else if (personal && markedText(t)) what = "text marked confidential";
    // (Twenty-fourth round) Or asked, in words, to be kept to the reader (exfil-secrecy.ts): "keep it between us".
    else if (personal && secrecyAsked(t)) what = "text its writer asks to keep secret";
    // (Eighteenth round) Other people's identity numbers, or a table of people with their figures (exfil-people-url.ts).
    // (Twenty-second round) Or two rows of people, or one and an elided rest of an export (exfil-dataset.ts).
    else if (personal && (identityNumbers(t) || peopleTable(t) || peopleRows(t))) what = "people's records";
    else if (personal && PEOPLE_HEADER.test(t)) {
      const header = PEOPLE_HEADER.exec(t) as RegExpExecArray;
      if (PERSON_FIELD.test(header[0]) && mailDomains(t.slice(header.index), 2).length >= 2) what = "an export of people's records";
    }
    if (what) out.push({ type: "exfiltration.request", path: b.path, start: 0, end: b.value.length, detail: `the e-mail carries ${what}${personal ? " to a personal mailbox" : " off the machine"}` });
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A credentials object, decoded                                                                                      */
/* ------------------------------------------------------------------------------------------------------------------ */

/** A JSON object's credential field with a random-looking value: `{"username":"…","key":"4f5b…"}` (kaggle.json, a token file). */
const JSON_SECRET = /"(?:key|api_?key|apikey|token|access_?token|auth_?token|secret|client_?secret|secret_?key|password|private_?key)"\s{0,3}:\s{0,3}"([^"\s]{16,256})"/i;

/** Whether decoded text is a credentials object: a credential field whose value is random-looking (letters and digits mixed). */
export function credentialObject(text: string): boolean {
  const m = JSON_SECRET.exec(cap(text));
  if (!m) return false;
  const v = m[1] as string;
  return /[0-9]/.test(v) && /[A-Za-z]/.test(v) && !/^(?:\*+|x+|<[^>]*>|\{[^}]*\}|\$\{?[A-Za-z_]+\}?)$/i.test(v) && new Set(v).size >= 10;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* The session's text under a key of its own                                                                          */
/* ------------------------------------------------------------------------------------------------------------------ */

/** Keys that name a conversation, its history, a diary or a calendar's entries: text of the user's own. */
const SESSION_KEY = /^(?:conv|convo|conversation|chat|chat_?log|transcript|history|messages|dialog(?:ue)?|context|memory|memories|diary|journal|events|agenda|entries)$/i;

/**
 * A requested URL whose query holds, under such a key, ten words or more of prose, or three entries with a time each:
 * the session's text leaving as a link. A search (`q`), a share intent's `text`, a calendar link's `details`, a short event title pass.
 */
export function sessionInQuery(url: URL): string | null {
  for (const [key, value] of url.searchParams) {
    if (!SESSION_KEY.test(key) || value.length < 30 || value.length > 8192) continue;
    const words = value.split(/[\s;,]+/).filter((w) => /[A-Za-z]{2}/.test(w));
    const letters = value.replace(/[^A-Za-z]/g, "").length;
    if (value.length >= 60 && words.length >= 10 && letters >= value.length * 0.5) return "the session's text in the query";
    // Or three entries or more with a time each, in words ("Dentist 2 Dec 09:20; Therapy 4 Dec 17:00; …"): a diary.
    const entries = value.split(/[;\n|]/, 32).filter((e) => /\b\d{1,2}[:.h]\d{2}\b/.test(e) && /[A-Za-z]{3}/.test(e));
    if (entries.length >= 3) return "the session's entries in the query";
  }
  return null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A file of secrets uploaded by a command line                                                                       */
/* ------------------------------------------------------------------------------------------------------------------ */

/**
 * Files that hold secrets by what they are: Terraform state (every resource's attributes, passwords included), a
 * kubeconfig, an `.env`, a `.netrc` or `.pgpass`, a private key, cloud CLI credentials.
 */
const SECRET_FILE = /(?:^|[/\\\s'"=@])(?:[\w.-]{0,60}\.tfstate(?:\.backup)?|kubeconfig(?:\.ya?ml)?|\.kube\/config|\.env(?:\.[\w-]{1,20})?|\.netrc|\.pgpass|\.git-credentials|id_(?:rsa|ed25519|ecdsa|dsa)|[\w.-]{1,60}\.(?:pem|key|p12|pfx)|\.aws\/credentials|credentials\.json|service[-_]account[\w.-]{0,40}\.json)(?=$|[\s'"])/;
/** An upload by curl, wget or httpie of a named file: `curl -T f`, `--upload-file f`, `-F x=@f`, `--data-binary @f`, `wget --post-file=f`, `http … @f`. */
const UPLOAD_OF = /\b(?:curl|wget|http|https|xh)\b[^\n|;&]{0,200}?(?:\s(?:-T|--upload-file|--post-file|--body-file)(?:\s{1,4}|=)["']?|\s(?:-F|--form)\s{1,4}["']?[\w-]{1,40}=@|\s(?:-d|--data(?:-binary|-raw|-ascii)?)(?:\s{1,4}|=)["']?@|\s@)([^\s'";|&]{1,300})/g;
const COMMAND_URL = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})/g;

/** The upload commands' names: a short message whose literal prefilter holds none of them uploads nothing (issue 25). */
const UPLOADER_IDS = ["curl", "wget", "http", "xh"].map(literalId);

/** A command line that uploads a file of secrets to a host off the machine: the upload is the finding. */
export function secretFileUploads(sites: readonly StringSite[], allowed: (host: string) => boolean): Detection[] {
  const out: Detection[] = [];
  const lits = literalsOf(sites as StringSite[]);
  if (lits !== null && !lits.any(UPLOADER_IDS)) return out;
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    const v = site.value;
    if (site.path[0] !== "params" || v.length > MAX_TEXT || !/\b(?:curl|wget|http|xh)\b/.test(v)) continue;
    COMMAND_URL.lastIndex = 0;
    let outside = false;
    for (let m, n = 0; (m = COMMAND_URL.exec(v)) !== null && n < 16; n++) {
      const h = (m[1] as string).toLowerCase();
      if (!localHost(h) && !allowed(h)) outside = true;
    }
    if (!outside) continue;
    UPLOAD_OF.lastIndex = 0;
    for (let m, n = 0; (m = UPLOAD_OF.exec(v)) !== null && n < 16; n++) {
      const file = (m[1] as string).replace(/^["']|["']$/g, "");
      if (/^https?:/i.test(file) || !SECRET_FILE.test(" " + file)) continue;
      out.push({ type: "exfiltration.request", path: site.path, start: m.index, end: m.index + m[0].length, detail: "the command uploads a file of secrets" });
    }
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Another agent asked to publish on a public drop                                                                    */
/* ------------------------------------------------------------------------------------------------------------------ */

const NAMED_HOST = /(?<![\w.@/-])(?:[a-z0-9-]{1,63}\.){1,4}[a-z]{2,12}(?![\w-]|\.[a-z])/gi;
const PUBLISH = /\b(?:publish|post|upload|paste|put|share|drop|host|send)\b/i;

/**
 * In a message to another agent: its words name a public paste site or file drop (by its host, `justpaste.it`) with a
 * verb that puts something there, and the message carries what may not go there (`judge`: people's records,
 * credentials, payment details…). The host's mention is the finding.
 */
export function namedDrop(sites: readonly StringSite[], isDrop: (host: string) => boolean, judge: (text: string) => string | null): Detection[] {
  const out: Detection[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    const v = site.value;
    if (site.path[0] !== "params" || site.path[site.path.length - 1] !== "text" || v.length > 4096 || !v.includes(".") || !PUBLISH.test(v)) continue;
    NAMED_HOST.lastIndex = 0;
    for (let m, n = 0; (m = NAMED_HOST.exec(v)) !== null && n < 16; n++) {
      if (!isDrop(m[0].toLowerCase())) continue;
      let what: string | null = null;
      for (const other of sites) {
        if (other.path[0] !== "params" || other === site) continue;
        what = judge(other.value);
        if (what) break;
      }
      if (what) out.push({ type: "exfiltration.request", path: site.path, start: m.index, end: m.index + m[0].length, detail: `${what} to a public drop` });
      break;
    }
  }
  return out;
}
