import { detectPii } from "./pii.js";
import { literalsOf } from "./literals.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Bulk identity or payment data in one message: what it takes to impersonate someone or to spend their money, as
 * opposed to the odd e-mail address or phone number of ordinary traffic (which `pii` finds and the default pack only
 * logs). The default pack refuses these on their way to a tool that sends data off the machine, or to another agent.
 *
 *   pii_bulk.identity      an identity number (SSN, passport, national id of any country) with a date of birth, or
 *                          with a payment card
 *   pii_bulk.id_list       two identity numbers or more, one of them named or self-checking (a labelled passport
 *                          and SSN, two people's DNI); unnamed SSN-shaped numbers need three (`ssn_list`)
 *   pii_bulk.ssn_list      three SSNs or more
 *   pii_bulk.payment_card  a card number together with its CVV or its expiry date (labelled, under a field, or as a
 *                          row: `4556…,12/26,331`)
 *   pii_bulk.card_list     three card numbers or more
 *   pii_bulk.iban_list     three IBANs or more (a transfer names two: the payer's and the payee's)
 *
 * An identity number is: a US SSN (`123-45-6789`, or nine digits under an SSN label or field); a number under a
 * label or field that names an identity document (passport, national id, national insurance, SIN, DNI/NIE, CPF,
 * Aadhaar, BSN, PESEL, tax id, driver's licence…); or a number that checks itself whatever it is called: a UK
 * National Insurance number, a Spanish DNI or NIE (its check letter), a Brazilian CPF (its check digits), an Italian
 * codice fiscale, a Mexican CURP. The findings are the numbers themselves. Published test card numbers (Stripe's,
 * Visa's 4111…) are not cards.
 */

const TEST_CARDS = new Set([
  "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881", "5555555555554444", "5105105105105100",
  "5200828282828210", "2223003122003222", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
  "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005", "4000000000000002", "4000000000009995",
]);

const MONTHS = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}";
const DATE = String.raw`(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|${MONTHS}\.? \d{1,2},? \d{4}|\d{1,2}(?:st|nd|rd|th)? ${MONTHS}\.? \d{4})`;
/** "DOB: 1984-03-12", "date of birth 03/12/1984", "born on March 12, 1984". */
const DOB = new RegExp(String.raw`\b(?:dob|d\.o\.b\.?|date of birth|birth ?date|born(?: on)?|birthday|geburtsdatum|geboren(?: am)?|fecha de nacimiento|nacid[oa](?: el)?|date de naissance|née? le|data di nascita|nat[oa] il|data de nascimento|nascid[oa](?: em)?)\b[^\n\d]{0,24}${DATE}`, "i");
const DOB_KEY = /(?:^|_|-|\b)(?:dob|birth|birthdate|date_?of_?birth|birthday|birth_?date)$/i;
const DATE_ALONE = new RegExp(`^\\s*${DATE}\\s*$`, "i");
/** "CVV 123", "cvc: 4321", "security code 987". */
const CVV = /\b(?:cvv2?|cvc2?|csc|cid|security code|card verification (?:value|code))\b[^\n\d]{0,12}\d{3,4}\b/i;
const CVV_KEY = /(?:^|_|-)(?:cvv2?|cvc2?|csc|security_?code)\]?$/i;
/** "exp 09/27", "expiry: 09/2027", "valid thru 09-27". */
const EXPIRY = /\b(?:exp(?:iry|iration)?(?: date)?|expires|valid (?:thru|through|until))\b[^\n\d]{0,12}(?:0?[1-9]|1[0-2]) ?[/-] ?(?:\d{2}|20\d{2})\b/i;
const EXPIRY_KEY = /(?:^|_|-)(?:exp|expiry|expiration|exp_?date|expiry_?date|valid_?thru)$/i;
const EXPIRY_VALUE = /^\s*(?:0?[1-9]|1[0-2]) ?[/-] ?(?:\d{2}|20\d{2})\s*$/;
/** A card number with its expiry and CVV as a row of a table: `4556737586899855,12/26,331`, `… | 03/27 | 912`. */
const CARD_ROW = /(?<![\d.])(?:\d[ -]?){12,18}\d[ \t]{0,2}[,;|\t][ \t]{0,2}(?:0?[1-9]|1[0-2]) ?\/ ?(?:\d{2}|20\d{2})[ \t]{0,2}[,;|\t][ \t]{0,2}\d{3,4}(?!\d)/g;
/** A card number under a card label ("card 4929 1234 5678 9012"): a card even without a valid checksum when its CVV or expiry is there. */
const CARD_LABELLED = /\b(?:card|cc|pan|credit card|debit card|card number|card_?number|cardnumber|card no\.?|card #|kartennummer|numéro de carte|número de tarjeta)\b[\s:#="'-]{0,6}((?:\d[ -]?){12,18}\d)(?![\d.])/gi;

/** Labels of identity documents and numbers, in several languages and countries. */
const ID_LABEL = String.raw`(?:ssn|social security(?: number| no\.?)?|social|sin|social insurance(?: number)?|passport(?: number| no\.?| #)?|pass(?:port)?[ _-]?no\.?|national id(?:entity)?(?: card)?(?: number| no\.?)?|national insurance(?: number| no\.?)?|nino|ni number|id card(?: number| no\.?)?|identity card(?: number)?|dni|nie|nif|cpf|aadhaa?r|bsn|burgerservicenummer|pesel|personnummer|insee|num[ée]ro de s[ée]curit[ée] sociale|steuer-?id|steueridentifikationsnummer|personalausweis(?:nummer)?|reisepass(?:nummer)?|tax id|itin|driver'?s? licen[cs]e(?: number| no\.?)?|licen[cs]e (?:number|no\.?)|codice fiscale|curp|rfc|hkid|nric|my number|mynumber|nhs(?:[ _]?(?:number|no\.?|nr))?|chi(?: number| no\.?)|nir|n° de s[ée]cu(?:rit[ée] sociale)?|num[ée]ro de s[ée]cu|s[ée]cu(?:rit[ée])? sociale)`;
/** A number under an identity label: "passport no. X4821937", "SIN: 046 454 286", `"ssn":"219-09-9999"`. */
const LABELLED_ID = new RegExp(String.raw`\b${ID_LABEL}\b["']?[\s:#=.,"'-]{0,6}(?:(?:no|number|num|nr)\.?[\s:#=.-]{0,4})?((?:[A-Z]{1,3})?\d(?:[A-Z0-9]|[ .-](?=[A-Z0-9])){3,18}[A-Z0-9])(?![A-Za-z0-9])`, "gi");
/** Fields named for an identity number. */
const ID_KEY = /(?:^|_|-|\b)(?:ssn|social_?security(?:_?number)?|sin|passport(?:_?(?:number|no|num))?|national_?id(?:_?number)?|national_?insurance(?:_?number)?|nino|ni_?number|dni|nie|nif|cpf|aadhaa?r|bsn|pesel|tax_?id|tin|drivers?_?licen[cs]e(?:_?number)?|license_?number|id_?number|id_?card|codice_?fiscale|curp|personnummer|nhs(?:_?(?:number|no|num))?|nir)$/i;
/** Numbers that check themselves: UK NINO, Spanish DNI/NIE, Brazilian CPF, Italian codice fiscale, Mexican CURP. */
const NINO = /\b(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g;
const DNI = /\b([XYZ]?)(\d{7,8})-?([A-Z])\b/g;
const CPF = /(?<![\d.])(\d{3})\.(\d{3})\.(\d{3})-(\d{2})(?![\d.])/g;
const CODICE_FISCALE = /\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b/g;
const CURP = /\b[A-Z][AEIOUX][A-Z]{2}\d{6}[HM][A-Z]{5}[A-Z0-9]\d\b/g;
/** French NIR (numéro de sécurité sociale): sex, year, month, department, commune, order, and a mod-97 key. */
const NIR = /(?<![\d])[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])/g;

interface Hit {
  site: StringSite;
  start: number;
  end: number;
  /** The digits and letters of the number (to count distinct ones). */
  key: string;
  /** Named by a label or field, or self-checking (unnamed SSN-shaped numbers are not). */
  strong: boolean;
}

/** Bulk identity and payment data in one message (see above). */
export function detectPiiBulk(sites: StringSite[], pii: () => Detection[] = () => detectPii(sites)): Detection[] {
  // Six digits at least (the shortest identity number, a NINO, has six; an SSN, a card or an IBAN more): a short
  // message with fewer holds none of them.
  const lits = literalsOf(sites);
  if (lits !== null && lits.digits < 6) return [];
  const found = pii();
  const of = (type: string) => found.filter((d) => d.type === type);
  const ssns = of("pii.ssn");
  const cards = of("pii.credit_card").filter((d) => !TEST_CARDS.has(digitsAt(sites, d)));
  const ibans = of("pii.iban");
  const out: Detection[] = [];
  const add = (type: string, list: readonly { path: Detection["path"]; start: number; end: number }[]) => {
    for (const d of list) out.push({ type, path: d.path, start: d.start, end: d.end });
  };

  // Identity numbers: SSN-shaped ones, named ones, self-checking ones; one per distinct number.
  const ids = new Map<string, Hit>();
  const note = (h: Hit) => {
    const prior = ids.get(h.key);
    if (!prior || (!prior.strong && h.strong)) ids.set(h.key, h);
  };
  for (const d of ssns) {
    const site = sites.find((s) => s.path === d.path);
    if (site) note({ site, start: d.start, end: d.end, key: site.value.slice(d.start, d.end).replace(/\D/g, ""), strong: false });
  }
  const labelledCards: Hit[] = [];
  let dob = false;
  let cardDetails = false;
  const rows: Hit[] = [];
  const records: Hit[] = [];
  // First the numbers (each string with five digits or more); a message holding none is done.
  for (const site of sites) {
    const v = site.value;
    const digits = countDigits(v);
    if (digits < 5) continue;
    const key = keyOf(site);
    if (key !== null && ID_KEY.test(key) && v.length <= 40 && /^[\sA-Za-z0-9.-]+$/.test(v)) note({ site, start: 0, end: v.length, key: norm(v), strong: true });
    if (ID_HINT.test(v)) scanIds(site, note);
    if (/[A-Z]/.test(v) || v.includes(".") || digits >= 13) selfChecking(site, note);
    if (v.includes("\n") && ID_HINT.test(v.slice(0, v.indexOf("\n"))) && tableIds(site, note)) dob = true;
    if (records.length < 64 && v.includes("\n") && RECORD_HINT.test(v.slice(0, Math.min(400, v.indexOf("\n"))))) records.push(...recordTable(site));
    if (digits >= 13) {
      CARD_ROW.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = CARD_ROW.exec(v)) !== null && rows.length < 64; ) {
        const num = /^(?:\d[ -]?){12,18}\d/.exec(m[0]) as RegExpExecArray;
        if (!TEST_CARDS.has(num[0].replace(/\D/g, ""))) rows.push({ site, start: m.index, end: m.index + num[0].length, key: num[0].replace(/\D/g, ""), strong: true });
      }
      CARD_LABELLED.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = CARD_LABELLED.exec(v)) !== null && labelledCards.length < 64; ) {
        const num = m[1] as string;
        const digits = num.replace(/\D/g, "");
        if (TEST_CARDS.has(digits) || digits.length < 13 || !/^[2-6]/.test(digits)) continue;
        const end = m.index + m[0].length;
        labelledCards.push({ site, start: end - num.length, end, key: digits, strong: true });
      }
    }
  }
  if (records.length > 0) add("pii_bulk.records", records.map((h) => ({ path: h.site.path, start: h.start, end: h.end })));
  if (ids.size === 0 && cards.length === 0 && rows.length === 0 && labelledCards.length === 0) {
    if (ibans.length >= 3) add("pii_bulk.iban_list", ibans);
    return dedupe(out);
  }
  // Then what makes them a record: a birth date, a CVV or an expiry.
  for (const site of sites) {
    const v = site.value;
    const key = keyOf(site);
    if (!dob) dob = DOB.test(v) || (key !== null && DOB_KEY.test(key) && DATE_ALONE.test(v));
    if (!cardDetails)
      cardDetails =
        CVV.test(v) ||
        EXPIRY.test(v) ||
        (key !== null && ((CVV_KEY.test(key) && /^\s*\d{3,4}\s*$/.test(v)) || (EXPIRY_KEY.test(key) && EXPIRY_VALUE.test(v))));
    if (dob && cardDetails) break;
  }
  const idList = [...ids.values()];
  const strongIds = idList.filter((h) => h.strong);
  const asDetections = (hs: Hit[]) => hs.map((h) => ({ path: h.site.path, start: h.start, end: h.end }));

  const anyCard = cards.length > 0 || rows.length > 0 || (labelledCards.length > 0 && cardDetails);
  if (idList.length > 0 && (dob || anyCard)) add("pii_bulk.identity", asDetections(idList));
  else if (strongIds.length >= 1 && idList.length >= 2) add("pii_bulk.id_list", asDetections(idList));
  else if (idList.length >= 3) add("pii_bulk.ssn_list", asDetections(idList));

  if (rows.length > 0) add("pii_bulk.payment_card", asDetections(rows));
  if (cardDetails && (cards.length > 0 || labelledCards.length > 0)) {
    add("pii_bulk.payment_card", cards);
    add("pii_bulk.payment_card", asDetections(labelledCards.filter((h) => !cards.some((c) => c.path === h.site.path && c.start <= h.start && h.end <= c.end))));
  } else if (rows.length === 0 && cards.length >= 3) add("pii_bulk.card_list", cards);
  if (ibans.length >= 3) add("pii_bulk.iban_list", ibans);
  return dedupe(out);
}

