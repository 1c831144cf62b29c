import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRules, PACK_PARSES_DIR, PACKS_DIR, packParse, type PackParse } from "../../src/guardian/rules/load.js";

// The shipped packs are parsed and validated by the build (scripts/build-packs.mjs) into dist/packs/; a command using
// them reads that instead of running the YAML parser and the schema (docs/benchmarks.md, start-up).
const packs = readdirSync(PACKS_DIR).filter((f) => f.endsWith(".yaml") && !f.endsWith(".test.yaml"));
const built = (pack: string) => JSON.parse(readFileSync(join(PACK_PARSES_DIR, pack.replace(/\.yaml$/, ".json")), "utf8")) as PackParse;

describe("the shipped packs as the build parsed them", () => {
  it("the build kept every shipped pack, parsed from its current text (npm run build)", () => {
    expect(packs.length).toBeGreaterThanOrEqual(3);
    for (const pack of packs) {
      const file = join(PACKS_DIR, pack);
      expect(built(pack), pack).toEqual(packParse(file, readFileSync(file, "utf8")));
    }
  });

  it("a pack loaded from the build compiles to the same rule set as the same text parsed as any file", () => {
    const dir = mkdtempSync(join(tmpdir(), "guardwire-packs-"));
    for (const pack of packs.filter((p) => !readFileSync(join(PACKS_DIR, p), "utf8").includes("extends:"))) {
      const text = readFileSync(join(PACKS_DIR, pack), "utf8");
      writeFileSync(join(dir, pack), text);
      const fromBuild = loadRules([{ file: join(PACKS_DIR, pack), text }]);
      const fromText = loadRules([{ file: join(dir, pack), text }]);
      expect(fromBuild.problems).toEqual([]);
      expect(fromBuild.ruleSet?.hash).toBe(fromText.ruleSet?.hash);
      const view = (l: typeof fromBuild) => l.ruleSet?.rules.map((r) => [r.id, r.order, r.decision, r.mode, r.reasonCode, r.message, r.direction, r.kinds && [...r.kinds], r.methodLiterals, r.when !== null]);
      expect(view(fromBuild)?.length).toBeGreaterThan(0);
      expect(view(fromBuild)).toEqual(view(fromText));
    }
  });

  it("a shipped pack whose text is not the one built is parsed from its text: its problems have lines", () => {
    const file = join(PACKS_DIR, "balanced.yaml");
    const text = readFileSync(file, "utf8") + "\n  - id: broken-after-build\n    decision: perhaps\n";
    const { ruleSet, problems } = loadRules([{ file, text }]);
    expect(ruleSet).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file, line: text.split("\n").length - 1 });
  });
});
