import { formValue } from "./urls.js";

/*
 * (Twenty-second round) A dataset handed to a tunnel or a file drop, however short (exfiltration.ts, `toTunnel`).
 * A request to somebody's tunnel or an anonymous drop is exfiltration when it carries data; until now "data" was a
 * payload of some size, encoded, a file or a token. What is sent can be short and still be a dataset:
 *
 * - *a table*: a header line of column names (identifiers joined by one separator, `,` `;` tab or `|`, no blank after
 *   it) and a line under it with as many fields and a digit — an export's first rows (`gl_account,balance` then
 *   `100100,48210334.12`);
 * - *a statement of an export*: a count of a hundred or more followed by the records' fields in brackets, in any
 *   language (`3 412 socis (nom, telèfon, IBAN)`); or a count of records (`12,812 names`, `"hits":48213`, in a few
 *   languages) with a word that says they were taken out (export, dump, extract, backup, database, list).
 *
 * A test event posted to one's own tunnel (`{"event":"order.created","id":"test_1"}`), a health check, a status line
 * ("imported 1,200 rows" with no export's word) pass. Linear: bounded regexes over the first 4 KB and first six lines.
 */

const MAX_TEXT = 4096;
/** A letter or a mark on either side ends a word. */
const word = (alternatives: string): RegExp => new RegExp(`(?<![\\p{L}\\p{M}])(?:${alternatives})(?![\\p{L}\\p{M}])`, "iu");

/** A column name: an identifier, no blank. */
const COLUMN = /^[\p{L}_][\p{L}\p{N}_.-]{0,31}$/u;
const SEPARATORS = [",", ";", "\t", "|"];

/** Each way a line reads as a header: a separator it holds and the 2 to 40 column names it joins. */
function* headers(line: string): Generator<{ sep: string; names: string[] }> {
  for (const sep of SEPARATORS) {
    if (!line.includes(sep)) continue;
    const names = line.split(sep);
    if (names.length >= 2 && names.length <= 40 && names.every((n) => COLUMN.test(n))) yield { sep, names };
  }
}

/** A row's fields under a header of `count` columns: as many, none empty or longer than 200; or null. */
function fieldsUnder(row: string, sep: string, count: number): string[] | null {
  const fields = row.split(sep);
  return fields.length === count && fields.every((f) => f.length > 0 && f.length <= 200) ? fields : null;
}

/** A header of column names and a row under it with as many fields and a digit. */
export function tableRows(text: string): boolean {
  const lines = text.slice(0, MAX_TEXT).split("\n", 6).map((l) => l.replace(/\r$/, ""));
  for (let i = 0; i + 1 < lines.length; i++) {
    const row = lines[i + 1] as string;
    for (const { sep, names } of headers(lines[i] as string)) if (/\d/.test(row) && fieldsUnder(row, sep, names.length) !== null) return true;
  }
  return false;
}

/** A count of a hundred or more: `48213`, `18 220`, `12,812`, `4.812`. */
const COUNT = /(?<![\d.,])(?:\d{1,3}(?:[ ,.\u00a0\u202f]\d{3}){1,3}|\d{3,9})(?![\d])/g;
/** Records, rows and the people they are of, in a few languages. */
const RECORDS = word(
  "records?|rows?|entries|names|users|customers|clients|accounts|members|contacts|patients|guests|employees|hits|transactions|rekod|rekodi|rekords?|registros|registres|enregistrements|lignes|filas|righe|linhas|datensätze|zeilen|einträge|kunden|rekordów|wierszy|záznamů|záznamov|zapisov|zapisa|rekordot|sort|записей|строк|клиентов|kayıt|satır|bản ghi|baris|rader|poster|rivit|tietuetta|pelanggan|wateja|kumbukumbu",
);
/** A word that says records were taken out, in a few languages. */
const TAKEN_OUT = word(
  "export|exports|exported|dump|dumped|extract|backup|database|db|list|listing|full|izvoz|eksport|eksportu|exportación|exportação|exportação|exportar|auszug|sicherung|datenbank|base de datos|base de dados|banco de dados|baza|bazy|pangkalan data|senarai|adatbázis|lista|liste|seznam|spisak|список|выгрузка|дамп|veritabanı|dışa aktarım|orodha|hifadhidata",
);
/** Fields listed in brackets: `(name, phone, address)`. */
const FIELD_LIST = /\(\s{0,2}[\p{L}_][\p{L}_ -]{1,24}(?:\s{0,2},\s{0,2}[\p{L}_][\p{L}_ -]{1,24}){1,9}\s{0,2}\)/u;
/** A JSON export's description: a count of a hundred or more under a count's key, beside an `export` or `dump` key. */
const EXPORT_COUNT = /"(?:hits|rows|records|total_records|row_count)"\s{0,2}:\s{0,2}\d{3,}/i;
const EXPORT_KEY = /"(?:export|dump)"\s{0,2}:/i;

/** A statement that a hundred records or more were taken out. */
export function exportStatement(text: string): boolean {
  const t = text.slice(0, MAX_TEXT);
  if (EXPORT_COUNT.test(t) && EXPORT_KEY.test(t)) return true;
  COUNT.lastIndex = 0;
  for (let m, n = 0; (m = COUNT.exec(t)) !== null && n < 16; n++) {
    const after = t.slice(m.index + m[0].length, m.index + m[0].length + 48);
    // A count of things is followed by their word (`3 412 socis`), not by more digits or a bracket (a phone number).
    if (!/^\s{1,2}\p{L}/u.test(after)) continue;
    // Fields in brackets right after the count say what the records are, in any language (`3 412 socis (nom, …)`).
    if (FIELD_LIST.test(after)) return true;
    if (RECORDS.test(after.slice(0, 32)) && (TAKEN_OUT.test(t) || FIELD_LIST.test(t))) return true;
  }
  return false;
}

