import type { Detection, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "sec15") Values that name or stand for a credential without granting anything, by the structure
 * they sit in — not by a service's name:
 *
 * 1. **An access key id reported for its hygiene** (an audit's answer "AKIA… (user ci), last rotated 412 days ago,
 *    rotate it; I don't have the secret"): an id alone names a key. Only in a string of at most 2,000 characters that
 *    holds nothing an AWS secret key could be, and that says, within 300 characters of the id, that the secret is not
 *    at hand or what the key's age or use is. With its secret beside it, both count (SECRET_RUN).
 * 2. **A payment token labelled as one** (`{"type": "payment_page_token", "token": "ppt_…"}`, `"card_token": …`,
 *    `"payment_method_nonce": …`): a tokenised card made to be handed to the merchant; the label must say the token is a
 *    payment's, a card's or a checkout's (the key itself, or the object's `type`/`kind`). An `api_token` or an object
 *    that only mentions payments (`payment_provider: {token}`) is not excused.
 *    (Phase 2: or a listing whose header names the ids as ids — `AccessKeyId`, `ACCESSKEYMETADATA` — with no secret
 *    column.) A throw-away local database's password that is its user name (`farmos:farmos@mongo`) is the same kind:
 *    see localDefault.
 * 3. **A browser key written into a file that browsers load** (`esriConfig.apiKey = "…"` in `public/map.js`, a
 *    `siteKey` in an `.html` page): what front-end code holds is public by design and restricted by referrer. Only a
 *    credential found by its name (no known secret format), labelled as a browser SDK's key (`apiKey`, `accessToken`,
 *    `clientId`, `siteKey`, `publishableKey`, `appId`), in the content of a write whose path is a page or a script under
 *    a served folder. A label with `secret`, `private`, `server`, `admin` or `password`, a server file or an `.env`
 *    file, or any known secret format (`sk_live_…`) keeps its finding.
 */

