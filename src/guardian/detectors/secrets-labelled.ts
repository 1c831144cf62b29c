import { entropy } from "./entropy.js";
import { passwordSpansInWords } from "./exfil-words.js";
import type { Detection, StringSite } from "./scan.js";
import { claimedByFormat } from "./secrets-context.js";

/*
 * (Fourteenth round, "exf14") A credential given by its label in what a call sends to people or a place — a chat
 * message, an e-mail, a ticket's reply, a forum post, a note, a document, a message to another agent — where no
 * vendor's key format says it is one (docs/detection.md, "Fourteenth round: exfiltration (exf14)"):
 *
 * - *a label, then a random value*: a word that names a credential (password, `PWD=`, PSK, secret, client secret, API
 *   key in a few languages, REST/access/deploy key, refresh/access/bearer token) followed on the same line, after a
 *   separator or a few words, by a value that is random-looking (three character classes and high entropy, hex of 32
 *   or more, or a UUID after an API key's label). Not a value after a hash's word (a fingerprint, a checksum, a
 *   commit), not a URL, an address, a placeholder, an example ("e.g."), not a label inside a URL;
 * - *a login pair*: `admin: hciadmin / M3rcy#Intf` — a user name, a slash, and a password with letters and a digit
 *   or a symbol;
 * - *a `.pgpass` line*: `host:port:database:user:password`.
 *
 * Only where text is sent, not run or called: a call with a URL argument (an API's request, whose body carries its own
 * key), a command, code, headers and a file written to a path are left to their own checks (a key in a workflow file, a
 * body's `api_key` to an API).
 *
 * Linear: bounded regexes, a 200-character window per label, 64 KB of a value at most.
 */

const MAX_TEXT = 65_536;

const LABEL =
  /\b(?:passwor[dt]|passwd|pwd|passphrase|passcode|psk|pre-?shared\s{1,3}key|client_?secret|secret|api[\s_-]?(?:key|token|nyckel\w{0,3}|schl(?:ü|ue)ssel|cl[ée]|clave|chiave|sleutel)|(?:rest|access|deploy|admin|master|private|service|secret)[\s_-]?key|(?:refresh|access|bearer|auth|api|deploy|bot|personal\s{1,3}access)[\s_-]?token|(?:jeton|token)\s{1,3}(?:d['’]\s{0,2}|de\s{1,3}|di\s{1,3})?(?:api|acc[eè]s|acceso|acesso|accesso)|bearer|key(?=["']?\s{0,2}[:=]))\b/gi;
