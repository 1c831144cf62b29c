import type { Detection, StringSite } from "./scan.js";
import { entropy } from "./entropy.js";
import { localHost } from "./local-hosts.js";
import { detectSecrets } from "./secrets.js";
import { issuedFor } from "./audience.js";

/*
 * (exf26b) Credentials in the addresses a message hands another agent (docs/detection.md, "exf26b").
 *
 * An A2A message gives the remote agent addresses to use: a file part's `uri` it downloads, a push-notification
 * config's `url` it calls back, a data part's `callback`/`webhook`, a link in the text. Whatever the address holds is
 * handed over with it and lands in that agent's (and every hop's) request logs. What this catches:
 *
 * - a query parameter named as a key or a secret (`key`, `api_key`, `sis_key`, `hist_key`, `accountKey`, `aws_secret`,
 *   `access_token`, `password`…) whose value is random-looking (after a short vendor prefix such as `ps_`, `cnry_`,
 *   `nvprod-`): a system's API key riding along in a link, whoever's host it is;
 * - a Slack incoming webhook's secret path (`/T…/B…/<24 characters>`) on a host that is not Slack's: the user's webhook
 *   relayed to somebody else;
 * - a push-notification config whose `token` (or `credentials`) is another service's key by its format (a vendor's
 *   `xx_live_…` key, a GitHub, Stripe, AWS… key): the client mints that token for the callback; a service's key there
 *   has left its account.
 *
 * What it leaves alone: signed links (S3/GCS presigned, Azure SAS, CloudFront), whose signature is made to be handed
 * over; a share link's bare `token=`; a key's public kinds (`public_key`, `site_key`, a publishable `pk_…` or a test-mode `sk_test_…` value) and names that
 * are no credential (`idempotency_key`, `cache_key`, `sort_key`, `object_key`); values that are words, paths, ids or
 * placeholders; a push token that is a JWT, a UUID or any random string (the client's own); local hosts; MCP calls
 * (exfiltration.ts judges their URLs).
 *
 * Bounded: 64 URLs per message of 8 KB each, 64 query parameters per URL; every pattern is linear (no nested or
 * unbounded quantifiers).
 */

