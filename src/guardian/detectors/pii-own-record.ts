import type { JsonPath, StringSite } from "./scan.js";

/*
 * (Fourteenth round, "pii14") One person's record sent as the transaction it belongs to. An identity number beside a
 * birth date is what it takes to impersonate someone (pii_bulk.identity), and a list of them is a leak; but two
 * transactions carry exactly that pair for one person, because the receiving service must match the person:
 *
 *   - a passenger's travel document at check-in or in a booking (Advance Passenger Information: passport, birth date,
 *     nationality), in the record that names the booking by its locator (`booking`, `pnr`, `record_locator`:
 *     five to eight letters and digits);
 *   - a patient's care-record number (MRN, patient or member id: an institution's number, not a government identity
 *     number) with the birth date in a clinical order (`tests`, `order`, `procedure`, `appointment`, `referral`), the
 *     two identifiers every clinic checks before a test.
 *
 * It holds only when the message has one identity number and no card, the number sits in one structured record (a
 * JSON object: an A2A data part, a call's arguments) that also holds the transaction's own key, and that record names
 * one person at most. An SSN, a national id or a tax number in a lab order, two passengers' passports, a passport
 * with a card, or a passport without a booking still count.
 */

const TRAVEL_DOC_KEY = /^(?:passport|passport_?(?:no|number|num)|travel_?document(?:_?number)?|document_?number)$/i;
const BOOKING_KEY = /^(?:booking|booking_?(?:ref|reference|code|id)|pnr|record_?locator|reservation(?:_?(?:code|ref|number))?|confirmation(?:_?(?:code|number))?)$/i;
const LOCATOR = /^[A-Z0-9]{5,8}$/;
const CARE_ID_KEY = /^(?:mrn|medical_?record(?:_?(?:number|no))?|patient_?(?:id|number)|member_?id|insurance_?number)$/i;
const ORDER_KEY = /^(?:tests?|test_?codes?|orders?|order_?items|procedures?|procedure_?codes?|appointment|referral|panel|panels|specimen|specimens)$/i;
const NAME_KEY = /^(?:name|full_?name|passenger|passenger_?name|patient_?name|given_?name|surname|last_?name|first_?name|traveller|traveler)$/i;

const under = (path: JsonPath, prefix: JsonPath) => path.length > prefix.length && prefix.every((x, i) => path[i] === x);
const last = (path: JsonPath) => path[path.length - 1];

/** Whether the one identity number at `id` is one person's, sent as the booking or the clinical order it belongs to. */
export function ownTransaction(sites: readonly StringSite[], id: StringSite, ids: number, cards: number): boolean {
  if (ids !== 1 || cards > 0) return false;
  const key = last(id.path);
  if (typeof key !== "string") return false;
  const travel = TRAVEL_DOC_KEY.test(key);
  const care = !travel && CARE_ID_KEY.test(key);
  if (!travel && !care) return false;
  // The record: the number's own object, or (a patient nested in an order) the object holding it.
  const own = id.path.slice(0, -1);
  const scopes = care && own.length >= 1 && typeof last(own) === "string" ? [own, own.slice(0, -1)] : [own];
  const record = scopes[scopes.length - 1] as JsonPath;
  const inRecord = sites.filter((s) => under(s.path, record));
  if (inRecord.length === 0 || inRecord.length > 64) return false;
  // One person: at most one name field in the record, and no other list of people beside it.
  if (inRecord.filter((s) => typeof last(s.path) === "string" && NAME_KEY.test(last(s.path) as string)).length > 1) return false;
  if (travel) return inRecord.some((s) => s.path.length === record.length + 1 && BOOKING_KEY.test(String(last(s.path))) && LOCATOR.test(s.value.trim()));
  return inRecord.some((s) => s.path.slice(record.length).some((k) => typeof k === "string" && ORDER_KEY.test(k)));
}

/*
 * (Twenty-first round, "pii21") One person's documents in one record. A list of identity numbers is a leak because it
 * names several people; two numbers of different kinds (a national number and an identity card's, a tax number and a
 * passport) in one structured record, each under its own field, name one person twice: the record a KYC or onboarding
 * service keeps. It holds only for two numbers, each the only one in its own field of the same JSON object, the fields
 * named differently, and the numbers of different shapes (length, or letters beside digits): two numbers of one shape
 * are a list of one kind (two people's SSNs), and numbers in two objects or in prose still count.
 */
const shape = (key: string) => `${key.length}:${/[a-z]/i.test(key) ? "a" : ""}${/\d/.test(key) ? "d" : ""}`;

/** Whether two identity numbers are one person's documents of two kinds, in two fields of one record. */
export function oneRecordDocuments(sites: readonly StringSite[], hits: readonly { site: StringSite; key: string }[]): boolean {
  if (hits.length !== 2) return false;
  const [a, b] = hits as [{ site: StringSite; key: string }, { site: StringSite; key: string }];
  if (a.site === b.site || shape(a.key) === shape(b.key)) return false;
  const ka = last(a.site.path);
  const kb = last(b.site.path);
  if (typeof ka !== "string" || typeof kb !== "string" || ka.replace(/\d/g, "") === kb.replace(/\d/g, "")) return false;
  const record = a.site.path.slice(0, -1);
  if (record.length !== b.site.path.length - 1 || !record.every((x, i) => b.site.path[i] === x)) return false;
  const inRecord = sites.filter((s) => under(s.path, record));
  if (inRecord.length > 16) return false;
  return inRecord.filter((s) => typeof last(s.path) === "string" && NAME_KEY.test(last(s.path) as string)).length <= 1;
}
