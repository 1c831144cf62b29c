import { luhn } from "./pii.js";
import { checkedIdentity } from "./pii-checks.js";
import { datedIdentity } from "./pii-dated.js";
import { checkedColumn, nationalDated, nationalSure } from "./pii-national.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * People's records in bulk, by structure rather than by country (`pii_bulk.people`, eighth round): a list of records —
 * the items of a JSON array (in the call's arguments or in a JSON string they carry), the rows of a table (a CSV or
 * TSV with or without a header, rows of an array of arrays), the lines of a text, or the `;`-separated entries of one
 * line — where three records or more each carry
 *
 *   - an identifier-like value: a long code of digits (nine or more, with the separators such codes are written with),
 *     letters with six digits or more (`A230435407`, `K206734(A)`), any code of five digits or more under a column,
 *     field or label that names an identity number in one of many languages ("national id", "IRD", "cédula", "ЕГН",
 *     "ΑΜΚΑ", "身分證字號", "マイナンバー"…), or a bank account; never a phone number, a date, an amount or a code named
 *     for a thing (an order, invoice, tracking, SKU, ticket, build…); and
 *   - a person's name (a field or column named for it, or two to four capitalised words, or a short run of letters of
 *     a script without case), and
 *   - another personal field — a birth date (named, or a date fourteen years old or more), a home address, a phone, an
 *     e-mail, a bank account or sort code, a diagnosis code — or the identifier named as an identity number.
 *
 * Placeholders (a name such as Test, Example or Mustermann, a number of one digit repeated, 078-05-1120) make a list
 * a fixture when they are most of its records. A record with a card number (Luhn), an expiry and a three- or
 * four-digit code is a `pii_bulk.payment_card` whatever else it holds. Findings are the identifiers. Bounded: the first 64 records of a list and 1,024 in all are
 * judged, JSON is read from strings of 64 KB at most, and every pattern is linear.
 */

type Kind = "name" | "dob" | "address" | "phone" | "email" | "bank" | "dx";
/** What a field's name (a JSON key, a column header, a label) says its value is. */
type KeyClass = Kind | "id" | "thing" | "card" | "exp" | "cvv" | "date" | null;

/** A field of a record: a span of one string, with the name it sits under. */
interface Piece {
  site: StringSite;
  start: number;
  end: number;
  key: string | null;
}

interface Found {
  site: StringSite;
  start: number;
  end: number;
  key: string;
}

const MAX_RECORDS = 1024;
const PER_LIST = 64;
const MAX_JSON = 65536;

