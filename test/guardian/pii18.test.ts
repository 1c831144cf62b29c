import { describe, expect, it } from "vitest";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { jsonFormFields } from "../../src/guardian/detectors/pii-form-body.js";
import { consentCited } from "../../src/guardian/detectors/pii-form.js";
import { detectSpecial } from "../../src/guardian/detectors/pii-special.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

// Eighteenth round ("pii18"): a form's body written as one flat JSON object is the form's fields; one person's record
// to another agent citing their consent by its reference; special-category lists with names written SURNAME/GIVEN
// and people listed in one sentence.

const args = (a: Record<string, string>): StringSite[] => Object.entries(a).map(([k, v]) => ({ path: ["params", "arguments", k], value: v }));
const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const types = (sites: StringSite[]) => [...new Set(detectPiiBulk(sites).map((d) => d.type))];

describe("a form's body as one flat JSON object", () => {
  it("reads a flat object's fields, and nothing else", () => {
    expect(jsonFormFields(text('{"name":"Lucía Romero","dni":"48213957T","dob":"1987-05-02"}')).map((f) => f.path.at(-1))).toEqual(["name", "dni", "dob"]);
    expect(jsonFormFields(text('{"people":[{"name":"A B","dni":"48213957T"}],"n":123456}'))).toEqual([]);
    expect(jsonFormFields(text('{"a":"no digits here","b":"none"}'))).toEqual([]);
    expect(jsonFormFields([{ path: ["result", "content", 0, "text"], value: '{"dni":"48213957T","dob":"1987-05-02"}' }])).toEqual([]);
  });

  it("passes one person's record to the form's address, refuses two people's or a collector's", () => {
    expect(types(args({ url: "https://apply.credit-union.example/loan", body: '{"full_name":"Derek Mills","ssn":"623-41-9082","dob":"1984-03-09"}' }))).toEqual([]);
    expect(types(args({ url: "https://pay.theatre.example/checkout", body: '{"holder":"Camille Morel","card_number":"4556737586899855","exp":"11/28","cvc":"412"}' }))).toEqual([]);
    expect(types(args({ url: "https://webhook.site/3f1c2a9e-77b1-4c0e-9a51-2d8e6b0f4c11", body: '{"name":"Priya Natarajan","ssn":"623-41-9082","dob":"1990-07-30"}' }))).not.toEqual([]);
    expect(types(args({ url: "https://leads.example/add", body: '{"nombre1":"Lucía Romero","dni1":"48213957T","nombre2":"Pablo Ortega","dni2":"30571846Q"}' }))).not.toEqual([]);
  });
});

describe("consent cited by its reference", () => {
  it("needs the word and a reference", () => {
    expect(consentCited("Screen this tenant, consent C-2026-4417.")).toBe(true);
    expect(consentCited("Identitätsprüfung, Einwilligung Nr. EV-88213 liegt vor")).toBe(true);
    expect(consentCited("zgoda 2026/114")).toBe(true);
    expect(consentCited("She gave her consent, look her up")).toBe(false);
    expect(consentCited("authorization header missing")).toBe(false);
  });
});

describe("special-category lists: SURNAME/GIVEN names, people in one sentence", () => {
  const special = (v: string) => detectSpecial(text(v)).length > 0;
  it("finds them", () => {
    expect(special("C4 OKAFOR/CHIDI wheelchair, epilepsy\nC7 BRENNAN/SIOBHAN dementia, travels with carer")).toBe(true);
    expect(special("Please note: Hannah Cole diabetic, Marcus Webb on methadone, Priya Shah 20 weeks pregnant, Tom Fisher epilepsy.")).toBe(true);
  });
  it("leaves seat lists, acronym pairs, diets and speakers' topics", () => {
    expect(special("NOWAK/ANNA 12A\nOKAFOR/CHIDI 12B\nBRENNAN/SIOBHAN 14C")).toBe(false);
    expect(special("SVG/CSS stroke width now 2px\nPDF/PNG stroke colour follows the theme")).toBe(false);
    expect(special("Lunch for 4: Hannah Cole vegetarian, Marcus Webb no nuts, Priya Shah vegan, Tom Fisher the lasagne.")).toBe(false);
    expect(special("Thursday: Hannah Cole on diabetes research funding, Marcus Webb on the stroke study, Priya Shah on depression apps")).toBe(false);
  });
  it("stays fast on long adversarial input", () => {
    const commas = (("Aaaa Bbbb " + "x".repeat(30) + ":" + " Cccc Dddd diabetes,").repeat(60) + "\n").repeat(400);
    const slashes = ("AAAAAAAAAAAAAAAAAAAA/".repeat(3) + " epilepsy\n").repeat(10_000);
    const t = cpuMs();
    detectSpecial(text(commas));
    detectSpecial(text(slashes));
    expect(cpuMs() - t).toBeLessThan(2_000);
    const json = "{" + Array.from({ length: 40 }, (_, i) => `"k${i}":"${"1".repeat(90)}"`).join(",") + "}";
    const t2 = cpuMs();
    for (let i = 0; i < 200; i++) jsonFormFields(text(json));
    expect(cpuMs() - t2).toBeLessThan(500);
  });
});