/** Words without one of which no identity label can be in a string (a cheap test before the labels' alternation). */
const ID_HINT = /ssn|social|sin|pass|national|insurance|nino|ni number|id.?card|identity|dni|nie|nif|cpf|aadha|bsn|burger|pesel|personnummer|insee|s[ée]curit|steuer|personalausweis|reisepass|tax|itin|licen[cs]e|codice|curp|rfc|hkid|nric|my.?number|nhs|chi |nir|s[ée]cu/i;

/** Named identity numbers in one string. */
function scanIds(site: StringSite, note: (h: Hit) => void): void {
  const v = site.value;
  LABELLED_ID.lastIndex = 0;
  let count = 0;
  for (let m: RegExpExecArray | null; (m = LABELLED_ID.exec(v)) !== null && count < 64; ) {
    const num = m[1] as string;
    const compact = norm(num);
    // A number: five digits or more, six to twenty characters; not a date, a year range or a phone number.
    if (countDigits(compact) < 5 || compact.length < 6 || compact.length > 20 || /^\d{4}-\d{2}-\d{2}$/.test(num) || /^\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(num)) continue;
    const end = m.index + m[0].length;
    note({ site, start: end - num.length, end, key: compact, strong: true });
    count++;
    // A list under one label ("Aadhaar: 2345 6789 0123 (Ravi), 3456 7890 1234 (Sita)…"): the numbers of the same shape
    // in the same string are of the same kind.
    if (countDigits(compact) >= 6) {
      const like = shapeOf(num);
      like.lastIndex = 0;
      for (let o: RegExpExecArray | null; (o = like.exec(v)) !== null && count < 64; count++) note({ site, start: o.index, end: o.index + o[0].length, key: norm(o[0]), strong: true });
    }
  }
}

