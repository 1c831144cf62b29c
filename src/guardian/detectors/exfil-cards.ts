import type { Detection, StringSite } from "./scan.js";
import { hookIn, payloadTexts, recordList } from "./exfil-records.js";
import { PHONE_TOOL } from "./exfil-messages.js";
import { mailDomains, personalMailbox } from "./exfil-payloads.js";

/*
 * (exf29) Payment cards and people's phone numbers sent where nobody in the organisation reads them back
 * (docs/detection.md, "exf29"). Finding `exfiltration.outside_cards`.
 *
 * Where: a consumer messenger's bot or webhook the call names (a Telegram bot's `send…`, a Discord webhook:
 * exfil-records.ts); a messenger tool (Telegram, Viber, WhatsApp… exfil-messages.ts's list) posting to a chat, a
 * channel or a group (`@name`, a group's negative id `-100…`), not to one person's phone number; an e-mail to a
 * personal free-mail mailbox (cards only).
 *
 * What, by shape (any language):
 * - **card fragments**: two cards or more written masked (`4*0446`, `**** 1182`, `XXXX-XXXX-XXXX-7730`, `•••• 5521`)
 *   or as a brand or a word for a card beside its last four digits (`Visa ending 4410`, `MC x9012`, `card …1234`,
 *   `last4 3381`), or one such card with its expiry (`exp 08/28`); or the message naming card tails, expiry dates or
 *   security codes as what it carries (`card last4+expiry list`, `card tails`, `card CVV`; not a single card's `card ending 4821`), in a few languages;
 * - **a contact list**, to a chat or a bot only: two distinct phone numbers or more (nine digits or more each, in any
 *   script's text: `09-7712-33451`, `+234 803 123 4567`);
 * - **a list of records** (exfil-records.ts's recordList), to a messenger tool's chat (the earlier check read hooks).
 *
 * Left alone: one card's last four to its holder (a text to a phone number, a receipt to a customer), a notice
 * without cards or numbers ("Theme v2.3 deployed", an on-call delay), one phone number (a contact for the reader),
 * team chats (Slack, Teams: a workspace's), a company's own mailbox, and every other destination.
 *
 * Linear: bounded regexes (no nested quantifiers) over at most 16 KB of each of at most 64 payload texts.
 */

const MAX_TEXT = 16_384;

