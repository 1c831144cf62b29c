import { hostMatcher } from "./urls.js";
import { entropy } from "./entropy.js";
import { morePayload } from "./exfil-payloads.js";
import { chatHookRouting, moreChatHook, personalPayload } from "./exfil-sinks.js";
import { formDecoded, hostedPayload, withoutExamples } from "./exfil-hosted.js";
import { labelledSecrets } from "./secrets-labelled.js";
import { markedText, passwordInWords } from "./exfil-words.js";

/*
 * (Ninth round) Relays: services whose whole purpose is to accept an HTTP request for somebody's account and hand what
 * it carries on — automation and workflow triggers (IFTTT, Zapier, Make, Power Automate / Logic Apps, n8n, Apps Script
 * web apps, Pipedream, Workato, Tray, Pabbly, Activepieces, Tines, Val Town), webhook routers and inspectors (Hookdeck,
 * smee, Webhook Relay), chat webhooks used as drop boxes (Discord, Telegram bots), form back-ends (Formspree, Getform,
 * FormSubmit, Basin, Web3Forms…) and mock or echo endpoints (mocky, httpbin, Postman Echo, mockbin…). The address says
 * nothing about whose account it is: an ordinary notification ("deploy finished") to the user's own Zap looks the
 * same. What makes a request to one exfiltration is what it carries (docs/detection.md, "Ninth round"):
 *
 * - records about people (a list of objects holding e-mail addresses or phone numbers, a CSV export, an IBAN or a
 *   card number), credentials in words (passwords, recovery codes, private keys), or text marked confidential;
 * - in the URL's own query, a random-looking value that is not the relay's own routing (a session token handed on).
 *
 * Linear: one bounded regex pass per payload (64 KB at most); the host lists are compiled once.
 */

export const DEFAULT_RELAYS = [
  // automation and workflow triggers
  "maker.ifttt.com",
  "hooks.zapier.com",
  "hook.*.make.com",
  "hook.make.com",
  "hook.integromat.com",
  // (Sixteenth round) Make's Celonis hosts and Relay.app's playbook triggers.
  "hook.*.make.celonis.com",
  "hook.relay.app",
  "*.logic.azure.com",
  "*.environment.api.powerplatform.com",
  "*.app.n8n.cloud",
  "*.n8n.cloud",
  "script.google.com",
  "script.googleusercontent.com",
  "*.m.pipedream.net",
  "webhooks.workato.com",
  "*.trayapp.io",
  "connect.pabbly.com",
  "cloud.activepieces.com",
  "webhooks.integrately.com",
  "*.tines.com",
  "*.web.val.run",
  "*.val.run",
  "hooks.airtable.com",
  // webhook routers and inspectors
  "hkdk.events",
  "*.hkdk.events",
  "events.hookdeck.com",
  "smee.io",
  "*.webhookrelay.com",
  "webhook.cool",
  "*.webhook.cool",
  "putsreq.com",
  "typedwebhook.tools",
  "webhook-test.com",
  "*.webhook-test.com",
  // chat webhooks and bots used as drop boxes
  "discord.com",
  "discordapp.com",
  "api.telegram.org",
  // form back-ends
  "formspree.io",
  "getform.io",
  "formsubmit.co",
  "usebasin.com",
  "formcarry.com",
  "formkeep.com",
  "api.web3forms.com",
  "api.staticforms.xyz",
  "submit-form.com",
  "fabform.io",
  // (Sixteenth round) Jotform's public form submission endpoint (no key: anybody's form by its id).
  "submit.jotform.com",
  // (Phase two) Paperform's submissions API.
  "api.paperform.co",
  // (Fourteenth round) EmailJS: sends whatever it is handed as an e-mail from the account whose ids the request names.
  "api.emailjs.com",
  "formbold.com",
  "getwaitlist.com",
  // mock and echo endpoints
  "run.mocky.io",
  "designer.mocky.io",
  "httpbin.org",
  "httpbingo.org",
  "postman-echo.com",
  "mockbin.org",
  "mockbin.io",
  "*.mockbin.io",
  "echo.hoppscotch.io",
  "echo.zuplo.io",
  "*.mockapi.io",
  "reqres.in",
  "jsonplaceholder.typicode.com",
  "dummyjson.com",
  // (Tenth round) Incoming webhooks of chat workspaces (Slack, Teams, Google Chat), public push topics (ntfy) and a
  // Google Form's answer endpoint: each hands what it is sent to whoever owns the workspace, topic or form, which the
  // address cannot tell. (Analytics ingestion is a data store: exfil-payloads.ts.)
  "hooks.slack.com",
  "*.webhook.office.com",
  "chat.googleapis.com",
  "ntfy.sh",
  "docs.google.com",
];

