import { detectPipedCredentials } from "./secrets-piped.js";
import { entropy } from "./entropy.js";
import { LiteralFinder } from "./literal-finder.js";
import { literalId, literalsOf } from "./literals.js";
import { childrenOf, type Detection, type StringSite } from "./scan.js";
import { deferToFormats, detectNamedCredentials, detectNamedField, detectSelfDescribing } from "./secrets-context.js";
import { detectShapedCredentials } from "./secrets-shapes.js";
import { detectWrappedValues } from "./secrets-wrapped.js";
import { grantsNothing } from "./secrets-public.js";
import { detectPairedCredentials } from "./secrets-pairs.js";
import { jsonLeaves } from "./secrets-embedded.js";

/*
 * Credentials by their published formats: the prefixed token formats of gitleaks' rule set (MIT licence,
 * config/gitleaks.toml, 2026-07) for the services an agent's tools touch, ported as data, plus the structural ones —
 * private keys (PEM, OpenSSH, PGP, EC), JSON Web Tokens, connection strings with passwords, Azure storage account keys
 * and `.npmrc` auth tokens. Secrets without a prefix (a database password, a signing key) are `secret_assignment`'s.
 * Why a port and not secretlint: docs/dependencies.md.
 *
 * Linear time: every format starts at a literal (or a bounded, fixed look-back before one), found by LiteralFinder in
 * one pass per rare character; at each hit one sticky regex without nested quantifiers is tried. Connection strings
 * are parsed by hand at each `://`.
 *
 * Not secrets: values in the documented-examples allow list (AWS's, jwt.io's, Stripe's docs keys, the Azure storage
 * emulator's published key…), fillers (`xxxx`, `EXAMPLE`, `your_…`), publishable keys (Stripe `pk_`, Mapbox `pk.`),
 * the access key id inside a presigned or signed URL (`X-Amz-Credential=`, `AWSAccessKeyId=`) or reported with its
 * secret said to be elsewhere (ninth round), and well-known default passwords in connection strings
 * (`postgres:postgres`, `guest:guest`, `root:root`): see docs/detection.md.
 */

interface Format {
  type: string;
  /** Literals every match starts with (or holds, with `back`). */
  prefixes: string[];
  /** Tried (sticky) where the match starts: the whole match is the secret, or its group 1 when it has one. */
  re: RegExp;
  /** The match starts up to `max` characters of `cls` before the literal (the digits of a Telegram bot token). */
  back?: { cls: RegExp; max: number };
  /** Least Shannon entropy (bits per character) of the secret; 2.5 unless given. */
  entropy?: number;
  accept?: (secret: string, value: string, start: number) => boolean;
  /** The match may follow a letter or digit (a Telegram token in `/bot<token>/`). */
  inside?: boolean;
  /**
   * Every character of the prefix is common in prose and code (`pat`, `dapi`, `dp.st.`): in a long string it is
   * looked for in the first WEAK_REACH characters only, where a search for it costs what the rest of the search does.
   */
  weak?: boolean;
  /**
   * Every prefix is distinctive (four characters or more with a separator: `sbp_`, `shippo_live_`, `FLWSECK-`): the
   * prefix and the exact shape name the credential, so no entropy bar applies (sixth round). Fillers still mark examples.
   */
  distinct?: boolean;
}

const END = String.raw`(?![A-Za-z0-9])`;
const TOKEN_END = String.raw`(?![A-Za-z0-9_-])`;
const f = (type: string, prefixes: string[], body: string, opts: Partial<Format> = {}): Format => ({ type, prefixes, re: new RegExp(body, "y"), ...opts });
/** A prefixed token: one of the prefixes, then `rest`. */
const token = (type: string, prefixes: string[], rest: string, end = END, opts: Partial<Format> = {}): Format =>
  f(type, prefixes, `(?:${prefixes.map(esc).join("|")})${rest}${end}`, { distinct: prefixes.every((p) => p.length >= 4 && /[_.$-]/.test(p)), ...opts });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Published example values: documentation shows them, so they are not anyone's secret. */
const DOCUMENTED = new Set([
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
  "sk_test_26PHem9AhJZvU623DfE1x4sd",
  "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
  "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
  "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
  "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
  "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
  "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
  "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
  // The Azure storage emulator's (Azurite's) published account key for devstoreaccount1.
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
  // jwt.io's example token (HS256, "John Doe").
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
]);