/** A masked card: a run of mask characters (or a leading BIN digit and masks) before four digits. */
const MASKED = /(?<![\w*•xX#])(?:\d{1,6}[ -]?)?(?:[*•xX#]{1,4}[ -]?){1,4}[*•xX#]{0,4}[ -]?(\d{4})(?!\d)/g;
/** A brand or a word for a card, then (a few characters on) its last four digits. */
const BRAND_TAIL = /(?<![\p{L}])(?:visa|mc|mastercard|master\s?card|amex|american\s?express|discover|jcb|maestro|unionpay|diners|rupay|elo|mir|cards?|karte|karta|kartu|tarjeta|cart[ãa]o|carte|carta|kaart|кар(?:та|ты|ту))(?:\s{0,2}(?:ending|ends|end|ending\s{1,2}in|last\s{0,2}(?:4|four)|last4|x|nr\.?|no\.?|#|…|\.{2,3}|endet\s{1,2}auf|terminada\s{1,2}en|final|на))?\s{0,2}[:#x…*.•-]{0,3}\s{0,2}(\d{4})(?![\d/])/giu;
/** `last4 1234`, `last 4: 1234`, `ending in 1234` without a brand. */
const LAST_FOUR = /(?<![\p{L}])(?:last\s{0,2}(?:4|four)(?:\s{0,2}digits)?|ending\s{1,2}(?:in\s{1,2})?|endet\s{1,2}auf|terminada\s{1,2}en)\s{0,2}[:#=-]?\s{0,2}(\d{4})(?!\d)/giu;
/** An expiry date beside a card: `exp 08/28`, `expiry 08/2028`, `gültig bis 08/28`, `vence 08/28`. */
const EXPIRY = /(?<![\p{L}])(?:exp(?:iry|ires|iration)?|valid\s{1,2}(?:thru|until)|gültig\s{1,2}bis|vence|venc\.?|scad(?:enza)?)\.?\s{0,2}[:=]?\s{0,2}(?:0[1-9]|1[0-2])\s?\/\s?(?:\d{2}|20\d{2})(?!\d)/iu;
/** The message naming card fragments as what it carries (`card last4+expiry list`, `card tails`, `CVV`). */
const NAMED_TAILS = /(?<![\p{L}])(?:cards?|karten?|tarjetas?|cart[õo]es|cart[ãa]o|cartes?|карт\p{L}{0,3})[\s-]{1,3}(?:last\s{0,2}(?:4|four)|last4|tails?|endings?|numbers?\s{1,2}and\s{1,2}expiry|expiry|expiries|cvv|cvc|terminaci[oó]n(?:es)?|vencimientos?|endziffern|ablaufdat(?:en|um)|validades?|fins\s{1,2}de\s{1,2}cart[ãa]o|окончани\p{L}{1,2}|срок\p{L}{0,2}\s{1,2}действия)(?![\p{L}])(?!\s{0,2}(?:in\s{1,2}|en\s{1,2}|auf\s{1,2})?[:#=x*.…-]{0,3}\s{0,2}\d)/iu;

/** Whether a text carries payment cards (see the header), and which way. */
export function cardFragments(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (NAMED_TAILS.test(t)) return "payment card details";
  if (!/\d{4}/.test(t)) return null;
  const tails = new Set<string>();
  for (const re of [MASKED, BRAND_TAIL, LAST_FOUR]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(t)) !== null && n < 64; n++) {
      if (re === MASKED && !/[*•]|[xX#]{2}/.test(m[0])) continue;
      tails.add(m[1] as string);
      if (tails.size >= 2) return "payment cards";
    }
  }
  return tails.size === 1 && EXPIRY.test(t) ? "a payment card with its expiry" : null;
}

/** A phone number in running text: an optional `+`, nine to fifteen digits in groups of one to five. */
const PHONE = /(?<![\p{N}\p{L}./:+-])\+?\(?\d[\d .()-]{6,24}\d(?![\p{N}\p{L}])/gu;

/** Whether a text lists two distinct phone numbers or more. */
export function phoneList(text: string): boolean {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const seen = new Set<string>();
  PHONE.lastIndex = 0;
  for (let m, n = 0; (m = PHONE.exec(t)) !== null && n < 128; n++) {
    const digits = m[0].replace(/\D/g, "");
    if (digits.length < 9 || digits.length > 15) continue;
    // Dates and times written as digits (`2026-11-28 04:10`) are no phone numbers.
    if (/^(?:19|20)\d{2}[01]\d[0-3]\d/.test(digits) && !m[0].startsWith("+") && !m[0].startsWith("0")) continue;
    seen.add(digits);
    if (seen.size >= 2) return true;
  }
  return false;
}

/** Keys a messenger tool names its chat under. */
const CHAT_KEY = /^(?:chat(?:_?id)?|channel(?:_?id)?|group(?:_?id)?|peer|room|conversation(?:_?id)?|to|target|destination)$/i;
/** A chat, a channel or a group, not a person's phone number: `@name`, a group's negative id, a channel's name. */
const CHAT_VALUE = /^\s{0,2}(?:@[A-Za-z][\w]{3,40}|-\d{6,20}|#[\w-]{2,60})\s{0,2}$/;
const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|recipient_?emails?|to_?address(?:es)?|send_?to|email_?to)$/i;

/**
 * A tool call's arguments: payment cards, a contact list or a list of records sent to a messenger bot, webhook or
 * chat, or cards mailed to a personal mailbox. The finding is the destination (the hook, the chat, the recipient).
 */
export function outsideCards(sites: readonly StringSite[], tool = ""): Detection[] {
  const messengerTool = tool.length <= 80 && PHONE_TOOL.test(tool);
  if (!messengerTool && !sites.some((s) => s.value.includes("@") || s.value.includes("://"))) return [];
  let dest: { site: StringSite; kind: "hook" | "chat" | "mailbox" } | null = null;
  const texts: string[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.encoded !== undefined) continue;
    const v = site.value;
    const key = String(site.path[site.path.length - 1]);
    if (dest === null && hookIn(v) !== null) {
      dest = { site, kind: "hook" };
      try {
        for (const [k, x] of new URL(v.trim()).searchParams) if (/^(?:text|caption|content|message)$/i.test(k) && texts.length < 64) texts.push(x);
      } catch {
        /* not a URL */
      }
      continue;
    }
    if (messengerTool && CHAT_KEY.test(key) && v.length <= 80 && CHAT_VALUE.test(v)) {
      if (dest === null) dest = { site, kind: "chat" };
      continue;
    }
    if (RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(String(site.path[2]))) {
      if (dest === null && v.includes("@") && v.length <= 4096 && mailDomains(v).some(personalMailbox)) dest = { site, kind: "mailbox" };
      continue;
    }
    if (texts.length < 64) for (const text of payloadTexts(v)) if (texts.length < 64) texts.push(text);
  }
  if (dest === null) return [];
  const where = dest.kind === "mailbox" ? "mailed to a personal mailbox" : dest.kind === "chat" ? "sent to a messenger chat the call names" : "sent to a messenger bot or webhook the call names";
  for (const text of texts) {
    let what = cardFragments(text);
    if (what === null && dest.kind !== "mailbox" && phoneList(text)) what = "people's phone numbers";
    // A messenger tool's chat: the records exfil-records.ts reads for hooks.
    if (what === null && dest.kind === "chat") what = recordList(text);
    if (what === null) continue;
    return [{ type: "exfiltration.outside_cards", path: dest.site.path, start: 0, end: dest.site.value.length, detail: `${what} ${where}` }];
  }
  return [];
}
