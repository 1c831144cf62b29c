import { personalMailbox } from "./exfil-payloads.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (Twenty-third round) People's contacts handed to another agent (`pii_bulk.contacts`): a list of people, each with a
 * way to reach them personally — a phone number, or an address at a personal mailbox — in a message the user's side
 * sends to another agent. Whatever the list is for (a "partner sync", a score, a post), the other agent is another
 * party: a people list given to it has left the organisation that collected it.
 *
 * A list is either the records of one JSON list (each item an object; a data part's `members`, `riders`, rows of any
 * name and language, since only the values are read) or the lines of a text (`;` or a new line between people).
 * It is refused when:
 *   - three people or more each have a personal contact of their own (different numbers or addresses), or
 *   - two people or more do, each record holding two fields more than the contact and a name (an account number, a
 *     balance, a tier, a condition: a record, not an address book's card).
 *
 * What passes: one person or a couple (a family's booking: two names and their phones); business contacts (an address
 * at a company's own domain, or a record naming its company or organisation: leads for the user's own CRM); numbers
 * that are not phones (dates, amounts, order ids: a phone has 9 to 15 digits and no decimal point); anything an MCP
 * tool is given, whose destination exfiltration's checks judge (a tool is the user's own until shown otherwise).
 * Cost: only the strings of an A2A message's parts are read; at most 64 KB of text per string and 256 records.
 */

const MAX_TEXT = 64 * 1024;
const MAX_RECORDS = 256;
/** A phone number: an optional `+`, 9–15 digits with spaces, dots, dashes or brackets between them (one class, bounded). */
const PHONE = /(?<![\w+./:-])\+?\(?\d[\d ().-]{6,22}\d(?![\w/:]|[.,]\d)/g;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,4}\.[A-Za-z]{2,24})/g;
/** A record's field that names the organisation it belongs to: a business contact. */
const COMPANY_KEY = /^(?:company|company_?name|organi[sz]ation|org|employer|firm|business|account_?name)$/i;

/** The personal contacts in a string: phone numbers (digits only) and personal mailboxes' addresses. */
function contactsIn(v: string): string[] {
  const out: string[] = [];
  if (/\d{3}/.test(v) || /\d[ .-]\d/.test(v)) {
    for (const m of v.matchAll(PHONE)) {
      const raw = m[0];
      const digits = raw.replace(/\D/g, "");
      // An unbroken run of digits is a phone only after `+` or a trunk `0` (`0917…`); otherwise an id or a build number.
      if (!/\d[ .()-]\d/.test(raw) && !/^\+|^\(?0/.test(raw)) continue;
      // 9–15 digits as E.164 allows; one separator at a time (not a table's columns of figures).
      if (digits.length >= 9 && digits.length <= 15 && !/[ .-]{2}/.test(raw)) out.push(digits);
    }
  }
  if (v.includes("@")) for (const m of v.matchAll(EMAIL)) if (personalMailbox(m[1] as string)) out.push(m[0].toLowerCase());
  return out;
}

/** Whether a path lies in an A2A message's parts (`params.message.parts…`): what is handed to another agent. */
function inA2aParts(path: Detection["path"]): boolean {
  return path[0] === "params" && path[1] === "message" && path[2] === "parts";
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
    if (typeof key === "string" && COMPANY_KEY.test(key)) rec.company = true;
    for (const c of contactsIn(site.value)) rec.contacts.add(c);
  }
  return lists;
}

/** A list's verdict: enough people with contacts of their own (see the header). */
function bulk(recs: readonly Rec[]): boolean {
  const withContact = recs.filter((r) => r.contacts.size > 0 && !r.company);
  const distinct = new Set(withContact.map((r) => [...r.contacts][0]));
  if (distinct.size >= 3) return true;
  // A name and the contact, and two fields more.
  return distinct.size >= 2 && withContact.filter((r) => r.fields - r.contacts.size >= 3).length >= 2;
}

/**
 * A person's name beside the contact: two capitalised words (`Nowak Anna`, `Santos, Ana`), or a word of a script without
 * capitals (Georgian, Amharic, Arabic, Thai, Chinese, Japanese, Korean). A city or a desk named in one word is not.
 */
const NAME = /\p{Lu}\p{Ll}{1,30},? {1,2}\p{Lu}\p{Ll}{0,30}|[\u0600-\u06ff\u10a0-\u10ff\u1200-\u137f\u0e00-\u0e7f\u3040-\u9fff\uac00-\ud7af]{2}/u;

/** A text's lines (or `;`-separated entries), each a person when it holds one personal contact and a name beside it. */
function textPeople(v: string): number {
  const seen = new Set<string>();
  for (const line of v.split(/[;\n]/, 512)) {
    const contacts = contactsIn(line);
    if (contacts.length !== 1 || !NAME.test(line.replace(/\S+@\S+/g, ""))) continue;
    seen.add(contacts[0] as string);
  }
  return seen.size;
}

export function peopleContacts(sites: readonly StringSite[]): Detection[] {
  const parts = sites.filter((s) => inA2aParts(s.path) && s.value.length <= MAX_TEXT);
  if (parts.length === 0) return [];
  const out: Detection[] = [];
  for (const list of jsonLists(parts).values()) {
    const recs = [...list.values()];
    if (bulk(recs)) {
      const first = recs.find((r) => r.contacts.size > 0) as Rec;
      out.push({ type: "pii_bulk.contacts", path: first.site.path, start: 0, end: first.site.value.length });
    }
  }
  for (const s of parts) {
    if (s.value.length < 24 || !/\d{3}|@/.test(s.value)) continue;
    if (textPeople(s.value) >= 3) out.push({ type: "pii_bulk.contacts", path: s.path, start: 0, end: s.value.length });
  }
  return out;
}
