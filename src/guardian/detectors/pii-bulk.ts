import { detectPii, luhn } from "./pii.js";
import { detectMinorsAndDocuments } from "./pii-minors.js";
import { selfPurchase, toGovernment } from "./pii-own-use.js";
import { literalsOf } from "./literals.js";
import { detectPeople, digitCount as countDigits, namesIdentity } from "./pii-people.js";
import { oneFormRecord } from "./pii-form.js";
import { belgianRrn, cjkLabelledIds, firstPerson, rodneCislo, validDate, verhoeffValid } from "./pii-checks.js";
import { mrzPairs } from "./pii-mrz.js";
import { CARD_DETAIL_WORDS, cardCells, cardDumps, catalogueIds, catalogueLabel, namesCompany } from "./pii-catalogue.js";
import { contactExport, declaredRows, detectSpecial, healthToCollector } from "./pii-special.js";
import { homeLocations } from "./pii-location.js";
import { jsonRecords } from "./pii-records-json.js";
import { peopleContacts } from "./pii-contacts.js";
import { agentRecords } from "./pii-agent-records.js";
import { formBodyFields, jsonFormFields, onFormBodies } from "./pii-form-body.js";
import { oneRecordDocuments, ownTransaction } from "./pii-own-record.js";
import { detectProtected } from "./pii-protected.js";
import { detectTraces } from "./pii-traces.js";
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
 *   pii_bulk.contacts      (twenty-third round) a list of people with personal contacts handed to another agent, or
 *                          as records to a tool whose other arguments name where they go (pii-contacts.ts)
 *   pii_bulk.agent_records (exf31) three people's records handed to another agent, each with a home address, a bank
 *                          account or a personal contact, people named as initials or titles too (pii-agent-records.ts)
 *   pii_bulk.national_ids  (twenty-fourth round) people's lists keyed by national identity numbers nobody labelled,
 *                          read from the numbers' own structure (pii-national.ts), when no other finding names them
 *   pii_bulk.people        three people's records or more (two when each code is named or checks itself: ninth
 *                          round), each an identifier-like code with a name and another personal field, in any
 *                          list's structure (pii-people.ts)
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
  // Stripe's documented cards for 3-D Secure, declines and disputes (docs.stripe.com/testing).
  "4000002500003155", "4000002760003184", "4000003800000446", "4000000000003220", "4000000000003063", "4000008400001629",
  "4000000000000077", "4000000000000093", "4000000000000341", "4000000000009979", "4000000000000069", "4000000000000127",
  "4000000000000119", "4000000000000259", "4000000000001976", "4000000000005423", "5200828282828210", "4000000000000010",
]);

const MONTHS = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}";
const DATE = String.raw`(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}\.?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|${MONTHS}\.? \d{1,2},? \d{4}|\d{1,2}(?:st|nd|rd|th)? ${MONTHS}\.? \d{4})`;
/** "DOB: 1984-03-12", "date of birth 03/12/1984", "born on March 12, 1984". */
const DOB = new RegExp(String.raw`\b(?:dob|d\.o\.b\.?|date of birth|birth ?date|born(?: on)?|birthday|geburtsdatum|geboren(?: am)?|fecha de nacimiento|nacid[oa](?: el)?|date de naissance|née? le|data di nascita|nat[oa] il|data de nascimento|nascid[oa](?: em)?|sz[üu]l(?:etett|et[ée]si d[áa]tum)?\.?|nar(?:ozen[aáý]?|\.)|datum narozen[íi]|ur(?:odzon[ya]|\.)|data urodzenia|geboren op|f[öø]dd|f[øo]dt|n[ăa]scut[ăa]?|data na[șs]terii|do[ğg]um tarihi|ro[đd]en[ao]?|rojen[a]?|роден[ао]?|дата на раждане|dzimis|dzimusi|dzim[šs]anas datums|s[üu]nniaeg|s[üu]ndinud|gim[ęe]s|gimusi|gimimo data|f[æa]dd(?:ur)?|syntynyt|syntym[äa]aika|ημερομηνία γέννησης|γεννήθηκε|تاريخ الميلاد|生年月日|出生日期|생년월일|tanggal lahir|tgl\.? lahir|วันเกิด|fecha de nac\.?)(?![\p{L}])[^\n\d]{0,24}${DATE}`, "iu");
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
/** A card number, its expiry and its code in a row with spaces, the code labelled or not: `5386… 03/27 CVV 902`. */
const CARD_SPACED = /(?<![\d.])([2-6]\d{3}(?:[ -]?\d{4}){2}[ -]?\d{3,4})[ \t]{1,2}(?:(?:exp(?:iry|ires)?|valid thru)[ \t:]{0,2})?(?:0[1-9]|1[0-2])\/(?:\d{2}|20\d{2})[ \t,]{1,3}(?:(?:cvv2?|cvc2?|csc|cid|cvn)[ \t:]{0,3})?\d{3,4}(?![\d/.])/gi;
/** Cards typed as number, expiry and code with spaces (see CARD_SPACED): the numbers' spans and digits, at most 64. */
export function spacedCards(v: string): { start: number; end: number; digits: string }[] {
  const out: { start: number; end: number; digits: string }[] = [];
  CARD_SPACED.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = CARD_SPACED.exec(v)) !== null && out.length < 64; ) {
    const num = m[1] as string;
    const digits = num.replace(/\D/g, "");
    if (TEST_CARDS.has(digits) || (digits.length !== 15 && digits.length !== 16)) continue;
    out.push({ start: m.index, end: m.index + num.length, digits });
  }
  return out;
}

/** The writer's own card: "my card", "my Visa card", "meine Kreditkarte", "mi tarjeta", "ma carte". */
const OWN_CARD = /(?<![\p{L}])(?:my|mine|meine?|mi|mon|ma|mijn|min|mitt|minha|meu|moja)[ \t]{1,2}(?:[\p{L}-]{1,12}[ \t]{1,2}){0,2}(?:card|(?:kredit|debit|bank)?karte|tarjeta|carte|carta|cart[ãa]o|(?:bank|credit)?kaart|kort|karta)(?![\p{L}])/iu;

