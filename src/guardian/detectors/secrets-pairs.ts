import { entropy } from "./entropy.js";
import { literalId, type MessageLiterals } from "./literals.js";
import { includesRare } from "./rare-index.js";
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
 *
 * Phase 2 (sets 32 and 33 opened), the same way:
 *
 * 6. **A secret variable echoed in a log** (`$ echo "Using client $X_ID / $X_SECRET"` and the next line, the echo's
 *    output): the template's literal text is matched in the output line left to right, and what stands where a
 *    variable named for a secret (…SECRET, …TOKEN, …PASSWORD, …KEY, …PASS, …AUTH) stood is its value.
 * 7. **A pre-shared key in words** ("PSK is …", "pre-shared key: …"): a tunnel's or a device's shared secret.
 * 8. **A table's column named for a key** (`ICCID,IMSI,KI,OPC` with hex per row, `user,password`, `name,api_key`): a
 *    CSV or TSV header with a column named key, secret, password, token, PSK, Ki, OPc, K or OP (not an id, a public
 *    key, a fingerprint, a hash or an idempotency key), and random values under it in two rows or more.
 * 9. **An eSIM activation code** (`LPA:1$<SM-DP+ host>$<matching id>`, GSMA SGP.22): it downloads a subscriber's
 *    profile once, to whoever holds it.
 * 10. **A key given to an API client's constructor** (`meraki.DashboardAPI("413b…")`, `WeatherApi('…')`,
 *    `PaymentsClient("…")`): a class named for an API, a client, a session or an SDK, called with one string that
 *    looks random (hex counts: the name says it is a key), not a URL, a word or a placeholder.
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

