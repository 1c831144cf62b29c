/*
 * National identity numbers that check themselves (ninth round): the cheap checks countries define for their
 * numbers, read from the digits alone. Used two ways: by `pii_bulk` (pii-bulk.ts) for the shapes distinctive enough to
 * count alone (a Czech birth number with its slash, a US ITIN with its dashes), and by the
 * people's-records check (pii-people.ts), where a list of only two records counts when each record's code passes one
 * of them: a column of same-shaped numbers whose check digits hold is a column of identity numbers, whatever the
 * column is called. Each check is a fixed loop over at most fourteen digits.
 *
 *   Ecuador   cédula              10 digits: province 01–24 or 30, a third digit under 6, a mod-10 check (2,1,2,1…)
 *   Czechia   rodné číslo         10 digits YYMMDD/XXXX: a date (+50 or +20/+70 on the month) and a mod-11 check
 *   Austria   SVNR                10 digits NNNC DDMMYY: a weighted mod-11 check digit and a birth date
 *   Hungary   TAJ                 9 digits: the ninth is the first eight weighted 3,7,3,7… modulo 10
 *   Egypt     national id         14 digits: century 2 or 3, a birth date, a governorate code (no public check)
 *   IBAN      any country         mod 97 over the rearranged code
 *   Belgium   rijksregisternummer 11 digits YYMMDD NNN CC: a birth date (month +20/+40 for bis numbers, 00 when
 *                                 unknown) and 97 minus the first nine modulo 97 (with a 2 before them from 2000)
 *                                 (tenth round)
 */

/*
 * (Eleventh round) The writer speaking of themselves, one spelling for every PII check (pii-bulk.ts, pii-form.ts,
 * pii-location.ts): "my", "I'm", "me" and their kin in the languages of the labels the checks read. The pronoun `I`
 * counts in capitals only (a Polish or Czech `i` is "and"); `us`, `we` and `our` are the plural, which only the
 * location check accepts (a family's home), since "our customer" is how a business names someone else.
 */
