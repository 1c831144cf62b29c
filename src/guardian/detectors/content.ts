import { escapeRegExp, globRegExp } from "../../protocol/glob.js";
import { literalId, literalsOf } from "./literals.js";
import { findAll, type Detection, type StringSite } from "./scan.js";

/*
 * Built-in detectors over a message's strings. Every pattern here is written to run in linear time: no nested
 * unbounded quantifiers, and the costlier ones only run when a cheap literal they need is present.
 */

interface Pattern {
  type: string;
  re: RegExp;
  /** Skip the regex unless one of these literals occurs in the string (in any case when `re` has the `i` flag). */
  needs?: string[];
  /**
   * Every match starts where this matches. In a long string `re` then runs only at those places, so a common word it
   * needs ("you", "send") costs one search for the word, not a full pass of `re`.
   */
  starts?: RegExp;
  /**
   * Run only around this literal: every match holds it, preceded by at most `max` characters of the class `back`,
   * and `after` matches at it. For patterns a full scan would make slow (a long unanchored prefix before `@` or `://`).
   */
  anchor?: { literal: string; back: RegExp; max: number; after: RegExp };
  group?: number;
  accept?: (match: string) => boolean;
  /** Every match holds at least this many ASCII digits: a message with fewer is skipped. */
  digits?: number;
}

/** Strings at least this long take the literal-search paths; shorter ones one small regex. */
const LONG = 4096;

/**
 * Whether a literal occurs in a long string, remembered per string: several patterns and groups share literals.
 * Exact-case literals are an `includes`; case-insensitive ones a one-literal regex (Boyer-Moore in V8), so no
 * lower-cased copy of a large string is ever made.
 */
const seen = new WeakMap<StringSite, Map<string, boolean>>();
function contains(site: StringSite, needle: Needle): boolean {
  let m = seen.get(site);
  if (!m) {
    m = new Map();
    seen.set(site, m);
  }
  let hit = m.get(needle.key);
  if (hit === undefined) {
    // The literal's rarest characters first: memchr-speed searches that rule a literal out when one is missing.
    hit = needle.rare.every((cs) => cs.some((c) => hasChar(m, site.value, c))) && (needle.re ? needle.re.test(site.value) : site.value.includes(needle.text));
    m.set(needle.key, hit);
  }
  return hit;
}

function hasChar(cache: Map<string, boolean>, value: string, c: string): boolean {
  const key = "c:" + c;
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = value.includes(c);
    cache.set(key, hit);
  }
  return hit;
}

interface Needle {
  key: string;
  text: string;
  /** A case-insensitive search, for a literal with letters in an `i` pattern; otherwise `includes`. */
  re: RegExp | null;
  /** The literal's three least common characters, each as the forms it can take (both cases in an `i` pattern). */
  rare: string[][];
}

/** Characters from the most to the least common in English prose and source code; anything absent is rarer still. */
const BY_FREQUENCY = " etaoinsrhldcu\nmfpgwyb.,v/k\"'-_:=x()0123456789jq;{}z<>[]*#|@ETAOINSRHLDCUMFPGWYBVKXJQZ";

function needle(text: string, ci: boolean): Needle {
  const letters = ci && /[a-z]/i.test(text);
  const rank = (c: string) => (BY_FREQUENCY.includes(c) ? BY_FREQUENCY.indexOf(c) : BY_FREQUENCY.length);
  const chars = [...new Set(letters ? text.toLowerCase() : text)].sort((a, b) => rank(b) - rank(a)).slice(0, 3);
  return {
    key: (letters ? "i:" + text.toLowerCase() : text),
    text,
    re: letters ? new RegExp(escapeRegExp(text), "i") : null,
    rare: chars.map((c) => (letters && c.toUpperCase() !== c ? [c, c.toUpperCase()] : [c])),
  };
}

const sticky = (re: RegExp) => new RegExp(re.source, re.flags.replace("g", "") + "y");

