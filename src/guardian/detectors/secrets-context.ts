import { createHash } from "node:crypto";
import { isCiphertext } from "./ciphertext.js";
import { entropy } from "./entropy.js";
import { literalId, type MessageLiterals } from "./literals.js";
import { indexOfRare } from "./rare-index.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Credentials without a published format, recognised by where they stand and what they look like (issue 24, the
 * secrets round): most providers' keys have no prefix gitleaks knows (`napi_…`, `pat-na1-<uuid>`, a 52-character
 * lower-case PAT, a bare base62 token), and people write them in prose ("use this token for the sync job: …"), in log
 * lines (`token=…`), in JSON fields (`{"secret_key": "<uuid>"}`) and in client calls (`client.login('…')`). Three
 * parts, each general:
 *
 * 1. **A credential named, then a random value** (`secrets.credential`): a credential noun — key, token, secret,
 *    password, passphrase, PAT, credential(s) — as a word in prose or as the last word of a name (`DD_APP_KEY=`,
 *    `"secretKey":`, `ApiTokens: [`), or a client call that takes one (`.login('…')`, `new Resend('…')`), and within a
 *    few words after it a value that looks like a random credential: an optional lower-case prefix and separator
 *    (`napi_`, `pat-na1-`, `xaat-`), then a random body (mixed case and digits, or long lower case and digits, with an
 *    entropy bar; hex and UUIDs only under a noun that says secret, token or password, or a named API/private key).
 *    In a structured message (an A2A data part, a JSON argument) the name is the field's own key.
 * 2. **Self-describing secret formats that are not provider tokens** (`secrets.private_key`, `secrets.otp_secret`):
 *    PuTTY key files' private lines, `otpauth://` URIs' `secret=`, Bitcoin WIF and extended private keys (base58check:
 *    the checksum is verified), minisign secret keys and Tor onion-service secret keys (their fixed headers).
 * 3. **Benign guards**: public-by-design keys (a name or the words before it saying public, publishable, anon, site,
 *    client-side, project; values in public formats: `pk_`, `phc_`, `npub1`, `age1`, Ethereum addresses, `ssh-…`),
 *    key ids and fingerprints (`key_id`, "key ID", "fingerprint", a hash named as such), hashes and checksums, request,
 *    trace and paging ids, placeholders and documented examples (fillers, runs of one character, Google
 *    Authenticator's documented example secret), and identifiers or words (camelCase, kebab words, paths).
 *
 * Linear: one global regex of nouns (no nested quantifiers) per string, a bounded look-ahead of 96 characters at each
 * hit, and bounded value runs (1,024 characters); the base58 runs are found by one greedy regex.
 */

/** A credential noun: a word, or the last word of a name (`secret_key`, `apiKey`, `DD_APP_KEY`). */
const NOUN = /(?:api[ _-]?)?(?:keys?|tokens?|secrets?|passw(?:or)?ds?|passphrases?|pwd|credentials?|PATs?)(?![A-Za-z])/gi;
/** A noun at a place (sticky), without the `api` prefix: a long string's nouns are found from their stems. */
const NOUN_AT = /(?:keys?|tokens?|secrets?|passw(?:or)?ds?|passphrases?|pwd|credentials?|PATs?)(?![A-Za-z])/iy;
/** Where a noun can start: its stem, in any case. */
// (Written with the `p` stems' common letter first: the same matches, a quarter faster over a megabyte in V8.)
const STEMS = /key|token|secret|p(?:ass(?:w|phrase)|wd|at)|credential/gi;
/** Strings at least this long are searched for the nouns' stems first (a plain alternation is far cheaper than the regex). */
const LONG = 4096;

/** The nouns of a string, in order: by the regex in a short string, from the stems' places in a long one. */
function* nouns(v: string): Generator<{ index: number; 0: string }> {
  if (v.length < LONG) {
    NOUN.lastIndex = 0;
    for (let m; (m = NOUN.exec(v)) !== null; ) yield m;
    return;
  }
  // (One case-insensitive pass for every stem: cheaper on a long string than a lower-case copy and a search per stem.)
  STEMS.lastIndex = 0;
  for (let x; (x = STEMS.exec(v)) !== null; ) {
    NOUN_AT.lastIndex = x.index;
    const m = NOUN_AT.exec(v);
    if (m !== null) yield { index: x.index, 0: m[0] };
  }
}

/** Every noun holds one of these (NOUN's alternatives, `passw` for both spellings of password): literals.ts's ids. */
const NOUN_STEMS = ["key", "token", "secret", "passw", "passphrase", "pwd", "credential", "pat"].map(literalId);

/** The same, ending a field's name. */
const NOUN_AT_END = new RegExp(`(?:${NOUN.source})$`, "i");
/** Nouns whose value is a secret whatever its shape (hex, a UUID): secret, password, token, credential, PAT. */
const STRONG_NOUN = /^(?:secret|passw|passphrase|pwd|token|credential|pat)/i;

/** Words before a noun (in its name or the two words of prose before it) that make it something public, or not a credential. */
const NOT_SECRET_BEFORE = new Set([
  "public", "publishable", "pub", "anon", "anonymous", "site", "sitekey", "host", "primary", "foreign", "partition", "sort", "cache",
  "idempotency", "dedupe", "dedup", "deduplication", "page", "paging", "pagination", "next", "prev", "previous", "continuation",
  "cursor", "csrf", "xsrf", "clientside", "browser", "frontend", "embed", "widget", "search", "verification", "verify",
  "confirmation", "invite", "invitation", "reset", "unsubscribe", "tracking", "correlation", "request", "trace", "device",
  "registration", "push", "example", "sample", "dummy", "fake", "placeholder", "masked", "redacted", "truncated", "expired",
  "revoked", "hashed", "max", "min", "num", "total", "usage", "count", "limit", "budget", "input", "output",
  "prompt", "completion", "context", "gpg", "pgp", "ssh", "signature", "verifying", "test", "mock", "demo",
]);
/** Words before a password noun that say its value is no real password. */
const PASSWORD_NOT_SECRET = new Set([
  "example", "sample", "dummy", "fake", "placeholder", "masked", "redacted", "truncated", "expired", "revoked", "hashed",
  "max", "min", "num", "total", "usage", "count", "limit", "test", "mock", "demo",
]);
/** Words before a `key` or `token` (not a secret or password) that make it public: the client-side and project keys. */
const PUBLIC_WITH_KEY = new Set(["client", "project", "license", "licence", "access"]);
/** Words after a noun (in its name: `token_id`, `key_hash`), or between it and the value, that say the value is not the secret. */
const NOT_SECRET_AFTER = new Set([
  "id", "ids", "fingerprint", "fingerprints", "hash", "hashes", "digest", "checksum", "sha", "sha1", "sha256", "sha512", "md5",
  "prefix", "suffix", "ending", "last", "last4", "name", "names", "label", "type", "types", "length", "count", "header",
  "url", "uri", "path", "file", "address", "format", "formats", "like", "e.g.", "eg", "example", "examples", "placeholder",
  "expires", "expired", "revoked", "ttl", "version", "scope", "scopes", "policy", "rotation", "hint", "field", "param",
  "public", "masked", "env", "variable", "var", "ref", "reference", "location", "store", "vault", "manager", "e.g", "i.e",
]);

/** Values of public-by-design formats: publishable keys, public keys (an OpenSSH public key's base64 body too) and addresses. */
// (Thirteenth round) a Datadog browser SDK's client token (`pub` and 32 hex digits), made to ship in front-end code.
// (Fourteenth round) RevenueCat's public app-specific SDK keys (`appl_`, `goog_`, `amzn_` and a short base62 body):
// published in every mobile app that sells a subscription; its secret keys begin `sk_`.
const PUBLIC_VALUE = /^(?:pub[0-9a-f]{32}$|(?:appl|goog|amzn)_[A-Za-z0-9]{20,40}$|pk_(?:live|test)_|pk\.eyJ|phc_|sb_publishable_|npub1|age1[a-z0-9]{50}|ssh-|ecdsa-sha2|0x[0-9a-fA-F]{40}$|[xyzt]pub[1-9A-HJ-NP-Za-km-z]{100}|bc1|tb1|6L[A-Za-z0-9_-]{38}$|0x4AAAA|eyJ|AAAA(?:B3NzaC1|C3NzaC1|E2VjZHNh|G3NrLWVjZHNh|GnNrLXNzaC1))/;
/** Fillers and markers of examples and placeholders. */
const FILLER = /EXAMPLE|example|x{5,}|X{5,}|\*{3,}|\.\.\.|not[-_]?a[-_]?real|notreal|dummy|DUMMY|fake|FAKE|placeholder|PLACEHOLDER|your[-_]|YOUR[-_]|redacted|REDACTED|changeme|(.)\1{5,}/;
/** Published example values. */
const DOCUMENTED = new Set(["JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"]);

/**
 * Values a published format judges (secrets.ts): its prefix (four characters or more: `AIza`, `AKIA`, `sk_test_`) or a
 * documented example. The format accepts or refuses them (a Firebase web config, a presigned link's key id, Stripe's
 * docs keys); this file does not judge them again.
 */
let claimed: (value: string) => boolean = () => false;
export function deferToFormats(test: (value: string) => boolean): void {
  claimed = test;
}
/** Whether a published format judges this value (see above): the labelled check (secrets-labelled.ts) defers too. */
export function claimedByFormat(value: string): boolean {
  return claimed(value);
}

/** A run of the characters a credential value is made of (one more than the longest value: longer runs are no value). */
const MAX_VALUE = 1024;
const VALUE_RUN = new RegExp(`[A-Za-z0-9_.~+/=!:-]{0,${MAX_VALUE + 1}}`, "y");
/**
 * Whether a run of 10 non-blank characters (the shortest value a noun can name: a chosen password) ends within a range
 * of one string. Ranges asked for move forward (nouns in order): what was read is remembered, the blanks-free run
 * reaching its end too, so the string is read about once.
 */
class LongWords {
  private from = -1;
  private to = -1;
  private runStart = -1;
  constructor(private readonly v: string) {}
  within(from: number, to: number): boolean {
    const v = this.v;
    let i: number;
    let rs: number;
    if (from >= this.from && from <= this.to) {
      i = this.to;
      rs = Math.max(this.runStart, from);
    } else {
      i = from;
      rs = from;
      this.from = from;
    }
    for (; i < to; i++) {
      const c = v.charCodeAt(i);
      if (c === 32 || c === 10 || c === 9 || c === 13) rs = i + 1;
      else if (i + 1 - rs >= 10) return true;
    }
    this.to = Math.max(this.to, to);
    this.runStart = rs;
    return false;
  }
}
/** The last value run read: in which string, from where, to where, and whether it was too long for a value. */
const run = { of: "", from: 0, to: 0, long: false };
const VALUE_CHARS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.~+/=!:-") VALUE_CHARS[c.charCodeAt(0)] = 1;
const isValueChar = (c: number) => c < 128 && VALUE_CHARS[c] === 1;
/** A word of prose: a run of non-blanks, bounded like a value. */
const WORD_RUN = new RegExp(`\\S{0,${MAX_VALUE + 1}}`, "y");
const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);
const NAME_CHARS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") NAME_CHARS[c.charCodeAt(0)] = 1;
const isNameChar = (c: number) => c < 128 && NAME_CHARS[c] === 1;

