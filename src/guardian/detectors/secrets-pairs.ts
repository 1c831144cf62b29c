import { entropy } from "./entropy.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "sec15") Credentials by where a login or a listing puts them, not by a vendor's format:
 *
 * 1. **An Authorization scheme with `identity:key`** (`Authorization: ApiKey user@org.example:92be…`, `Token
 *    alice:4f9…`): the key after the last colon, as Tastypie, CommCare and many self-hosted APIs document it.
 * 2. **A login's identity and password joined by ` / `** ("Log in with ops-bot / h7G#2kLm9p", "Sign in as
 *    admin@corp.example / Qw7!rT9z", "credentials: svc_backup / Zr8$wq1Lk"): the words before say it is a login, the
 *    second half is a chosen password (letters and digits, and a capital or a symbol; not a word, a path or a version).
 * 3. **A variable named for a login holding `identity:password`** (`export UAPI_AUTH="user:Tp9…"`, `BASIC_AUTH=ana:…`,
 *    `REGISTRY_CREDENTIALS='ci:…'`), what `curl -u "$VAR"` sends.
 * 4. **An environment listing's secret lines** (a framework's debug page, `env` printed as a table): at least three
 *    lines of `UPPER_NAME value` (or `NAME => value`, `NAME | value`), and a line whose name ends in KEY, SECRET,
 *    TOKEN or PASSWORD with one credential-shaped value (`APP_KEY base64:…`, `DB_PASSWORD mT7#…`); masked values
 *    (`********`), placeholders and words are not.
 * 5. **A key labelled private or secret in words whose prefix reads publishable** ("New private key: pk_live_…"):
 *    several vendors issue `pk_` keys as their private ones; the label in words decides.
 *
 * Linear: each pattern is anchored at a rare literal or a line start, with bounded quantifiers only.
 */