/** Identity numbers that check themselves, whatever they are called. */
function selfChecking(site: StringSite, note: (h: Hit) => void): void {
  const v = site.value;
  let count = 0;
  const self = (re: RegExp, check: (m: RegExpExecArray) => boolean) => {
    re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = re.exec(v)) !== null && count < 64; count++) if (check(m)) note({ site, start: m.index, end: m.index + m[0].length, key: norm(m[0]), strong: true });
  };
  if (/[A-Z]/.test(v)) {
    self(NINO, () => true);
    self(DNI, (m) => dniValid(m[1] as string, m[2] as string, m[3] as string));
    self(CODICE_FISCALE, () => true);
    self(CURP, () => true);
  }
  if (v.includes(".")) self(CPF, (m) => cpfValid(`${m[1]}${m[2]}${m[3]}${m[4]}`));
  self(NIR, (m) => nirValid(m[0]));
}

const ID_HEADER = new RegExp(String.raw`^\s*["']?${ID_LABEL}["']?\s*$`, "i");
const DOB_HEADER = /^\s*["']?(?:dob|d\.o\.b\.?|date[ _]of[ _]birth|birth[ _]?date|birthday|born)["']?\s*$/i;

/**
 * A table whose header names an identity column ("name,passport,dob", "nombre;dni"): every row's cell in it is an
 * identity number (five digits or more), and a birth-date column makes each row an identity. At most 256 rows.
 */
function tableIds(site: StringSite, note: (h: Hit) => void): boolean {
  const v = site.value;
  const firstEnd = v.indexOf("\n");
  if (firstEnd < 0 || firstEnd > 400) return false;
  const header = v.slice(0, firstEnd);
  const sep = [",", ";", "\t", "|"].find((c) => header.includes(c));
  if (sep === undefined) return false;
  const cols = header.split(sep);
  const idCol = cols.findIndex((c) => ID_HEADER.test(c));
  if (idCol < 0) return false;
  let at = firstEnd + 1;
  for (let row = 0; row < 256 && at < v.length; row++) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    let cellStart = at;
    for (let c = 0; c < idCol && cellStart <= end; c++) {
      const next = v.indexOf(sep, cellStart);
      cellStart = next < 0 || next > end ? end + 1 : next + 1;
    }
    if (cellStart <= end) {
      let cellEnd = v.indexOf(sep, cellStart);
      if (cellEnd < 0 || cellEnd > end) cellEnd = end;
      const cell = v.slice(cellStart, cellEnd).replace(/^[\s"']+|[\s"'\r]+$/g, "");
      const lead = v.indexOf(cell, cellStart);
      if (cell.length >= 6 && cell.length <= 20 && countDigits(cell) >= 5 && /^[A-Za-z0-9 .-]+$/.test(cell)) note({ site, start: lead, end: lead + cell.length, key: norm(cell), strong: true });
    }
    at = end + 1;
  }
  return cols.some((c) => DOB_HEADER.test(c));
}

/** A header that may name a birth-date column (a cheap test before the table is read). */
const RECORD_HINT = /dob|birth|born|geburt|nacimiento|naissance|nascita/i;
const CONTACT_HEADER = /^\s*["']?(?:(?:home[ _])?address(?:[ _]?(?:line)?[ _]?1)?|street|addr|city|zip|postcode|postal[ _]?code|phone|mobile|tel|telephone|e-?mail)["']?\s*$/i;

/**
 * People's records as a table: a header with a birth-date column and a home-address, phone or e-mail column, and
 * three rows or more whose birth-date cell holds a date (a customer or staff export). The findings are those cells.
 */
function recordTable(site: StringSite): Hit[] {
  const v = site.value;
  const firstEnd = v.indexOf("\n");
  if (firstEnd < 0 || firstEnd > 400) return [];
  const header = v.slice(0, firstEnd);
  const sep = [",", ";", "\t", "|"].find((c) => header.includes(c));
  if (sep === undefined) return [];
  const cols = header.split(sep);
  const dobCol = cols.findIndex((c) => DOB_HEADER.test(c));
  if (dobCol < 0 || !cols.some((c) => CONTACT_HEADER.test(c))) return [];
  const out: Hit[] = [];
  let at = firstEnd + 1;
  for (let row = 0; row < 256 && at < v.length; row++) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    const cells = v.slice(at, end).split(sep);
    const cell = (cells[dobCol] ?? "").replace(/^[\s"']+|[\s"'\r]+$/g, "");
    if (cells.length >= cols.length - 1 && DATE_ALONE.test(cell)) {
      let start = at;
      for (let c = 0; c < dobCol; c++) start += (cells[c] as string).length + sep.length;
      const lead = v.indexOf(cell, start);
      out.push({ site, start: lead, end: lead + cell.length, key: cell, strong: true });
    }
    at = end + 1;
  }
  return out.length >= 3 ? out : [];
}

const shapes = new Map<string, RegExp>();
/** A regex for numbers shaped like `num` (the same runs of digits, letters and separators), not inside a longer token. */
function shapeOf(num: string): RegExp {
  const parts: string[] = [];
  for (const run of num.match(/\d+|[A-Za-z]+|[ .-]/g) ?? []) parts.push(/\d/.test(run) ? `\\d{${run.length}}` : /[A-Za-z]/.test(run) ? `[A-Za-z]{${run.length}}` : run === "." ? "\\." : run);
  const src = `(?<![A-Za-z0-9])${parts.join("")}(?![A-Za-z0-9])`;
  let re = shapes.get(src);
  if (!re) {
    if (shapes.size > 256) shapes.clear();
    shapes.set(src, (re = new RegExp(src, "g")));
  }
  return re;
}

/** Spanish DNI (8 digits) and NIE (X/Y/Z and 7 digits): the letter is the number modulo 23. */
function dniValid(prefix: string, digits: string, letter: string): boolean {
  if (prefix === "" ? digits.length !== 8 : digits.length !== 7) return false;
  const n = Number(`${prefix === "" ? "" : "XYZ".indexOf(prefix)}${digits}`);
  return "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23] === letter;
}

/** French NIR: the key is 97 minus the first thirteen characters modulo 97 (Corsica's 2A and 2B counted as 19 and 18). */
function nirValid(text: string): boolean {
  const d = text.replace(/ /g, "");
  if (d.length !== 15) return false;
  const body = d.slice(0, 13).replace(/2A/i, "19").replace(/2B/i, "18");
  if (!/^\d{13}$/.test(body)) return false;
  return 97 - Number(BigInt(body) % 97n) === Number(d.slice(13));
}

/** Brazilian CPF: two check digits (and not one digit repeated). */
function cpfValid(d: string): boolean {
  if (/^(\d)\1{10}$/.test(d)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += (d.charCodeAt(i) - 48) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d.charCodeAt(9) - 48 && check(10) === d.charCodeAt(10) - 48;
}

function norm(s: string): string {
  return s.replace(/[\s.-]/g, "").toUpperCase();
}

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

function dedupe(list: Detection[]): Detection[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = `${d.path.join("\u0000")}:${d.start}:${d.end}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The key a string sits under (A2A data parts and tool arguments name their fields: `dob`, `cvv`). */
function keyOf(site: StringSite): string | null {
  const k = site.path[site.path.length - 1];
  return typeof k === "string" ? k : null;
}

function digitsAt(sites: StringSite[], d: Detection): string {
  const site = sites.find((s) => s.path === d.path);
  return (site?.value.slice(d.start, d.end) ?? "").replace(/\D/g, "");
}
