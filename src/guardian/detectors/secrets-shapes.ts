import { entropy } from "./entropy.js";
import { literalId, type MessageLiterals } from "./literals.js";
import { credentialShaped } from "./secrets-context.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Eleventh round, "tps11") Credentials recognised by the shape a service gives them or the place a protocol puts
 * them, where neither a published prefix nor a credential noun right before the value says so
 * (docs/detection.md, "Eleventh round: secrets by their shape and place"):
 *
 * 1. **An Authorization header under any scheme** (`secrets.authorization_credential`): `Authorization: Splunk <uuid>`,
 *    `Authorization: Bot <token>`, `Authorization: Klaviyo-API-Key pk_…` — RFC 7235's `auth-scheme token68`: whatever
 *    the scheme word, the value of an Authorization header is the credential. Read in a header object's field named
 *    `Authorization` / `Proxy-Authorization` (the whole value) and after the header's name in text (`-H 'Authorization:
 *    …'`). Hex and UUIDs count here (nothing else goes in that header). SigV4's `Credential=…, Signature=…` (a per-request
 *    signature and a key id), Digest's `username="…"` and fillers do not.
 * 2. **A key passed by keyword to a login call** (`secrets.credential`): `wandb.login(key="…")`,
 *    `client.authenticate(api_key='…')`, `hub.login(token="…")` — the call says what the value is; hex counts.
 * 3. **An app password in its groups** (`secrets.app_password`): WordPress application passwords (six groups of four),
 *    Google and Apple app-specific passwords (four groups of four, spaces or hyphens), after a password noun ("Application
 *    password: abcd EFGH …", "app password is …"). Card numbers (all digits), runs and sequences that mark a placeholder
 *    (`xxxx xxxx`, `abcd efgh ijkl mnop`), and words ("must have more than") do not count.
 * 4. **An API credential in a link's query** (`secrets.credential`): `?wstoken=…`, `&private_token=…`, `?api_key=…`,
 *    `access_token=…` in a link written inside text (a chat post, an e-mail, a file, a tool's reply) — the link hands
 *    over the account's key. A link that is the whole argument (a fetch of the user's own API) is judged by the
 *    exfiltration detectors as before; reset, invite and unsubscribe links' bare `token=`, a Maps `key=`, and signed
 *    links' signatures are not named here.
 *
 * Linear: literal searches (`uthorization`, `password`, `passcode`, `://`), bounded sticky expressions at each hit,
 * at most MAX_HITS hits per literal and string, in the first REACH characters of a long string.
 */

const MAX_HITS = 32;
const REACH = 16_384;
const FILLER = /EXAMPLE|example|x{5,}|X{5,}|\*{3,}|\.\.\.|dummy|DUMMY|fake|FAKE|placeholder|PLACEHOLDER|your[-_]|YOUR[-_]|redacted|REDACTED|changeme|(.)\1{5,}/;

/**
 * Each occurrence of `literal` in `v` (at most MAX_HITS), in order. (Issue 25, perf30) An array, not a generator:
 * a call's strings are searched for seven literals each and hold none of them mostly, and a generator object per
 * search cost more than the search.
 */
function occurrences(v: string, literal: string): readonly number[] {
  let at = v.indexOf(literal);
  if (at < 0) return NONE;
  const out: number[] = [];
  for (let n = 0; at >= 0 && n < MAX_HITS; at = v.indexOf(literal, at + literal.length), n++) out.push(at);
  return out;
}
const NONE: readonly number[] = Object.freeze([]);

/* --- 1. Authorization header, any scheme ----------------------------------------------------------------------- */

const HEADER_NAME = /^(?:proxy-)?authorization$/i;
/** The scheme and the credential (the credential ends the value, a quote, or a line). */
const SCHEME_VALUE = /([A-Za-z][A-Za-z0-9_-]{1,31}) {1,4}([A-Za-z0-9._~+/-]{16,1024}={0,2})(?=$|["'`\s\\])/y;
/** After the header's name in text: `Authorization: `, `"Authorization": "`, `authorization=`. */
const AFTER_HEADER = /authorization["']?\s{0,4}[:=]\s{0,4}["']?/iy;
/**
 * Schemes left to others: those the format rule reads (secrets.ts: `Bearer`, `Basic` only when it decodes to
 * `user:password`, `SSWS`, `Token`…), and those whose value is no credential of its own: SigV4 (a request's
 * signature), Digest (parameters).
 */
const NOT_A_CREDENTIAL_SCHEME = /^(?:AWS4-HMAC-SHA256|AWS4|Digest|HOBA|Mutual|vapid|Basic|Bearer|SSWS|Api-Token|Token|ApiKey|Api-Key|GenieKey|Key)$/i;

function credentialAfterScheme(scheme: string, cred: string): boolean {
  if (NOT_A_CREDENTIAL_SCHEME.test(scheme) || FILLER.test(cred)) return false;
  if (!/[0-9]/.test(cred) || !/[A-Za-z]/.test(cred)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(cred)) return true;
  return credentialShaped(cred, true);
}

function authorizationHeaders(site: StringSite, found: Detection[], lits: MessageLiterals | null): void {
  const v = site.value;
  let k = site.path.length - 1;
  while (k >= 0 && typeof site.path[k] === "number") k--;
  const key = site.path[k];
  if (typeof key === "string" && HEADER_NAME.test(key) && v.length <= 2048) {
    SCHEME_VALUE.lastIndex = 0;
    const m = SCHEME_VALUE.exec(v.trimStart());
    const lead = v.length - v.trimStart().length;
    if (m !== null && credentialAfterScheme(m[1] as string, m[2] as string)) {
      const start = lead + m[0].length - (m[2] as string).length;
      found.push({ type: "secrets.authorization_credential", path: site.path, start, end: start + (m[2] as string).length });
    }
    return;
  }
  // (perf31) Not searched for where the message's literal pass proves it absent (in any case).
  if (lits !== null && !lits.any(UTHORIZATION)) return;
  for (const at of occurrences(v, "uthorization")) {
    AFTER_HEADER.lastIndex = at - 1;
    if (at === 0 || !AFTER_HEADER.test(v)) continue;
    SCHEME_VALUE.lastIndex = AFTER_HEADER.lastIndex;
    const m = SCHEME_VALUE.exec(v);
    if (m === null || !credentialAfterScheme(m[1] as string, m[2] as string)) continue;
    const end = SCHEME_VALUE.lastIndex;
    found.push({ type: "secrets.authorization_credential", path: site.path, start: end - (m[2] as string).length, end });
  }
}

/* --- 2. A key passed by keyword to a login call ------------------------------------------------------------------ */

/** A login call's opening: `.login(`, `.authenticate(`, `.sign_in(`… */
const LOGIN_CALL = /\.(?:login|log_in|auth|authenticate|authorize|sign_in|signin|connect|configure)\(/g;
/** In its argument list (at most 300 characters, to the first `)`): a credential keyword and a quoted value. */
const CREDENTIAL_KEYWORD = /(?:^|[\s,(])(?:key|api_key|apikey|token|access_token|secret|password|relogin_key)\s{0,2}=\s{0,2}["']([A-Za-z0-9_.~+/=-]{16,256})["']/;

function loginKeywords(site: StringSite, found: Detection[]): void {
  const v = site.value;
  if (!v.includes("=")) return;
  LOGIN_CALL.lastIndex = 0;
  for (let m, n = 0; (m = LOGIN_CALL.exec(v)) !== null && n < MAX_HITS; n++) {
    const from = m.index + m[0].length;
    let to = v.indexOf(")", from);
    if (to < 0 || to - from > 300) to = Math.min(v.length, from + 300);
    const args = v.slice(from, to);
    const k = CREDENTIAL_KEYWORD.exec(args);
    if (k === null) continue;
    const value = k[1] as string;
    if (!credentialShaped(value, true)) continue;
    const end = from + k.index + k[0].length - 1;
    found.push({ type: "secrets.credential", path: site.path, start: end - value.length, end });
  }
}

/* --- 3. App passwords in their groups ------------------------------------------------------------------------------ */

/** After a password noun: a separator or "is", then four to eight groups of four letters and digits. */
const GROUPED = /(?:["']?\s{0,3}(?:[:=]|is|was|->)\s{0,3}|\s{1,3})["'`]?([A-Za-z0-9]{4}(?:[ -][A-Za-z0-9]{4}){3,7})(?![A-Za-z0-9-])/y;
const NAMED_THEN_GROUPED = /[^\n.!?:=]{1,60}?(?:[:=]|\bis)\s{0,3}["'`]?([A-Za-z0-9]{4}(?:[ -][A-Za-z0-9]{4}){3,7})(?![A-Za-z0-9-])/y;
const NOUNS = ["password", "Password", "PASSWORD", "passcode", "Passcode"];
/** (perf31) The nouns for the literal prefilter (in any case: each of NOUNS is one of these). */
const NOUN_IDS = ["password", "passcode"].map(literalId);
const UTHORIZATION = [literalId("uthorization")];
/** What liveSecretKeys' two tests look for (in any case), for the literal prefilter. */
const LIVE_IDS = ["live", "prod"].map(literalId);
const SECRET_IDS = ["sk", "secret"].map(literalId);

function sequential(g: string): boolean {
  const a = g.toLowerCase();
  for (let i = 1; i < a.length; i++) if (a.charCodeAt(i) !== a.charCodeAt(i - 1) + 1) return false;
  return true;
}

export function groupedPassword(value: string): boolean {
  const groups = value.split(/[ -]/);
  const chars = groups.join("");
  if (/^[0-9]+$/.test(chars) || FILLER.test(chars) || new Set(chars.toLowerCase()).size < 9) return false;
  if (groups.filter(sequential).length >= 2 || groups.some((g) => /^(.)\1{3}$/.test(g))) return false;
  // (One separator throughout: a sentence's words do not come four letters at a time with the same separator.)
  if (/ /.test(value) && /-/.test(value)) return false;
  const upper = /[A-Z]/.test(chars);
  const lower = /[a-z]/.test(chars);
  const digit = /[0-9]/.test(chars);
  if ((upper && lower) || ((upper || lower) && digit)) return true;
  // One case of letters only (Google's and Apple's app passwords): random groups lack vowels; words ("must have more than") do not.
  return groups.filter((g) => !/[aeiouyAEIOUY]/.test(g)).length >= 2;
}

/** (Twelfth round) A user and its app password in a client's basic-auth option: `curl -u editor:"abcd EFGH …"`, `--user`. */
const BASIC_AUTH_GROUPED = /(?:^|[\s'"])(?:-u|--user)(?:[ \t]{1,4}|=)["']?[^\s:"'$]{1,64}:["']?([A-Za-z0-9]{4}(?:[ -][A-Za-z0-9]{4}){3,7})(?![A-Za-z0-9-])/g;

function appPasswords(site: StringSite, found: Detection[], lits: MessageLiterals | null): void {
  const v = site.value;
  if (v.length < 24) return;
  if (v.includes("-u") && v.length <= 65536) {
    BASIC_AUTH_GROUPED.lastIndex = 0;
    for (let m, n = 0; (m = BASIC_AUTH_GROUPED.exec(v)) !== null && n < 16; n++) {
      const value = m[1] as string;
      if (!groupedPassword(value)) continue;
      const end = m.index + m[0].length;
      found.push({ type: "secrets.app_password", path: site.path, start: end - value.length, end });
    }
  }
  if (lits !== null && !lits.any(NOUN_IDS)) return;
  for (const noun of NOUNS) {
    for (const at of occurrences(v, noun)) {
      GROUPED.lastIndex = at + noun.length;
      let m = GROUPED.exec(v);
      // (Or named first: `application password "ci-deploy" for editor-bot: …`, on the same line and sentence.)
      if (m === null) {
        NAMED_THEN_GROUPED.lastIndex = at + noun.length;
        m = NAMED_THEN_GROUPED.exec(v);
      }
      if (m === null) continue;
      const value = m[1] as string;
      if (!groupedPassword(value)) continue;
      const end = m.index + m[0].length;
      found.push({ type: "secrets.app_password", path: site.path, start: end - value.length, end });
    }
  }
}

/* --- 4. An API credential in a link's query, inside text -------------------------------------------------------- */

/** Query keys that name an account's API credential (not a bare `token` or `key`: reset links and Maps keys). */
const CREDENTIAL_QUERY_KEY = /[?&#](?:wstoken|ws_token|private_token|privatetoken|access_token|accesstoken|auth_token|authtoken|api_key|apikey|api_token|apitoken|app_secret|client_secret|secret_key|session_token|personal_access_token|bot_token)=([A-Za-z0-9_.~+/-]{16,512}={0,2})(?=$|[&#\s"'`)<>\]])/gi;
const URL_AT = /https?:\/\/[^\s"'`<>]{1,2048}/y;

function linkCredentials(site: StringSite, found: Detection[]): void {
  const v = site.value;
  for (const at of occurrences(v, "://")) {
    const start = v.lastIndexOf("http", at);
    if (start < 0 || at - start > 5) continue;
    URL_AT.lastIndex = start;
    const u = URL_AT.exec(v);
    if (u === null) continue;
    // The link is the whole string (a fetch's `url`): the exfiltration and audience judgements read it.
    if (start === 0 && URL_AT.lastIndex >= v.trimEnd().length) continue;
    CREDENTIAL_QUERY_KEY.lastIndex = 0;
    for (let m; (m = CREDENTIAL_QUERY_KEY.exec(u[0])) !== null; ) {
      const value = decodeSafe(m[1] as string);
      if (FILLER.test(value) || !credentialShaped(value, true)) continue;
      const end = start + m.index + m[0].length;
      found.push({ type: "secrets.credential", path: site.path, start: end - (m[1] as string).length, end });
    }
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** This module's findings in one string, added to `found` (the caller keeps overlapping findings apart). */
/**
 * `lits` (perf31): the literal pass of the strings `site` is one of (literals.ts), when the message is short: searches
 * for a literal it proves absent are skipped (the same findings).
 */
export function detectShapedCredentials(site: StringSite, found: Detection[], lits: MessageLiterals | null = null): void {
  const v = site.value;
  if (v.length < 16) return;
  // In a long string, its first REACH characters (as secrets-context.ts reads its weak signals): these credentials are
  // pasted into a message or a file, not buried in a megabyte, and a megabyte's literal searches would cost more than
  // every other secret rule's.
  const head = v.length > REACH ? { ...site, value: v.slice(0, REACH) } : site;
  authorizationHeaders(head, found, lits);
  loginKeywords(head, found);
  appPasswords(head, found, lits);
  if (head.value.includes("://")) linkCredentials(head, found);
  if (lits === null || (lits.any(LIVE_IDS) && lits.any(SECRET_IDS))) liveSecretKeys(head, found);
}

/*
 * (Twentieth round, "sec20") A key that says of itself it is a live secret key: a prefix pairing `sk` or `secret` with
 * `live` or `prod`, in either order (`live_sk_…`, `sk_prod_…`, `secret-live-…`), then a random run. Whatever the
 * service and whatever the language of the sentence around it (a test key's `test_sk_` is not one).
 */
const LIVE_SECRET = /(?<![A-Za-z0-9])(?:(?:live|prod)[_-](?:sk|secret)|(?:sk|secret)[_-](?:live|prod))[_-]([A-Za-z0-9]{20,128})(?![A-Za-z0-9])/gi;

function liveSecretKeys(site: StringSite, found: Detection[]): void {
  const v = site.value;
  if (!/live|prod/i.test(v) || !/sk|secret/i.test(v)) return;
  LIVE_SECRET.lastIndex = 0;
  for (let m, n = 0; (m = LIVE_SECRET.exec(v)) !== null && n < 16; n++) {
    const tail = m[1] as string;
    if (!/[A-Z]/.test(tail) || !/[a-z]/.test(tail) || !/[0-9]/.test(tail) || entropy(tail) < 3.6) continue;
    found.push({ type: "secrets.credential", path: site.path, start: m.index, end: m.index + m[0].length });
  }
}
