import { dataFileName, personalDrive } from "./exfil-storage.js";
import { entropy } from "./entropy.js";
import { luhn } from "./pii.js";
import { ibanValid } from "./pii-checks.js";
import { markedDocument } from "./exfil-marked.js";
import { localHost } from "./local-hosts.js";
import { argumentNames, type Detection, type StringSite } from "./scan.js";
import { exportFile, fileRequestLink } from "./exfil-handed.js";
import { formValue } from "./urls.js";

/*
 * (Tenth round, "exc10") What an outbound call carries, where the URL alone says nothing (docs/detection.md, "Tenth
 * round: exfiltration by what a call carries"). Three structures:
 *
 * - **Identity, payment or credentials in words in a URL**: a requested URL whose decoded path or query states a
 *   password, a passport or ID number, a PIN or an account ("…/smtp-password-is-Tr0ub4dor…", `?ref=user said passport
 *   number is C7H2…`) or holds a payment card number (Luhn, a card network's prefix, not a published test number). A
 *   search for "password reset", an article slug "why-your-password-is-too-short", Stripe's test card 4242… pass.
 * - **Files that should never leave, handed to a call that sends**: a password manager's plain export, a mailbox
 *   export, a database dump named for people (hr, payroll, customers, patients…) uploaded to a URL off the machine;
 *   the same, or a document marked confidential (board deck, cap table, "confidential"), attached to an e-mail — the
 *   export and the mailbox to any recipient, the people and the confidential documents to a personal mailbox
 *   (gmail, outlook, proton…). A screen recording to transfer.sh, an invoice to a client, an encrypted KeePass
 *   database to the user's WebDAV, a schema dump to a colleague pass.
 * - **More that a payload can carry** (used by the relay and drop judgements, exfil-relays.ts): one-time codes, a
 *   cloud service account's key file, a database password on a command line, a provider's live key, an IBAN checked
 *   by its mod-97 digits (the short ones, Norway's 15 characters, too).
 *
 * Linear: bounded regexes, at most 64 KB of a value read, at most 32 file arguments per call.
 */

const MAX_TEXT = 65_536;

/** Card numbers the networks and processors publish for tests: documentation, never a card. */
const TEST_CARDS = new Set([
  "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210", "5105105105105100",
  "378282246310005", "371449635398431", "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667",
  "3566002020360505", "6200000000000005", "4111111111111111", "4012888888881881", "4222222222222", "5431111111111111",
  "4000000000000002", "4000000000009995", "4000002500003155", "4000000000000077", "4000000000003220", "6011000000000004",
]);
const CARD_RUN = /(?<![\d.])\d(?:[ -]?\d){12,18}(?![\d.])/g;
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9]|2))/;

/**
 * (Sixteenth round) The lengths each network issues: American Express 15, Mastercard (51–55, 2221–2720) 16, Visa 13,
 * 16 or 19, Discover and UnionPay 16 to 19. A 15-digit form id starting with 2 (Jotform's) is no card.
 */
const CARD_LENGTH = (d: string): boolean => (/^3[47]/.test(d) ? d.length === 15 : /^(?:5|2)/.test(d) ? d.length === 16 : /^4/.test(d) ? d.length === 13 || d.length === 16 || d.length === 19 : d.length >= 16);

/** A payment card number in a text: a network's prefix, 13 to 19 digits, Luhn, several distinct digits, not a test card. */
export function cardNumberIn(text: string): boolean {
  if (!/\d{4}/.test(text) && !/\d[ -]\d/.test(text)) return false;
  CARD_RUN.lastIndex = 0;
  for (let m, n = 0; (m = CARD_RUN.exec(text)) !== null && n < 64; n++) {
    const digits = m[0].replace(/[ -]/g, "");
    if (digits.length < 13 || digits.length > 19 || !CARD_PREFIX.test(digits) || !CARD_LENGTH(digits) || TEST_CARDS.has(digits)) continue;
    // A run of 13+ digits with a separator pattern other than groups (a phone list, a timestamp pair) is not a card.
    if (/[ -]/.test(m[0]) && !/^\d{4}([ -])\d{4,6}\1\d{4,5}(?:\1\d{1,4})?$/.test(m[0])) continue;
    if (new Set(digits).size < 5) continue;
    if (luhn(digits)) return true;
  }
  return false;
}

const IBAN_RUN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

