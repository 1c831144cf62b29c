import { describe, expect, it } from "vitest";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";

describe("loading rules", () => {
  it("loads the acceptance rules and the shipped balanced pack unchanged", () => {
    for (const path of ["test/fixtures/rules/acceptance.yaml", "rules/balanced.yaml"]) {
      const { ruleSet, problems } = loadRules(readRuleSources(path));
      expect(problems).toEqual([]);
      expect(ruleSet?.rules.length).toBeGreaterThan(0);
    }
  });

  it("reports every problem with file, line, column and key path", () => {
    const text = [
      "name: bad",
      "rules:",
      "  - id: one",
      "    decision: maybe",
      "  - id: two",
      "    match: { tool: x, colour: red }",
      "    when: 'args.a >'",
      "    decision: deny",
      "  - id: one",
      "    decision: modify",
      "    modify:",
      "      - { replace: '$.[bad', pattern: 'x', with: 'y' }",
    ].join("\n");
    const { ruleSet, problems } = loadRules([{ file: "bad.yaml", text }]);
    expect(ruleSet).toBeUndefined();
    // Schema problems, and the compile problems of the rules that passed the schema, all at once.
    expect(problems.map((p) => [p.line, p.path])).toEqual([
      [4, "rules[0].decision"],
      [6, "rules[1].match"],
      [12, "rules[2].modify[0]"],
    ]);
    expect(problems.every((p) => p.file === "bad.yaml" && p.column > 0)).toBe(true);
  });

  it("reports compile problems (CEL, JSONPath, duplicate ids) all at once", () => {
    const text = [
      "name: bad",
      "rules:",
      "  - id: one",
      "    when: 'args.a >'",
      "    decision: deny",
      "  - id: one",
      "    decision: modify",
      "    modify:",
      "      - { replace: '$.[bad', pattern: 'x', with: 'y' }",
      "  - id: three",
      "    when: 'argz.a > 1'",
      "    decision: deny",
    ].join("\n");
    const { problems } = loadRules([{ file: "c.yaml", text }]);
    expect(problems.map((p) => [p.line, p.path])).toEqual([
      [4, "rules[0].when"],
      [6, "rules[1].id"],
      [9, "rules[1].modify[0]"],
      [11, "rules[2].when"],
    ]);
  });

  it("refuses YAML syntax errors with a position", () => {
    const { problems } = loadRules([{ file: "y.yaml", text: "name: x\nrules: [\n" }]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.line).toBeGreaterThan(0);
  });
});
