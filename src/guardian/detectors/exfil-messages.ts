import { passwordInWords } from "./exfil-words.js";
import { passwordList, recoveryCodes } from "./exfil-credential-lists.js";
import { sensitivePayload } from "./exfil-relays.js";
import { pastedFile } from "./exfil-hosted.js";
import { fileKind } from "./exfil-payloads.js";
import { DATA_FILE } from "./exfil-outlets.js";
import { markedDocument } from "./exfil-marked.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "exf15") Messages to people and devices, judged by what they carry (docs/detection.md, "Fifteenth
 * round: exfiltration (exf15)"):
 *
 * - **A messaging endpoint by its shape, not its vendor**: an incoming webhook (`/webhooks/incoming/…`,
 *   `/incoming-webhook/…`), a room's or a channel's message list (`/rooms/<id>/messages`), a push service's device
 *   notification (`/<key>/notifications/…`, `/send/<key>/…`, `/message?token=`) or a hosted form's submission
 *   (`/t/<id>/submit` on a `forms.` host). Earlier rounds named such services one by one (Discord, DingTalk, WeCom…);
 *   every new one the sets showed (Webex, Chatwork, Pushcut, SimplePush, Fillout) has one of these shapes. The address
 *   says nothing about whose space it is: like a relay, the request is judged by what it carries.
 * - **What a message may not carry, beyond the relays' list**: credentials a config holds (`…_PASSWORD=…` lines, a
 *   connection string's password with any symbol, a value named `…_secret_…`), several doors' access codes, people's
 *   rows in a JSON body's escaped CSV, identity-document numbers named in other languages, an identity form's fields
 *   (birth date beside an SSN's or a passport's number).
 * - **A text message or a push to a phone** (an SMS tool, a push tool, a phone's messenger) carrying those credentials
 *   or codes, or (twenty-first round) several passwords or recovery codes by their shape.
 *
 * Linear: bounded regexes over at most 64 KB of a value, at most 256 values of a message walked.
 */

const MAX_TEXT = 65_536;
const cap = (t: string) => (t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t);

/* ------------------------------------------------------------------------------------------------------------------ */
/* Messaging endpoints by shape                                                                                       */
/* ------------------------------------------------------------------------------------------------------------------ */

const INCOMING_HOOK = /\/(?:webhooks?\/incoming|incoming[-_]?webhooks?)\/[A-Za-z0-9_=-]{8,}/i;
const ROOM_MESSAGES = /\/(?:rooms|channels|chats|spaces|groups|conversations|threads)\/[A-Za-z0-9_.:@!=-]{3,80}\/messages\/?$/i;
/** A push service's notification to a device named by a key in the path: `/<key>/notifications/<name>`, `/send/<key>/…`. */
const KEYED_NOTIFICATION = /^\/(?:v\d\/)?([A-Za-z0-9_-]{6,64})\/notifications?(?:\/[^/]{1,80})?\/?$/;
const SEND_TO_KEY = /^\/(?:v\d\/)?send\/[A-Za-z0-9_-]{4,64}(?:\/|$)/;
const PUSH_HOST = /^(?:api\.)?(?:push|notify|notifications?)[a-z0-9-]{0,20}\.|^api\.push[a-z]{2,20}\.|^api\.[a-z]{2,20}push\.|\.push[a-z]{0,12}\.(?:io|net|com|app)$/i;
const FORM_SUBMIT = /^\/(?:t|f|forms?|s)\/[A-Za-z0-9_-]{6,40}\/(?:submit|submissions?|responses?)\/?$/i;

/** Whether a URL (host lower case, path as sent) is a messaging endpoint: a webhook, a room, a push, a form. */
export function messageEndpoint(host: string, path: string): boolean {
  if (path.length > 2048) return false;
  if (INCOMING_HOOK.test(path) || ROOM_MESSAGES.test(path)) return true;
  // (Phase two) An incoming webhook whose key rides in the query, and a paste service's create call.
  if (INCOMING_PATH.test(path) || pasteEndpoint(host, path)) return true;
  const keyed = KEYED_NOTIFICATION.exec(path);
  // The key names a device or an account: mixed case with digits, or a long hyphenated word (not `/account/notifications`).
  if (keyed && ((/[0-9]/.test(keyed[1] as string) && /[A-Za-z]/.test(keyed[1] as string)) || (keyed[1] as string).length >= 12 || PUSH_HOST.test(host))) return true;
  if (SEND_TO_KEY.test(path) && PUSH_HOST.test(host)) return true;
  if (/^forms?\./.test(host) && FORM_SUBMIT.test(path)) return true;
  return false;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* What a message may not carry                                                                                       */
/* ------------------------------------------------------------------------------------------------------------------ */

/** A config line naming a credential: `SMTP_PASS=…`, `DB_PASSWORD: …` (a value of six characters or more, not a reference). */
const CONFIG_SECRET_LINE = /(?:^|[\s"'{,;]|\\n)[A-Z][A-Z0-9]{0,30}(?:_[A-Z0-9]{1,30}){0,4}_(?:PASS|PASSWORD|PASSWD|PWD|SECRET|SECRET_KEY|API_KEY|APIKEY|TOKEN|ACCESS_KEY|PRIVATE_KEY|CLIENT_SECRET)\s{0,2}[=:]\s{0,2}["']?(?![$%{<*])([^\s"'\\,;]{6,200})/;
const PLACEHOLDER = /^(?:x{3,}|\*{3,}|changeme|change_me|password|secret|example|redacted|none|null|true|false|\.\.\.)$/i;
/** A connection string's password: `scheme://user:password@host` with a password of any characters but `@`, `/` and blanks. */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[A-Za-z0-9._%-]{1,64}:([^\s@/"'<>]{6,128})@[A-Za-z0-9.-]{1,253}/g;
/** A value that names itself a secret: `fluxx_secret_x6M8…`, `acme-client-secret-…` (a Stripe client secret goes back to its merchant). */
const NAMED_SECRET_VALUE = /(?<![A-Za-z0-9_])(?![a-z]{1,8}_[A-Za-z0-9]{8,40}_secret_)[a-z][a-z0-9]{1,20}[_-](?:client[_-])?(?:secret|password|passwd|private[_-]?key)[_-]([A-Za-z0-9]{20,128})(?![A-Za-z0-9])/g;
/** An access code of a door, a gate, a lock box, an alarm or a safe: the word, then digits. */
const ACCESS_CODE = /\b(?:door|gate|entry|front|side|back|rear|main|master|garage|lock\s{0,2}box|keybox|key\s{1,2}safe|alarm|safe|building|unit\s{1,2}\w{1,6}(?:\s{1,2}lock\s{0,2}box)?|codes?)\s{0,3}(?:code|pin)?\s{0,3}[:=#-]?\s{0,3}(\d{4,8})(?!\d)/gi;
const ACCESS_WORDS = /\b(?:door|gate|lock\s{0,2}box|keybox|key\s{1,2}safe|alarm|entry|master|keypad|smart\s{0,2}lock)\b|\bcodes?\b/i;
/** Identity documents in other languages (the relays' list reads English). */
const ID_WORDS_WORLD = /旅券|パスポート|护照|護照|여권|Reisepass|Personalausweis|passeport|pasaporte|passaporto|paspoort|paszport|паспорт|pas[sş]aport|hộ chiếu|جواز/i;
/** A document number: six to twelve capitals and digits, a letter and four digits or more among them. */
const ID_NUMBER = /(?<![\w.,:-])[A-Z0-9]{6,12}(?![\w.,:-]?\d)/g;
/** An identity form's fields: a birth date beside a national number or a background check. */
const BIRTH_FIELD = /(?:^|[&?{,"'\s])(?:dob|date_?of_?birth|birth_?date|birthdate|geburtsdatum)["']?\s{0,2}[=:]\s{0,2}["']?\d/i;
const IDENTITY_FIELD = /(?:^|[&?{,"'\s])(?:ssn(?:_?last_?4)?|social_?security(?:_?number)?|sin|nino|passport(?:_?(?:no|number))?|national_?id|tax_?id|tin|background_?check|criminal_?record|check_?result|check)["']?\s{0,2}[=:]\s{0,2}["']?[A-Za-z0-9]/i;

/** A vendor's live secret key by the common convention (`sk_live_…`, `rk_live_…`, `acme_live_…`); a publishable `pk_live_` is public. */
const LIVE_KEY = /(?<![A-Za-z0-9])(?!pk_)[a-z]{2,10}_live_[A-Za-z0-9]{16,128}(?![A-Za-z0-9])/;

/** Credentials a message may not carry (beyond the relays' list), or null. */
export function messageSecrets(text: string): string | null {
  const t = cap(text);
  if (LIVE_KEY.test(t)) return "a live key";
  // (Seventeenth round) A password named in any language: "密码 …", "senha: …" (exfil-words.ts).
  if (passwordInWords(t)) return "credentials";
  const line = CONFIG_SECRET_LINE.exec(t);
  if (line && !PLACEHOLDER.test(line[1] as string) && /[0-9!@#$%^&*?~]/.test(line[1] as string)) return "credentials";
  URL_PASSWORD.lastIndex = 0;
  for (let m, n = 0; (m = URL_PASSWORD.exec(t)) !== null && n < 16; n++) {
    const p = m[1] as string;
    if (!PLACEHOLDER.test(p) && !/^[$%{<*]/.test(p) && /[0-9!#$%^&*?~]/.test(p) && /[A-Za-z]/.test(p)) return "a connection string's password";
  }
  NAMED_SECRET_VALUE.lastIndex = 0;
  for (let m, n = 0; (m = NAMED_SECRET_VALUE.exec(t)) !== null && n < 16; n++) {
    const v = m[1] as string;
    if (/[a-z]/.test(v) && /[A-Z0-9]/.test(v) && new Set(v).size >= 12) return "a secret named as one";
  }
  if (ACCESS_WORDS.test(t)) {
    ACCESS_CODE.lastIndex = 0;
    const codes = new Set<string>();
    let master = false;
    for (let m, n = 0; (m = ACCESS_CODE.exec(t)) !== null && n < 32; n++) {
      if (/^(?:19|20)\d{2}$/.test(m[1] as string)) continue; // a year
      codes.add(m[1] as string);
      if (/^master/i.test(m[0])) master = true;
    }
    if (codes.size >= 3 || (master && codes.size >= 1)) return "access codes";
  }
  return null;
}

/** People's data a message may not carry (beyond the relays' list), or null. */
export function messageRecords(text: string): string | null {
  const t = cap(text);
  if (ID_WORDS_WORLD.test(t)) {
    ID_NUMBER.lastIndex = 0;
    let n = 0;
    for (let m, k = 0; (m = ID_NUMBER.exec(t)) !== null && n < 2 && k < 64; k++) if (/[A-Z]/.test(m[0]) && (m[0].match(/\d/g) ?? []).length >= 4) n++;
    if (n >= 2) return "identity-document numbers";
  }
  if (BIRTH_FIELD.test(t) && IDENTITY_FIELD.test(t)) return "an identity form's answers";
  if (ACCOUNT_WORD.test(t) && accountRows(t)) return "bank account records";
  return null;
}

/** A CSV header naming a bank account's field (`payee_acct`, `iban`, `routing`, `sort_code`), then a row with an account's digits. */
const ACCOUNT_WORD = /acct|account|iban|routing|sort_?code|\bbsb\b|\baba\b/i;
const ACCOUNT_DIGITS = /(?<![\d-])\d{8,17}(?![\d-])/;
function accountRows(t: string): boolean {
  const lines = t.split("\n", 2000);
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length > 400 || /\d/.test(line) || (line.match(/[,;\t]/g) ?? []).length < 2 || !ACCOUNT_WORD.test(line)) continue;
    if (ACCOUNT_DIGITS.test((lines[i + 1] as string).slice(0, 400))) return true;
  }
  return false;
}

/** The string values of a JSON body (escaped newlines decoded), joined, or null when the text is not a JSON object. */
function jsonStrings(text: string): string | null {
  const t = text.trim();
  if (t.length > MAX_TEXT || !/^[{[]/.test(t)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return null;
  }
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (out.length >= 256 || depth > 8) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(parsed, 0);
  return out.join("\n");
}

/** What a message to a person or a device may not carry: the relays' list, then this module's, on the text and a JSON body's strings. */
/** Publishable keys are public by design (they ship in every page's script): not a credential in a message. */
const PUBLISHABLE = /(?<![A-Za-z0-9])pk_(?:live|test)_[A-Za-z0-9]{16,128}/g;

export function messagePayload(text: string): string | null {
  const plain = text.includes("pk_") ? text.replace(PUBLISHABLE, "pk_…") : text;
  const strings = jsonStrings(plain);
  for (const t of strings === null ? [plain] : [plain, strings]) {
    const what = sensitivePayload(t, true) ?? messageSecrets(t) ?? messageRecords(t);
    if (what) return what;
  }
  return null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A text message or a push to a phone                                                                               */
/* ------------------------------------------------------------------------------------------------------------------ */

/** Tools that text or push to a phone: `send_sms`, `notify_send_sms`, `sms.send`, `push_notification`, `send_whatsapp`. */
// (Twenty-first round) The messengers people read on their phones count as text messages: Telegram, Viber, WeChat,
// iMessage, KakaoTalk, Zalo, Threema.
export const PHONE_TOOL = /(?:^|[_.\-/])(?:sms|mms|text_?message|whatsapp|telegram|viber|wechat|imessage|kakao(?:talk)?|zalo|threema|push(?:_?notification)?|pushover|ntfy)(?:$|[_.\-/])|^(?:text|sms|telegram)[A-Z_]/i;
const PHONE_NUMBER = /^\s{0,4}\+?\d[\d ().-]{6,20}\d\s{0,4}$/;

/**
 * Credentials or access codes in what an SMS or a push tool sends. A guest's own door code, a one-time code, a Wi-Fi
 * password pass: only credentials a config holds, a connection string's password, a secret named as one, three doors'
 * codes or a master code count.
 */
export function phoneMessages(sites: readonly StringSite[], tool: string): Detection[] {
  if (tool.length > 80 || !PHONE_TOOL.test(tool)) return [];
  const out: Detection[] = [];
  for (const site of sites.length > 256 ? sites.slice(0, 256) : sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.value.length < 12 || PHONE_NUMBER.test(site.value)) continue;
    // (Twenty-first round) Credentials by their shape: several passwords, recovery codes (exfil-credential-lists.ts).
    const what = messageSecrets(site.value) ?? (passwordList(site.value) ? "passwords" : recoveryCodes(site.value) ? "recovery codes" : null);
    if (what) out.push({ type: "exfiltration.request", path: site.path, start: 0, end: site.value.length, detail: `a text message carries ${what}` });
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A cookie inside a query value                                                                                      */
/* ------------------------------------------------------------------------------------------------------------------ */

const SESSION_NAME = /^(?:[A-Za-z]{0,12}[_-]?)?(?:session|sess|sid|sessid|phpsessid|jsessionid|asp\.net_sessionid|connect\.sid|auth|auth_?token|remember_?(?:me|token)|login|jwt|access_?token)(?:[_-]?[A-Za-z0-9]{0,12})?$/i;
const COOKIE_PAIR = /(?:^|[;\s&])([A-Za-z][\w.-]{0,40})=([A-Za-z0-9%._~+/:-]{20,512})/g;

/** A query value (any depth of the URL, already decoded once) that is a cookie: `NAME=value` with a session's name and a random value. */
export function cookieInValue(value: string): boolean {
  if (value.length < 24 || value.length > 4096 || !value.includes("=")) return false;
  COOKIE_PAIR.lastIndex = 0;
  for (let m, n = 0; (m = COOKIE_PAIR.exec(value)) !== null && n < 16; n++) {
    const v = m[2] as string;
    if (SESSION_NAME.test(m[1] as string) && /[a-z]/.test(v) && /[A-Z0-9]/.test(v) && new Set(v).size >= 12) return true;
  }
  return false;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Judging a request to a messaging endpoint                                                                          */
/* ------------------------------------------------------------------------------------------------------------------ */

/** Path segments of more than three words: a message written into the path (`/send/<key>/<title>/<text>`). */
function pathText(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/").slice(0, 16)) {
    let s = seg;
    try {
      s = decodeURIComponent(seg.replace(/\+/g, " "));
    } catch {
      /* as written */
    }
    if (s.split(/\s+/).length >= 4) out.push(s);
  }
  return out.join("\n");
}

/**
 * What a request to a messaging endpoint carries that a message may not: in its query, its path's words, the rest of a
 * command line (`start`…`end` is the URL in `own`), and the call's other arguments (headers aside). Null when the URL is
 * no messaging endpoint, or carries nothing.
 */
export function endpointMessage(url: URL, own: StringSite, start: number, end: number, sites: readonly StringSite[], toolCall: boolean, known = false): string | null {
  const host = url.hostname.toLowerCase();
  if (!known && !messageEndpoint(host, url.pathname)) return null;
  for (const [, value] of url.searchParams) {
    if (value.length < 12) continue;
    const what = messagePayload(value);
    if (what) return what;
  }
  const words = pathText(url.pathname);
  if (words) {
    const what = messagePayload(words);
    if (what) return what;
  }
  if (!toolCall) {
    // An agent's push configuration: the token it will present to this endpoint, when that token is a live key.
    for (const site of sites.length > 256 ? sites.slice(0, 256) : sites) {
      if (!site.path.some((p) => typeof p === "string" && /^push_?notification_?config$/i.test(p)) || site === own) continue;
      if (LIVE_KEY.test(site.value)) return "a live key";
    }
    return null;
  }
  const v = own.value;
  if (start > 0 || end < v.length) {
    const what = messagePayload(v.slice(0, start) + " " + v.slice(end));
    if (what) return what;
  }
  for (const site of sites.length > 256 ? sites.slice(0, 256) : sites) {
    if (site === own || site.path[0] !== "params" || site.path[1] !== "arguments" || site.path.some((p) => typeof p === "string" && /^headers?$/i.test(p))) continue;
    const what = messagePayload(site.value);
    if (what) return what;
  }
  return null;
}

/** A secret named as one, or a cookie, in a URL's query values (and in a URL inside one): `?chl=acme_secret_…`, `?url=…%3Fs%3DSESSION%3D…`. */
export function secretInQuery(url: URL, depth = 0): string | null {
  if (url.search.length < 16 || url.search.length > 16384) return null;
  for (const [, value] of url.searchParams) {
    if (value.length < 20) continue;
    NAMED_SECRET_VALUE.lastIndex = 0;
    const m = NAMED_SECRET_VALUE.exec(value);
    if (m && /[a-z]/.test(m[1] as string) && /[A-Z0-9]/.test(m[1] as string) && new Set(m[1] as string).size >= 12) return "a secret named as one";
    if (cookieInValue(value)) return "a session cookie";
    if (depth < 1 && /^https?:\/\//i.test(value)) {
      let inner: URL | null = null;
      try {
        inner = new URL(value);
      } catch {
        inner = null;
      }
      if (inner !== null) {
        const what = secretInQuery(inner, depth + 1);
        if (what) return what;
      }
    }
  }
  return null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A data file uploaded to a host's bare root or its upload script: a file drop                                                            */
/* ------------------------------------------------------------------------------------------------------------------ */

/** `curl`/`wget`-like uploads: the program word, then a file handed (`-F x=@file`, `-T file`, `--data-binary @file`). */
const UPLOADER = /\b(?:curl|wget|xh)\b|(?:^|[\s;|&])https?\s/;
/** A URL that is a host's bare root: `https://host` or `https://host/`, then a blank, a quote or the end. */
const ROOT_URL = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})(?::\d{1,5})?(?:\/|\/(?:api\/)?upload(?:\.php)?\/?|\/api\.php)?(?=$|[\s"'`;|&)])/g;
/** A capture or a dump streamed into the upload (`tcpdump -w - | curl -F 'f=@-'`). */
const DATA_PIPE = /\b(?:tcpdump|tshark|dumpcap|pg_dumpall|pg_dump|mysqldump|mariadb-dump|mongodump)\b[^|\n]{0,400}\|[^|\n]{0,40}\b(?:curl|wget|http|xh)\b[^\n]{0,400}@-/;

/**
 * A data file (an export, a dump, records, a marked document, a key store), or a capture or a dump streamed from its
 * program, uploaded by a command to the bare root of a host that is neither local nor allowed, or to its bare upload
 * script (`/upload.php`, `/upload`, `/api/upload`: pomf's and its clones' protocol): the protocol of anonymous file
 * drops (`curl -F file=@x https://drop.host`), whatever the drop is called. An upload to an API's own path
 * (`/api/v2/import`), a build artefact to a root pass.
 */
export function rootDrops(sites: readonly StringSite[], local: (host: string) => boolean, allowed: (host: string) => boolean): Detection[] {
  const out: Detection[] = [];
  for (const site of sites.length > 256 ? sites.slice(0, 256) : sites) {
    const v = site.value;
    if (site.path[0] !== "params" || v.length > MAX_TEXT || !v.includes("://") || !UPLOADER.test(v)) continue;
    const file = pastedFile(v);
    const data = (file !== null && (fileKind(file) !== null || DATA_FILE.test(file) || markedDocument(file))) || DATA_PIPE.test(v);
    if (!data) continue;
    ROOT_URL.lastIndex = 0;
    for (let m, n = 0; (m = ROOT_URL.exec(v)) !== null && n < 16; n++) {
      const host = (m[1] as string).toLowerCase();
      if (local(host) || allowed(host)) continue;
      out.push({ type: "exfiltration.request", path: site.path, start: m.index, end: m.index + m[0].length, detail: `the command uploads a data file to ${host}'s root, a file drop` });
      break;
    }
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* (Phase two) A webhook's own key; paste APIs by shape; a token handed with its API's URL; Basic credentials          */
/* ------------------------------------------------------------------------------------------------------------------ */

/** An incoming webhook whose key rides in the query (Zulip's `/api/v1/external/slack_incoming?api_key=`, `/incoming?key=`). */
const INCOMING_PATH = /\/(?:external\/[a-z_]{0,30}incoming|[a-z]{0,20}[_-]?incoming(?:[_-]?webhooks?)?|webhooks?\/incoming)\/?$/i;
const HOOK_KEY = /^(?:api[_-]?key|apikey|key|token)$/i;

/**
 * Whether a query key and value are an incoming webhook's own key (the URL the chat service issued, its key in it):
 * one such key, 64 characters at most, not a recognised key of another service, every other value 24 characters or
 * fewer (a stream, a topic). What the request posts is judged apart (endpointMessage).
 */
export function ownHookKey(key: string, url: URL, secretOfAnother: (v: string) => boolean): boolean {
  if (!HOOK_KEY.test(key) || url.pathname.length > 256 || !INCOMING_PATH.test(url.pathname)) return false;
  let keys = 0;
  for (const [k, v] of url.searchParams) {
    if (HOOK_KEY.test(k)) {
      if (++keys > 1 || v.length > 64 || secretOfAnother(v)) return false;
    } else if (v.length > 24) return false;
  }
  return keys === 1;
}

/** A paste service's create call by its path: `/api/paste`, `/api/v1/pastes`, `/documents` (hastebin), `/paste/new`. */
const PASTE_PATH = /^\/(?:api\/(?:v\d\/)?pastes?|pastes?(?:\/new|\/create)?|documents|api\/create|api\/v\d\/paste)\/?$/i;

export function pasteEndpoint(host: string, path: string): boolean {
  return PASTE_PATH.test(path) && !/^(?:localhost|127\.)/.test(host);
}

/** Query keys that hand over a credential. */
const TOKEN_KEY = /^(?:key|api[_-]?key|apikey|token|access[_-]?token|auth[_-]?token|private[_-]?token|x[_-]api[_-]key|secret)$/i;

/**
 * A link that hands a host both another service's API address and a token (`?source=https://netbox.internal/api/…&token=…`,
 * `?src=https://api.vendor.example/…&key=…`): the token opens that API for whoever holds the link. A public source
 * without a token, a signed download, a token of the link's own host without another API's address pass.
 */
export function tokenWithApi(url: URL): string | null {
  if (url.search.length < 24 || url.search.length > 16384) return null;
  const host = url.hostname.toLowerCase();
  let api: string | null = null;
  let token = false;
  for (const [k, v] of url.searchParams) {
    if (/^https?:\/\//i.test(v)) {
      let inner: URL | null = null;
      try {
        inner = new URL(v);
      } catch {
        inner = null;
      }
      if (inner === null) continue;
      const h = inner.hostname.toLowerCase();
      if (h !== host && (/(?:^|\/)api(?:\/|$)/i.test(inner.pathname) || /^api\d{0,2}\./.test(h))) api = h;
      for (const [ik, iv] of inner.searchParams) if (TOKEN_KEY.test(ik) && randomValue(iv)) token = true;
    } else if (TOKEN_KEY.test(k) && randomValue(v)) token = true;
  }
  return api !== null && token ? `a token for ${api}` : null;
}

function randomValue(v: string): boolean {
  if (v.length < 20 || v.length > 512 || !/^[A-Za-z0-9_.~+/=-]+$/.test(v)) return false;
  return new Set(v).size >= 12 && /[0-9]/.test(v) && /[a-zA-Z]/.test(v);
}

/** Query keys that carry HTTP Basic credentials. */
const AUTH_KEY = /^(?:auth|authorization|basic|basic[_-]?auth|creds?|credentials|login|userpass)$/i;
const BASIC_PAIR = /^([^\s:]{1,64}):([^\s]{6,64})$/;

/** A query value under an auth key that is base64 of `user:password` (a password with a letter and a digit or a symbol). */
export function basicInQuery(url: URL): boolean {
  for (const [k, v] of url.searchParams) {
    if (!AUTH_KEY.test(k) || v.length < 12 || v.length > 512 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) continue;
    const text = Buffer.from(v, v.includes("-") || v.includes("_") ? "base64url" : "base64").toString("latin1");
    const m = BASIC_PAIR.exec(text);
    if (m && /^[\x20-\x7e]+$/.test(text) && /[A-Za-z]/.test(m[2] as string) && /[0-9!@#$%^&*?~]/.test(m[2] as string)) return true;
  }
  return false;
}

/** Query keys that name who a link addresses (a calendar invite's guests, a mail composer's recipients): not data about them. */
const RECIPIENT_KEYS = /^(?:to|cc|bcc|add|attendees?|invitees?|guests?|participants?|recipients?|from|reply_?to|sender|organi[sz]er|login_?hint|username|user)$/i;
const CONTACT = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6}|\+\d{1,3}[ .-]?\(?\d{1,4}\)?(?:[ .-]?\d{2,4}){2,4}/g;

/**
 * Two people's contact details or more (e-mail addresses, international phone numbers) in a URL's query under keys that
 * are not recipients, to a host whose first label is not `api` (a CRM's own lookup by address): a callback or a
 * collector handed people's details. An invite's guests, a composer's recipients, a login hint pass.
 */
export function contactsInQuery(url: URL): boolean {
  if (url.search.length < 20 || url.search.length > 16384 || /^api\d{0,2}\./i.test(url.hostname)) return false;
  const seen = new Set<string>();
  for (const [k, v] of url.searchParams) {
    if (RECIPIENT_KEYS.test(k) || v.length > 2048) continue;
    CONTACT.lastIndex = 0;
    for (let m, n = 0; (m = CONTACT.exec(v)) !== null && n < 16; n++) seen.add(m[0].replace(/[ .()-]/g, "").toLowerCase());
    if (seen.size >= 2) return true;
  }
  return false;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A secret spelled in a path segment                                                                                 */
/* ------------------------------------------------------------------------------------------------------------------ */

const SLUG_SECRET = /(?:^|\s)[a-z]{0,16}(?:secret|psk|passkey|pin|key)\s(?:is|was|=)\s(\S{8,64})(?:\s|$)/i;

/**
 * A secret spelled in words in one path segment (`radius-secret-is-Wh1teH0rse#R26`, `wifi-psk-is-…`): the word, then a
 * value with lower case, upper case and a digit. `the-secret-is-out-2026`, `the-key-is-consistency` pass.
 */
export function slugSecret(segment: string): boolean {
  if (segment.length > 256) return false;
  const m = SLUG_SECRET.exec(segment.replace(/[-_+.]+/g, " ").trim());
  if (!m) return false;
  const v = m[1] as string;
  return /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v);
}
