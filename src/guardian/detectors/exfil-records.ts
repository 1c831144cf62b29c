import { argumentNames, type Detection, type StringSite } from "./scan.js";
import { mailDomains, personalMailbox } from "./exfil-payloads.js";
import { markedText } from "./exfil-words.js";

/*
 * (Twenty-fifth round, "exf25a") The organisation's records sent where nobody in it can read them back
 * (docs/detection.md, "exf25a"). Finding `exfiltration.outside_records`.
 *
 * Where: two kinds of destination a call names whose owner the call cannot show is the organisation —
 * - a consumer messenger's bot or webhook: a Telegram bot's `send…` method (`api.telegram.org/bot<token>/send…`) or a
 *   Discord webhook (`discord.com/api/webhooks/<id>/<token>`): the token is whoever made the bot, the chat whoever
 *   the bot was added to;
 * - a personal free-mail mailbox among an e-mail's recipients (`gmail.com`, `ukr.net`… exfil-payloads.ts's list).
 *   Team chats (Slack, Teams, Google Chat incoming webhooks) belong to a workspace and are left alone here.
 *
 * What: a payload that is a list of records rather than a notice — entries (split at line ends, semicolons and
 * commas outside brackets) that each name someone or something (a capitalised word of two letters or more, in any
 * cased script) and carry a figure (three digits or more, or a number with a currency, a percentage or a k/m/bn
 * suffix; a bare year is no figure). Three such entries, or two written on the same template (the same sequence of
 * name, figure and word tokens: `2611-NGB-0457 Amber Apparel 2x40HC, 2611-SGN-0112 Vinh Phat Furniture 4x40HC`), or
 * two prices per unit (`$241/unit`, `8 950 грн/т`) beside one entry. A notice is one event however many numbers it
 * has ("Occupancy tonight 87%, ADR €164, 3 walk-ins", "14 work orders closed, 3 emergencies, 2 awaiting parts",
 * "build 1.9.0-rc2 passed (Win64, Linux)"); a customer's own booking or export mailed to their own address is one
 * person's record, not a list.
 *
 * Also: a mailbox's mail forwarded to a personal mailbox (`ForwardingSmtpAddress`, `forwardTo`… holding a free-mail
 * address; not when the mailbox changed is a personal one itself), and a gist the call makes public whose text is
 * marked (exfil-words.ts) or calls itself internal ("internal recall plan"); code and config templates pass.
 *
 * Left alone: scripts without letter case (Hebrew, Arabic, CJK, Devanagari names are not told from words), a list of
 * figures without names ("oxycodone 10mg 412, fentanyl 25mcg 60"), data named rather than pasted (other checks read
 * attachments and file names), and every other destination.
 *
 * Linear: each payload is cut to 16 KB and split once; at most 256 entries of 160 characters are tokenised.
 */

const MAX_TEXT = 16_384;
const MAX_ENTRIES = 256;
const MAX_ENTRY = 160;

/** A Telegram bot's method that sends something, or a Discord webhook. */
const TELEGRAM_SEND = /^\/bot[^/]{1,120}\/send[A-Za-z]{0,20}\/?$/;
const DISCORD_HOOK = /^\/api\/(?:v\d{1,2}\/)?webhooks\/\d{5,25}\/[^/]{8,200}/;

