import { insideSignedUrl } from "./signed-urls.js";
import { entropy } from "./entropy.js";
import { isCiphertext } from "./ciphertext.js";
import { literalId, literalsOf } from "./literals.js";
import { includesRare } from "./rare-index.js";
import type { Detection, StringSite } from "./scan.js";
import { browserConfig, SECRET_RUN } from "./secrets.js";

/*
 * Credentials written as an assignment — `name = value`, `NAME=value`, YAML `name: value`, JSON `"name": "value"` —
 * where the name says secret and the value looks random. This catches the secrets without a recognisable prefix
 * (database passwords, OAuth client secrets, signing keys) in loaded configs and env dumps.
 *
 * Linear time: a literal search per vocabulary stem (in a long string, only in the names before separators), then at
 * each hit one sticky match of the word, and one of the rest of the name, the separator and the value (each bounded).
 */

/**
 * Words a secret's name contains, in lower, Capitalised or UPPER case. `key` only as a suffix (`_key`, `-key`, `Key`
 * after a lower-case letter or digit, `_KEY`), never alone or inside a word (`monkey`, `keyboard`).
 */
const VOCABULARY = /[Ss]ecret|SECRET|[Pp]assw(?:or)?d|PASSW(?:OR)?D|[Pp]wd|PWD|[Pp]assphrase|PASSPHRASE|[Tt]oken|TOKEN|[Cc]redential|CREDENTIAL|[Aa]pi[Kk]ey|APIKEY|[Aa]uth|AUTH|(?<=[a-z0-9])Key|[_.-][Kk]ey|[_.-]KEY/g;
/**
 * After the vocabulary word: the rest of the name — nothing, a plural `s`, or a part after a separator or a capital
 * (`secret_access_key`, `passwordFile`; not `tokenizer`, `author`) — an optional closing quote, the separator, an
 * optional opening quote, the value.
 */
