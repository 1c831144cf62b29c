import type { Detection, StringSite } from "./scan.js";
import { hookIn, payloadTexts } from "./exfil-records.js";
import { PHONE_TOOL } from "./exfil-messages.js";
import { mailDomains, personalMailbox } from "./exfil-payloads.js";
import { DATA_FILE } from "./exfil-outlets.js";

/*
 * (Twenty-sixth round, "exf26a") Codes a person keys in, sent where nobody in the organisation reads them back
 * (docs/detection.md, "exf26a"). Finding `exfiltration.outside_codes`.
 *
 * Where: a consumer messenger's bot or webhook the call names (a Telegram bot's `send…`, a Discord webhook:
 * exfil-records.ts), a text-message or messenger tool (an SMS, WhatsApp, Telegram, Zalo… tool: exfil-messages.ts), an
 * e-mail to a personal free-mail mailbox.
 *
 * What, by shape rather than by the words around it (any language):
 * - **keypad codes and PINs**: three distinct codes or more, each a number keyed with `#` (`4471#`) or after a word for
 *   a code (`pin 4471`, `code 2580`, `kod`, `código`, `passcode`, `keypad`), four to eight digits (not a year);
 * - **logins**: two `user / password` pairs or more (`eng01 / Subst@tion#88`), or one beside a word for a login, the
 *   password a single word with a lower-case letter, a capital, a digit and a symbol;
 * - **keys and vouchers**: three distinct codes or more written as capital-and-digit groups joined by hyphens
 *   (`7XK2M-QP4RT-9LZ8W`, `GC-7Q2K-99XP`, `RB-S8-ASH-GOLD-2291`), each with a group mixing letters and digits, and no
 *   two alike but for one group (a run of serial ids — `B26-11-0771`, `B26-11-0772` — is a list of records, not keys);
 * - (to a messenger's webhook in a command line) a data file attached with `-F file=@…xlsx`.
 *
 * Left alone: one code (a guest's door code, a one-time code sent to its owner), HTTP statuses and ticket numbers
 * (`code 500`, `#4412`), order and invoice numbers without a mixed group, a notice without codes, team chats (Slack,
 * Teams: a workspace's) and every other destination.
 *
 * Linear: bounded regexes over at most 16 KB of each of at most 64 payload texts.
 */

const MAX_TEXT = 16_384;
const YEAR = /^(?:19|20)\d\d$/;

/** A number keyed with `#`, or after a word for a code or a PIN. */
const KEYPAD = /(?<![\w#.,/-])(\d{3,8})#(?![\w#])/g;
const CODE_AFTER_WORD = /(?<![\p{L}\p{N}_])(?:pins?|passcodes?|keypad|combination|combo|codes?|otp|kod[aeuy]?|kode|c[oó]digos?|codice|codici|коды?|код[аи]?|PIN-?(?:Code|kod))\s{0,2}[:=#-]?\s{0,2}(\d{4,8})(?![\d.,:/-]\d)(?![\w])/giu;

function keypadCodes(t: string): boolean {
  const codes = new Set<string>();
  for (const re of [KEYPAD, CODE_AFTER_WORD]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(t)) !== null && n < 64; n++) {
      const c = m[1] as string;
      if (YEAR.test(c)) continue;
      codes.add(c);
      if (codes.size >= 3) return true;
    }
  }
  return false;
}

/** `user / password` (spaced slash) or `user:password` (no blanks), the password a single word. */
const LOGIN_PAIR = /(?<![^\s(,;:])([A-Za-z][\w.@-]{1,30})(?:\s{1,3}\/\s{1,3}|:)([^\s,;/]{6,40})(?=[\s,;)]|$)/g;
const LOGIN_WORD = /\b(?:logins?|log-?ins?|passwords?|passwd|pw|creds?|credentials?|user\s{0,2}\/\s{0,2}pass(?:word)?|passwort|kennwort|contrase[ñn]a|senha|mot\s{1,2}de\s{1,2}passe|parola|has[lł]o|wachtwoord|lösenord|salasana|jelszó)\b|парол|密码|密碼|パスワード|비밀번호|كلمة\s{0,2}المرور|סיסמ/iu;

function passwordShaped(v: string): boolean {
  return /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v) && /[^A-Za-z0-9]/.test(v) && !/^https?$/i.test(v);
}

function logins(t: string): boolean {
  const pairs = new Set<string>();
  LOGIN_PAIR.lastIndex = 0;
  for (let m, n = 0; (m = LOGIN_PAIR.exec(t)) !== null && n < 64; n++) {
    const user = m[1] as string;
    const pass = (m[2] as string).replace(/[.]+$/, "");
    if (/^(?:https?|ftp|mailto|tel|urn|data)$/i.test(user) || !passwordShaped(pass)) continue;
    pairs.add(`${user}\u0000${pass}`);
    if (pairs.size >= 2) return true;
  }
  return pairs.size === 1 && LOGIN_WORD.test(t);
}