/** A card number under a card label ("card 4929 1234 5678 9012"): a card even without a valid checksum when its CVV or expiry is there. */
const CARD_LABELLED = /\b(?:card|cc|pan|credit card|debit card|card number|card_?number|cardnumber|card no\.?|card #|kartennummer|numéro de carte|número de tarjeta)\b[\s:#="'-]{0,6}((?:\d[ -]?){12,18}\d)(?![\d.])/gi;

/** Fields named for a card's number (pii-form.ts: a form's own field). */
const CARD_KEY = /^(?:card|cc|pan|card_?number|cardnumber|credit_?card(?:_?number)?|debit_?card(?:_?number)?|cc_?number)$/i;
/** Labels of identity documents and numbers, in several languages and countries. */
const ID_LABEL = String.raw`(?:ssn|social security(?: number| no\.?)?|social|sin|social insurance(?: number)?|passport(?: number| no\.?| #)?|pass(?:port)?[ _-]?no\.?|national id(?:entity)?(?: card)?(?: number| no\.?)?|national insurance(?: number| no\.?)?|nino|ni number|id card(?: number| no\.?)?|identity card(?: number)?|dni|nie|nif|cpf|aadhaa?r|bsn|burgerservicenummer|pesel|personnummer|insee|num[ée]ro de s[ée]curit[ée] sociale|steuer-?id|steueridentifikationsnummer|personalausweis(?:nummer)?|reisepass(?:nummer)?|tax id|itin|driver'?s? licen[cs]e(?: number| no\.?)?|licen[cs]e (?:number|no\.?)|codice fiscale|curp|rfc|hkid|nric|my number|mynumber|nhs(?:[ _]?(?:number|no\.?|nr))?|chi(?: number| no\.?)|nir|n° de s[ée]cu(?:rit[ée] sociale)?|num[ée]ro de s[ée]cu|s[ée]cu(?:rit[ée])? sociale|mrn|medical record(?: number| no\.?| #)?|patient(?: id| number| no\.?)|health insurance(?: number| no\.?)|(?:kranken)?versichertennummer|medicare(?: number| no\.?)?|pnr|personal identity number|henkil[öo]tunnus|hetu|f[øo]dselsnummer|cpr(?:-nr\.?| number)?|rijksregisternummer|isikukood|asmens kodas|tfn|tax file number|rut|rrn|resident registration number|tc kimlik(?: no)?|kimlik no|id number|svnr|sv-?nummer|sv-?nr|sozialversicherungsnummer|taj(?: sz[áa]m)?|cnic|nid|rodn[ée] [čc][íi]slo|birth number|c[ée]dula(?: de identidad)?|cccd|nin)`;
/** A number under an identity label: "passport no. X4821937", "SIN: 046 454 286", `"ssn":"219-09-9999"`. */
const LABELLED_ID = new RegExp(String.raw`\b${ID_LABEL}\b["']?[\s:#=.,"'-]{0,6}(?:(?:no|number|num|nr)\.?[\s:#=.-]{0,4})?((?:[A-Z]{1,3})?\d(?:[A-Z0-9]|[ .-](?=[A-Z0-9])){3,18}[A-Z0-9])(?![A-Za-z0-9])`, "gi");
/** Fields named for an identity number. */
const ID_KEY = /(?:^|_|-|\b)(?:ssn|social_?security(?:_?number)?|sin|passport(?:_?(?:number|no|num))?|national_?id(?:_?number)?|national_?insurance(?:_?number)?|nino|ni_?number|dni|nie|nif|cpf|aadhaa?r|bsn|pesel|tax_?id|tin|drivers?_?licen[cs]e(?:_?number)?|license_?number|id_?number|id_?card|codice_?fiscale|curp|personnummer|nhs(?:_?(?:number|no|num))?|nir|mrn|medical_?record(?:_?(?:number|no))?|patient_?(?:id|number)|pnr|hetu|cpr|medicare(?:_?number)?|insurance_?number|tfn|tax_?file_?number|rut|rrn|tckn|kimlik)$/i;
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
export function detectPiiBulk(sites: StringSite[], pii: () => Detection[] = () => detectPii(sites), schema: () => unknown = () => undefined): Detection[] {
  // (Thirteenth round) a form body's fields, decoded, as strings of their own (pii-form-body.ts).
  // (Eighteenth round) a flat JSON object in one argument is a form's fields too, read instead of its string.
  const json = jsonFormFields(sites);
  const fields = [...formBodyFields(sites), ...json];
  if (fields.length > 0) {
    const all = [...sites.filter((s) => !json.some((f) => f.from === s)), ...fields];
    return onFormBodies(bulkOf(all, () => detectPii(all), schema), fields);
  }
  return bulkOf(sites, pii, schema);
}

function bulkOf(sites: StringSite[], pii: () => Detection[], schema: () => unknown): Detection[] {
  // Six digits at least (the shortest identity number, a NINO, has six; an SSN, a card or an IBAN more): a short
  // message with fewer holds none of them.
  const lits = literalsOf(sites);
  // (Tenth round) records that need no number: several people's health or disciplinary data, or one identified
  // person's health data sent to an advertising or analytics collector (pii-special.ts).
  // (Twenty-third round) a list of people with personal contacts handed to another agent (pii-contacts.ts).
  // (exf31) people's records with a home address, a bank account or a personal mailbox handed to another agent (pii-agent-records.ts).
  const contacts = peopleContacts(sites);
  const special = [...detectSpecial(sites), ...healthToCollector(sites), ...contacts, ...(contacts.length === 0 ? agentRecords(sites) : [])];
  if (lits !== null && lits.digits < 6) return special;
  const found = pii();
  const of = (type: string) => found.filter((d) => d.type === type);
  const ssns = of("pii.ssn");
  const cards = of("pii.credit_card").filter((d) => !TEST_CARDS.has(digitsAt(sites, d)));
  const ibans = of("pii.iban");
  // (Eighth round) People's records in bulk, by structure whatever the country (pii-people.ts).
  const out: Detection[] = detectPeople(sites, (d) => TEST_CARDS.has(d));
  // (Tenth round) a contact export's preview, and people's home coordinates (pii-special.ts, pii-location.ts).
  out.push(...special, ...contactExport(sites), ...homeLocations(sites));
  // (Fourteenth round) people's location traces and advertising ids joined to contacts (pii-traces.ts); people whose
  // identity is the secret, named with a way to reach them (pii-protected.ts).
  out.push(...detectTraces(sites), ...detectProtected(sites));
  // (Fifteenth round) other families' children with their parents' phones; travel documents beside birth dates (pii-minors.ts).
  out.push(...detectMinorsAndDocuments(sites));
  // (Eleventh round) the records table's JSON form: objects with a birth date and a contact (pii-records-json.ts).
  out.push(...jsonRecords(sites));
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
  let spacedCard = false;
  const rows: Hit[] = [];
  const records: Hit[] = [];
  let companies: boolean | undefined;
  // First the numbers (each string with five digits or more); a message holding none is done.
  for (const site of sites) {
    const v = site.value;
    const digits = countDigits(v);
    if (digits < 5) continue;
    const key = keyOf(site);
    if (key !== null && (ID_KEY.test(key) || namesIdentity(key) || catalogueLabel(key)) && v.length <= 40 && /^[\sA-Za-z0-9.-]+$/.test(v)) note({ site, start: 0, end: v.length, key: norm(v), strong: true });
    if (ID_HINT.test(v)) scanIds(site, note);
    // (Sixteenth round) the catalogue of identifier types, country by country (pii-catalogue.ts).
    for (const h of catalogueIds(v, () => (companies ??= namesCompany(sites.map((x) => x.value))))) note({ site, start: h.start, end: h.end, key: norm(v.slice(h.start, h.end)), strong: true });
    if (digits >= 17 && /[A-Z]{2}/.test(v) && DOB.test(v)) acronymIds(site, note);
    if (/[\u3040-\u9fff\uac00-\ud7af]/.test(v)) for (const h of cjkLabelledIds(v)) note({ site, start: h.start, end: h.end, key: norm(v.slice(h.start, h.end)), strong: true });
    if (/[A-Z]/.test(v) || v.includes(".") || v.includes("-") || v.includes("+") || v.includes("/") || digits >= 11) selfChecking(site, note);
    if (v.includes("<<") && digits >= 12 && (machineReadableZones(site, note) || mrzPairs(site, note))) dob = true;
    if (digits >= 27) bsnList(site, note);
    if (v.includes("\n") && (ID_HINT.test(v.slice(0, v.indexOf("\n"))) || catalogueHeader(v)) && tableIds(site, note)) dob = true;
    if (records.length < 64 && v.includes("\n") && RECORD_HINT.test(v.slice(0, Math.min(400, v.indexOf("\n"))))) records.push(...recordTable(site));
    if (digits >= 13) {
      CARD_ROW.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = CARD_ROW.exec(v)) !== null && rows.length < 64; ) {
        const num = /^(?:\d[ -]?){12,18}\d/.exec(m[0]) as RegExpExecArray;
        if (!TEST_CARDS.has(num[0].replace(/\D/g, ""))) rows.push({ site, start: m.index, end: m.index + num[0].length, key: num[0].replace(/\D/g, ""), strong: true });
      }
      // (Sixteenth round) a stripe's track data, or a card's number, expiry and code on lines of their own (pii-catalogue.ts).
      // Counted as cards with their details (as spacedCards below), so one's own card, or one typed into a form, passes as before.
      for (const c of cardDumps(v)) {
        if (labelledCards.length >= 64 || TEST_CARDS.has(c.digits)) continue;
        labelledCards.push({ site, start: c.start, end: c.end, key: c.digits, strong: true });
        spacedCard = true;
      }
      // (Twelfth round) a card number, its expiry and its code written one after another with spaces (`5386… 03/27
      // CVV 902`, `5389… 09/29 731`): a card as it is typed, whatever its checksum. Counted as a card with its details,
      // not as a table's row, so one person's card typed into a form (pii-form.ts) or one's own passes as before.
      for (const c of spacedCards(v)) {
        if (labelledCards.length >= 64) break;
        labelledCards.push({ site, start: c.start, end: c.end, key: c.digits, strong: true });
        spacedCard = true;
      }
      // (Eighteenth round) a number that is a whole field under a card's key (`"pan": "4716 0482 …"`), whatever its checksum, as under a card label in text.
      if (key !== null && CARD_KEY.test(key) && /^\s*[2-6](?:[ -]?\d){12,18}\s*$/.test(v) && !TEST_CARDS.has(v.replace(/\D/g, "")) && labelledCards.length < 64 && !labelledCards.some((h) => h.site === site))
        labelledCards.push({ site, start: 0, end: v.length, key: v.replace(/\D/g, ""), strong: true });
      CARD_LABELLED.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = CARD_LABELLED.exec(v)) !== null && labelledCards.length < 64; ) {
        const num = m[1] as string;
        const digits = num.replace(/\D/g, "");
        if (TEST_CARDS.has(digits) || digits.length < 13 || !/^[2-6]/.test(digits)) continue;
        const end = m.index + m[0].length;
        // (Sixteenth round) the label's digits may run on into the expiry (`card 4439… 09/28`): a card already read there is the one.
        if (labelledCards.some((h) => h.site === site && h.start < end && end - num.length < h.end)) continue;
        labelledCards.push({ site, start: end - num.length, end, key: digits, strong: true });
      }
    }
  }
  // (Sixteenth round) a card and its expiry in cells of one array row (pii-catalogue.ts).
  for (const c of cardCells(sites)) {
    if (labelledCards.length >= 64 || TEST_CARDS.has(c.digits)) continue;
    labelledCards.push({ site: c.site, start: 0, end: c.site.value.length, key: c.digits, strong: true });
    spacedCard = true;
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
        CARD_DETAIL_WORDS.test(v) ||
        (key !== null && ((CVV_KEY.test(key) && /^\s*\d{3,4}\s*$/.test(v)) || (EXPIRY_KEY.test(key) && EXPIRY_VALUE.test(v))));
    if (dob && cardDetails) break;
  }
  if (spacedCard) cardDetails = true;
  // (Fifteenth round) One number read twice as overlapping spans (a NIR with and without its key) is one number.
  const idList = [...ids.values()].filter((h, _i, all) => !all.some((o) => o !== h && o.site === h.site && o.start <= h.start && h.end <= o.end && o.end - o.start > h.end - h.start));
  const strongIds = idList.filter((h) => h.strong);
  const asDetections = (hs: Hit[]) => hs.map((h) => ({ path: h.site.path, start: h.start, end: h.end }));

  // (Seventh round) A number that is an identity number is not also its own payment card (thirteen digits may pass both checks).
  const samePlace = (c: Detection, h: Hit) => c.start === h.start && c.end === h.end && JSON.stringify(c.path) === JSON.stringify(h.site.path);
  const cardsApart = cards.filter((c) => !idList.some((h) => samePlace(c, h)));
  const anyCard = cardsApart.length > 0 || rows.length > 0 || (labelledCards.length > 0 && cardDetails);
  // One person's identity given in the first person ("apply for my visa: passport …, born …") is the user's own, sent
  // to a service they chose: not bulk (sixth round). Two numbers, a card, or a third person's record still count.
  const ownOnly = idList.length === 1 && !anyCard && firstPerson((idList[0] as Hit).site.value.slice(0, 4096).replace(MY_NUMBER, ""));
  // (Ninth round) One person's record typed into one web form (a booking, a tax return, a checkout): pii-form.ts.
  // (Twelfth round) the people's check finds a card with its expiry and code in an A2A data part's one object too
  // (the parts are a list): that finding is the same card, not another record.
  const formCards = cardHits(sites, cardsApart, labelledCards);
  const sameCard = (d: Detection) => d.type === "pii_bulk.payment_card" && formCards.some((h) => h.site.path === d.path && h.start <= d.start && d.end <= h.end);
  // (Thirteenth round) One card, named as the writer's own (`pay … with my card 4398…, exp 07/29, CVC 118`), and
  // nothing else: the user paying, as ownOnly above is the user's own identity. "My customer's card", two cards, a
  // card row or anyone's identity number still count.
  if (idList.length === 0 && rows.length === 0 && ibans.length < 3 && formCards.length === 1 && out.every(sameCard) && (OWN_CARD.test((formCards[0] as Hit).site.value.slice(0, 4096)) || selfPurchase((formCards[0] as Hit).site.value.slice(0, 4096)))) return [];
  if (out.every(sameCard) && ibans.length < 3 && rows.length === 0 && oneFormRecord(sites, idList, formCards, DOB_KEY, schema, (k) => ID_KEY.test(k) || namesIdentity(k) || CARD_KEY.test(k))) return [];
  // (Fourteenth round) One person's number in the booking or the clinical order it belongs to: pii-own-record.ts.
  const ownRecord = idList.length === 1 && !anyCard && ownTransaction(sites, (idList[0] as Hit).site, idList.length, cardsApart.length + labelledCards.length);
  // (Fifteenth round) One number (read once or as overlapping spans: a NIR with and without its key) and no card, to a
  // call whose every address is a government's (pii-own-use.ts).
  const first = idList[0];
  const oneNumber = first !== undefined && idList.every((h) => h.site === first.site && h.start < first.end && first.start < h.end);
  if (oneNumber && !anyCard && toGovernment(sites)) {
    // One's own number to the authority's service: not bulk.
  } else if (idList.length > 0 && (dob || anyCard) && !ownOnly && !ownRecord) add("pii_bulk.identity", asDetections(idList));
  // (Eleventh round) A card (its checksum holding) with its holder's birth date (a benefits card, a bank card in a client's record): what
  // takes over an account as a card's CVV does; one's own, in the first person, is not.
  else if (dob && idList.length === 0 && rows.length === 0) {
    const held = cardHits(sites, cardsApart, labelledCards).filter((h) => luhn(h.key === "" ? h.site.value.slice(h.start, h.end).replace(/\D/g, "") : h.key) && DOB.test(h.site.value) && !firstPerson(h.site.value.slice(0, 4096)));
    if (held.length > 0) add("pii_bulk.identity", asDetections(held));
  }
  // (Twenty-first round) Two numbers of different kinds in two fields of one record: one person's documents (pii-own-record.ts).
  else if (strongIds.length >= 1 && idList.length >= 2 && !oneRecordDocuments(sites, idList)) add("pii_bulk.id_list", asDetections(idList));
  else if (idList.length >= 3) add("pii_bulk.ssn_list", asDetections(idList));

  if (rows.length > 0) add("pii_bulk.payment_card", asDetections(rows));
  if (cardDetails && (cards.length > 0 || labelledCards.length > 0)) {
    add("pii_bulk.payment_card", cards);
    add("pii_bulk.payment_card", asDetections(labelledCards.filter((h) => !cards.some((c) => c.path === h.site.path && c.start <= h.start && h.end <= c.end))));
  } else if (rows.length === 0 && cards.length >= 3) add("pii_bulk.card_list", cards);
  if (ibans.length >= 3) add("pii_bulk.iban_list", ibans);
  // (Twenty-fourth round) `national_ids` names what no other check finds: beside another finding it adds nothing.
  if (out.some((d) => d.type !== "pii_bulk.national_ids") && out.some((d) => d.type === "pii_bulk.national_ids")) return dedupe(out.filter((d) => d.type !== "pii_bulk.national_ids"));
  return dedupe(out);
}

