import { literalId, type MessageLiterals } from "./literals.js";
import { includesRare } from "./rare-index.js";
import { credentialShaped } from "./secrets-context.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Thirteenth round, "tps13") Credentials a command line or a token's own bytes say are credentials, with no noun
 * before them (docs/detection.md, "Thirteenth round: poisoning by what is done to the user (tps13)", secrets):
 *
 * 1. **A value piped into a login's standard input** (`secrets.credential`): `echo <value> | docker login … --password-stdin`
 *    (podman, helm registry, oras, nerdctl, skopeo, `gh auth login --with-token`, `vault login -`): the option says
 *    the piped value is the password. `echo $TOKEN | …` and `cat file | …` name no value and pass.
 * 2. **A base64 JSON token that carries a secret** (`secrets.credential`): `eyJ…` without the dots of a JWT (a
 *    Cloudflare tunnel token, many CLIs' "connection tokens") whose decoded object holds a random value of 24
 *    characters or more under a short key or a key that names a secret (`s`, `secret`, `key`, `token`, `password`).
 *    A JWT (three dotted parts: the JWT format judges it), a JSON of ids and names, and fillers pass.
 *
 * Linear: literal searches (`-stdin`, `with-token`, `eyJ`), bounded expressions at each hit, at most MAX_HITS per string,
 * decoding at most 2 KB per token.
 */

const MAX_HITS = 16;
const REACH = 65_536;

const PIPED = /(?:echo|printf)[ \t]{1,3}(?:-[ne][ \t]{1,3})?(["']?)([A-Za-z0-9_.~+/=:@!#%^*-]{12,256})\1[ \t]{0,3}\|[ \t]{0,3}[^|\n]{0,160}?(?:--password-stdin|--with-token|\bvault[ \t]{1,3}login[ \t]{1,3}-(?:[ \t]|$))/g;

function piped(v: string, push: (s: number, e: number) => void): void {
  if (!includesRare(v, "-stdin") && !includesRare(v, "with-token") && !includesRare(v, "vault")) return;
  PIPED.lastIndex = 0;
  const text = v.length > REACH ? v.slice(0, REACH) : v;
  for (let m, n = 0; (m = PIPED.exec(text)) !== null && n < MAX_HITS; n++) {
    const value = m[2] as string;
    if (value.startsWith("$") || !credentialShaped(value, true, true)) continue;
    const start = m.index + m[0].indexOf(value);
    push(start, start + value.length);
  }
}

const TOKEN_JSON = /eyJ[A-Za-z0-9+/_-]{40,2700}={0,2}/g;
const SECRET_KEY = /^(?:s|k|secret|secretkey|secret_key|key|token|password|pass|pwd|tunnelsecret|tunnel_secret|sharedsecret|apikey|api_key)$/i;

function tokenJson(v: string, push: (s: number, e: number) => void): void {
  // (Found at its `J`: V8's `includes` stops at every `e` of a long text.)
  if (!includesRare(v, "eyJ")) return;
  TOKEN_JSON.lastIndex = 0;
  const text = v.length > REACH ? v.slice(0, REACH) : v;
  for (let m, n = 0; (m = TOKEN_JSON.exec(text)) !== null && n < MAX_HITS; n++) {
    const end = m.index + m[0].length;
    // A JWT's header: its dotted parts are the JWT format's to judge.
    if (text[end] === ".") continue;
    let obj: unknown;
    try {
      obj = JSON.parse(Buffer.from(m[0].replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"));
    } catch {
      continue;
    }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) continue;
    const hit = Object.entries(obj as Record<string, unknown>).some(([k, x]) => typeof x === "string" && x.length >= 24 && SECRET_KEY.test(k) && credentialShaped(x, true));
    if (hit) push(m.index, end);
  }
}

/** (perf31) What piped and tokenJson look for first, for the literal prefilter (in any case). */
const PIPED_IDS = ["-stdin", "with-token", "vault"].map(literalId);
const TOKEN_JSON_IDS = [literalId("eyJ")];

/**
 * This module's findings in one string, added to `found`. `lits` (perf31): the literal pass of the strings `site` is
 * one of (literals.ts), when the message is short: a search for what it proves absent is skipped (the same findings).
 */
export function detectPipedCredentials(site: StringSite, found: Detection[], lits: MessageLiterals | null = null): void {
  const v = site.value;
  if (v.length < 16) return;
  const push = (start: number, end: number) => {
    if (!found.some((d) => d.start <= start && d.end >= end)) found.push({ type: "secrets.credential", path: site.path, start, end });
  };
  if (lits === null || lits.any(PIPED_IDS)) piped(v, push);
  if (lits === null || lits.any(TOKEN_JSON_IDS)) tokenJson(v, push);
}
