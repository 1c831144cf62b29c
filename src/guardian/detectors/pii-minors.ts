import type { Detection, StringSite } from "./scan.js";

/*
 * (Fifteenth round, "sec15") Two kinds of people's records the identifier-led checks (pii-people.ts) do not reach:
 *
 * 1. **Other families' children with a way to reach them** (`pii_bulk.minors`): entries (lines, or `;`-separated parts
 *    of one line) each naming a person (two capitalised words) with a child's age (`(9,`, `(5)`, `age 7`, `9 yrs`,
 *    `9-year-old`: 17 or less) and a parent's or guardian's phone (`mom 216-555-0101`, `dad +33 6 44 18 22 09`,
 *    `parent: …`). Two entries or more with different phones are other families' children — a roster, a club's
 *    registrations — whoever receives them. A parent's own two children share one phone; a team list without contacts,
 *    an adults' list without ages and a staff list pass.
 * 2. **Travel documents beside birth dates** (`pii_bulk.travel_documents`): three lines or more, each with a name, a
 *    document number (7 to 9 capital letters and digits, a letter first and four digits or more: the shape of most
 *    passports and national identity cards) and a birth date (ISO or day-first, fourteen years ago or more). An arrivals
 *    list or a manifest; one traveller's own document, booking locators (six characters) and product codes beside
 *    delivery dates do not make one.
 *
 * Linear: each entry is matched by bounded patterns; at most 256 entries per string, 64 KB strings.
 */