/** The cards found, one per number, with the string each is in. */
function cardHits(sites: StringSite[], cards: Detection[], labelled: Hit[]): Hit[] {
  const out = new Map<string, Hit>();
  for (const d of cards) {
    const site = sites.find((s) => s.path === d.path);
    if (site) out.set(site.value.slice(d.start, d.end).replace(/\D/g, ""), { site, start: d.start, end: d.end, key: "", strong: true });
  }
  for (const h of labelled) if (!out.has(h.key)) out.set(h.key, h);
  return [...out.values()];
}


/** Words without one of which no identity label can be in a string (a cheap test before the labels' alternation). */
const ID_HINT = /svnr|sv-?n(?:umme)?r|sozialvers|taj|cnic|nid|rodn|birth number|dula|cccd|nin|tfn|tax file|rut|rrn|resident reg|kimlik|id number|ssn|social|sin|pass|mrn|medical|patient|insurance|versicherten|medicare|pnr|personal identity|henkil|hetu|f[øo]dsels|cpr|rijksregister|isikukood|asmens|national|insurance|nino|ni number|id.?card|identity|dni|nie|nif|cpf|aadha|bsn|burger|pesel|personnummer|insee|s[ée]curit|steuer|personalausweis|reisepass|tax|itin|licen[cs]e|codice|curp|rfc|hkid|nric|my.?number|nhs|chi |nir|s[ée]cu/i;

