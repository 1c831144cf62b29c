import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { detectPeople } from "../../src/guardian/detectors/pii-people.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { sitesOf } from "../support/sites.js";
import { expectLinear } from "../support/linear.js";

// People's records in bulk by structure (pii-people.ts): the edges of the check, and its cost on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (sites: StringSite[]) => [...new Set(detectPeople(sites).map((d) => d.type))];

describe("people's records in bulk", () => {
  it("three lines, each a code with a name and an address or phone, are bulk; two are not", () => {
    const rows = ["Ana Lima 48213097561 +55 11 91234 5678", "Rui Costa 73094815206 +55 21 99876 5432", "Eva Nunes 19384750226 +55 31 98765 4321"];
    expect(types(text(rows.join("\n")))).toEqual(["pii_bulk.people"]);
    expect(types(text(rows.slice(0, 2).join("\n")))).toEqual([]);
  });

  it("the findings are the codes, exactly", () => {
    const v = "name;personal code;city\nAna Lima;48213097561;Rua Augusta 12, Lisboa\nRui Costa;73094815206;Rua Nova 3, Porto\nEva Nunes;19384750226;Rua Velha 9, Braga";
    const found = detectPeople(text(v)).map((d) => v.slice(d.start, d.end));
    expect(found).toEqual(["48213097561", "73094815206", "19384750226"]);
  });

  it("a column header naming the identifier in another language makes a shorter code count", () => {
    const v = "име,ЕГН,телефон\nИван Петров,84071870,+359 884480480\nМария Иванова,66080162,+359 886556486\nГеорги Колев,91121859,+359 885663557";
    expect(types(text(v))).toEqual(["pii_bulk.people"]);
    // The same codes under no header and with no label are too short to be identifiers on their own.
    expect(types(text(v.split("\n").slice(1).join("\n")))).toEqual([]);
  });

  it("JSON items (in arguments or in a JSON string) are records; a code under a thing's key is not an identifier", () => {
    const people = [
      { name: "Ana Lima", nin: "48213097561", email: "ana@mail.example" },
      { name: "Rui Costa", nin: "73094815206", email: "rui@mail.example" },
      { name: "Eva Nunes", nin: "19384750226", email: "eva@mail.example" },
    ];
    expect(types(sitesOf({ people }))).toEqual(["pii_bulk.people"]);
    expect(types(text(JSON.stringify(people)))).toEqual(["pii_bulk.people"]);
    const orders = people.map(({ name, nin, email }) => ({ name, order_id: nin, email }));
    expect(types(sitesOf({ orders }))).toEqual([]);
    const customers = people.map(({ name, nin, email }) => ({ name, customer_id: nin, email }));
    expect(types(sitesOf({ customers }))).toEqual([]);
  });

  it("under a bare `id` key a number with a name and contacts is a shop's customer export; with a birth date it is a person's", () => {
    const customers = [
      { id: "7012345678901", name: "Jane Smith", email: "jane@mail.example", phone: "+1 614 555 0187" },
      { id: "7012345678902", name: "Omar Haddad", email: "omar@mail.example", phone: "+1 312 555 0143" },
      { id: "7012345678903", name: "Li Wei", email: "li@mail.example", phone: "+1 305 555 0161" },
    ];
    expect(types(sitesOf({ customers }))).toEqual([]);
    const withBirth = customers.map((c, i) => ({ ...c, dob: `198${i}-0${i + 1}-1${i}` }));
    expect(types(sitesOf({ customers: withBirth }))).toEqual(["pii_bulk.people"]);
  });

  it("phones, dates, amounts and thing references are never the identifier", () => {
    const v = [
      "Ana Lima, +55 11 91234 5678, 1988-04-12, 1.234,56, Order 482130975",
      "Rui Costa, +55 21 99876 5432, 1979-01-30, 2.100,00, Order 730948152",
      "Eva Nunes, +55 31 98765 4321, 1992-11-02, 310,10, #193847502",
    ].join("\n");
    expect(types(text(v))).toEqual([]);
  });

  it("phones in national form are phones, and names split into first and last columns are names", () => {
    const contacts = "Jane Smith, 07700 900123, jane@mail.example\nOmar Haddad, 030 12345678, omar@mail.example\nLi Wei, 0044 20 7946 0958, li@mail.example";
    expect(types(text(contacts))).toEqual([]);
    const split = "first,last,national id,dob\nAna,Lima,4821309756,1988-04-12\nRui,Costa,7309481520,1979-01-30\nEva,Nunes,1938475022,1992-11-02";
    expect(types(text(split))).toEqual(["pii_bulk.people"]);
  });

  it("a list mostly of placeholders is a fixture; one placeholder among real people is not", () => {
    const fixture = "name,national_id,dob\nTest Testsson,4821309756,1990-01-01\nMax Mustermann,7309481520,1985-05-05\nErika Mustermann,1938475022,1970-07-07";
    expect(types(text(fixture))).toEqual([]);
    const mixed = "name,national_id,dob\nTest Testsson,4821309756,1990-01-01\nRui Costa,7309481520,1985-05-05\nEva Nunes,1938475022,1970-07-07";
    expect(types(text(mixed))).toEqual(["pii_bulk.people"]);
  });

  it("companies are not people", () => {
    const v = "Nordic Pack AB 5566778899 Storgatan 12, Malmö\nBaltic Foods UAB 3012345678 Gedimino 9, Vilnius\nAcme Logistics Ltd 9988776655 King Street 4, Leeds";
    expect(types(text(v))).toEqual([]);
  });

  it("rows of an array of arrays under a header row: a card with its expiry and code is a payment card", () => {
    const rows = [
      ["name", "card", "exp", "cid"],
      ["Dana Whitfield", "6011526018159085", "08/28", "412"],
      ["Marcus Lee", "6011301661318606", "01/29", "907"],
      ["Rosa Alvarez", "6011913909960302", "05/27", "385"],
    ];
    // (Tenth round) a whole card under its column identifies its holder too: the rows are also people's records.
    expect(types(sitesOf({ rows }))).toEqual(["pii_bulk.payment_card", "pii_bulk.people"]);
    // Published test cards are nobody's.
    const test = rows.map((r, i) => (i === 0 ? r : [r[0], "4242424242424242", r[2], r[3]]));
    expect(detectPiiBulk(sitesOf({ rows: test })).map((d) => d.type)).toEqual([]);
  });

  it("entries of one line separated by semicolons, named by a short label", () => {
    const v = "Please check: Ana Lima CI 4.821.309-7; Rui Costa CI 7.309.481-5; Eva Nunes CI 1.938.475-0";
    expect(types(text(v))).toEqual(["pii_bulk.people"]);
    expect(types(text("Please check: Ana Lima 4.821.309-7; Rui Costa 7.309.481-5; Eva Nunes 1.938.475-0"))).toEqual([]);
  });

  it("stays linear on long adversarial text", () => {
    const pieces = ["A1 ", "1 ", "Aa ", "1-", "Aaaa Bbbb 123456789 ", "; 12345", "\"a,", ",,,,", "\n", "Ab Cd Ef Gh 1 2 3 4 5 6 "];
    expectLinear(pieces, (v) => detectPeople(text(v)));
  });
});
