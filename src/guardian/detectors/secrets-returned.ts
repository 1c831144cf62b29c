import { literalId, literalsOf } from "./literals.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Twenty-third round, "sec23") A login handed back (docs/detection.md, "Twenty-third round"): a tool's result or
 * another agent's reply that states an account and its password side by side — `user ops@x.example password Zr7!kLm2`,
 * `smtp-user: … smtp-pass: …`, `DB_USER=… DB_PASS=…`, `login kiosk / Tr4m#61x`. Whatever the service, a name and its
 * password together are a login, and a response puts it into the agent's context, its transcript and whatever the
 * agent writes next. sec20 read every label in responses and refused documents that describe fields (a README's
 * install line, a SealedSecret's sealed value, an API table); this reads only the pair, where a name and a value are
 * given together, and passes:
 *
 * - a value that is a placeholder, a reference (`${…}`, `<…>`, `%…%`, `***`), a blob longer than a password (a sealed or
 *   encrypted value), or a word with no digit nor symbol;
 * - a line that says the login is a default, a demo's, a sample or an example (published on purpose).
 *
 * Linear: one bounded regex per text, texts up to 64 KB, gated on the message's literals (a user's and a password's word).
 */

const MAX_TEXT = 65_536;

/** An account's word (optionally prefixed by what it logs in to: `smtp-`, `DB_`), a name, then a password's word and value. */
const RETURNED_PAIR =
  /(?:^|[^A-Za-z0-9])(?:[A-Za-z0-9]{1,12}[_-])?(?:user(?:name)?|login|account|benutzer|usuario|utilisateur|utente|gebruiker)(?:\s{0,3}[:=]\s{0,3}|\s{1,3})["']?([A-Za-z][\w.@+-]{1,63})["']?\s{0,2}[,;/]?\s{1,3}(?:(?:and|with|und|y|et|e)\s{1,3})?(?:(?:the|its|das|la|le|el)\s{1,3})?(?:[A-Za-z0-9]{1,12}[_-])?(?:pass|pw|pwd|password|passwd|passwort|kennwort|contrase(?:ñ|n)a|mot\s{1,3}de\s{1,3}passe|senha|wachtwoord)(?:\s{0,3}[:=]\s{0,3}|\s{0,3}(?:is|ist|es|est|é)\s{1,3}|\s{1,3})["']?([^\s"',;]{8,65})/gi;
const PLACEHOLDER = /^(?:\$\{?|\{\{|<|%|\*{3}|\[)|your|xxxx|example|changeme|placeholder|redacted|\*\*\*|\.\.\./i;
/** A line that says the login is published on purpose (the word itself, not a host's `.example`). */
const PUBLISHED = /(?<![.@\w-])(?:default|demo|sample|example|e\.g\.|dummy|fake|placeholder)\b/i;

/** The same words as plain alternations, tested on a text before the pair's regex (which has no literal to start on). */
const USER_WORD = /user|login|account|benutzer|usuario|utilisateur|utente|gebruiker/i;
const PASS_WORD = /pass|pw|kennwort|contrase|mot\sde|senha|wachtwoord/i;

const GATE_USER = ["user", "login", "account", "benutzer", "usuario", "utilisateur", "utente", "gebruiker"].map((l) => literalId(l));
const GATE_PASS = ["pass", "pw", "kennwort", "contrase", "mot de", "senha", "wachtwoord"].map((l) => literalId(l));

/** The spans of passwords stated beside their account in one text. */
export function returnedLogins(v: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (v.length > MAX_TEXT || !USER_WORD.test(v) || !PASS_WORD.test(v)) return out;
  RETURNED_PAIR.lastIndex = 0;
  for (let m, n = 0; (m = RETURNED_PAIR.exec(v)) !== null && n < 32; n++) {
    const raw = m[2] as string;
    // Longer than a password: a sealed or encrypted value, a key's blob.
    if (raw.length > 64) continue;
    const secret = raw.replace(/[.,;:!?)]+$/, "");
    if (secret.length < 8 || !/[A-Za-z]/.test(secret) || !/[\d!@#$%^&*+=?~]/.test(secret) || PLACEHOLDER.test(secret)) continue;
    const lineStart = v.lastIndexOf("\n", m.index) + 1;
    const lineEnd = v.indexOf("\n", m.index + m[0].length);
    if (PUBLISHED.test(v.slice(lineStart, lineEnd < 0 ? v.length : lineEnd))) continue;
    const start = m.index + m[0].length - raw.length;
    out.push({ start, end: start + secret.length });
  }
  return out;
}

/** Whether a message is a response (a tool's result, another agent's reply). */
export function returnsText(message: Record<string, unknown>): boolean {
  return "result" in message && !("method" in message);
}

/** Logins handed back in a response's text. */
export function detectReturnedLogins(sites: StringSite[], message: Record<string, unknown>): Detection[] {
  if (!returnsText(message)) return [];
  const lits = literalsOf(sites);
  if (lits !== null && !(lits.any(GATE_USER) && lits.any(GATE_PASS))) return [];
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "result" || site.path.includes("_meta") || site.value.length < 20) continue;
    for (const f of returnedLogins(site.value)) out.push({ type: "secrets.labelled", path: site.path, start: f.start, end: f.end });
  }
  return out;
}
