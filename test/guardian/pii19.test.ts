import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { catalogueIds } from "../../src/guardian/detectors/pii-catalogue.js";
import { detectMinorsAndDocuments } from "../../src/guardian/detectors/pii-minors.js";
import { cpuMs } from "../support/cpu.js";

// Nineteenth round ("pii19"): numbers under their document's label, in its layout, whose check digits fail still name
// people's documents when a string lists several of them; Arabic labels with their article.

const ids = (v: string) => catalogueIds(v).map((h) => v.slice(h.start, h.end));

describe("labelled identity numbers whose checks fail", () => {
  it("count when a string lists two or more under their labels", () => {
    expect(ids("Иван Петров, ЕГН 8507124411; Мария Иванова, ЕГН 9103085522")).toEqual(["8507124411", "9103085522"]);
    expect(ids("דנה כהן ת.ז. 123456780, יוסי לוי ת.ז. 234567891")).toHaveLength(2);
    expect(ids("خالد ع. الهوية 1122334455، ليلى ف. إقامة 2233445566")).toHaveLength(2);
  });
  it("leave one alone, a repeated one, and a company's tax numbers", () => {
    expect(ids("Клиентът казва, че ЕГН 8507124411 се отхвърля")).toEqual([]);
    expect(ids("ЕГН 8507124411 … again ЕГН 8507124411")).toEqual([]);
    expect(ids("Drvo d.o.o., OIB 12345678901; Metal Plus d.o.o., OIB 23456789012")).toEqual([]);
    expect(ids("إقامة 3 ليال، رقم الحجز 2233445566")).toEqual([]);
  });
  it("stays linear on long adversarial text", () => {
    for (const v of ["ЕГН 8507124411 ".repeat(30_000), "الهوية 1".repeat(40_000), "EID 784-1990-1234567-1, ".repeat(20_000)]) {
      const t = cpuMs();
      catalogueIds(v);
      expect(cpuMs() - t, v.slice(0, 20)).toBeLessThan(1500);
    }
  });
});

const dated = (v: string) => detectMinorsAndDocuments([{ path: ["params", "arguments", "body"], value: v }]).filter((d) => d.type === "pii_bulk.records").length;

describe("birth dates with contacts, typed as lines", () => {
  it("finds three people's birth dates each with a phone or an e-mail", () => {
    expect(dated("Lena Schulz, geb. 14.02.1991, Tel. 0171 2345678\nJonas Weber, geb. 03.07.1988, Tel. 0152 9876543\nMia Fischer, geb. 22.11.1995, Tel. 0160 5554433")).toBe(3);
    expect(dated("Anna Nowak ur. 1987-05-12, tel. 601 234 567; Piotr Zieliński ur. 1979-09-30, tel. 602 345 678; Ewa Wójcik ur. 1992-01-08, tel. 603 456 789")).toBe(3);
    expect(dated("Joanna Reed, born 1979-04-02, jo@mail.example\nSam Okoro, born 1984-10-17, sam@mail.example\nHelen Marsh, born 1990-06-25, hm@mail.example")).toBe(3);
  });
  it("leaves two, the same phone, dates with no birth label, and birth dates with no contact", () => {
    expect(dated("Lena Schulz, geb. 14.02.1991, Tel. 0171 2345678\nJonas Weber, geb. 03.07.1988, Tel. 0152 9876543")).toBe(0);
    expect(dated("Lena Schulz, geb. 14.02.1991, Tel. 0171 2345678\nJonas Schulz, geb. 03.07.1988, Tel. 0171 2345678\nMia Schulz, geb. 22.11.2005, Tel. 0171 2345678")).toBe(0);
    expect(dated("Anna Nowak 2026-12-04 10:30, tel. 601 234 567\nPiotr Zieliński 2026-12-04 11:00, tel. 602 345 678\nEwa Wójcik 2026-12-05, tel. 603 456 789")).toBe(0);
    expect(dated("Lena Schulz, born 1991-02-14\nJonas Weber, born 1988-07-03\nMia Fischer, born 1995-11-22")).toBe(0);
  });
  it("stays linear on long adversarial text", () => {
    for (const v of ["Anna Nowak born 1987-05-12 tel 601 234 567\n".repeat(2000), "born ".repeat(13_000), "1".repeat(65_000), "Ab Cd dob 1".repeat(6_000)]) {
      const t = cpuMs();
      dated(v);
      expect(cpuMs() - t, v.slice(0, 20)).toBeLessThan(1500);
    }
  });
});

describe("pii19: corpus", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/pii19.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
  });
});
