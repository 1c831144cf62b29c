import { personalMailbox } from "./exfil-payloads.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Twenty-third round) People's contacts handed on (`pii_bulk.contacts`): a list of people, each with a way to reach
 * them personally — a phone number, or an address at a personal mailbox — in what the user's side hands to another
 * agent or to a tool that sends it somewhere. Whatever the list is for (a "partner sync", a score, a post, a sheet), a
 * people list given to another party has left the organisation that collected it.
 *
 * A list is either the records of one JSON list (each item an object or a row; a data part's `members`, a sheet's
 * `values`, of any name and language, since only the values are read) or the lines of a text (`;` or a new line
 * between people, each line with one contact and a name beside it).
 *   - To another agent (an A2A message's parts) it is refused with three people who each have a contact of their own,
 *     or two whose records each hold two fields more than the contact and a name (an account number, a balance, a
 *     tier, a condition: a record, not an address book's card).
 *   - To a tool (a call's arguments) only records count (two in JSON, three lines of text), and only when the call
 *     names somewhere else for them in an argument of its own (a recipient, a chat, a sheet, a paste's title): a batch
 *     whose one argument is the list (`sms_batch`'s reminders) writes to those people themselves. Whether the tool
 *     sends off the machine is the pack's `no-bulk-pii-out` to judge, as for all of `pii_bulk`.
 *
 * What passes: one person or a couple (a family's booking: two names and their phones); an address book's cards (a
 * team's on-call names and numbers); business contacts (an address at a company's own domain, a record naming its
 * company or organisation by a key or by its legal form: `Gusto Srl`); numbers that are not phones (dates, amounts,
 * order, part and build numbers: a phone has 9 to 15 digits, after `+` or a trunk `0`, or else in groups of two to four;
 * an SSN's shape is not one).
 * Cost: only strings under `params.message.parts` or `params.arguments` of 64 KB at most are read; 256 records.
 */

const MAX_TEXT = 64 * 1024;
const MAX_RECORDS = 256;
/** A phone number: an optional `+`, 9–15 digits with spaces, dots, dashes or brackets between them (one class, bounded). */
const PHONE = /(?<![\w+./:-])\+?\(?\d[\d ().-]{6,22}\d(?![\w/:]|\.\d)/g;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,4}\.[A-Za-z]{2,24})/g;
/** A record's field that names the organisation it belongs to: a business contact. */
const COMPANY_KEY = /^(?:company|company_?name|organi[sz]ation|org|employer|firm|business|account_?name)$/i;
/** A value naming a firm by its legal form (`Gusto Srl`, `Nordic Pack AB`, `FreshLog d.o.o.`): a business contact too. */
const COMPANY_VALUE = /\p{L}[\p{L}&.'-]{0,40} (?:GmbH|Ltd|LLC|Inc|Srl|S\.r\.l|S\.?p\.?A|S\.?A|SAS|SARL|B\.?V|N\.?V|AG|AB|Oy|A\/S|ApS|d\.o\.o|Sp\. z o\.o|PLC|Pty|Kft|s\.r\.o|a\.s|Ltda|KK|Bhd|Tbk)(?![\p{L}])\.?/u;

/** The personal contacts in a string: phone numbers (digits only) and personal mailboxes' addresses. */
export function contactsIn(v: string): string[] {
  const out: string[] = [];
  if (/\d{3}/.test(v) || /\d[ .-]\d/.test(v)) {
    for (const m of v.matchAll(PHONE)) {
      const raw = m[0];
      const digits = raw.replace(/\D/g, "");
      // An unbroken run of digits is a phone only after `+` or a trunk `0` (`0917…`); otherwise an id or a build number.
      const dialled = /^\+|^\(?0/.test(raw);
      if (!/\d[ .()-]\d/.test(raw) && !dialled) continue;
      // Without `+` or a trunk `0`, a phone is written in groups of two to four digits (`601 233 415`, `415-555-0132`);
      // a part number or an account is not (`42201-7781204-5`).
      if (!dialled && !raw.split(/[ .()-]+/).every((g) => g.length <= 4)) continue;
      // An SSN's shape (`900-01-0001`) is an identity number, not a way to reach anyone.
      if (/^\d{3}-\d{2}-\d{4}$/.test(raw)) continue;
      // 9–15 digits as E.164 allows; one separator at a time (not a table's columns of figures).
      if (digits.length >= 9 && digits.length <= 15 && !/[ .-]{2}/.test(raw)) out.push(digits);
    }
  }
  if (v.includes("@")) for (const m of v.matchAll(EMAIL)) if (personalMailbox(m[1] as string)) out.push(m[0].toLowerCase());
  return out;
}

/** Where a string is handed on: an A2A message's parts (another agent), a tool call's arguments, or neither. */
function handedTo(path: Detection["path"]): "agent" | "tool" | null {
  if (path[0] !== "params") return null;
  if (path[1] === "message" && path[2] === "parts") return "agent";
  return path[1] === "arguments" ? "tool" : null;
}

interface Rec {
  contacts: Set<string>;
  fields: number;
  company: boolean;
  site: StringSite;
}

/** JSON lists: sites grouped by the list they are an item of (the path up to its last index followed by a key). */
function jsonLists(sites: readonly StringSite[]): Map<string, Map<string, Rec>> {
  const lists = new Map<string, Map<string, Rec>>();
  let seen = 0;
  for (const site of sites) {
    const p = site.path;
    let i = -1;
    for (let k = p.length - 2; k >= 3; k--) if (typeof p[k] === "number") { i = k; break; }
    if (i < 0 || site.value.length > 4096) continue;
    const listKey = JSON.stringify(p.slice(0, i));
    const recKey = String(p[i]);
    let list = lists.get(listKey);
    if (!list) lists.set(listKey, (list = new Map()));
    let rec = list.get(recKey);
    if (!rec) {
      if (++seen > MAX_RECORDS) break;
      list.set(recKey, (rec = { contacts: new Set(), fields: 0, company: false, site }));
    }
    rec.fields++;
    const key = p[p.length - 1];
    if ((typeof key === "string" && COMPANY_KEY.test(key)) || (site.value.length <= 120 && COMPANY_VALUE.test(site.value))) rec.company = true;
    for (const c of contactsIn(site.value)) rec.contacts.add(c);
  }
  return lists;
}

/** A list's verdict: enough people with contacts of their own (see the header); a tool's needs records. */
function bulk(recs: readonly Rec[], to: "agent" | "tool"): boolean {
  const withContact = recs.filter((r) => r.contacts.size > 0 && !r.company);
  // A name and the contact, and two fields more.
  const rich = new Set(withContact.filter((r) => r.fields - r.contacts.size >= 3).map((r) => [...r.contacts][0]));
  if (rich.size >= 2) return true;
  return to === "agent" && new Set(withContact.map((r) => [...r.contacts][0])).size >= 3;
}

/**
 * A person's name beside the contact: two capitalised words (`Nowak Anna`, `Santos, Ana`), or a word of a script without
 * capitals (Georgian, Amharic, Arabic, Thai, Chinese, Japanese, Korean). A city or a desk named in one word is not.
 */
export const PERSON_NAME = /\p{Lu}\p{Ll}{1,30},? {1,2}\p{Lu}\p{Ll}{0,30}|[\u0600-\u06ff\u10a0-\u10ff\u1200-\u137f\u0e00-\u0e7f\u3040-\u9fff\uac00-\ud7af]{2}/u;

/**
 * A text's lines (or `;`-separated entries), each a person when it holds one personal contact and a name beside it:
 * how many people, and how many of their lines hold two words or codes more (a booking code, an id, a date, a shift).
 */
function textPeople(v: string): { people: number; rich: number } {
  const seen = new Set<string>();
  const rich = new Set<string>();
  for (const line of v.split(/[;\n]/, 512)) {
    const contacts = contactsIn(line);
    const rest = line.replace(/\S+@\S+/g, " ");
    if (contacts.length !== 1 || !PERSON_NAME.test(rest)) continue;
    const contact = contacts[0] as string;
    seen.add(contact);
    // (Without the phone itself; a date or a shorter number beside it is one of the other fields.)
    const others = rest.replace(PHONE, (m) => (m.replace(/\D/g, "").length >= 9 ? " " : m)).replace(PERSON_NAME, " ").match(/[\p{L}\p{N}][\p{L}\p{N}/.:-]{1,40}/gu) ?? [];
    if (others.length >= 2) rich.add(contact);
  }
  return { people: seen.size, rich: rich.size };
}

export function peopleContacts(sites: readonly StringSite[]): Detection[] {
  const handed = sites.filter((s) => handedTo(s.path) !== null && s.value.length <= MAX_TEXT);
  if (handed.length === 0) return [];
  const to = handedTo((handed[0] as StringSite).path) as "agent" | "tool";
  const parts = handed.filter((s) => handedTo(s.path) === to);
  const out: Detection[] = [];
  // A tool's list is payload when the call names somewhere else for it (a recipient, a chat, a sheet, a paste's title):
  // another argument of its own. A batch whose only argument is the list (`sms_batch`'s lines) writes to those people.
  const elsewhere = (site: StringSite) => to === "agent" || parts.some((s) => s.path.length === 3 && s.path[2] !== site.path[2]);
  for (const list of jsonLists(parts).values()) {
    const recs = [...list.values()];
    const first = recs.find((r) => r.contacts.size > 0);
    if (first !== undefined && bulk(recs, to) && elsewhere(first.site)) {
      out.push({ type: "pii_bulk.contacts", path: first.site.path, start: 0, end: first.site.value.length });
    }
  }
  for (const s of parts) {
    if (s.value.length < 24 || !/\d{3}|@/.test(s.value)) continue;
    const t = textPeople(s.value);
    if ((t.rich >= 2 || (to === "agent" && t.people >= 3)) && elsewhere(s)) out.push({ type: "pii_bulk.contacts", path: s.path, start: 0, end: s.value.length });
  }
  return out;
}