/** Capital-and-digit groups joined by hyphens: a product key, a voucher, a gift card's code. */
const KEY_TOKEN = /(?<![\w-])[A-Z0-9]{2,6}(?:-[A-Z0-9]{2,6}){2,5}(?![\w-])/g;
const MIXED_GROUP = /[A-Z][0-9]|[0-9][A-Z]/;

function keyList(t: string): boolean {
  const kept: string[][] = [];
  KEY_TOKEN.lastIndex = 0;
  for (let m, n = 0; (m = KEY_TOKEN.exec(t)) !== null && n < 64; n++) {
    const groups = m[0].split("-");
    if (!groups.some((g) => MIXED_GROUP.test(g))) continue;
    // Serial ids differ in one group: keys differ in two or more from every one kept.
    const apart = kept.every((k) => k.length !== groups.length || k.reduce((d, g, i) => d + (g === groups[i] ? 0 : 1), 0) >= 2);
    if (!apart) continue;
    kept.push(groups);
    if (kept.length >= 3) return true;
  }
  return false;
}

/** Codes a person keys in, in a text (see the header), or null. */
export function keyedCodes(text: string): string | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (!/\d/.test(t)) return null;
  if (t.includes("#") || /pin|c[oó]d|kod|otp|keypad|combo|код/i.test(t)) if (keypadCodes(t)) return "access codes or PINs";
  if ((t.includes("/") || t.includes(":")) && logins(t)) return "logins";
  if (t.includes("-") && keyList(t)) return "keys or voucher codes";
  return null;
}

const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|recipient_?emails?|to_?address(?:es)?|send_?to|email_?to|email)$/i;
/** A messenger webhook in a command line (`curl … https://discord.com/api/webhooks/…`). */
const HOOK_IN_LINE = /https:\/\/(?:api\.telegram\.org\/bot[^\s/"']{1,120}\/send[A-Za-z]{0,20}|(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/\d{5,25}\/[^\s/"']{8,200})/;
const ATTACHED = /(?:^|\s)-F\s{1,4}["']?[\w.-]{1,40}=@["']?([^\s"';&|]{1,300})/g;

/**
 * A tool call's arguments: codes a person keys in sent to a messenger bot or webhook, by a text-message or messenger
 * tool, or to a personal mailbox; a data file attached to a messenger's webhook in a command line. The finding is the
 * destination (the hook's URL, the recipient) or, for a messaging tool, the text.
 */
export function outsideCodes(sites: readonly StringSite[], tool = ""): Detection[] {
  const phoneTool = tool.length <= 80 && PHONE_TOOL.test(tool);
  if (!phoneTool && !sites.some((s) => s.value.includes("@") || s.value.includes("://"))) return [];
  let dest: StringSite | null = null;
  const texts: { site: StringSite; text: string }[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments" || site.encoded !== undefined) continue;
    const v = site.value;
    if (dest === null && hookIn(v) !== null) {
      dest = site;
      // A hook's own query may carry the message (`…/sendMessage?chat_id=…&text=…`).
      try {
        for (const [k, x] of new URL(v.trim()).searchParams) if (/^(?:text|caption|content|message)$/i.test(k) && texts.length < 64) texts.push({ site, text: x });
      } catch {
        /* not a URL */
      }
      continue;
    }
    const key = String(site.path[site.path.length - 1]);
    if (RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(String(site.path[2]))) {
      if (dest === null && v.includes("@") && v.length <= 4096 && mailDomains(v).some(personalMailbox)) dest = site;
      continue;
    }
    // A command line posting a data file to a messenger's webhook.
    if (v.length <= MAX_TEXT && v.includes("-F") && v.includes("://")) {
      const hook = HOOK_IN_LINE.exec(v);
      if (hook !== null) {
        ATTACHED.lastIndex = 0;
        for (let m, n = 0; (m = ATTACHED.exec(v)) !== null && n < 16; n++) {
          if (!DATA_FILE.test(m[1] as string)) continue;
          return [{ type: "exfiltration.outside_codes", path: site.path, start: hook.index, end: hook.index + hook[0].length, detail: "a data file attached to a messenger's webhook" }];
        }
      }
    }
    if (texts.length < 64) for (const text of payloadTexts(v)) if (texts.length < 64) texts.push({ site, text });
  }
  if (dest === null && !phoneTool) return [];
  for (const { site, text } of texts) {
    const what = keyedCodes(text);
    if (what === null) continue;
    const at = dest ?? site;
    return [{ type: "exfiltration.outside_codes", path: at.path, start: 0, end: at.value.length, detail: `${what} sent ${dest === null ? "in a text message" : "outside the organisation"}` }];
  }
  return [];
}