/** A chosen password: 8 to 64 characters, letters and digits, and a capital or a symbol; no word, path or version. */
function passwordShaped(v: string): boolean {
  if (v.length < 8 || v.length > 64) return false;
  if (!/[A-Za-z]/.test(v) || !/[0-9]/.test(v)) return false;
  if (!/[A-Z]/.test(v) && !/[^A-Za-z0-9]/.test(v)) return false;
  if (/^[/.~$%{<(-]|:\/\/|\$\{|\{\{|\*{3}|x{4,}|X{4,}|example|placeholder|changeme|your[-_]|passw|secret/i.test(v)) return false;
  if (/^v?\d+(?:\.\d+)+/.test(v) || /^[0-9.:/-]+$/.test(v) || /\.[a-z]{2,4}$/.test(v)) return false;
  return entropy(v) >= 2.8;
}

/** A random key: 16 to 256 characters of letters and digits (hex or mixed), high entropy, not one word. */
function keyShaped(v: string): boolean {
  if (v.length < 16 || v.length > 256 || !/^[A-Za-z0-9._~+/=-]+$/.test(v)) return false;
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v) || /x{6,}|X{6,}|EXAMPLE|example/.test(v)) return false;
  return entropy(v) >= 3.2;
}

// 1. `Authorization: <scheme> identity:key`.
const AUTH_PAIR = /authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?(?:ApiKey|Apikey|apikey|Api-Key|Token|token|Key|key)[ \t]{1,4}[^\s:"']{1,128}:([A-Za-z0-9._~+/=-]{16,256})(?![A-Za-z0-9._~+/=-])/gi;
// 2. A login's `identity / password`: the login words, up to 80 characters, then ` / ` and the password.
const LOGIN_WORDS = /\b(?:log[ -]?in|sign[ -]?in|login|logon|credentials?|creds|username\s{0,2}\/\s{0,2}password|user\s{0,2}\/\s{0,2}pass(?:word)?)\b/gi;
const SLASH_PAIR = /\S{2,80}[ \t]{1,3}\/[ \t]{1,3}([^\s"'`)\],;]{8,64})/y;
// 3. `NAME_AUTH="identity:password"`.
const AUTH_VAR = /\b[A-Z][A-Z0-9_]{0,40}(?:_AUTH|_CREDENTIALS|_CREDS|_USERPASS|_BASIC_AUTH|_LOGIN)[ \t]{0,3}=[ \t]{0,3}(["']?)([^"'\n:]{1,80}):([^\s"']{8,64})\1/g;
// 4. An environment listing's line: `NAME value`, `NAME => value`, `NAME | value`, `NAME: value`.
const ENV_LINE = /^[ \t|*+-]{0,4}([A-Z][A-Z0-9_]{1,60})(?:[ \t]{1,12}|[ \t]{0,4}(?:=>|\||:)[ \t]{0,4})(\S{1,256})[ \t|]{0,4}$/gm;
const SECRET_NAME = /(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD)$/;
// 5. A private or secret key in words, with a `pk_` value.
const PRIVATE_PK = /\b(?:private|secret)[ \t]{1,3}(?:api[ \t]{1,3})?key[ \t]{0,3}(?:is[ \t]{1,3}|:[ \t]{0,3}|=[ \t]{0,3})["'`]?(pk_(?:live|test)_[A-Za-z0-9]{16,64})(?![A-Za-z0-9_])/gi;

/** Credentials that a login, an Authorization pair or an environment listing places (the five structures above). */
export function detectPairedCredentials(site: StringSite, found: Detection[]): void {
  const v = site.value;
  if (v.length < 16) return;
  const push = (start: number, end: number) => {
    if (!found.some((d) => d.path === site.path && d.start < end && start < d.end)) found.push({ type: "secrets.credential", path: site.path, start, end });
  };
  const lower = v.length <= 200_000 ? v : v.slice(0, 200_000);
  if (/authorization/i.test(lower)) {
    AUTH_PAIR.lastIndex = 0;
    for (let m, n = 0; (m = AUTH_PAIR.exec(lower)) !== null && n < 32; n++) {
      const key = m[1] as string;
      if (keyShaped(key)) push(m.index + m[0].length - key.length, m.index + m[0].length);
    }
  }
  if (lower.includes(" / ")) {
    LOGIN_WORDS.lastIndex = 0;
    let reach = 0;
    for (let m, n = 0; (m = LOGIN_WORDS.exec(lower)) !== null && n < 64; n++) {
      const from = m.index + m[0].length;
      if (from < reach) continue;
      // The pair starts within 80 characters after the login words, on the same line.
      const slash = lower.indexOf(" / ", from);
      if (slash < 0 || slash - from > 80 || lower.slice(from, slash).includes("\n")) continue;
      // The identity is the last word before the slash.
      let s = slash;
      while (s > from && !/\s/.test(lower[s - 1] as string)) s--;
      SLASH_PAIR.lastIndex = s;
      const p = SLASH_PAIR.exec(lower);
      if (p === null) continue;
      const pw = (p[1] as string).replace(/[.,;:]{1,3}$/, "");
      if (!passwordShaped(pw)) continue;
      const end = p.index + p[0].length - ((p[1] as string).length - pw.length);
      push(end - pw.length, end);
      reach = end;
    }
  }
  if (/_(?:AUTH|CREDENTIALS|CREDS|USERPASS|LOGIN)[ \t]{0,3}=/.test(lower)) {
    AUTH_VAR.lastIndex = 0;
    for (let m, n = 0; (m = AUTH_VAR.exec(lower)) !== null && n < 32; n++) {
      const pw = m[3] as string;
      if (!passwordShaped(pw) && !keyShaped(pw)) continue;
      const end = m.index + m[0].length - (m[1] as string).length;
      push(end - pw.length, end);
    }
  }
  if (v.length <= 65_536 && v.includes("\n")) {
    ENV_LINE.lastIndex = 0;
    const lines: { name: string; value: string; start: number }[] = [];
    for (let m, n = 0; (m = ENV_LINE.exec(v)) !== null && n < 512; n++) {
      lines.push({ name: m[1] as string, value: m[2] as string, start: m.index + m[0].lastIndexOf(m[2] as string) });
      if (m[0].length === 0) ENV_LINE.lastIndex++;
    }
    if (lines.length >= 3 && lines.filter((l) => l.name.includes("_")).length >= 3) {
      for (const l of lines) {
        if (!SECRET_NAME.test(l.name) || /(?:PUBLIC|PUBLISHABLE|_ID|_NAME|_FILE|_PATH|_URL|_TTL|_LENGTH|_SIZE)_?(?:KEY|TOKEN)?$/.test(l.name)) continue;
        const value = l.value.replace(/^["']|["']$/g, "");
        const body = value.replace(/^base64:/, "");
        if (!(passwordShaped(value) || (keyShaped(body) && body.length >= 20))) continue;
        const at = v.indexOf(value, l.start);
        if (at >= 0) push(at, at + value.length);
      }
    }
  }
  if (/pk_(?:live|test)_/.test(lower)) {
    PRIVATE_PK.lastIndex = 0;
    for (let m, n = 0; (m = PRIVATE_PK.exec(lower)) !== null && n < 16; n++) {
      const key = m[1] as string;
      // "publishable" or "public" in the words just before says otherwise.
      if (/publishable|public/i.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      if (keyShaped(key.slice(8))) push(m.index + m[0].length - key.length, m.index + m[0].length);
    }
  }
}