/** Words naming an identity number, in many languages (normalised: lower case, separators as spaces). */
const ID_WORDS = new Set(
  (
    "ssn|social security|social security number|sin|nin|nino|national id|national identity|national id number|national identity number|id number|id no|id nr|id card|identity|identity number|identity card|identification|identification number|" +
    "personal code|personal number|personal id|personal id number|personal identity number|personnummer|personnr|fødselsnummer|fodselsnummer|henkilötunnus|hetu|kennitala|kt|cpr|cpr nr|pesel|bsn|burgerservicenummer|" +
    "dni|nie|nif|cpf|rg|curp|rfc|cuit|cuil|cédula|cedula|cédula de identidad|ci|rut|run|dpi|dui|egn|егн|emšo|emso|jmbg|јмбг| јмбг|оиб|oib|amka|αμκα|cnp|isikukood|asmens kodas|personas kods|rodné číslo|rodne cislo|" +
    "ird|ird number|tfn|tax number|tax no|tax id|tax file number|tin|itin|steuer id|steuernummer|steueridentifikationsnummer|codice fiscale|nir|insee|nhs|nhs number|chi|medicare|medicare number|mbi|hicn|medicaid|mrn|" +
    "patient id|patient number|passport|passport no|passport number|aadhaar|aadhar|nric|fin|hkid|my number|mynumber|マイナンバー|個人番号|身分證|身分證字號|身分证|身份证|身份证号|身份證|주민등록번호|tc kimlik|tckn|kimlik no|" +
    "iqama|emirates id|national insurance|ni number|ppsn|pps|pps no|sozialversicherungsnummer|svnr|ahv|avs|nss|bvn|nida|ghana card|sss|umid|nik|ktp|cccd|cmnd|pasaporte|pasaporte no|reisepass|personalausweis|" +
    "cnic|nid|nic|nic number|taj|taj szám|taj number|birth number|rč|sv nr|sv nummer|versicherungsnummer|kyc|know your customer|"+
    // (Twelfth round) Poland's tax number (a sole trader's is the person's), England's pupil and learner numbers, Arabic "national number" and "identity number".
    "nip|upn|unique pupil number|uln|unique learner number|" +
    // (Thirteenth round) a person's tax reference, as tax offices name it: the UK's UTR, France's numéro fiscal (SPI).
    // Not the numbers most held by companies (Colombia's NIT, Peru's RUC): a supplier list carries them.
    // (Fourteenth round) India's provident-fund and state-insurance numbers, which follow a worker from job to job.
    "uan|universal account number|epf no|epf number|pf no|pf number|esic no|esic number|" +
    "utr|unique taxpayer reference|taxpayer reference|tax reference|numéro fiscal|numero fiscal|n fiscal|no fiscal|spi|الرقم القومي|رقم قومي|رقم الهوية|الرقم الوطني|" +
    "identiteitsnummer|rijksregisternummer|numéro national|numero nacional|número de identidad|documento|documento de identidad|dokument|carte d identité|codice identificativo|social insurance|social insurance number|svn|dl|dl no|dl number|driver licence|driver license|drivers licence|drivers license|driver's licence|driver's license|driving licence|licence no|license no|licence number|license number|insurance no|insurance number|health insurance number|versichertennummer|krankenversichertennummer|policy holder id"
  ).split("|"),
);
/** Words naming a thing's number: orders, invoices, shipments, products, tickets, builds. */
const THING_WORDS = new Set(
  (
    "order|order id|order no|order number|ord|invoice|invoice id|invoice no|invoice number|inv|tracking|tracking no|tracking number|tracking id|shipment|parcel|awb|waybill|consignment|sku|ean|upc|gtin|isbn|asin|mpn|" +
    "product|product id|item|item id|item no|part|part no|part number|serial|serial no|serial number|sn|batch|lot|ticket|ticket id|case|case id|case no|incident|issue|pr|build|job|run id|request|request id|req|" +
    "txn|txn id|transaction|transaction id|ref|reference|booking|booking ref|reservation|confirmation|po|po number|purchase order|container|imei|version|commit|hash|sha|npi|vat|vat id|vat number|gst|ein|" +
    "pedido|factura|rechnung|rechnungsnummer|bestellung|bestellnummer|commande|facture|ordine|fattura|sendungsnummer|注文番号|订单号|auftrag|numéro de commande|référence|artikel|artikelnummer|article|quantity|qty|price|amount|total|count|"
  ).split("|"),
);
const NAME_WORDS = /^(?:(?:full |first |last |given |family |sur)?name|names|first|last|firstname|lastname|givenname|given|family|vorname|nachname|apellido|prénom|voornaam|achternaam|fornavn|efternavn|etternavn|förnamn|efternamn|etunimi|sukunimi|surname|forename|nombre|nombres|apellidos?|nome|cognome|nom|prénom|prenom|nume|prenume|navn|namn|nimi|név|naam|imię|nazwisko|jméno|ime|име|имя|фио|όνομα|ονοματεπώνυμο|επώνυμο|姓名|氏名|名前|이름|성명|patient|patient name|employee|employee name|customer name|client name|member|member name|holder|cardholder|card holder|beneficiary|payee|staff|person|adı|ad soyad|vardas|ime in priimek|nafn|jina)$/u;
const DOB_WORDS = /^(?:dob|d o b|birth|birthdate|birth date|date of birth|birthday|born|geburtsdatum|geb datum|fecha de nacimiento|fecha nac|f nac|nacimiento|date de naissance|né le|data di nascita|data de nascimento|data nasc|data nașterii|geboortedatum|födelsedatum|fødselsdato|fødselsdag|syntymäaika|data urodzenia|doğum tarihi|datum rođenja|datum narození|рождения|дата рождения|дата на раждане|ημερομηνία γέννησης|出生日期|出生年月日|生年月日|생년월일|gimšimo data|fæðingardagur)$/u;
const ADDRESS_WORDS = /^(?:(?:home |street |postal |mailing |billing |shipping )?address|addr|address line 1|street|zip|zip code|postcode|postal code|adresse|anschrift|straße|strasse|wohnort|dirección|direccion|domicilio|indirizzo|endereço|endereco|adres|adresa|adress|osoite|cím|адрес|адреса|διεύθυνση|住所|地址|住址|주소|heimilisfang|ulica|residence)$/u;
const PHONE_WORDS = /^(?:phone|phone number|tel|telephone|mobile|mobile number|cell|cellphone|telefon|telefonnummer|handy|mobil|teléfono|telefono|móvil|movil|celular|téléphone|portable|cellulare|telefoon|puhelin|телефон|τηλέφωνο|電話|电话|手机|휴대폰|전화|sími)$/u;
const EMAIL_WORDS = /^(?:e ?mail|e ?mail address|correo|courriel|eposta|sähköposti|почта|電郵)$/u;
const BANK_WORDS = /^(?:iban|bank|bank account|bank acct|account|account no|account number|acct|acct no|sort code|sortcode|routing|routing number|aba|bsb|ifsc|swift|bic|konto|kontonummer|cuenta|clabe|cbu|compte|rib|conto|conta|rekening|tilinumero|счет|λογαριασμός|口座|账号|계좌)$/u;
const DX_WORDS = /^(?:dx|icd|icd 10|icd10|diagnosis|diagnosis code|diagnose|diagnóstico|diagnostic|diagnosi|διάγνωση|диагноза|диагноз|診断|诊断|condition)$/u;
const CARD_WORDS = /^(?:card|card no|card number|cc|cc number|pan|credit card|debit card|tarjeta|carte|karte|kartennummer|cartão|carta)$/u;
const EXP_WORDS = /^(?:exp|expiry|expiration|exp date|expiry date|valid thru|vence|vencimiento|ablauf|expire|expires|gültig bis)$/u;
const CVV_WORDS = /^(?:cvv|cvv2|cvc|cvc2|cid|csc|security code|código de seguridad)$/u;
const SYSTEM_OWNER = /^(?:customer|cust|user|client|member|employee|emp|staff|contact|account|acct|record|row|lead|deal|object|external|internal|crm|db|sys|system|profile|subscriber|player|student|device|session|org|tenant|vendor|supplier|merchant|store|shop|site|loyalty)$/;
/** Fields whose value is a name but not a person's. */
const NOT_A_PERSON_KEY = /(?:^|\s)(?:company|organi[sz]ation|org|firm|employer|business|title|product|item|city|country|town|region|state|street|brand|vendor|supplier|merchant|store|shop|team|department|dept|project|sponsor|bank|branch|plan|tier|category|status|note|notes|comment|description)(?:\s|$)/;
/** A company's legal form after its name: a company, not a person. */
const COMPANY = /(?:^|\s)(?:ltd|limited|llc|inc|corp|corporation|gmbh|ag|s\.?a|sas|sarl|srl|s\.?p\.?a|bv|nv|ab|oy|oyj|a\/s|aps|plc|co|kg|d\.o\.o|s\.r\.o|kft|pty|pvt|llp|lp|oü|uab|sia|z o\.o|sp\.? j|sp\.? k|group|holdings?|company|partners|foods|logistics|consulting|services|solutions|systems|technologies)\.?$/i;
/** A key that names no kind of number: `id`, `no`, `number`, `code`. */
const GENERIC_KEY = /^(?:id|no|nr|num|number|code|key|identifier)$/;
const DATE_WORDS = /^(?:date|created|updated|timestamp|time|ts|day)$/u;

