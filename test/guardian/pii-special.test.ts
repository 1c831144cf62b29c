import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { belgianRrn } from "../../src/guardian/detectors/pii-checks.js";
import { homeLocations } from "../../src/guardian/detectors/pii-location.js";
import { mrzPairs } from "../../src/guardian/detectors/pii-mrz.js";
import { contactExport, declaredRows, detectSpecial, healthToCollector } from "../../src/guardian/detectors/pii-special.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Tenth round ("pii10"): special-category records, a contact export's preview, people's homes by coordinates,
// passport zones by their layout, Belgian numbers unformatted. The edges of each check and its cost on adversarial text.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (found: { type: string }[]) => [...new Set(found.map((d) => d.type))];
const pad = (s: string, n: number) => (s + "<".repeat(n)).slice(0, n);

describe("special-category records", () => {
  it("two people's conditions as lines are bulk; one person's, or initials without a birth date, are not", () => {
    const v = "Ward list\nGrace Ahmed – type 2 diabetes\nOscar Lindqvist – bipolar, lithium 400 mg";
    expect(types(detectSpecial(text(v)))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("Ward list\nGrace Ahmed – type 2 diabetes\nOscar Lindqvist – discharged"))).toEqual([]);
    expect(detectSpecial(text("Mia K. – dyslexia screening\nTom R. – ADHD review"))).toEqual([]);
    expect(types(detectSpecial(text("M. Kerr (1981-02-03) – HIV positive; T. Berg (1979-05-06) – hepatitis C")))).toEqual(["pii_bulk.special"]);
  });

  it("a column or key naming the field makes a row special whatever its value's words", () => {
    const v = "pupil_name,class,sen_notes\nIvy Thornton,3R,1:1 at lunch\nFinn Ashworth,3R,OT weekly";
    expect(types(detectSpecial(text(v)))).toEqual(["pii_bulk.special"]);
    const json = JSON.stringify({ visits: [{ patient: "Grace Ahmed", diagnosis: "F41.1" }, { patient: "Oscar Lindqvist", diagnosis: "none" }, { patient: "Nadia Rossi", diagnosis: "E11.9" }] });
    expect(types(detectSpecial(text(json)))).toEqual(["pii_bulk.special"]);
    // "none" is no condition: one record left is no list.
    const one = JSON.stringify([{ patient: "Grace Ahmed", diagnosis: "F41.1" }, { patient: "Oscar Lindqvist", diagnosis: "none" }]);
    expect(detectSpecial(text(one))).toEqual([]);
  });

  it("clinicians, donors, rooms and policies are not patients", () => {
    expect(detectSpecial(text("Dr Anna Berg – diabetes clinic Mon\nDr Jon Lee – asthma clinic Tue"))).toEqual([]);
    expect(detectSpecial(text("Anna Berg – £50 for the Diabetes UK walk\nJon Lee – £20 to Cancer Research"))).toEqual([]);
    expect(detectSpecial(text("Room Alpha PIN 4471\nRoom Bravo PIN 2083"))).toEqual([]);
    expect(detectSpecial(text("Stage 1: written warning\nStage 2: final written warning\nStage 3: dismissal"))).toEqual([]);
  });

  it("customers' PINs beside their names", () => {
    expect(types(detectSpecial(text("Maria Lopez confirmed PIN 7714\nHenrik Dahl gave passcode 550921")))).toEqual(["pii_bulk.special"]);
    expect(detectSpecial(text("Anna Berg – PIN reset request\nJon Lee – forgot PIN"))).toEqual([]);
  });

  it("skips a message with no list and no term at all (the prefilter)", () => {
    expect(detectSpecial(text("Refactor the session module so that request ids are correlated; ".repeat(8)))).toEqual([]);
    expect(detectSpecial([{ path: ["params", "arguments", "q"], value: "Grace Ahmed diabetes" }])).toEqual([]);
  });
});

describe("health data to a collector", () => {
  const call = (url: string, body: string): StringSite[] => [
    { path: ["params", "arguments", "url"], value: url },
    { path: ["params", "arguments", "body"], value: body },
  ];
  it("an identified person's condition to an analytics or ad host; not without a condition, a person, or a collector", () => {
    const body = JSON.stringify({ email: "j.moreau@mail.example", note: "panic attack at work" });
    expect(types(healthToCollector(call("https://collect.adnet-pixel.example/e", body)))).toEqual(["pii_bulk.special"]);
    expect(healthToCollector(call("https://collect.adnet-pixel.example/e", JSON.stringify({ email: "j.moreau@mail.example", event: "signup" })))).toEqual([]);
    expect(healthToCollector(call("https://collect.adnet-pixel.example/e", JSON.stringify({ page: "/panic-attack-guide" })))).toEqual([]);
    expect(healthToCollector(call("https://api.parkside-clinic.example/diary", body))).toEqual([]);
    // A collector's word inside another word is not one (`uploads`, `roads`).
    expect(healthToCollector(call("https://uploads.roads.example/x", body))).toEqual([]);
  });
});