/** Something an AWS secret access key could be: 40 characters of base64 standing alone (as secrets.ts). */
const SECRET_RUN = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/;
/** The secret said not to be at hand, or the key's age or use reported. */
const NO_SECRET = /\b(?:(?:do|does|did)\s{0,3}n[o']?t|never|cannot|can'?t|without)\s{1,3}(?:have|hold|see|store|keep|know|get|return|include)?\s{0,3}(?:access\s{1,3}to\s{1,3})?(?:the|its|their|that|any)\s{1,3}secret\b|\blast\s{1,3}(?:rotated|used)\b|\b\d{1,5}\s{1,3}days?\s{1,3}(?:ago|old)\b|\b(?:rotate|deactivate|disable)\s{1,3}(?:it|this\s{1,3}key|the\s{1,3}key)\b/i;

/** A listing of key ids (`aws iam list-access-keys` as a table or text, an inventory's header). */
const ID_LISTING = /\bAccessKeyId\b|ACCESSKEYMETADATA|\bAccess [Kk]ey I[Dd]\b/;
/** A configuration's assignment (`AWS_ACCESS_KEY_ID=AKIA…`) is a credential's half, not a listing. */
const ID_ASSIGNED = /ACCESS_KEY_ID["']?[ \t]{0,3}[=:]/i;
const SECRET_COLUMN = /SecretAccessKey|secret[ _-]access[ _-]key|aws_secret|SessionToken/i;

function idForHygiene(d: Detection, site: StringSite): boolean {
  const v = site.value;
  if (v.length > 4000 || SECRET_RUN.test(v)) return false;
  // (Phase 2) Or a listing of ids whose header names them as ids, with no secret column.
  if (ID_LISTING.test(v) && !SECRET_COLUMN.test(v) && !ID_ASSIGNED.test(v)) return true;
  if (v.length > 2000) return false;
  return NO_SECRET.test(v.slice(Math.max(0, d.start - 300), d.end + 300));
}

/**
 * A throw-away local database's credentials: a connection string whose password is its user name, to a host with no
 * dot (a compose service: `mongo`, `db`) or this machine (`farmos:farmos@mongo`, `app:app@localhost`), the pair a
 * word. The same pair to a named host, a random value repeated as user and password, or any other password, still counts.
 */
function localDefault(d: Detection, site: StringSite): boolean {
  const v = site.value;
  const secret = v.slice(d.start, d.end);
  const user = /:\/\/([^\s:@/]{1,64}):$/.exec(v.slice(Math.max(0, d.start - 80), d.start))?.[1];
  const host = /^@([A-Za-z0-9_.-]{1,64})(?=[:/?\s"']|$)/.exec(v.slice(d.end, d.end + 80))?.[1];
  // A word (the app's or the image's name), not a random value repeated (`Xk9q2LmP7rT:Xk9q2LmP7rT@db` is a password).
  if (user === undefined || host === undefined || user !== secret || !/^[a-z][a-z_-]{1,31}$/.test(secret)) return false;
  return !host.includes(".") || /^(?:localhost|127\.0\.0\.1)$/i.test(host);
}

/** A key or a type that says the token is a payment's (a tokenised card, a checkout's nonce). */
const PAYMENT_TOKEN = /^(?:(?:payment|card|checkout|pay)[_ -]?(?:page[_ -]?|method[_ -]?|source[_ -]?)?(?:token|nonce)|nonce)$/i;

function paymentToken(d: Detection, site: StringSite, sites: readonly StringSite[]): boolean {
  const path = site.path;
  const key = path[path.length - 1];
  if (typeof key !== "string") return false;
  if (PAYMENT_TOKEN.test(key)) return true;
  if (!/^(?:token|value|id)$/i.test(key)) return false;
  const parent = path.slice(0, -1);
  const siblingType = sites.find(
    (s) => s.path.length === path.length && parent.every((k, i) => s.path[i] === k) && typeof s.path[path.length - 1] === "string" && /^(?:type|kind|token_?type)$/i.test(s.path[path.length - 1] as string),
  );
  return siblingType !== undefined && siblingType.value.length <= 64 && PAYMENT_TOKEN.test(siblingType.value.trim());
}

/** The content arguments of a file write, and the path arguments beside them. */
const CONTENT_KEY = /^(?:content|contents|file_?text|text|code|new_?str|new_?string|body)$/i;
const PATH_KEY = /^(?:path|file_?path|filename|file|target|dest(?:ination)?)$/i;
/** A file browsers load: a page or component, or a script under a served folder. */
const SERVED =
  /\.(?:html?|vue|svelte|astro|jsx|tsx)$|(?:^|\/)(?:public|static|www|wwwroot|htdocs|site|web|assets|frontend|client|docs)\/(?:[^/]{1,80}\/){0,6}[^/]{1,80}\.(?:m?js|ts)$/i;
/** A browser SDK's key label right before the value (`esriConfig.apiKey = "`, `accessToken: '`, `data-sitekey="`). */
const BROWSER_LABEL = /(?:^|[^A-Za-z])(?:api[_-]?key|access[_-]?token|client[_-]?id|site[_-]?key|data-sitekey|publishable[_-]?key|public[_-]?key|app[_-]?id|browser[_-]?key|maps[_-]?key)["']?[ \t]{0,3}[:=][ \t]{0,3}["'`]$/i;
const SECRET_WORD = /secret|private|server|admin|passw|master|service[_-]?role/i;

function browserKey(d: Detection, site: StringSite, sites: readonly StringSite[]): boolean {
  const path = site.path;
  const key = path[path.length - 1];
  if (path[0] !== "params" || typeof key !== "string" || !CONTENT_KEY.test(key)) return false;
  const parent = path.slice(0, -1);
  const file = sites.find(
    (s) => s.path.length === path.length && parent.every((k, i) => s.path[i] === k) && typeof s.path[path.length - 1] === "string" && PATH_KEY.test(s.path[path.length - 1] as string),
  );
  if (file === undefined || file.value.length > 512 || !SERVED.test(file.value.trim()) || /(?:^|\/)\.env/i.test(file.value)) return false;
  const before = site.value.slice(Math.max(0, d.start - 48), d.start);
  if (!BROWSER_LABEL.test(before)) return false;
  const label = /[A-Za-z0-9_.-]{0,48}["']?[ \t]{0,3}[:=][ \t]{0,3}["'`]$/.exec(before)?.[0] ?? before;
  return !SECRET_WORD.test(label);
}

/** Drops the findings that name or stand for a credential without granting anything (the three structures above). */
export function grantsNothing(found: Detection[], sites: readonly StringSite[]): Detection[] {
  if (found.length === 0) return found;
  return found.filter((d) => {
    if (d.encoded !== undefined) return true;
    const site = sites.find((s) => s.path === d.path) ?? sites.find((s) => s.path.length === d.path.length && s.path.every((k, i) => k === d.path[i]));
    if (site === undefined) return true;
    if (d.type === "secrets.aws_access_key") return !idForHygiene(d, site);
    if (d.type === "secrets.connection_string") return !localDefault(d, site);
    if (d.type !== "secrets.credential") return true;
    return !paymentToken(d, site, sites) && !browserKey(d, site, sites);
  });
}
