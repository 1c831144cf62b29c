import { PatternGroup, type Pattern } from "./patterns.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * PII by format, a catalogue for the pattern engine (patterns.ts): e-mail addresses, card numbers (Luhn), US social
 * security and phone numbers, IBANs (their checksum) and public IPv4 addresses. Log-only in the default pack; bulk
 * PII leaving the machine is pii-bulk.ts.
 */

/** The Luhn check (cards, and national numbers that use it: pii-bulk.ts). */
export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function ibanValid(raw: string): boolean {
  const s = raw.replace(/ /g, "");
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const v = code >= 65 ? String(code - 55) : ch;
    for (const c of v) rem = (rem * 10 + (c.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

const PII: Pattern[] = [
  {
    type: "pii.email",
    re: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g, needs: ["@"],
    anchor: { literal: "@", back: /[A-Za-z0-9._%+-]/, max: 64, after: /@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/ },
    accept: (s) => !s.startsWith("git@"),
  },
  {
    type: "pii.credit_card",
    re: /(?<![\d.])(?:\d[ -]?){12,18}\d(?![\d.])/g,
    digits: 13,
    hint: /\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d/,
    accept: (s) => {
      const digits = s.replace(/[ -]/g, "");
      return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhn(digits);
    },
  },
  { type: "pii.ssn", re: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g, digits: 9, hint: /\d{3}-\d{2}-\d{4}/ },
  {
    type: "pii.phone",
    re: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-])/g,
    digits: 10,
    hint: /(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}/,
  },
  { type: "pii.iban", re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, accept: ibanValid, digits: 2 },
  {
    type: "pii.ip",
    re: /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])/g,
    digits: 4,
    hint: /\d\.\d{1,3}\.\d{1,3}\.\d/,
    accept: (ip) => !/^(?:127\.|0\.|10\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|255\.)/.test(ip),
  },
];

export const PII_TYPES = PII.map((p) => p.type);

export const PII_GROUP = new PatternGroup(PII);
export function detectPii(sites: StringSite[], only?: string): Detection[] {
  return PII_GROUP.run(sites, only ? (p) => p.type === only : undefined);
}