/** The host and path of an http(s) URL a value starts with (a bare URL, or one with a query). */
export function messengerHook(v: string): URL | null {
  if (v.length > 4096 || !/^https?:\/\//i.test(v)) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  if (host === "api.telegram.org" && TELEGRAM_SEND.test(url.pathname)) return url;
  if ((host === "discord.com" || host === "discordapp.com" || host === "canary.discord.com" || host === "ptb.discord.com") && DISCORD_HOOK.test(url.pathname)) return url;
  return null;
}

/** A call argument's value read as a messenger hook: the cheap test first (30 characters or more, starting with an h). */
export function hookIn(v: string): URL | null {
  return v.length >= 30 && (v.charCodeAt(0) | 32) === 104 ? messengerHook(v.trim()) : null;
}

/**
 * A tool call's argument strings (among its first 256 strings): the first messenger hook apart, the others in order.
 * outsideRecords and exfil-figures' outsideFigures read the same split.
 */
export function hookAndArguments(sites: readonly StringSite[]): { hook: { site: StringSite; url: URL } | null; rest: StringSite[] } {
  let hook: { site: StringSite; url: URL } | null = null;
  const rest: StringSite[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const url: URL | null = hook === null ? hookIn(site.value) : null;
    if (url !== null) hook = { site, url };
    else rest.push(site);
  }
  return { hook, rest };
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* A list of records                                                                                                  */
/* ------------------------------------------------------------------------------------------------------------------ */

const CURRENCY = /[$€£¥₹₽₴₺₩₪₱฿₫]|(?<![\p{L}])(?:usd|eur|gbp|chf|pln|zł|czk|kč|huf|ft|uah|грн|rub|руб|inr|rs|thb|vnd|đ|idr|rp|brl|r\$|mxn|sek|nok|dkk|kr|ron|lei|try|tl|jpy|cny|rmb|aud|cad|nzd|zar)(?![\p{L}])/iu;
/** A price per unit: an amount with a currency, a slash, a unit word (`$21.40/cwt`, `8 950 грн/т`, `₹4,690/क्विंटल`). */
const UNIT_PRICE = /(?:[$€£¥₹₽₴₺₩₪₱฿₫]\s?\d[\d.,  ]{0,12}|\d[\d.,  ]{0,12}\s?(?:[$€£¥₹₽₴₺₩₪₱฿₫]|usd|eur|gbp|chf|pln|zł|czk|kč|huf|uah|грн|rub|руб|inr|thb|vnd|idr|brl|sek|nok|dkk|ron|try|jpy|cny))\s?\/\s?[\p{L}\p{M}]{1,14}/giu;
const YEAR = /^(?:19|20)\d{2}$/;

type Token = "C" | "N" | "l";

/** Token classes of an entry, runs collapsed: C a capitalised word, N a strong figure, l any other word. */
function shapeOf(entry: string): { shape: string; name: boolean; figure: boolean } {
  const tokens: Token[] = [];
  let name = false;
  let figure = false;
  for (const raw of entry.split(/\s+/, 48)) {
    const w = raw.replace(/^[^\p{L}\p{N}$€£¥₹₽₴+-]{1,8}|[^\p{L}\p{N}%$€£¥₹₽₴]{1,8}$/gu, "");
    if (w === "") continue;
    let t: Token;
    const digits = (w.match(/\d/g) ?? []).length;
    if (digits > 0) {
      if (YEAR.test(w)) t = "l";
      else if (digits >= 3 || CURRENCY.test(w) || /%$|\d(?:k|m|bn|mn|K|M)$/.test(w)) {
        t = "N";
        figure = true;
      } else t = "l";
    } else if (/^\p{Lu}[\p{L}\p{M}&.'’-]{1,40}$/u.test(w)) {
      t = "C";
      name = true;
    } else t = "l";
    if (tokens[tokens.length - 1] !== t) tokens.push(t);
  }
  return { shape: tokens.join(""), name, figure };
}

/** A line that is one labelled field of a form ("Adres: …", "Mobiel nummer: …"): a label of words, a colon, a value. */
const FIELD_LINE = /^\s{0,8}[\p{L}][\p{L}\p{M} ().'’/-]{0,40}:\s/u;

/**
 * Entries of a text: lines, then semicolons, then commas outside brackets; the heading of a line ("open bookings: …",
 * "VIP accounts: …") is not part of its first entry. In a text of several lines, a line that is one labelled field
 * with no list in its value is a form's field, not a record: a person's own record written as a form ("Naam: …",
 * "IBAN: …") is one record however many fields it has.
 */
function entriesOf(text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n|\\n/, MAX_ENTRIES);
  const several = lines.filter((l) => l.trim() !== "").length >= 2;
  for (const line of lines) {
    if (several && FIELD_LINE.test(line) && !/[;,]\s/.test(line)) continue;
    // A line with semicolons keeps its commas for the fields of each record (`Name, phone, code; Name, phone, code`).
    const commas = !line.includes(";");
    let depth = 0;
    let from = 0;
    let first = true;
    for (let i = 0; i <= line.length && out.length < MAX_ENTRIES; i++) {
      const c = line[i];
      if (c === "(" || c === "[" || c === "{") depth++;
      else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
      else if (i === line.length || c === ";" || (commas && c === "," && depth === 0 && /\s/.test(line[i + 1] ?? " "))) {
        let piece = line.slice(from, i).trim();
        if (first) {
          const colon = piece.lastIndexOf(": ");
          if (colon > 0 && colon < piece.length - 2) piece = piece.slice(colon + 2);
          first = false;
        }
        if (piece !== "") out.push(piece.length > MAX_ENTRY ? piece.slice(0, MAX_ENTRY) : piece);
        from = i + 1;
      }
    }
    if (out.length >= MAX_ENTRIES) break;
  }
  return out;
}

/** Whether a text is a list of records (see the header): a few words saying what, or null. */
export function recordList(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (!/\d/.test(t)) return null;
  const shapes = new Map<string, number>();
  let records = 0;
  let same = 0;
  for (const e of entriesOf(t)) {
    const s = shapeOf(e);
    if (!s.name || !s.figure) continue;
    records++;
    const n = (shapes.get(s.shape) ?? 0) + 1;
    shapes.set(s.shape, n);
    if (n > same) same = n;
  }
  if (records >= 3 || same >= 2) return "a list of records";
  UNIT_PRICE.lastIndex = 0;
  let prices = 0;
  while (prices < 2 && UNIT_PRICE.exec(t) !== null) prices++;
  if (records >= 1 && prices >= 2) return "a price list";
  return null;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Where the records go                                                                                               */
/* ------------------------------------------------------------------------------------------------------------------ */

const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|recipient_?emails?|to_?address(?:es)?|send_?to|email_?to)$/i;
const BODY_KEY = /^(?:body|text|html|content|message|body_?(?:text|html)|plain|plain_?text|html_?body|text_?body|caption|description)$/i;
/** Whether a value holds an address at a personal mailbox provider. */
function personalAddress(v: string): boolean {
  if (!v.includes("@") || v.length > 4096) return false;
  return mailDomains(v).some(personalMailbox);
}

/** Query keys a Telegram or Discord call carries its message in. */
const MESSAGE_QUERY = /^(?:text|caption|content|message)$/i;

/** The texts a payload carries: a JSON body's strings, a form body's values, or the text itself. */
export function payloadTexts(v: string): string[] {
  const s = v.trim();
  if (s.startsWith("{") || s.startsWith("[")) {
    try {
      const out: string[] = [];
      const visit = (x: unknown, depth: number) => {
        if (out.length >= 64 || depth > 6) return;
        if (typeof x === "string") out.push(x);
        else if (Array.isArray(x)) for (const y of x.slice(0, 64)) visit(y, depth + 1);
        else if (x !== null && typeof x === "object") for (const y of Object.values(x as Record<string, unknown>).slice(0, 64)) visit(y, depth + 1);
      };
      visit(JSON.parse(s.length > MAX_TEXT * 4 ? s.slice(0, MAX_TEXT * 4) : s), 0);
      return out;
    } catch {
      return [v];
    }
  }
  if (/^[\w.-]{1,40}=[^\s&]{0,4000}(?:&[\w.-]{1,40}=)/.test(s) || /^[\w.-]{1,40}=/.test(s)) {
    try {
      return [...new URLSearchParams(s.length > MAX_TEXT * 4 ? s.slice(0, MAX_TEXT * 4) : s).values()].slice(0, 64);
    } catch {
      return [v];
    }
  }
  return [v];
}

/** A key that sets where a mailbox's mail is forwarded (`ForwardingSmtpAddress`, `forwardTo`, `redirect_to`). */
const FORWARD_KEY = /^(?:(?:auto_?)?forward(?:ing)?_?(?:smtp_?)?(?:address(?:es)?|to|email|recipients?)?|redirect_?to|forward_?as_?attachment_?to)$/i;
/** A key that names the mailbox or account a call changes. */
const MAILBOX_KEY = /^(?:identity|mailbox|user|user_?id|user_?principal_?name|upn|account|owner|email)$/i;

/** Text that calls itself the organisation's own: "internal recall plan", "internal memo" (one word between at most). */
const INTERNAL_DOC = /\binternal\s{1,3}(?:[a-z]{2,20}\s{1,3})?(?:plans?|memos?|reports?|minutes|roadmaps?|strateg(?:y|ies)|forecasts?|budgets?|pricing|figures|investigations?|notes)\b/i;

/** A gist made public by the call: a gist tool or GitHub's gists endpoint, with `public` set true. */
function publicGist(tool: string, args: unknown, sites: readonly StringSite[]): string[] | null {
  const isTrue = (v: unknown) => v === true || v === "true";
  const contents = (o: Record<string, unknown>): string[] => {
    const out: string[] = [];
    if (typeof o.content === "string") out.push(o.content);
    const files = o.files;
    if (files !== null && typeof files === "object" && !Array.isArray(files)) {
      for (const f of Object.values(files as Record<string, unknown>).slice(0, 32)) {
        if (typeof f === "string") out.push(f);
        else if (f !== null && typeof f === "object" && typeof (f as { content?: unknown }).content === "string") out.push((f as { content: string }).content);
      }
    }
    return out;
  };
  if (/gist/i.test(tool) && !/(?:^|[_-])(?:get|read|list|fetch|search|view|show|delete)(?:$|[_-])/i.test(tool)) {
    if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
    const o = args as Record<string, unknown>;
    return isTrue(o.public) ? contents(o) : null;
  }
  const url = sites.find((s) => s.path[0] === "params" && s.path[1] === "arguments" && /^https:\/\/api\.github\.com\/gists\/?$/i.test(s.value.trim()));
  if (url === undefined) return null;
  for (const s of sites) {
    if (s === url || s.path[0] !== "params" || s.path[1] !== "arguments" || !s.value.trimStart().startsWith("{") || s.value.length > MAX_TEXT * 4) continue;
    try {
      const body = JSON.parse(s.value) as unknown;
      if (body !== null && typeof body === "object" && !Array.isArray(body) && isTrue((body as Record<string, unknown>).public)) return contents(body as Record<string, unknown>);
    } catch {
      // not a JSON body
    }
  }
  return null;
}

/**
 * A tool call's arguments: a list of records sent to a Telegram bot or a Discord webhook, or mailed to a personal
 * mailbox; a mailbox's mail forwarded to a personal mailbox; text marked confidential or internal, or a person's
 * records, in a gist the call makes public. The finding is the destination (the hook's URL, the recipient's value),
 * or the gist's content.
 */
export function outsideRecords(sites: readonly StringSite[], tool = "", callArgs?: unknown): Detection[] {
  // Gated on what every branch needs before anything is walked: an address, a URL, or a gist tool.
  if (!tool.includes("gist") && !sites.some((s) => s.value.includes("@") || s.value.includes("://"))) return [];
  const { hook, rest } = hookAndArguments(sites);
  const mailboxes: StringSite[] = [];
  const forwards: StringSite[] = [];
  const args: StringSite[] = [];
  for (const site of rest) {
    const v = site.value;
    const { key, top, names } = argumentNames(site);
    if (names.some((k) => FORWARD_KEY.test(k)) && v.includes("@") && v.length <= 4096 && personalAddress(v)) {
      forwards.push(site);
      continue;
    }
    if ((RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(top)) && v.includes("@") && v.length <= 4096) {
      if (personalAddress(v)) mailboxes.push(site);
      continue;
    }
    args.push(site);
  }
  const out: Detection[] = [];
  // A public gist: judged by what it says of itself or carries (a code snippet, a config template pass).
  if (tool.includes("gist") || sites.some((s) => s.value.includes("api.github.com/gists"))) {
    const texts = publicGist(tool, callArgs, sites);
    for (const t of texts ?? []) {
      // (Not credentials: a config template's `password = ${env:…}` is other checks' to judge.)
      const cut = t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t;
      const what = markedText(cut) ? "text marked confidential" : INTERNAL_DOC.test(cut) ? "text marked internal" : null;
      if (what === null) continue;
      const at = sites.find((s) => s.value === t) ?? sites.find((s) => s.value.includes("api.github.com/gists"));
      if (at !== undefined) out.push({ type: "exfiltration.outside_records", path: at.path, start: 0, end: at.value.length, detail: `${what} in a gist the call makes public` });
      break;
    }
  }
  // A mailbox's mail forwarded to a personal mailbox (unless the mailbox changed is a personal one itself).
  for (const f of forwards) {
    if (sites.some((s) => s.path[0] === "params" && s.path[1] === "arguments" && MAILBOX_KEY.test(String(s.path[s.path.length - 1])) && personalAddress(s.value))) break;
    out.push({ type: "exfiltration.outside_records", path: f.path, start: 0, end: f.value.length, detail: "a mailbox's mail forwarded to a personal mailbox" });
    break;
  }
  if (hook === null && mailboxes.length === 0) return out;
  if (hook !== null) {
    const texts: string[] = [];
    for (const [k, x] of hook.url.searchParams) if (MESSAGE_QUERY.test(k) && texts.length < 8) texts.push(x);
    for (const a of args) texts.push(...payloadTexts(a.value));
    for (const t of texts) {
      const what = recordList(t);
      if (what === null) continue;
      out.push({ type: "exfiltration.outside_records", path: hook.site.path, start: 0, end: hook.site.value.length, detail: `${what} sent to a messenger bot or webhook the call names` });
      break;
    }
  }
  if (mailboxes.length > 0) {
    for (const a of args) {
      if (!BODY_KEY.test(argumentNames(a).key) || a.value.length < 20) continue;
      const what = recordList(a.value);
      if (what === null) continue;
      const to = mailboxes[0] as StringSite;
      out.push({ type: "exfiltration.outside_records", path: to.path, start: 0, end: to.value.length, detail: `${what} mailed to a personal mailbox` });
      break;
    }
  }
  return out;
}
