import { entropy } from "./entropy.js";

/*
 * (Thirteenth round, "exf13") What a payload handed to a drop, a relay or a stranger's endpoint carries, and where
 * such an endpoint is (docs/detection.md, "Thirteenth round"):
 *
 * - *Hosted endpoints*: a tenant's host on a platform where anybody deploys code or gets an inbox in a minute
 *   (serverless functions, app hosting, webhook inboxes, push services). The address says nothing about whose it is,
 *   as with a relay: the team's own function there looks the same. What makes a request to one exfiltration is what it
 *   carries, judged as for a data store (credentials, payment details, one-time codes, confidential text), not its
 *   size or people's rows (the team's own API hosted there receives those).
 * - *What a payload carries*, beyond the earlier rounds' judgement: a form-encoded body is read decoded (the web's
 *   ordinary encoding hides nothing); bank account numbers named as such (two or more, eight digits and more); a
 *   session cookie (`…session…=<random>`, `sid=`, `…LoginSecure=`); a wallet's seed phrase (12 to 24 short lower-case
 *   words and nothing else on the line). And a guard: the documented example values (the standard example IBANs, the
 *   card networks' test numbers) are nobody's.
 *
 * Linear: bounded regexes, one pass each over at most 64 KB.
 */

const MAX_TEXT = 65_536;

/** Platforms that give anybody a host of their own under theirs (a tenant label before the suffix). */
const HOSTED_SUFFIXES = [
  "deno.dev",
  "deno.net",
  "web.app",
  "firebaseapp.com",
  "cloudfunctions.net",
  "run.app",
  "appspot.com",
  "azurewebsites.net",
  "azurestaticapps.net",
  "onrender.com",
  "railway.app",
  "vercel.app",
  "netlify.app",
  "pages.dev",
  "workers.dev",
  "herokuapp.com",
  "fly.dev",
  "glitch.me",
  "replit.app",
  "repl.co",
  "koyeb.app",
  "ondigitalocean.app",
  "modal.run",
  "surge.sh",
];
/** AWS's per-tenant endpoints: API Gateway and Lambda function URLs. */
const AWS_TENANT = /^[a-z0-9]{6,16}\.(?:execute-api\.[a-z]{2}(?:-[a-z]{2,10}){1,2}-\d\.amazonaws\.com|lambda-url\.[a-z]{2}(?:-[a-z]{2,10}){1,2}-\d\.on\.aws)$/;
/** Public webhook inboxes and push services where anybody makes an address in a minute. */
const INBOXES: Record<string, RegExp> = {
  "play.svix.com": /^\/in\//,
  "api.day.app": /^\/[A-Za-z0-9]{10,40}\//,
  "webhook.site": /^\//,
  "api.pushover.net": /^\/1\/messages/,
  "pushmore.io": /^\/webhook\//,
};