/** A pattern ready to run: every field always present, so the loops over patterns see one object shape. */
class CompiledPattern {
  readonly type: string;
  readonly re: RegExp;
  readonly group: number;
  readonly accept: ((match: string) => boolean) | null;
  readonly needles: Needle[] | null;
  /** The `needs` as ids for the message-wide prefilter (`literals.ts`). */
  readonly needIds: number[] | null;
  readonly digits: number;
  /**
   * A test that any of the message's strings could match, run on all of them joined by newlines: the literals it
   * needs, or for a pattern without literals and without `^`/`$` (which a newline would change) `re` itself.
   */
  readonly prefilter: RegExp | null;
  /** `re` as a sticky regex, to try at one place. */
  readonly at: RegExp;
  readonly starts: RegExp | null;
  readonly anchor: { literal: string; max: number; after: RegExp; back: Uint8Array } | null;

  constructor(p: Pattern) {
    const ci = p.re.flags.includes("i");
    this.type = p.type;
    this.re = p.re;
    this.group = p.group ?? 0;
    this.accept = p.accept ?? null;
    this.needles = p.needs ? p.needs.map((n) => needle(n, ci)) : null;
    this.needIds = p.needs ? p.needs.map(literalId) : null;
    this.digits = p.digits ?? 0;
    const anchors = /(?<!\\)\$|(?<![[\\])\^/.test(p.re.source);
    this.prefilter = p.needs
      ? new RegExp(p.needs.map(escapeRegExp).join("|"), ci ? "i" : "")
      : anchors
        ? null
        : new RegExp(p.re.source, p.re.flags.replace("g", ""));
    this.at = sticky(p.re);
    this.starts = p.starts ?? null;
    this.anchor = null;
    if (p.anchor) {
      const back = new Uint8Array(128);
      for (let c = 0; c < 128; c++) back[c] = p.anchor.back.test(String.fromCharCode(c)) ? 1 : 0;
      this.anchor = { literal: p.anchor.literal, max: p.anchor.max, after: sticky(p.anchor.after), back };
    }
  }
}

/**
 * Patterns with cheap prefilters: a search for literals the pattern cannot match without. A large benign result
 * costs a few literal searches, not one regex pass per pattern.
 */
class PatternGroup {
  private readonly patterns: CompiledPattern[];
  constructor(patterns: Pattern[]) {
    this.patterns = patterns.map((p) => new CompiledPattern(p));
  }

  run(sites: StringSite[], only?: (p: CompiledPattern) => boolean, exhaustive = false): Detection[] {
    const out: Detection[] = [];
    // A short message: first the literals and digits every pattern needs, from one pass shared by all detectors;
    // then each pattern that may match is asked once, on all the strings together, before any one string is.
    const lits = exhaustive ? null : literalsOf(sites);
    let all: string | null | undefined = exhaustive ? null : undefined;
    for (const p of this.patterns) {
      if (only && !only(p)) continue;
      if (lits !== null && ((p.needIds !== null && !lits.any(p.needIds)) || p.digits > lits.digits)) continue;
      if (all === undefined) all = shortText(sites);
      if (all !== null && p.prefilter !== null && !p.prefilter.test(all)) continue;
      for (const site of sites) {
        if (exhaustive) {
          found(site, p, out);
          continue;
        }
        const long = site.value.length >= LONG;
        const needs = p.needles;
        // Short strings: one small regex of the literals. Long ones: a search per literal, shared by every pattern.
        if (needs && !(long ? needs.some((n) => contains(site, n)) : (p.prefilter as RegExp).test(site.value))) continue;
        if (p.anchor !== null) anchored(site, p, p.anchor, out);
        else if (p.starts !== null && long) startingAt(site, p, p.starts, out);
        else found(site, p, out);
      }
    }
    return out;
  }
}

/**
 * All of a message's strings, joined, when they are short together (else null). Kept for the last message only (the
 * detectors of one message ask one after the other), and only a short one, so no large message outlives its turn.
 */
let lastSites: StringSite[] | null = null;
let lastJoined = "";
function shortText(sites: StringSite[]): string | null {
  if (sites.length === 1) return (sites[0] as StringSite).value.length < LONG ? (sites[0] as StringSite).value : null;
  if (sites === lastSites) return lastJoined;
  let size = 0;
  for (const s of sites) size += s.value.length + 1;
  if (size >= LONG) return null;
  lastSites = sites;
  lastJoined = sites.map((s) => s.value).join("\n");
  return lastJoined;
}

/** Records a match of `p` (or its group) unless `accept` turns it down. */
function record(site: StringSite, p: CompiledPattern, m: RegExpExecArray, out: Detection[]): void {
  const text = m[p.group] ?? m[0];
  if (p.accept !== null && !p.accept(text)) return;
  const start = m.index + (p.group ? m[0].indexOf(text) : 0);
  out.push({ type: p.type, path: site.path, start, end: start + text.length });
}

/** Every match of the pattern in the string: a full scan. */
function found(site: StringSite, p: CompiledPattern, out: Detection[]): void {
  const re = p.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(site.value)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    record(site, p, m, out);
  }
}