/** A value after a label: a run of the characters keys and passwords are made of. */
const VALUE = /[A-Za-z0-9!#$%&*+/=._|:~@^?-]{8,256}/g;
const HASH_WORD = /\b(?:sha\d{0,3}|md5|checksum|digest|fingerprint|hash|commit|id|e\.g\.|example|such\s{1,3}as|for\s{1,3}instance|policy|must|should)\b/i;
const PLACEHOLDER = /^(?:\$\{?|\{\{|<|%|\*{3})|your|xxxx|example|changeme|placeholder|redacted|\*\*\*/i;
/** A JWT's shape: the JWT format judges it (a real one is reported there; jwt.io's sample and public keys are not). */
const JWT_SHAPE = /^eyJ[\w-]{8,4096}\.eyJ[\w-]{8,8192}\.[\w-]{16,1024}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is random-looking: three classes and entropy, or long hex, or long and dense. */
function randomLooking(v: string, label: string): boolean {
  if (v.includes("://") || /^[^@\s]{1,64}@[A-Za-z0-9-]{1,63}\.[A-Za-z.]{2,30}$/.test(v) || PLACEHOLDER.test(v)) return false;
  if (UUID.test(v)) return /api|rest|secret|access/i.test(label);
  if (v.length < 12) return false;
  // Words joined into a passphrase (`bluebird-garden-42`) are a memorable password, not a generated key.
  if (/^[a-z]{3,12}(?:[-_.][a-z]{3,12}){1,5}(?:[-_.]?\d{1,4})?$/i.test(v)) return false;
  if (/^[0-9a-f]{32,}$/i.test(v)) return /[a-f]/i.test(v) && /\d/.test(v);
  // (Twentieth round) A password that is hex was generated, not chosen: 16 digits or more after a password's word.
  if (/^passw|^pwd/i.test(label) && /^[0-9a-f]{16,}$/i.test(v)) return /[a-f]/i.test(v) && /\d/.test(v) && entropy(v) >= 3;
  const classes = Number(/[a-z]/.test(v)) + Number(/[A-Z]/.test(v)) + Number(/\d/.test(v)) + Number(/[^A-Za-z0-9]/.test(v));
  if (classes >= 3 && entropy(v) >= 3.5) return true;
  return v.length >= 32 && entropy(v) >= 4.0;
}

/** A login pair: a user's word, a user name, a slash, a password with a letter and a digit or a symbol. */
const PAIR = /\b(?:admin|user(?:name)?|login|account|svc|service\s{1,3}account|benutzer|usuario|utilisateur)\s{0,3}[:=]?\s{1,3}[A-Za-z][\w.@-]{1,39}\s{0,2}\/\s{0,2}([^\s"'/,;]{8,64})/gi;
/**
 * (Twentieth round) A login pair in words: a user's word and name, then a password's word and the password
 * (`user ops@x.example pass Zr7!kLm2Qp`, `login: kiosk, password Tr4m#61x`).
 */
const PAIR_WORDS = /\b(?:user(?:name)?|login|account|benutzer|usuario|utilisateur)\s{0,3}[:=]?\s{1,3}[A-Za-z][\w.@-]{1,63}[,;]?\s{1,3}(?:pass|pw|pwd|password|passwd)\s{0,3}[:=]?\s{1,3}([^\s"',;]{8,64})/gi;
/** A cheap test before exfil-words.ts's password words: a non-ASCII character, or a Latin-script word's stem. */
const MAYBE_PASSWORD_WORD = /[^\x00-\x7f]|passwort|kennwort|wachtwoord|passe|contrase|senha|parol|haslo|heslo|sifre|senord|passord|adgangskode|salasana|sandi/i;
/** A `.pgpass` line: host, port, database, user, password. */
const PGPASS = /(?:^|["'\s])[A-Za-z0-9.*_-]{1,253}:(?:\d{1,5}|\*):[\w*.-]{1,63}:[\w*.@-]{1,63}:([^\s"':]{6,128})(?=$|["'\s])/gm;

/** Credentials by label in one text: the value's span. `payload`: the text is a request's payload (see below). */
export function labelledSecrets(v: string, payload = false): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (v.length > MAX_TEXT) return out;
  LABEL.lastIndex = 0;
  for (let m, n = 0; (m = LABEL.exec(v)) !== null && n < 64; n++) {
    // In a request's payload, an API key or a token is the request's own authentication (`{"api_key": …}` to the API).
    // Only as a field's key (`"api_key":`, `&token=`): a label in a message's words still counts.
    if (payload && /api|key$|token|bearer/i.test(m[0]) && !/pre-?shared|secret/i.test(m[0]) && /(?:^|["'&?{,\n]\s{0,2})$/.test(v.slice(Math.max(0, m.index - 4), m.index)) && /^["']?\s{0,2}[:=]/.test(v.slice(m.index + m[0].length, m.index + m[0].length + 4))) continue;
    // Not a label inside a URL (`?token=…`) or a word (`secret/data/ci`).
    const before = v.slice(Math.max(0, v.lastIndexOf(" ", m.index) + 1, v.lastIndexOf("\n", m.index) + 1), m.index);
    if (/:\/\/|[?&/]|\w:$|[a-z]-$/i.test(before)) continue;
    // A public key: an SDK's, a publishable one, an SSH key.
    if (/\b(?:public|publishable|sdk|client[\s-]side|ssh)\b[^\n]{0,20}$/i.test(v.slice(Math.max(0, m.index - 24), m.index))) continue;
    // A key that opens nothing: a licence's, a product's, a row's, a public one.
    if (/key/i.test(m[0]) && /\b(?:licen[cs]e|product|serial|activation|registration|primary|foreign|sort|cache|idempotency|partition|public|host|gpg|pgp|ssh|music|map)[\s_-]{0,2}$/i.test(v.slice(Math.max(0, m.index - 20), m.index))) continue;
    let stop = m.index + m[0].length;
    const limit = Math.min(v.length, stop + 200);
    while (stop < limit && v[stop] !== "\n") stop++;
    const window = v.slice(m.index + m[0].length, stop);
    // A network's password on a line that names it (a guest Wi-Fi's) is shared on purpose.
    if (/\b(?:wi-?fi|wlan|ssid|guest\s{1,3}network)\b/i.test(v.slice(Math.max(0, v.lastIndexOf("\n", m.index) + 1), stop))) continue;
    VALUE.lastIndex = 0;
    for (let w, k = 0; (w = VALUE.exec(window)) !== null && k < 12; k++) {
      const raw = w[0];
      const value = raw.replace(/^[=:]+/, "").replace(/[.,;:!?)]+$/, "");
      if (HASH_WORD.test(window.slice(0, w.index))) break;
      // A reference, not a value: a path, an environment or vault reference, code (`os.environ[…]`), an SSH key's blob.
      if (/^[/~.]|^\w{2,10}:(?!\d)|^(?:ssh-|ecdsa-|sk-ssh|AAAA[BC]3NzaC1)/.test(value)) break;
      // (Twenty-second round) A value a published format owns (a JWT, a vendor's prefix, a documented example) is that
      // format's to judge: it reports a real one, and a documented sample is nobody's secret after any label.
      if (JWT_SHAPE.test(value) || claimedByFormat(value)) break;
      if (!randomLooking(value, m[0])) {
        if (/^[a-z_]\w{0,30}\.[a-z_]\w{0,30}$/i.test(value) && /^[\s=:(]{0,3}$/.test(window.slice(0, w.index))) break;
        continue;
      }
      const start = m.index + m[0].length + w.index + (raw.length - raw.replace(/^[=:]+/, "").length);
      out.push({ start, end: start + value.length });
      break;
    }
    if (out.length >= 8) break;
  }
  // (Twentieth round) A password given by its word in another language ("mật khẩu …", "비밀번호 …", "mot de passe …").
  // (Only where one of the words can be: a character outside ASCII, or the Latin-script words' stems.)
  if (MAYBE_PASSWORD_WORD.test(v)) for (const f of passwordSpansInWords(v)) if (!out.some((o) => o.start < f.end && f.start < o.end)) out.push(f);
  for (const re of [PAIR, PAIR_WORDS, PGPASS]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(v)) !== null && n < 32; n++) {
      const secret = (m[1] as string).replace(/[.,;:!?)]+$/, "");
      if (!/[A-Za-z]/.test(secret) || !/[\d!@#$%^&*+=?~]/.test(secret) || PLACEHOLDER.test(secret)) continue;
      const start = m.index + m[0].length - (m[1] as string).length;
      if (!out.some((o) => o.start < start + secret.length && start < o.end)) out.push({ start, end: start + secret.length });
    }
  }
  return out;
}

/** Arguments that are run or called, not sent to people. */
const NOT_SENT = /^(?:command|cmd|commands|script|code|source|query|sql|headers?|url|uri|endpoint|args|argv|env|environment|regex|pattern)$/i;
const URL_VALUE = /^https?:\/\//i;
const FILE_PATH_KEY = /^(?:path|file_?path|filename|file|dest(?:ination)?_?path|target_?path)$/i;
const A2A_SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
const TOOL_CALLS = new Set(["tools/call", "steps/toolCallRequest"]);

/** Whether a message is an outbound call or a message to another agent (the only ones this check reads). */
export function sendsText(message: Record<string, unknown>): boolean {
  return typeof message.method === "string" && "id" in message && (TOOL_CALLS.has(message.method) || A2A_SENDS.has(message.method));
}

/** Whether a call requests a URL or writes a file at a path (its top-level arguments say so). */
function requestsOrWrites(message: Record<string, unknown>): boolean {
  const params = message.params;
  const args = params !== null && typeof params === "object" ? (params as Record<string, unknown>).arguments : undefined;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return false;
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (typeof value !== "string") continue;
    if (URL_VALUE.test(value.trim())) return true;
    if (FILE_PATH_KEY.test(key) && /[/\\]|\.\w{1,8}$/.test(value)) return true;
  }
  return false;
}

/**
 * Labelled credentials in what an outbound call or a message to another agent sends to people or a place. A call that
 * requests a URL or writes a file at a path is left out (see above).
 */
export function detectLabelledSecrets(sites: readonly StringSite[], message: Record<string, unknown>): Detection[] {
  const method = message.method;
  if (typeof method !== "string" || !("id" in message)) return [];
  const tool = TOOL_CALLS.has(method);
  if (!tool && !A2A_SENDS.has(method)) return [];
  // (Twentieth round) Read from the call's own arguments, not from the sites given: a normalised view (a decoded
  // layer of the content) comes without the path argument beside it, and must be left out all the same.
  if (tool && requestsOrWrites(message)) return [];
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path.includes("_meta") || site.path.includes("headers")) continue;
    if (tool && site.path[1] !== "arguments") continue;
    const key = site.path[site.path.length - 1];
    if (typeof key === "string" && NOT_SENT.test(key)) continue;
    if (site.value.length < 12) continue;
    for (const f of labelledSecrets(site.value)) out.push({ type: "secrets.labelled", path: site.path, start: f.start, end: f.end });
  }
  return out;
}

/** The labelled findings that overlap no finding of the formats' (which name the credential better). */
export function withLabelled(found: Detection[], labelled: Detection[]): Detection[] {
  if (labelled.length === 0) return found;
  const out = [...found];
  for (const d of labelled) if (!found.some((x) => x.path.join("\u0000") === d.path.join("\u0000") && x.start < d.end && d.start < x.end)) out.push(d);
  return out;
}