const RELAYS = DEFAULT_RELAYS.map((p) => (p.includes("*") && !p.startsWith("*.") ? new RegExp(`^${p.replace(/\./g, "\\.").replace("*", "[a-z0-9-]{1,40}")}$`) : hostMatcher(p)));

/** Paths that make a chat host a webhook or a bot's upload (not a page of the service). */
const CHAT_PATHS: Record<string, RegExp> = {
  // (Sixteenth round) A bot's post to a channel as well as a webhook; every Bot API method that sends or rewrites a
  // message (sendAudio, sendVoice, sendLocation, sendContact, editMessageText, copyMessage, forwardMessage…).
  "discord.com": /^\/api\/(?:v\d+\/)?(?:webhooks\/|channels\/\d{15,22}\/messages)/,
  "discordapp.com": /^\/api\/(?:v\d+\/)?(?:webhooks\/|channels\/\d{15,22}\/messages)/,
  "api.telegram.org": /^\/bot[^/]{1,100}\/(?:send[A-Z][A-Za-z]{0,30}|editMessage[A-Za-z]{0,20}|copyMessages?|forwardMessages?)\b/,
  "script.google.com": /^\/macros\/s\//,
  "hooks.slack.com": /^\/(?:services|workflows|triggers)\//,
  "chat.googleapis.com": /^\/v1\/spaces\/[^/]{1,80}\/messages/,
  "docs.google.com": /^\/forms\/(?:u\/\d{1,2}\/)?d\/(?:e\/)?[^/]{1,120}\/formResponse/,
  "ntfy.sh": /^\/[^/]/,
  "api.emailjs.com": /^\/api\/v\d(?:\.\d)?\/email\/send/,
  "submit.jotform.com": /^\/submit\//,
  "api.paperform.co": /^\/v1\/forms\/[^/]{1,80}\/submissions/,
};

/** (Sixteenth round) n8n's webhook trigger on any host (self-hosted or cloud): `/webhook/<uuid>` and its test twin. */
const N8N_HOOK = /^\/webhook(?:-test)?\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\/|$)/;

/** Whether a URL (host lower case, path) is a relay's intake. */
export function isRelay(host: string, path: string): boolean {
  // (Twelfth round) DingTalk, Lark/Feishu, WeCom robots and self-hosted Mattermost/Rocket.Chat hooks (exfil-sinks.ts).
  if (moreChatHook(host, path) || N8N_HOOK.test(path)) return true;
  if (!RELAYS.some((re) => re.test(host))) return false;
  const chat = CHAT_PATHS[host];
  return chat === undefined || chat.test(path);
}

/** Query keys a relay routes or signs with (Logic Apps' `sig`, Azure Functions' `code`, `api-version`): its own. */
const ROUTING_KEYS = /^(?:sig|signature|sp|sv|se|api-version|code|key|chat_id|thread_id|wait|parse_mode|format|v)$/i;

/** A random-looking query value (24 characters or more, letters and digits, high entropy) that is not routing. */
/** (Tenth round) Query keys a relay of the tenth round routes with: Google Chat's webhook `key` and `token`. */
const HOST_ROUTING: Record<string, RegExp> = { "chat.googleapis.com": /^(?:token|threadKey|messageReplyOption)$/ };

export function relayQueryToken(url: URL): boolean {
  const own = HOST_ROUTING[url.hostname.toLowerCase()] ?? chatHookRouting(url.hostname.toLowerCase());
  for (const [key, value] of url.searchParams) {
    if (ROUTING_KEYS.test(key) || own?.test(key) === true || value.length < 20 || value.length > 4096) continue;
    if (/[a-z]/.test(value) && /[A-Z0-9]/.test(value) && /^[A-Za-z0-9_\-.~+/=]+$/.test(value) && entropy(value) >= 3.8) return true;
  }
  return false;
}