/** The same matches as a full scan, trying `re` only where `starts` matches. */
function startingAt(site: StringSite, p: CompiledPattern, starts: RegExp, out: Detection[]): void {
  const v = site.value;
  starts.lastIndex = 0;
  let s: RegExpExecArray | null;
  while ((s = starts.exec(v)) !== null) {
    p.at.lastIndex = s.index;
    const m = p.at.exec(v);
    if (m && m[0].length > 0) {
      record(site, p, m, out);
      starts.lastIndex = s.index + m[0].length;
    } else starts.lastIndex = s.index + 1;
  }
}

/**
 * The same matches as a full scan, trying `re` only at the starts that can reach an occurrence of the anchor literal
 * (at most `max` characters of the `back` class before it), and only where `after` holds at the literal.
 */
function anchored(site: StringSite, p: CompiledPattern, anchor: NonNullable<CompiledPattern["anchor"]>, out: Detection[]): void {
  const { literal, max, after, back } = anchor;
  const v = site.value;
  let lastEnd = 0;
  let pos = v.indexOf(literal);
  while (pos >= 0) {
    let next = pos + literal.length;
    after.lastIndex = pos;
    if (after.test(v)) {
      let start = pos;
      while (start > lastEnd && pos - start < max && back[v.charCodeAt(start - 1)] === 1) start--;
      for (let s = start; s <= pos; s++) {
        p.at.lastIndex = s;
        const m = p.at.exec(v);
        if (m && m[0].length > 0) {
          record(site, p, m, out);
          lastEnd = s + m[0].length;
          next = Math.max(next, lastEnd);
          break;
        }
      }
    }
    pos = v.indexOf(literal, next);
  }
}