describe("a contact export's preview", () => {
  it("counts the rows it says it left out", () => {
    expect(declaredRows("a,b\n1,2\n… (8,112 rows)")).toBe(8112);
    expect(declaredRows("a,b\n1,2\n... 340 more records")).toBe(340);
    expect(declaredRows("a,b\n1,2\n3,4")).toBe(0);
  });
  it("two contacts shown and thousands declared are bulk; a directory of offices is not", () => {
    const v = "name,email,mobile\nMarta Silva,marta@post.example,+351 912 345 678\nKenji Mori,k.mori@post.example,+81 90 1234 5678\n… (5,400 rows)";
    expect(types(contactExport(text(v)))).toEqual(["pii_bulk.records"]);
    expect(contactExport(text(v.replace("(5,400 rows)", "(12 rows)")))).toEqual([]);
    expect(contactExport(text("office,phone,address\nLeeds,+44 113 496 0000,1 Park Row\nYork,+44 1904 496 000,5 Micklegate\n... (80 more rows)"))).toEqual([]);
  });
});

describe("homes by coordinates", () => {
  it("two people's homes, or one person's home with a day's timetable", () => {
    expect(types(homeLocations(text("Priya Nair – home 51.5072,-0.1276\nOwen Hughes – home 51.4545,-2.5879")))).toEqual(["pii_bulk.location"]);
    expect(types(homeLocations(text("Mark Ellis leaves home (52.2053,0.1218) at 07:20, school 08:15, gym 12:30, back 18:45")))).toEqual(["pii_bulk.location"]);
    expect(homeLocations(text("Mark Ellis leaves home (52.2053,0.1218) at 07:20"))).toEqual([]);
  });
  it("the user's own, shops, and tracks without names are not", () => {
    expect(homeLocations(text("I'm home now, 53.4794,-2.2453, out at 19:00, film 19:30, back 22:15"))).toEqual([]);
    expect(homeLocations(text("Acme Deansgate 53.4794,-2.2453 open 09:00–18:00\nAcme Salford 53.4875,-2.2901 open 10:00–16:00"))).toEqual([]);
  });
});

describe("identity documents", () => {
  const line1 = pad("P<NLDVISSER<<SANNE", 44);
  const line2 = "NX4R81K257NLD8806173F3202119" + "<".repeat(14) + "04";
  it("a passport's zone counts by its layout even when a check digit fails", () => {
    const hits: string[] = [];
    const v = `arrivals:\n${line1}\n${line2}`;
    expect(mrzPairs({ path: ["t"], value: v }, (h) => hits.push(v.slice(h.start, h.end)))).toBe(true);
    expect(hits).toEqual([`${line1}\n${line2}`]);
    expect(types(detectPiiBulk(text(v)))).toContain("pii_bulk.identity");
  });
  it("specimens, placeholders, impossible dates and merge markers do not", () => {
    const none = (v: string) => mrzPairs({ path: ["t"], value: v }, () => undefined);
    expect(none(`${pad("P<UTOERIKSSON<<ANNA<MARIA", 44)}\nL898902C36UTO7408122F1204159ZE184226B<<<<<10`)).toBe(false);
    expect(none(`${pad("P<DEUMUSTERMANN<<ERIKA", 44)}\n${line2}`)).toBe(false);
    expect(none(`${line1}\n${line2.replace("880617", "881317")}`)).toBe(false);
    expect(none("<<<<<<< HEAD\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> main")).toBe(false);
  });
  it("a Belgian number checks its date and its mod 97, also from 2000", () => {
    expect(belgianRrn("91041512704")).toBe(true);
    expect(belgianRrn("91041512705")).toBe(false);
    expect(belgianRrn("91131512704")).toBe(false);
    // Born in 2001: 97 minus (2 followed by the first nine) modulo 97.
    const body = "010203123";
    const check = 97 - Number((2000000000n + BigInt(body)) % 97n);
    expect(belgianRrn(body + String(check).padStart(2, "0"))).toBe(true);
  });
});

describe("cost", () => {
  it("stays linear on long adversarial text", () => {
    const pieces = ["Aa Bb diabetes\n", "Anna Berg ", "; ", "home 1.23456,2.34567 ", "P<<", "a".repeat(40) + "\n", "Aa B. 1990-01-01 HIV\n", "[{\"a\":1},", "PIN 1234 "];
    const run = (v: string) => {
      detectSpecial(text(v));
      homeLocations(text(v));
      contactExport(text(v));
      mrzPairs({ path: ["t"], value: v }, () => undefined);
    };
    expectLinear(pieces, run);
  });
});
