import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { detectPeopleRows, iranNationalCode } from "../../src/guardian/detectors/pii-rows.js";
import { detectReturnedBulk } from "../../src/guardian/detectors/pii-returned.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, twenty-sixth round ("pii26"): people's records handed back in a result or a reply (pii-rows.ts). */

const CODE = "pii_bulk.people_rows";
const reply = (value: string): StringSite[] => [{ path: ["result", "parts", 0, "text"], value }];
const found = (sites: StringSite[]): string[] => [...new Set(detectReturnedBulk(sites).map((d) => d.type))];

describe("pii26: people's rows in a reply", () => {
  it("finds lines with a birth date and a phone, three people or more", () => {
    const t = "Members:\nGrace Liddell, born 14/02/1979, +44 7911 204 377\nTomasz Wrona, born 03/09/1990, +44 7700 183 902\nPriya Raman, 21.12.1985, +44 7456 330 118";
    expect(found(reply(t))).toContain(CODE);
    // Each record's line is cut, the heading is kept.
    const spans = detectPeopleRows(reply(t));
    expect(spans).toHaveLength(3);
    expect(spans.every((d) => t.slice(d.start, d.end).includes("+44"))).toBe(true);
    expect(spans.some((d) => t.slice(d.start, d.end).includes("Members"))).toBe(false);
  });
  it("reads identity numbers: an SSN's shape, a checked national number, Iran's national code", () => {
    expect(found(reply("Maria Gonzales | 1968-11-03 | 219-45-7781\nSteven Okoro | 1990-02-17 | 431-60-2254"))).toContain(CODE);
    expect(iranNationalCode("0084575948")).toBe(true);
    expect(iranNationalCode("0084575949")).toBe(false);
    expect(iranNationalCode("1111111111")).toBe(false);
    expect(found(reply("سارا کریمی، کد ملی ۰۰۸۴۵۷۵۹۴۸، تلفن ۰۹۱۲۳۴۵۶۷۸۹\nرضا احمدی، کد ملی ۱۲۳۴۵۶۷۸۹۱، تلفن ۰۹۳۵۱۱۱۲۲۳۳\nمریم نوری، کد ملی ۰۴۹۰۲۴۳۳۷۱، تلفن ۰۹۱۹۸۸۷۷۶۶۵"))).toContain(CODE);
  });
  it("reads digits of other scripts and names without capitals (Hindi)", () => {
    expect(found(reply("राहुल शर्मा — जन्म १९८६-०४-१२ — +९१ ९८७६५ ४३२१०\nअनीता वर्मा — जन्म १९९१-०९-०३ — +९१ ९१२३४ ५६७८९\nसुरेश यादव — जन्म १९७७-१२-२५ — +९१ ९९८८७ ६६५५४"))).toContain(CODE);
  });
  it("finds a JSON list's records and cuts every field of them", () => {
    const base = ["result", "parts", 0, "data", "accounts"];
    const people = [
      ["Kim Ode", "1983-06-14", "+1 206 555 0199", "12 Pine St"],
      ["Ari Lund", "1991-10-02", "+1 206 555 0142", "40 Oak Ave"],
      ["Bo Fenn", "1957-01-28", "+1 206 555 0187", "7 Elm Ct"],
    ];
    const sites: StringSite[] = people.flatMap((p, i) => ["name", "birthDate", "phone", "address"].map((k, j) => ({ path: [...base, i, k], value: p[j] as string })));
    const d = detectPeopleRows(sites);
    expect(d.map((x) => x.type)).toContain(CODE);
    expect(new Set(d.map((x) => JSON.stringify(x.path))).size).toBe(12);
  });
  it("leaves directories, one person, a couple, recent dates, birthdays without contacts, unnamed rows", () => {
    expect(found(reply("Grace Liddell — grace.liddell@northwind.example — +44 20 7946 0101\nTomasz Wrona — tomasz.wrona@northwind.example — +44 20 7946 0102\nPriya Raman — priya.raman@northwind.example — +44 20 7946 0103"))).toEqual([]);
    expect(found(reply("Your profile: Jonas Keller, born 12.03.1978, mobile +49 151 2345 6789, member since 2019-05-01."))).toEqual([]);
    expect(found(reply("Ana Beltrán, born 1981-06-09, +34 612 334 901\nLuis Pardo, born 1975-01-22, +34 633 210 457"))).toEqual([]);
    const recent = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect(found(reply(`Lena Vogt; ${recent}; +49 160 9876 5432\nMehmet Arslan; ${recent}; +49 171 4455 6677\nJonas Keller; ${recent}; +49 151 2345 6789`))).toEqual([]);
    expect(found(reply("Grace Liddell 1979-02-14\nTomasz Wrona 1990-09-03\nPriya Raman 1985-12-21"))).toEqual([]);
    expect(found(reply("1979-02-14 +44 7911 204 377 ok\n1990-09-03 +44 7700 183 902 ok\n1985-12-21 +44 7456 330 118 ok"))).toEqual([]);
  });
  it("does not read an SSN's invalid shapes (area 000, 666, 9xx) as identity numbers", () => {
    expect(found(reply("Dana Cole | 666-12-3456 | x\nEli Ward | 900-22-9034 | y\nIra Moss | 000-11-2222 | z"))).toEqual([]);
  });
  it("stays linear on long adversarial input", () => {
    const long = ("Ab Cd 1980-01-01 +44 7911 204 377 " + "9".repeat(40) + "-").repeat(1500) + "\n" + "1-".repeat(20000) + "\n" + "Ab Cd;".repeat(10000);
    const t = cpuMs();
    detectReturnedBulk(reply(long));
    expect(cpuMs() - t).toBeLessThan(4000);
  });
  it("the pii26 corpus passes with the default pack", () => {
    const s = runTestFiles("test/fixtures/corpus/pii26.test.yaml");
    expect(s.failed).toBe(0);
    expect(s.passed).toBeGreaterThanOrEqual(14);
  });
});