const MAX = 65_536;
const NAME = /(?:^|[^\p{L}])(?:\p{Lu}\p{Ll}{1,20}|\p{Lu}\.)[ \t]{0,2}(?:\p{Lu}\p{Ll}{1,20}[ \t]{1,2})?\p{Lu}(?:(?:\p{Ll}|['’-]\p{Lu}?){1,24}|\.)(?!\p{L})|(?:^|[^\p{L}])\p{Lu}{2,24}[ \t]{1,2}\p{Lu}\p{Ll}{1,20}(?!\p{L})/u;
const AGE = /\((?:age[ \t]{0,2})?(\d{1,2})[,)]|\bage[ \t:]{1,3}(\d{1,2})\b|\b(\d{1,2})[ \t-]{0,2}(?:yrs?|years?[ \t-]old|year-old|y\/o|ans|jahre)\b|,[ \t]{0,2}(\d{1,2})[ \t]{0,2},/i;
const GUARDIAN_PHONE = /\b(?:mom|mum|mother|dad|father|parent|parents|guardian|grandma|grandpa|grandmother|grandfather|aunt|uncle|mama|papa|maman|mutter|vater)\b[ \t:,-]{0,3}(\+?\d[\d \t().-]{5,18}\d)/i;

function entries(v: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let from = 0;
  for (let i = 0; i <= v.length && out.length < 256; i++) {
    const c = v[i];
    if (i === v.length || c === "\n" || c === ";") {
      if (i > from) out.push({ text: v.slice(from, i), start: from });
      from = i + 1;
    }
  }
  return out;
}

function minors(site: StringSite): Detection[] {
  const v = site.value;
  if (!GUARDIAN_PHONE.test(v)) return [];
  const hits: { start: number; end: number; phone: string }[] = [];
  for (const e of entries(v)) {
    if (e.text.length > 400 || !NAME.test(e.text)) continue;
    const a = AGE.exec(e.text);
    const age = a === null ? NaN : Number(a[1] ?? a[2] ?? a[3] ?? a[4]);
    if (!(age >= 0 && age <= 17)) continue;
    const p = GUARDIAN_PHONE.exec(e.text);
    if (p === null) continue;
    const phone = (p[1] as string).replace(/\D/g, "");
    if (phone.length < 7) continue;
    const at = e.start + p.index + p[0].length - (p[1] as string).length;
    hits.push({ start: at, end: at + (p[1] as string).length, phone });
  }
  if (hits.length < 2 || new Set(hits.map((h) => h.phone)).size < 2) return [];
  return hits.map((h) => ({ type: "pii_bulk.minors", path: site.path, start: h.start, end: h.end }));
}

const DOC = /(?<![A-Za-z0-9])([A-Z]{1,2}[A-Z0-9]{5,8})(?![A-Za-z0-9])/g;
const BIRTH = /(?<![0-9])(?:(19\d{2}|20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])|(0[1-9]|[12]\d|3[01])[./](0[1-9]|1[0-2])[./](19\d{2}|20\d{2}))(?![0-9])/;
const NOW_YEAR = new Date().getUTCFullYear();

function travelDocuments(site: StringSite): Detection[] {
  const v = site.value;
  if (!v.includes("\n") && !v.includes(";")) return [];
  const hits: { start: number; end: number; doc: string }[] = [];
  for (const e of entries(v)) {
    if (e.text.length > 300 || !NAME.test(e.text)) continue;
    const b = BIRTH.exec(e.text);
    if (b === null) continue;
    const year = Number(b[1] ?? b[6]);
    if (NOW_YEAR - year < 14 || NOW_YEAR - year > 110) continue;
    DOC.lastIndex = 0;
    for (let m; (m = DOC.exec(e.text)) !== null; ) {
      const doc = m[1] as string;
      if (doc.length < 7 || doc.length > 9 || (doc.match(/\d/g)?.length ?? 0) < 4) continue;
      hits.push({ start: e.start + m.index, end: e.start + m.index + doc.length, doc });
      break;
    }
  }
  if (hits.length < 3 || new Set(hits.map((h) => h.doc)).size < 3) return [];
  return hits.map((h) => ({ type: "pii_bulk.travel_documents", path: site.path, start: h.start, end: h.end }));
}

/** A birth date's label, in the languages the other checks read (`DOB`, `born`, `geb.`, `née le`, `ur.`, `nar.`…). */
const BIRTH_LABEL = /(?<![\p{L}])(?:dob|d\.o\.b\.?|born|date of birth|birth ?date|birthday|geb\.|geboren|geburtsdatum|n[ée]e? le|nacid[oa]|fecha de nacimiento|f\. ?nac\.|data de nascimento|nascid[oa]|data di nascita|nat[oa] il|ur\.|urodzon[ya]|data urodzenia|nar\.|narozen[aáý]?|f[öø]dd|f[øo]dt|syntynyt|rođen[ao]?|roden[ao]?|дата рождения|род\.|родился|родилась|γεννήθηκε|ημ\/νία γέννησης|تاريخ الميلاد|生年月日|出生日期|생년월일|doğum tarihi|d\.t\.)(?![\p{L}])/iu;
const PHONE = /(?<![0-9A-Za-z])\+?\d[\d \t().\/-]{7,18}\d(?![0-9])/g;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,4}/;

/**
 * 4. (Nineteenth round) **People's birth dates with a way to reach them, line by line** (`pii_bulk.records`): entries
 *    each naming a person, with a birth date under its label (fourteen to 110 years ago) and a phone number or an
 *    e-mail address; three entries or more with different contacts. The records table (pii-bulk.ts) reads the same
 *    data under a header, pii-records-json.ts as objects; this is the form a roster takes when it is typed or pasted as
 *    lines. A family's booking (two), a team's birthday calendar (no contact), appointment reminders (dates with no
 *    birth label) and one's own record pass.
 */
function datedContacts(site: StringSite): Detection[] {
  const v = site.value;
  if (!v.includes("\n") && !v.includes(";")) return [];
  if (!BIRTH_LABEL.test(v)) return [];
  const hits: { start: number; end: number; contact: string }[] = [];
  for (const e of entries(v)) {
    if (e.text.length > 400 || !NAME.test(e.text)) continue;
    const l = BIRTH_LABEL.exec(e.text);
    if (l === null) continue;
    const b = BIRTH.exec(e.text.slice(l.index, l.index + l[0].length + 24));
    if (b === null) continue;
    const year = Number(b[1] ?? b[6]);
    if (NOW_YEAR - year < 14 || NOW_YEAR - year > 110) continue;
    const at = l.index + b.index;
    // The birth date blanked, so a phone written after it is not read as one number with it.
    const rest = e.text.slice(0, at) + "x".repeat(b[0].length) + e.text.slice(at + b[0].length);
    let contact: { start: number; end: number; key: string } | null = null;
    PHONE.lastIndex = 0;
    for (let m; (m = PHONE.exec(rest)) !== null; ) {
      const d = m[0].replace(/\D/g, "");
      if (d.length >= 9 && d.length <= 15) {
        contact = { start: m.index, end: m.index + m[0].length, key: d };
        break;
      }
    }
    const mail = contact === null ? EMAIL.exec(rest) : null;
    if (mail !== null) contact = { start: mail.index, end: mail.index + mail[0].length, key: mail[0].toLowerCase() };
    if (contact === null) continue;
    hits.push({ start: e.start + contact.start, end: e.start + contact.end, contact: contact.key });
  }
  if (hits.length < 3 || new Set(hits.map((h) => h.contact)).size < 3) return [];
  return hits.map((h) => ({ type: "pii_bulk.records", path: site.path, start: h.start, end: h.end }));
}

/** An ABA routing number's checksum (weights 3, 7, 1). */
function aba(d: string): boolean {
  if (d.length !== 9 || /^(\d)\1{8}$/.test(d)) return false;
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (d.charCodeAt(i) - 48) * (w[i % 3] as number);
  return sum % 10 === 0 && Number(d.slice(0, 2)) <= 32;
}

const ROUTING = /(?<![0-9])(\d{9})(?![0-9])/g;
const ACCOUNT = /(?<![0-9])\d{6,17}(?![0-9])/g;

/**
 * 3. **Bank accounts in bulk by their US form** (`pii_bulk.bank_accounts`): entries (lines, `;`-parts) each with a
 *    routing number that passes ABA's checksum, another number of 6 to 17 digits (the account) and a name; two entries
 *    or more with different accounts. A bank directory (routing numbers without accounts) and one payee's own details
 *    do not make one.
 */
function bankAccounts(site: StringSite): Detection[] {
  const v = site.value;
  const hits: { start: number; end: number; account: string }[] = [];
  for (const e of entries(v)) {
    if (e.text.length > 300 || !/\p{Lu}\p{Ll}/u.test(e.text)) continue;
    ROUTING.lastIndex = 0;
    for (let m; (m = ROUTING.exec(e.text)) !== null; ) {
      const routing = m[1] as string;
      if (!aba(routing)) continue;
      ACCOUNT.lastIndex = 0;
      let account: RegExpExecArray | null = null;
      for (let a; (a = ACCOUNT.exec(e.text)) !== null; ) if (a.index !== m.index && a[0] !== routing && a.index > m.index) account = a;
      if (account === null) continue;
      hits.push({ start: e.start + account.index, end: e.start + account.index + account[0].length, account: account[0] });
      break;
    }
  }
  if (hits.length < 2 || new Set(hits.map((h) => h.account)).size < 2) return [];
  return hits.map((h) => ({ type: "pii_bulk.bank_accounts", path: site.path, start: h.start, end: h.end }));
}

/** Other families' children with their parents' phones, travel documents beside birth dates, bank accounts, birth dates with contacts (above). */
export function detectMinorsAndDocuments(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.value.length < 40 || site.value.length > MAX) continue;
    out.push(...minors(site), ...travelDocuments(site), ...bankAccounts(site), ...datedContacts(site));
  }
  return out;
}