// 6. An echo of variables, and the line after it.
const ECHO = /^[ \t]{0,8}(?:(?:\S{0,40}[$#+>]|Run|\d{4}-\d\d-\d\dT[\d:.]{1,20}Z(?:[ \t]{1,3}[$#+>])?)[ \t]{1,3})?echo[ \t]{1,3}(?:-[a-zA-Z]{1,3}[ \t]{1,3})?["']?([^\n]{4,300}?)["']?[ \t]{0,3}$/gm;
const VAR_REF = /\$\{?([A-Za-z_][A-Za-z0-9_]{0,63})\}?/g;
const SECRET_VAR = /(?:SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|_KEY|APIKEY|_AUTH)$/i;
// 7. A pre-shared key in words.
const PSK = /\b(?:PSK|pre-?shared[ \t-]key|preshared[ \t-]key|psk[_-]key|ipsec[ \t_-](?:key|secret))\b[ \t]{0,3}(?:is[ \t]{1,3}|:[ \t]{0,3}|=[ \t]{0,3})["'`]?([^\s"'`]{8,128})/gi;
// 8. A table header's key column.
const KEY_COLUMN = /^(?:ki|opc|op|k|key|secret|password|passwd|pwd|token|psk|api[_ -]?key|secret[_ -]?key|access[_ -]?token|auth[_ -]?key|private[_ -]?key|client[_ -]?secret)$/i;
// 9. An eSIM activation code.
const LPA = /LPA:1\$[A-Za-z0-9.-]{3,253}\$([A-Za-z0-9-]{8,64})(?![A-Za-z0-9-])/g;
// 10. An API client's constructor with one string.
/** What each gated search needs (literals.ts's ids): a match of the search holds one of its literals. */
const AUTHORIZATION = [literalId("authorization")];
const AUTH_NAMES = ["_auth", "_cred", "_userpass", "_login"].map(literalId);
const ECHO_WORD = [literalId("echo")];
const PSK_WORDS = ["psk", "shared", "ipsec"].map(literalId);
const PK = [literalId("pk_")];

const CLIENT_CTOR = /(?<![A-Za-z0-9_])(?:[a-z_][A-Za-z0-9_]{0,40}\.)?[A-Za-z0-9]{0,40}(?:API|Api|Client|Session|SDK|Sdk)\([ \t]{0,4}(?:api_?key[ \t]{0,2}=[ \t]{0,2})?["']([A-Za-z0-9._~+/=-]{20,256})["'][ \t]{0,4}[,)]/g;

function echoedSecrets(v: string, push: (start: number, end: number) => void): void {
  ECHO.lastIndex = 0;
  for (let m, n = 0; (m = ECHO.exec(v)) !== null && n < 32; n++) {
    const template = (m[1] as string).replace(/["']$/, "");
    const nl = v.indexOf("\n", m.index + m[0].length);
    if (nl < 0) continue;
    const endLine = v.indexOf("\n", nl + 1);
    const out = v.slice(nl + 1, endLine < 0 ? v.length : endLine);
    if (out.length > 2048) continue;
    // The template's pieces: literals and variables, in order.
    const pieces: { lit: string; name: string | null }[] = [];
    let last = 0;
    VAR_REF.lastIndex = 0;
    for (let r; (r = VAR_REF.exec(template)) !== null && pieces.length < 16; ) {
      pieces.push({ lit: template.slice(last, r.index), name: r[1] as string });
      last = r.index + r[0].length;
    }
    if (pieces.length === 0 || !pieces.some((p) => SECRET_VAR.test(p.name as string))) continue;
    const tail = template.slice(last);
    // Skip a line prefix the log adds (a timestamp): the first literal is looked for anywhere in the line.
    let at = pieces[0]?.lit === "" ? 0 : out.indexOf(pieces[0]?.lit as string);
    if (at < 0) continue;
    const base = nl + 1;
    let ok = true;
    const values: { name: string; start: number; end: number }[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i] as { lit: string; name: string };
      if (i > 0 || p.lit !== "") {
        if (out.slice(at, at + p.lit.length) !== p.lit) {
          ok = false;
          break;
        }
        at += p.lit.length;
      }
      const next = i + 1 < pieces.length ? (pieces[i + 1] as { lit: string }).lit : tail;
      const stop = next === "" ? (/\s/.exec(out.slice(at))?.index ?? out.length - at) + at : out.indexOf(next, at);
      if (stop < 0 || stop - at > 256) {
        ok = false;
        break;
      }
      values.push({ name: p.name, start: at, end: stop });
      at = stop;
    }
    if (!ok) continue;
    for (const x of values) {
      const value = out.slice(x.start, x.end);
      if (SECRET_VAR.test(x.name) && !value.startsWith("$") && (keyShaped(value) || passwordShaped(value))) push(base + x.start, base + x.end);
    }
  }
}

function keyColumns(v: string, push: (start: number, end: number) => void): void {
  // Each header line (a line with 2 to 32 comma, tab or semicolon separated names) and the rows under it.
  let lineStart = 0;
  let lines = 0;
  while (lineStart < v.length && lines < 2000) {
    lines++;
    const nl = v.indexOf("\n", lineStart);
    const line = v.slice(lineStart, nl < 0 ? v.length : nl);
    const next = nl < 0 ? v.length : nl + 1;
    const sep = line.includes("\t") ? "\t" : line.includes(",") ? "," : line.includes(";") ? ";" : null;
    if (sep !== null && line.length <= 400) {
      const names = line.split(sep).map((x) => x.trim().replace(/^["']|["']$/g, ""));
      const cols = names.map((x, i) => (KEY_COLUMN.test(x) ? i : -1)).filter((i) => i >= 0);
      if (names.length >= 2 && names.length <= 32 && cols.length > 0 && names.every((x) => /^[A-Za-z][A-Za-z0-9 _.-]{0,40}$/.test(x))) {
        // The rows under it.
        const hits: { start: number; end: number }[] = [];
        let rowStart = next;
        for (let r = 0; r < 64 && rowStart < v.length; r++) {
          const rnl = v.indexOf("\n", rowStart);
          const row = v.slice(rowStart, rnl < 0 ? v.length : rnl);
          const cells = row.split(sep);
          if (cells.length !== names.length) break;
          let offset = 0;
          cells.forEach((cell, i) => {
            const value = cell.trim().replace(/^["']|["']$/g, "");
            if (cols.includes(i) && !/\/|\.[a-z]{2,4}$/.test(value) && (keyShaped(value) || passwordShaped(value))) {
              const s = rowStart + offset + cell.indexOf(value);
              hits.push({ start: s, end: s + value.length });
            }
            offset += cell.length + sep.length;
          });
          rowStart = rnl < 0 ? v.length : rnl + 1;
        }
        if (hits.length >= 2) for (const h of hits) push(h.start, h.end);
      }
    }
    lineStart = next;
  }
}

/**
 * `s.includes(" / ")`, searched for from its slash: V8 looks for a literal from its first character, and a space
 * stopped the search at every word of a long text (a megabyte of prose: 0.7 ms against 0.25, at load). Where slashes
 * followed by a space turn out common (64 without a space before them), V8's search takes over from there.
 */
function spacedSlash(s: string): boolean {
  let misses = 0;
  for (let i = s.indexOf("/ ", 1); i >= 0; i = s.indexOf("/ ", i + 1)) {
    if (s.charCodeAt(i - 1) === 32) return true;
    // (Every " / " starting before i has been ruled out.)
    if (++misses > 64) return s.includes(" / ", i);
  }
  return false;
}

/** Credentials that a login, an Authorization pair or an environment listing places (the five structures above). */
export function detectPairedCredentials(site: StringSite, found: Detection[], lits: MessageLiterals | null = null): void {
  const v = site.value;
  if (v.length < 16) return;
  // (Issue 25) Each search below that a literal gates runs only where the short message's literal prefilter
  // (literals.ts: every pair of the literal's characters is somewhere in its strings, in any case) lets it through.
  const may = (ids: readonly number[]) => lits === null || lits.any(ids);
  const push = (start: number, end: number) => {
    if (!found.some((d) => d.path === site.path && d.start < end && start < d.end)) found.push({ type: "secrets.credential", path: site.path, start, end });
  };
  const lower = v.length <= 200_000 ? v : v.slice(0, 200_000);
  if (may(AUTHORIZATION) && /authorization/i.test(lower)) {
    AUTH_PAIR.lastIndex = 0;
    for (let m, n = 0; (m = AUTH_PAIR.exec(lower)) !== null && n < 32; n++) {
      const key = m[1] as string;
      if (keyShaped(key)) push(m.index + m[0].length - key.length, m.index + m[0].length);
    }
  }
  if (spacedSlash(lower)) {
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
  if (may(AUTH_NAMES) && /_(?:AUTH|CREDENTIALS|CREDS|USERPASS|LOGIN)[ \t]{0,3}=/.test(lower)) {
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
  if (may(ECHO_WORD) && lower.includes("$") && lower.includes("\n") && /echo/.test(lower)) echoedSecrets(lower, push);
  if (may(PSK_WORDS) && /psk|pre-?shared|ipsec/i.test(lower)) {
    PSK.lastIndex = 0;
    for (let m, n = 0; (m = PSK.exec(lower)) !== null && n < 16; n++) {
      const raw = m[1] as string;
      const key = raw.replace(/[.,;:)]{1,3}$/, "");
      if (!(passwordShaped(key) || keyShaped(key))) continue;
      const start = m.index + m[0].length - raw.length;
      push(start, start + key.length);
    }
  }
  if (lower.includes("\n") && (lower.includes(",") || lower.includes("\t") || lower.includes(";")) && /(?:^|[,;\t])[ \t]{0,2}["']?(?:ki|opc|op|k|key|secret|password|passwd|pwd|token|psk|api[_ -]?key|secret[_ -]?key|access[_ -]?token|auth[_ -]?key|private[_ -]?key|client[_ -]?secret)["']?[ \t]{0,2}(?:[,;\t]|$)/im.test(lower)) keyColumns(lower, push);
  if (includesRare(lower, "LPA:1$")) {
    LPA.lastIndex = 0;
    for (let m, n = 0; (m = LPA.exec(lower)) !== null && n < 64; n++) {
      const code = m[1] as string;
      if (/x{4,}|X{4,}|example|EXAMPLE|matching/i.test(code) || !/[0-9]/.test(code)) continue;
      push(m.index + m[0].length - code.length, m.index + m[0].length);
    }
  }
  if (lower.includes("(")) {
    CLIENT_CTOR.lastIndex = 0;
    for (let m, n = 0; (m = CLIENT_CTOR.exec(lower)) !== null && n < 32; n++) {
      const key = m[1] as string;
      if (!keyShaped(key) || /^(?:https?|file|wss?)$/i.test(key.split(":")[0] ?? "") || key.includes("/")) continue;
      const end = m.index + m[0].length - 2 - (m[0].length - m[0].trimEnd().length);
      const start = lower.indexOf(key, m.index);
      if (start >= 0 && start + key.length <= end + 2) push(start, start + key.length);
    }
  }
  if (may(PK) && includesRare(lower, "pk_") && /pk_(?:live|test)_/.test(lower)) {
    PRIVATE_PK.lastIndex = 0;
    for (let m, n = 0; (m = PRIVATE_PK.exec(lower)) !== null && n < 16; n++) {
      const key = m[1] as string;
      // "publishable" or "public" in the words just before says otherwise.
      if (/publishable|public/i.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      if (keyShaped(key.slice(8))) push(m.index + m[0].length - key.length, m.index + m[0].length);
    }
  }
}