const SECRETS: Pattern[] = [
  // AWS's documented example keys (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) are not secrets.
  { type: "secrets.aws_access_key", re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, needs: ["AKIA", "ASIA"], accept: (s) => !s.endsWith("EXAMPLE") },
  { type: "secrets.aws_secret_key", re: /aws_secret_access_key["']?\s*[=:]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi, group: 1, needs: ["ecret_access_key"], accept: (s) => !s.endsWith("EXAMPLEKEY") },
  { type: "secrets.github_token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g, needs: ["gh", "github_pat_"], starts: /\bgh[pousr]_|\bgithub_pat_/g },
  { type: "secrets.gitlab_token", re: /\bglpat-[A-Za-z0-9_-]{20,}/g, needs: ["glpat-"] },
  { type: "secrets.slack_token", re: /\bxox[baprs]-[A-Za-z0-9-]{10,}/g, needs: ["xox"] },
  { type: "secrets.slack_webhook", re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g, needs: ["hooks.slack.com"] },
  { type: "secrets.stripe_key", re: /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/g, needs: ["_live_"] },
  { type: "secrets.anthropic_key", re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, needs: ["sk-ant-"] },
  { type: "secrets.openai_key", re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, needs: ["sk-"], accept: (s) => /[0-9]/.test(s) && /[A-Za-z]/.test(s.slice(3)) },
  { type: "secrets.google_api_key", re: /\bAIza[0-9A-Za-z_-]{35}\b/g, needs: ["AIza"] },
  { type: "secrets.private_key", re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|$)/g, needs: ["PRIVATE KEY"] },
  { type: "secrets.jwt", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g, needs: ["eyJ"] },
  {
    type: "secrets.connection_string",
    re: /[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/"'<>]{1,100}:([^\s@/"'<>]{3,200})@[^\s/"'<>]{1,255}/gi,
    group: 1,
    needs: ["@"],
    anchor: { literal: "://", back: /[A-Za-z0-9+.-]/, max: 21, after: /:\/\/[^\s:@/"'<>]{1,100}:[^\s@/"'<>]{3,200}@[^\s/"'<>]/ },
    accept: (pw) => !/^(?:\*+|x+|password|pass|secret|changeme|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\})$/i.test(pw),
  },
];

const SECRET_GROUP = new PatternGroup(SECRETS);
export function detectSecrets(sites: StringSite[]): Detection[] {
  return SECRET_GROUP.run(sites);
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function ibanValid(raw: string): boolean {
  const s = raw.replace(/ /g, "");
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const v = code >= 65 ? String(code - 55) : ch;
    for (const c of v) rem = (rem * 10 + (c.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

const PII: Pattern[] = [
  {
    type: "pii.email",
    re: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g, needs: ["@"],
    anchor: { literal: "@", back: /[A-Za-z0-9._%+-]/, max: 64, after: /@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/ },
    accept: (s) => !s.startsWith("git@"),
  },
  {
    type: "pii.credit_card",
    re: /(?<![\d.])(?:\d[ -]?){12,18}\d(?![\d.])/g,
    digits: 13,
    accept: (s) => {
      const digits = s.replace(/[ -]/g, "");
      return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhn(digits);
    },
  },
  { type: "pii.ssn", re: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g, digits: 9 },
  { type: "pii.phone", re: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-])/g, digits: 10 },
  { type: "pii.iban", re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, accept: ibanValid, digits: 2 },
  {
    type: "pii.ip",
    re: /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])/g,
    digits: 4,
    accept: (ip) => !/^(?:127\.|0\.|10\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|255\.)/.test(ip),
  },
];

export const PII_TYPES = PII.map((p) => p.type);

const PII_GROUP = new PatternGroup(PII);
export function detectPii(sites: StringSite[], only?: string): Detection[] {
  return PII_GROUP.run(sites, only ? (p) => p.type === only : undefined);
}

// Prompt injection and tool poisoning are scored judgements, not patterns: injection.ts.
export { detectPromptInjection, detectToolPoisoning } from "./injection.js";

/** Path-like tokens: split on whitespace, quotes and shell punctuation. */
const TOKEN = /[^\s"'`<>|;,()[\]{}]+/g;

const SENSITIVE: { type: string; re: RegExp }[] = [
  { type: "sensitive_path.ssh_key", re: /(?:^|[/\\])(?:\.ssh[/\\](?:id_[a-z0-9_]+|identity|authorized_keys)|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?)$/i },
  { type: "sensitive_path.cloud_credentials", re: /(?:^|[/\\])(?:\.aws[/\\](?:credentials|config)|\.azure[/\\](?:accessTokens\.json|msal_token_cache\.\w+)|gcloud[/\\](?:credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials(?:[/\\].*)?)|\.kube[/\\]config|\.docker[/\\]config\.json|\.config[/\\]gh[/\\]hosts\.yml)$/i },
  { type: "sensitive_path.dotenv", re: /(?:^|[/\\])\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[\w-]+)?$/i },
  { type: "sensitive_path.credential_file", re: /(?:^|[/\\])(?:\.netrc|_netrc|\.git-credentials|\.npmrc|\.pypirc|\.pgpass|\.htpasswd|\.vault-token|\.terraformrc|credentials\.json|secrets\.ya?ml|\.gnupg(?:[/\\].*)?|\.password-store(?:[/\\].*)?|keychain-db|\.keychain)$/i },
  { type: "sensitive_path.system", re: /^(?:\/etc\/(?:shadow|gshadow|sudoers(?:\.d\/.*)?|master\.passwd|security\/opasswd)|\/etc\/ssl\/private(?:\/.*)?|\/root(?:\/.*)?|\/proc\/(?:self|\d+)\/(?:environ|mem|maps)|\/var\/run\/docker\.sock|[A-Za-z]:\\Windows\\System32\\config\\(?:SAM|SYSTEM|SECURITY))$/i },
  { type: "sensitive_path.browser_profile", re: /(?:Google[/\\]Chrome|google-chrome|Chromium|BraveSoftware|Microsoft[/\\]Edge|microsoft-edge|\.mozilla[/\\]firefox|Firefox[/\\]Profiles|Library[/\\]Safari)[/\\].*(?:Login Data|Cookies|Web Data|Local State|logins\.json|key[34]\.db|cookies\.sqlite|Cookies\.binarycookies)$/i },
  { type: "sensitive_path.traversal", re: /(?:^|[/\\])\.\.[/\\]\.\.(?:[/\\]|$)|%2e%2e(?:%2f|%5c|\/)/i },
];

/**
 * Without one of these (in any case: the paths are matched in any case, as Windows and macOS file systems do), no
 * token in a string can be a sensitive path.
 */
const HINTS = [".ssh", "id_", ".aws", ".azure", "gcloud", ".kube", ".docker", ".config", ".env", "netrc", "credentials", ".npmrc", ".pypirc", ".pgpass", ".htpasswd", ".vault", ".terraformrc", "secrets.", ".gnupg", ".password", "eychain", "/etc/", "/root", "/proc/", "docker.sock", "ystem32", "hrom", "rave", "dge", "irefox", "afari", "../", "..\\", "%2e%2e", "shadow", "sudoers"];
const SENSITIVE_HINT = new RegExp(HINTS.map(escapeRegExp).join("|"), "i");
const SENSITIVE_HINT_IDS = HINTS.map(literalId);
/** A token can only be a path if it has a separator or starts like a dotfile. */
const PATHISH = /[/\\]|^\.|^id_|%2e/i;

/** Sensitive paths; `prefilter` false takes every token of every string (what the hints must never change). */
export function detectSensitivePath(sites: StringSite[], prefilter = true): Detection[] {
  const out: Detection[] = [];
  const lits = prefilter ? literalsOf(sites) : null;
  if (lits !== null && !lits.any(SENSITIVE_HINT_IDS)) return out;
  for (const site of sites) {
    if (prefilter && !SENSITIVE_HINT.test(site.value)) continue;
    // A whole value that is one path may contain spaces ("…/Default/Login Data").
    if (site.value.length < 4096 && !site.value.includes("\n") && site.value.includes(" ")) {
      const whole = site.value.trim();
      const hit = SENSITIVE.find((s) => s.re.test(whole));
      if (hit) {
        const start = site.value.indexOf(whole);
        out.push({ type: hit.type, path: site.path, start, end: start + whole.length });
        continue;
      }
    }
    TOKEN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = TOKEN.exec(site.value)) !== null) {
      let token = m[0];
      // `file:///…` URIs and `path=…`/`--path=…` options carry a path after a prefix.
      const eq = token.lastIndexOf("=");
      let offset = 0;
      if (eq >= 0 && eq < token.length - 1) {
        offset = eq + 1;
        token = token.slice(offset);
      }
      if (token.startsWith("file://")) {
        offset += 7;
        token = token.slice(7);
      }
      if (token.length < 4 || token.endsWith(".pub") || !PATHISH.test(token)) continue;
      for (const s of SENSITIVE) {
        if (s.re.test(token)) {
          const start = m.index + offset;
          out.push({ type: s.type, path: site.path, start, end: start + token.length });
          break;
        }
      }
    }
  }
  return out;
}