const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6}/g;
const PHONE = /\+\d{1,3}[ .-]?\(?\d{1,4}\)?(?:[ .-]?\d{2,4}){2,4}/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b/;
const CARD_WORDS = /\b(?:credit\s{1,3}card|card\s{1,3}(?:number|ending|ends)|kreditkarte|tarjeta|carte\s{1,3}bancaire|cvv|cvc)\b/i;
/** Credentials in words: recovery or backup codes, private keys, credential files. */
const CREDENTIAL_WORDS = /\b(?:recovery[-_ ]codes?|backup[-_ ]codes?|2fa[-_ ]codes?|private[-_ ]key|id_rsa|id_ed25519|git-credentials|aws_secret_access_key|BEGIN [A-Z ]{0,20}PRIVATE KEY)\b/i;
/** A password with its value (a digit or a symbol in it): `"password": "Spring2026!"`, not `password=demo`. */
const PASSWORD_VALUE = /\bpass(?:word|wd|phrase)["']?\s{0,3}[:=]\s{0,3}["']?(?=[^\s"'&,}]{0,40}[0-9!@#$%^*?~])[^\s"'&,}]{6,40}/i;
/**
 * (Eleventh round) A login given as a pair: "login: buildbot / Gol3m!Rel3ase", "creds admin:Pa55w0rd!", "user/pass:
 * ci-bot / Tr0ub4dor&3". The second value holds a letter and a digit or a symbol ("login: SSO / Okta", "creds: see the
 * vault" name none).
 */
const CREDENTIAL_PAIR = /\b(?:login|logon|sign-?in|creds?|credentials|user(?:name)?\s{0,2}\/\s{0,2}pass(?:word)?)\s{0,3}[:=]?\s{1,3}[A-Za-z][A-Za-z0-9._@-]{1,39}\s{0,2}[/:]\s{0,2}(?!\/)(?=[^\s"'&,}:]{0,40}[0-9!@#$%^*?~])(?=[^\s"'&,}:]{0,40}[A-Za-z])[^\s"'&,}/:]{6,40}/i;

/**
 * (Eleventh round) A precise position (latitude and longitude with four decimals or more: ten metres) with whose it is
 * (a user, a name, an e-mail): a person's whereabouts. A forecast for a city's coordinates names nobody.
 */
const LATITUDE = /\b(?:lat|latitude)["']?\s{0,2}[=:]\s{0,2}["']?-?\d{1,2}\.\d{4,8}/i;
const LONGITUDE = /\b(?:lon|lng|long|longitude)["']?\s{0,2}[=:]\s{0,2}["']?-?\d{1,3}\.\d{4,8}/i;
const WHOSE = /\b(?:user|username|user_?id|name|person|owner|member|child|email)["']?\s{0,2}[=:]\s{0,2}["']?[A-Za-z]/i;

/** Text marked as not for outsiders. */
const CONFIDENTIAL = /\b(?:confidential|internal[-_ ]only|do\s{1,3}not\s{1,3}(?:share|distribute|forward)|strictly\s{1,3}private|board\s{1,3}(?:notes|minutes)|layoffs?|under\s{1,3}nda)\b/i;
/** A CSV header: four fields or more, one of which names a person's detail. */
const CSV_HEADER = /^(?:"?[A-Za-z_]\w{0,30}"?[,;\t]){3,30}"?[A-Za-z_]\w{0,30}"?\r?$/m;
/** (Not `name` or `user` alone: a build report's `name,version,status,duration` is no one's record.) */
const PERSON_FIELD = /\b(?:e-?mail|phone|mobile|first_?name|last_?name|full_?name|address|dob|birth|date_of_birth|ssn|iban|card|salary)\b/i;

const MAX_PAYLOAD = 65536;

/**
 * What a payload handed to a relay carries that is not a notification's: null for an ordinary event, else a few words.
 * People's records (several addresses or numbers, a list of objects with one, a CSV export with a person's fields, an
 * IBAN or a card), credentials in words, or text marked confidential.
 */
/**
 * (Tenth round) A team chat's incoming webhook (Slack, Teams, Google Chat): a bot's message there names colleagues by
 * address ("review requested from a@… by b@…"), so two addresses are not yet records — three or more are, or any with
 * a word that says records (customers, contacts, rows, a CSV).
 */
export function teamChat(host: string): boolean {
  return host === "hooks.slack.com" || host === "chat.googleapis.com" || host.endsWith(".webhook.office.com") || chatHookRouting(host) !== undefined;
}
const RECORDS_WORD = /\b(?:customers?|clients?|contacts?|leads|subscribers?|patients?|employees?|users|members|rows|records|export|\.csv)\b/i;

export function sensitivePayload(text: string, chat = false): string | null {
  // (Thirteenth round, exfil-hosted.ts) The documented example values are nobody's; a form-encoded body is read decoded.
  const t = withoutExamples(text.length > MAX_PAYLOAD ? text.slice(0, MAX_PAYLOAD) : text);
  const decoded = formDecoded(t);
  if (decoded !== null && decoded !== t) {
    const what = judgePayload(decoded, chat);
    if (what) return what;
  }
  const what = judgePayload(t, chat);
  if (what !== null || t.length < 40) return what;
  // (Seventeenth round) Base64 in a payload is read decoded as well: encoding hides nothing (a project file with its
  // passwords, pasted as base64 inside a JSON body). Four runs of text at most; bytes that are not text are skipped.
  return encodedRuns(t, (x) => judgePayload(x, chat));
}

const BASE64_RUN = /[A-Za-z0-9+/]{40,16384}={0,2}/g;

/** What the base64 runs of a text decode to, judged: the first finding, or null (four runs at most). */
export function encodedRuns(t: string, judge: (text: string) => string | null): string | null {
  BASE64_RUN.lastIndex = 0;
  for (let m, n = 0; (m = BASE64_RUN.exec(t)) !== null && n < 4; ) {
    const run = m[0];
    if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !/[0-9]/.test(run)) continue;
    n++;
    const bytes = Buffer.from(run, "base64");
    let printable = 0;
    for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13 || b >= 0xc2) printable++;
    if (bytes.length < 24 || printable < bytes.length * 0.9) continue;
    const what = judge(bytes.toString("utf8"));
    if (what !== null) return `encoded ${what}`;
  }
  return null;
}

function judgePayload(t: string, chat: boolean): string | null {
  // (Seventeenth round) A password named in another language (exfil-words.ts).
  if (CREDENTIAL_WORDS.test(t) || PASSWORD_VALUE.test(t) || CREDENTIAL_PAIR.test(t) || passwordInWords(t)) return "credentials";
  // (Fourteenth round) A credential given by its label (a PSK, a `.pgpass` line, a login pair): secrets-labelled.ts.
  if (labelledSecrets(t, true).length > 0) return "credentials";
  // (Tenth round) One-time codes, service-account key files, database passwords on a command line, live keys, IBANs
  // by their check digits, card numbers by Luhn: exfil-payloads.ts.
  const more = morePayload(t);
  if (more) return more;
  // (Thirteenth round) Bank account numbers, a session cookie, a seed phrase (exfil-hosted.ts).
  const hosted = hostedPayload(t);
  if (hosted) return hosted;
  // (Seventeenth round) Marked in any language, or embargoed, or undisclosed results; a disclaimer is no mark (exfil-words.ts).
  if (CONFIDENTIAL.test(t) || markedText(t)) return "text marked confidential";
  if (LATITUDE.test(t) && LONGITUDE.test(t) && (WHOSE.test(t) || /[\w.+-]@[A-Za-z0-9-]{1,63}\.[A-Za-z]{2}/.test(t))) return "a person's location";
  if (IBAN.test(t) || CARD_WORDS.test(t)) return "payment details";
  const emails = (t.match(EMAIL) ?? []).length;
  const phones = (t.match(PHONE) ?? []).length;
  if (emails + phones >= (chat && !RECORDS_WORD.test(t) ? 3 : 2)) return "people's contact records";
  // One address inside a list of records (`[{"from": "a@b", …}]`), or a CSV export naming people's fields.
  if (emails + phones >= 1 && /\[\s{0,8}\{/.test(t)) return "people's records";
  const header = CSV_HEADER.exec(t);
  if (header && PERSON_FIELD.test(header[0]) && t.slice(header.index + header[0].length).trim().length > 0) return "a CSV export";
  // (Twelfth round) An identity document's MRZ, a person's money, ID numbers, a position with whose (exfil-sinks.ts).
  return personalPayload(t);
}

/** Where a URL sits in a command line: the words after it and before it, minus the URL. */
export function withoutSpan(v: string, start: number, end: number): string {
  return v.slice(0, start) + " " + v.slice(end);
}
