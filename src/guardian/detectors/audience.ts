import type { Detection, JsonPath } from "./scan.js";
import type { RoledSite } from "./sites.js";
import { detectSecrets, jwtPart } from "./secrets.js";
import { grantsNothing } from "./secrets-public.js";
import { vendorDomain } from "./secrets-vendor.js";

/*
 * A credential used where it is meant to go is not a credential leaving. A Slack, Discord or Teams webhook URL is
 * the address a status message is posted to; a GitHub token in the `Authorization` header of a call to
 * api.github.com is how that API is called. What leaks a credential is sending it anywhere else: in an e-mail body, in
 * a URL to another host, in a post's text. So a `secrets` finding in an outbound call is dropped when the credential
 * sits in the URL the call opens or in a header-like argument, and every URL the call opens belongs to the service
 * that issued it. A push-notification config an A2A client registers holds a token the client minted for the remote
 * agent to call it back with: a JWT or bearer token there is the client's to give.
 */

/** The hosts each credential format is issued for: where it is used, not leaked. */
const AUDIENCE: Record<string, RegExp> = {
  "secrets.slack_webhook": /^hooks\.slack\.com$/,
  "secrets.slack_token": /(?:^|\.)slack\.com$/,
  "secrets.discord_webhook": /^(?:[a-z]+\.)?discord(?:app)?\.com$/,
  "secrets.teams_webhook": /\.webhook\.office\.com$/,
  "secrets.telegram_bot_token": /^api\.telegram\.org$/,
  "secrets.github_token": /^(?:api\.github\.com|github\.com|uploads\.github\.com|raw\.githubusercontent\.com|ghcr\.io|models\.github\.ai)$/,
  "secrets.gitlab_token": /(?:^|\.)gitlab\.com$|^gitlab\./,
  "secrets.google_api_key": /(?:^|\.)googleapis\.com$/,
  "secrets.google_oauth_token": /(?:^|\.)googleapis\.com$/,
  "secrets.stripe_key": /^(?:api|files|uploads)\.stripe\.com$/,
  "secrets.openai_key": /^api\.openai\.com$/,
  "secrets.anthropic_key": /^api\.anthropic\.com$/,
  "secrets.groq_key": /^api\.groq\.com$/,
  "secrets.xai_key": /^api\.x\.ai$/,
  "secrets.perplexity_key": /^api\.perplexity\.ai$/,
  "secrets.replicate_token": /^api\.replicate\.com$/,
  "secrets.huggingface_token": /(?:^|\.)huggingface\.co$/,
  "secrets.sendgrid_key": /^api\.sendgrid\.com$/,
  "secrets.mailgun_key": /^api\.(?:eu\.)?mailgun\.net$/,
  "secrets.twilio_key": /(?:^|\.)twilio\.com$/,
  "secrets.npm_token": /^registry\.npmjs\.org$/,
  "secrets.docker_token": /^(?:hub\.docker\.com|registry-1\.docker\.io|auth\.docker\.io)$/,
  "secrets.linear_key": /^api\.linear\.app$/,
  "secrets.notion_token": /^api\.notion\.com$/,
  "secrets.figma_token": /^api\.figma\.com$/,
  "secrets.shopify_token": /\.myshopify\.com$/,
  "secrets.sentry_token": /(?:^|\.)sentry\.io$/,
  "secrets.newrelic_key": /(?:^|\.)newrelic\.com$/,
  "secrets.atlassian_token": /\.atlassian\.(?:net|com)$/,
  "secrets.grafana_token": /\.grafana\.net$/,
  "secrets.digitalocean_token": /^api\.digitalocean\.com$/,
  "secrets.heroku_api_key": /^api\.heroku\.com$/,
  "secrets.mapbox_secret_token": /^api\.mapbox\.com$/,
};

/** Whether a host is one the credential format is issued for. */
export function issuedFor(type: string, host: string): boolean {
  const re = AUDIENCE[type];
  return re !== undefined && re.test(host.toLowerCase());
}

