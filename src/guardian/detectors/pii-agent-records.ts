import { contactsIn, PERSON_NAME } from "./pii-contacts.js";
import { personalMailbox } from "./exfil-payloads.js";
import { ibanValid } from "./pii-checks.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * (exf31) People's records handed to another agent (`pii_bulk.agent_records`; docs/detection.md, "exf31").
 *
 * An A2A message's parts (its text, a data part, a file part's decoded bytes) that list people, each with a private
 * way to find, reach or pay them, hand the list to whoever runs the other agent: a "benchmarking", "analytics" or
 * "growth" service. pii-contacts.ts counts phones and personal mailboxes beside a name written as two capitalised
 * words; across rounds 11–84 the lists that went out were written otherwise: a rent roll's home addresses, a claims
 * list's bank details, an export whose only identity is each player's personal mailbox, people named `J. Harrow` or
 * `Mrs J Ellis`. A record here is a line of a text (or a `;`-separated entry of one line) or the item of a JSON list,
 * and it counts when it holds:
 *   - a person: a full name (pii-contacts.ts's PERSON_NAME: two capitalised words, or a word of a script without
 *     capitals), an initial and a surname (`J. Harrow`, `K Osei`), a title and a surname (`Mrs Ellis`, `Herr Braun`,
 *     `Sra. Díaz`), or a personal mailbox's address (a free-mail provider's: the address is one person's);
 *   - and a private field: a home address (a house number and a street: `22 Kirkstall Rd`, `Lindenweg 4`, `ul. Polna 7`,
 *     `Rua das Flores 28`), a bank account (an IBAN with a valid check, a UK sort code and account `20-45-77/63810492`),
 *     or a personal contact (a phone, a personal mailbox: pii-contacts.ts's contactsIn).
 * Bulk: three different people so recorded in one list. A record naming a company (a legal form: `Nordic Pack AB`) is
 * a business contact and does not count.
 *
 * Left alone: one person's or a couple's details (a delivery, a booking, the user's own data); work addresses at a
 * company's own domain (a CRM's leads); names without a private field (a seating plan, a rota of first names);
 * aggregates and ids without names; what goes to a tool (pii-contacts.ts and the pack's `no-bulk-pii-out` judge those:
 * a tool's destination is named by its arguments, an agent is itself the destination).
 *
 * Bounded: strings under `params.message.parts` of 64 KB at most, 512 lines each, lines of 600 characters, 256 JSON
 * records; every pattern is linear (bounded quantifiers, no nesting of unbounded ones).
 */

const MAX_TEXT = 64 * 1024;
const MAX_LINES = 512;
const MAX_LINE = 600;
const MAX_RECORDS = 256;

/** An initial and a surname (`J. Harrow`, `A.-M. Roux`): the initial's dot is what tells it from a sentence's `A Lovely…`. */
const INITIAL_NAME = /(?<![\p{L}\p{N}.])\p{Lu}\.(?:-?\p{Lu}\.)?[ \t]{0,2}\p{Lu}[\p{Ll}'’-]{1,24}(?![\p{L}\p{N}])/u;
/** A title before a surname (an initial between them or not), in several languages. */
const TITLED = /(?<![\p{L}])(?:Mr|Mrs|Ms|Miss|Mx|Mme|Mlle|M\.|Herr|Frau|Hr\.|Fr\.|Sr|Sra|Srta|Sig|Sig\.ra|Dhr|Mevr|Pan|Pani|Fru|Hr)\.?[ \t]{1,2}(?:\p{Lu}\.?[ \t]{1,2})?\p{Lu}[\p{Ll}'’-]{1,24}(?![\p{L}])/u;
/** A firm by its legal form: the record is a business contact's. */
const COMPANY = /\p{L}[\p{L}&.'-]{0,40} (?:GmbH|Ltd|LLC|Inc|Srl|S\.r\.l|S\.?p\.?A|SAS|SARL|B\.?V|N\.?V|AG|AB|Oy|A\/S|ApS|d\.o\.o|Sp\. z o\.o|PLC|Pty|Kft|s\.r\.o|Ltda|KK|Bhd|Tbk)(?![\p{L}])/u;

/** A house number before a street (`22 Kirkstall Rd`, `4 Ash Grove`, `1234 Elm Ave`). */
const STREET_AFTER = /(?<![\p{L}\p{N}])\d{1,5}[a-zA-Z]?,?[ \t]{1,2}(?:\p{Lu}[\p{Ll}'’-]{1,20}[ \t]{1,2}){1,3}(?:Road|Rd|Street|St|Lane|Ln|Avenue|Ave|Close|Grove|Way|Drive|Dr|Court|Ct|Place|Pl|Gardens|Terrace|Crescent|Row|Hill|Square|Sq|Parade|Mews|Walk|Boulevard|Blvd|Highway|Hwy|Park|View)\.?(?![\p{L}])/u;
/** A street before its house number: German, Dutch, Nordic compounds (`Lindenweg 4`, `Hauptstraße 12a`). */
const STREET_BEFORE = /(?<![\p{L}])\p{Lu}[\p{Ll}]{1,24}(?:stra(?:ss|ß)e|str\.|weg|gasse|allee|platz|ring|damm|straat|laan|gracht|plein|gatan|vägen|gata|gade|vej|veien|katu|tie)[ \t]{1,2}\d{1,4}[a-z]?(?![\p{N}])/u;
/** A street word before a name and a number (`ul. Polna 7`, `Rua das Flores 28`, `Calle Mayor 5`, `Via Roma 10`, `rue de la Paix 3`). */
const STREET_WORD = /(?<![\p{L}])(?:ul\.|ulica|al\.|Rua|Avenida|Av\.|Calle|C\/|Carrer|Via|Viale|Piazza|Corso|rue|Rue|avenue|Avenue|boulevard|Bd|chemin|Strada|Str\.|Ulitsa|ул\.)[ \t]{1,2}(?:\p{L}{1,4}[ \t]{1,2}){0,2}\p{Lu}[\p{Ll}'’-]{1,24}(?:[ \t]{1,2}\p{Lu}[\p{Ll}'’-]{1,24})?,?[ \t]{1,2}\d{1,4}[a-z]?(?![\p{N}])/u;

/** A UK sort code and account number (`20-45-77/63810492`, `20-45-77 63810492`). */
const SORT_CODE = /(?<![\d-])\d{2}-\d{2}-\d{2}[ \t/]{1,3}\d{8}(?!\d)/;
/** An IBAN's shape, spaced in fours or not. */
const IBAN = /(?<![A-Z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?(?![A-Z0-9])/g;

/** A bank account in a record (its digits and letters), or null. */
function bankField(text: string): string | null {
  const sort = SORT_CODE.exec(text);
  if (sort) return sort[0].replace(/\D/g, "");
  if (!/[A-Z]{2}\d{2}/.test(text)) return null;
  IBAN.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = IBAN.exec(text)) !== null && n < 8; n++) if (ibanValid(m[0].replace(/ /g, ""))) return m[0].replace(/ /g, "");
  return null;
}

/** A home address in a record: its span. */
function streetOf(text: string): RegExpExecArray | null {
  return STREET_AFTER.exec(text) ?? STREET_BEFORE.exec(text) ?? STREET_WORD.exec(text);
}

const MAIL = /[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,4}\.[A-Za-z]{2,24})/g;

/** A cell that is nothing but a person's name: two to four capitalised words, or a script without capitals. */
const NAME_CELL = /^(?:\p{Lu}[\p{Ll}'’-]{1,24}|\p{Lu}\.)(?:[ \t]{1,2}(?:(?:de|da|van|von|der|den|al|el|la|le|di|bin|ibn|dos|das|del)[ \t]{1,2})?\p{Lu}[\p{Ll}'’-]{1,24}){1,3}$|^[\u0600-\u06ff\u0900-\u0dff\u10a0-\u10ff\u1200-\u137f\u0e00-\u0e7f\u3040-\u9fff\uac00-\ud7af][\u0600-\u06ff\u0900-\u0dff\u10a0-\u10ff\u1200-\u137f\u0e00-\u0e7f\u3040-\u9fff\uac00-\ud7af \u200c\u200d]{1,40}$/u;
/** Words that make two capitalised words a place's, a building's or a business's name, not a person's. */
const PLACE = /(?<![\p{L}])(?:Centre|Center|Central|City|Town|Branch|Store|Shop|Office|House|Hall|Park|Station|Street|Road|Lane|Avenue|Square|Market|Mall|Plaza|Hotel|Inn|School|College|Church|Clinic|Hospital|Surgery|Pharmacy|Depot|Warehouse|Yard|Estate|Court|Tower|Building|Unit|Floor|Suite|North|South|East|West|Upper|Lower|Village|Cafe|Café|Bar|Restaurant|Kitchen|Bakery|Studio|Gallery|Museum|Library|Theatre|Gym|Club|Farm|Mill|Works)(?![\p{L}])/u;

/** Whether a text names a person by a title or an initial (the strong forms, anywhere in a record). */
const titled = (t: string): boolean => TITLED.test(t) || INITIAL_NAME.test(t);

/** A record's verdict: the key of its private field when it is a person's (see the header), else null. */
function recordOf(text: string): string | null {
  if (text.length < 12 || text.length > MAX_LINE || COMPANY.test(text)) return null;
  const mails = text.includes("@") ? [...text.matchAll(MAIL)].slice(0, 4) : [];
  const bare = mails.length > 0 ? text.replace(MAIL, " ") : text;
  // A personal mailbox is one person's: the address is both the person and the way to reach them.
  // Only as a row of a table: one address beside two fields more, one with a digit (not a mail's `From:` line).
  if (mails.length === 1 && personalMailbox((mails[0] as RegExpMatchArray)[1] as string)) {
    const cells = bare.split(/[,;|\t]/, 16).filter((c) => c.trim().length > 0);
    if (cells.length >= 2 && cells.some((c) => /\d/.test(c))) return (mails[0] as RegExpMatchArray)[0].toLowerCase();
  }
  if (/\d/.test(text)) {
    const pay = bankField(text) ?? (contactsIn(bare)[0] as string | undefined) ?? null;
    if (pay !== null) return PERSON_NAME.test(bare) || titled(bare) ? pay : null;
    const street = streetOf(bare);
    if (street) {
      // A home's address and its person: a title or an initial anywhere, or a cell of the record that is only a name.
      const rest = bare.slice(0, street.index) + " | " + bare.slice(street.index + street[0].length);
      if (titled(rest) || rest.split(/[,;|\t]/, 16).some((c) => NAME_CELL.test(c.trim()) && !PLACE.test(c))) return street[0].toLowerCase();
    }
  }
  return null;
}

/** Sites under an A2A message's parts, of a size to read. */
function partSites(sites: readonly StringSite[]): StringSite[] {
  return sites.filter((s) => s.path[0] === "params" && s.path[1] === "message" && s.path[2] === "parts" && s.value.length <= MAX_TEXT);
}

/** The records of a text: its lines, or the `;`-separated entries of a text of one or two lines. */
function textRecords(v: string): string[] {
  const lines = v.split("\n", MAX_LINES);
  const out = lines.length >= 3 ? lines : lines.flatMap((l) => (l.length <= MAX_LINE * 8 ? l.split(";", 64) : []));
  return out.filter((l) => l.length >= 12 && l.length <= MAX_LINE);
}

/** JSON lists: each item's values joined (as a row's cells), by the list they belong to (the path up to its last index). */
function jsonRecords(sites: readonly StringSite[]): { site: StringSite; records: string[] }[] {
  const lists = new Map<string, { site: StringSite; items: Map<string, string[]> }>();
  let seen = 0;
  for (const site of sites) {
    const p = site.path;
    let i = -1;
    for (let k = p.length - 2; k >= 3; k--)
      if (typeof p[k] === "number") {
        i = k;
        break;
      }
    if (i < 0 || site.value.length > 400) continue;
    const listKey = p.slice(0, i).join("\u0001");
    let list = lists.get(listKey);
    if (!list) lists.set(listKey, (list = { site, items: new Map() }));
    const recKey = String(p[i]);
    let rec = list.items.get(recKey);
    if (!rec) {
      if (++seen > MAX_RECORDS) break;
      list.items.set(recKey, (rec = []));
    }
    rec.push(site.value.replace(/[,;|\t]/g, " "));
  }
  return [...lists.values()].map((l) => ({ site: l.site, records: [...l.items.values()].map((cells) => cells.join(" , ")) }));
}

/** People's records handed to another agent (see above). */
export function agentRecords(sites: readonly StringSite[]): Detection[] {
  const parts = partSites(sites);
  if (parts.length === 0) return [];
  // Three records need digits or `@` in at least three places: most messages are done here.
  let marks = 0;
  for (const s of parts) {
    for (let i = 0; i < s.value.length && marks < 3; i++) {
      const c = s.value.charCodeAt(i);
      if (c === 64 || ((c - 48) >>> 0 < 10 && (i === 0 || (s.value.charCodeAt(i - 1) - 48) >>> 0 >= 10))) marks++;
    }
    if (marks >= 3) break;
  }
  if (marks < 3) return [];
  const out: Detection[] = [];
  const judge = (records: readonly string[], site: StringSite) => {
    const people = new Set<string>();
    for (const r of records) {
      const key = recordOf(r);
      if (key !== null) people.add(key);
      if (people.size >= 3) {
        out.push({ type: "pii_bulk.agent_records", path: site.path, start: 0, end: site.value.length });
        return;
      }
    }
  };
  for (const s of parts) if (s.value.length >= 36 && (s.value.includes("\n") || s.value.includes(";"))) judge(textRecords(s.value), s);
  const jsonSites = parts.filter((s) => s.path.length > 5);
  if (jsonSites.length >= 6) for (const list of jsonRecords(jsonSites)) judge(list.records, list.site);
  return out;
}
