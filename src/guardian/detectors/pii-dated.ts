import { belgianRrn, egyptNid, rodneCislo, validDate, verhoeffValid } from "./pii-checks.js";
import { luhn } from "./pii.js";

/*
 * (Twelfth round) National identity numbers that carry their holder's birth date in their digits, with the check
 * their country defines: a column of them beside names is a column of birth dates as much as a `dob` column is. The
 * people's-records check (pii-people.ts) counts such a code as the record's identifier *and* its birth date, so a
 * list of names with these numbers alone (a payroll with salaries, a call list with phones) is people's records.
 * Each check is a fixed loop over at most thirteen digits; the date must be a real calendar date, not in the future.
 *
 *   Bulgaria   EGN                 10 digits YYMMDD (month +20 before 1900, +40 from 2000) NNN C, weights 2,4,8,5,10,9,7,3,6 mod 11
 *   Lithuania  asmens kodas        11 digits G YYMMDD NNN C (G 1–6: sex and century), two-pass mod 11 (Estonia's
 *   Estonia    isikukood           isikukood is the same layout and check)
 *   Romania    CNP                 13 digits S YYMMDD JJ NNN C (S 1–8), weights 2,7,9,1,4,6,3,5,8,2,7,9 mod 11
 *   Luxembourg matricule           13 digits YYYYMMDD NNN L V: a Luhn and a Verhoeff check digit (thirteenth round)
 *   and those pii-checks.ts reads already: Egypt's national id (14 digits, no public check: its century, date and
 *   governorate), the Czech and Slovak birth number (10 digits, mod 11), Belgium's national number (11 digits, mod 97).
 */

function dg(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

const NOW = new Date();
/** A real date, not in the future. */
function born(y: number, m: number, d: number): boolean {
  if (!validDate(y, m, d)) return false;
  return Date.UTC(y, m - 1, d) <= NOW.getTime();
}

/** Bulgaria's EGN. */
export function egn(s: string): boolean {
  if (s.length !== 10) return false;
  let m = dg(s, 2) * 10 + dg(s, 3);
  let y = 1900 + dg(s, 0) * 10 + dg(s, 1);
  if (m > 40) {
    m -= 40;
    y += 100;
  } else if (m > 20) {
    m -= 20;
    y -= 100;
  }
  if (!born(y, m, dg(s, 4) * 10 + dg(s, 5))) return false;
  const w = [2, 4, 8, 5, 10, 9, 7, 3, 6];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += dg(s, i) * (w[i] as number);
  return (sum % 11) % 10 === dg(s, 9);
}

/** Lithuania's asmens kodas and Estonia's isikukood. */
export function balticCode(s: string): boolean {
  if (s.length !== 11) return false;
  const g = dg(s, 0);
  if (g < 1 || g > 6) return false;
  const y = 1800 + Math.floor((g - 1) / 2) * 100 + dg(s, 1) * 10 + dg(s, 2);
  if (!born(y, dg(s, 3) * 10 + dg(s, 4), dg(s, 5) * 10 + dg(s, 6))) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += dg(s, i) * ((i % 9) + 1);
  let c = sum % 11;
  if (c === 10) {
    sum = 0;
    for (let i = 0; i < 10; i++) sum += dg(s, i) * (((i + 2) % 9) + 1);
    c = sum % 11;
    if (c === 10) c = 0;
  }
  return c === dg(s, 10);
}

/** Romania's CNP. */
export function cnp(s: string): boolean {
  if (s.length !== 13) return false;
  const sx = dg(s, 0);
  if (sx < 1 || sx > 8) return false;
  const century = sx === 1 || sx === 2 ? 1900 : sx === 3 || sx === 4 ? 1800 : sx === 5 || sx === 6 ? 2000 : 1900;
  if (!born(century + dg(s, 1) * 10 + dg(s, 2), dg(s, 3) * 10 + dg(s, 4), dg(s, 5) * 10 + dg(s, 6))) return false;
  const w = [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += dg(s, i) * (w[i] as number);
  const c = sum % 11;
  return (c === 10 ? 1 : c) === dg(s, 12);
}

/**
 * (Thirteenth round) Luxembourg's matricule: 13 digits YYYYMMDD NNN L V, L the Luhn check digit and V the Verhoeff
 * check digit of the first eleven. Two independent checks: a random number passes both one time in a hundred.
 */
export function luxMatricule(s: string): boolean {
  if (s.length !== 13) return false;
  if (!born(dg(s, 0) * 1000 + dg(s, 1) * 100 + dg(s, 2) * 10 + dg(s, 3), dg(s, 4) * 10 + dg(s, 5), dg(s, 6) * 10 + dg(s, 7))) return false;
  // The Luhn digit closes the first twelve; the Verhoeff digit the first eleven with it last.
  return luhn(s.slice(0, 12)) && verhoeffValid(s.slice(0, 11) + s.slice(12));
}

/** Whether a code of digits only is a national identity number that carries a birth date and passes its check. */
export function datedIdentity(compact: string): boolean {
  if (!/^\d{10,14}$/.test(compact) || /^(\d)\1+$/.test(compact)) return false;
  switch (compact.length) {
    case 10:
      return egn(compact) || rodneCislo(compact);
    case 11:
      return balticCode(compact) || belgianRrn(compact);
    case 13:
      return cnp(compact) || luxMatricule(compact);
    case 14:
      return egyptNid(compact);
    default:
      return false;
  }
}
