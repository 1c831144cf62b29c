import { lookup } from "./injection-lexicon.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (leak30, issue 24) A credential stated in a response — a tool's result, another agent's reply, a streamed status or
 * an artifact — in any language the injection scorer's lexicon reads (`secrets.stated`, `secrets.password_hash`). A
 * response goes into the calling model's context, its transcript and whatever it writes next; an agent that "explains"
 * a failure by quoting the live password hands the secret over whatever language it writes in. sec23's login pair
 * (secrets-returned.ts) needs an account's word beside the password's, in eight languages; this reads the password's
 * word alone, in every language the lexicon has one for, and asks more of the value instead:
 *
 * 1. **A password's word, then a chosen password** (`secrets.stated`): a word of the lexicon's `personal` class that
 *    names a password (password, parola, Passwort, contraseña, heslo, пароль, ਪਾਸਵਰਡ…; not a passport, a card, a
 *    conversation), then — right after it, past a colon, an equals sign, a dash or quotes, or "is"/"was" — one token
 *    of 8 to 64 characters with lower-case letters, digits and a capital or a symbol (`Sm9!pQ4xR2`, `Ial0mita#2026!`).
 *    A word of the `machine` class written in another script than ASCII (токен, టోకెన్, Schlüssel…; the English and code
 *    words are secrets-context.ts's), then after a space a random value: 32 or more hex digits, or 24 or more
 *    characters mixing capitals, lower case and digits.
 * 2. **A shadow file's line** (`secrets.password_hash`): `name:$id$salt$hash:` — a crypt(3) hash (`$1$`, `$5$`, `$6$`,
 *    `$y$`, `$2b$`…) as /etc/shadow stores it, offline-crackable whatever the account.
 *
 * What it leaves alone: a value that is a word of the lexicon, a placeholder or a reference (`<password>`, `${DB_PASS}`,
 * `********`, `your-password`), a path or an address, a hash's hex after a password's word (a digest, not a password),
 * `0x…` (a token contract's address); a line that says the value is an example, a default, a demo's, a sample or a
 * placeholder; a password's word with nothing after it ("the password was rotated", "rotate the password in the
 * portal"); requests and calls (what goes out is judged by the other secret checks). A hash outside a shadow line (an
 * article about the format) is not a finding.
 *
 * Linear: texts up to MAX_TEXT; one pass for tokens shaped as a value (none: done), then only the words that end just
 * before one are looked up (at most MAX_WORDS), one sticky bounded regex at each.
 */

const MAX_TEXT = 65_536;
const MAX_WORDS = 4096;
const MAX_FOUND = 32;

/** A passport or a card among the lexicon's personal words, and the other non-login ones (identity, payment data). */
const NOT_PASSWORD = /pas{1,2}[aeioò]?p|paspo|pas[pf]or|пасп|паспорт|пашп|kart|card|conversation|conversa|chat|histor|otp|2fa|mfa|ssn|iban|cvv|cvc/iu;
/** The machine words that name a secret value (not an environment, cookies, a wallet, a keychain). */
const NOT_SECRET_VALUE = /environ|cookie|wallet|keychain|keystore|mnemonic|prompt|пароль/iu;