/*
 * (Eleventh round) A number of nine digits or more right after an acronym (`PCN 1657 8840 7558 7243`, `UMID 0028-…`),
 * in a string that also holds a labelled birth date (`DOB 1991-04-08`): a person's record with its identity number,
 * whatever the country calls it. Acronyms of things (a phone, an order, an invoice, a product, a parcel, a vehicle, a
 * device, a company) are not; nor are the birth date's own digits.
 */
const ACRONYM_ID = /(?<![\p{L}\p{N}])([A-Z]{2,5})(?:[ \t]{1,2}(?:no\.?|nr\.?|#))?[ \t]{0,2}[:#]?[ \t]{0,2}(\d(?:[ -]?\d){8,18})(?![\d])/gu;
const THING_ACRONYMS = new Set([
  "TEL", "PH", "MOB", "FAX", "SMS", "REF", "INV", "PO", "SO", "SKU", "EAN", "UPC", "ISBN", "ISSN", "IMEI", "ICCID", "IMSI", "MAC", "VIN", "ORD",
  "TXN", "TX", "UTC", "GMT", "CET", "ASIN", "GTIN", "BIC", "ABN", "ACN", "VAT", "EIN", "CRN", "DUNS", "LEI", "PR", "CVE", "AWB", "BOL", "HAWB",
  "DOB", "DOD", "ETA", "ETD", "OTP", "PIN", "ATM", "API", "URL", "IP", "GPS", "HTTP", "TCP", "UDP", "RMA", "CASE", "TKT", "INC", "CHG", "REQ",
  "KB", "MB", "GB", "TB", "USD", "EUR", "GBP", "JPY", "AUD", "CAD", "CHF", "INR", "PHP", "NZD", "ZAR", "BRL", "MXN", "SEK", "NOK", "DKK", "PLN",
]);
function acronymIds(site: StringSite, note: (h: Hit) => void): void {
  const v = site.value.length > 4096 ? site.value.slice(0, 4096) : site.value;
  if (firstPerson(v)) return;
  ACRONYM_ID.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = ACRONYM_ID.exec(v)) !== null && n < 16; n++) {
    const num = m[2] as string;
    const digits = num.replace(/\D/g, "");
    if (THING_ACRONYMS.has(m[1] as string) || digits.length < 9 || digits.length > 19 || /^(\d)\1+$/.test(digits)) continue;
    const end = m.index + m[0].length;
    note({ site, start: end - num.length, end, key: digits, strong: true });
  }
}

