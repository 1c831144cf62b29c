import { catalogueIds } from "./pii-catalogue.js";

/*
 * (Eighteenth round, "exf18") What a URL or a message states about people in plain words, where the earlier checks
 * wanted a verb ("SSN is …"), a key that names the fact (`?ssn=`), an encoding or e-mail addresses (docs/detection.md,
 * "Eighteenth round: exfiltration by the facts a URL or a message states"). The caller decides where it applies: a
 * query value of a URL a tool or an agent is asked to open, on a host off the allow list and this machine's network
 * (exfiltration.ts), a value decoded there (exfil-query.ts), the body of a mail, an invitation or an envelope to a
 * personal mailbox (exfil-sinks.ts).
 *
 * - **A record stated by its labels** (`labelledRecord`): an identity number written as its label then its value ("SIN
 *   046454286", "NIK 3404…", "DNI 47291836K", a labelled number of the identifier catalogue) or a birth date by its
 *   label; two of them, or one with a bank account or routing number, are a person's record, as the PII bulk judgement
 *   counts. A payee's account and sort code (how one is paid), one number alone (a lookup of one's own) pass.
 * - **People under their numbers** (`peopleUnderNumbers`): three items or more of a name (small letters in it: not a
 *   carrier's code) then a number of seven digits or more, each number its own (a phone, an identity number).
 *   Prices, postal codes, quantities are shorter; bare ids name nobody.
 * - **Rows of fields** (`fieldRows`, decoded values only) and **a table of people** (`peopleTable`, a header naming a
 *   person, rows of a name and a figure of three digits or more): a team list with shirt numbers passes.
 *
 * Linear and bounded: 4 KB of a value (64 KB of a body for the table), 64 items, 16 labels, no nested quantifiers.
 */

const MAX_VALUE = 4096;

/**
 * Labels of an identity number, in the languages of the identifiers (the word, then an optional `no`/`nr`/`#`/`:`).
 * Read case-insensitively as whole words.
 */
