import { detectPii } from "./pii.js";
import { literalsOf } from "./literals.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Bulk identity or payment data in one message: what it takes to impersonate someone or to spend their money, as
 * opposed to the odd e-mail address or phone number of ordinary traffic (which `pii` finds and the default pack only
 * logs). The default pack refuses these on their way to a tool that sends data off the machine, or to another agent.
 *
 *   pii_bulk.identity      a US SSN together with a date of birth
 *   pii_bulk.ssn_list      three SSNs or more
 *   pii_bulk.payment_card  a card number together with its CVV or its expiry date
 *   pii_bulk.card_list     three card numbers or more
 *   pii_bulk.iban_list     three IBANs or more (a transfer names two: the payer's and the payee's)
 *
 * The findings are the numbers themselves. Published test card numbers (Stripe's, Visa's 4111…) are not cards.
 */

const TEST_CARDS = new Set([
  "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881", "5555555555554444", "5105105105105100",
  "5200828282828210", "2223003122003222", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
  "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005", "4000000000000002", "4000000000009995",
]);

const MONTHS = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}";
const DATE = String.raw`(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|${MONTHS}\.? \d{1,2},? \d{4}|\d{1,2}(?:st|nd|rd|th)? ${MONTHS}\.? \d{4})`;
/** "DOB: 1984-03-12", "date of birth 03/12/1984", "born on March 12, 1984". */
const DOB = new RegExp(String.raw`\b(?:dob|d\.o\.b\.?|date of birth|birth ?date|born(?: on)?|birthday|geburtsdatum|fecha de nacimiento|date de naissance)\b[^\n\d]{0,24}${DATE}`, "i");
const DOB_KEY = /(?:^|_|-|\b)(?:dob|birth|birthdate|date_?of_?birth|birthday)$/i;
const DATE_ALONE = new RegExp(`^\\s*${DATE}\\s*$`, "i");
/** "CVV 123", "cvc: 4321", "security code 987". */
const CVV = /\b(?:cvv2?|cvc2?|csc|cid|security code|card verification (?:value|code))\b[^\n\d]{0,12}\d{3,4}\b/i;
const CVV_KEY = /(?:^|_|-)(?:cvv2?|cvc2?|csc|security_?code)$/i;
/** "exp 09/27", "expiry: 09/2027", "valid thru 09-27". */
const EXPIRY = /\b(?:exp(?:iry|iration)?(?: date)?|expires|valid (?:thru|through|until))\b[^\n\d]{0,12}(?:0?[1-9]|1[0-2]) ?[/-] ?(?:\d{2}|20\d{2})\b/i;
const EXPIRY_KEY = /(?:^|_|-)(?:exp|expiry|expiration|exp_?date|expiry_?date|valid_?thru)$/i;
const EXPIRY_VALUE = /^\s*(?:0?[1-9]|1[0-2]) ?[/-] ?(?:\d{2}|20\d{2})\s*$/;

/** Bulk identity and payment data in one message (see above). */
export function detectPiiBulk(sites: StringSite[], pii: () => Detection[] = () => detectPii(sites)): Detection[] {
  // Nine digits at least (an SSN; a card or an IBAN has more): a short message with fewer holds none of them.
  const lits = literalsOf(sites);
  if (lits !== null && lits.digits < 9) return [];
  const found = pii();
  const of = (type: string) => found.filter((d) => d.type === type);
  const ssns = of("pii.ssn");
  const cards = of("pii.credit_card").filter((d) => !TEST_CARDS.has(digitsAt(sites, d)));
  const ibans = of("pii.iban");
  const out: Detection[] = [];
  const add = (type: string, list: Detection[]) => {
    for (const d of list) out.push({ ...d, type });
  };
  if (ssns.length > 0 && sites.some((s) => DOB.test(s.value) || (keyOf(s) !== null && DOB_KEY.test(keyOf(s) as string) && DATE_ALONE.test(s.value)))) add("pii_bulk.identity", ssns);
  else if (ssns.length >= 3) add("pii_bulk.ssn_list", ssns);
  const cardDetails = sites.some(
    (s) =>
      CVV.test(s.value) ||
      EXPIRY.test(s.value) ||
      (keyOf(s) !== null && ((CVV_KEY.test(keyOf(s) as string) && /^\s*\d{3,4}\s*$/.test(s.value)) || (EXPIRY_KEY.test(keyOf(s) as string) && EXPIRY_VALUE.test(s.value)))),
  );
  if (cards.length > 0 && cardDetails) add("pii_bulk.payment_card", cards);
  else if (cards.length >= 3) add("pii_bulk.card_list", cards);
  if (ibans.length >= 3) add("pii_bulk.iban_list", ibans);
  return out;
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