/** (Sixteenth round) Japan's "My Number" is the card's name, not the writer speaking. */
const MY_NUMBER = /\bmy ?number\b/gi;

const TRAILING_WORDS = /(?: [A-Za-z]{2,})+$/;

/** Named identity numbers in one string. */
function scanIds(site: StringSite, note: (h: Hit) => void): void {
  const v = site.value;
  LABELLED_ID.lastIndex = 0;
  let count = 0;
  for (let m: RegExpExecArray | null; (m = LABELLED_ID.exec(v)) !== null && count < 64; ) {
    // (Twelfth round) the label's pattern reads letters in any case, so a number can run on into the next word
    // ("CPF 919.978.848-95 para"): words of letters after a space are not the number's.
    const whole = m[1] as string;
    const num = whole.replace(TRAILING_WORDS, "");
    const cut = whole.length - num.length;
    const compact = norm(num);
    // A number: five digits or more, six to twenty characters; not a date, a year range or a phone number.
    if (countDigits(compact) < 5 || compact.length < 6 || compact.length > 20 || /^\d{4}-\d{2}-\d{2}$/.test(num) || /^\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(num)) continue;
    const end = m.index + m[0].length - cut;
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
  // (Fifth round) personal numbers that carry a birth date and a check: Swedish personnummer, Finnish HETU, Norwegian
  // fødselsnummer, Polish PESEL, Belgian national register number, Chinese resident identity number.
  if (v.includes("-") || v.includes("+")) self(PERSONNUMMER, (m) => personnummerValid(m[1] as string, m[2] as string));
  if (/[-+A-Y]/.test(v)) self(HETU, (m) => hetuValid(m[0]));
  // (Tenth round) the Belgian number unformatted too (a birth date, then mod 97), as a sheet's cell holds it.
  self(ELEVEN_DIGITS, (m) => fodselsnummerValid(m[0]) || peselValid(m[0]) || kimlikValid(m[0]) || belgianRrn(m[0]));
  if (v.includes(".")) self(BELGIAN_RRN, (m) => belgianValid(m[0]));
  self(CHINESE_ID, (m) => chineseIdValid(m[0]));
  // (Sixth round) more national numbers that check themselves: India's Aadhaar (Verhoeff, printed in fours),
  // Singapore's NRIC/FIN (a check letter), Chile's RUT (mod 11, `12.345.678-5`), Turkey's TC kimlik (two checks),
  // Korea's resident registration number (a birth date and mod 11). A checked number in a common shape with a weak
  // check (Australia's TFN: nine digits in threes, like a phone number) counts only under its label.
  self(AADHAAR, (m) => verhoeff(m[0].replace(/\D/g, "")));
  if (/[STFGM]\d/.test(v)) self(NRIC, (m) => nricValid(m[0]));
  if (v.includes(".") && v.includes("-")) self(RUT, (m) => rutValid(m[1] as string, m[2] as string));
  if (v.includes("-")) self(KOREAN_RRN, (m) => koreanValid(m[0]));
  // (Seventh round) Two structures rather than more countries: thirteen digits that open with a birth date (YYMMDD)
  // and close with a status digit (0 or 1), an 8 or 9 and a Luhn check (South Africa's identity number's layout);
  // and thirteen digits written in dotted groups that pass the GS1 check (Switzerland's AHV/AVS number is written so;
  // a product's barcode is not dotted). Each counts as a self-checking identity number, so a list of them is an id_list.
  self(DATED_LUHN, (m) => validDate(2000, Number(m[0].slice(2, 4)), Number(m[0].slice(4, 6))) && /^[01][89]$/.test(m[0].slice(10, 12)) && luhn(m[0]));
  if (v.includes(".")) self(DOTTED_GS1, (m) => gs1Valid(m[0].replace(/\./g, "")));
  // (Ninth round) shapes distinctive enough to count alone: a Czech or Slovak birth number with its slash (a date and
  // a mod-11 check), a US ITIN (9XX, a group number ITINs alone use, four digits). (A Pakistani CNIC's 5-7-1 shape is
  // a part number's too: it counts under its name, `cnic`, only.)
  if (v.includes("/")) self(RODNE_CISLO, (m) => rodneCislo(m[0].replace("/", "")));
  if (v.includes("-")) self(ITIN, () => true);
}

const RODNE_CISLO = /(?<![\d/.-])\d{6}\/\d{4}(?![\d/.-])/g;
const ITIN = /(?<![\d-])9\d{2}-(?:5\d|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])-\d{4}(?![\d-])/g;