/** The words of a name: split at `_`, `-`, `.`, spaces and lower-to-upper case changes, lower-cased. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** Whether a name (its words, the last one the noun) names a secret rather than a public key, an id or a count. */
function secretName(nameWords: string[], noun: string): boolean {
  const strong = STRONG_NOUN.test(noun.replace(/^api[ _-]?/i, ""));
  // (Eleventh round) A password is never public nor an id: a word that makes a key or token one (`tracking`,
  // `request`, `device`, `site`…) does not make `MLFLOW_TRACKING_PASSWORD` one; only words that say the value is no
  // real password (an example, masked, expired, a count) do.
  const password = /^(?:passw|passphrase|pwd)/i.test(noun);
  for (const w of nameWords.slice(0, -1)) {
    if (password ? PASSWORD_NOT_SECRET.has(w) : NOT_SECRET_BEFORE.has(w)) return false;
    if (!strong && PUBLIC_WITH_KEY.has(w)) return false;
  }
  return true;
}

/** How strong a name is: `strong` allows hex and UUID values (secret, password, token; a private, secret, API or signing key). */
function strength(nameWords: string[], noun: string): boolean {
  if (STRONG_NOUN.test(noun.replace(/^api[ _-]?/i, ""))) return true;
  return nameWords.some((w) => /^(?:api|apikey|app|application|private|priv|secret|signing|master|admin|server|service|encryption|hmac|webhook|publisher|merchant|partner|developer|integration)$/.test(w));
}

