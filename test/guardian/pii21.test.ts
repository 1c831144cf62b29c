import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { collectStrings } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Twenty-first round ("pii21"): two identity numbers of different kinds, each in its own field of one record that
// names one person, are that person's documents, not a list of people.

const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const call = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "t", arguments: args } });
const a2a = (parts: unknown[]) => collectStrings({ method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts } } });

describe("one person's documents in one record", () => {
  it("lets a national number and a document number in two fields of one record pass", () => {
    expect(detectPiiBulk(a2a([{ kind: "data", data: { tenant: "Tomasz Lis", pesel: "85010112345", passport: "passport EA7788123" } }]))).toEqual([]);
    expect(detectPiiBulk(call({ employee: "Lucía Romero", dni: "DNI 12345678Z", nss: "NSS 281234567840" }))).toEqual([]);
  });

  it("still finds two numbers of one kind, numbers in two records, or in one line", () => {
    expect(types(detectPiiBulk(call({ first: "PESEL 85010112345", second: "PESEL 91110224938" })))).toEqual(["pii_bulk.id_list"]);
    expect(detectPiiBulk(a2a([{ kind: "data", data: { people: [{ name: "A B", ssn: "SSN 512-48-7723" }, { name: "C D", passport: "passport X12345678" }] } }])).length).toBeGreaterThan(0);
    expect(types(detectPiiBulk(call({ text: "Lucía Romero DNI 12345678Z; Pablo Gil NSS 281234567840" })))).toEqual(["pii_bulk.id_list"]);
  });

  it("stays fast on long adversarial fields", () => {
    expectLinear(["PESEL 85010112345 ", "DNI 12345678Z ", "name: "], (v: string) => detectPiiBulk(call({ pesel: v, passport: "passport X12345678", name: "A B" })));
  });
});