const DATED_LUHN = /(?<![\d.-])\d{13}(?![\d.-])/g;
const DOTTED_GS1 = /(?<![\d.])\d{3}\.\d{4}\.\d{4}\.\d{2}(?![\d.])/g;

/** The GS1 (EAN-13) check digit: weights 1 and 3 from the left, the total a multiple of ten. */
function gs1Valid(d: string): boolean {
  if (d.length !== 13 || /^(\d)\1+$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += (d.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

// (Not the first twelve digits of a card printed in fours: nothing in fours before or after.)
const AADHAAR = /(?<![\d-]|\d[ -])[2-9]\d{3}[ -]\d{4}[ -]\d{4}(?![\d-]|[ -]\d)/g;
const NRIC = /(?<![A-Za-z0-9])[STFGM]\d{7}[A-Z](?![A-Za-z0-9])/g;
const RUT = /(?<![\d.])(\d{1,2}\.\d{3}\.\d{3})-([\dkK])(?![\dA-Za-z])/g;
const KOREAN_RRN = /(?<![\d-])\d{6}-[1-8]\d{6}(?![\d-])/g;

/** Aadhaar's check: Verhoeff's, and not one digit repeated. */
function verhoeff(d: string): boolean {
  return !/^(\d)\1+$/.test(d) && verhoeffValid(d);
}

/** Singapore NRIC/FIN: weights 2,7,6,5,4,3,2 (plus 4 for T and G), the remainder mod 11 names the letter. */
function nricValid(t: string): boolean {
  const w = [2, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += (t.charCodeAt(i + 1) - 48) * (w[i] as number);
  const p = t[0] as string;
  if (p === "T" || p === "G") sum += 4;
  if (p === "M") sum += 3;
  const r = sum % 11;
  const letters = p === "S" || p === "T" ? "JZIHGFEDCBA" : p === "M" ? "KLJNPQRTUWX" : "XWUTRQPNMLK";
  return letters[r] === t[8];
}

/** Chilean RUT/RUN: weights 2..7 from the right, 11 minus the sum mod 11 (10 is K, 11 is 0). */
function rutValid(body: string, dv: string): boolean {
  const d = body.replace(/\D/g, "");
  let sum = 0;
  for (let i = 0; i < d.length; i++) sum += (d.charCodeAt(d.length - 1 - i) - 48) * (2 + (i % 6));
  const r = 11 - (sum % 11);
  const want = r === 11 ? "0" : r === 10 ? "K" : String(r);
  return want === dv.toUpperCase() && Number(d) >= 1000000;
}

/** Turkish TC kimlik number: no leading zero, the tenth and eleventh digits checks of the ones before. */
function kimlikValid(t: string): boolean {
  const d = [...t].map((c) => c.charCodeAt(0) - 48);
  if (d[0] === 0) return false;
  const odd = (d[0] as number) + (d[2] as number) + (d[4] as number) + (d[6] as number) + (d[8] as number);
  const even = (d[1] as number) + (d[3] as number) + (d[5] as number) + (d[7] as number);
  const d10 = (((odd * 7 - even) % 10) + 10) % 10;
  const d11 = d.slice(0, 10).reduce((a, x) => a + x, 0) % 10;
  return d10 === d[9] && d11 === d[10] && !/^(\d)\1+$/.test(t);
}

/** Korean resident registration number YYMMDD-SNNNNNC: a date and a mod-11 check. */
function koreanValid(t: string): boolean {
  const d = t.replace("-", "");
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (d.charCodeAt(i) - 48) * (w[i] as number);
  return (11 - (sum % 11)) % 10 === d.charCodeAt(12) - 48 && validDate(2000, Number(d.slice(2, 4)), Number(d.slice(4, 6)));
}

// (The six-digit date only: `20260115-0042` is as often a build or a backup's name.)
const PERSONNUMMER = /(?<![\d-])(\d{6})[-+](\d{4})(?![\d-])/g;
const HETU = /(?<![\dA-Za-z-])\d{6}[-+A-FU-Y]\d{3}[0-9A-FHJ-NPR-Y](?![\dA-Za-z-])/g;
const ELEVEN_DIGITS = /(?<![\d.-])\d{11}(?![\d-]|\.\d)/g;
const BELGIAN_RRN = /(?<![\d.-])\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}(?![\d.-])/g;
const CHINESE_ID = /(?<![\dA-Za-z])[1-9]\d{5}(?:19|20)\d{9}[\dXx](?![\dA-Za-z])/g;

/** Swedish personnummer (YYMMDD-NNNC, coordination numbers add 60 to the day): a date and a Luhn check on ten digits. */
function personnummerValid(date: string, rest: string): boolean {
  const ten = date.slice(-6) + rest;
  const m = Number(ten.slice(2, 4));
  const d = Number(ten.slice(4, 6)) % 60;
  return validDate(2000, m, d) && luhn(ten) && !/^(\d)\1+$/.test(ten);
}

/** Finnish HETU: DDMMYY, the century sign, three digits and a check character (the nine digits modulo 31). */
function hetuValid(t: string): boolean {
  const n = Number(t.slice(0, 6) + t.slice(7, 10));
  return validDate(2000, Number(t.slice(2, 4)), Number(t.slice(0, 2))) && "0123456789ABCDEFHJKLMNPRSTUVWXY"[n % 31] === t[10];
}

/** Norwegian fødselsnummer: DDMMYY (D-numbers add 40 to the day), three digits and two mod-11 checks. */
function fodselsnummerValid(t: string): boolean {
  const d = [...t].map((c) => c.charCodeAt(0) - 48);
  const k = (w: number[]) => {
    const r = 11 - (w.reduce((sum, x, i) => sum + x * (d[i] as number), 0) % 11);
    return r === 11 ? 0 : r;
  };
  const k1 = k([3, 7, 6, 1, 8, 9, 4, 5, 2]);
  const k2 = k([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
  const day = Number(t.slice(0, 2)) % 40;
  return k1 === d[9] && k2 === d[10] && validDate(2000, Number(t.slice(2, 4)), day) && !/^(\d)\1+$/.test(t);
}

/** Polish PESEL: YYMMDD (the month carries the century), four digits and a weighted check. */
function peselValid(t: string): boolean {
  const d = [...t].map((c) => c.charCodeAt(0) - 48);
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = w.reduce((acc, x, i) => acc + x * (d[i] as number), 0);
  return (10 - (sum % 10)) % 10 === d[10] && (Number(t.slice(2, 4)) <= 12 || Number(t.slice(2, 4)) > 20) && Number(t.slice(2, 4)) <= 32 && validDate(2000, Number(t.slice(2, 4)) % 20, Number(t.slice(4, 6))) && !/^(\d)\1+$/.test(t);
}

/** Belgian national register number YY.MM.DD-NNN.CC: the check is 97 minus the nine digits modulo 97 (2 prefixed after 2000). */
function belgianValid(t: string): boolean {
  const d = t.replace(/\D/g, "");
  const body = BigInt(d.slice(0, 9));
  const check = Number(d.slice(9));
  return 97 - Number(body % 97n) === check || 97 - Number((2000000000n + body) % 97n) === check;
}

/** Chinese resident identity number: region, YYYYMMDD, sequence, and an ISO 7064 MOD 11-2 check character. */
function chineseIdValid(t: string): boolean {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (t.charCodeAt(i) - 48) * (w[i] as number);
  return "10X98765432"[sum % 11] === t[17]?.toUpperCase() && validDate(Number(t.slice(6, 10)), Number(t.slice(10, 12)), Number(t.slice(12, 14)));
}

/** Travel documents' machine-readable zones: a passport's second line (TD3, 44 characters), an identity card's (TD1, 30). */
const MRZ_TD3 = /(?<![A-Z0-9<])([A-Z0-9<]{9})(\d)[A-Z<]{3}(\d{6})(\d)[MFX<](\d{6})(\d)[A-Z0-9<]{14}[\d<]\d(?![A-Z0-9<])/g;
const MRZ_TD1 = /(?<![A-Z0-9<])(\d{6})(\d)[MFX<](\d{6})(\d)[A-Z<]{3}[A-Z0-9<]{11}\d(?![A-Z0-9<])/g;

/** ICAO 9303's published specimen documents (Anna Maria Eriksson's passport and identity card): documentation, nobody's. */
const MRZ_SPECIMENS = new Set(["L898902C3", "D23145890"]);

/** ICAO 9303's check digit: weights 7, 3, 1 over digits, letters (A = 10) and fillers (< = 0). */
function mrzCheck(field: string, digit: string): boolean {
  const w = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
    sum += v * (w[i % 3] as number);
  }
  return sum % 10 === Number(digit);
}

/**
 * Machine-readable zones whose check digits hold: each is a travel document's number with its holder's birth date
 * (so one is already an identity, as a number with a date of birth is). Returns whether any was found.
 */
function machineReadableZones(site: StringSite, note: (h: Hit) => void): boolean {
  const v = site.value;
  let any = false;
  MRZ_TD3.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = MRZ_TD3.exec(v)) !== null && n < 64; n++) {
    if (!MRZ_SPECIMENS.has(m[1] as string) && mrzCheck(m[1] as string, m[2] as string) && mrzCheck(m[3] as string, m[4] as string) && mrzCheck(m[5] as string, m[6] as string)) {
      note({ site, start: m.index, end: m.index + m[0].length, key: m[0], strong: true });
      any = true;
    }
  }
  MRZ_TD1.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = MRZ_TD1.exec(v)) !== null && n < 64; n++) {
    if (mrzCheck(m[1] as string, m[2] as string) && mrzCheck(m[3] as string, m[4] as string)) {
      note({ site, start: m.index, end: m.index + m[0].length, key: m[0], strong: true });
      any = true;
    }
  }
  return any;
}