/** Past the word: separators, and a copula in the languages it is short in. */
const AFTER = /(?:[ \t]{0,3}[:=：\-–—]{1,2}[ \t]{0,3}|[ \t]{1,3})(?:(?:is|was|ist|war|es|est|é|era|是|は)[ \t]{1,3})?[`"'«“‘]?([^\s`"'«»“”‘’<>()[\]{},;]{8,128})/uy;

const PLACEHOLDER = /your|xxxx|example|changeme|placeholder|redacted|\*{3}|\.{3}|^\$|^%|^\{|^<|^\[|^\/|^~|^\\|:\/\/|^0x|@[a-z0-9-]{1,63}\.[a-z]{2,}/i;
/** A line that says the value is published on purpose. */
const PUBLISHED = /(?<![.@\w-])(?:default|demo|sample|example|e\.g\.|dummy|fake|placeholder|z\.\s?b\.|por ejemplo|par exemple|beispiel)/i;

const SYMBOL = /[!@#$%^&*+=?~]/;

/** Whether a token after a password's word is a chosen password. */
function chosenPassword(v: string): boolean {
  if (v.length < 8 || v.length > 64 || PLACEHOLDER.test(v)) return false;
  if (!/[a-z]/.test(v) || !/\d/.test(v)) return false;
  if (!/[A-Z]/.test(v) && !SYMBOL.test(v)) return false;
  // A word of the lexicon itself (`passwort2` is not one, `contraseña` is): a word, not a password.
  if (lookup(v.toLowerCase()) !== undefined) return false;
  return true;
}

/** Whether a token after a secret's word is a random credential. */
function randomValue(v: string): boolean {
  const t = v.replace(/[.:!?]+$/, "");
  if (t.length > 128 || PLACEHOLDER.test(t)) return false;
  if (/^[0-9a-f]{32,128}$/i.test(t)) return /\d/.test(t) && /[a-f]/i.test(t);
  if (t.length < 24 || !/^[A-Za-z0-9_\-.+/=]+$/.test(t)) return false;
  return /[A-Z]/.test(t) && /[a-z]/.test(t) && /\d/.test(t) && new Set(t).size >= 12;
}

/** The most characters between a word's end and its value (separators, quotes, a copula: AFTER). */
const AFTER_MAX = 16;
/** Characters that end a token (as AFTER's value class excludes them). */
const ENDS = new Set([..." \t\n\r\f\v`\"'«»“”‘’<>()[]{},;"].map((c) => c.charCodeAt(0)));
/** ENDS as a table for the first 256 code units (a token's walk reads one per character; a Set's lookup cost more). */
const ENDS_LOW = new Uint8Array(256).map((_, c) => (ENDS.has(c) ? 1 : 0));
/** Whether a code unit ends a token (ENDS). */
const ends = (c: number): boolean => (c < 256 ? ENDS_LOW[c] === 1 : ENDS.has(c));
const DIGIT = /\d/g;

/**
 * Where the tokens that could be a chosen password or a random value start (at most MAX_WORDS of them). Every such
 * value holds a digit: the digits are found by one regex search, and only the token around each is read.
 */
function candidateStarts(t: string): number[] {
  const out: number[] = [];
  DIGIT.lastIndex = 0;
  for (let m; (m = DIGIT.exec(t)) !== null && out.length < MAX_WORDS; ) {
    let start = m.index;
    while (start > 0 && m.index - start < 128 && !ends(t.charCodeAt(start - 1))) start--;
    let end = m.index + 1;
    while (end < t.length && end - start < 129 && !ends(t.charCodeAt(end))) end++;
    DIGIT.lastIndex = end;
    if (end - start < 8 || end - start > 128) continue;
    const v = t.slice(start, end);
    // (An address is never the value: PLACEHOLDER drops it.)
    if (v.includes("://")) continue;
    if (/[a-z]/.test(v) && (/[A-Z]/.test(v) || SYMBOL.test(v) || /^[0-9a-f]{32,}/i.test(v))) out.push(start);
  }
  return out;
}

/** The words of a text with their ends, split on anything that is not a letter, a mark or a digit. */
const WORD = /[\p{L}\p{M}][\p{L}\p{M}\p{N}_-]{1,40}/gu;

/** The spans of credentials stated after their word in one text. */
export function statedCredentials(v: string): { start: number; end: number; what: string }[] {
  const out: { start: number; end: number; what: string }[] = [];
  const t = v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v;
  // Values first (one pass): most texts hold no token shaped as a password or a key, and then no word is looked up.
  const values = candidateStarts(t);
  if (values.length === 0) return out;
  let next = 0;
  WORD.lastIndex = 0;
  let n = 0;
  for (let m; (m = WORD.exec(t)) !== null && n < MAX_WORDS && out.length < MAX_FOUND; n++) {
    const end = m.index + m[0].length;
    while (next < values.length && (values[next] as number) <= end) next++;
    if (next >= values.length) break;
    if ((values[next] as number) - end > AFTER_MAX) continue;
    const word = m[0].normalize("NFKC").toLowerCase();
    const cues = lookup(word)?.cues;
    if (!cues) continue;
    // A word inside a URL, a path or a name (`user:password@host`, `/reset-password/`, `db.password`): not prose.
    if (m.index > 0 && /[:/@.=_\\?&#%+~$-]/.test(t[m.index - 1] as string)) continue;
    const password = (cues.includes("personal") && !NOT_PASSWORD.test(word)) || word.startsWith("passphrase");
    // (A secret's word in English or code — `token`, `apiKey:` — is secrets-context.ts's, with its exclusions for public
    // keys and ids: here only the words of other scripts, in prose, the value after a space.)
    const secret = !password && cues.includes("machine") && !NOT_SECRET_VALUE.test(word) && /[^\x00-\x7f]/.test(word) && /^[ \t]/.test(t.slice(m.index + m[0].length, m.index + m[0].length + 1));
    if (!password && !secret) continue;
    AFTER.lastIndex = m.index + m[0].length;
    const a = AFTER.exec(t);
    if (a === null) continue;
    const raw = a[1] as string;
    const value = raw.replace(/[.,;:)]+$/, "");
    if (!(password ? chosenPassword(value) : randomValue(value))) continue;
    const lineStart = t.lastIndexOf("\n", m.index) + 1;
    const lineEnd = t.indexOf("\n", a.index + a[0].length);
    if (PUBLISHED.test(t.slice(lineStart, lineEnd < 0 ? t.length : lineEnd))) continue;
    const start = a.index + a[0].length - raw.length;
    out.push({ start, end: start + value.length, what: password ? "a password stated after its word" : "a secret stated after its word" });
    WORD.lastIndex = start + value.length;
  }
  return out;
}

/** `name:$id$salt$hash:` — a line of /etc/shadow (or a BSD master.passwd) with its crypt(3) hash. */
const SHADOW_LINE = /(?:^|[\s>"'`])[a-z_][a-z0-9_.-]{0,31}:(\$(?:1|2[abxy]?|5|6|7|y|gy|md5|sha1|argon2id?)\$[^\s:$]{1,64}\$[^\s:]{16,512}):/gm;

/** The crypt(3) hashes of shadow lines in one text. */
export function shadowHashes(v: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (!v.includes(":$")) return out;
  const t = v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v;
  SHADOW_LINE.lastIndex = 0;
  for (let m; (m = SHADOW_LINE.exec(t)) !== null && out.length < MAX_FOUND; ) {
    const hash = m[1] as string;
    const start = m.index + m[0].length - 1 - hash.length;
    out.push({ start, end: start + hash.length });
  }
  return out;
}

/** Credentials stated in a response's text (`returns`: the message is a result, not a request). */
export function detectStatedSecrets(sites: readonly StringSite[], returns: boolean): Detection[] {
  if (!returns) return [];
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "result" || site.path.includes("_meta") || site.value.length < 12) continue;
    for (const f of statedCredentials(site.value)) out.push({ type: "secrets.stated", path: site.path, start: f.start, end: f.end, detail: f.what });
    for (const f of shadowHashes(site.value)) out.push({ type: "secrets.password_hash", path: site.path, start: f.start, end: f.end, detail: "a password hash in a shadow file's line" });
    if (out.length >= MAX_FOUND) break;
  }
  return out;
}
