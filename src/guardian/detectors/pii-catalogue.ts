import { luhn } from "./pii.js";
import { belgianRrn, cedulaEc, egyptNid, rodneCislo, svnrAt, tajHu, validDate, verhoeffValid } from "./pii-checks.js";

/*
 * (Sixteenth round) The catalogue of personal identifiers, one table a reader can scan: built from the public
 * catalogues of identifier types (Microsoft Purview's sensitive information types, Google Cloud DLP's infoTypes,
 * Microsoft Presidio's recognizers), country by country, each with the words it is written under and, where the
 * country defines one, its check digits or its date structure. It adds what the other PII checks did not know; the
 * numbers they already read (SSN, NINO, DNI/NIE, CPF, codice fiscale, CURP, NIR, personnummer, HETU, fødselsnummer,
 * PESEL, Belgian RRN, Chinese, Korean and Singapore ids, Aadhaar, RUT, TC kimlik, South African id, AHV, rodné číslo,
 * ITIN, MRZ; pii-bulk.ts) stay there.
 *
 * Each entry is either
 *   - `alone`: a shape distinctive enough, with its check, to name an identity number whatever it is called (a
 *     Romanian CNP: sex digit, birth date, county, mod-11 check); or
 *   - labelled: the number counts after one of its words (`Emirates ID`, `PPSN`, `EGN`, `passeport`), in its shape,
 *     its check holding where it has one.
 * The finds feed the bulk logic unchanged (pii-bulk.ts): one number with a birth date or a card, or two numbers, is
 * bulk on its way off the machine; one number alone, or one's own in the first person, is not.
 *
 * Every shape is a bounded pattern; the labels are one alternation run once per string that holds five digits.
 */

export interface CatalogueEntry {
  /** country-kind, as the catalogues name it. */
  id: string;
  /** The words it is written under (a regex source, read case-insensitively), when it needs one. */
  labels?: string;
  /** The number's shape (no flags; bounded). */
  shape: RegExp;
  /** Its check, given the letters and digits only (separators removed, upper case). */
  check?: (c: string) => boolean;
  /** Counts with no label (distinctive shape and check). */
  alone?: boolean;
  /** Fewest digits (default five: NZ's NHI has four). */
  digits?: number;
  /** A tax number companies hold too (NIP, NIT, RUC, UTR…): not counted in a string that names a company's legal form. */
  shared?: boolean;
}

const n = (s: string, i: number) => s.charCodeAt(i) - 48;
const same = (s: string) => /^(.)\1+$/.test(s);
function weighted(s: string, w: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < w.length; i++) sum += n(s, i) * (w[i] as number);
  return sum;
}