/** What a short payload to a tunnel or a drop is, when it is a dataset: its description, or null. */
export function datasetIn(text: string): string | null {
  if (text.length < 12) return null;
  const whole = datasetShape(text);
  if (whole !== null || !FORM_BODY.test(text)) return whole;
  // (Twenty-third round) A form body (`a=1&paste_code=<rows>`): the same, in each of its fields decoded.
  for (const field of text.slice(0, MAX_TEXT).split("&", 32)) {
    const at = field.indexOf("=");
    const value = at > 0 ? formValue(field.slice(at + 1)) : "";
    const shape = value.length >= 12 ? datasetShape(value) : null;
    if (shape !== null) return shape;
  }
  return null;
}

/** A text's dataset, described: a table's rows, an export's statement, a trace of places; or null. */
function datasetShape(text: string): string | null {
  if (tableRows(text)) return "a table's rows";
  if (exportStatement(text)) return "an export of records";
  return trace(text) ? "a trace of places" : null;
}

/** A form body: `name=value` pairs joined by `&`, no blank in the names. */
const FORM_BODY = /^[\w.[\]-]{1,64}=[^&\s]{0,4096}&[\w.[\]-]{1,64}=/;
/** A latitude and longitude as a pair of decimals with four places or more (`47.49791,19.04023`, `-33.8688, 151.2093`). */
const COORDINATES = /(?<![\d.])-?\d{1,2}\.\d{4,8}, ?-?\d{1,3}\.\d{4,8}(?![\d.])/g;

/**
 * (Twenty-third round) A trace of places: three coordinate pairs or more, different ones — where vehicles, devices or
 * people were. One pair (an office's pin, a meeting point) or the same pair repeated passes.
 */
function trace(text: string): boolean {
  if (!text.includes(".")) return false;
  const seen = new Set<string>();
  for (const m of text.slice(0, MAX_TEXT).matchAll(COORDINATES)) if (seen.add(m[0].replace(/ /g, "")).size >= 3) return true;
  return false;
}

/**
 * A column that holds a person's name or contact, in a few languages (`guest_name`, `surname`, `telefon`, `e-mail`): a bare
 * `name` may be a product's (a price list), so it does not count alone.
 */
const PERSON_COLUMN =
  /^(?:(?:first|last|full|sur|given|family|customer|client|guest|patient|member|user|contact|driver|renter|holder)[_ .-]?names?|surname|vorname|nachname|prezime|nazwisko|příjmení|sukunimi|efternamn|apellidos?|cognome|sobrenome|phone|phone_?(?:no|number)|mobile|mobil|tel|telefon[eo]?|teléfono|telefono|puhelin|simu|e-?mail|email_?address|correo|address|adresse|dirección|indirizzo|alamat|anwani|cím|dob|birth_?date|date_?of_?birth|iban|ssn)$/i;
/** A bare name column, and a cell that reads as a person's name (two to four capitalised words: `Anna Kwiatkowska`). */
const NAME_COLUMN = /^(?:names?|nom|nome|nombre|naam|nimi|ime|név|namn|navn|jina|pangalan|imię|jméno)$/i;
const PERSON_CELL = /^\p{Lu}\p{Ll}{1,30}(?:[ -]\p{Lu}\p{Ll}{1,30}){1,3}$/u;

/** An elided rest of the table: `... 4,812 rows`, `… 2 310 more`, `(+1,204 more)`. */
const ELIDED = /(?:\.{3}|…|\+)\s{0,2}(?:\d{1,3}(?:[ ,.\u00a0\u202f]\d{3}){1,3}|\d{3,9})\s{0,2}\p{L}/u;

/**
 * (Twenty-second round) People's rows in a table: a header of column names with a person's column, and two rows under
 * it with as many fields — or one row and an elided rest of a hundred rows or more (`… 4,812 rows`): the sample of an
 * export. (exfil-people-url.ts's `peopleTable` asks three rows with a person's name and a figure.)
 */
export function peopleRows(text: string): boolean {
  const lines = text.slice(0, MAX_TEXT).split("\n", 12).map((l) => l.replace(/\r$/, ""));
  for (let i = 0; i + 1 < lines.length && i < 6; i++) {
    for (const { sep, names } of headers((lines[i] as string).trim())) {
      const person = names.some((n) => PERSON_COLUMN.test(n));
      const nameAt = person ? -1 : names.findIndex((n) => NAME_COLUMN.test(n));
      if (!person && nameAt < 0) continue;
      let rows = 0;
      for (const line of lines.slice(i + 1)) {
        const fields = fieldsUnder(line.trim(), sep, names.length);
        // (Under a bare `name`, a product's name is no person's: each row's cell must read as one.)
        if (fields === null || (nameAt >= 0 && !PERSON_CELL.test((fields[nameAt] as string).trim()))) break;
        rows++;
      }
      if (rows >= 2 || (rows === 1 && ELIDED.test(text.slice(0, MAX_TEXT)))) return true;
    }
  }
  return false;
}