export const AFTER_NAME = /(?:[sS](?![a-z]))?(?:[_.\-A-Z][A-Za-z0-9_.-]{0,60})?["']?[ \t]{0,8}(?::=|=>|=|:)[ \t]{0,8}(["'`]?)([^\s"'`,;]{8,256})/y;
/** `AFTER_NAME` up to the value: where the value starts when the first way the name and separator match is kept. */
const BEFORE_VALUE = /(?:[sS](?![a-z]))?(?:[_.\-A-Z][A-Za-z0-9_.-]{0,60})?["']?[ \t]{0,8}(?::=|=>|=|:)[ \t]{0,8}(["'`]?)/y;
/** What ends a value (`AFTER_NAME`'s value class, negated). */
const VALUE_END = /[\s"'`,;]/g;
const MAX_VALUE = 256;

/** Values that are not secrets however they are named: placeholders, references, examples, identifiers. */
const NOT_A_SECRET = [
  /example|sample|dummy|placeholder|changeme|change_me|your[_-]|xxxx|\*{3}|redacted|fake|test|secret123|password123/i,
  /^[<{[(]|^\$|^%|\$\{|\{\{|^process\.env|^os\.environ|^env\(|\(/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // UUID
  /^(?:sha(?:1|256|384|512)|md5)[-:]/i, // integrity fields
  /^(?:true|false|null|none|undefined|required|optional|string|number|boolean)$/i,
  /^https?:\/\/|^[a-z][a-z0-9+.-]*:\/\/[^:@]*$/i, // a URL without a password in it is an address, not a secret
  /^data:/i, // an inline image or file
  // (Seventh round) A reference to where a secret is kept — `vault:secret/data/api#db`, `file:/run/secrets/x` — names
  // a place by a scheme and a path, and grants nothing by itself.
  /^[a-z][a-z0-9+.-]{1,20}:(?!\/\/)(?:[\w.-]{1,64})?(?:\/[\w.-]{1,64}){1,12}(?:#[\w.-]{1,64})?$/i,
  /^(?:AKIA|ASIA)[A-Z0-9]{12,20}(?:%2F|\/)/, // a signed link's credential scope (`X-Amz-Credential=AKIA…/20260101/…`): the key's id, granting nothing
  /^\d+(?:\.\d+)*$/, // numbers and versions
  // (Ninth round) Keys public by design, by their published form: a Mapbox public token (`pk.` and a JWT-like body),
  // a Stripe or Clerk publishable key (`pk_live_…`, `pk_test_…`), a PostHog project key (`phc_…`). They ship in every
  // browser bundle; the secret siblings (`sk.`, `sk_live_`, PostHog's `phx_`) are formats of their own (secrets.ts).
  /^pk\.eyJ[A-Za-z0-9_-]{8,400}\.[A-Za-z0-9_-]{8,100}$/,
  /^pk_(?:live|test)_[A-Za-z0-9]{10,247}$/,
  /^phc_[A-Za-z0-9]{20,60}$/,
  // (Thirteenth round) a Datadog browser SDK's client token (`clientToken: 'pub…'`), public as a publishable key is.
  /^pub[0-9a-f]{32}$/,
  // (Thirteenth round) A value shown masked (`sk_live_…4Fz9`, `ghp_...x9Qa`, `••••4242`): a key listing's display, its
  // middle cut out; no credential format holds an ellipsis or a bullet.
  /(?:…|\.{3}|[•●∙]{2,})[A-Za-z0-9]/,
  // (Thirteenth round) A header's or a field's name with its colon (`token: \`Authorization: Bearer …\``): a label, not a value.
  /^[A-Za-z][A-Za-z-]{1,40}:$/,
];

const AWS_KEY_ID = /^(?:AKIA|ASIA)[A-Z0-9]{16}$/;
const ID_NAMED = /(?:access[ _-]?key[ _-]?id|key[ _-]?id)"[ \t]{0,3}:[ \t]{0,3}"$/i;

/** A name's word before the vocabulary word that makes the key public. */
const PUBLIC_NAME = /(?:^|[^A-Za-z])(?:public|PUBLIC|Public|publishable|PUBLISHABLE|Publishable)[_.-]?$/;

/** Words, each perhaps with a short number (`oauth2_client_credentials`, `X-API-Key`, `my-release-postgresql`): a name, not a secret. */
function wordy(value: string): boolean {
  return value.split(/[_./-]/).every((p) => /^(?:[a-z]+\d{0,3}|[A-Z]+\d{0,3}|[A-Z][a-z]+\d{0,3}|\d{1,4})$/.test(p));
}

/**
 * High entropy: long and random enough that it is unlikely to be a word, a name or a constant. The bar is relative to
 * the most a value of its length can have (log2 of its length), so short mixed passwords and long hex keys both count.
 */
function looksRandom(value: string): boolean {
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/[0-9]/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
  const most = Math.log2(value.length);
  if (classes >= 3) return entropy(value) >= (value.length >= 12 ? 0.75 : 0.85) * most;
  return classes === 2 && value.length >= 20 && entropy(value) >= Math.min(3.7, 0.85 * most);
}

/** One literal every vocabulary word holds (`pass` for password and passphrase, `key` for apikey and the suffixes). */
const STEMS = ["secret", "pass", "pwd", "token", "credential", "auth", "key"];
const STEM_RES = STEMS.map((s) => new RegExp(s, "i"));
const VOCABULARY_AT = new RegExp(VOCABULARY.source, "y");

/**
 * Where a vocabulary word may start: at each stem, and up to three before `key` (`_key`, `apikey`). Whether a stem
 * occurs at all is one case-insensitive literal search (most strings hold none); the hits of those that do are found
 * with indexOf in a lower-case copy, far cheaper per hit than a regex. A copy whose length differs (a few Unicode
 * letters lower-case to two units) would shift the offsets, so such strings take the regex for every hit.
 */
function candidates(v: string, nearSeparators: boolean): number[] {
  const near = nearSeparators && v.length >= LONG ? candidatesBeforeSeparators(v) : null;
  if (near !== null) return near;
  const present = STEMS.filter((_s, k) => (STEM_RES[k] as RegExp).test(v));
  if (present.length === 0) return [];
  const at: number[] = [];
  const add = (i: number, stem: string) => {
    at.push(i);
    if (stem === "key") for (let back = 1; back <= 3 && i - back >= 0; back++) at.push(i - back);
  };
  const lower = v.toLowerCase();
  for (const stem of present) {
    if (lower.length === v.length) {
      for (let i = lower.indexOf(stem); i >= 0; i = lower.indexOf(stem, i + 1)) add(i, stem);
    } else {
      const re = new RegExp(stem, "gi");
      for (let m; (m = re.exec(v)) !== null; ) add(m.index, stem);
    }
  }
  return sortedUnique(at);
}

const STEM_IDS = STEMS.map(literalId);

/** The positions in ascending order, each once (a numeric sort of a typed copy: a megabyte of stems has hundreds of thousands). */
function sortedUnique(at: number[]): number[] {
  if (at.length <= 1) return at;
  const sorted = Int32Array.from(at).sort();
  const out = [sorted[0] as number];
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) out.push(sorted[i] as number);
  return out;
}

/** Strings at least this long look for stems only before separators (a search per stem would read all of them). */
const LONG = 4096;
/**
 * How far before its separator a match's word can start: the longest word (10), a plural `s`, the rest of the name
 * (61), a quote and eight blanks (`AFTER_NAME`).
 */
const WORD_REACH = 10 + 1 + 61 + 1 + 8;
/** Characters of a name (`AFTER_NAME`'s rest of the name; every vocabulary word is made of them). */
const NAME_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") NAME_CHAR[c.charCodeAt(0)] = 1;
const isNameChar = (c: number) => c < 128 && NAME_CHAR[c] === 1;
/** The stems by their first letter (lower case). */
const STEMS_BY_FIRST: (string[] | undefined)[] = new Array<string[] | undefined>(128).fill(undefined);
for (const stem of STEMS) (STEMS_BY_FIRST[stem.charCodeAt(0)] ??= []).push(stem);

/** Whether `stem` (lower case) occurs at `i` in any case, ending by `end`. */
function stemAt(v: string, i: number, end: number, stem: string): boolean {
  if (i + stem.length > end) return false;
  for (let k = 1; k < stem.length; k++) if ((v.charCodeAt(i + k) | 0x20) !== stem.charCodeAt(k)) return false;
  return true;
}

/**
 * The same candidates as `candidates` gives for the matches (a match's word lies in the name just before a `:` or
 * `=`), found without reading the whole string once per stem: at each separator, back over up to eight blanks, a
 * quote and the name's characters (at most `WORD_REACH` in all), and the stems looked for in that name alone. The
 * names of different separators do not overlap (a separator is not a name character), so the string is read about
 * once. Positions no match can start at are left out; any match's are all there. Null when separators are too
 * dense for this to pay.
 */
function candidatesBeforeSeparators(v: string): number[] | null {
  // A separator costs about as much as 32 characters of the whole-string searches: text denser in them (JSON, logs,
  // env files) takes those searches, judged by its first characters, or as soon as it proves denser than that.
  let budget = v.length >> 5;
  let sample = 0;
  for (let i = 0; i < LONG; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x3a || c === 0x3d) sample++;
  }
  if (sample > LONG >> 5) return null;
  // The names are read from the string itself (issue 25, perf27): `indexOf` has just read the characters before each
  // separator, so they are in the cache, where the shared code-unit copy (units.ts) of a megabyte, made by the scanners
  // before, is not: the first read before each separator was a miss, most of this pass's time on a 1 MB result.
  const at: number[] = [];
  for (const sep of [":", "="]) {
    for (let q = v.indexOf(sep); q >= 0; q = v.indexOf(sep, q + 1)) {
      if (--budget < 0) return null;
      let end = q;
      while (end > 0 && q - end < 8 && (v.charCodeAt(end - 1) === 0x20 || v.charCodeAt(end - 1) === 0x09)) end--;
      if (end > 0 && (v.charCodeAt(end - 1) === 0x22 || v.charCodeAt(end - 1) === 0x27)) end--;
      let start = end;
      while (start > 0 && q - start < WORD_REACH && isNameChar(v.charCodeAt(start - 1))) start--;
      // Each stem at each place of the name, in any case (the name is ASCII: the 0x20 bit folds a letter's case).
      for (let i = start; i + 3 <= end; i++) {
        const first = STEMS_BY_FIRST[v.charCodeAt(i) | 0x20];
        if (first === undefined) continue;
        for (const stem of first) {
          if (!stemAt(v, i, end, stem)) continue;
          at.push(i);
          if (stem === "key") for (let back = 1; back <= 3 && i - back >= 0; back++) at.push(i - back);
        }
      }
    }
  }
  return sortedUnique(at);
}

/**
 * A one-time token in a link's query (`?token=…` of a password-reset, e-mail confirmation or invitation link): the
 * link is for the user to follow, not a credential to redact.
 */
function linkToken(v: string, pos: number, word: string): boolean {
  const w = word.toLowerCase();
  let s = pos;
  while (s > 0 && pos - s < 24 && /[A-Za-z_-]/.test(v[s - 1] as string)) s--;
  if (s === 0 || (v[s - 1] !== "?" && v[s - 1] !== "&")) return false;
  // A meeting invitation's passcode in its join link (`…/j/81234567890?pwd=…`, `…/join/…?pwd=…`): the invitation is
  // for whoever follows it, as a reset link's token is.
  if (w === "pwd") {
    const from = v.lastIndexOf("http", s);
    return s === pos && from >= 0 && s - from <= 300 && /^https?:\/\/[^\s?]{1,250}\/(?:j|join|meet|meeting|meetings|webinar|w)\/[^\s?]{1,80}\?(?:[^\s]{0,200}&)?$/.test(v.slice(from, s));
  }
  if (w !== "token") return false;
  return /^(?:(?:reset|password_reset|confirm|confirmation|invite|invitation|verify|verification|email|magic|login|signup|activation)[_-]?)?$/i.test(v.slice(s, pos));
}

/**
 * Secret assignments; `prefilter` false skips the message-wide stem check, `nearSeparators` false looks for the stems
 * in all of a long string (what neither may ever change).
 */
export function detectSecretAssignments(sites: StringSite[], prefilter = true, nearSeparators = true): Detection[] {
  const out: Detection[] = [];
  const lits = prefilter ? literalsOf(sites) : null;
  if (lits !== null && !lits.any(STEM_IDS)) return out;
  for (const site of sites) {
    const v = site.value;
    let lastEnd = 0;
    // The last value judged: a run of assignments whose values run into each other (`a_token:b_token:…`) gives the
    // same value at many separators, judged once.
    let judged: string | null = null;
    const ends: ValueEnds = { from: Infinity, at: -1, valueEnd: 0 };
    let secretLike = false;
    for (const pos of candidates(v, nearSeparators)) {
      if (pos < lastEnd) continue;
      VOCABULARY_AT.lastIndex = pos;
      const m = VOCABULARY_AT.exec(v);
      if (!m) continue;
      // (Ninth round) A key named public (`DOTENV_PUBLIC_KEY`, `publicKey`, `PublishableKey`): the word right before
      // the vocabulary word says so; `NEXT_PUBLIC_API_KEY` is an API key still.
      if (PUBLIC_NAME.test(v.slice(Math.max(0, pos - 12), pos)) && /key/i.test(m[0])) continue;
      // Inside the last value read (assignments running into each other): its end is known, the value is not read again.
      const value = pos < ends.valueEnd ? valueAfter(v, pos + m[0].length, ends) : afterName(v, pos + m[0].length, ends);
      if (value === null) continue;
      if (value !== judged) {
        judged = value;
        secretLike = looksRandom(value) && !wordy(value) && !NOT_A_SECRET.some((re) => re.test(value)) && !isCiphertext(v, ends.valueEnd - value.length);
      }
      if (!secretLike || linkToken(v, pos, m[0])) continue;
      const end = ends.valueEnd;
      // (Eleventh round) A Google browser key in the web-app config it ships in (Firebase's `apiKey` beside
      // `authDomain`…): public by design, as the format's own rule judges it (secrets.ts); the same key elsewhere counts.
      if (value.startsWith("AIza") && browserConfig(v, end - value.length)) continue;
      // (Twelfth round) A value inside a presigned link (its session token, its signature): the link's own (signed-urls.ts).
      if (insideSignedUrl(v, end - value.length, end)) continue;
      // (Thirteenth round) An access key id under a name that calls it the id (`"AccessKeyId": "AKIA…"`) in a string with
      // nothing an AWS secret key could be: a key inventory's listing, as the format's own rule judges it (secrets.ts).
      if (AWS_KEY_ID.test(value) && ID_NAMED.test(v.slice(Math.max(0, end - value.length - 24), end - value.length)) && v.length <= 4000 && !SECRET_RUN.test(v)) continue;
      out.push({ type: "secrets.assignment", path: site.path, start: end - value.length, end });
      lastEnd = end;
    }
    if (includesRare(v, "value")) namedValues(site, out);
  }
  return out;
}

/** A `value` field (JSON, YAML): `"value": "…"`, `value: …`. */
const VALUE_FIELD = /(["']?)value\1[ \t]{0,8}[:=][ \t]{0,8}(["']?)([^\s"'`,;{}[\]]{8,256})/g;
/** A field naming what an object is: `name`, `key`, `type`, `kind`, `id`, `label`. */
const NAMING_FIELD = /(["']?)(?:name|key|type|kind|id|label|env|variable)\1[ \t]{0,8}[:=][ \t]{0,8}["']?([A-Za-z0-9_.\/-]{2,80})/g;
const SECRET_NAME = /secret|passw(?:or)?d|pwd|passphrase|token|credential|api_?key|[_.-]key\b|private/i;

/**
 * Secrets under a neutral `value` field whose object names them (a Kubernetes env entry `- name: DB_PASSWORD` /
 * `value: …`, Terraform state `"type": "cloudflare_api_token"` … `"value": "…"`): the name is a field of its own, within
 * the 400 characters before: the nearest `name` or `key` (an env entry's own), or a `type` or `kind` of the object or
 * its parent. The value must look random as an assignment's does. At most 64 values per string.
 */
function namedValues(site: StringSite, out: Detection[]): void {
  const v = site.value;
  VALUE_FIELD.lastIndex = 0;
  let n = 0;
  for (let m; (m = VALUE_FIELD.exec(v)) !== null && n < 64; n++) {
    const value = m[3] as string;
    const end = m.index + m[0].length;
    const start = end - value.length;
    if (out.some((d) => d.path === site.path && d.start <= start && end <= d.end)) continue;
    if (!looksRandom(value) || wordy(value) || NOT_A_SECRET.some((re) => re.test(value))) continue;
    const before = v.slice(Math.max(0, m.index - 400), m.index);
    // The nearest name (an env entry's own), or the kind of the object or its parent (`"type": "…_token"`).
    let nearest: string | null = null;
    let kind = false;
    NAMING_FIELD.lastIndex = 0;
    for (let k, c = 0; (k = NAMING_FIELD.exec(before)) !== null && c < 32; c++) {
      if (/^["']?(?:type|kind)/.test(k[0])) kind ||= SECRET_NAME.test(k[2] as string);
      else nearest = k[2] as string;
    }
    if (kind || (nearest !== null && SECRET_NAME.test(nearest))) out.push({ type: "secrets.assignment", path: site.path, start, end });
  }
}

/** `AFTER_NAME`'s value at `at` (null when it does not match), noting where it ended. */
function afterName(v: string, at: number, ends: ValueEnds): string | null {
  AFTER_NAME.lastIndex = at;
  const a = AFTER_NAME.exec(v);
  if (a === null) return null;
  ends.valueEnd = AFTER_NAME.lastIndex;
  return a[2] as string;
}

/** Where the next end of a value is (`at`, or -1: none after `from`), and where the last value read ended. */
export interface ValueEnds {
  from: number;
  at: number;
  valueEnd: number;
}

/**
 * The value `AFTER_NAME` matches at `i` (null when it does not match), found without reading the value again at every
 * separator: the name and separator by `BEFORE_VALUE`, and the value's end from the next end of a value after it,
 * remembered while the values read move forward. When the value the first way gives is too short, the full regex
 * decides (it may match another way: `key:=` read as `:` and a value `=…`). So the value is always `AFTER_NAME`'s
 * group 2, and a megabyte of assignments running into each other (`a_token:b_token:…`) is read about once.
 */
export function valueAfter(v: string, at: number, ends: ValueEnds): string | null {
  BEFORE_VALUE.lastIndex = at;
  if (!BEFORE_VALUE.test(v)) return null;
  const start = BEFORE_VALUE.lastIndex;
  if (start < ends.from || (ends.at !== -1 && start > ends.at)) {
    VALUE_END.lastIndex = start;
    ends.at = VALUE_END.test(v) ? VALUE_END.lastIndex - 1 : -1;
  }
  ends.from = start;
  const end = Math.min(start + MAX_VALUE, ends.at === -1 ? v.length : ends.at);
  if (end - start >= 8) {
    ends.valueEnd = end;
    return v.slice(start, end);
  }
  // Another way can only add one character (`:=` read as `:`, the value starting at `=`): seven are needed for that.
  if (end - start !== 7) return null;
  return afterName(v, at, ends);
}