const SYSTEM_DIRS = "(?:bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|srv|sys|usr|var|Users|System|Applications|Library)";
const DANGEROUS: Pattern[] = [
  {
    type: "dangerous_command.recursive_delete",
    re: new RegExp(
      String.raw`\brm\s+(?:-{1,2}[\w-]+\s+)*?-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-{1,2}[\w-]+\s+)*(?:\/|\/\*|~\/?|~\/\*|\$HOME\/?|\$\{HOME\}\/?|\*|\/${SYSTEM_DIRS}\/?)(?=$|[\s;&|)])`,
      "g",
    ),
    needs: ["rm"],
  },
  { type: "dangerous_command.recursive_delete", re: /\b(?:Remove-Item|del|rd|rmdir)\s+(?:\/[sq]\s+)*(?:-Recurse\s+)?(?:-Force\s+)?[A-Za-z]:\\(?:\*|Windows|Users)?(?=$|[\s;&|])/gi, needs: [":\\"] },
  { type: "dangerous_command.disk_format", re: /\b(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|wipefs|format\s+[A-Za-z]:)\s/g, needs: ["mkfs", "mke2fs", "wipefs", "format"] },
  { type: "dangerous_command.disk_overwrite", re: /\bdd\s[^\n;|]*\bof=\/dev\/(?:sd|hd|nvme|xvd|vd|disk|mmcblk|rdisk)|>\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d)|\bshred\s[^\n;|]*\/dev\//g, needs: ["/dev/"] },
  { type: "dangerous_command.remote_code", re: /\b(?:curl|wget|fetch|iwr|Invoke-WebRequest)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:env\s+)?(?:ba|z|k|da|fi)?sh\b|\b(?:ba|z)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:iex|Invoke-Expression)\b[^\n]{0,100}\b(?:DownloadString|iwr|Invoke-WebRequest|curl)\b/gi, needs: ["curl", "wget", "fetch", "iwr", "invoke-", "iex"] },
  { type: "dangerous_command.permissions", re: /\bchmod\s+(?:-[a-zA-Z]+\s+)*(?:0?777|a\+rwx|ugo\+rwx|[ug]?\+s)\s|\bchown\s+-R\s+\S+\s+\/(?=$|\s)/g, needs: ["chmod", "chown"] },
  { type: "dangerous_command.fork_bomb", re: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/g, needs: [":()"] },
  { type: "dangerous_command.privilege_escalation", re: /\bsudo\s+(?:-[a-zA-Z]*[si][a-zA-Z]*\b|su\b|bash\b|sh\b|passwd\b|visudo\b)|\becho\s[^\n]{0,200}>>?\s*\/etc\/(?:sudoers|passwd|shadow)\b/g, needs: ["sudo", "/etc/"] },
  { type: "dangerous_command.history_tamper", re: /\b(?:history\s+-c|unset\s+HISTFILE|crontab\s+-r)\b|>\s*~?\/?\.(?:bash|zsh)_history\b/g, needs: ["history", "HISTFILE", "crontab"] },
];

