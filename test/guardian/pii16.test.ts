import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { CATALOGUE, cardCells, cardDumps, catalogueIds, catalogueLabel } from "../../src/guardian/detectors/pii-catalogue.js";
import { collectStrings, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Sixteenth round ("pii16"): the identifier catalogue (Purview, Cloud DLP, Presidio) country by country, its labels as
// column headers and field names, card details in more languages and as stripe data or rows; the cost on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const ids = (v: string) => catalogueIds(v).map((h) => h.id);
const check = (id: string, code: string) => (CATALOGUE.find((e) => e.id === id)?.check ?? (() => false))(code);

describe("the identifier catalogue", () => {
  it("checks numbers by their countries' check digits and dates", () => {
    expect(check("ro-cnp", "1850314409858")).toBe(true);
    expect(check("ro-cnp", "1850314409859")).toBe(false);
    expect(check("si-rs-mk-ba-me-jmbg", "1403985507733")).toBe(true);
    expect(check("ee-lt-personal-code", "38503149317")).toBe(true);
    expect(check("ae-emirates-id", "784198586175378")).toBe(true);
    expect(check("ae-emirates-id", "784198586175379")).toBe(false);
    expect(check("th-citizen-id", "1078560846288")).toBe(true);
    expect(check("ua-rnokpp", "3747162206")).toBe(true);
    expect(check("ua-rnokpp", "3747162207")).toBe(false);
  });

  it("reads a number after its label, in its shape", () => {
    expect(ids("Ivan Petrov, ЕГН 8807122827")).toEqual(["bg-egn"]);
    expect(ids("Aoife Byrne, PPS number 9944873H")).toEqual(["ie-ppsn"]);
    expect(ids("Claire Martin, passeport 19AB12345")).toEqual(["any-passport"]);
    // a label in lower case that is a common word in capitals only, and a shared tax number beside a company, are not
    expect(ids("pin 12-345678901-2")).toEqual([]);
    expect(catalogueIds("Gradnja d.o.o., OIB 68424691419")).toEqual([]);
  });

  it("counts bare digit runs alone only as a column whose every run checks", () => {
    expect(ids("Anan 1078560846288 | Pim 3434989406100 | Chai 5958812191811")).toHaveLength(3);
    expect(ids("order 1078560846288")).toEqual([]);
    expect(ids("1764201600000 start\n1770603113706 retry\n1764209621947 ok\n1780606481615 retry")).toEqual([]);
  });

  it("names identity columns and keys by the catalogue's labels, not by common field names", () => {
    expect(["teudat_zehut", "adoazonosito", "rnokpp", "egn", "amka"].every(catalogueLabel)).toBe(true);
    expect(["vin", "cc", "pin", "id", "name", "national_id"].some(catalogueLabel)).toBe(false);
    expect(detectPiiBulk(text("ime,egn,zaplata\nIvan Petrov,8807122827,2100\nMaria Ivanova,9102031607,2350")).length).toBeGreaterThan(0);
    expect(detectPiiBulk(text("vin,last_service\nWVWZZZ1JZXW000001,2026-03-14\nWDB1240231A123456,2026-04-02"))).toEqual([]);
  });

  it("reads cards from stripe tracks, stacked lines, rows and array rows", () => {
    expect(cardDumps(";4556737586899855=27121011234567890?")).toHaveLength(1);
    expect(cardDumps("%B4556737586899855^DOE/JOHN^2712101000000000000000000?")).toHaveLength(1);
    expect(cardDumps("4556 7375 8689 9855\n12/27\n331")).toHaveLength(1);
    expect(cardDumps("L. Moreau 4439240678537494 09/28")).toHaveLength(1);
    const rows = collectStrings({ params: { rows: [["A. Lind", "4544135080531931", "06/29"], ["ORD-20931", "11/27", "2 items"]] } });
    expect(cardCells(rows)).toHaveLength(1);
    expect(types(detectPiiBulk(text("Kreditkarte 4556 7375 8689 9855, gültig bis 12/27, Prüfnummer 331")))).toEqual(["pii_bulk.payment_card"]);
    expect(detectPiiBulk(text("Pay with my card 5439301834771323 01/27 please"))).toEqual([]);
  });

  it("stays linear on adversarial text", () => {
    expectLinear(["EGN ", "passeport ", "1 ", "784-1985-", "PPS number 1234567", "Emirates ID "], (v: string) => catalogueIds(v));
    expectLinear(["4556737586899855=", "%B4556737586899855^", "4556737586899855 09/", "4556 7375 8689 9855\n12/27\n"], (v: string) => cardDumps(v));
    expectLinear(["name,egn,x\n", "Ivan Petrov,8807122827,2100\n", "ЕГН 8807122827 "], (v: string) => detectPiiBulk(text(v)));
  });
});