/** Whether a host (lower case) and path are a tenant's endpoint on a shared hosting platform or a public inbox. */
export function hostedEndpoint(host: string, path: string): boolean {
  const inbox = INBOXES[host];
  if (inbox !== undefined) return inbox.test(path);
  if (AWS_TENANT.test(host)) return true;
  for (const s of HOSTED_SUFFIXES) {
    if (host.length > s.length + 1 && host.endsWith(s) && host[host.length - s.length - 1] === ".") return true;
  }
  return false;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* What a payload carries                                                                                           */
/* -------------------------------------------------------------------------------------------------------------- */

/**
 * The documented example values: the IBANs banks and the ECBS print in their documentation, the card networks' test
 * numbers. A payload holding one (a mock, a test, a tutorial) holds nobody's account.
 */
const EXAMPLE_VALUES = /\b(?:DE89 ?3704 ?0044 ?0532 ?0130 ?00|GB82 ?WEST ?1234 ?5698 ?7654 ?32|GB29 ?NWBK ?6016 ?1331 ?9268 ?19|FR14 ?2004 ?1010 ?0505 ?0001 ?3M02 ?606|NL91 ?ABNA ?0417 ?1643 ?00|4242 ?4242 ?4242 ?4242|4111 ?1111 ?1111 ?1111|5555 ?5555 ?5555 ?4444|4000 ?0566 ?5566 ?5556|3782 ?822463 ?10005)\b/g;

export function withoutExamples(t: string): string {
  if (!/\d{4}/.test(t)) return t;
  EXAMPLE_VALUES.lastIndex = 0;
  return t.replace(EXAMPLE_VALUES, "EXAMPLE");
}

/** A form-encoded (or percent-encoded) payload, decoded: null when it is not one. */
export function formDecoded(t: string): string | null {
  if (t.length > MAX_TEXT) return null;
  let n = 0;
  for (let i = t.indexOf("%"); i >= 0 && n < 3; i = t.indexOf("%", i + 1)) if (/^%[0-9A-Fa-f]{2}/.test(t.slice(i, i + 3))) n++;
  if (n < 3) return null;
  try {
    return decodeURIComponent(t.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** An account number named as one: `acct 5512044187`, `"account": "4419920077"`, `routing 021000021`, `sort_code,account_number` rows. */
const ACCOUNT_NUMBER = /\b(?:acct|acc(?:ount)?(?:[_ -]?(?:no|nr|num|number))?|routing(?:[_ -]?(?:no|number))?|aba|bsb|kontonummer|konto|clabe)["']?\s{0,3}[:=#]?\s{0,3}["']?(\d(?:[ -]?\d){7,16})(?![\d.,]\d)/gi;

function accountNumbers(t: string): boolean {
  ACCOUNT_NUMBER.lastIndex = 0;
  const seen = new Set<string>();
  for (let m, n = 0; (m = ACCOUNT_NUMBER.exec(t)) !== null && n < 64; n++) {
    const digits = (m[1] as string).replace(/\D/g, "");
    // Not a run of one digit or a counting sequence (a placeholder).
    if (/^(\d)\1+$/.test(digits) || "0123456789012345678".includes(digits) || "9876543210987654321".includes(digits)) continue;
    seen.add(digits);
    if (seen.size >= 2) return true;
  }
  return false;
}

/** A cookie named for a session or a login, with a random-looking value. */
const COOKIE = /(?:^|[\s;"'{,&?])([A-Za-z_][\w.-]{0,40})=([A-Za-z0-9%._~+/-]{16,512})/g;
const SESSION_NAME = /sess|(?:^|[_.-])sid$|^sid|login|remember|auth|jwt|(?:^|[_.-])(?:ssid|hsid|apisid)$/i;

function sessionCookie(t: string): boolean {
  if (!t.includes("=")) return false;
  COOKIE.lastIndex = 0;
  for (let m, n = 0; (m = COOKIE.exec(t)) !== null && n < 64; n++) {
    const name = m[1] as string;
    const value = m[2] as string;
    if (!SESSION_NAME.test(name) || /^(?:auth_?(?:type|method|mode|provider|url)|login_?(?:url|hint|page))$/i.test(name)) continue;
    if (randomValue(value)) return true;
  }
  return false;
}

/**
 * A random-looking value: mixed case with digits, or hex of 24 characters or more, or lower case and digits without a
 * word's separators and a digit in every five characters ("weekly-standup-2026-11" is words).
 */
function randomValue(v: string): boolean {
  const x = v.includes("%") ? v.replace(/%[0-9A-Fa-f]{2}/g, "") : v;
  if (x.length < 16 || entropy(x) < 3.5) return false;
  if (/[a-z]/.test(x) && /[A-Z]/.test(x) && /[0-9]/.test(x)) return true;
  if (/^[0-9a-f]{24,}$/i.test(x)) return true;
  return x.length >= 24 && /^[a-z0-9]+$/.test(x) && x.replace(/\D/g, "").length * 5 >= x.length;
}

/** A wallet's seed phrase: 12, 15, 18, 21 or 24 words of three to eight lower-case letters, alone on a line or in a string. */
const PHRASE = /(?:^|[\n"'\[:>])\s{0,4}((?:[a-z]{3,8} ){11,23}[a-z]{3,8})\s{0,4}(?=$|[\n"',\]<])/gm;
/** Words of prose that are no seed word (BIP-39's list holds none of them). */
const PROSE = /^(?:the|and|for|with|that|this|are|was|were|you|your|not|but|from|have|has|had|will|would|can|our|they|them|their|there|then|than|what|when|which|who|his|her|she|him|its|into|been|about|just|also|some|any|all|out|get|got|let|please|here|should|could|may|might|must)$/;

function seedPhrase(t: string): boolean {
  PHRASE.lastIndex = 0;
  for (let m, n = 0; (m = PHRASE.exec(t)) !== null && n < 16; n++) {
    const words = (m[1] as string).split(" ");
    if (words.length % 3 !== 0) continue;
    if (words.some((w) => PROSE.test(w))) continue;
    if (new Set(words).size < words.length - 1) continue;
    return true;
  }
  return false;
}

/** What the earlier judgement misses: account numbers, a session cookie, a seed phrase (labels as the store judge reads them). */
export function hostedPayload(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (seedPhrase(t)) return "credentials (a wallet's seed phrase)";
  if (sessionCookie(t)) return "credentials (a session cookie)";
  if (accountNumbers(t)) return "payment details (bank account numbers)";
  return null;
}

/* -------------------------------------------------------------------------------------------------------------- */
/* A credential in a link handed to another agent                                                                   */
/* -------------------------------------------------------------------------------------------------------------- */

/** Query keys that name a credential of the user's: an API key, a secret, a session, a password. */
const CREDENTIAL_KEY = /^(?:[a-z0-9]{1,20}[_-])?(?:api[_-]?key|apikey|secret|client[_-]?secret|access[_-]?token|auth[_-]?token|session(?:[_-]?(?:id|token|key))?|sessid|sid|password|passwd|pwd|cookie)$|LoginSecure$|^(?:dd|datadog|sentry|segment|mixpanel)[_-]?(?:api[_-]?)?key$/i;

/**
 * Whether a URL given to another agent carries a credential of the user's in its query: a key named for one with a
 * random-looking value. A signed link's own parameters (presigned S3/GCS, Azure SAS), an OAuth `state` or `code`, a
 * Maps `key` are not named.
 */
export function credentialInLink(url: URL): string | null {
  const q = url.searchParams;
  if ((q.has("X-Amz-Signature") || q.has("X-Goog-Signature") || (q.has("sig") && q.has("se"))) && !q.has("api_key")) return null;
  for (const [key, value] of q) {
    if (!CREDENTIAL_KEY.test(key) || value.length < 16 || value.length > 4096) continue;
    if (/^(?:\*+|x+|<[^>]*>|\{[^}]*\}|\$\{?[A-Za-z_]+\}?)$/i.test(value)) continue;
    if (randomValue(value)) return `a credential (${key}) in a link handed to another agent`;
  }
  return null;
}