/** Romania's CNP: S YYMMDD JJ NNN C; S 1–8 sets the century; county 01–52; weights 279146358279, 10 → 1. */
function cnpRo(s: string): boolean {
  const sx = n(s, 0);
  if (sx < 1 || sx > 8) return false;
  const century = sx <= 2 ? 1900 : sx <= 4 ? 1800 : sx <= 6 ? 2000 : 1900;
  const county = n(s, 7) * 10 + n(s, 8);
  if (!validDate(century + n(s, 1) * 10 + n(s, 2), n(s, 3) * 10 + n(s, 4), n(s, 5) * 10 + n(s, 6)) || county < 1 || county > 52) return false;
  const r = weighted(s, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
  return (r === 10 ? 1 : r) === n(s, 12);
}

/** The Yugoslav JMBG / Slovenia's EMŠO: DD MM YYY RR BBB K, mod 11 with weights 765432765432. */
function jmbg(s: string): boolean {
  const yyy = n(s, 4) * 100 + n(s, 5) * 10 + n(s, 6);
  if (!validDate(yyy >= 800 ? 1000 + yyy : 2000 + yyy, n(s, 2) * 10 + n(s, 3), n(s, 0) * 10 + n(s, 1))) return false;
  const m = 11 - (weighted(s, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  return m !== 10 && (m === 11 ? 0 : m) === n(s, 12);
}

/** Estonia's isikukood / Lithuania's asmens kodas: G YYMMDD NNN C, two rounds of mod 11. */
function balticCode(s: string): boolean {
  const g = n(s, 0);
  if (g < 1 || g > 6 || !validDate(1700 + Math.ceil(g / 2) * 100 + n(s, 1) * 10 + n(s, 2), n(s, 3) * 10 + n(s, 4), n(s, 5) * 10 + n(s, 6))) return false;
  let r = weighted(s, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11;
  if (r === 10) r = weighted(s, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11 % 10;
  return r === n(s, 10);
}

/** Latvia's personas kods (DDMMYY-CNNNN, weights 1,6,3,7,9,10,5,8,4,2, (1101 − sum) mod 11), or the new 32… code. */
function personasKods(s: string): boolean {
  if (s.startsWith("32")) return true;
  if (!validDate(2000, n(s, 2) * 10 + n(s, 3), n(s, 0) * 10 + n(s, 1)) || n(s, 6) > 2) return false;
  return ((1101 - weighted(s, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2])) % 11) % 10 === n(s, 10) && (1101 - weighted(s, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2])) % 11 !== 10;
}

/** Iceland's kennitala: DDMMYY RR C K, C = 11 − (weights 3,2,7,6,5,4,3,2) mod 11, K the century (9, 0, 8). */
function kennitala(s: string): boolean {
  const day = (n(s, 0) * 10 + n(s, 1)) % 40;
  if (!validDate(2000, n(s, 2) * 10 + n(s, 3), day) || !"890".includes(s[9] as string)) return false;
  const c = 11 - (weighted(s, [3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  return c !== 10 && (c === 11 ? 0 : c) === n(s, 8);
}

/** Bulgaria's EGN: YYMMDD (month +20 before 1900, +40 from 2000), three digits, weights 2,4,8,5,10,9,7,3,6 mod 11. */
function egn(s: string): boolean {
  const m = (n(s, 2) * 10 + n(s, 3)) % 20;
  if (!validDate(2000, m, n(s, 4) * 10 + n(s, 5))) return false;
  return (weighted(s, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10 === n(s, 9);
}

/** ISO 7064 MOD 11,10 (Croatia's OIB, Germany's Steuer-ID). */
function mod1110(s: string): boolean {
  let p = 10;
  for (let i = 0; i < s.length - 1; i++) {
    let t = (n(s, i) + p) % 10;
    if (t === 0) t = 10;
    p = (t * 2) % 11;
  }
  return (11 - p) % 10 === n(s, s.length - 1);
}

/** Mod 11 with descending weights (Portugal's NIF 9..2, Poland's NIP 6,5,7,2,3,4,5,6,7, the Dutch BSN 9..2,−1). */
function nifPt(s: string): boolean {
  const r = 11 - (weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return /^[1235-9]/.test(s) && (r >= 10 ? 0 : r) === n(s, 8);
}
function nipPl(s: string): boolean {
  const r = weighted(s, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
  return r !== 10 && r === n(s, 9);
}
function bsnNl(s: string): boolean {
  return (weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) - n(s, 8)) % 11 === 0 && !same(s);
}
/** Greece's AMKA: a birth date DDMMYY and a Luhn check. */
function amka(s: string): boolean {
  return validDate(2000, n(s, 2) * 10 + n(s, 3), n(s, 0) * 10 + n(s, 1)) && luhn(s);
}
/** Greece's AFM: nine digits, weights 2^8..2^1, mod 11 mod 10. */
function afm(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += n(s, i) * 2 ** (8 - i);
  return (sum % 11) % 10 === n(s, 8) && !same(s);
}
/** Ireland's PPSN: seven digits and a check letter mod 23 (the optional ninth letter weighs 9). */
function ppsn(s: string): boolean {
  let sum = weighted(s, [8, 7, 6, 5, 4, 3, 2]);
  if (s.length === 9 && s[8] !== "W") sum += (s.charCodeAt(8) - 64) * 9;
  return "WABCDEFGHIJKLMNOPQRSTUV"[sum % 23] === s[7];
}
/** The UAE's Emirates ID: 784, the birth year, seven digits and a Luhn check. */
function emiratesId(s: string): boolean {
  const y = Number(s.slice(3, 7));
  return s.startsWith("784") && y >= 1900 && y <= 2099 && luhn(s);
}
/** Saudi national id (1…) and iqama (2…), Israel's teudat zehut: the Luhn check. */
const luhnId = (s: string) => luhn(s) && !same(s.slice(1));
/** Kuwait's civil id: century digit, YYMMDD, four digits, weights 2,1,6,3,7,9,10,5,8,4,2 → 11 − sum mod 11. */
function kuwaitCivil(s: string): boolean {
  if (!"23".includes(s[0] as string) || !validDate(2000, n(s, 3) * 10 + n(s, 4), n(s, 5) * 10 + n(s, 6))) return false;
  return 11 - (weighted(s, [2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11) === n(s, 11);
}
/** Thailand's citizen id: thirteen digits, weights 13..2, (11 − sum mod 11) mod 10. */
function thaiId(s: string): boolean {
  return n(s, 0) >= 1 && n(s, 0) <= 8 && (11 - (weighted(s, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 10 === n(s, 12);
}
const MY_STATES = /^(?:0[1-9]|1[0-6]|2[1-9]|[3-5]\d|6[0-8]|7[1-24-9]|8[2-9]|9[0-3]|9[89])$/;
/** Malaysia's MyKad: YYMMDD, a birthplace code, four digits. */
function mykad(s: string): boolean {
  return validDate(2000, n(s, 2) * 10 + n(s, 3), n(s, 4) * 10 + n(s, 5)) && MY_STATES.test(s.slice(6, 8));
}
/** Indonesia's NIK: province 11–94, regency, district, DDMMYY (day +40 for women), four digits. */
function nikId(s: string): boolean {
  const p = n(s, 0) * 10 + n(s, 1);
  return p >= 11 && p <= 94 && validDate(2000, n(s, 8) * 10 + n(s, 9), (n(s, 6) * 10 + n(s, 7)) % 40) && s.slice(12) !== "0000";
}
/** Argentina's CUIT/CUIL: type (20, 23, 24, 27 people; 30, 33, 34 companies), the DNI, mod 11 with weights 5432765432. */
function cuit(s: string): boolean {
  if (!/^(?:2[0347]|3[034])/.test(s)) return false;
  const r = 11 - (weighted(s, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  return (r === 11 ? 0 : r === 10 ? 9 : r) === n(s, 10);
}
/** Argentina's CUIL of a person (types 20, 23, 24, 27). */
const cuilPerson = (s: string) => /^2[0347]/.test(s) && cuit(s);
/** India's PAN of a person: five letters (the fourth P), four digits, a letter. */
const panPerson = (s: string) => s[3] === "P";
/** The UK's driving licence number: surname (5), decade, month (+50 for women), day, year, initials, digit, check. */
function ukDriving(s: string): boolean {
  const m = (n(s, 6) * 10 + n(s, 7)) % 50;
  return validDate(2000, m, n(s, 8) * 10 + n(s, 9)) && /^[A-Z][A-Z9]{4}$/.test(s.slice(0, 5));
}
/** The US Medicare Beneficiary Identifier: 11 characters, positions fixed to digits or letters (no S, L, O, I, B, Z). */
const MBI = /^[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d[AC-HJKMNP-RT-Y]{2}\d{2}$/;
/** Japan's My Number: twelve digits, check 11 − Σ(p·q) mod 11 (0 when the remainder is 0 or 1). */
function myNumber(s: string): boolean {
  let sum = 0;
  for (let k = 1; k <= 11; k++) sum += n(s, 11 - k) * (k <= 6 ? k + 1 : k - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === n(s, 11);
}
/** Taiwan's national id: a letter (its two-digit code), 1 or 2, eight digits; weights 1,9,8,7,6,5,4,3,2,1,1 mod 10. */
const TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO";
function taiwanId(s: string): boolean {
  const code = TW_LETTERS.indexOf(s[0] as string) + 10;
  if (code < 10 || !"12".includes(s[1] as string)) return false;
  let sum = Math.floor(code / 10) + (code % 10) * 9;
  for (let i = 1; i < 9; i++) sum += n(s, i) * (9 - i);
  return (sum + n(s, 9)) % 10 === 0;
}
/** Hong Kong's HKID: one or two letters, six digits and a check (0–9 or A), mod 11. */
function hkid(s: string): boolean {
  const t = s.length === 8 ? ` ${s}` : s;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const c = t.charCodeAt(i);
    sum += (c === 32 ? 36 : c >= 65 ? c - 55 : c - 48) * (9 - i);
  }
  const r = (11 - (sum % 11)) % 11;
  return (r === 10 ? "A" : String(r)) === t[8];
}
/** New Zealand's NHI (old AAA9999: mod 11; new AAA99AA: mod 24), letters without I and O. */
function nhi(s: string): boolean {
  const v = (c: string) => "ABCDEFGHJKLMNPQRSTUVWXYZ".indexOf(c) + 1;
  let sum = 0;
  for (let i = 0; i < 3; i++) sum += v(s[i] as string) * (7 - i);
  sum += n(s, 3) * 4 + n(s, 4) * 3;
  if (/\d$/.test(s)) {
    sum += n(s, 5) * 2;
    const c = 11 - (sum % 11);
    return c !== 10 && c % 11 === n(s, 6);
  }
  sum += v(s[5] as string) * 2;
  return "ABCDEFGHJKLMNPQRSTUVWXYZ"[23 - (sum % 24)] === s[6];
}
/** New Zealand's IRD: eight or nine digits, weights 3,2,7,6,5,4,3,2 (then 7,4,3,2,5,2,7,6), 11 − mod 11. */
function ird(s: string): boolean {
  const d = s.padStart(9, "0");
  const calc = (w: number[]) => {
    const r = weighted(d, w) % 11;
    return r === 0 ? 0 : 11 - r;
  };
  let c = calc([0, 3, 2, 7, 6, 5, 4, 3, 2]);
  if (c === 10) c = calc([0, 7, 4, 3, 2, 5, 2, 7, 6]);
  return c !== 10 && c === n(d, 8);
}
/** Australia's Medicare card: first digit 2–6, weights 1,3,7,9,1,3,7,9 mod 10 as the ninth. */
function medicareAu(s: string): boolean {
  return n(s, 0) >= 2 && n(s, 0) <= 6 && weighted(s, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === n(s, 8);
}
/** Brazil's CNS (cartão SUS): fifteen digits whose weighted sum (15..1) is a multiple of 11. */
function cns(s: string): boolean {
  return /^[1-2789]/.test(s) && weighted(s, [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
}
/** The US ABA routing number: weights 3,7,1 repeated, a multiple of ten. */
export function abaRouting(s: string): boolean {
  return s.length === 9 && /^(?:0[0-9]|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/.test(s) && weighted(s, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}
/** Poland's identity card: three letters, six digits, the first digit a check (weights 7,3,1,_,7,3,1,7,3). */
function dowodPl(s: string): boolean {
  const v = (i: number) => (i < 3 ? s.charCodeAt(i) - 55 : n(s, i));
  const w = [7, 3, 1, 0, 7, 3, 1, 7, 3];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += v(i) * (w[i] as number);
  return sum % 10 === n(s, 3);
}
/** Mexico's voter key (clave de elector): six letters, a birth date YYMMDD, the state 01–32, H or M, three digits. */
function claveElector(s: string): boolean {
  const st = n(s, 12) * 10 + n(s, 13);
  return validDate(2000, n(s, 8) * 10 + n(s, 9), n(s, 10) * 10 + n(s, 11)) && st >= 1 && st <= 32;
}
/** Quebec's health card (RAMQ): four letters, YY, MM (+50 for women), DD, two digits. */
function ramq(s: string): boolean {
  return validDate(2000, (n(s, 6) * 10 + n(s, 7)) % 50, n(s, 8) * 10 + n(s, 9));
}
/** Ukraine's taxpayer number (РНОКПП): ten digits, the first five the birth date as days, weights −1,5,7,9,4,6,10,5,7 mod 11 mod 10. */
function rnokpp(s: string): boolean {
  const r = weighted(s, [-1, 5, 7, 9, 4, 6, 10, 5, 7]) % 11;
  return ((r + 11) % 11) % 10 === n(s, 9) && !same(s);
}
/** Canada's SIN: nine digits, Luhn. */
const sin = (s: string) => luhn(s) && !same(s) && s[0] !== "0" && s[0] !== "8";

/** Words that name a passport, an identity card or a driving licence in the languages the other labels miss. */
const PASSPORT_WORDS = String.raw`pasaporte|passeport|passaporto|passaporte|paspoort(?:nummer)?|passnummer|pass-?nr\.?|paszport|cestovn[íi] pas|[úu]tlev[ée]l|passi|pasas|pasaport|διαβατήριο|паспорт(?: ID| громадянина України| серії)?|ID-картка|جواز(?: السفر)?|護照(?:號碼)?|护照(?:号码?)?|旅券(?:番号)?|여권(?:번호)?`;
const ID_CARD_WORDS = String.raw`carte (?:nationale )?d['’]identit[ée]|CNI|documento (?:nacional )?de identidad|carta d['’]identit[àa]|cart[ãa]o de cidad[ãa]o|bilhete de identidade|identiteitskaart|identiteitsbewijs|ID-kort|dow[óo]d(?: osobisty)?|ob[čc]ansk[ýy] pr[ůu]kaz|szem[ée]lyi(?: igazolv[áa]ny)?|osobna iskaznica|li[čc]na karta|carte de identitate|kimlik kart[ıi]|henkil[öo]kortti|удостоверение|رقم الهوية|بطاقة الهوية|الرقم القومي|身份证号码|在留カード|residence card|resident card|外国人登録`;
const DRIVING_WORDS = String.raw`driving licen[cs]e(?: number| no\.?)?|driver licen[cs]e(?: number| no\.?)?|DL ?(?:#|no\.?|number)|F[üu]hrerschein(?:nummer)?|permis de conduire|licencia de conducir|carn[eé]t? de conducir|permiso de conducir|patente di guida|carta de condu[çc][ãa]o|carteira de motorista|CNH|rijbewijs(?:nummer)?|k[öo]rkort(?:snummer)?|k[øo]rekort|ajokortti|prawo jazdy|[řr]idi[čc]sk[ýy] pr[ůu]kaz|jogos[íi]tv[áa]ny|vozačka|운전면허(?:번호)?|運転免許(?:証)?(?:番号)?|驾驶证|駕照`;

/**
 * The table. Shapes are written for the number as printed (separators optional where countries print them); `check`
 * sees the letters and digits alone.
 */
export const CATALOGUE: readonly CatalogueEntry[] = [
  // ── Europe ──
  { id: "ro-cnp", labels: "CNP|cod numeric personal", shape: /[1-8]\d{12}/, check: cnpRo, alone: true },
  { id: "si-rs-mk-ba-me-jmbg", labels: "EMŠO|EMSO|JMBG|ЈМБГ|ЕМБГ|EMBG|mati[čc]ni broj", shape: /[0-3]\d[01]\d[09]\d{8}/, check: jmbg, alone: true },
  { id: "ee-lt-personal-code", labels: "isikukood|asmens kodas|personal code", shape: /[1-6]\d{10}/, check: balticCode, alone: true },
  { id: "lv-personas-kods", labels: "personas kods|personal code", shape: /[0-3]\d[01]\d{3}-?[0-2]\d{4}|32\d{4}-?\d{5}/, check: personasKods, alone: true },
  { id: "is-kennitala", labels: "kennitala|kt\\.?", shape: /[0-7]\d[01]\d{3}-?\d{3}[890]/, check: kennitala, alone: true },
  { id: "bg-egn", labels: "EGN|ЕГН|единен граждански номер", shape: /\d{10}/, check: egn },
  { id: "hr-oib", labels: "OIB", shape: /\d{11}/, check: mod1110, shared: true },
  { id: "de-steuer-id", labels: "IdNr\\.?|Steuer-?IdNr\\.?|Identifikationsnummer|steuerliche ID", shape: /[1-9]\d ?\d{3} ?\d{3} ?\d{3}|[1-9]\d{2} ?\d{3} ?\d{3} ?\d{2}/, check: mod1110 },
  { id: "de-kvnr", labels: "KVNR|Krankenversichertennummer|Versichertennummer|Krankenkassennummer", shape: /[A-Z]\d{9}/ },
  { id: "at-svnr", labels: "SVNR|Sozialversicherungsnummer|e-card", shape: /\d{4} ?\d{6}/, check: svnrAt },
  { id: "cz-sk-rodne-cislo", labels: "rodn[ée] [čc][íi]slo|RČ", shape: /\d{6}\/?\d{4}/, check: rodneCislo },
  { id: "hu-taj", labels: "TAJ(?: sz[áa]m)?|TAJ-sz[áa]m", shape: /\d{3}[ -]?\d{3}[ -]?\d{3}/, check: tajHu },
  { id: "hu-adoazonosito", labels: "ad[óo]azonos[íi]t[óo](?: jel)?", shape: /8\d{9}/, shared: true },
  { id: "pl-nip", labels: "NIP", shape: /\d{3}-?\d{3}-?\d{2}-?\d{2}|\d{3}-\d{2}-\d{2}-\d{3}/, check: nipPl, shared: true },
  { id: "pl-dowod", labels: "dow[óo]d(?: osobisty)?|seria i numer", shape: /[A-Z]{3} ?\d{6}/, check: dowodPl },
  { id: "pt-nif", labels: "NIF|contribuinte|n\\.?º? de contribuinte", shape: /\d{3} ?\d{3} ?\d{3}/, check: nifPt, shared: true },
  { id: "pt-cc", labels: "cart[ãa]o de cidad[ãa]o|CC n\\.?º?", shape: /\d{8} ?\d ?[A-Z]{2}\d/ },
  { id: "nl-bsn", labels: "BSN|burgerservicenummer|sofinummer", shape: /\d{4}\.?\d{2}\.?\d{3}|\d{3}\.\d{3}\.\d{3}/, check: bsnNl },
  { id: "be-rrn", labels: "rijksregisternummer|num[ée]ro national|INSZ|NISS", shape: /\d{2}\.?\d{2}\.?\d{2}-?\d{3}\.?\d{2}/, check: belgianRrn },
  { id: "gr-amka", labels: "AMKA|ΑΜΚΑ", shape: /[0-3]\d[01]\d{8}/, check: amka },
  { id: "gr-afm", labels: "AFM|ΑΦΜ", shape: /\d{9}/, check: afm, shared: true },
  { id: "ie-ppsn", labels: "PPSN?|PPS (?:number|no\\.?)|personal public service(?: number)?", shape: /\d{7}[A-W][ABHW]?/, check: ppsn },
  { id: "es-nss", labels: "NSS|NUSS|n[úu]mero de (?:la )?seguridad social|n[úu]mero de afiliaci[óo]n", shape: /\d{2}[ /]?\d{8}[ /]?\d{2}/ },
  { id: "fr-spi", labels: "num[ée]ro fiscal(?: de r[ée]f[ée]rence)?|SPI", shape: /[0-3]\d ?\d{2} ?\d{3} ?\d{3} ?\d{3}/ },
  { id: "uk-utr", labels: "UTR|unique taxpayer reference", shape: /\d{5} ?\d{5}/, shared: true },
  { id: "uk-driving", shape: /[A-Z][A-Z9]{4}\d[0156]\d[0-3]\d{2}[A-Z9]{2}\d[A-Z]{2}/, check: ukDriving, alone: true },
  { id: "ua-rnokpp", labels: "РНОКПП|RNOKPP|ІПН|ИНН|INN|ідентифікаційний (?:податковий )?(?:код|номер)|реєстраційний номер облікової картки платника податків", shape: /\d{10}/, check: rnokpp },
  { id: "ec-cedula", labels: "c[ée]dula(?: de (?:identidad|ciudadan[íi]a))?", shape: /\d{9}-?\d/, check: cedulaEc },
  // ── Middle East, Africa ──
  { id: "ae-emirates-id", labels: "Emirates ID|EID|ID card", shape: /784-?\d{4}-?\d{7}-?\d/, check: emiratesId, alone: true },
  { id: "sa-national-id-iqama", labels: "iqama|muqeem|national id|هوية|الهوية|إقامة|الإقامة|رقم الإقامة|السجل المدني", shape: /[12]\d{9}/, check: luhnId },
  { id: "il-teudat-zehut", labels: "teudat zehut|ת\\.?ז\\.?|תעודת זהות|מספר זהות|Israeli ID", shape: /\d{9}|\d{8}-\d/, check: luhnId },
  { id: "kw-civil-id", labels: "civil id|civil number|الرقم المدني", shape: /[23]\d{11}/, check: kuwaitCivil },
  { id: "qa-qid", labels: "QID|Qatar ID", shape: /[23]\d{10}/ },
  { id: "eg-national-id", labels: "الرقم القومي|national id", shape: /[23]\d{13}/, check: egyptNid },
  { id: "ng-bvn", labels: "BVN|bank verification number", shape: /22\d{9}/ },
  { id: "ng-nin", labels: "NIN|national identification number", shape: /\d{11}/ },
  { id: "ng-vin", labels: "voter'?s? card|VIN|PVC", shape: /[0-9A-F]{4} ?[0-9A-F]{4} ?\d{4} ?\d{4} ?\d{3}/ },
  { id: "ke-kra-pin", labels: "KRA PIN", shape: /[AP]\d{9}[A-Z]/, shared: true },
  // ── Asia ──
  { id: "in-pan", labels: "PAN(?: card| no\\.?| number)?|permanent account number", shape: /[A-Z]{3}P[A-Z]\d{4}[A-Z]/, check: panPerson, alone: true },
  { id: "in-epic", labels: "EPIC(?: no\\.?| number)?|voter id|voter'?s? id", shape: /[A-Z]{3}\d{7}/ },
  { id: "in-aadhaar", labels: "aadhaa?r|UIDAI|आधार", shape: /[2-9]\d{3} ?\d{4} ?\d{4}/, check: verhoeffValid },
  { id: "my-mykad", labels: "MyKad|NRIC|IC(?: no\\.?| number)?|kad pengenalan", shape: /\d{6}-\d{2}-\d{4}/, check: mykad, alone: true },
  { id: "my-mykad-plain", labels: "MyKad|IC(?: no\\.?| number)?|kad pengenalan|no\\.? KP", shape: /\d{12}/, check: mykad },
  { id: "id-nik", labels: "NIK|KTP|e-KTP|nomor induk kependudukan", shape: /\d{16}/, check: nikId },
  { id: "th-citizen-id", labels: "บัตรประชาชน|เลขประจำตัวประชาชน|Thai ID|citizen id", shape: /[1-8][ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d/, check: thaiId },
  { id: "th-citizen-id-plain", shape: /[1-8]\d{12}/, check: thaiId, alone: true },
  { id: "th-citizen-id-dashed", shape: /[1-8]-\d{4}-\d{5}-\d{2}-\d/, check: thaiId, alone: true },
  { id: "ph-sss", labels: "SSS(?: no\\.?| number)?", shape: /\d{2}-?\d{7}-?\d/ },
  { id: "ph-umid-crn", labels: "UMID|CRN", shape: /\d{4}-\d{7}-\d/ },
  { id: "ph-philsys", labels: "PhilSys|PhilID|PSN", shape: /\d{4}-\d{4}-\d{4}-\d{4}/ },
  { id: "ph-philhealth", labels: "PhilHealth(?: no\\.?| number| ID)?|PIN", shape: /\d{2}-\d{9}-\d/ },
  { id: "ph-tin", labels: "TIN", shape: /\d{3}-\d{3}-\d{3}(?:-\d{3,5})?/, shared: true },
  { id: "jp-my-number", labels: "my ?number|個人番号|マイナンバー", shape: /\d{4} ?\d{4} ?\d{4}/, check: myNumber },
  { id: "jp-residence-card", labels: "在留カード(?:番号)?|residence card(?: number| no\\.?)?|zairyu card", shape: /[A-Z]{2}\d{8}[A-Z]{2}/ },
  { id: "jp-driving", labels: "運転免許(?:証)?(?:番号)?", shape: /\d{12}/ },
  { id: "kr-driving", labels: "운전면허(?:번호)?|Korean driver'?s? licen[cs]e", shape: /\d{2}-\d{2}-\d{6}-\d{2}/ },
  { id: "tw-national-id", labels: "身分證(?:字號|號碼)?|national id|Taiwan ID|ROC ID|統一編號", shape: /[A-Z][12]\d{8}/, check: taiwanId },
  { id: "tw-arc", labels: "居留證|ARC(?: no\\.?| number)?|UI ?No\\.?", shape: /[A-Z][A-D89]\d{8}/ },
  { id: "hk-hkid", labels: "HKID|香港身份證|identity card", shape: /[A-Z]{1,2}\d{6} ?\(?[0-9A]\)?/, check: hkid },
  { id: "cn-passport", labels: "中国护照|护照号码?", shape: /[EGDS]\d{8}|E[A-Z]\d{7}/ },
  // ── Oceania, the Americas ──
  { id: "au-medicare", labels: "medicare(?: card)?(?: number| no\\.?)?", shape: /[2-6]\d{3} ?\d{5} ?\d(?:[ /-]?\d)?/, check: (s) => medicareAu(s) },
  { id: "au-crn", labels: "Centrelink(?: CRN)?|customer reference number", shape: /\d{3} ?\d{3} ?\d{3}[A-Z]/ },
  { id: "nz-ird", labels: "IRD(?: number| no\\.?)?|inland revenue number", shape: /\d{2,3}-?\d{3}-?\d{3}/, check: ird },
  { id: "nz-nhi", labels: "NHI(?: number| no\\.?)?|national health index", shape: /[A-HJ-NP-Z]{3}\d{4}|[A-HJ-NP-Z]{3}\d{2}[A-HJ-NP-Z]{2}/, check: nhi, digits: 2 },
  { id: "ca-sin", labels: "SIN|NAS|num[ée]ro d['’]assurance sociale|social insurance(?: number)?", shape: /\d{3}[ -]?\d{3}[ -]?\d{3}/, check: sin },
  { id: "ca-health", labels: "OHIP(?: number| no\\.?)?|health card(?: number| no\\.?)?|PHN|personal health number|care card|carte d['’]assurance maladie|RAMQ", shape: /\d{4}[ -]?\d{3}[ -]?\d{3}(?:[ -]?[A-Z]{2})?|\d{4} ?\d{3} ?\d{3}|9\d{9}/ },
  { id: "ca-ramq", labels: "RAMQ|carte d['’]assurance maladie|health card(?: number| no\\.?)?", shape: /[A-Z]{4} ?\d{4} ?\d{4}/, check: ramq },
  { id: "us-mbi", labels: "MBI|medicare(?: beneficiary)?(?: id| number| no\\.?)?", shape: /[1-9][A-Z0-9]{2}\d-?[A-Z0-9]{3}-?[A-Z0-9]{4}/, check: (s) => MBI.test(s) },
  { id: "us-mbi-dashed", shape: /[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-[AC-HJKMNP-RT-Y]{2}\d{2}/, check: (s) => MBI.test(s), alone: true },
  { id: "us-medicaid", labels: "medicaid(?: id| number| no\\.?)?", shape: /[A-Z]{0,2}\d{8,12}[A-Z]?/ },
  { id: "ar-cuit-cuil", labels: "CUIT|CUIL|CDI", shape: /\d{2}-?\d{8}-?\d/, check: cuit, shared: true },
  { id: "ar-cuil-person", shape: /2[0347]-\d{8}-\d/, check: cuilPerson, alone: true },
  { id: "br-cns", labels: "CNS|cart[ãa]o (?:nacional de sa[úu]de|SUS)", shape: /[1-2789]\d{2} ?\d{4} ?\d{4} ?\d{4}/, check: cns },
  { id: "br-rg", labels: "RG", shape: /\d{1,2}\.?\d{3}\.?\d{3}-?[\dX]/ },
  { id: "mx-clave-elector", labels: "clave de elector|INE", shape: /[A-Z]{6}\d{8}[HM]\d{3}/, check: claveElector, alone: true },
  { id: "co-nit-cedula", labels: "NIT|C\\.C\\.?", shape: /\d{1,3}(?:\.\d{3}){2}(?:-\d)?|\d{6,10}(?:-\d)?/, shared: true },
  { id: "co-cedula-cc", labels: "CC", shape: /\d{1,3}(?:\.\d{3}){2}/ },
  { id: "pe-ruc", labels: "RUC", shape: /(?:10|15|17)\d{9}/, shared: true },
  // ── Documents in any country ──
  { id: "any-passport", labels: PASSPORT_WORDS, shape: /[A-Z0-9]{6,12}/ },
  { id: "any-id-card", labels: ID_CARD_WORDS, shape: /[A-Z]{1,3}[ -]\d{5,12}|[A-Z0-9]{6,18}/ },
  { id: "any-driving-licence", labels: DRIVING_WORDS, shape: /\d{2}-\d{2}-\d{6}-\d{2}|[A-Z0-9]{6,18}/ },
];

// ── The scan ──

/** A catalogue entry's shape, anchored where the label's separators end (sticky), not running on into letters or digits. */
const STICKY = CATALOGUE.map((e) => new RegExp(`(?:${e.shape.source})(?![A-Za-z0-9])`, "y"));
/** The same shape searched alone, with edges. */
const ALONE = CATALOGUE.map((e) => (e.alone ? new RegExp(`(?<![A-Za-z0-9-])(?:${e.shape.source})(?![A-Za-z0-9]|-\\d)`, "g") : null));
const LABEL_TESTS = CATALOGUE.map((e) => (e.labels ? new RegExp(`^(?:${e.labels})$`, "iu") : null));
/** Every label, one alternation; after it, separators and an optional "no."/"number". */
const LABELS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${CATALOGUE.filter((e) => e.labels).map((e) => e.labels).join("|")})(?![\p{L}\p{N}])["'”»]?[ \t:#=.,"'“«()\[\]：（-]{0,5}(?:(?:no|nr|n°|nº|number|num[ée]ro|número|numer|#)\.?[ \t:#=.-]{0,4})?`,
  "giu",
);
/** Short labels that are common words in capitals only (`PIN`, `VIN`, `INE`, `RG`, `CC`…): they must be written in capitals. */
const CAPS_ONLY = /^(?:PIN|VIN|PVC|INE|RG|CC|C\.C\.?|CRN|NIT|TIN|NIN|PSN|SPI|CDI|EID|NAS|SIN|RUC|KT\.?|NSS|NUSS|CNI|ARC|PAN|IC|NIF|CNS|CNP|OIB|NIP|UTR|PHN|QID|MBI|AFM|NHI|IRD)$/i;

/** A company's legal form anywhere in the string: its tax numbers are a business's (an invoice, a supplier list). */
const COMPANY_FORM = /(?<![\p{L}])(?:ltd|limited|llc|inc|corp|gmbh|sas|s\.a\.s\.?|sarl|srl|s\.r\.l\.?|s\.p\.a\.?|s\.a\.|b\.v\.|n\.v\.|plc|d\.o\.o\.?|s\.r\.o\.?|kft|pty|pvt|llp|oü|uab|sia|sp\. ?z ?o\.o\.?|ltda|e\.i\.r\.l\.?|s\.a\.c\.?|lda|bhd|tbk)(?![\p{L}])/iu;

/** Labels too common as field names (a vehicle's `vin`, a mail's `cc`, a `pin`) to name an identity column or key. */
const KEY_AMBIGUOUS = /^(?:PIN|VIN|PVC|INE|RG|CC|C\.C\.?|CRN|NIT|TIN|PSN|SPI|CDI|EID|NAS|RUC|KT\.?|NSS|IC|PAN|CNS|NIP|UTR|PHN|QID|ARC|ID card|identity card|national id|INN|RČ)$/i;
/** Whether a field name or a column header (`teudat_zehut`, `adoazonosito`, `rnokpp`) is one of the catalogue's labels. */
export function catalogueLabel(name: string): boolean {
  const t = name.replace(/[_-]+/g, " ").replace(/^[\s"']+|[\s"':]+$/g, "");
  if (t.length < 2 || t.length > 60 || KEY_AMBIGUOUS.test(t)) return false;
  return LABEL_TESTS.some((re) => re?.test(t) === true);
}

/** Whether any of a message's strings names a company's legal form (a supplier list's sibling cells). */
export function namesCompany(values: readonly string[]): boolean {
  return values.some((x) => COMPANY_FORM.test(x.length > 4096 ? x.slice(0, 4096) : x));
}

export interface CatalogueHit {
  start: number;
  end: number;
  /** The letters and digits (to count distinct numbers). */
  key: string;
  id: string;
}

const compact = (s: string) => s.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
const digitCount = (s: string) => {
  let k = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) k++;
  return k;
};

/**
 * The catalogue's identifiers in one string: labelled ones, then those that count alone. At most 64. `companiesNamed`:
 * whether the message names a company's legal form elsewhere (a shared tax number is then a business's).
 */
export function catalogueIds(v0: string, companiesNamed?: () => boolean): CatalogueHit[] {
  const v = v0.length > 65536 ? v0.slice(0, 65536) : v0;
  const out: CatalogueHit[] = [];
  const seen = new Set<number>();
  const push = (start: number, end: number, id: string) => {
    if (seen.has(start) || out.length >= 64) return;
    seen.add(start);
    out.push({ start, end, key: compact(v.slice(start, end)), id });
  };
  let companies: boolean | undefined;
  const unchecked: CatalogueHit[] = [];
  LABELS.lastIndex = 0;
  for (let m: RegExpExecArray | null, k = 0; (m = LABELS.exec(v)) !== null && k < 256; k++) {
    const label = m[1] as string;
    if (CAPS_ONLY.test(label) && label !== label.toUpperCase()) continue;
    const at = m.index + m[0].length;
    let failed: CatalogueHit | null = null;
    let passed = false;
    for (let i = 0; i < CATALOGUE.length; i++) {
      const test = LABEL_TESTS[i];
      if (!test?.test(label)) continue;
      const re = STICKY[i] as RegExp;
      re.lastIndex = at;
      const s = re.exec(v);
      if (!s) continue;
      const c = compact(s[0]);
      const entry = CATALOGUE[i] as CatalogueEntry;
      if (digitCount(c) < (entry.digits ?? 5) || same(c)) continue;
      if (entry.shared && (companies ??= COMPANY_FORM.test(v) || (companiesNamed?.() ?? false))) continue;
      if (entry.check && !entry.check(c)) {
        failed ??= { start: at, end: at + s[0].length, key: c, id: entry.id };
        continue;
      }
      push(at, at + s[0].length, entry.id);
      passed = true;
      break;
    }
    if (!passed && failed && unchecked.length < 64) unchecked.push(failed);
  }
  // (Nineteenth round) A number under its document's label, in the document's layout, whose check digits fail (copied
  // by hand, mistyped, made up) names a person's document all the same when the string lists several: two labelled
  // numbers or more, each under its own label. One alone with a failing check stays a coincidence.
  if (unchecked.length > 0 && new Set([...out.map((h) => h.key), ...unchecked.map((h) => h.key)]).size >= 2) {
    for (const h of unchecked) push(h.start, h.end, h.id);
  }
  let runs: Map<number, string[]> | null = null;
  for (let i = 0; i < CATALOGUE.length; i++) {
    const re = ALONE[i];
    if (!re) continue;
    const entry = CATALOGUE[i] as CatalogueEntry;
    // Every number of the entry's shape in the string must pass its check: a column where some fail is another
    // country's numbers of the same layout (a Finnish HETU with a digit last looks like a kennitala) or not identity
    // numbers at all.
    const found: RegExpExecArray[] = [];
    let failed = false;
    re.lastIndex = 0;
    for (let m: RegExpExecArray | null, k = 0; (m = re.exec(v)) !== null && k < 64; k++) {
      const c = compact(m[0]);
      if (same(c) || (entry.check && !entry.check(c))) {
        failed = true;
        break;
      }
      found.push(m);
    }
    if (failed) continue;
    for (const m of found) {
      // A bare run of digits (a CNP, a JMBG, a Thai id) counts alone only as a column: two runs of its length or more,
      // every one passing a check — not a log's millisecond timestamps or a list of order numbers where one in eleven
      // passes by chance.
      if (/^\d+$/.test(m[0])) {
        runs ??= digitRuns(v);
        const all = runs.get(m[0].length) ?? [];
        if (all.length < 2 || all.length > 64 || !all.every((r) => CATALOGUE.some((e) => e.alone && e.check !== undefined && WHOLE_PLAIN[CATALOGUE.indexOf(e)]?.test(r) === true && e.check(r)))) continue;
      }
      push(m.index, m.index + m[0].length, entry.id);
    }
  }
  return out;
}

/** Bare digit runs of a string by their length (at most 256 runs read). */
function digitRuns(v: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const re = /(?<![A-Za-z0-9])\d{9,16}(?![A-Za-z0-9])/g;
  for (let m: RegExpExecArray | null, k = 0; (m = re.exec(v)) !== null && k < 256; k++) {
    const list = out.get(m[0].length);
    if (list) list.push(m[0]);
    else out.set(m[0].length, [m[0]]);
  }
  return out;
}
const WHOLE_PLAIN = CATALOGUE.map((e) => (e.alone ? new RegExp(`^(?:${e.shape.source})$`) : null));
const WHOLE = CATALOGUE.map((e) => (e.alone ? new RegExp(`^(?:${e.shape.source})$`) : null));
/** Whether a code as written passes a check of the catalogue that counts alone (pii-people.ts: a column of them). */
export function catalogueChecked(code: string): boolean {
  for (let i = 0; i < CATALOGUE.length; i++) {
    const whole = WHOLE[i];
    const e = CATALOGUE[i] as CatalogueEntry;
    if (whole?.test(code) && (!e.check || e.check(compact(code)))) return true;
  }
  return false;
}

// ── Payment cards: the words for a card's details in more languages, and the stripe's own records ──

/**
 * A card's expiry and security code as the catalogues' languages write them (German `gültig bis`, `Prüfnummer`;
 * Spanish `vencimiento`, `código de seguridad`; Swedish `giltig t.o.m.`…): what pii-bulk.ts's English CVV and EXPIRY
 * labels read, in the words the other labels miss.
 */
export const CARD_DETAIL_WORDS =
  /(?<![\p{L}])(?:g[üu]ltig bis|ablaufdatum|verfallsdatum|pr[üu]f(?:nummer|ziffer|code)|kartenpr[üu]fnummer|sicherheitscode|vencimiento|fecha de (?:vencimiento|caducidad)|caducidad|v[áa]lid[ao] hasta|c[óo]digo de seguridad|c[óo]digo cvv|giltig (?:t\.?o\.?m\.?|till)|utg[åa]ngsdatum|s[äa]kerhetskod|udl[øo]bsdato|kontrolcifre|utl[øo]psdato|voimassa|turvakoodi|data wa[żz]no[śs]ci|wa[żz]na do|kod cvv|kod zabezpieczaj[ąa]cy|platnost do|bezpe[čc]nostn[íi] k[óo]d|lejárat|biztons[áa]gi k[óo]d|son kullanma(?: tarihi)?|güvenlik kodu|有効期限|セキュリティコード|有效期|安全码|유효기간|보안코드|tarikh luput|masa berlaku|วันหมดอายุ)(?![\p{L}])[^\n\d]{0,12}\d{2,4}/iu;

/** A magnetic stripe's track 2 (`;PAN=YYMM…?`) or track 1 (`%B PAN ^NAME^ YYMM…`): a card with its expiry, as a skimmer dumps it. */
const TRACK2 = /(?<![\d])([2-6]\d{12,18})=(\d{2})(0[1-9]|1[0-2])\d{3}\d{0,24}\??/g;
const TRACK1 = /%?B([2-6]\d{12,18})\^[A-Z /.'-]{2,26}\^(\d{2})(0[1-9]|1[0-2])\d{3}[\d ]{0,40}\??/g;
/** A card number, its expiry and its code on three lines of their own (`4556…\n12/27\n331`). */
const CARD_STACKED = /(?<![\d.])([2-6]\d{3}(?:[ -]?\d{4}){2}[ -]?\d{3,4})[ \t]*\r?\n[ \t]*(?:0[1-9]|1[0-2]) ?\/ ?(?:\d{2}|20\d{2})[ \t]*\r?\n[ \t]*\d{3,4}(?![\d/])/g;

/** A card number and its expiry side by side in a row (`4045… 04/28 Haddad`, `…,04/28,`), the code optional. */
const CARD_EXPIRY_ROW = /(?<![\d./-])([2-6]\d{12,18})[ \t]{0,2}[ \t,;|][ \t]{0,2}(?:0[1-9]|1[0-2])\/(?:\d{2}|20\d{2})(?![\d/.])/g;

/** Cards with their expiry read from stripe tracks or stacked lines: the numbers' spans and digits (at most 64). */
export function cardDumps(v: string): { start: number; end: number; digits: string }[] {
  const out: { start: number; end: number; digits: string }[] = [];
  for (const re of [TRACK2, TRACK1, CARD_STACKED, CARD_EXPIRY_ROW]) {
    re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = re.exec(v)) !== null && out.length < 64; ) {
      const num = m[1] as string;
      const digits = num.replace(/\D/g, "");
      if (!luhn(digits)) continue;
      const start = m.index + m[0].indexOf(num);
      out.push({ start, end: start + num.length, digits });
    }
  }
  return out;
}

/**
 * A row given as an array (a sheet's `rows: [["K. Tan", "5682…", "11/27", "882"]]`): a card number in one cell and its
 * expiry in another cell of the same row. The cards' sites and digits (at most 64).
 */
export function cardCells<S extends { path: readonly (string | number)[]; value: string }>(sites: readonly S[]): { site: S; digits: string }[] {
  const out: { site: S; digits: string }[] = [];
  const expiries = new Set<string>();
  for (const s of sites) {
    const last = s.path[s.path.length - 1];
    if (typeof last === "number" && /^\s*(?:0[1-9]|1[0-2]) ?\/ ?(?:\d{2}|20\d{2})\s*$/.test(s.value)) expiries.add(JSON.stringify(s.path.slice(0, -1)));
  }
  if (expiries.size === 0) return out;
  for (const s of sites) {
    const last = s.path[s.path.length - 1];
    if (typeof last !== "number" || out.length >= 64) continue;
    const digits = s.value.replace(/[ -]/g, "");
    if (/^[2-6]\d{12,18}$/.test(digits) && luhn(digits) && expiries.has(JSON.stringify(s.path.slice(0, -1)))) out.push({ site: s, digits });
  }
  return out;
}
