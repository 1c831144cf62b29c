import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { detectPiiBulk } from "../../src/guardian/detectors/pii-bulk.js";
import { detectPeople } from "../../src/guardian/detectors/pii-people.js";
import { checkedColumn, fodselsnummerNo, nationalDated, nationalSure, nikId, personasKodsLv, personnummerSe, residentIdCn, rrnKr } from "../../src/guardian/detectors/pii-national.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, twenty-fourth round ("pii24"): people's lists keyed by unlabelled national identity numbers (pii-national.ts). */

const ARGS = ["params", "arguments"];
const text = (value: string): StringSite[] => [{ path: [...ARGS, "text"], value }];
const types = (sites: StringSite[]): string[] => [...new Set(detectPeople(sites).map((d) => d.type))];
const bulk = (sites: StringSite[]): string[] => [...new Set(detectPiiBulk(sites).map((d) => d.type))];

describe("pii24: national numbers that carry a birth date and a check", () => {
  it("accepts each country's valid numbers", () => {
    expect(personnummerSe("7811051676")).toBe(true);
    expect(personnummerSe("197811051676")).toBe(true);
    expect(fodselsnummerNo("12070514735")).toBe(true);
    expect(personasKodsLv("04077912349")).toBe(true);
    expect(personasKodsLv("04077912340")).toBe(false);
    expect(rrnKr("8604151005713")).toBe(true);
    expect(residentIdCn("440306198705129190")).toBe(true);
    expect(nikId("3273046108897919")).toBe(true);
  });
  it("refuses a wrong check digit, an impossible date, a date of this year, a region that is none", () => {
    expect(personnummerSe("7811051677")).toBe(false);
    expect(fodselsnummerNo("12070514736")).toBe(false);
    expect(rrnKr("8604151005714")).toBe(false);
    expect(residentIdCn("440306198705129191")).toBe(false);
    expect(nationalDated("993113001234")).toBe(false);
    const now = new Date();
    const ymd = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}${String(now.getUTCDate()).padStart(2, "0")}`;
    for (const c of "0123456789") expect(personnummerSe(ymd + "001" + c)).toBe(false);
    expect(nikId("9973046108897919")).toBe(false);
    expect(nikId("3273049908897919")).toBe(false);
  });
  it("counts two records only for numbers with a check digit (a NIK needs three)", () => {
    expect(nationalSure("197811051676")).toBe(true);
    expect(nationalSure("3273046108897919")).toBe(false);
  });
});

describe("pii24: a column of numbers that all pass one short check", () => {
  it("names three Israeli ids or My Numbers, not two, and not a column where one fails", () => {
    expect(checkedColumn(["301989851", "302722954", "303246599"])).toBe(true);
    expect(checkedColumn(["700000837832", "700001047290", "700001152019"])).toBe(true);
    expect(checkedColumn(["301989851", "302722954"])).toBe(false);
    expect(checkedColumn(["301989851", "302722954", "303246598"])).toBe(false);
    expect(checkedColumn(["301989851", "301989851", "301989851"])).toBe(false);
    expect(checkedColumn(["000000000", "000000000", "000000000"])).toBe(false);
  });
});

describe("pii24: people's lists", () => {
  it("finds names beside unlabelled national numbers in several languages and layouts", () => {
    expect(types(text("Lønn:\nKari Nordmann 12070514735 41 200 kr\nOla Hansen 03110633520 38 900 kr\nSiri Berg 29023666497 52 300 kr"))).toEqual(["pii_bulk.national_ids"]);
    expect(types(text("Penerima:\nRina Wulandari 3273046108897919\nAhmad Fauzi 3171052211910919\nKetut Ayu 5171034507950919"))).toEqual(["pii_bulk.national_ids"]);
    expect(types(text("Anna Ek 19781105-1676\nJohan Lind 19650923-7514"))).toEqual(["pii_bulk.national_ids"]);
    expect(types(text("Tenants:\nDana Levi, 301989851, 4200\nMoshe Katz, 302722954, 3950\nRuth Amar, 303246599, 5100"))).toEqual(["pii_bulk.national_ids"]);
    expect(types(text("社員一覧\n田中 太郎 700000837832\n山田 花子 700001047290\n小林 健 700001152019"))).toEqual(["pii_bulk.national_ids"]);
    expect(types(text("Socios: Lucía Vera 0911570935; Andrés Mora 0911780393; Paola Ríos 1711570935"))).toEqual(["pii_bulk.national_ids"]);
  });
  it("leaves a list another check already names under that check's code", () => {
    // Korean resident numbers are read as an identity list by pii-bulk.ts itself: `national_ids` adds nothing there.
    expect(bulk(text("회원: 김민준 860415-1005713; 이서연 920730-1100741; 박도윤 860415-1227445"))).not.toContain("pii_bulk.national_ids");
    expect(bulk(text("Tenants:\nDana Levi, 301989851, 4200\nMoshe Katz, 302722954, 3950\nRuth Amar, 303246599, 5100"))).toEqual(["pii_bulk.national_ids"]);
  });
  it("passes numbers that do not pass, a date of this year, one person, two NIKs, phones without spaces", () => {
    expect(bulk(text("Weekend shifts:\nDana Levi 402118734\nMoshe Katz 402118735\nRuth Amar 402118736"))).toEqual([]);
    expect(types(text("Weekend shifts:\nDana Levi 402118734\nMoshe Katz 402118735\nRuth Amar 402118736"))).toEqual([]);
    expect(types(text("Jane Smith 202611240017\nOmar Haddad 202611250021\nLi Wei 202611260033"))).toEqual([]);
    expect(types(text("Mitt fødselsnummer er 12070514735, jeg trenger skattekortet."))).toEqual([]);
    expect(types(text("Rina Wulandari 3273046108897919\nAhmad Fauzi 3171052211910919"))).toEqual([]);
    expect(types(text("Jour:\nAnna Ek 0734412290\nJohan Lind 0762219034\nSara Berg 0739981102"))).toEqual([]);
    expect(types(text("Klaus Weber 4471029384\nMaria Schulz 4471029385\nPeter Braun 4471029386"))).toEqual([]);
  });
  it("stays linear on long adversarial input", () => {
    const long = ("Anna Ek 19781105-1676 " + "9".repeat(30) + "\n").repeat(4000);
    const t0 = cpuMs();
    for (let i = 0; i < 3; i++) detectPiiBulk(text(long));
    expect(cpuMs() - t0).toBeLessThan(3000);
  });
});

describe("pii24: the corpus file", () => {
  it("passes every case", () => {
    const summary = runTestFiles("test/fixtures/corpus/pii24.test.yaml");
    expect(summary.files[0]!.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`)).toEqual([]);
    expect(summary.passed).toBeGreaterThanOrEqual(13);
  });
});
