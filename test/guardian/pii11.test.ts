import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { firstPerson, validDate } from "../../src/guardian/detectors/pii-checks.js";
import { homeLocations } from "../../src/guardian/detectors/pii-location.js";
import { jsonRecords } from "../../src/guardian/detectors/pii-records-json.js";
import { detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import { collectStrings, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Eleventh round ("pii11"): records in brackets, people's records as JSON, identity numbers after an acronym, cards
// with a birth date, a trace's point labelled home, one person's record to a service built for it; the shared
// first-person and date checks; the cost of each on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const call = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "t", arguments: args } });
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];

describe("special-category records in brackets", () => {
  it("people listed in one line with conditions in brackets are bulk; roles, affiliations and plain details are not", () => {
    expect(types(detectSpecial(text("Chase: Owen Hale (£340, cancer treatment), Mira Sood (£20, bipolar)")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("Chase: Owen Hale (£340, cancer treatment), Mira Sood (£20)"))).toEqual([]);
    expect(detectSpecial(text("Panel: Anna Berg (Diabetes UK), Jon Lee (Parkinson's Foundation)"))).toEqual([]);
    expect(detectSpecial(text("Attendees: Anna Berg (finance), Jon Lee (legal)"))).toEqual([]);
  });

  it("initials count beside a home address, not alone", () => {
    expect(types(detectSpecial(text("R. Patel (22 Oak Road, bipolar), H. Ward (7 Quarry Lane, epilepsy)")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("R. Patel (bipolar), H. Ward (epilepsy)"))).toEqual([]);
  });

  it("reads phrases written with hyphens and a student's disciplinary record", () => {
    expect(types(detectSpecial(text("Ann Lee – self-harm risk\nBen Cole – mental-health assessment")))).toEqual(["pii_bulk.special"]);
    expect(types(detectSpecial(text("Clara Diaz — academic probation\nMarco Rossi — permanent exclusion")))).toEqual(["pii_bulk.special"]);
  });
});

describe("people's records as JSON objects", () => {
  const rec = (i: number, extra: Record<string, string> = {}) => ({ email: `p${i}@post.example`, date_of_birth: `199${i}-01-0${i + 1}`, ...extra });

  it("three objects with a birth date and a contact are bulk, in a JSON text or in the call's own array", () => {
    expect(types(jsonRecords(text(JSON.stringify({ rows: [rec(1), rec(2), rec(3)] }))))).toEqual(["pii_bulk.records"]);
    expect(types(jsonRecords(call({ members: [rec(1), rec(2), rec(3)] })))).toEqual(["pii_bulk.records"]);
    expect(types(jsonRecords(text(JSON.stringify([{ birthDate: "1984-02-29", phone: "+33 6 12 34 56 78" }, { birthDate: "1990-12-02", phone: "+46 70 123 45 67" }, { birthDate: "1977-07-15", phone: "+234 803 123 4567" }]))))).toEqual(["pii_bulk.records"]);
  });

  it("two records, dates that are not birth dates, no contact, or placeholders are not", () => {
    expect(jsonRecords(text(JSON.stringify([rec(1), rec(2)])))).toEqual([]);
    expect(jsonRecords(text(JSON.stringify([1, 2, 3].map((i) => ({ email: `p${i}@post.example`, created_at: "2026-11-01" })))))).toEqual([]);
    expect(jsonRecords(text(JSON.stringify([1, 2, 3].map((i) => ({ name: `P ${i}`, birthday: "1990-01-01" })))))).toEqual([]);
    expect(jsonRecords(text(JSON.stringify([1, 2, 3].map((i) => ({ email: `user${i}@example.com`, dob: "1990-01-01" })))))).toEqual([]);
    // the same contact three times is one person
    expect(jsonRecords(text(JSON.stringify([rec(1), rec(1), rec(1)])))).toEqual([]);
  });
});

describe("identity numbers after an acronym, cards with a birth date", () => {
  it("a long number after an acronym beside a labelled birth date is an identity; things' acronyms are not", () => {
    expect(types(detectPiiBulk(text("Client Juan Cruz UMID 0111-2345678-9 DOB 1985-06-14")))).toEqual(["pii_bulk.identity"]);
    expect(detectPiiBulk(text("AWB 1234 5678 9012 for Anna Berg, recipient DOB 1980-02-02"))).toEqual([]);
    expect(detectPiiBulk(text("Anna Berg, TEL 0044 7700 900123, DOB 1980-02-02"))).toEqual([]);
    expect(detectPiiBulk(text("Client Juan Cruz UMID 0111-2345678-9, renewal due"))).toEqual([]);
    expect(detectPiiBulk(text("my UMID is 0111-2345678-9 and my DOB is 1985-06-14"))).toEqual([]);
  });

  it("a card with its holder's birth date is an identity; one's own is not", () => {
    expect(types(detectPiiBulk(text("Customer Laura Pinto, debit card 4024 0071 4431 7798, DOB 12/05/1979")))).toEqual(["pii_bulk.identity"]);
    expect(detectPiiBulk(text("My card 4024 0071 4431 7798 was declined; my DOB is 12/05/1979"))).toEqual([]);
    expect(detectPiiBulk(text("Customer Laura Pinto, debit card 4024 0071 4431 7798, declined twice"))).toEqual([]);
    // a number whose checksum fails is no card (a card label with its CVV or expiry is judged as before)
    expect(detectPiiBulk(text("Customer Laura Pinto, debit card 4024 0071 4431 7793, DOB 12/05/1979"))).toEqual([]);
  });
});

describe("one person's record to a service built to receive it", () => {
  const args = { full_name: "Lena Hoffmann", passport_number: "C01X00T47", date_of_birth: "1987-05-02" };
  const schema = { type: "object", properties: { full_name: {}, passport_number: {}, date_of_birth: {} } };

  it("passes when the tool's schema declares the fields, by their names", () => {
    expect(types(detectPiiBulk(call(args)))).toEqual(["pii_bulk.identity"]);
    expect(detectPiiBulk(call(args), undefined, () => schema)).toEqual([]);
    // a schema that does not declare the identity field, or a field whose name says nothing, does not
    expect(types(detectPiiBulk(call(args), undefined, () => ({ properties: { full_name: {} } })))).toEqual(["pii_bulk.identity"]);
    const mrz = "P<GBRHALE<<MARGARET<<<<<<<<<<<<<<<<<<<<<<<<<\n5071846236GBR4703025F3109147<<<<<<<<<<<<<<02";
    expect(types(detectPiiBulk(call({ text: mrz }), undefined, () => ({ properties: { text: {} } })))).toEqual(["pii_bulk.identity"]);
  });

  it("passes an A2A data record only when the sender speaks in the first person", () => {
    const send = (words: string) =>
      collectStrings({ method: "message/send", params: { message: { parts: [{ kind: "text", text: words }, { kind: "data", data: { name: "Lena Hoffmann", passport: "C01X00T47", dob: "1987-05-02" } }] } } });
    expect(detectPiiBulk(send("Please renew my permit."))).toEqual([]);
    expect(types(detectPiiBulk(send("Open an account in his name.")))).toEqual(["pii_bulk.identity"]);
  });
});

describe("a trace's point labelled home", () => {
  it("a named person's point labelled just after its coordinates is a home", () => {
    const v = JSON.stringify({ courier: "Kasia Wolna", trace: [[50.0614, 19.9372, "06:55 home"], [50.07, 19.95, "07:20"], [50.0801, 19.961, "07:45"]] });
    expect(types(homeLocations(text(v)))).toEqual(["pii_bulk.location"]);
    expect(homeLocations(text(v.replace("Kasia Wolna", "van-12")))).toEqual([]);
  });
});

describe("shared checks", () => {
  it("one first person for every PII check: `I` in capitals, the plural on request", () => {
    expect(firstPerson("Apply for my ETA.")).toBe(true);
    expect(firstPerson("I'm sending it")).toBe(true);
    expect(firstPerson("Jan i Anna")).toBe(false);
    expect(firstPerson("our customer Anna")).toBe(false);
    expect(firstPerson("our home", true)).toBe(true);
    expect(firstPerson("US passport")).toBe(false);
    expect(firstPerson("US passport", true)).toBe(false);
  });

  it("one calendar check", () => {
    expect(validDate(2000, 2, 29)).toBe(true);
    expect(validDate(1900, 2, 29)).toBe(false);
    expect(validDate(2001, 13, 1)).toBe(false);
  });
});

describe("cost", () => {
  it("stays linear on long adversarial text", () => {
    const pieces = ["Aa Bb (x, cancer), ", "(((((", "AB 1 2 3 4 5 6 7 8 9 0 DOB 1990-01-01 ", "AB 12345678901234567890123 ", "self-harm-mental-", "[{\"dob\":\"1990-01-01\",\"email\":\"a@b.c\"},", "1.23456,2.34567 home "];
    const run = (v: string) => {
      detectSpecial(text(v));
      jsonRecords(text(v));
      homeLocations(text(v));
      detectPiiBulk(text(v));
    };
    expectLinear(pieces, run);
  });
});
