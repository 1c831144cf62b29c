import { describe, expect, it } from "vitest";
import { detectReturnedBulk } from "../../src/guardian/detectors/pii-returned.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

// Seventeenth round ("pii17"): several people's identity or payment numbers handed back to the agent in a result or
// a reply (pii-returned.ts); one person's own record, masked cards, suppliers' accounts and aggregates pass.

const text = (v: string): StringSite[] => [{ path: ["result", "content", 0, "text"], value: v }];
const types = (v: string) => [...new Set(detectReturnedBulk(text(v)).map((d) => d.type))];

describe("bulk identity or payment numbers handed back", () => {
  it("finds several people's numbers and cuts spans that hold them", () => {
    const roster = "name,ssn,birth_date\nDerek Mills,512-38-7046,1984-03-09\nPriya Natarajan,623-41-9082,1990-07-30\nLeon Fischer,418-57-2316,1975-12-01";
    const found = detectReturnedBulk(text(roster));
    expect(found.length).toBeGreaterThan(0);
    for (const d of found) expect(roster.slice(d.start, d.end)).toMatch(/\d{3}-\d{2}-\d{4}/);
    expect(types("Lucía Romero, DNI 48213957T, tel. 612 448 201\nPablo Ortega, DNI 30571846Q, tel. 633 902 114")).not.toEqual([]);
    expect(types("Giulia Bassi, carta 4532014977315829, scadenza 04/29, CVV 381; Marco Ferri, carta 5376129044182733, scadenza 11/27, CVV 905")).toContain("pii_bulk.payment_card");
  });

  it("passes one person's own record, masked cards, suppliers' IBANs and counts", () => {
    expect(types("Name: Sam Carter\nPassport: 533412987\nDate of birth: 1986-09-17")).toEqual([]);
    expect(types("Default card: 4917188203654410, expires 08/28")).toEqual([]);
    expect(types("order,customer,card\n88120,Nora Lind,**** 5829\n88131,Omar Aziz,**** 2733\n88140,Eva Stone,**** 4410")).toEqual([]);
    expect(types("Krüger GmbH;DE02370400440532013111;4.210,00\nHahn KG;DE44500105175407324931;980,50\nVogel GmbH;DE79100100101234567891;312,00")).toEqual([]);
    expect(types("North 12,402; South 9,877; East 15,310; West 7,046")).toEqual([]);
  });

  it("returns before any scan without two long numbers, and judges only a string's head", () => {
    expect(detectReturnedBulk(text("Build 7 finished in 12 s; 3 warnings"))).toEqual([]);
    const big = "Lorem ipsum 1234 dolor sit amet. ".repeat(40_000);
    const t = cpuMs();
    detectReturnedBulk(text(big));
    const short = cpuMs() - t;
    const t2 = cpuMs();
    detectReturnedBulk(text(big + big + big));
    // the head is the same 64 KB: three times the text costs about the same, not three times more
    expect(cpuMs() - t2).toBeLessThan(short * 3 + 20);
    const rows = Array.from({ length: 20_000 }, (_, i) => `Derek Mills,${512 + (i % 300)}-${10 + (i % 80)}-${String(1000 + i).slice(-4)},1984-03-09\n`).join("");
    const t3 = cpuMs();
    expect(detectReturnedBulk(text(rows)).length).toBeGreaterThan(0);
    expect(cpuMs() - t3).toBeLessThan(2_000);
  });
});