const DANGEROUS_GROUP = new PatternGroup(DANGEROUS);

/**
 * Every pattern of every detector with its shortcuts (literal prefilters, `starts`, anchors) or as a plain full
 * scan. The two must find exactly the same things; a test holds them to it.
 */
export function detectAllPatterns(sites: StringSite[], shortcuts: boolean): Detection[] {
  return [SECRET_GROUP, PII_GROUP, DANGEROUS_GROUP].flatMap((g) => g.run(sites, undefined, !shortcuts));
}
export function detectDangerousCommand(sites: StringSite[]): Detection[] {
  return DANGEROUS_GROUP.run(sites);
}

export interface UrlParams {
  allow?: string[];
  deny?: string[];
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>`)\]]+/gi;

/** A host glob: `*.example.com` is the apex and every subdomain; any other glob is an ordinary one. */
export function hostMatcher(pattern: string): RegExp {
  const p = pattern.toLowerCase();
  return p.startsWith("*.") ? new RegExp(`^(?:[a-z0-9-]+\\.)*${escapeRegExp(p.slice(2))}$`) : globRegExp(p);
}

export function compileUrlParams(params: UrlParams): { allow: RegExp[] | null; deny: RegExp[] } {
  return { allow: params.allow ? params.allow.map(hostMatcher) : null, deny: (params.deny ?? []).map(hostMatcher) };
}

/** URLs whose host is on the deny list, or off the allow list when there is one. */
export function detectUrls(sites: StringSite[], lists: { allow: RegExp[] | null; deny: RegExp[] }): Detection[] {
  const out: Detection[] = [];
  for (const d of findAll(sites.filter((s) => s.value.includes("://")), URL_RE, "url")) {
    const site = sites.find((s) => s.path === d.path);
    const raw = site?.value.slice(d.start, d.end) ?? "";
    let host: string;
    try {
      host = new URL(raw).hostname.toLowerCase().replace(/^\[|\]$/g, "");
    } catch {
      continue;
    }
    if (lists.deny.some((re) => re.test(host))) out.push({ ...d, type: "url.denied" });
    else if (lists.allow && !lists.allow.some((re) => re.test(host))) out.push({ ...d, type: "url.not_allowed" });
  }
  return out;
}