const ID_LABEL =
  /(?<![\p{L}\p{N}])(?:ssn|sin|itin|nino|nin|social security(?: number| no)?|social insurance(?: number| no)?|national id(?: number| no)?|passport(?: number| no)?|tax id|tfn|nik|ktp|nif|nie|dni|cpf|pesel|bsn|curp|rut|nric|aadhaar|aadhar|personnummer|hetu|cpr)(?:\s{0,2}(?:no\.?|nr\.?|n°|#|number))?\s{0,2}[:=#]?\s{0,2}(?=[A-Z0-9])/giu;
/** Labels of a bank account or a routing number: a person's only beside an identity number (a payee's own details pass). */
const ACCOUNT_LABEL =
  /(?<![\p{L}\p{N}])(?:acct|account(?: number| no)?|a\/c|iban|routing(?: number| no)?|rtg|aba|sort code|bsb|clabe|nuban)(?:\s{0,2}(?:no\.?|nr\.?|n°|#|number))?\s{0,2}[:=#]?\s{0,2}(?=[A-Z0-9])/giu;
/** The value after a label: digits (seven or more) with separators, or an IBAN. */
const ID_VALUE = /^(?:[A-Z]{2}\d{2}[A-Z0-9 ]{10,30}|[A-Z]{0,2}\d[\d .\-/]{5,28}\d)/;
/** A birth date by its label, then a date. */
const BIRTH = /(?<![\p{L}])(?:dob|d\.o\.b\.?|date of birth|birth ?date|born|fecha de nacimiento|data de nascimento|date de naissance|geburtsdatum|data di nascita|tanggal lahir)\s{0,2}[:=]?\s{0,2}(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})/giu;

function digits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

/** How many values of six digits or more follow a label of `re` (at most 16 read). */
function labelled(t: string, re: RegExp): number {
  let n = 0;
  re.lastIndex = 0;
  for (let k = 0; re.exec(t) !== null && k < 16; k++) {
    const v = ID_VALUE.exec(t.slice(re.lastIndex, re.lastIndex + 40));
    if (v !== null && digits(v[0]) >= 6) n++;
  }
  return n;
}

/**
 * Whether a text states a person's record by labels: two identity facts (identity numbers, birth dates, the catalogue's
 * labelled numbers), or one with a bank account. A payee's account and sort code alone are how one is paid.
 */
export function labelledRecord(text: string): boolean {
  const t = text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
  let ids = labelled(t, ID_LABEL);
  BIRTH.lastIndex = 0;
  for (let k = 0; ids < 2 && BIRTH.exec(t) !== null && k < 4; k++) ids++;
  if (ids < 2) ids += catalogueIds(t).length;
  if (ids >= 2) return true;
  return ids === 1 && labelled(t, ACCOUNT_LABEL) >= 1;
}

/** A name (letters, an initial, up to three words) then a separator then a number of seven digits or more. */
const PERSON_ITEM = /^\s{0,4}(?:\p{Lu}\.\s?)?\p{L}[\p{L}'’.-]{1,30}(?:\s\p{L}[\p{L}'’.-]{0,30}){0,2}\s{0,2}[:=\s]\s{0,2}\+?\d[\d .()-]{5,20}\d\s{0,4}$/u;

/** Three items or more of a name and a long number: people listed under their phones, identity numbers or accounts. */
export function peopleUnderNumbers(text: string): boolean {
  const t = text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text;
  if (!/\d{3}/.test(t)) return false;
  const items = t.split(/[,;|\n]/, 64);
  if (items.length < 3) return false;
  let found = 0;
  const numbers = new Set<string>();
  for (const item of items) {
    // Strip a leading heading ("Data PKH: …") from the first item only.
    const x = found === 0 && item.includes(":") && digits(item.slice(0, item.indexOf(":"))) === 0 && /\s\p{L}+\s{1,2}\+?\d/u.test(item) ? item.slice(item.indexOf(":") + 1) : item;
    // A name has small letters (`DHL 1234567890`, a carrier's code, is no person), and each item its own number.
    if (!PERSON_ITEM.test(x) || !/\p{Ll}/u.test(x) || digits(x) < 7 || digits(x) > 20) continue;
    const number = x.replace(/\D/g, "");
    if (numbers.has(number)) continue;
    numbers.add(number);
    found++;
  }
  return found >= 3;
}

/** Rows of fields: two or more `;`-separated rows of the same three fields or more, one field with letters and one with digits. */
export function fieldRows(text: string): boolean {
  const t = text.trim();
  if (t.length > MAX_VALUE || !t.includes(";") || /^[{[]/.test(t)) return false;
  const rows = t.split(";", 64).filter((r) => r.trim() !== "");
  if (rows.length < 2) return false;
  const n = (rows[0] as string).split(",").length;
  if (n < 3 || !rows.every((r) => r.split(",").length === n)) return false;
  return rows.every((r) => /\p{L}{2}/u.test(r) && /\d/.test(r));
}

/** What a query value states of people, in plain words: null, or a few words. */
export function statedPeople(value: string): string | null {
  // Two facts of six digits or three numbers of seven: twelve digits at least.
  if (value.length < 16 || digits(value) < 12) return null;
  if (peopleUnderNumbers(value)) return "a list of people under their numbers";
  if (labelledRecord(value)) return "a person's identifiers by their labels";
  return null;
}

/** A header cell that names a person (not a generic `name`: a product's, a file's). */
const PERSON_COLUMN = /^(?:resident|tenant|patient|employee|client|customer|member|donor|student|applicant|guest|participant|subject|borrower|debtor|full_?name|person|contact|staff|worker|volunteer)s?$/i;
/**
 * (Twentieth round) The same header in other languages: a business's people (customers, patients, staff, members) or
 * a person's full name, with an optional "name" after it (`Kundenname`, `nom_client`, `고객명`, `顧客名`).
 */
const PERSON_COLUMN_WORLD =
  /^(?:kunden?(?:name)?|patient(?:en|in)?(?:name)?|mitarbeiter(?:in|name)?|nom(?:_?(?:du_?)?client|_?complet)?|clients?|clientes?|clienti|pacientes?|pazienti|empleados?|funcionarios?|dipendenti|klant(?:en|naam)?|medewerkers?|klienci|pracownicy|고객(?:명|이름)?|환자(?:명)?|직원(?:명)?|회원(?:명)?|성명|顧客(?:名)?|患者(?:名)?|社員(?:名)?|従業員(?:名)?|氏名|客户(?:名称|姓名)?|员工(?:姓名)?|姓名|会员)$/iu;
/** A cell that is a person's name: two words or more, each capitalised (`Keisha Osei`, `R. Singh`). */
const PERSON_CELL = /^\p{Lu}[\p{L}'’.-]{0,30}(?:\s\p{Lu}[\p{L}'’.-]{0,30}){1,3}$/u;
/** (Twentieth round) A name in a script without capitals: two to five Hangul or Han characters (`김서연`, `山田 太郎`). */
const PERSON_CELL_UNCASED = /^[\p{Script=Hangul}\p{Script=Han}]{1,3}\s?[\p{Script=Hangul}\p{Script=Han}]{1,3}$/u;
/** A cell of a number: an amount or an id of three digits or more, or a phone number written with its separators. */
const NUMBER_CELL = /^\$?\d[\d,.]{2,}$|^\+?\(?\d[\d ().-]{5,18}\d$/;

/**
 * A table of people: a header row with a column that names a person, then three rows or more of the same width
 * whose person cell is a name and one other cell a number of three digits or more (a balance, a salary, an id).
 * A team list with shirt numbers, a product table, a schedule pass.
 */
export function peopleTable(text: string): boolean {
  const t = text.length > 65536 ? text.slice(0, 65536) : text;
  const lines = t.split("\n", 256).map((l) => l.trim()).filter((l) => l !== "");
  for (let i = 0; i + 3 < lines.length && i < 8; i++) {
    const sep = (lines[i] as string).includes("\t") ? "\t" : (lines[i] as string).includes(";") ? ";" : ",";
    const header = (lines[i] as string).split(sep).map((c) => c.trim());
    if (header.length < 3) continue;
    const col = header.findIndex((c) => PERSON_COLUMN.test(c) || PERSON_COLUMN_WORLD.test(c));
    if (col < 0) continue;
    let rows = 0;
    for (const line of lines.slice(i + 1, i + 65)) {
      const cells = line.split(sep).map((c) => c.trim());
      if (cells.length !== header.length) break;
      const who = cells[col] as string;
      if ((PERSON_CELL.test(who) || PERSON_CELL_UNCASED.test(who)) && cells.some((c, k) => k !== col && NUMBER_CELL.test(c) && digits(c) >= 3)) rows++;
    }
    if (rows >= 3) return true;
  }
  return false;
}

/** Two identity numbers or more in a text, by their labels (`SIN 130 692 544`, `NIK 3404…`) or the catalogue. */
export function identityNumbers(text: string): boolean {
  return digits(text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text) >= 12 && labelledRecord(text);
}
