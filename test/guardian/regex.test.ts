import { describe, expect, it } from "vitest";
import { requiredLiteral, safeRegex } from "../../src/guardian/regex.js";

describe("required literals (a sound prefilter for RE2)", () => {
  it.each([
    ["rm\\s+-rf\\s+/", "-rf"],
    ["\\.ssh/id_rsa", ".ssh/id_rsa"],
    ["DROP\\s+TABLE", "TABLE"],
    ["(?i)drop\\s+table", "table"],
    ["curl[^|]*\\|\\s*sh", "curl"],
    ["abcd?ef", "abc"],
    ["x(abc)+yzw", "abc"],
  ])("%s requires %s", (pattern, lit) => {
    expect(requiredLiteral(pattern, false)?.anyOf).toEqual([lit]);
  });

  it.each([
    ["AKIA[0-9A-Z]{16}|gh[pousr]_x|xoxb-", ["AKIA", "gh", "xoxb-"]],
    ["(^|[;&|(]\\s*)(sudo|su|doas)\\s", ["sudo", "su", "doas"]],
    ["(?:curl|wget)[^|]*\\|\\s*sh", ["curl", "wget"]],
  ])("%s requires one of %j", (pattern, lits) => {
    expect(requiredLiteral(pattern, false)?.anyOf).toEqual(lits);
  });

  it.each(["a|bcd", "(sudo|s)\\s", "[abc]+", "\\Qabc\\E", "a", "a.b.c", "(abc)?x", "(abc)*"])("%s requires nothing", (pattern) => {
    expect(requiredLiteral(pattern, false)).toBeNull();
  });

  it("never changes what matches", () => {
    const cases: [string, string, string][] = [
      ["rm\\s+-rf\\s+/", "", "rm  -rf /"],
      ["(?i)drop\\s+table", "", "Drop   TABLE users"],
      ["abcd?ef", "", "abcef"],
      ["x(abc)+yzw", "", "xabcabcyzw"],
      ["(^|[;&|(]\\s*)(sudo|su|doas)\\s", "", "ls; sudo rm"],
      ["AKIA[0-9A-Z]{16}|xoxb-", "", "key AKIAIOSFODNN7EXAMPLE"],
      ["secret", "i", "SeCrEt"],
      // RE2 folds case as Unicode does: the long s and the Kelvin sign match s and k, so the prefilter must too.
      ["secret", "i", "\u017Fecret"],
      ["(?i)kube/config", "", "\u212Aube/config"],
    ];
    for (const [pattern, flags, input] of cases) {
      expect(safeRegex(pattern, flags).test(input)).toBe(true);
      expect(safeRegex(pattern, flags).test("nothing here")).toBe(false);
    }
  });
});