/**
 * Dutch BSNs (nine digits passing the 11-test): one in eleven random numbers passes, so only a list counts — three or
 * more passing, and most of the string's nine-digit numbers.
 */
function bsnList(site: StringSite, note: (h: Hit) => void): void {
  const v = site.value;
  const re = /(?<![\d.-])\d{9}(?![\d.-])/g;
  const pass: { start: number; end: number; key: string }[] = [];
  let total = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(v)) !== null && total < 256; total++) {
    const d = m[0];
    let sum = 0;
    for (let i = 0; i < 8; i++) sum += (d.charCodeAt(i) - 48) * (9 - i);
    sum -= d.charCodeAt(8) - 48;
    if (sum % 11 === 0 && sum > 0 && !/^(\d)\1+$/.test(d)) pass.push({ start: m.index, end: m.index + 9, key: d });
  }
  if (pass.length >= 3 && pass.length * 4 >= total * 3) for (const p of pass) note({ site, start: p.start, end: p.end, key: p.key, strong: true });
}

const ID_HEADER = new RegExp(String.raw`^\s*["']?${ID_LABEL}["']?\s*$`, "i");
const DOB_HEADER = /^\s*["']?(?:dob|d\.o\.b\.?|date[ _]of[ _]birth|birth[ _]?date|birthday|born|geburtsdatum|geb(?:\.|urts)?[ _]?datum|geboren|fecha[ _]de[ _]nacimiento|fecha[ _]nac(?:imiento)?|f[ _]nac|date[ _]de[ _]naissance|date[ _]naiss(?:ance)?|n[ée]e?[ _]le|data[ _]di[ _]nascita|data[ _]de[ _]nascimento|data[ _]nasc(?:imento)?|geboortedatum|geb[ _]datum|f[öo]delsedatum|f[øo]dselsdato|f[øo]dt|syntym[äa]aika|syntym[äa]p[äa]iv[äa]|data[ _]urodzenia|do[ğg]um[ _]tarihi|datum[ _]rođenja|datum[ _]narozen[íi])["']?\s*$/i;

/**
 * A table whose header names an identity column ("name,passport,dob", "nombre;dni"): every row's cell in it is an
 * identity number (five digits or more), and a birth-date column makes each row an identity. At most 256 rows.
 */
/** Whether a text's first line (a header of 400 characters at most) names a catalogue label as a column. */
function catalogueHeader(v: string): boolean {
  const end = v.indexOf("\n");
  if (end < 0 || end > 400) return false;
  return v.slice(0, end).split(/[,;\t|]/).some((c) => catalogueLabel(c));
}

function tableIds(site: StringSite, note: (h: Hit) => void): boolean {
  const v = site.value;
  const firstEnd = v.indexOf("\n");
  if (firstEnd < 0 || firstEnd > 400) return false;
  const header = v.slice(0, firstEnd);
  const sep = [",", ";", "\t", "|"].find((c) => header.includes(c));
  if (sep === undefined) return false;
  const cols = header.split(sep);
  // (Sixteenth round) or a catalogue label (`teudat_zehut`, `adoazonosito`: pii-catalogue.ts).
  const idCol = cols.findIndex((c) => ID_HEADER.test(c) || catalogueLabel(c));
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
const RECORD_HINT = /dob|birth|born|geburt|geb\.|geboren|nacimiento|f_nac|naissance|naiss|nascita|nascimento|geboorte|f[öo]delse|f[øo]dsel|f[øo]dt|syntym|urodzenia|do[ğg]um|rođenja|narozen/i;
const CONTACT_HEADER = /^\s*["']?(?:[a-z\u00c0-\u024f]{1,16}[ _-])?(?:(?:home[ _])?address(?:[ _]?(?:line)?[ _]?1)?|street|addr|city|zip|postcode|postal[ _]?code|phone|mobile|tel|telephone|e-?mail|adresse|anschrift|stra(?:ss|ß)e|wohnort|telefon(?:nummer)?|handy|mobil(?:nummer)?|direcci[óo]n|domicilio|tel[ée]fono|m[óo]vil|celular|correo|t[ée]l[ée]phone|portable|courriel|indirizzo|cellulare|endere[çc]o|adres|telefoon|woonplaats|adress|osoite|puhelin|s[äa]hk[öo]posti|adres[ _]zamieszkania|telefon[ _]kom[óo]rkowy)(?:[ _-][a-z\u00c0-\u024f]{1,16})?["']?\s*$/i;

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
  const contactCol = cols.findIndex((c) => CONTACT_HEADER.test(c));
  const contacts = new Set<string>();
  let minors = 0;
  let at = firstEnd + 1;
  for (let row = 0; row < 256 && at < v.length; row++) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    const cells = v.slice(at, end).split(sep);
    const cell = (cells[dobCol] ?? "").replace(/^[\s"']+|[\s"'\r]+$/g, "");
    if (cells.length >= cols.length - 1 && DATE_ALONE.test(cell)) {
      if (minorBorn(cell)) minors++;
      contacts.add((cells[contactCol] ?? "").replace(/\W/g, "").toLowerCase());
      let start = at;
      for (let c = 0; c < dobCol; c++) start += (cells[c] as string).length + sep.length;
      const lead = v.indexOf(cell, start);
      out.push({ site, start: lead, end: lead + cell.length, key: cell, strong: true });
    }
    at = end + 1;
  }
  // (Tenth round) two rows shown and the rest counted (`…(212 rows)`): an export's preview.
  // (Fourteenth round) or two children of different families (both born fifteen years ago or less, each row's contact
  // its own): other people's children, where a parent's own booking for two children gives one contact.
  return out.length >= 3 || (out.length === 2 && (declaredRows(v) >= 1 || (minors === 2 && contacts.size === 2 && !contacts.has("")))) ? out : [];
}

/** (Fourteenth round) Whether a birth date (as DATE_ALONE reads it) is a child's: fifteen years ago or less. */
function minorBorn(date: string): boolean {
  const y = /(?:^|\D)((?:19|20)\d{2})(?:\D|$)/.exec(date);
  return y !== null && Number(y[1]) >= new Date().getUTCFullYear() - 15 && Number(y[1]) <= new Date().getUTCFullYear();
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
