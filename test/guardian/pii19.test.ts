import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { catalogueIds } from "../../src/guardian/detectors/pii-catalogue.js";
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

describe("pii19: corpus", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/pii19.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
  });
});