/** Argument names that carry a credential to the service a call talks to (a header, an auth field). */
const HEADER_KEY = /^(?:headers?|authorization|auth|authentication|credentials?|bearer|token|access_?token|api_?key|x-api-key|private-token|x-[a-z-]*(?:token|key|auth))$/i;
/** Text before a credential in a command line that puts it in a header or a user field (`-H 'Authorization: Bearer …'`, `-u :token`). */
const HEADER_BEFORE = /(?:authorization|token|api-?key|private-token|x-[a-z-]*(?:token|key))\s*:\s*(?:bearer|token|basic)?\s*$|(?:^|\s)(?:-u|--user)\s+['"]?[^\s'"]*:?$/i;
const URL = /\bhttps?:\/\/[^\s"'<>`)\]}]{1,8192}/gi;

/**
 * An API's own host: `api.<domain>`, or a regional or numbered one (`api-eu.mixpanel.com`, `api2.example.com`,
 * `api-us2.example.com`: tenth round), or an events-ingestion API (`events.pagerduty.com`, whose body takes the
 * integration's `routing_key`: twelfth round).
 */
const API_HOST = /^(?:api(?:-[a-z]{2,6}\d?|\d)?|events)\.[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;
/** A request collector or a tunnel to someone's machine (exfiltration.ts has the full lists; these are their families). */
const NOT_AN_API = /(?:^|\.)(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|beeceptor\.com|requestcatcher\.com|hookbin\.com|postb\.in|interact\.sh|interactsh\.com|oast\.[a-z]{2,6}|oastify\.com|burpcollaborator\.net|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|loca\.lt|serveo\.net|pipedream\.com)$/;
/**
 * (Fifteenth round) Every URL a call opens is an API's by its path (`/api/…`, `/rest/…`, `/api/v2/…`) on one named
 * host (not an IP address, not a request collector or tunnel): a self-hosted service's API (DHIS2, Jira, GitLab, a
 * NextCloud), called with its own token in a header.
 */
function apiByPath(opened: readonly { site: RoledSite; urls: Opened[] }[]): boolean {
  return opened.every((o) =>
    o.urls.every((u) => {
      const raw = o.site.value.slice(u.start, u.end);
      let url: globalThis.URL;
      try {
        url = new globalThis.URL(raw);
      } catch {
        return false;
      }
      const host = url.hostname.toLowerCase();
      return /^\/(?:api|rest)(?:\/|$)/i.test(url.pathname) && /[a-z]/.test(host.slice(host.lastIndexOf(".") + 1)) && host.includes(".") && !NOT_AN_API.test(host) && url.username === "" && url.password === "";
    }),
  );
}

const TOKEN_PATH = /^(?:\/[A-Za-z0-9._-]{1,40}){0,4}\/(?:oauth2?|connect|openid-connect|o\/oauth2)(?:\/v\d{1,2})?\/token$|^\/token$/i;
/**
 * (Fifteenth round) The Authorization scheme before a header's credential says nothing of its issuer (`Bearer`,
 * `Token`, `ApiToken`, `ApiKey`, none), or names one the host does (`Zoho-oauthtoken` only to a zoho host).
 */
function schemeFits(site: RoledSite, start: number, host: string): boolean {
  const scheme = site.value.slice(0, start).trim();
  if (scheme === "" || /^(?:bearer|token|api-?token|api-?key|key)$/i.test(scheme)) return true;
  const vendor = /^[A-Za-z]{3,20}/.exec(scheme)?.[0].toLowerCase();
  return vendor !== undefined && host.includes(vendor);
}

/** Every URL the call opens is an OAuth token endpoint (`/token`, `/oauth/token`, `/oauth2/v4/token`) on a named host. */
function tokenEndpoint(opened: readonly { site: RoledSite; urls: Opened[] }[]): boolean {
  return opened.every((o) =>
    o.urls.every((u) => {
      try {
        const url = new globalThis.URL(o.site.value.slice(u.start, u.end));
        return TOKEN_PATH.test(url.pathname) && !NOT_AN_API.test(url.hostname.toLowerCase()) && /[a-z]/.test(url.hostname.slice(url.hostname.lastIndexOf(".") + 1));
      } catch {
        return false;
      }
    }),
  );
}

/** Argument names that carry a request's body to the URL the call opens. */
const BODY_KEY = /^(?:body|data|form|form_?data|json|payload|params|fields)$/i;
/** Findings that name no issuer: a bearer token or an Authorization value without a format, a credential by its name. */
const UNKNOWN_ISSUER = new Set(["secrets.bearer_token", "secrets.authorization_credential", "secrets.credential"]);

const PUSH_CONFIG = /^(?:pushNotificationConfig|push_notification_config)$/;
const PUSH_TYPES = new Set(["secrets.jwt", "secrets.bearer_token", "secrets.credential"]);

interface Opened {
  start: number;
  end: number;
  host: string;
}

/** The http(s) URLs in a string, with their hosts. */
function urlsIn(v: string): Opened[] {
  const out: Opened[] = [];
  if (!v.includes("://")) return out;
  URL.lastIndex = 0;
  for (let m; (m = URL.exec(v)) !== null; ) {
    const raw = m[0].replace(/[.,;:!?]+$/, "");
    try {
      out.push({ start: m.index, end: m.index + raw.length, host: new globalThis.URL(raw).hostname.toLowerCase() });
    } catch {
      out.push({ start: m.index, end: m.index + raw.length, host: "" });
    }
    if (out.length >= 32) break;
  }
  return out;
}

/**
 * (Fourteenth round) Issuers that mark their tokens with a prefix of their own: a bearer token with the prefix whose
 * body is not in the format's exact shape (digits in a Hugging Face token, a longer body) is still that issuer's,
 * for where it may go; it counts as a secret everywhere else as before.
 */
const ISSUER_PREFIX: [RegExp, string][] = [
  [/^hf_[A-Za-z0-9]{30,40}$/, "secrets.huggingface_token"],
  [/^(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,80}$|^github_pat_[A-Za-z0-9_]{40,120}$/, "secrets.github_token"],
  [/^glpat-[A-Za-z0-9_-]{20,64}$/, "secrets.gitlab_token"],
];

/** A bearer token's own format, when it has one (`Bearer ghp_…` is a GitHub token). */
function formatOf(d: Detection, sites: readonly RoledSite[]): string {
  if (d.type !== "secrets.bearer_token") return d.type;
  const site = sites.find((x) => samePath(x.path, d.path));
  const token = site?.value.slice(d.start, d.end).replace(/^Bearer\s+/, "") ?? "";
  const known = detectSecrets([{ path: [], value: token }]).find((x) => x.start === 0)?.type;
  if (known !== undefined) return known;
  for (const [re, type] of ISSUER_PREFIX) if (token.length <= 160 && re.test(token)) return type;
  return d.type;
}

const samePath = (a: JsonPath, b: JsonPath) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The last two labels of a host (three under a two-letter second level such as co.uk): its registrable domain, roughly. */
export function siteOf(host: string): string {
  const labels = host.toLowerCase().split(".");
  const keep = labels.length >= 3 && (labels[labels.length - 2] as string).length <= 3 && (labels[labels.length - 1] as string).length === 2 ? 3 : 2;
  return labels.slice(-keep).join(".");
}

/** Claims of issued tokens (RFC 7519, OpenID Connect, storage signing): a token made to carry data has others. */
const JWT_CLAIMS = new Set(["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "nonce", "sid", "azp", "auth_time", "at_hash", "c_hash", "acr", "amr", "scope", "scp", "tid", "oid", "ver", "typ", "kid", "url", "path", "object", "key", "bucket", "role", "client_id", "preferred_username", "email", "email_verified", "name"]);

/**
 * (Eighth round) A JWT going back where it came from: issued by the URL's own site (`iss` on the same registrable
 * domain: an OIDC logout's `id_token_hint`), or signing the URL's own path (a storage service's signed download link,
 * `…/object/sign/exports/a.csv?token=<JWT whose url is exports/a.csv>`). Only a token that looks issued: standard
 * claims, short values, a signature; a JWT minted to carry data (other claims, long values) is judged as data.
 */
export function returnedJwt(token: string, host: string, path: string): boolean {
  const parts = token.split(".");
  if (parts.length !== 3 || !(parts[0] as string).startsWith("eyJ") || !(parts[1] as string).startsWith("eyJ") || (parts[2] as string).length < 32 || token.length > 4096) return false;
  const claims = jwtPart(parts[1] as string);
  if (claims === null) return false;
  for (const [k, v] of Object.entries(claims)) {
    if (!JWT_CLAIMS.has(k)) return false;
    if (typeof v === "string" ? v.length > 256 : typeof v === "object" && v !== null && JSON.stringify(v).length > 256) return false;
  }
  let issHost = "";
  try {
    issHost = typeof claims.iss === "string" ? new globalThis.URL(claims.iss).hostname : "";
  } catch {
    issHost = "";
  }
  if (issHost !== "" && siteOf(issHost) === siteOf(host)) return true;
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    p = path;
  }
  // (Twelfth round) A playback or media token whose subject is the resource the URL names (Mux's signed playback:
  // `stream.mux.com/<id>.m3u8?token=<JWT with sub <id>>`): it signs that one asset.
  const last = p.split("/").pop() ?? "";
  if (typeof claims.sub === "string" && claims.sub.length >= 8 && claims.exp !== undefined && last.replace(/\.[A-Za-z0-9]{1,5}$/, "") === claims.sub) return true;
  const object = [claims.url, claims.path, claims.object, claims.key].find((c): c is string => typeof c === "string" && c.length >= 3);
  if (object === undefined) return false;
  return p.endsWith("/" + object.replace(/^\/+/, ""));
}

/** Whether a JWT found at [start, end) of a string sits in the query of a URL there that it goes back to (returnedJwt). */
function jwtReturned(value: string, start: number, end: number): boolean {
  for (const u of urlsIn(value)) {
    if (u.start > start || end > u.end) continue;
    try {
      const url = new globalThis.URL(value.slice(u.start, u.end));
      return returnedJwt(value.slice(start, end), url.hostname, url.pathname);
    } catch {
      return false;
    }
  }
  return false;
}

/** JWT findings in what a tool returns that are signed links back to their own service (returnedJwt). */
function signedLinks(roles: () => readonly RoledSite[], found: Detection[]): Detection[] {
  if (!found.some((d) => d.type === "secrets.jwt" && d.encoded === undefined)) return found;
  const sites = roles();
  return found.filter((d) => {
    if (d.type !== "secrets.jwt" || d.encoded !== undefined) return true;
    const site = sites.find((x) => samePath(x.path, d.path));
    return site === undefined || !jwtReturned(site.value, d.start, d.end);
  });
}

/**
 * Drops the `secrets` findings of an outbound request that are credentials used where they are meant to go. The URLs
 * a call opens are those of its `url` and `command` arguments (sites.ts): a URL in an e-mail body is sent, not opened.
 */
export function usedAsMeant(message: Record<string, unknown>, roles: () => readonly RoledSite[], found0: Detection[]): Detection[] {
  if (found0.length === 0) return found0;
  // (Fifteenth round) Values that grant nothing, judged again beside every argument of the message (a finding of a
  // normalised view was judged without its siblings): secrets-public.ts.
  const found = "method" in message ? grantsNothing(found0, roles()) : found0;
  if (found.length === 0) return found;
  // (Eighth round) A signed link a tool returns for its own storage: the token goes back where it came from.
  if ("result" in message) return signedLinks(roles, found);
  if (typeof message.method !== "string" || !("id" in message)) return found;
  const method = message.method;
  const toolCall = method === "tools/call" || method === "steps/toolCallRequest";
  const push = /push/i.test(method);
  if (!toolCall && !push && !found.some((d) => d.path.some((k) => typeof k === "string" && PUSH_CONFIG.test(k)))) return found;
  // Every URL the call opens, and their hosts.
  const opened: { site: RoledSite; urls: Opened[] }[] = [];
  const headers: RoledSite[] = [];
  const bodies: RoledSite[] = [];
  if (toolCall) {
    for (const site of roles()) {
      if (site.path[0] !== "params" || site.encoded !== undefined) continue;
      if (site.role === "url" || site.role === "command") opened.push({ site, urls: urlsIn(site.value) });
      else if (site.path.some((k) => typeof k === "string" && HEADER_KEY.test(k))) headers.push(site);
      else if (site.path.some((k) => typeof k === "string" && BODY_KEY.test(k))) bodies.push(site);
    }
  }
  const hosts = opened.flatMap((o) => o.urls.map((u) => u.host));
  const used = (d: Detection): boolean => {
    if (d.encoded !== undefined || hosts.length === 0) return false;
    // (Eighth round) A JWT in the URL of the site that issued it, or that it signs: returnedJwt.
    if (d.type === "secrets.jwt") {
      const at = opened.find((o) => samePath(o.site.path, d.path));
      if (at !== undefined && jwtReturned(at.site.value, d.start, d.end)) return true;
    }
    const type = formatOf(d, toolCall ? roles() : []);
    // A credential of no known issuer (a bare bearer token, a key named in a header) in a header argument of a call to
    // one API host (`api.<domain>`): how that API is called. Where it came from cannot be told, so only the header counts.
    if (AUDIENCE[type] === undefined && UNKNOWN_ISSUER.has(type)) {
      // Or a field of the request's body (`token=…&user=…`, `{"api_key": "…"}`): the form the API documents.
      const inBody = (): boolean => {
        const b = bodies.find((x) => samePath(x.path, d.path));
        return b !== undefined && (d.start === 0 || /(?:^|[&{,\s])["']?[A-Za-z0-9_.-]{1,64}["']?\s{0,4}[=:]\s{0,4}["']?$/.test(b.value.slice(Math.max(0, d.start - 80), d.start)));
      };
      const https = opened.every((o) => o.urls.every((u) => /^https:/i.test(o.site.value.slice(u.start, u.start + 6))));
      const header = headers.some((h) => samePath(h.path, d.path));
      if (!https || new Set(hosts).size !== 1) return false;
      // (Fifteenth round) Or in a header of a call to an API by its path on one named host (`https://dhis2.ngo.example/api/…`).
      if ((header || inBody()) && API_HOST.test(hosts[0] as string)) return true;
      if (header && apiByPath(opened) && schemeFits(headers.find((h) => samePath(h.path, d.path)) as RoledSite, d.start, hosts[0] as string)) return true;
      // (Fifteenth round) Or a field of an OAuth grant (`grant_type=…&client_secret=…`) posted to a token endpoint.
      const body = bodies.find((x) => samePath(x.path, d.path));
      return body !== undefined && inBody() && /(?:^|[&{,\s"])grant_type["']?\s{0,2}[=:]/.test(body.value) && tokenEndpoint(opened);
    }
    // (fp26) A vendor's key in a header of an https call to the vendor's own domain, for formats not mapped above: secrets-vendor.ts.
    if (AUDIENCE[type] === undefined && headers.some((h) => samePath(h.path, d.path)) && opened.every((o) => o.urls.every((u) => /^https:/i.test(o.site.value.slice(u.start, u.start + 6)))) && hosts.every((h) => vendorDomain(type, h))) return true;
    if (AUDIENCE[type] === undefined || !hosts.every((h) => issuedFor(type, h))) return false;
    // In a header or an auth argument of a call that opens only the credential's own service.
    if (headers.some((h) => samePath(h.path, d.path))) return true;
    const at = opened.find((o) => samePath(o.site.path, d.path));
    if (at === undefined) return false;
    // In the URL the call opens, or after a header name in a command line.
    return at.urls.some((u) => u.start <= d.start && d.end <= u.end) || HEADER_BEFORE.test(at.site.value.slice(Math.max(0, d.start - 48), d.start));
  };
  const dropped = toolCall ? found.filter(used) : [];
  return found.filter((d) => {
    const inPush = push || d.path.some((k) => typeof k === "string" && PUSH_CONFIG.test(k));
    if (inPush && PUSH_TYPES.has(d.type)) return false;
    if (!toolCall) return true;
    if (dropped.includes(d)) return false;
    // A bearer token or JWT that is the same credential as one used as meant (`Bearer ghp_…`).
    return !(PUSH_TYPES.has(d.type) && dropped.some((x) => samePath(x.path, d.path) && x.start < d.end && d.start < x.end));
  });
}