/** The IBANs of a text whose mod-97 check holds (any country's length, 15 to 34 characters), with their spans. */
export function ibansIn(text: string, max = 64): { start: number; end: number; iban: string }[] {
  const out: { start: number; end: number; iban: string }[] = [];
  IBAN_RUN.lastIndex = 0;
  for (let m, n = 0; (m = IBAN_RUN.exec(text)) !== null && n < max; n++) {
    const s = m[0].replace(/ /g, "");
    if (ibanValid(s)) out.push({ start: m.index, end: m.index + m[0].length, iban: s });
  }
  return out;
}

export function ibanIn(text: string): boolean {
  return ibansIn(text, 64).length > 0;
}

/** A one-time code with its digits: "Bank OTP 482913", "verification code: 118 204". */
const ONE_TIME_CODE = /\b(?:otp|one[- ]time\s{1,3}(?:code|password|passcode|pin)|verification\s{1,3}(?:code|pin)|security\s{1,3}code|(?:2fa|mfa|login|sign-?in|auth(?:entication)?)\s{1,3}code|passcode|tan)\b[^\n\d]{0,30}?(?<!\d)\d{3}[ -]?\d{3}(?!\d)/i;
/** A cloud service account's key file (Google's JSON), however it is escaped. */
const SERVICE_ACCOUNT = /service_account\\{0,3}"[^\n]{0,300}?(?:private_key|client_email)|\bprivate_key_id\\{0,3}"\s{0,3}:/;
/** A database password on a command line (`mysql -pS3cret!`, `sshpass -p 'x1'`): the value with a digit or a symbol. */
const DB_PASSWORD_FLAG = /\b(?:mysql|mysqldump|mariadb|mariadb-dump|mysqladmin)\b[^\n;|&]{0,80}?\s-p(?=[^\s'"]{0,40}[0-9!@#$%^*?~])[^\s'"]{6,40}|\bsshpass\s{1,3}-p\s{0,3}["']?(?=[^\s'"]{0,40}[0-9!@#$%^*?~])[^\s'"]{6,40}/;
/** A provider's live key by its prefix (a paste of a shell history holds them even cut short). */
const LIVE_KEY = /\b(?:sk_live_|rk_live_|ghp_[A-Za-z0-9]{8}|gho_[A-Za-z0-9]{8}|github_pat_|glpat-|xox[abposr]-\d|AKIA[0-9A-Z]{16}|sk-ant-api|sk-proj-)/;

/** What the relay judgement reads beyond its own words: null, or a few words for the finding. */
export function morePayload(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (SERVICE_ACCOUNT.test(t) || DB_PASSWORD_FLAG.test(t) || LIVE_KEY.test(t)) return "credentials";
  if (ONE_TIME_CODE.test(t)) return "a one-time code";
  if (ibanIn(t) || cardNumberIn(t)) return "payment details";
  return null;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* Identity, payment or credentials in words, in a URL                                                              */
/* -------------------------------------------------------------------------------------------------------------- */

/** "passport number is C7H2K9L1", "smtp password is Tr0ub4dor", "pin: 4821x": the thing, a verb or sign, a value. */
const STATED = /\b(?:passport|ssn|social\s(?:security|insurance)|national\s(?:id|insurance)|id\scard|driver'?s?\slicen[cs]e|tax\s(?:id|number)|password|passwd|passcode|passphrase|pin|cvv|cvc|card|iban|account|routing|sort\scode|bank\slogin|seed\sphrase)(?:\s(?:number|no|nr|code|num))?\s(?:is|was|are|=|:)\s{1,2}(\S{4,40})/gi;
const NOT_VALUE = /^(?:the|a|an|not|never|on|in|at|too|your|my|their|required|optional|missing|invalid|wrong|expired|reset|changed|stored|hashed|set|empty|null|none|here|below|above)$/i;

function statedValue(text: string): boolean {
  STATED.lastIndex = 0;
  for (let m, n = 0; (m = STATED.exec(text)) !== null && n < 16; n++) {
    const v = (m[1] as string).replace(/[.,;:!?)]+$/, "");
    if (NOT_VALUE.test(v) || /^[<{[$*x]/.test(v)) continue;
    // A value: letters and digits mixed, or digits of some length, or a symbol inside.
    // (Not "3D-secure", "2fa": one leading digit of a word.)
    const digits = v.replace(/\D/g, "").length;
    if (digits >= 4 || (digits > 0 && /[!@#$%^*?~]/.test(v)) || (/[A-Za-z]/.test(v) && (digits >= 2 || /\D\d/.test(v)))) return true;
  }
  return false;
}

/**
 * What a requested URL states in its path or query: null, or a few words. `allowed` is the session's allow list;
 * local hosts are never judged.
 */
export function urlStatesData(raw: string, allowed: (host: string) => boolean): string | null {
  if (raw.length > 8192 || raw.length < 24) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase();
  if (localHost(host) || allowed(host)) return null;
  const pieces: string[] = [];
  for (const seg of url.pathname.split("/")) if (seg.length >= 12) pieces.push(formValue(seg).replace(/[-_]+/g, " "));
  for (const [k, v] of url.searchParams) {
    // A bare run of digits is an id (an order, a snowflake) unless its key names a card.
    if (/^\d{13,19}$/.test(v) && !/card|^cc|^pan$|ccnum/i.test(k)) continue;
    if (v.length >= 12) pieces.push(v);
  }
  if (url.hash.length >= 12) pieces.push(formValue(url.hash.slice(1)));
  for (const p of pieces) {
    if (statedValue(p)) return "personal data or a credential in words";
    if (cardNumberIn(p)) return "a payment card number";
  }
  return null;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* Files that should never leave                                                                                    */
/* -------------------------------------------------------------------------------------------------------------- */

/** A password manager's plain export (not its encrypted vault: a `.kdbx` synced to the user's WebDAV is ordinary). */
const SECRET_STORE = /(?:bitwarden|lastpass|1password|dashlane|keeper|nordpass|enpass|roboform|protonpass|proton_pass)[\w .-]{0,40}\.(?:csv|json|txt|1pux|1pif|zip)$|\.(?:1pux|1pif)$|(?:^|[/\\_-])(?:chrome|firefox|edge|brave|browser)?[_-]?(?:passwords?|logins?)(?:[_-][\w-]{0,30})?\.(?:csv|json|txt|xlsx?)$/i;
/** A mailbox export. */
const MAILBOX = /\.(?:mbox|pst|ost|olm)(?:\.(?:gz|zip|xz))?$|(?:^|[/\\_-])(?:mailbox|inbox|mail|email)[_-](?:export|backup|archive|dump)[\w.-]{0,30}$/i;
/** A database dump named for people. */
const PEOPLE_DUMP = /(?:^|[/\\_.-])(?:hr|payroll|salar\w{0,4}|employees?|staff|customers?|clients?|patients?|users?|members?|crm|contacts?|accounts?|personnel)(?:[_.-][\w.-]{0,40})?\.(?:sql|dump|bak|pgdump|sqlite3?)(?:\.(?:gz|bz2|xz|zst|zip|7z))?$/i;
/** A document marked confidential, or one whose kind is (a board deck, a cap table, payroll). */
const CONFIDENTIAL_DOC = /confiden[ct]ial|vertraulich|confidentiel|riservat|board[ _-]?(?:deck|pack|minutes)|cap[ _-]?table|term[ _-]?sheet|(?:payroll|salar(?:y|ies)|layoffs?)[\w .-]{0,30}\.(?:csv|tsv|xlsx?|ods)$/i;
/** An export of people's records: a people word, then only export-like words, dates or numbers (not `customers_template.csv`). */
const PEOPLE_EXPORT = /(?:^|[_ .-])(?:customers?|clients?|contacts?|employees?|patients?|members?|subscribers?|leads|users|staff)(?:[_ .-]{1,2}(?:list|export|data|all|full|backup|dump|table|master|db|database|records|prod|crm|q[1-4]|\d{1,8}|[a-z]{3}\d{2,4})){0,4}\.(?:csv|tsv|xlsx?|vcf)$/i;

/**
 * (Eleventh round) A capture of traffic or memory: a packet capture, a browser's HAR (every request's cookies and
 * tokens), a heap or crash dump (whatever the process held). Treated as a confidential document.
 */
const CAPTURE = /\.(?:pcap|pcapng|cap|har|hprof|dmp|mdmp)(?:\.(?:gz|zip|xz|zst|7z))?$|(?:^|[/\\])core\.\d{1,7}$/i;

/** Arguments that name a file a call sends. */
const FILE_KEY = /^(?:path|paths|file|files|file_?path|file_?name|filename|local_?(?:path|file)|source|src|attachment|attachments|attach|upload|document|documents)$/i;
/** Arguments that name who receives a message. */
const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|email|to_?address|send_?to|addresses)$/i;
/** Arguments that name where data goes. */
const URL_KEY = /^(?:url|uri|endpoint|destination|target|upload_?url|put_?url|dest)$/i;
const ADDRESS = /[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6})/g;
/** Personal mailbox providers, by a label of the domain (any suffix). */
const PERSONAL_MAIL = new Set(["gmail", "googlemail", "yahoo", "ymail", "outlook", "hotmail", "live", "msn", "icloud", "aol", "proton", "protonmail", "pm", "gmx", "yandex", "zoho", "tutanota", "tuta", "fastmail", "hey", "mailfence", "web", "qq", "163", "naver",
  // (Twenty-third round) national free-mail providers: Czech, Polish, Italian, French, German, Russian, Indian, Korean, Bulgarian.
  "seznam", "wp", "onet", "interia", "libero", "virgilio", "laposte", "t-online", "freenet", "rambler", "rediffmail", "hanmail", "abv",
  // (Twenty-fourth round) Ukrainian, and the independent personal providers.
  "ukr", "mailbox", "posteo", "disroot", "riseup"]);

/** A host that is this machine or its network: the one shared list (local-hosts.ts). */
export { localHost };

/** The domains of the e-mail addresses in a text, the first `max` of them. */
export function mailDomains(text: string, max = 32): string[] {
  const out: string[] = [];
  ADDRESS.lastIndex = 0;
  for (let m; out.length < max && (m = ADDRESS.exec(text)) !== null; ) out.push(m[1] as string);
  return out;
}

export function personalMailbox(domain: string): boolean {
  const labels = domain.toLowerCase().split(".");
  // (`web.de` and `mail.ru`-like names: the label before the suffix; `gmail.example`: the first of two.)
  return labels.slice(0, -1).some((l) => PERSONAL_MAIL.has(l));
}

interface SentFile {
  site: StringSite;
  kind: "store" | "mailbox" | "dump" | "confidential" | "people" | "capture" | "export";
}

export function fileKind(v: string): SentFile["kind"] | null {
  if (v.length > 1024) return null;
  const base = v.replace(/[?#].*$/, "");
  if (SECRET_STORE.test(base)) return "store";
  if (MAILBOX.test(base)) return "mailbox";
  if (PEOPLE_DUMP.test(base)) return "dump";
  const name = base.split(/[/\\]/).pop() ?? base;
  if (CONFIDENTIAL_DOC.test(name) && /\.\w{2,5}$/.test(name)) return "confidential";
  // (Fifteenth round) A document a court or a records office marked: in a `sealed`/`unredacted`/`privileged` folder, or so named (exfil-marked.ts).
  if (markedDocument(base) && /\.\w{2,5}$/.test(name)) return "confidential";
  if (CAPTURE.test(base)) return "capture";
  if (PEOPLE_EXPORT.test(name)) return "people";
  // (Fourteenth round) A file in a system's export folder (exfil-handed.ts).
  if (exportFile(base)) return "export";
  return null;
}

const KIND_WORDS: Record<SentFile["kind"], string> = {
  store: "a password manager's export",
  mailbox: "a mailbox export",
  dump: "a database dump of people's records",
  confidential: "a confidential document",
  people: "an export of people's records",
  capture: "a capture of traffic or memory",
  export: "a system's data export",
};

/**
 * A tool call that sends a file that should not leave: to a URL off the machine (an upload), or to a recipient (an
 * e-mail). The finding is the file argument.
 */
export function sentFiles(sites: readonly StringSite[], allowed: (host: string) => boolean, tool = ""): Detection[] {
  const files: SentFile[] = [];
  // A call that brings a file here (a download to a local path) sends nothing, whatever the file is.
  const fetches = /download|fetch|pull|import|restore|clone|mirror_?from|^get_|_get$|^read/i.test(tool);
  let method = "";
  let recipients: string[] | null = null;
  let upload: string | null = null;
  let fileRequest = false;
  let drive = false;
  const dataFiles: StringSite[] = [];
  const fileSites: StringSite[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.path.includes("_meta")) continue;
    // The argument's own name, or its array's (`attachments: [...]`), or an object's inside (`attachments[0].path`).
    const { key, top } = argumentNames(site);
    const v = site.value;
    // (Issue 25, perf30) A file argument's kind is read below, once the call is known to send somewhere.
    if (FILE_KEY.test(key) || FILE_KEY.test(top)) fileSites.push(site);
    if (RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(top)) {
      const domains = mailDomains(v);
      if (domains.length > 0) (recipients ??= []).push(...domains);
    }
    if (key === "method" && site.path.length === 3) method = v.trim().toUpperCase();
    if (upload === null && !fetches && URL_KEY.test(key) && /^https?:\/\//i.test(v)) {
      try {
        const u = new URL(v);
        const h = u.hostname.toLowerCase();
        if (!localHost(h) && !allowed(h)) upload = h;
        fileRequest = fileRequestLink(h, u.pathname);
        drive = personalDrive(h, u.pathname);
      } catch {
        /* not a URL */
      }
    }
  }
  if (method === "GET" || method === "HEAD") upload = null;
  // (Issue 25, perf30) A call that neither uploads nor mails sends no file: its files' kinds (a dozen expressions per
  // file argument) are not read. Otherwise they are read as before, in the arguments' order, 32 of each at most.
  if (recipients === null && upload === null) return [];
  for (const site of fileSites) {
    if (files.length >= 32) break;
    const kind = fileKind(site.value.trim());
    if (kind) files.push({ site, kind });
    // (exf28) A data file by its name, for a personal cloud drive (exfil-storage.ts).
    else if (dataFiles.length < 32 && dataFileName(site.value)) dataFiles.push(site);
  }
  const out: Detection[] = [];
  if (upload !== null && drive) for (const site of dataFiles) out.push({ type: "exfiltration.request", path: site.path, start: 0, end: site.value.length, detail: `the call sends a data file to a personal cloud drive (${upload})` });
  if (files.length === 0 || (recipients === null && upload === null)) return out;
  const personal = recipients !== null && recipients.some(personalMailbox);
  const outside = recipients !== null && recipients.some((d) => !localHost(d.toLowerCase()));
  for (const f of files) {
    const anywhere = f.kind === "store" || f.kind === "mailbox";
    // (Fourteenth round) A file-request link is an inbox owned by whoever made it: an export or records there leave.
    const hit = upload !== null ? anywhere || f.kind === "dump" || ((fileRequest || drive) && f.kind !== "capture") : anywhere ? outside : personal;
    if (hit) out.push({ type: "exfiltration.request", path: f.site.path, start: 0, end: f.site.value.length, detail: `the call sends ${KIND_WORDS[f.kind]}${upload !== null ? ` to ${upload}` : recipients !== null && personal ? " to a personal mailbox" : " by e-mail"}` });
  }
  return out;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* Relays' query values, and data stores                                                                            */
/* -------------------------------------------------------------------------------------------------------------- */

/** A base32 secret (a TOTP seed): 16 characters or more of A–Z and 2–7, digits among them, not a word. */
export function base32Secret(v: string): boolean {
  if (v.length < 16 || v.length > 128 || !/^[A-Z2-7]+=*$/.test(v)) return false;
  const digits = v.replace(/[^2-7]/g, "").length;
  return digits >= 2 && entropy(v) >= 3.0;
}

/** What a relay's own query carries (a form back-end's `entry.N=` values): a base32 secret, or a sensitive payload. */
export function relayQueryPayload(url: URL, judge: (text: string) => string | null): string | null {
  const values: string[] = [];
  for (const [key, value] of url.searchParams) {
    if (/^(?:sig|signature|sp|sv|se|api-version|code|key|token|threadKey|submit|usp|fbzx|pageHistory|hl)$/i.test(key)) continue;
    if (base32Secret(value)) return "a one-time-password seed";
    values.push(value);
  }
  return values.length > 0 ? judge(values.join("\n")) : null;
}

/**
 * Data stores reached by HTTP for somebody's account (Airtable, Google Sheets, Notion, Supabase, Firebase) and
 * analytics ingestion for somebody's project (Mixpanel, Segment, Amplitude, PostHog): filling one with people's rows or
 * profiles is what they are for, so only credentials, payment details, one-time codes or text marked confidential count.
 */
const STORES: { host: RegExp; path: RegExp }[] = [
  { host: /^api(?:-eu|-in)?\.mixpanel\.com$/, path: /^\/(?:import|track|engage|groups)\b/ },
  { host: /^api\.segment\.io$|^events\.eu1\.segmentapis\.com$/, path: /^\/v1\// },
  { host: /^api2\.amplitude\.com$|^api\.eu\.amplitude\.com$/, path: /./ },
  { host: /^(?:us|eu)\.i\.posthog\.com$|^app\.posthog\.com$/, path: /^\/(?:capture|batch|e|i)\b/ },
  { host: /^api\.airtable\.com$/, path: /^\/v0\// },
  { host: /^sheets\.googleapis\.com$/, path: /^\/v4\/spreadsheets\// },
  { host: /^api\.notion\.com$/, path: /^\/v1\/(?:pages|blocks|databases)/ },
  { host: /^[a-z0-9-]{1,63}\.supabase\.co$/, path: /^\/rest\/v1\// },
  { host: /^[a-z0-9-]{1,63}(?:-default-rtdb)?\.firebaseio\.com$/, path: /./ },
  { host: /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})?\.firebasedatabase\.app$/, path: /./ },
];

export function isStore(host: string, path: string): boolean {
  return STORES.some((s) => s.host.test(host) && s.path.test(path));
}
