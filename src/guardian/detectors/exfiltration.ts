import { hostMatcher } from "./content.js";
import { entropy } from "./entropy.js";
import { detectSecrets } from "./secrets.js";

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

export interface ExfiltrationParams {
  allow?: string[];
}

export function compileExfiltrationParams(params: ExfiltrationParams): RegExp[] {
  return (params.allow ?? DEFAULT_EXFILTRATION_ALLOW).map(hostMatcher);
}

type Kind = "image" | "link";

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
  if (v.includes("](")) {
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
  if (v.includes("]:")) {
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
  if (v.includes("url(")) {
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
const QUERY_PLACEHOLDER = /\{[A-Za-z_][\w .-]{0,40}\}/;
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

/** Words a human wrote: several, separated by spaces, mostly letters. */
function isProse(s: string): boolean {
  const words = s.trim().split(/\s+/);
  return words.length >= 5 || (words.length >= 4 && s.length >= 30);
}

/** What in a URL carries data out, or null: the pieces a renderer's request would hand the host. */
function carriedData(url: URL, kind: Kind, depth: number, allow: RegExp[]): string | null {
  const pieces: { key: string; value: string }[] = [];
  for (const [key, value] of url.searchParams) pieces.push({ key, value });
  const segments = url.pathname.split("/").filter((s) => s.length > 0);
  for (const s of segments) pieces.push({ key: "", value: decode(s).replace(/\.(?:png|jpe?g|gif|svg|webp|ico|bmp)$/i, "") });
  if (url.hash.length > 1) pieces.push({ key: "#", value: decode(url.hash.slice(1)) });
  const raw = decode(url.pathname + url.search + url.hash);
  if (PLACEHOLDER.test(raw) || QUERY_PLACEHOLDER.test(decode(url.search))) return "placeholder";
  if (detectSecrets([{ path: [], value: raw }]).length > 0) return "secret";
  for (const { key, value } of pieces) {
    if (depth < 2 && ABSOLUTE.test(value)) {
      const nested = judgeUrl(value, kind, depth + 1, allow);
      if (nested) return nested;
      continue;
    }
    if (isBlob(value) || value.split(/[.:|,;]/).some(isBlob)) return "encoded data";
    if (key === "" || value.length < 16) continue;
    if (kind === "image" && isProse(value)) return "text";
    // A link's query may hold words (a search); an image's may not, and neither may hold a random-looking value.
    if (DATA_KEYS.test(key) && /[A-Za-z]/.test(value) && (kind === "image" ? /\s/.test(value) || entropy(value) >= 3.5 : !/\s/.test(value) && entropy(value) >= 3.8)) return "data";
  }
  return null;
}

function judgeUrl(raw: string, kind: Kind, depth: number, allow: RegExp[]): string | null {
  let url: URL;
  try {
    url = new URL(raw.startsWith("//") ? `https:${raw}` : raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (allow.some((re) => re.test(host))) {
    // An allowed host can still forward a URL in its query (badge endpoints, image proxies).
    for (const [, value] of url.searchParams) if (depth < 2 && ABSOLUTE.test(value)) return judgeUrl(value, kind, depth + 1, allow);
    return null;
  }
  return carriedData(url, kind, depth, allow);
}

/** Images and links whose URL carries data to a host off the allow list: the URL is the finding. */
export function detectExfiltration(sites: StringSite[], allow: RegExp[]): Detection[] {
  const out: Detection[] = [];
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
        verdict = judgeUrl(url, f.kind, 0, allow);
        judged.set(key, verdict);
      }
      if (verdict === null) continue;
      const last = out[out.length - 1];
      if (last && last.path === site.path && last.start < f.end && f.start < last.end) continue;
      out.push({ type: `exfiltration.${f.kind}`, path: site.path, start: f.start, end: f.end });
    }
  }
  return out;
}