/** A key, header or label as the vocabularies read it: lower case, separators as single spaces, no punctuation. */
function words(key: string): string {
  return key
    .toLowerCase()
    .replace(/[_\-./:#"'()\[\]*]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether a field's name names an identity number in the vocabulary above (pii-bulk.ts reads keys with it too). */
export function namesIdentity(key: string): boolean {
  return classOf(key) === "id";
}

const classes = new Map<string, KeyClass>();
/** What a key names (memoised: the same headers and keys come back on every row). */
function classOf(key: string | null): KeyClass {
  if (key === null) return null;
  let c = classes.get(key);
  if (c === undefined) {
    if (classes.size > 4096) classes.clear();
    classes.set(key, (c = classify(key)));
  }
  return c;
}

function classify(key: string): KeyClass {
  const w = words(key);
  if (w.length === 0 || w.length > 40) return null;
  if (ID_WORDS.has(w)) return "id";
  if (NAME_WORDS.test(w)) return "name";
  if (DOB_WORDS.test(w)) return "dob";
  if (CVV_WORDS.test(w)) return "cvv";
  if (EXP_WORDS.test(w)) return "exp";
  if (CARD_WORDS.test(w)) return "card";
  if (BANK_WORDS.test(w)) return "bank";
  if (PHONE_WORDS.test(w)) return "phone";
  if (EMAIL_WORDS.test(w)) return "email";
  if (ADDRESS_WORDS.test(w)) return "address";
  if (DX_WORDS.test(w)) return "dx";
  if (THING_WORDS.has(w)) return "thing";
  if (DATE_WORDS.test(w)) return "date";
  // Compound keys: `emso_number`, `customer_ssn`, `national_id_no`, `order_ref`, `patient_dob`.
  const parts = w.split(" ");
  if (parts.length > 1 && parts.length <= 4) {
    for (const p of parts) if (ID_WORDS.has(p) && p.length >= 3 && p !== "fin" && p !== "run" && p !== "sin") return "id";
    const last = parts[parts.length - 1] as string;
    if (DOB_WORDS.test(last)) return "dob";
    if (THING_WORDS.has(parts[0] as string) || THING_WORDS.has(last)) return "thing";
    // A system's own number for a record (`customer_id`, `user no`, `employee number`): not an identity document's.
    if (parts.length === 2 && SYSTEM_OWNER.test(parts[0] as string) && /^(?:id|uid|guid|uuid|key|no|nr|num|number|code)$/.test(last)) return "thing";
  }
  return null;
}

/** Tokens of a code: digits and capital letters with the separators codes are written with (bounded, greedy, never failing). */
const TOKEN = /(?<![\p{L}\p{N}])(?:[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?(?![\p{L}\p{N}])|\d{1,6}(?: \d{1,6}){1,5}(?![\p{L}\p{N}.\-/])|[\p{Nd}A-Z][\p{Nd}A-Z().\-/]{0,30})/gu;
const DATE_TOKEN = /^(?:(\d{4})[-./](\d{1,2})[-./](\d{1,2})|(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2}))$/;
const EXPIRY_TOKEN = /^(?:0?[1-9]|1[0-2]) ?\/ ?(?:\d{2}|20\d{2})$/;
const IBAN_TOKEN = /^[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?$/;
const DX_TOKEN = /^[A-TV-Z]\d{2}\.\d{1,4}[A-Z]?$/;
const SORT_CODE = /^\d{2}-\d{2}-\d{2}$/;
const NZ_BANK = /^\d{2}-\d{4}-\d{7}-\d{2,3}$/;
const US_PHONE = /^(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}$/;
const IP = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const AMOUNT = /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$|^\d+[.,]\d{1,2}$/;

const THIS_YEAR = new Date().getUTCFullYear();

function dateOf(t: string): number | null {
  const m = DATE_TOKEN.exec(t);
  if (!m) return null;
  let y: number, mo: number, d: number;
  if (m[1] !== undefined) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    const a = Number(m[4]);
    const b = Number(m[5]);
    y = Number(m[6]);
    if (y < 100) y += y > (THIS_YEAR % 100) ? 1900 : 2000;
    [d, mo] = a > 12 ? [a, b] : b > 12 ? [b, a] : [a, b];
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1900 || y > THIS_YEAR + 1) return null;
  return y;
}

/** The ASCII digits in a string (pii-bulk.ts counts with it too). */
export function digitCount(s: string): number {
  return digitsUpTo(s, Infinity);
}

/** Digits in a string, counted up to `max` (a prefilter stops as soon as it knows). */
function digitsUpTo(s: string, max: number): number {
  let n = 0;
  for (let i = 0; i < s.length && n < max; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

function letterCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) n++;
  }
  return n;
}

/** Numbers documentation and fixtures use: one digit repeated, the famous example SSNs (123-45-6789, 078-05-1120). */
function placeholderNumber(digits: string): boolean {
  return /^(\d)\1+$/.test(digits) || digits === "078051120";
}

const PLACEHOLDER_NAME = /(?:^|[\s,.])(?:test|tester|testsson|testperson|example|sample|dummy|demo|fake|foo|bar|baz|doe|roe|mustermann|musterfrau|mustermensch|prufa|prófa|dæmi|ejemplo|exemple|beispiel|esempio|exemplo|voorbeeld|placeholder|lorem|ipsum|qwerty|asdf)(?:$|[\s,.])/i;

/** Two to four capitalised words, or a short run of a script without case (佐藤 健, สมชาย ใจดี). */
const NAME = /(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’\-]{1,20}(?:[ \t]{1,3}(?:(?:de|da|do|dos|das|del|van|von|der|den|al|el|la|le|di|bin|ibn|ben)[ \t]{1,3})?\p{Lu}[\p{Ll}'’\-]{1,20}){1,3}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{Lo}[\p{Lo}\p{M}]{0,7}(?:[ \u3000]\p{Lo}[\p{Lo}\p{M}]{0,7})?(?![\p{L}\p{M}\p{N}])/u;
const NAME_ALL = new RegExp(NAME.source, "gu");
const FORM_AFTER = /^[^,;|\t\n]{0,16}/;
const CASELESS_ONLY = /^[\p{Lo}\p{M} \u3000]+$/u;
/** A house number after a street's name and before a town (`Laugavegur 21, 101 Reykjavík`), a street word, or a Japanese, Chinese or Korean address. */
const ADDRESS = /\p{L}{3,}\.? \d{1,4}[a-zA-Z]?, ?(?:\d{3,5} )?\p{Lu}\p{L}{2,}|(?<![\p{L}])(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|blvd|boulevard|rue|via|calle|avenida|av\.|rua|str\.|straße|strasse|ul\.|ulica|utca|gade|vej|gata|gatan|vegur|weg|laan|straat|platz|gasse|ถนน|ซอย|улица|ул\.|οδός|οδ\.)(?![\p{L}])|[都道府県市区町村][0-9０-９]|[路街号號]/iu;
const EMAIL = /[A-Za-z0-9._%+-]@[A-Za-z0-9-]+\.[A-Za-z]/;
/** A phone's digits after its `+`: groups of digits with the separators phones are written with. */
const PHONE_RUN = /^\d{1,4}(?:[ .\-]?\(?\d{1,12}\)?){1,5}/;

interface Judgement {
  ids: Found[];
  /** Every identifier sits under a generic key (`id`, `no`, `number`): it may be a system's own record id. */
  generic: boolean;
  strong: boolean;
  kinds: Set<Kind>;
  card: Found | null;
  exp: boolean;
  cvv: boolean;
  placeholder: boolean;
  /** (Twenty-fourth round) a code that names itself by its country's structure made the record a person's (pii-national.ts). */
  national: boolean;
}

/** The words right before a span in its string (a label: "IRD 144-598-466", "CI 1.035.690-6", "Order #…"). */
function labelBefore(v: string, at: number, from: number, whole = false): string | null {
  const head = v.slice(Math.max(from, at - 40), at);
  const m = (whole ? /([\p{L}][\p{L}\p{M} .\-]{0,30})[\s:#=.\-]*$/u : /([\p{L}][\p{L}\p{M} .\-]{0,30}?)[\s:#=.\-]*(?:no\.?|nr\.?|number)?[\s:#=.\-]*$/iu).exec(head);
  if (!m) return null;
  // The last one to three words of the label.
  const ws = (m[1] as string).trim().split(/\s+/);
  return ws.slice(-3).join(" ");
}

function labelClass(label: string | null): KeyClass {
  if (label === null) return null;
  const ws = words(label).split(" ");
  for (let n = Math.min(3, ws.length); n >= 1; n--) {
    const c = classOf(ws.slice(-n).join(" "));
    if (c !== null) return c;
  }
  return null;
}

/** Judge one record: its identifiers and which personal fields it carries. */
function judge(pieces: Piece[], listStrong: boolean, nat = true): Judgement {
  const j: Judgement = { ids: [], generic: true, strong: false, kinds: new Set(), card: null, exp: false, cvv: false, placeholder: false, national: false };
  for (const p of pieces) {
    const v = p.site.value;
    const text = v.slice(p.start, p.end);
    const kc = classOf(p.key);
    const trimmed = text.trim();
    if (trimmed.length === 0) continue;
    const lead = p.start + text.indexOf(trimmed);
    if (kc === "name") {
      if (/\p{L}/u.test(trimmed) && trimmed.length <= 80 && !COMPANY.test(trimmed)) {
        j.kinds.add("name");
        if (PLACEHOLDER_NAME.test(trimmed)) j.placeholder = true;
      }
      continue;
    }
    if (kc === "dob") {
      if (dateOf(trimmed) !== null || /\d/.test(trimmed)) j.kinds.add("dob");
      continue;
    }
    if (kc === "email") {
      if (trimmed.includes("@")) j.kinds.add("email");
      continue;
    }
    if (kc === "phone") {
      if (digitCount(trimmed) >= 6) j.kinds.add("phone");
      continue;
    }
    if (kc === "address") {
      if (/\p{L}/u.test(trimmed)) j.kinds.add("address");
      continue;
    }
    if (kc === "dx") {
      if (/\p{L}/u.test(trimmed)) j.kinds.add("dx");
      continue;
    }
    if (kc === "cvv") {
      if (/^\d{3,4}$/.test(trimmed)) j.cvv = true;
      continue;
    }
    if (kc === "exp") {
      if (EXPIRY_TOKEN.test(trimmed) || /\d/.test(trimmed)) j.exp = true;
      continue;
    }
    if (kc === "thing" || kc === "date") continue;
    if (kc === "id" || kc === "bank" || kc === "card") {
      const d = digitCount(trimmed);
      const compact = trimmed.replace(/[\s.\-/()]/g, "");
      if (d >= 3 && compact.length >= 5 && compact.length <= 34 && /^[\p{L}\p{N}\s.\-/()]+$/u.test(trimmed)) {
        if (placeholderNumber(compact.replace(/\D/g, ""))) j.placeholder = true;
        if (kc === "card") {
          if (d >= 13 && d <= 19) j.card = { site: p.site, start: lead, end: lead + trimmed.length, key: compact };
          // (Tenth round) a whole card (Luhn) under its column identifies its holder as an account number does.
          if (j.card !== null && d === compact.length && luhn(compact)) {
            j.ids.push(j.card);
            j.generic = false;
            j.strong = true;
          }
        } else {
          j.ids.push({ site: p.site, start: lead, end: lead + trimmed.length, key: compact });
          j.generic = false;
          if (kc === "id") j.strong = true;
          else j.kinds.add("bank");
        }
      }
      continue;
    }
    // Unnamed (or a name the vocabularies do not know): read the text itself.
    const had = j.ids.length;
    free(p, lead, trimmed, j, listStrong, p.key !== null && NOT_A_PERSON_KEY.test(words(p.key)), nat);
    if (j.ids.length > had && !(p.key !== null && GENERIC_KEY.test(words(p.key)))) j.generic = false;
  }
  return j;
}

/** A field read without a name: its codes (with the labels before them), names, addresses, contacts. */
function free(p: Piece, lead: number, text: string, j: Judgement, listStrong: boolean, noName: boolean, nat: boolean): void {
  const v = p.site.value;
  if (EMAIL.test(text)) j.kinds.add("email");
  if (ADDRESS.test(text)) j.kinds.add("address");
  let rest = "";
  let last = 0;
  TOKEN.lastIndex = 0;
  let n = 0;
  for (let m: RegExpExecArray | null; (m = TOKEN.exec(text)) !== null && n < 64; ) {
    if (!/\d/.test(m[0])) continue;
    n++;
    rest += text.slice(last, m.index) + " ";
    last = m.index + m[0].length;
    let t = m[0].replace(/[.\-/(]+$/, "");
    if (t.endsWith(")") && !/\([0-9A-Z]\)$/.test(t)) t = t.slice(0, -1);
    const start = lead + m.index;
    const before = m.index > 0 ? text[m.index - 1] : "";
    // `#1002345678`: a reference to a thing (an order, a ticket), not a person's number.
    if (before === "#") continue;
    const d = digitCount(t);
    if (d === 0) continue;
    const compact = t.replace(/[\s.\-/()]/g, "");
    const year = dateOf(t);
    if (year !== null) {
      const lc = labelClass(labelBefore(v, start, lead));
      if (lc === "dob" || year <= THIS_YEAR - 14) j.kinds.add("dob");
      continue;
    }
    if (before === "+" || US_PHONE.test(t)) {
      if (d >= 6) j.kinds.add("phone");
      else if (before === "+") {
        // (Twelfth round) `+370 64305144`: a country code, then a subscriber number longer than a group of six; the
        // phone is the digits after the `+`, read to the end of its groups (and skipped as a code).
        const run = PHONE_RUN.exec(text.slice(m.index, m.index + 24));
        const n = run ? digitCount(run[0]) : 0;
        if (run && n >= 6 && n <= 15) {
          j.kinds.add("phone");
          TOKEN.lastIndex = m.index + run[0].length;
          last = TOKEN.lastIndex;
        }
      }
      continue;
    }
    if (IBAN_TOKEN.test(t) || NZ_BANK.test(t) || SORT_CODE.test(t)) {
      j.kinds.add("bank");
      if (!SORT_CODE.test(t)) j.ids.push({ site: p.site, start, end: start + t.length, key: compact });
      continue;
    }
    if (EXPIRY_TOKEN.test(t)) {
      j.exp = true;
      continue;
    }
    if (DX_TOKEN.test(t)) {
      j.kinds.add("dx");
      continue;
    }
    if (IP.test(t) || AMOUNT.test(t)) continue;
    if (/^\d{3,4}$/.test(t)) {
      j.cvv = true;
      continue;
    }
    // (Ninth round) a label that ends in `nr` or `no` as one word (`SVNR`, `RČ`): read whole when its stem names nothing.
    const lc = labelClass(labelBefore(v, start, lead)) ?? labelClass(labelBefore(v, start, lead, true));
    if (lc === "thing" || lc === "date") continue;
    // A phone in national or international form, written in groups: `0044 20…`, `030 12345678`, `06-12345678`, `07700 900123`.
    if (lc !== "id" && !listStrong && d >= 9 && d <= 14 && (/^00\d{1,3}[ -]\d/.test(t) || (/^0\d{1,4}[ -]\d{2,8}(?:[ -]\d{2,8}){0,3}$/.test(t) && !/^\d{6}-/.test(t)))) {
      j.kinds.add("phone");
      continue;
    }
    if (lc === "phone") {
      j.kinds.add("phone");
      continue;
    }
    const l = letterCount(compact);
    // A card number (Luhn; fifteen digits, sixteen, nineteen, or thirteen opening with 4): identifier-like too.
    if ((d === 15 || d === 16 || d === 19 || (d === 13 && compact[0] === "4")) && l === 0 && /^[2-6]/.test(compact) && luhn(compact) && lc !== "id") {
      j.card = { site: p.site, start, end: start + t.length, key: compact };
      j.ids.push(j.card);
      // (Twenty-fourth round) sixteen digits that are an Indonesian NIK (its region and birth date) may pass Luhn too.
      if (nat && nationalDated(compact) && !j.kinds.has("dob")) {
        j.kinds.add("dob");
        j.national = true;
      }
      continue;
    }
    const named = lc === "id" || listStrong;
    // `ORD-1002345678`, `INV-2026-0042`, `PAN-1234567`: a word's letters before a dash name a thing's reference.
    if (!named && /^[A-Z]{2,5}-/.test(t)) continue;
    const shaped = (l === 0 && d >= 9 && d <= 20) || (l >= 1 && l <= 3 && d >= 6 && compact.length <= 16) || (l >= 2 && d >= 5 && compact.length >= 9 && compact.length <= 16);
    const namedShape = named && ((d >= 5 && compact.length <= 20) || (l >= 2 && d >= 3 && compact.length >= 8 && compact.length <= 16));
    if (!shaped && !namedShape && lc !== "bank") continue;
    if (lc === "bank") {
      if (d < 6) continue;
      j.kinds.add("bank");
    }
    if (placeholderNumber(compact.replace(/\D/g, ""))) j.placeholder = true;
    j.ids.push({ site: p.site, start, end: start + t.length, key: compact });
    if (named) j.strong = true;
    // (Twelfth round) a national number that carries its holder's birth date (and passes its check) is the record's
    // birth date too (pii-dated.ts).
    if (l === 0 && datedIdentity(compact)) j.kinds.add("dob");
    // (Twenty-fourth round) more countries' dated numbers (pii-national.ts), and a number that passes a national
    // check (pii-checks.ts) names itself as a label would.
    else if (nat && l <= 1 && nationalDated(compact) && !j.kinds.has("dob")) {
      j.kinds.add("dob");
      j.national = true;
    }
    if (nat && l === 0 && !named && checkedIdentity(compact)) {
      j.strong = true;
      j.national = true;
    }
  }
  rest += text.slice(last);
  if (!j.kinds.has("name") && !noName) {
    // A run of a script without case is a name only beside the record's other fields, not a whole sentence: a
    // longer run (a title before the list's first entry) is passed over for the next (twelfth round: up to four).
    NAME_ALL.lastIndex = 0;
    for (let m: RegExpExecArray | null, n = 0; (m = NAME_ALL.exec(rest)) !== null && n < 4; n++) {
      // The company's legal form may follow the words the name pattern takes (`Polbud Sp. z o.o.`).
      if (COMPANY.test(m[0]) || COMPANY.test(m[0] + (FORM_AFTER.exec(rest.slice(m.index + m[0].length, m.index + m[0].length + 16)) as RegExpExecArray)[0])) break;
      const caseless = CASELESS_ONLY.test(m[0]);
      if (caseless && m[0].length > 12) continue;
      j.kinds.add("name");
      if (PLACEHOLDER_NAME.test(m[0])) j.placeholder = true;
      break;
    }
  }
}

/** Whether a judged record is a person's: an identifier, a name, and another personal field or the identifier named. */
function personal(j: Judgement): boolean {
  if (j.placeholder || j.ids.length === 0) return false;
  const others = [...j.kinds].filter((k) => k !== "name").length;
  // Under a generic key (`id`) a number may be a system's own record id (a shop's customer export): a name with an
  // e-mail, a phone or an address is a contact list; a birth date, a bank account or a diagnosis makes it a person's.
  if (j.generic && !j.strong && j.ids.length > 0 && !(j.kinds.has("dob") || j.kinds.has("bank") || j.kinds.has("dx"))) return false;
  if (j.kinds.has("name")) return j.strong || others >= 1;
  // No name: an identifier with two other personal fields (a birth date and an address…).
  return others >= 2 && (j.kinds.has("dob") || j.kinds.has("address"));
}

/** One leaf of a list: a string at a place in the message (or in a JSON string it carries). */
interface Leaf {
  vpath: (string | number)[];
  piece: Piece;
}

/** The record a leaf belongs to, and its field name; null when it sits in no list. */
function recordOf(vpath: (string | number)[]): { rec: (string | number)[]; key: string | null; col: number | null } | null {
  const last = vpath[vpath.length - 1];
  if (typeof last === "number") {
    const prev = vpath[vpath.length - 2];
    if (typeof prev === "number") return { rec: vpath.slice(0, -1), key: null, col: last };
    return { rec: vpath, key: null, col: null };
  }
  for (let i = vpath.length - 2; i >= 0; i--) if (typeof vpath[i] === "number") return { rec: vpath.slice(0, i + 1), key: last ?? null, col: null };
  return null;
}

/** Leaves grouped into records, and records into lists (the array they are items of). */
function listsOf(leaves: Leaf[]): Piece[][][] {
  const lists = new Map<string, Map<string, { row: number; pieces: Piece[]; cols: (number | null)[] }>>();
  for (const leaf of leaves) {
    const r = recordOf(leaf.vpath);
    if (r === null) continue;
    const parent = JSON.stringify(r.rec.slice(0, -1));
    let list = lists.get(parent);
    if (!list) lists.set(parent, (list = new Map()));
    const id = JSON.stringify(r.rec);
    let rec = list.get(id);
    if (!rec) list.set(id, (rec = { row: r.rec[r.rec.length - 1] as number, pieces: [], cols: [] }));
    rec.pieces.push({ ...leaf.piece, key: r.key ?? leaf.piece.key });
    rec.cols.push(r.col);
  }
  const out: Piece[][][] = [];
  for (const list of lists.values()) {
    if (list.size < 2) continue;
    const recs = [...list.values()].sort((a, b) => a.row - b.row);
    // Rows of an array of arrays: a first row of words without digits is the header.
    const first = recs[0] as (typeof recs)[number];
    const header = first.cols.every((c) => c !== null) && first.pieces.length >= 2 && first.pieces.every((p) => digitCount(p.site.value.slice(p.start, p.end)) === 0) ? first.pieces.map((p) => p.site.value.slice(p.start, p.end)) : null;
    const rows = header ? recs.slice(1) : recs;
    out.push(rows.map((r) => r.pieces.map((p, i) => (header && r.cols[i] !== null ? { ...p, key: header[r.cols[i] as number] ?? null } : p))));
  }
  return out;
}

/** The leaves of a JSON text a string carries, each located in the string. */
function jsonLeaves(site: StringSite, out: Leaf[]): boolean {
  const v = site.value;
  const t = v.trimStart();
  if (!(t.startsWith("[") || t.startsWith("{")) || v.length > MAX_JSON) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return false;
  }
  let cursor = 0;
  let count = 0;
  const walk = (x: unknown, path: (string | number)[]) => {
    if (count > 8192) return;
    if (typeof x === "string" || typeof x === "number") {
      count++;
      const lit = typeof x === "string" ? JSON.stringify(x).slice(1, -1) : String(x);
      const at = v.indexOf(lit, cursor);
      if (at < 0) return;
      cursor = at + lit.length;
      // An escaped string's span covers its escaped text (the redaction cuts what is in the message).
      out.push({ vpath: [...site.path, ...path], piece: { site, start: at, end: at + lit.length, key: null } });
    } else if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...path, i]));
    else if (x !== null && typeof x === "object") for (const [k, y] of Object.entries(x)) walk(y, [...path, k]);
  };
  walk(parsed, ["\u0000json"]);
  return true;
}

const SEPS = ["\t", ";", "|", ","];
const ENTRY_SEPS = new Set([";", "\n"]);
const ENTRY_SEPS_COMMAS = new Set([";", "\n", ",", "\u060c", "\uff0c", "\u3001"]);

/** The entries of one string split at the separators given, each with five digits or more. */
function entries(v: string, seps: ReadonlySet<string>): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  let at = 0;
  for (let i = 0; i <= v.length && parts.length < PER_LIST; i++) {
    if (i === v.length || seps.has(v[i] as string)) {
      if (digitsUpTo(v.slice(at, i), 5) >= 5) parts.push({ start: at, end: i });
      at = i + 1;
    }
  }
  return parts;
}

/** The records of a text: its lines (with a header row if it has one), or the `;`-separated entries of one line. */
function textLists(site: StringSite): { records: Piece[][]; strong: boolean } | null {
  const v = site.value;
  const lines: { start: number; end: number }[] = [];
  for (let at = 0; at <= v.length && lines.length < PER_LIST + 8; ) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    let e = end;
    while (e > at && /\s/.test(v[e - 1] as string)) e--;
    let s = at;
    while (s < e && /\s/.test(v[s] as string)) s++;
    if (e > s) lines.push({ start: s, end: e });
    at = end + 1;
  }
  let strong = false;
  if (lines.length < 3) {
    // (Ninth round) two lines of records are a list of two (judged as such: each code named or checked).
    if (lines.length === 2 && lines.every((l) => digitsUpTo(v.slice(l.start, l.end), 5) >= 5) && !lines.some((l) => v.slice(l.start, l.end).includes(";")))
      return { records: lines.map((l) => lineRecord(site, l, null, null)), strong };
    // One line of entries: `Name CI 1.035.690-6; Name CI 4.312.273-8; …`.
    if (v.length > 8192) return null;
    // (Twelfth round) or, when semicolons do not make three, its comma-separated entries (`,`, Arabic `،`, CJK `，`
    // `、`): `Name 8001200775, Name 8102219697, …`. Each entry still needs five digits of its own.
    let parts = entries(v, ENTRY_SEPS);
    if (parts.length < 3) parts = entries(v, ENTRY_SEPS_COMMAS);
    if (parts.length < 3) return null;
    // A title before the first entry (after its last colon) names what the list is.
    const title = v.slice(0, (parts[0] as { start: number }).start);
    strong = titleStrong(title);
    return { records: parts.map((p) => [{ site, start: p.start, end: p.end, key: null }]), strong };
  }
  // A header: among the first three lines, one split by a separator into two cells or more, none with digits.
  let header: string[] | null = null;
  let sep: string | null = null;
  let firstRow = 0;
  for (let i = 0; i < Math.min(3, lines.length - 2); i++) {
    const l = lines[i] as { start: number; end: number };
    const text = v.slice(l.start, l.end);
    const s = SEPS.find((c) => text.includes(c)) ?? null;
    if (s !== null && text.length <= 400 && digitCount(text) === 0) {
      const cells = cellsOf(text, s).map(([a, b]) => text.slice(a, b).trim().replace(/^["']|["']$/g, ""));
      if (cells.length >= 2 && cells.every((c) => c.length > 0 && c.length <= 40)) {
        header = cells;
        sep = s;
        firstRow = i + 1;
        break;
      }
    }
    // A title line above the list ("マイナンバー一覧:", "Staff IDs"), without a code of its own.
    if (digitCount(text) < 5 && titleStrong(text)) strong = true;
  }
  const records: Piece[][] = [];
  for (let i = firstRow; i < lines.length; i++) {
    records.push(lineRecord(site, lines[i] as { start: number; end: number }, sep, header));
  }
  return { records, strong };
}

/** One line of a text list as a record: its cells (by the header's separator, or one splitting it in three or more), or the whole line. */
function lineRecord(site: StringSite, l: { start: number; end: number }, sep: string | null, header: string[] | null): Piece[] {
  const text = site.value.slice(l.start, l.end);
  const s = sep ?? SEPS.find((c) => cellsOf(text, c).length >= 3) ?? null;
  if (s === null) return [{ site, start: l.start, end: l.end, key: null }];
  const cells = cellsOf(text, s);
  const keyed = header !== null && (header.length === cells.length || header.length === cells.length - 1);
  return cells.map(([a, b], col) => ({ site, start: l.start + a, end: l.start + b, key: keyed ? (header[col] ?? null) : null }));
}

/** The cells of a row split by a separator, a double-quoted cell kept whole (`"12 Oak St, Columbus"`): [start, end] pairs. */
function cellsOf(text: string, sep: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && out.length < 64; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  out.push([start, text.length]);
  return out;
}

function titleStrong(title: string): boolean {
  const w = words(title);
  if (w.length === 0 || w.length > 200) return false;
  const ws = w.split(" ");
  for (let i = 0; i < ws.length; i++)
    for (let n = 1; n <= 3 && i + n <= ws.length; n++) if (ID_WORDS.has(ws.slice(i, i + n).join(" ")) && (ws.slice(i, i + n).join(" ").length >= 3 || ws.length <= 3)) return true;
  // Scripts written without spaces: a known word inside the title (マイナンバー一覧).
  for (const word of ["マイナンバー", "個人番号", "身分證", "身分证", "身份证", "주민등록번호"]) if (title.includes(word)) return true;
  return false;
}

/** People's records in bulk, and records holding a whole card (see above). */
export function detectPeople(sites: StringSite[], testCard: (digits: string) => boolean = () => false): Detection[] {
  let total = 0;
  for (const s of sites) if ((total += digitsUpTo(s.value, 15 - total)) >= 15) break;
  if (total < 15) return [];
  const leaves: Leaf[] = [];
  const lists: { records: Piece[][]; strong: boolean }[] = [];
  for (const site of sites) {
    const v = site.value;
    leaves.push({ vpath: site.path, piece: { site, start: 0, end: v.length, key: null } });
    if (v.length < 24 || v.length > 1 << 20 || digitsUpTo(v, 15) < 15) continue;
    if (jsonLeaves(site, leaves)) continue;
    const t = textLists(site);
    if (t) {
      // (Ninth round) a short string beside the list that names it (a file `kyc_batch.csv`, a subject "Passport numbers").
      if (!t.strong) t.strong = siblingTitle(sites, site);
      lists.push(t);
    }
  }
  for (const records of listsOf(leaves)) lists.push({ records, strong: false });

  const out: Detection[] = [];
  let seen = 0;
  for (const list of lists) {
    const people: Found[] = [];
    const keys = new Set<string>();
    let placeholders = 0;
    // Records whose code is named (a field, a label, a title) or checks itself as a national identity number.
    let sure = 0;
    // (Twenty-fourth round) what the list holds without pii-national.ts's reading: a list already bulk stays `people`.
    const plain = new Set<string>();
    let plainSure = 0;
    // (Twenty-fourth round) named records whose only other field is an unnamed code: a column if their codes all pass one check.
    const column: Judgement[] = [];
    // The first 64 records of a list decide it (a list that long is bulk or not by then).
    for (const rec of list.records.slice(0, PER_LIST)) {
      if (++seen > MAX_RECORDS) break;
      // A record that is a single string in a list is read as text (a line, an array item).
      const j = judge(rec, list.strong);
      if (j.card && testCard(j.card.key)) j.placeholder = true;
      if (j.card && j.exp && j.cvv && !j.placeholder) out.push({ type: "pii_bulk.payment_card", path: j.card.site.path, start: j.card.start, end: j.card.end });
      const wasPlaceholder = j.placeholder;
      j.placeholder = false;
      if (!personal(j)) {
        if (!wasPlaceholder && j.kinds.has("name") && !j.strong && j.card === null && j.ids.length > 0) column.push(j);
        continue;
      }
      // Placeholders (Test Testsson, 000-00-0000) make a list a fixture only when they are most of it.
      if (wasPlaceholder) placeholders++;
      const id = j.ids[0] as Found;
      if (keys.has(id.key)) continue;
      keys.add(id.key);
      // (Tenth round) a whole card number (Luhn) beside a person's name is as sure as a checked identity number:
      // two customers' cards with their names are bulk payment data.
      if (j.strong || j.card !== null || j.ids.some((f) => checkedIdentity(f.key) || datedIdentity(f.key) || nationalSure(f.key))) sure++;
      for (const f of j.ids) people.push(f);
      const j0 = j.national ? judge(rec, list.strong, false) : j;
      j0.placeholder = false;
      if (j0 === j || personal(j0)) {
        plain.add(id.key);
        if (j0.strong || j0.card !== null || j0.ids.some((f) => checkedIdentity(f.key) || datedIdentity(f.key))) plainSure++;
      }
    }
    const codes = column.map((j) => (j.ids[0] as Found).key).filter((k) => !keys.has(k));
    if (codes.length === column.length && checkedColumn(codes)) {
      for (const j of column) {
        keys.add((j.ids[0] as Found).key);
        people.push(j.ids[0] as Found);
      }
    }
    // Three records, or (ninth round) two whose codes are each named or checked: two people's identity numbers are
    // already bulk (as `pii_bulk.id_list` counts two named numbers).
    const enough = keys.size >= 3 || (keys.size === 2 && sure === 2);
    const type = plain.size >= 3 || (plain.size === 2 && plainSure === 2) ? "pii_bulk.people" : "pii_bulk.national_ids";
    if (enough && placeholders * 2 <= keys.size) for (const f of people) out.push({ type, path: f.site.path, start: f.start, end: f.end });
  }
  return out;
}

/** A short string beside a list's (same parent) whose words name an identity number: the list's title. */
function siblingTitle(sites: StringSite[], site: StringSite): boolean {
  const parent = site.path.slice(0, -1);
  let n = 0;
  for (const o of sites) {
    if (o === site || o.path.length !== site.path.length || o.value.length > 120 || ++n > 32) continue;
    if (parent.every((x, i) => o.path[i] === x) && titleStrong(o.value)) return true;
  }
  return false;
}