/**
 * Whether a value looks like a random credential. `strong`: the name says secret (hex and UUIDs count); `prefixed`
 * values (`xaat-<uuid>`) count as named by their prefix.
 */
export function credentialShaped(value: string, strong: boolean, password = false): boolean {
  const n = value.length;
  if (password && n >= 10 && n <= 64 && chosenPassword(value)) return true;
  if (n < 16 || n > MAX_VALUE) return false;
  if (FILLER.test(value) || DOCUMENTED.has(value) || PUBLIC_VALUE.test(value)) return false;
  if (value.includes("://") || /^[/.~$%{<-]/.test(value)) return false;
  // Integrity fields and digests (`sha512-…`, `sha256:…`), test and mock values.
  if (/^(?:sha(?:1|224|256|384|512)|md5|blake2b?|xxh\d*)[-:]|^(?:test|mock|demo|sample)[-_]/i.test(value)) return false;
  if (claimed(value)) return false;
  // A path or a file name (`uploads/2026/a.png`, `config/master.key`).
  if (/^[a-z][a-z0-9_-]{2,}\//.test(value) || (value.includes("/") && /\.[a-z][a-z0-9]{1,3}$/.test(value))) return false;
  // A lower-case prefix and separator (`napi_`, `pat-na1-`, `st.`), or `0x`.
  // (Thirteenth round, tps13) Or a capitals prefix before a UUID (`RGAPI-<uuid>`): a vendor's key, not an id.
  const pre = /^(?:0x|[a-z]{1,10}(?:[-_][a-z]{0,4}[0-9]{1,3})?[-_.]|[A-Z]{2,8}[-_](?=[0-9a-f]{8}-[0-9a-f]{4}-))/.exec(value);
  const prefixed = pre !== null;
  const body = prefixed ? value.slice(pre[0].length) : value;
  // Words and paths: most of the parts are words (`preview-environment-main`, `src/lib/auth`).
  const parts = value.split(/[-_./:~+=!]+/).filter((p) => p.length > 0);
  const wordParts = parts.filter((p) => /^(?:[a-z]{3,}|[A-Z][a-z]{2,}|[A-Z]{3,})$/.test(p) && /[g-zG-Z]/.test(p)).length;
  // (Thirteenth round, tps13) …unless the last part is a long random run: a vendor's words before it are its prefix
  // (`apify_api_61zOdf…`, `live_sk_LXXxXF…`).
  const tail = parts[parts.length - 1] ?? "";
  const randomTail = tail.length >= 20 && /[A-Z]/.test(tail) && /[a-z]/.test(tail) && count(tail, /[0-9]/g) >= 2 && longRuns(tail) * 3 <= tail.length && entropy(tail) >= 3.6;
  if (wordParts >= 2 && wordParts * 2 >= parts.length && !randomTail) return false;
  const chars = body.replace(/[-_.~+/=!:]/g, "");
  if (chars.length < 16) return false;
  if (/^[0-9]+$/.test(chars)) return false; // numbers (card numbers, ids, timestamps)
  // A UUID (or UUIDs joined by dots with hex: a service token's parts): a secret only when named so or prefixed.
  // A bare one must be a random (version 4) UUID: time-based and name-based ones are ids.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{12}((?:[.:][0-9A-Za-z+/=]{8,})*)$/i.exec(body);
  if (uuid !== null) return prefixed || (strong && (uuid[3] !== "" || (uuid[1] === "4" && /[89ab]/i.test(uuid[2] as string))));
  if (/^[0-9a-f]+$/.test(chars) || /^[0-9A-F]+$/.test(chars)) return (strong || prefixed) && chars.length >= 24 && entropy(chars) >= 3;
  const upper = count(chars, /[A-Z]/g);
  const lower = count(chars, /[a-z]/g);
  const digits = count(chars, /[0-9]/g);
  const letters = upper + lower;
  const h = entropy(chars);
  if (upper > 0 && lower > 0 && digits > 0) {
    // Random base62 has about as many capitals as small letters; a camelCase identifier few, and long runs of small letters.
    const share = upper / letters;
    if (share < 0.15 || share > 0.85) return false;
    // (Tenth round) A random base62 secret of 24 characters has one digit or none about one time in twelve: under a
    // name that says secret, an even, word-free mix of cases stands for the digits (no run of 6 small letters or 8 capitals).
    if (digits < 2 && !(strong && sparseRandom(chars, upper, letters, h))) return false;
    if (longRuns(chars) * 2 > lower) return false;
    return h >= (chars.length >= 20 ? 3.6 : 3.4);
  }
  if (upper === 0 || lower === 0) {
    // One case and digits (a base32 or base36 token): long, digits spread through it.
    if (digits < 3 || letters < 8 || chars.length < 20) return false;
    return h >= 3.7;
  }
  // Letters only, both cases: long and even (or, under a secret's name, word-free and switching case often).
  const share = upper / letters;
  if (strong && sparseRandom(chars, upper, letters, h)) return true;
  return strong && chars.length >= 32 && share >= 0.3 && share <= 0.7 && h >= 4.3 && longRuns(chars) * 3 <= lower;
}

/**
 * A password or passphrase a person chose, after a noun that says so (`Passphrase: tundra-Mosaic-4471`): words may be
 * in it, but it has letters, a digit, and a capital or a symbol; no filler, no "password", no path or address.
 */
function chosenPassword(value: string): boolean {
  if (FILLER.test(value) || /passw|secret|^(?:none|null|required|optional|empty)$/i.test(value) || /^[/.~$%{<-]|:\/\/|\.[a-z]{2,4}$/.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false;
  if (!/[A-Z]/.test(value) && !/[^A-Za-z0-9]/.test(value)) return false;
  return !/^[0-9.:-]+$/.test(value) && !/^v?\d+(?:\.\d+)+/.test(value);
}

/**
 * (Tenth round) Random letters with few digits or none: 20 characters or more, capitals between a fifth and four
 * fifths of the letters, no word-like run of small letters, the case switching at least once in three characters, and
 * high entropy. Identifiers (`getUserAccountSettings`, `XMLHttpRequestUpload`) have word runs and switch case rarely.
 */
function sparseRandom(chars: string, upper: number, letters: number, h: number): boolean {
  if (chars.length < 20 || h < 3.9) return false;
  const share = upper / letters;
  if (share < 0.2 || share > 0.8 || longRuns(chars) > 0 || /[a-z]{6}|[A-Z]{8}/.test(chars)) return false;
  let switches = 0;
  let last = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    const kind = c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : 0;
    if (kind !== 0) {
      if (last !== 0 && kind !== last) switches++;
      last = kind;
    }
  }
  return switches * 3 >= chars.length;
}

function count(s: string, re: RegExp): number {
  return s.match(re)?.length ?? 0;
}

/** How many small letters stand in word-like runs (four or more, a third of them vowels): the words of an identifier. */
function longRuns(s: string): number {
  let total = 0;
  for (const m of s.matchAll(/[a-z]{4,}/g)) if (count(m[0], /[aeiou]/g) * 3 >= m[0].length) total += m[0].length;
  return total;
}

/** The value run starting at `at`: credential characters, without trailing punctuation. */
function valueAt(v: string, at: number, min = 16): { start: number; end: number } | null {
  let end: number;
  // A run read before and ended by a character that is not a value's: from anywhere inside it, it ends there too (a
  // megabyte of `secret_key=secret_key=…` is read about once).
  if (run.of === v && run.long && run.from <= at && at < run.to) return null;
  if (run.of === v && !run.long && run.from <= at && at < run.to) end = run.to;
  else {
    VALUE_RUN.lastIndex = at;
    VALUE_RUN.test(v);
    end = VALUE_RUN.lastIndex;
    run.of = v;
    run.from = at;
    run.to = end;
    if (end - at > MAX_VALUE) {
      // Too long for a value: the rest of this run is too (it is remembered as ending past the cap).
      while (end < v.length && end - at < 16 * MAX_VALUE && isValueChar(v.charCodeAt(end))) end++;
      run.to = end;
      run.from = at;
      run.long = true;
      return null;
    }
    run.long = false;
  }
  while (end > at && /[.:!,~-]/.test(v[end - 1] as string)) end--;
  return end - at >= min ? { start: at, end } : null;
}

/** A call that takes a credential as its first argument: `.login('…')`, `.setApiKey("…")`, `new Client('…')`. */
const CLIENT_CALL = /(?:\.(?:login|authenticate|auth|setApiKey|setToken|setAccessToken|setAuthToken|useToken|withToken|with_token|set_api_key|api_key)|\bnew [A-Z][A-Za-z0-9]{1,40})\(\s{0,4}["'`]/g;
/** Constructors whose string argument is data, not a credential. */
const DATA_CONSTRUCTOR = /^new (?:Date|URL|RegExp|Error|[A-Za-z]*Error|Buffer|Uint8Array|TextEncoder|ObjectId|UUID|Decimal|BigNumber|Intl\.[A-Za-z]+|Request|Response|Headers|Blob|File|Set|Map|Image|Audio|Worker|WebSocket|EventSource)\(/;

/** Whether the run of non-blank characters ending at `s` is a link (holds `?` or `://`), not a form body. */
function inLink(v: string, at: number): boolean {
  let b = at;
  while (b > 0 && at - b < 2048 && !/\s/.test(v[b - 1] as string)) b--;
  const run = v.slice(b, at);
  return run.includes("?") || run.includes("://") || at - b >= 2048;
}

/** Credentials named in prose, in a text's names, or passed to a client call (part 1), added to `found`. */
/** A Wi-Fi network named on a password's line. */
const WIFI_LINE = /\b(?:wi-?fi|wlan|wireless\s{1,3}network|ssid|guest\s{1,3}network|hotspot)\b/i;

export function detectNamedCredentials(site: StringSite, found: Detection[], lits: MessageLiterals | null = null): void {
  const v = site.value;
  if (v.length < 16) return;
  const push = (start: number, end: number) => found.push({ type: "secrets.credential", path: site.path, start, end });
  let reach = 0;
  // (Every hit's work is bounded — 96 characters of prose, one value run — and hits are 3 characters apart at least.)
  // (Issue 25) A short message without any noun's stem anywhere (the literal prefilter of its strings: literals.ts) has no noun.
  const words10 = lits === null || lits.any(NOUN_STEMS) ? new LongWords(v) : null;
  if (words10 !== null) for (const m of nouns(v)) {
    const s = m.index;
    const e = s + m[0].length;
    if (s < reach) continue;
    // Most nouns have no word of a value's length after them (10 characters: a chosen password's least): said first,
    // with the text read about once however many nouns stand close together.
    if (!words10.within(e, Math.min(v.length, e + 96))) continue;
    const first = v[s] as string;
    const prev = v[s - 1];
    // Not inside a word (`monkey`, `turkey`); `apiKey`, `sdkKey` are names ending in the noun.
    if (prev !== undefined && /[a-z]/.test(first) && /[A-Za-z0-9]/.test(prev)) continue;
    if (prev !== undefined && /[A-Z]/.test(first) && /[A-Z]/.test(prev) && /[a-z]/.test(v[s + 1] ?? "")) continue;
    if (/^pats?$/i.test(m[0]) && !/^PATs?$/.test(m[0])) continue;
    // (Thirteenth round, "cps13") The shell's working directory, not a password: `$PWD`, `${PWD}`, `$(pwd)`, `` `pwd` ``
    // (`docker run -v "$PWD/reports:/data" pandoc/latex:3.5 …`: what follows is an image, not a value).
    if (/^pwd$/i.test(m[0]) && (prev === "$" || prev === "`" || ((prev === "{" || prev === "(") && v[s - 2] === "$"))) continue;
    // A link's query (`?token=…`, `&key=…`): the exfiltration detectors judge what a URL carries, and a reset or
    // webhook link's token is for whoever follows it.
    // (Fifteenth round) An `&` counts only in a link: a form body (`a=b&api_key=…`, no `?` or `://` in its run) is sent.
    if (/[?&][A-Za-z0-9_.-]{0,32}$/.test(v.slice(Math.max(0, s - 33), s)) && inLink(v, s)) continue;
    // The name goes on (`token_id`, `keyHash`, `secret-name`): its last word is another, judged at its own noun if it is one.
    const next = v[e];
    if (next !== undefined && (/[A-Za-z0-9]/.test(next) || (/[_.-]/.test(next) && isWordChar(v[e + 1])))) continue;
    // A value as the most lenient reading takes it (a strong name), before the name is read.
    const password = /^(?:passw|passphrase|pwd)/i.test(m[0]);
    const lenient = valueAfter(v, e, true, password);
    if (lenient === null) continue;
    let nameStart = s;
    while (nameStart > 0 && s - nameStart < 64 && isNameChar(v.charCodeAt(nameStart - 1))) nameStart--;
    const nameWords = words(v.slice(nameStart, e));
    const inName = nameStart < s;
    // (Twelfth round) A Wi-Fi network's password named in prose on its line ("Wi-Fi: ElmGuest / password: …"): a guest
    // sheet, a rental's house manual, an invitation. Not a name that holds it (`WIFI_PASSWORD=` in firmware config).
    if (password && !inName && WIFI_LINE.test(v.slice(Math.max(v.lastIndexOf("\n", s) + 1, s - 80), s))) continue;
    // Two words of prose before a one-word name ("the public key", "Algolia search key").
    const behind = v.slice(Math.max(0, s - 32), s);
    // (Thirteenth round, tps13) A link's or a host's words are no qualifier: "https://redcap.uni.example/api/ token …".
    const before = inName ? [] : words(behind.slice(Math.max(behind.lastIndexOf(". "), behind.lastIndexOf("\n")) + 1).replace(/\S{0,64}(?:\/\/|\/)\S{0,64}/g, " ")).slice(-2);
    if (!secretName([...before, ...nameWords], m[0])) continue;
    const strong = strength([...before, ...nameWords], m[0]);
    const found1 = strong ? lenient : valueAfter(v, e, false, password);
    if (found1 === null) continue;
    // (Ciphertext under a secret's name — SOPS, a sealed secret, Vault transit, dotenvx — is no secret: ciphertext.ts.)
    if (isCiphertext(v, found1.start)) continue;
    push(found1.start, found1.end);
    reach = found1.end;
  }
  CLIENT_CALL.lastIndex = 0;
  const calls = v.length > WEAK_REACH ? v.slice(0, WEAK_REACH) : v;
  // Every call has its `(` (issue 25: a text without one is not searched).
  const called = calls.includes("(");
  for (let m, n = 0; called && (m = CLIENT_CALL.exec(calls)) !== null && n < 64; n++) {
    if (DATA_CONSTRUCTOR.test(m[0])) continue;
    const at = m.index + m[0].length;
    const r = valueAt(v, at);
    if (r === null || !/^["'`]/.test(v[r.end] ?? "")) continue;
    const value = v.slice(r.start, r.end);
    // A constructor takes many strings: only a prefixed token or a three-part one (`xxx.yyy.zzz`) counts there.
    if (m[0].startsWith("new ") && !/^[a-z]{1,10}[-_]/.test(value) && value.split(".").length !== 3) continue;
    if (credentialShaped(value, false) && !found.some((d) => d.path === site.path && d.start === r.start)) push(r.start, r.end);
  }
}

/**
 * The value after a noun ending at `e`: after a separator (`=`, `:`, `=>`, a JSON `":"`, `": ["`), or within eight words
 * of prose on the same sentence, the first word that looks like a credential. A word between that says the value is
 * not the secret (`id`, `fingerprint`, `hash`, "ending in") ends the search.
 */
function valueAfter(v: string, e: number, strong: boolean, password: boolean): { start: number; end: number } | null {
  let p = e;
  while (p < v.length && p - e < 3 && /["'`\]]/.test(v[p] as string)) p++;
  let q = p;
  while (q < v.length && q - p < 8 && (v[q] === " " || v[q] === "\t")) q++;
  // (Thirteenth round, tps13) A quoted name and its quoted value as a call's two arguments: `define('DB_PASSWORD','…')`,
  // `setenv("API_TOKEN", "…")`, `config.set('secret_key', '…')`.
  const sep = /^(?::=|=>|=|:)/.exec(v.slice(q, q + 2)) ?? (p > e && q === p && /["'`]/.test(v[p - 1] as string) ? /^,(?=[ \t]{0,3}["'`])/.exec(v.slice(q, q + 5)) : null);
  if (sep !== null) {
    let at = q + sep[0].length;
    let k = 0;
    while (at < v.length && k < 10 && /[\s"'`[(]/.test(v[at] as string)) {
      at++;
      k++;
    }
    // (Tenth round) After a separator (`PASSWORD=`, `password:`), a chosen password may be as short as 10 characters
    // (credentialShaped's least for one); in prose the next word must still be 16 (a Wi-Fi list's next SSID is no password).
    const r = valueAt(v, at, password ? 10 : 16);
    return r !== null && credentialShaped(v.slice(r.start, r.end), strong, password) ? r : null;
  }
  // Prose: up to eight words, on the same sentence, within 96 characters.
  const end = Math.min(v.length, e + 96);
  let i = e;
  for (let w = 0; w < 9 && i < end; w++) {
    while (i < end && /\s/.test(v[i] as string)) {
      if (v[i] === "\n" && v[i + 1] === "\n") return null;
      i++;
    }
    WORD_RUN.lastIndex = i;
    WORD_RUN.test(v);
    const j = WORD_RUN.lastIndex;
    const word = v.slice(i, j);
    // A name and its value (`--token=…`, `dataset=prod`): judged at its own noun, if it has one.
    if (/^-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,40}[=:]./.test(word) && !/^[a-z]{1,10}[-_.][A-Za-z0-9]{12}/.test(word)) {
      i = j;
      continue;
    }
    // The word without the punctuation around it.
    const lead = /^["'`(<[{]*/.exec(word)?.[0].length ?? 0;
    const r = valueAt(v, i + lead);
    // (A chosen password only as the first word: "passphrase is X", not anything later in the sentence.)
    // Hex and UUIDs (strong) only right after the noun ("the token is …", "secret …"): further on, a hex word is more
    // often a commit or a digest the sentence is about ("fixed the token refresh in 58db2bc…").
    if (r !== null && r.end <= j && credentialShaped(v.slice(r.start, r.end), strong && w <= 1, password && w <= 1)) return r;
    const bare = word.replace(/^["'`(<[{]+|["'`)>\]},.;:!?]+$/g, "").toLowerCase();
    if (NOT_SECRET_AFTER.has(bare)) return null;
    // Another name begins (`"version":`, `dataset_id=`): what follows is its value.
    if (/^["'][^"']{0,64}["']:$|^[A-Za-z0-9]{0,32}[_.][A-Za-z0-9_.]{0,32}[:=]$/.test(word)) return null;
    // The sentence ends ("… the key. Then …").
    if (/^[A-Za-z0-9]*[.!?]["')]?$/.test(word) && !/^(?:e\.g\.|i\.e\.)$/.test(word)) return null;
    i = j;
  }
  return null;
}

/**
 * (Twentieth round, "sec20") A field whose name ends in `pass` as its own word (`smtp_pass`, `DB_PASS`, `mailPass`):
 * configurations' short name for a password. (A bare `pass` is as often a time or a ticket: a satellite's pass.) Only a field's name, never prose (where
 * "pass" is a verb).
 */
const PASS_FIELD = /(?:^|[_.-])(?:pass|PASS|Pass)$|[a-z0-9]Pass$/;
/**
 * …and the word before it names what one logs in to or as (a mail or database server, a protocol, an account):
 * "pass" after other words is a ticket or a step (`boarding_pass`, `day_pass`, `first_pass`).
 */
const LOGIN_TARGET = /^(?:smtp|mail|email|imap|pop3?|db|database|sql|mysql|pg|postgres|mongo|redis|ftp|sftp|ssh|ldap|bind|proxy|vpn|admin|root|user|login|account|acct|auth|api|app|service|svc|broker|mq|amqp|rabbit|mqtt|router|nas|camera|cam|rtsp|jdbc|dsn|relay|sasl|basic|http|web|portal|panel|cpanel|console)$/;

/** Words of a password field's name that say the password is shared with visitors by design. */
const SHARED_BY_DESIGN = new Set(["wifi", "wlan", "wpa", "wpa2", "ssid", "guest", "guests", "hotspot", "visitor"]);

/** The credential noun ending a field's name (a password for `…_pass`), or null. */
function fieldNoun(key: string): { noun: string; index: number } | null {
  const m = NOUN_AT_END.exec(key);
  if (m !== null) return { noun: m[0], index: m.index };
  if (!PASS_FIELD.test(key)) return null;
  const before = words(key).slice(-2, -1)[0];
  return before !== undefined && LOGIN_TARGET.test(before) ? { noun: "passwd", index: key.length - 4 } : null;
}

/** A structured field named for a credential (`"secret_key": "<uuid>"` in a data part, `apiKey`, `ApiTokens[0]`). */
export function detectNamedField(site: StringSite, found: Detection[]): void {
  const v = site.value;
  if (v.length < 10 || v.length > MAX_VALUE) return;
  let k = site.path.length - 1;
  while (k >= 0 && typeof site.path[k] === "number") k--;
  const key = site.path[k];
  if (typeof key !== "string" || key.length > 64) return;
  const f = fieldNoun(key);
  if (f === null) return;
  const noun = f.noun;
  if (/^pats?$/i.test(noun) && !/^PATs?$/.test(noun)) return;
  if (noun !== "passwd" && f.index > 0 && /[a-z]/.test(noun[0] as string) && /[A-Za-z0-9]/.test(key[f.index - 1] as string)) return;
  // (Twentieth round) A password field holds a chosen password of ten characters or more; other credentials sixteen.
  const password = /^(?:passw|passphrase|pwd)/i.test(noun);
  if (v.length < 16 && !password) return;
  const nameWords = words(key);
  // (Twentieth round, the lead) A network's or a guest's password is handed to visitors by design (a Wi-Fi key given to
  // a cleaner or a guest): the shorter chosen passwords count only for an account's own.
  if (v.length < 16 && nameWords.some((w) => SHARED_BY_DESIGN.has(w.toLowerCase()))) return;
  // A bare `key` is any map's key (an object key, a cache key); `token`, `secret`, `password` alone name a secret.
  if (nameWords.length < 2 && !STRONG_NOUN.test(noun)) return;
  if (!secretName(nameWords, noun)) return;
  const value = v.trim();
  const start = v.indexOf(value);
  if (!/^[A-Za-z0-9_.~+/=!:@#$%^&*?-]+$/.test(value) || (!password && !/^[A-Za-z0-9_.~+/=!:-]+$/.test(value))) return;
  if (!credentialShaped(value, strength(nameWords, noun), password) || isCiphertext(v, start)) return;
  if (found.some((d) => d.path === site.path && d.start < start + value.length && start < d.end)) return;
  found.push({ type: "secrets.credential", path: site.path, start, end: start + value.length });
}

/**
 * Whether a name (a field's, an object's, a `Name` beside a value) names a secret and `value` looks like one (the
 * field's rule above, for a value a wrapper holds: secrets-wrapped.ts, ninth round).
 */
export function namedSecretValue(name: string, value: string): boolean {
  if (name.length > 64 || value.length < 10 || value.length > MAX_VALUE) return false;
  const m = NOUN_AT_END.exec(name);
  if (m === null) return false;
  if (/^pats?$/i.test(m[0]) && !/^PATs?$/.test(m[0])) return false;
  if (m.index > 0 && /[a-z]/.test(m[0][0] as string) && /[A-Za-z0-9]/.test(name[m.index - 1] as string)) return false;
  const nameWords = words(name);
  if (nameWords.length < 2 && !STRONG_NOUN.test(m[0])) return false;
  if (!secretName(nameWords, m[0]) || !/^[A-Za-z0-9_.~+/=!:-]+$/.test(value)) return false;
  return credentialShaped(value, strength(nameWords, m[0]), /^(?:passw|passphrase|pwd)/i.test(m[0]));
}

// --- self-describing formats (part 2) -------------------------------------------------------------------------------

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const B58_INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < B58.length; i++) B58_INDEX[B58.charCodeAt(i)] = i;

/** A base58check string's payload (null when a character or the checksum is wrong). */
function base58check(s: string): Uint8Array | null {
  const bytes: number[] = [0];
  for (let i = 0; i < s.length; i++) {
    let carry = B58_INDEX[s.charCodeAt(i)] ?? -1;
    if (carry < 0) return null;
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] as number) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (let i = 0; i < s.length && s[i] === "1"; i++) bytes.push(0);
  const out = Uint8Array.from(bytes.reverse());
  // (A leading zero byte from the initial value: dropped unless the string had a leading "1".)
  const data = out[0] === 0 && s[0] !== "1" ? out.subarray(1) : out;
  if (data.length < 5) return null;
  const payload = data.subarray(0, data.length - 4);
  const sum = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest();
  for (let i = 0; i < 4; i++) if (sum[i] !== data[data.length - 4 + i]) return null;
  return payload;
}

/** A Bitcoin-style WIF private key (version 0x80 or 0xef, 32 bytes, perhaps the compressed flag) or an `xprv`/`tprv` key. */
function privateBase58(s: string): boolean {
  if (s.length === 51 || s.length === 52) {
    if (!/^[5KLc9]/.test(s)) return false;
    const p = base58check(s);
    return p !== null && (p[0] === 0x80 || p[0] === 0xef) && (p.length === 33 || (p.length === 34 && p[33] === 1));
  }
  if (s.length === 111 && /^[xtyzuv]prv/.test(s)) {
    const p = base58check(s);
    return p !== null && p.length === 78 && p[45] === 0;
  }
  return false;
}

/** After a PuTTY key file's header (within 4 KB): the private lines after `Private-Lines: N` (the public part is not a secret). */
const PUTTY_PRIVATE = /Private-Lines:[ \t]{0,4}\d{1,3}\r?\n(?:[ \t]{0,16}[A-Za-z0-9+/=]{1,128}(?:\r?\n|$)){1,64}/y;
/** An `otpauth://` URI's shared secret (base32), from the scheme on. */
const OTPAUTH = /otpauth:\/\/[th]otp\/[^\s?"'<>]{0,256}\?(?:[^\s"'<>#]{0,512}?[?&])?secret=([A-Za-z2-7]{16,128}=*)/iy;
/** Fixed headers of secret-key files, as text or in base64: minisign (`EdScrypt`, `Ed\0\0B2`), Tor onion services. */
const KEY_FILES: [string, RegExp][] = [
  ["RWRTY3J5cHQ", /RWRTY3J5cHQ[A-Za-z0-9+/]{100,400}={0,2}/y],
  ["RWQAAEIy", /RWQAAEIy[A-Za-z0-9+/]{100,400}={0,2}/y],
  ["PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0", /PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0[A-Za-z0-9+/]{60,200}={0,2}/y],
  ["== ed25519v1-secret: type0 ==", /== ed25519v1-secret: type0 ==/y],
];
/** How far into a long string the searches without a literal (base58 runs, client calls) read. */
const WEAK_REACH = 16_384;
/** At most this many occurrences of each literal are looked at in one string. */
const MAX_OCCURRENCES = 16;

/** Each occurrence of `literal` in `v` (at most MAX_OCCURRENCES). */
function* occurrences(v: string, literal: string): Generator<number> {
  // (Found at the literal's rarest character: V8's `indexOf` stops at every `o` of a megabyte for `otpauth:`.)
  for (let at = indexOfRare(v, literal), n = 0; at >= 0 && n < MAX_OCCURRENCES; at = indexOfRare(v, literal, at + literal.length), n++) yield at;
}

/** Whether a code unit is a base58 character. */
const B58_CHAR = new Uint8Array(128);
for (const c of B58) B58_CHAR[c.charCodeAt(0)] = 1;
/** Characters that continue a token (base64, base64url): a base58 run touching one is part of something longer. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_-]/;

/** Self-describing secrets (part 2), added to `found`. */
export function detectSelfDescribing(site: StringSite, found: Detection[], lits: MessageLiterals | null = null): void {
  const v = site.value;
  const push = (type: string, start: number, end: number) => found.push({ type, path: site.path, start, end });
  // (Issue 25) The literal searches, only where the short message's literal prefilter (literals.ts) holds one of them.
  if (lits === null || lits.any(SELF_DESCRIBING)) literalSecrets(v, push);
  base58Keys(v, push);
}

/** The literals the self-describing formats start with (PuTTY, otpauth, the key files): literals.ts's ids. */
const SELF_DESCRIBING = ["PuTTY-User-Key-File-", "otpauth:", ...KEY_FILES.map(([literal]) => literal)].map(literalId);

/** PuTTY keys' private lines, otpauth secrets and the key files' headers (detectSelfDescribing). */
function literalSecrets(v: string, push: (type: string, start: number, end: number) => void): void {
  for (const at of occurrences(v, "PuTTY-User-Key-File-")) {
    const lines = v.indexOf("Private-Lines:", at);
    if (lines < 0 || lines - at > 4096) continue;
    PUTTY_PRIVATE.lastIndex = lines;
    const m = PUTTY_PRIVATE.exec(v);
    if (m !== null) push("secrets.private_key", lines, lines + m[0].replace(/\s+$/, "").length);
  }
  for (const at of occurrences(v, "otpauth:")) {
    OTPAUTH.lastIndex = at;
    const m = OTPAUTH.exec(v);
    if (m === null) continue;
    const secret = m[1] as string;
    if (DOCUMENTED.has(secret.replace(/=+$/, "").toUpperCase()) || FILLER.test(secret) || /^([A-Z2-7])\1+$/i.test(secret)) continue;
    const end = at + m[0].length;
    push("secrets.otp_secret", end - secret.length, end);
  }
  for (const [literal, re] of KEY_FILES) {
    for (const at of occurrences(v, literal)) {
      // (After a line break, or its JSON escape in a file's text: `comment\nRWRTY…`.)
      if (isWordChar(v[at - 1]) && !/\\[nr]$/.test(v.slice(at - 2, at))) continue;
      re.lastIndex = at;
      const m = re.exec(v);
      if (m !== null) push("secrets.private_key", at, at + m[0].length);
    }
  }
}

/** Bitcoin WIF and extended private keys, by their base58 runs (detectSelfDescribing). */
function base58Keys(v: string, push: (type: string, start: number, end: number) => void): void {
  // Base58 runs of a WIF key's or an extended private key's length, in one pass; each checked by its checksum.
  if (v.length < 51) return;
  // In a long string, in its first WEAK_REACH characters (as secrets.ts reads its weak prefixes): the run search reads
  // every run it probes, and a key this short is pasted, not buried in a megabyte.
  const n = Math.min(v.length, WEAK_REACH);
  let checked = 0;
  // (Issue 25) Only runs of 51 characters or more matter, and each holds a multiple of 51: the text is probed there,
  // and a run is read out from a probe that falls in one (the same runs, in the same order, as a pass over every
  // character; prose's words are read once each, where a probe lands in them).
  for (let p = 0; p < n && checked < 64; p += RUN_PROBE) {
    const c = v.charCodeAt(p);
    if (c >= 128 || B58_CHAR[c] !== 1) continue;
    let i = p;
    while (i > 0) {
      const d = v.charCodeAt(i - 1);
      if (d >= 128 || B58_CHAR[d] !== 1) break;
      i--;
    }
    let j = p + 1;
    while (j < n) {
      const d = v.charCodeAt(j);
      if (d >= 128 || B58_CHAR[d] !== 1) break;
      j++;
    }
    // (The next probe after this run.)
    p = Math.floor(j / RUN_PROBE) * RUN_PROBE;
    const len = j - i;
    if ((len === 51 || len === 52 || len === 111) && !TOKEN_CHAR.test(v[i - 1] ?? "") && !TOKEN_CHAR.test(v[j] ?? "")) {
      checked++;
      if (privateBase58(v.slice(i, j))) push("secrets.private_key", i, j);
    }
  }
}
/** The shortest run the base58 search wants (a WIF key's 51 characters): a run that long holds a multiple of it. */
const RUN_PROBE = 51;