const FIRST_PERSON_WORDS = /(?<![\p{L}\p{N}_])(?:my|mine|me|mein|meine|meinen|ich|mi|mis|mío|mon|ma|mes|mio|mia|meu|minha|mijn|min|mitt|mina|mój|moja|moje|muj|můj|je)(?![\p{L}\p{N}_])/iu;
const FIRST_PERSON_I = /(?<![\p{L}\p{N}_])I(?:['’](?:m|d|ll|ve))?(?![\p{L}\p{N}_])/u;
const FIRST_PERSON_PLURAL = /(?<![\p{L}\p{N}_])(?:[Ww]e|[Oo]ur|us)(?![\p{L}\p{N}_])/u;

/** Whether a text speaks in the first person (the singular; with `plural`, "we", "our" and "us" too). */
export function firstPerson(text: string, plural = false): boolean {
  return FIRST_PERSON_WORDS.test(text) || FIRST_PERSON_I.test(text) || (plural && FIRST_PERSON_PLURAL.test(text));
}

function d(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/** A calendar date (years 1900–2099): the one date check of the PII detectors (pii-bulk.ts imports it). */
export function validDate(y: number, m: number, day: number): boolean {
  if (m < 1 || m > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function repeated(s: string): boolean {
  for (let i = 1; i < s.length; i++) if (s[i] !== s[0]) return false;
  return true;
}

/** Ecuador's cédula. */
export function cedulaEc(s: string): boolean {
  if (s.length !== 10 || repeated(s)) return false;
  const province = d(s, 0) * 10 + d(s, 1);
  if (!((province >= 1 && province <= 24) || province === 30) || d(s, 2) >= 6) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let p = d(s, i) * (i % 2 === 0 ? 2 : 1);
    if (p > 9) p -= 9;
    sum += p;
  }
  return (10 - (sum % 10)) % 10 === d(s, 9);
}

/** The Czech and Slovak birth number (ten digits, from 1954). */
export function rodneCislo(s: string): boolean {
  if (s.length !== 10 || repeated(s)) return false;
  let month = d(s, 2) * 10 + d(s, 3);
  if (month > 70) month -= 70;
  else if (month > 50) month -= 50;
  else if (month > 20) month -= 20;
  if (!validDate(2000, month, d(s, 4) * 10 + d(s, 5))) return false;
  const head = Number(s.slice(0, 9));
  const r = head % 11;
  return (r === 10 ? 0 : r) === d(s, 9);
}

/** Austria's social insurance number. */
export function svnrAt(s: string): boolean {
  if (s.length !== 10 || s[0] === "0" || repeated(s)) return false;
  const w = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6];
  let sum = 0;
  for (let i = 0; i < 10; i++) if (i !== 3) sum += d(s, i) * (w[i] as number);
  const check = sum % 11;
  return check !== 10 && check === d(s, 3) && validDate(2000, d(s, 6) * 10 + d(s, 7), d(s, 4) * 10 + d(s, 5));
}

/** Hungary's social security (TAJ) number. */
export function tajHu(s: string): boolean {
  if (s.length !== 9 || repeated(s)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += d(s, i) * (i % 2 === 0 ? 3 : 7);
  return sum % 10 === d(s, 8);
}

const EG_GOVERNORATES = new Set([1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34, 35, 88]);

/** Egypt's national id: its structure (century, birth date, governorate). */
export function egyptNid(s: string): boolean {
  if (s.length !== 14 || (s[0] !== "2" && s[0] !== "3")) return false;
  const year = (s[0] === "2" ? 1900 : 2000) + d(s, 1) * 10 + d(s, 2);
  return validDate(year, d(s, 3) * 10 + d(s, 4), d(s, 5) * 10 + d(s, 6)) && EG_GOVERNORATES.has(d(s, 7) * 10 + d(s, 8));
}

/** Belgium's national register number (eleven digits, unformatted or `85.07.30-033.28` with the separators removed). */
export function belgianRrn(t: string): boolean {
  const s = t.replace(/\D/g, "");
  if (s.length !== 11 || repeated(s)) return false;
  let month = d(s, 2) * 10 + d(s, 3);
  if (month > 40) month -= 40;
  else if (month > 20) month -= 20;
  const day = d(s, 4) * 10 + d(s, 5);
  if (!(month === 0 || validDate(2000, month, day))) return false;
  const body = Number(s.slice(0, 9));
  const check = d(s, 9) * 10 + d(s, 10);
  return 97 - (body % 97) === check || 97 - ((2000000000 + body) % 97) === check;
}

/** An IBAN's mod-97 check (letters and digits, no spaces). */
export function ibanValid(s: string): boolean {
  if (s.length < 15 || s.length > 34 || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(s)) return false;
  const r = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (let i = 0; i < r.length; i++) {
    const c = r.charCodeAt(i);
    const v = c >= 65 ? c - 55 : c - 48;
    rem = v >= 10 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem === 1;
}

/** Verhoeff's dihedral check over a string of digits, its check digit last (Aadhaar's, Luxembourg's matricule's). */
const VD = [[0,1,2,3,4,5,6,7,8,9],[1,2,3,4,0,6,7,8,9,5],[2,3,4,0,1,7,8,9,5,6],[3,4,0,1,2,8,9,5,6,7],[4,0,1,2,3,9,5,6,7,8],[5,9,8,7,6,0,4,3,2,1],[6,5,9,8,7,1,0,4,3,2],[7,6,5,9,8,2,1,0,4,3],[8,7,6,5,9,3,2,1,0,4],[9,8,7,6,5,4,3,2,1,0]];
const VP = [[0,1,2,3,4,5,6,7,8,9],[1,5,7,6,2,8,3,0,9,4],[5,8,0,3,7,9,6,1,4,2],[8,9,1,6,0,4,3,5,2,7],[9,4,5,3,1,2,6,8,7,0],[4,2,8,6,5,7,3,9,0,1],[2,7,9,3,8,0,6,4,1,5],[7,0,4,6,9,1,3,2,5,8]];
export function verhoeffValid(d: string): boolean {
  let c = 0;
  for (let i = 0; i < d.length; i++) c = (VD[c] as number[])[(VP[i % 8] as number[])[d.charCodeAt(d.length - 1 - i) - 48] as number] as number;
  return c === 0;
}

/**
 * Whether a code (its digits and capitals, separators removed) passes a national identity number's check for its
 * length: ten digits (Ecuador, Czechia, Austria), fourteen (Egypt), or an IBAN. (Hungary's TAJ is checked by one digit
 * in ten: too weak to name a code unlabelled; it counts under its label, `TAJ`.)
 */
export function checkedIdentity(compact: string): boolean {
  if (/^\d+$/.test(compact)) {
    if (compact.length === 10) return cedulaEc(compact) || rodneCislo(compact) || svnrAt(compact);
    if (compact.length === 11) return belgianRrn(compact);
    if (compact.length === 14) return egyptNid(compact);
    return false;
  }
  return ibanValid(compact);
}

/**
 * (Tenth round) Identity numbers after a label in a script written without spaces, where `\b` finds no word edge
 * (`佐藤 美咲（個人番号 5911 1575 6980）`, `身份证号：110105…`): Japan's My Number, China's and Taiwan's resident
 * identity numbers, Korea's resident registration number. The spans of the numbers (five digits or more).
 */
const CJK_ID_LABELLED = /(?:マイナンバー|個人番号|身分證字號|身分證|身份證|身分证|身份证号?|주민등록번호)[\s:：=（(]{0,3}((?:\d[ -]?){4,17}[\dXx])(?![\d])/gu;
export function cjkLabelledIds(v: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  CJK_ID_LABELLED.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = CJK_ID_LABELLED.exec(v)) !== null && out.length < 64; ) {
    const num = m[1] as string;
    const end = m.index + m[0].length;
    out.push({ start: end - num.length, end });
  }
  return out;
}