/** Fillers and markers that make a value an example or a placeholder, not a credential. */
const FILLER = /EXAMPLE|example|x{6,}|X{6,}|\*{3,}|\.\.\.|not[-_]?a[-_]?real|notreal|dummy|DUMMY|fake|FAKE|placeholder|PLACEHOLDER|your[-_]|YOUR[-_]|redacted|REDACTED|<|>|\$\{|\{\{/;

function plausible(secret: string, least: number): boolean {
  if (DOCUMENTED.has(secret) || FILLER.test(secret)) return false;
  return secret.length < 12 || entropy(secret) >= least;
}

/**
 * A browser key in the web-app config it ships in (sixth round): Firebase's web config (`apiKey` beside `authDomain`,
 * `messagingSenderId`, `appId: "1:…:web:…"`) and the Maps JavaScript loader's `key=` are public by design — the key
 * is restricted by referrer, not kept secret. The same key elsewhere is a credential.
 */
export function browserConfig(value: string, start: number): boolean {
  const near = value.slice(Math.max(0, start - 400), start + 600);
  return /authDomain|messagingSenderId|firebaseapp\.com|:web:[0-9a-f]|maps\.googleapis\.com\/maps\/api\/js\?/.test(near);
}

/** An access key id inside a presigned URL or a SigV4 `Authorization` header: identifies a key, does not grant it. */
function signedCredential(value: string, start: number): boolean {
  const before = value.slice(Math.max(0, start - 20), start);
  return /(?:Credential|AWSAccessKeyId)(?:=|%3D)$/i.test(before);
}

/** "The secret was written to the CI store", "the secret key is shown once in the console", "it is not shown here". */
const WITHHELD = /\bsecret(?:\s{1,3}(?:access\s{1,3})?key)?\s{1,3}(?:is|was|has\s{1,3}been|will\s{1,3}be)\s{1,3}(?:only\s{1,3}|directly\s{1,3}|securely\s{1,3})?(?:shown|stored|written|saved|kept|put|placed|displayed|available|not\s{1,3}(?:shown|included|displayed|returned|printed))\b/i;
/** Something an AWS secret access key could be: 40 characters of base64 standing alone. */
export const SECRET_RUN = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/;

/**
 * An access key id reported by id, its secret said to be elsewhere (ninth round): "Created access key AKIA… for
 * ci-deploy; the secret was written to the CI secret store" — the id names a key and grants nothing without its
 * secret. Only in a string of at most 2,000 characters that says the secret is stored, shown elsewhere or withheld
 * (within 300 characters of the id) and holds nothing an AWS secret key could be; an id with its secret is a credential.
 */
function idWithSecretWithheld(value: string, start: number): boolean {
  if (value.length > 2000) return false;
  return WITHHELD.test(value.slice(Math.max(0, start - 300), start + 320)) && !SECRET_RUN.test(value);
}

/**
 * (Thirteenth round) The id's own label right before it, in words or as a JSON key: `Access key id AKIA…`,
 * `"AccessKeyId": "AKIA…"`. Not a configuration's assignment (`AWS_ACCESS_KEY_ID=AKIA…`): that is a credential's half.
 */
const ID_LABEL = /(?:access[ _-]?key[ _-]?id|key[ _-]?ids?)(?:[ \t]{1,3}|"[ \t]{0,3}:[ \t]{0,3}")$/i;

/**
 * (Thirteenth round) An access key id listed as an id (a key inventory, `aws iam list-access-keys`, an audit's answer
 * "which key uploaded this"): named by its label as the id, in a string of at most 4,000 characters that holds nothing
 * an AWS secret key could be. The id names a key and grants nothing alone (what idWithSecretWithheld says when the
 * text says so); with its secret beside it, both count.
 */
function idListedAsId(value: string, start: number): boolean {
  if (value.length > 4000) return false;
  return ID_LABEL.test(value.slice(Math.max(0, start - 24), start)) && !SECRET_RUN.test(value);
}

/** A JWT whose header decodes to a JSON object naming its algorithm, and that is not a documented example. */
function realJwt(s: string): boolean {
  const [h, p] = s.split(".");
  // Each part decoded once: read as JSON, and looked at as the text it was written as.
  const headerText = b64text(h ?? "");
  const header = jsonObject(headerText);
  if (!header || (typeof header.alg !== "string" && typeof header.typ !== "string")) return false;
  const payloadText = b64text(p ?? "");
  // A header or payload written with line breaks was formatted by hand for a document (the JOSE RFCs' examples):
  // no library issues one, so it is an example, not anyone's token (sixth round).
  if (/[\r\n]/.test(headerText) || /[\r\n]/.test(payloadText)) return false;
  const payload = jsonObject(payloadText);
  // jwt.io shows the same claims under every algorithm.
  if (payload && payload.sub === "1234567890" && payload.name === "John Doe") return false;
  // A Supabase anon key (`"role": "anon"`) is public by design: it ships in every browser bundle, row-level security
  // guards the data (the `service_role` key is the secret one).
  if (payload && payload.role === "anon") return false;
  return true;
}

/** A JWT part's JSON object (its claims, its header), or null. */
export const jwtPart = (part: string): Record<string, unknown> | null => jsonObject(b64text(part));

/** A base64url part's text (empty past 8 KiB). */
function b64text(s: string): string {
  return s.length > 8192 ? "" : Buffer.from(s, "base64url").toString("utf8");
}

/** The JSON object a text holds, or null. */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Authorization schemes besides Bearer (its own format below): Okta's SSWS, Dynatrace's Api-Token, Rails' Token… */
const AUTH_SCHEMES = ["SSWS", "Api-Token", "Token", "token", "ApiKey", "Apikey", "apikey", "Api-Key", "GenieKey", "Key", "Basic", "Digest"];
/** The header's name just before the scheme (`Authorization: `, `"Authorization": "`, `-H 'Authorization: `). */
const AUTH_BEFORE = /authorization["']?\s{0,4}[:=]\s{0,4}["']?$/i;

/**
 * A value after an Authorization scheme: only where a header puts it (after the header's name, or as the whole of a
 * short string, a header object's value), and for `Basic` only when it decodes to `user:password`.
 */
function authorizationValue(secret: string, value: string, start: number): boolean {
  let s = start;
  while (s > 0 && value.charCodeAt(s - 1) !== 32) s--;
  while (s > 0 && value.charCodeAt(s - 1) === 32) s--;
  const scheme = value.slice(value.lastIndexOf(" ", s - 1) + 1, s).replace(/^["'`]/, "");
  const schemeStart = s - scheme.length;
  const before = value.slice(Math.max(0, schemeStart - 48), schemeStart);
  const whole = schemeStart === 0 && value.length <= 2048;
  if (!whole && !AUTH_BEFORE.test(before)) return false;
  if (scheme === "Basic") {
    const plain = Buffer.from(secret, "base64").toString("utf8");
    return /^[\x21-\x7e]{1,128}:[\x21-\x7e]{4,128}$/.test(plain) && !FILLER.test(plain);
  }
  return /[0-9]/.test(secret) && /[A-Za-z]/.test(secret) && !secret.startsWith("eyJ");
}

const B64 = "[A-Za-z0-9+/]";
/** What may mark each line of a pasted block: a diff's `-`/`+` (`+` is base64 too), a quote, a comment. */
const LINE_MARK = String.raw`(?:(?:[->#!|*;]|\/\/)[ \t]{0,4})?`;
const FORMATS: Format[] = [
  // --- cloud providers ---------------------------------------------------------------------------------------------
  token("secrets.aws_access_key", ["AKIA", "ASIA", "ABIA", "ACCA"], "[A-Z0-9]{16}", END, {
    accept: (s, v, start) => !s.endsWith("EXAMPLE") && !signedCredential(v, start) && !idWithSecretWithheld(v, start) && !idListedAsId(v, start),
    entropy: 2.5,
  }),
  f(
    "secrets.aws_secret_key",
    ["aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "SecretAccessKey", "secretAccessKey", "aws_secret_key", "AWS_SECRET_KEY"],
    String.raw`[A-Za-z_]{6,21}["']?[ \t]{0,8}(?:=|:|=>)[ \t]{0,8}["']?(${B64}{40})(?![A-Za-z0-9/+=])`,
    { entropy: 3.5 },
  ),
  f("secrets.aws_session_token", ["aws_session_token", "AWS_SESSION_TOKEN", "SessionToken", "sessionToken"], String.raw`[A-Za-z_]{6,17}["']?[ \t]{0,8}(?:=|:|=>)[ \t]{0,8}["']?(${B64}{100,2048}={0,2})(?![A-Za-z0-9/+=])`, { entropy: 4 }),
  token("secrets.google_api_key", ["AIza"], "[0-9A-Za-z_-]{35}", TOKEN_END, { entropy: 3.5, accept: (_s, v, start) => !browserConfig(v, start) }),
  token("secrets.google_oauth_secret", ["GOCSPX-"], "[A-Za-z0-9_-]{28}", TOKEN_END),
  token("secrets.google_oauth_token", ["ya29."], "[A-Za-z0-9_-]{30,2048}", TOKEN_END, { entropy: 3.5 }),
  f("secrets.azure_storage_key", ["AccountKey="], `(?:AccountKey=)(${B64}{86}==)`),
  f("secrets.azure_storage_key", ["SharedAccessKey="], `(?:SharedAccessKey=)(${B64}{43}=)`),
  // A client secret is `xxx` + a digit + `Q~` + 31 to 34 more: the literal is `Q~`, four characters into the secret.
  f("secrets.azure_ad_client_secret", ["Q~"], String.raw`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`, { back: { cls: /[A-Za-z0-9_~.]/, max: 4 } }),
  token("secrets.digitalocean_token", ["dop_v1_", "doo_v1_", "dor_v1_"], "[a-f0-9]{64}"),
  token("secrets.alibaba_access_key", ["LTAI"], "[A-Za-z0-9]{20}", END, { entropy: 3 }),
  token("secrets.heroku_api_key", ["HRKU-AA"], "[0-9A-Za-z_-]{58}", TOKEN_END),
  token("secrets.flyio_token", ["fo1_"], "[A-Za-z0-9_-]{43}", TOKEN_END),
  token("secrets.vault_token", ["hvs.", "hvb."], "[A-Za-z0-9_-]{90,300}", TOKEN_END),
  // A long service token's body is a base64url protobuf that starts `CAES`: shorter ones than gitleaks' 90 exist.
  token("secrets.vault_token", ["hvs.CAES", "hvb.CAES"], "[A-Za-z0-9_-]{40,300}", TOKEN_END),
  // Vault's dev-mode and short service tokens: `hvs.` and 24 characters.
  token("secrets.vault_token", ["hvs."], "[A-Za-z0-9]{24}", TOKEN_END, { entropy: 3.5 }),
  token("secrets.planetscale_token", ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"], "[A-Za-z0-9_=.-]{32,64}", TOKEN_END),
  token("secrets.supabase_token", ["sbp_"], "[a-f0-9]{40}"),
  token("secrets.pulumi_token", ["pul-"], "[a-f0-9]{40}"),
  token("secrets.age_secret_key", ["AGE-SECRET-KEY-1"], "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
  token("secrets.age_secret_key", ["AGE-PLUGIN-"], "[A-Z0-9]{1,32}-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{20,200}"),
  token("secrets.tailscale_key", ["tskey-"], "[a-z]{3,8}-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{16,64}"),
  // --- code hosts and registries -----------------------------------------------------------------------------------
  token("secrets.github_token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], "[A-Za-z0-9]{36,255}", TOKEN_END),
  token("secrets.github_token", ["github_pat_"], "[A-Za-z0-9_]{22,255}", TOKEN_END),
  token("secrets.gitlab_token", ["glpat-", "glptt-", "gldt-", "glrt-", "gloas-", "glft-", "glsoat-", "glffct-", "glimt-", "glagent-", "glcbt-", "GR1348941"], "[A-Za-z0-9_.-]{20,300}", TOKEN_END),
  token("secrets.npm_token", ["npm_"], "[A-Za-z0-9]{36}", END, { entropy: 3 }),
  // `.npmrc`: `//registry.npmjs.org/:_authToken=…` (also `_auth=` and `_password=`, base64); `${NPM_TOKEN}` is a reference.
  f("secrets.npmrc_auth", ["_authToken=", "_auth=", "_password="], String.raw`_(?:authToken|auth|password)=[ \t]{0,4}["']?([^\s"'$]{8,512})`),
  token("secrets.pypi_token", ["pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"], "[A-Za-z0-9_-]{50,1000}", TOKEN_END),
  token("secrets.rubygems_token", ["rubygems_"], "[a-f0-9]{48}"),
  token("secrets.docker_token", ["dckr_pat_", "dckr_oat_"], "[A-Za-z0-9_-]{27,64}", TOKEN_END),
  token("secrets.artifactory_key", ["AKCp"], "[A-Za-z0-9]{69}"),
  token("secrets.huggingface_token", ["hf_", "api_org_"], "[A-Za-z]{34}", END, { entropy: 3.5 }),
  token("secrets.postman_key", ["PMAK-"], "[a-f0-9]{24}-[a-f0-9]{34}"),
  token("secrets.sentry_token", ["sntryu_"], "[a-f0-9]{64}"),
  token("secrets.sentry_token", ["sntrys_"], "eyJ[A-Za-z0-9+/=_]{60,400}", END),
  token("secrets.atlassian_token", ["ATATT3"], "[A-Za-z0-9_=-]{180,200}", TOKEN_END),
  token("secrets.figma_token", ["figd_"], "[A-Za-z0-9_-]{40}", TOKEN_END),
  token("secrets.linear_key", ["lin_api_"], "[A-Za-z0-9]{40}"),
  token("secrets.notion_token", ["ntn_"], "[0-9]{11}[A-Za-z0-9]{35}"),
  token("secrets.grafana_token", ["glsa_"], "[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
  token("secrets.grafana_token", ["glc_"], "[A-Za-z0-9+/]{32,400}={0,3}", TOKEN_END, { entropy: 3.5 }),
  token("secrets.grafana_token", ["eyJrIjoi"], "[A-Za-z0-9]{70,400}={0,3}"),
  token("secrets.newrelic_key", ["NRAK-"], "[A-Z0-9]{27}"),
  token("secrets.onepassword_token", ["ops_eyJ"], "[A-Za-z0-9+/]{250,}={0,3}"),
  // (Sixth round: more registries' and CI services' published formats.)
  token("secrets.buildkite_token", ["bkua_"], "[a-f0-9]{40}"),
  token("secrets.bitbucket_app_password", ["ATBB"], "[A-Za-z0-9_=.-]{28,64}", TOKEN_END, { entropy: 3 }),
  token("secrets.nuget_key", ["oy2"], "[a-z0-9]{43}", END, { entropy: 3 }),
  token("secrets.langsmith_key", ["lsv2_pt_", "lsv2_sk_"], "[a-f0-9]{32}_[a-f0-9]{10}"),
  token("secrets.posthog_personal_key", ["phx_"], "[A-Za-z0-9]{43}", END, { entropy: 3 }),
  // (Twelfth round) Fly.io's macaroon tokens (deploy, org, machine) and Meta's Graph API access tokens (`EAA…`, a
  // hundred characters and more of base62: no word is that long).
  token("secrets.flyio_token", ["fm1a_", "fm1r_", "fm2_"], "[A-Za-z0-9+/_-]{100,2000}={0,3}", TOKEN_END, { entropy: 3.5 }),
  token("secrets.flyio_token", ["fo1_"], "[A-Za-z0-9_-]{43}", TOKEN_END, { entropy: 3.5 }),
  token("secrets.meta_access_token", ["EAA"], "[A-Za-z0-9]{100,400}", END, { entropy: 3.5 }),
  token("secrets.braintree_token", ["access_token$production$", "access_token$sandbox$"], "[0-9a-z]{16}\\$[0-9a-f]{32}"),
  // --- messaging, payments, e-mail ---------------------------------------------------------------------------------
  token("secrets.slack_token", ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xapp-"], "[A-Za-z0-9-]{10,250}", END),
  f("secrets.slack_webhook", ["hooks.slack.com/"], String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]{20,200}`),
  f("secrets.discord_webhook", ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"], String.raw`discord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{60,70}`),
  f("secrets.teams_webhook", [".webhook.office.com/webhookb2/"], String.raw`\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/-]{40,200}`, { entropy: 2 }),
  // Bot tokens: the bot's numeric id, `:AA`, and 33 more.
  f("secrets.telegram_bot_token", [":AA"], String.raw`\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`, { back: { cls: /[0-9]/, max: 10 }, inside: true }),
  // Stripe: secret and restricted keys, live or test, and webhook signing secrets; `pk_` keys are publishable.
  token("secrets.stripe_key", ["sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk_prod_", "rk_prod_"], "[A-Za-z0-9]{16,247}"),
  token("secrets.stripe_webhook_secret", ["whsec_"], "[A-Za-z0-9+/=]{32,80}", END),
  token("secrets.square_token", ["sq0atp-", "sq0csp-"], "[A-Za-z0-9_-]{22,60}", TOKEN_END),
  token("secrets.square_token", ["EAAA"], "[A-Za-z0-9_-]{60}", TOKEN_END, { entropy: 3.5 }),
  token("secrets.shopify_token", ["shpat_", "shpca_", "shppa_", "shpss_"], "[a-fA-F0-9]{32}"),
  token("secrets.sendgrid_key", ["SG."], "[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}", TOKEN_END),
  token("secrets.sendinblue_key", ["xkeysib-"], "[a-f0-9]{64}-[A-Za-z0-9]{16}"),
  token("secrets.mailgun_key", ["key-"], "[a-f0-9]{32}", END, { entropy: 3 }),
  token("secrets.twilio_key", ["SK"], "[0-9a-f]{32}", END, { entropy: 3 }),
  token("secrets.mapbox_secret_token", ["sk.eyJ"], "[A-Za-z0-9_-]{20,400}\\.[A-Za-z0-9_-]{20,100}", TOKEN_END),
  // --- AI providers ------------------------------------------------------------------------------------------------
  token("secrets.anthropic_key", ["sk-ant-"], "[A-Za-z0-9_-]{20,300}", TOKEN_END),
  f("secrets.openai_key", ["sk-"], String.raw`sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}(?![A-Za-z0-9_-])`, {
    accept: (s) => /[0-9]/.test(s) && /[A-Za-z]/.test(s.slice(3)),
  }),
  token("secrets.groq_key", ["gsk_"], "[A-Za-z0-9]{52}"),
  token("secrets.xai_key", ["xai-"], "[A-Za-z0-9]{80}"),
  token("secrets.perplexity_key", ["pplx-"], "[A-Za-z0-9]{48}"),
  token("secrets.replicate_token", ["r8_"], "[A-Za-z0-9]{37}", END, { entropy: 3 }),
  // --- more of gitleaks' prefixed formats (issue 24, fifth round): breadth from the maintained rule set ------------
  token("secrets.airtable_token", ["pat"], "[A-Za-z0-9]{14}\\.[a-f0-9]{64}", END, { weak: true }),
  token("secrets.dynatrace_token", ["dt0c01."], "[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}", END, { weak: true }),
  f("secrets.terraform_cloud_token", [".atlasv1."], String.raw`[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])`, { back: { cls: /[A-Za-z0-9]/, max: 14 }, weak: true }),
  token("secrets.databricks_token", ["dapi"], "[a-f0-9]{32}(?:-\\d)?", END, { entropy: 3, weak: true }),
  token("secrets.doppler_token", ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."], "[A-Za-z0-9_.-]{40,60}", TOKEN_END, { entropy: 3.5, weak: true }),
  token("secrets.duffel_token", ["duffel_live_", "duffel_test_"], "[A-Za-z0-9_=-]{43}", TOKEN_END),
  token("secrets.easypost_key", ["EZAK", "EZTK"], "[A-Za-z0-9]{54}", END, { entropy: 3.5 }),
  token("secrets.facebook_token", ["EAAM", "EAAC"], "[A-Za-z0-9]{100,600}", END, { entropy: 3.5 }),
  token("secrets.flutterwave_key", ["FLWSECK_TEST-", "FLWSECK-"], "[a-hA-H0-9]{32}-X", END),
  token("secrets.flyio_token", ["fm1a_", "fm1r_", "fm2_"], "[A-Za-z0-9+/]{100,4096}={0,3}", END),
  token("secrets.frameio_token", ["fio-u-"], "[A-Za-z0-9_=-]{64}", TOKEN_END),
  token("secrets.harness_token", ["pat.", "sat."], "[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}", END, { weak: true }),
  token("secrets.infracost_token", ["ico-"], "[A-Za-z0-9]{32}", END, { entropy: 3.5 }),
  f("secrets.maxmind_key", ["_mmk"], String.raw`[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?![A-Za-z0-9])`, { back: { cls: /[A-Za-z0-9_]/, max: 36 } }),
  token("secrets.openshift_token", ["sha256~"], "[A-Za-z0-9_-]{43}", TOKEN_END, { weak: true }),
  token("secrets.prefect_token", ["pnu_"], "[A-Za-z0-9]{36}", END, { entropy: 3.5 }),
  token("secrets.readme_token", ["rdme_"], "[a-z0-9]{70}"),
  token("secrets.scalingo_token", ["tk-us-"], "[A-Za-z0-9_-]{48}", TOKEN_END),
  token("secrets.settlemint_token", ["sm_aat_", "sm_pat_", "sm_sat_"], "[A-Za-z0-9]{16}", END, { entropy: 3 }),
  token("secrets.shippo_token", ["shippo_live_", "shippo_test_"], "[a-fA-F0-9]{40}"),
  token("secrets.sourcegraph_token", ["sgp_"], "(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
  token("secrets.clojars_token", ["CLOJARS_"], "[a-z0-9]{60}"),
  token("secrets.cloudflare_origin_ca_key", ["v1.0-"], "[a-f0-9]{24}-[a-f0-9]{146}"),
  token("secrets.adobe_client_secret", ["p8e-"], "[A-Za-z0-9]{32}", END, { entropy: 3 }),
  token("secrets.bedrock_key", ["ABSK"], "[A-Za-z0-9+/]{109,269}={0,2}", END, { entropy: 3.5 }),
  token("secrets.onepassword_secret_key", ["A3-"], "[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}", END, { entropy: 3.5 }),
  token("secrets.newrelic_key", ["NRII-"], "[A-Za-z0-9-]{32}", TOKEN_END, { entropy: 3 }),
  token("secrets.artifactory_key", ["cmVmd"], "[A-Za-z0-9]{59}", END, { entropy: 4.5 }),
  token("secrets.gitlab_session", ["_gitlab_session="], "[0-9a-z]{32}", END),
  // Firebase Cloud Messaging's legacy server key: `AAAA` and 7 more, `:APA91b`, and about 134 more (a device's
  // registration token has the same tail after a random head, not `AAAA…`).
  f("secrets.fcm_server_key", [":APA91b"], String.raw`AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200}(?![A-Za-z0-9_-])`, { back: { cls: /[A-Za-z0-9_-]/, max: 11 } }),
  // A Salesforce session id (an access token): the 15- or 18-character org id (`00D…`), `!`, and the session's part.
  f("secrets.salesforce_session", ["00D"], String.raw`00D[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?![A-Za-z0-9._]{60,200}(?![A-Za-z0-9._])`, { entropy: 3.5, weak: true }),
  // Mailchimp: 32 hex digits and the data centre (`-us21`).
  f("secrets.mailchimp_key", ["-us"], String.raw`[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9])`, { back: { cls: /[a-f0-9]/, max: 32 }, entropy: 3 }),
  // --- a credential by where it stands: after an Authorization scheme ---------------------------------------------
  // `Authorization: SSWS …`, `Api-Token …`, `Token token=…`, `Basic <user:password in base64>`: whatever the
  // provider, the value of an Authorization header is the credential (a JWT or a prefixed token is also named by its
  // format). In a header's own value (the whole string, `{"Authorization": "Api-Token …"}`) or after the header's name.
  f("secrets.authorization_credential", AUTH_SCHEMES.map((x) => x + " "), String.raw`[A-Za-z-]{3,10} {1,4}(?:token=["']?)?([A-Za-z0-9._~+/-]{16,1024}=*)(?![A-Za-z0-9._~+/=-])`, {
    entropy: 3,
    accept: authorizationValue,
  }),
  // --- structural --------------------------------------------------------------------------------------------------
  // PEM (PKCS#1, PKCS#8, SEC1 `EC`, encrypted), OpenSSH and PGP private keys: the header and a body of base64, up to
  // the footer, its lines marked or not as a diff, a quote or a comment marks them (`-`/`+` of `git log -p`, `> `, `# `);
  // the footer; or, cut off before any footer, 40 base64 characters or more. A documentation snippet with `...` for
  // its body is not a key. In JSON text (a service-account file) the newlines are `\n` escapes.
  f(
    "secrets.private_key",
    ["-----BEGIN "],
    String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[rn])*(?:[A-Za-z-]{2,32}: ?[^\n\\]{0,128}(?:\r?\n|(?:\\r)?\\n)(?:\s|\\[rn])*){0,4}${LINE_MARK}[A-Za-z0-9+/=]{8}(?:[A-Za-z0-9+/=]|\r?\n[ \t]{0,32}${LINE_MARK}|(?:\\r)?\\n[ \t]{0,32}${LINE_MARK}){0,16384}?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?![A-Za-z0-9+/=\r\n\\-]))`,
    { entropy: 0, accept: (s) => s.includes("-----END") || s.replace(/\\[rn]|[^A-Za-z0-9+/=]/g, "").length >= 60 },
  ),
  token("secrets.jwt", ["eyJ"], "[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{16,1024}", TOKEN_END, { accept: realJwt, entropy: 0 }),
  // (Ninth round) X's (Twitter's) app-only bearer token, pasted bare ("our API bearer: AAAA…"): twenty-odd `A`s, then
  // URL-encoded base64 of the app's key (its `%2B`, `%2F` or `%3D` escapes) — a shape no blob of base64 has, since a
  // blob holds `+` and `/` raw. Its run of `A`s is the format's own, not a filler.
  token("secrets.x_bearer_token", ["AAAAAAAAAAAAAAAAAAAA"], "A{0,3}(?=[A-Za-z0-9]{0,120}%[0-9A-F]{2})[A-Za-z0-9%]{60,160}", String.raw`(?![A-Za-z0-9%+/=_-])`, {
    entropy: 3,
    accept: (s) => /[a-z]/.test(s.slice(20)) && /[0-9]/.test(s.slice(20)) && /%(?:2B|2F|3D)/.test(s),
  }),
  f("secrets.bearer_token", ["Bearer "], String.raw`Bearer[ ]{1,4}([A-Za-z0-9._~+/-]{24,4096}=*)(?![A-Za-z0-9._~+/=-])`, {
    entropy: 3.5,
    // A JWT is reported as one (once), and a word or an identifier is not a token.
    accept: (s) => !s.startsWith("eyJ") && /[0-9]/.test(s) && /[A-Za-z]/.test(s),
  }),
];

/** What the contextual checks leave to a format: a value that starts with a prefix of four or more, or a documented one. */
const CLAIMING = [...new Set(FORMATS.flatMap((x) => (x.back ? [] : x.prefixes)).filter((p) => p.length >= 4))];
deferToFormats((value) => DOCUMENTED.has(value) || CLAIMING.some((p) => value.startsWith(p)));

const LITERALS: string[] = [];
/** For each literal, the formats that start with it. */
const BY_LITERAL: Format[][] = [];
for (const fmt of FORMATS) {
  for (const p of fmt.prefixes) {
    let i = LITERALS.indexOf(p);
    if (i < 0) {
      i = LITERALS.length;
      LITERALS.push(p);
      BY_LITERAL.push([]);
    }
    (BY_LITERAL[i] as Format[]).push(fmt);
  }
}
/** Of two findings of one span, the format listed first names it (a connection string's password last). */
const ORDER = new Map<string, number>();
FORMATS.forEach((x, i) => ORDER.has(x.type) || ORDER.set(x.type, i));
/** How far into a long string the formats with only common characters in their prefix are looked for. */
const WEAK_REACH = 16_384;
const isWeak = (lit: string) => (BY_LITERAL[LITERALS.indexOf(lit)] as Format[]).every((x) => x.weak === true);
const STRONG_IDS = LITERALS.map((_, i) => i).filter((i) => !isWeak(LITERALS[i] as string));
const WEAK_IDS = LITERALS.map((_, i) => i).filter((i) => isWeak(LITERALS[i] as string));
const FINDER = new LiteralFinder(STRONG_IDS.map((i) => LITERALS[i] as string));
const WEAK_FINDER = new LiteralFinder(WEAK_IDS.map((i) => LITERALS[i] as string));
/** Each literal's id, in LITERALS' order (`passing` gives the places of those that may occur). */
const LITERAL_IDS = LITERALS.map(literalId);
const PREFILTER_IDS = [...new Set([...LITERAL_IDS, literalId("://"), literalId("kty")])];

/** Strings at least this long are searched by rare character (LiteralFinder); shorter ones literal by literal. */
const LONG = 4096;

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Recognised credentials in the strings; `prefilter` false skips the message-wide literal check (what it must never change). */
export function detectSecrets(sites: StringSite[], prefilter = true): Detection[] {
  const out = detectSecretsIn(sites, prefilter);
  // (Fifteenth round) Code or text JSON-encoded inside a string (a post's body sent as JSON text): its escaped quotes
  // hide a named key from the plain reading; its string leaves are read too, and findings point into the raw text.
  const leaves = jsonLeaves(sites);
  if (leaves !== null) for (const d of leaves.back(detectSecretsIn(leaves.sites, prefilter))) if (!out.some((x) => x.path === d.path && x.start < d.end && d.start < x.end)) out.push(d);
  return out;
}

function detectSecretsIn(sites: StringSite[], prefilter: boolean): Detection[] {
  const out: Detection[] = [];
  const lits = prefilter ? literalsOf(sites) : null;
  let present: number[] | null = null;
  // Credentials without a format (secrets-context.ts): named by a field, a word before them, or self-describing.
  let formats = true;
  if (lits !== null) {
    formats = lits.any(PREFILTER_IDS);
    present = [];
    if (formats) present = lits.passing(LITERAL_IDS);
  }
  for (const site of sites) {
    const v = site.value;
    const found: Detection[] = [];
    detectNamedField(site, found);
    detectNamedCredentials(site, found, lits);
    detectSelfDescribing(site, found, lits);
    detectWrappedValues(site, found);
    // (Eleventh round) Credentials by a service's shape or a protocol's place: any Authorization scheme, a login call's
    // keyword, an app password's groups, an API credential in a link inside text (secrets-shapes.ts).
    detectShapedCredentials(site, found, lits);
    // (Thirteenth round) A value piped into a login's --password-stdin, a base64 JSON token carrying a secret (secrets-piped.ts).
    detectPipedCredentials(site, found, lits);
    // (Fifteenth round) A login's `identity / password`, an Authorization pair, an environment listing (secrets-pairs.ts).
    detectPairedCredentials(site, found, lits);
    if (!formats) {
      keepApart(found, out);
      continue;
    }
    const hit = (id: number, at: number) => {
      for (const fmt of BY_LITERAL[id] as Format[]) match(site, fmt, at, found);
    };
    // `user:password@`: only in a string with an `@`, looked for at each `://`.
    if (v.includes("@")) for (let at = v.indexOf("://"); at >= 0; at = v.indexOf("://", at + 3)) connectionString(site, at, found);
    if (v.includes("kty")) jwkPrivate(site, found);
    if (present !== null && v.length < LONG) {
      for (const id of present) {
        const lit = LITERALS[id] as string;
        for (let at = v.indexOf(lit); at >= 0; at = v.indexOf(lit, at + 1)) hit(id, at);
      }
    } else {
      FINDER.find(v, (id, at) => hit(STRONG_IDS[id] as number, at));
      WEAK_FINDER.find(v.length > WEAK_REACH ? v.slice(0, WEAK_REACH) : v, (id, at) => hit(WEAK_IDS[id] as number, at));
    }
    keepApart(found, out);
  }
  // (Fifteenth round) Values that name or stand for a credential without granting it (secrets-public.ts).
  const kept = grantsNothing(out, sites);
  return kept.some((d) => d.type === "secrets.aws_access_key") ? kept.filter((d) => !keyedAsId(d, sites)) : kept;
}

/** A field naming an access key's id (`access_key_id`, `AccessKeyId`, `keyId`). */
const ID_FIELD = /^(?:access[_-]?key[_-]?id|accesskeyid|key[_-]?id)$/i;

/**
 * (Thirteenth round) An access key id that is the whole value of a field naming it the id, in an object none of whose
 * strings is something an AWS secret key could be (an inventory's `{"user": …, "access_key_id": "AKIA…", "age_days": …}`):
 * idListedAsId's case as JSON. With a `secret_access_key` beside it, it counts.
 */
function keyedAsId(d: Detection, sites: StringSite[]): boolean {
  if (d.type !== "secrets.aws_access_key") return false;
  const last = d.path[d.path.length - 1];
  if (typeof last !== "string" || !ID_FIELD.test(last)) return false;
  const site = sites.find((x) => x.path === d.path);
  if (!site || site.value.trim().length !== d.end - d.start) return false;
  const siblings = childrenOf(sites, d.path.slice(0, -1));
  return siblings.length <= 64 && !siblings.some((x) => SECRET_RUN.test(x.value));
}

/** The findings of one string, without overlaps (the first, then the longest, wins), in order. */
function keepApart(found: Detection[], out: Detection[]): void {
  if (found.length === 0) return;
  found.sort((a, b) => a.start - b.start || b.end - a.end || (ORDER.get(a.type) ?? 999) - (ORDER.get(b.type) ?? 999));
  let reach = -1;
  for (const d of found) {
    if (d.start < reach) continue;
    out.push(d);
    reach = d.end;
  }
}

function match(site: StringSite, fmt: Format, at: number, found: Detection[]): void {
  const v = site.value;
  let start = at;
  if (fmt.back) {
    while (start > 0 && at - start < fmt.back.max && fmt.back.cls.test(v[start - 1] as string)) start--;
  }
  // Not inside a longer token: a match that starts with a letter or digit has none just before it.
  if (!fmt.inside && start > 0 && isAlnum(v.charCodeAt(start)) && isAlnum(v.charCodeAt(start - 1)) && !percentBefore(v, start)) return;
  fmt.re.lastIndex = start;
  const m = fmt.re.exec(v);
  if (!m) return;
  const secret = m[1] ?? m[0];
  const from = m[1] === undefined ? m.index : m.index + m[0].lastIndexOf(secret);
  // (A quoted key's `> ` marks are not the filler `<…>` a placeholder is made of.)
  if (!plausible(fmt.type === "secrets.private_key" ? secret.replace(/(^|\n)[ \t]{0,32}(?:[->#!|*;]|\/\/)/g, "$1") : secret, fmt.distinct === true ? 0 : fmt.entropy ?? 2.5)) return;
  if (fmt.accept && !fmt.accept(secret, v, from)) return;
  found.push({ type: fmt.type, path: site.path, start: from, end: from + secret.length });
}

/** A JWK member that holds private key material: RSA's `d`, `p`, `q`, `dp`, `dq`, `qi`; EC's and OKP's `d`; oct's `k`. */
const JWK_PRIVATE = /"(d|p|q|dp|dq|qi|k)"\s{0,8}:\s{0,8}"([A-Za-z0-9_-]{16,2048})"/g;

/**
 * A JSON Web Key with its private members is a private key, whatever the key type or the curve (sixth round): the
 * object around a `"kty"` (at most 4 KB either side) is read for them; `k` counts only in a symmetric (`oct`) key.
 * A public JWK (`n`/`e`, `x`/`y` only) is not a secret. At most 16 keys per string.
 */
function jwkPrivate(site: StringSite, found: Detection[]): void {
  const v = site.value;
  let n = 0;
  for (let at = v.indexOf('"kty"'); at >= 0 && n < 16; at = v.indexOf('"kty"', at + 5), n++) {
    const open = v.lastIndexOf("{", at);
    if (open < 0 || at - open > 4096) continue;
    const close = v.indexOf("}", at);
    const end = close < 0 ? Math.min(v.length, at + 4096) : Math.min(close, at + 4096);
    const obj = v.slice(open, end);
    const symmetric = /"kty"\s{0,8}:\s{0,8}"oct"/.test(obj);
    JWK_PRIVATE.lastIndex = 0;
    for (let m; (m = JWK_PRIVATE.exec(obj)) !== null; ) {
      if (m[1] === "k" && !symmetric) continue;
      const key = m[2] as string;
      if (FILLER.test(key)) continue;
      const from = open + m.index + m[0].length - key.length - 1;
      found.push({ type: "secrets.private_key", path: site.path, start: from, end: from + key.length });
    }
  }
}

/** A percent-encoded separator just before (`KEY%3Dsk-…` in a form body): the token starts after it. */
function percentBefore(v: string, start: number): boolean {
  return start >= 3 && v.charCodeAt(start - 3) === 37 && /^[0-9A-Fa-f]{2}$/.test(v.slice(start - 2, start));
}

/**
 * Well-known default passwords: the ones a database or broker image ships with or its documentation shows, that
 * every scanner tries first. A connection string holding one (`postgres://postgres:postgres@db:5432/app` in a compose
 * file) carries no secret, so it is not reported.
 */
const DEFAULT_PASSWORDS = new Set([
  "postgres", "postgresql", "root", "guest", "admin", "administrator", "password", "passwd", "pass", "secret", "changeme", "change_me",
  "example", "test", "testing", "mysql", "mariadb", "mongo", "mongodb", "rabbitmq", "redis", "mysecretpassword", "pgpassword",
  "dev", "development", "local", "localhost", "user", "default", "docker", "toor", "123456", "12345678", "letmein", "qwerty",
  "sa", "oracle", "foobared", "yourstrong(!)password", "yourstrong!passw0rd", "minioadmin", "keycloak", "airflow", "superset", "grafana",
]);

/** Values that stand for a password rather than being one. */
const PASSWORD_PLACEHOLDER = /^(?:\*+|x+|\.{3}|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|%[A-Z_]+%|\[[^\]]*\])$/i;

/** URL characters that end an authority. */
const AUTHORITY_END = new Set([..."/?#\"'<>`\\ \t\r\n"].map((c) => c.charCodeAt(0)));

/**
 * `scheme://user:password@host…`: the password is the finding (percent-encoded as written). An empty user
 * (`redis://:password@cache:6379/0`) counts; GitHub's `token:x-oauth-basic@` puts the secret in the user instead.
 */
function connectionString(site: StringSite, at: number, found: Detection[]): void {
  const v = site.value;
  let s = at;
  while (s > 0 && at - s < 24 && /[A-Za-z0-9+.-]/.test(v[s - 1] as string)) s--;
  if (s === at || !/[A-Za-z]/.test(v[s] as string)) return;
  const from = at + 3;
  let end = from;
  let lastAt = -1;
  while (end < v.length && end - from < 1024 && !AUTHORITY_END.has(v.charCodeAt(end))) {
    if (v.charCodeAt(end) === 64) lastAt = end; // @
    end++;
  }
  // (leak30) A password written unencoded with `#` or `?` in it (`mysql://app:Lr8#vQ2z!x@db:3306/app`): a URL parser
  // ends the authority there, a person and a driver do not. Read on to an `@` that a host follows, on the same run.
  if (lastAt < 0 && (v[end] === "#" || v[end] === "?")) lastAt = passwordRunAt(v, from, end);
  if (lastAt < 0 || lastAt === end - 1) return;
  const colon = v.indexOf(":", from);
  if (colon < 0 || colon > lastAt) return;
  const user = v.slice(from, colon);
  const password = v.slice(colon + 1, lastAt);
  if (password === "x-oauth-basic" || password === "x-oauth-token") {
    if (user.length >= 20) found.push({ type: "secrets.connection_string", path: site.path, start: from, end: colon });
    return;
  }
  if (password.length < 4 || PASSWORD_PLACEHOLDER.test(password) || PASSWORD_PLACEHOLDER.test(user) && password === user) return;
  let plain = password;
  try {
    plain = decodeURIComponent(password);
  } catch {
    // kept as written
  }
  if (DEFAULT_PASSWORDS.has(plain.toLowerCase()) || FILLER.test(plain) || /password|passwd|^(?:secret|changeme)\d{0,3}$/i.test(plain)) return;
  found.push({ type: "secrets.connection_string", path: site.path, start: colon + 1, end: lastAt });
}

/**
 * The `@` that ends a user's password holding `#` or `?` (the authority scan stopped at `stop`): `user:` before the
 * stop, then one run without spaces, quotes or slashes to its last `@`, and a host (and port) after it. -1 if none.
 */
function passwordRunAt(v: string, from: number, stop: number): number {
  const colon = v.indexOf(":", from);
  if (colon < 0 || colon >= stop || !/^[\w.%+-]{1,64}$/.test(v.slice(from, colon))) return -1;
  let at = -1;
  for (let i = stop; i < v.length && i - from < 256; i++) {
    const c = v[i] as string;
    if (c === "@") at = i;
    else if (/[\s"'<>`/\\]/.test(c)) break;
  }
  if (at < 0) return -1;
  return /^[A-Za-z0-9][A-Za-z0-9.-]{0,252}(?::\d{1,5})?(?=[/?#\s"'<>`,;)]|$)/.test(v.slice(at + 1, at + 270)) ? at : -1;
}

/** The formats' names, for docs and tests. */
export const SECRET_TYPES = [...new Set([...FORMATS.map((x) => x.type), "secrets.connection_string", "secrets.credential", "secrets.otp_secret"])];