const A2A_SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
const URL_IN = /\bhttps?:\/\/[^\s"'<>`)\]}]{1,8192}/gi;

/** A query parameter that names a credential: `key`, `<word>_key`, `apiKey`, `secret`, `access_token`, `password`. */
const KEY_NAME = /^(?:[a-z0-9]{1,24}[_.-])?(?:key|api[_-]?key|apikey|secret|api[_-]?secret|secret[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|api[_-]?token|private[_-]?token|refresh[_-]?token|password|passwd|pwd)$/i;
const CAMEL_KEY_NAME = /^[a-z]{1,24}(?:[A-Z][a-z]{1,16}){0,2}(?:Key|Secret|Token|Password)$/;
/** Names of keys that are no credential, or a public one. */
const NOT_CREDENTIAL = /(?:^|[_.-])(?:idempotency|cache|sort|partition|primary|foreign|public|pub|publishable|site|object|row|dedupe?|correlation|request|trace|lookup|map|group|s3|file|blob|page|next|continuation|csrf|xsrf|state|sync|resume|cursor|license|licence|language|lang|search|sorting|order|primary)[_.-]?(?:key|token)$|^(?:idempotency|cache|sort|partition|primary|public|pub|publishable|site|object|row|page|next|continuation|csrf|xsrf|state|sync|resume|cursor)(?:Key|Token)$/i;
/** Parameters of a signed link: its signature is made to be handed over. */
const SIGNED = ["X-Amz-Signature", "X-Goog-Signature", "Signature", "Key-Pair-Id", "Policy"];

/** A Slack incoming webhook's secret path: team, bot and a 24-character secret. */
const SLACK_PATH = /\/T[A-Z0-9]{4,12}\/B[A-Z0-9]{4,12}\/[A-Za-z0-9]{20,32}(?:\/|$)/;
/** A vendor's live secret key (`xx_live_…`, `xx_prod_…`; a publishable `pk_` is public). */
const LIVE_SECRET = /^(?!pk_)[a-z]{2,10}_(?:live|prod)_[A-Za-z0-9]{12,200}$/;

/** A value that reads as random: mixed case and digits, or hex / lower case with digits spread, of 16 characters or more. */
function randomLooking(raw: string): boolean {
  let v = raw.includes("%") ? raw.replace(/%[0-9A-Fa-f]{2}/g, "") : raw;
  // A short vendor prefix (`ps_`, `cnry_`, `nvprod-`, `sk_live_`) is the issuer's mark, not the secret.
  v = v.replace(/^[A-Za-z]{2,10}(?:[_-](?:live|test|prod))?[_-](?=[A-Za-z0-9])/, "");
  const x = v.replace(/[-_]/g, "");
  if (x.length < 16 || x.length > 4096 || !/^[A-Za-z0-9+/=.~]+$/.test(x)) return false;
  if (/^\d+$/.test(x) || /^[a-z]+$/i.test(x)) return false;
  if (/^[0-9a-f]+$/i.test(x)) return x.length >= 20 && /[a-f]/i.test(x) && /\d/.test(x) && entropy(x) >= 3.0;
  if (entropy(x) < 3.5) return false;
  if (/[a-z]/.test(x) && /[A-Z]/.test(x) && /\d/.test(x)) return true;
  return x.length >= 20 && /^[a-z0-9]+$/i.test(x) && x.replace(/\D/g, "").length * 5 >= x.length;
}

/** A key that says by its prefix it is public (a publishable `pk_…`) or a test mode's (`sk_test_…`): nothing to protect. */
const PUBLIC_OR_TEST = /^(?:pk|pub|publishable)[_-]|^[a-z]{2,10}[_-]test[_-]/i;

const PLACEHOLDER = /^(?:\*+|x+|<[^>]{0,64}>|\{[^}]{0,64}\}|\$\{?[A-Za-z_]{1,64}\}?|%[A-Z_]{1,64}%)$/i;

/** The credential a URL handed to another agent carries, by its query's names or a webhook's path; null when none. */
export function linkCredential(raw: string, allowed: (host: string) => boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  if (host === "" || localHost(host) || allowed(host)) return null;
  const q = url.searchParams;
  if (SIGNED.some((k) => q.has(k)) || (q.has("sig") && q.has("se") && q.has("sv"))) return null;
  if (!issuedFor("secrets.slack_webhook", host) && url.pathname.length <= 2048 && SLACK_PATH.test(url.pathname)) return "a Slack webhook's secret path in a link handed to another agent";
  let n = 0;
  for (const [key, value] of q) {
    if (++n > 64) break;
    if (key.length > 48 || !(KEY_NAME.test(key) || CAMEL_KEY_NAME.test(key)) || NOT_CREDENTIAL.test(key)) continue;
    if (value.length < 16 || value.length > 4096 || PLACEHOLDER.test(value) || /^https?:/i.test(value) || PUBLIC_OR_TEST.test(value)) continue;
    if (randomLooking(value)) return `a credential (${key}) in a link handed to another agent`;
  }
  return accountList(q);
}

/** A query key naming accounts or people's numbers: `acct`, `accounts`, `iban`, `customer_ids`, `members`. */
const ACCOUNT_KEY = /^(?:[a-z]{1,16}[_-])?(?:acct|accts|account|accounts|account[_-]?(?:ids?|numbers?|nos?)|ibans?|cards?|card[_-]?numbers?|customers?|customer[_-]?ids?|clients?|client[_-]?ids?|members?|member[_-]?ids?|patients?|patient[_-]?ids?|subscribers?|holders?)$/i;
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;

/**
 * Several accounts in one query value: two IBANs or more (under any key), or three numbers of 6 to 20 digits or more
 * under a key naming accounts, customers or members — a list of whose money or whose records, not a job's id.
 */
function accountList(q: URLSearchParams): string | null {
  let n = 0;
  for (const [key, value] of q) {
    if (++n > 64) break;
    if (value.length < 16 || value.length > 4096) continue;
    const items = value.split(/[,;|\s]/, 64).map((x) => x.trim()).filter((x) => x !== "");
    if (items.length < 2) continue;
    if (items.filter((x) => IBAN.test(x)).length >= 2) return `bank account numbers (${key}) in a link handed to another agent`;
    if (items.length >= 3 && ACCOUNT_KEY.test(key) && items.filter((x) => /^\d{6,20}$/.test(x)).length >= 3) return `account numbers (${key}) in a link handed to another agent`;
  }
  return null;
}

/** Formats that are the client's to mint for a callback (a JWT, a bearer value, a named credential): not a service's key. */
const CLIENT_TOKENS = new Set(["secrets.jwt", "secrets.bearer_token", "secrets.credential", "secrets.authorization_credential", "secrets.labelled"]);

/** Whether a push-notification config's token is another service's key by its format. */
function serviceKey(value: string): boolean {
  const v = value.trim().replace(/^Bearer\s{1,4}/i, "");
  if (v.length < 16 || v.length > 512) return false;
  if (LIVE_SECRET.test(v)) {
    const body = v.replace(/^[a-z]{2,10}_(?:live|prod)_/, "");
    if (/\d/.test(body) && /[A-Za-z]/.test(body) && entropy(body) >= 3.0) return true;
  }
  return detectSecrets([{ path: [], value: v }]).some((d) => !CLIENT_TOKENS.has(d.type) && d.start <= 8);
}

const PUSH_CONFIG = /^(?:pushNotificationConfig|push_notification_config|pushNotification|push)$/;

/**
 * Findings in a message sent to another agent: each URL of its parts or its configuration that carries a credential,
 * and each push-notification token that is a service's key.
 */
export function agentLinkCredentials(sites: readonly StringSite[], message: Record<string, unknown>, allowed: (host: string) => boolean): Detection[] {
  if (!A2A_SENDS.has(message.method as string) || !("id" in message)) return [];
  const out: Detection[] = [];
  let urls = 0;
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path.includes("_meta") || site.encoded !== undefined) continue;
    const v = site.value;
    const key = site.path[site.path.length - 1];
    if (typeof key === "string" && /^(?:token|credentials)$/.test(key) && site.path.some((k) => typeof k === "string" && PUSH_CONFIG.test(k)) && serviceKey(v)) {
      out.push({ type: "exfiltration.agent_link", path: site.path, start: 0, end: v.length, detail: "another service's key as a push-notification token" });
      continue;
    }
    if (!v.includes("://") || urls >= 64) continue;
    URL_IN.lastIndex = 0;
    for (let m; (m = URL_IN.exec(v)) !== null && urls < 64; urls++) {
      const raw = m[0].replace(/[.,;:!?]+$/, "");
      const what = linkCredential(raw, allowed);
      if (what === null) continue;
      out.push({ type: "exfiltration.agent_link", path: site.path, start: m.index, end: m.index + raw.length, detail: what });
      break;
    }
  }
  return out;
}
