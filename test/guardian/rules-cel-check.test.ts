import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/guardian/evaluate.js";
import { formatProblem, loadRules } from "../../src/guardian/rules/load.js";

/** One rule with this `when`, in a file named w.yaml; the `when` value starts at line 4, column 11. */
const withWhen = (when: string) => loadRules([{ file: "w.yaml", text: `name: w\nrules:\n  - id: r\n    when: ${JSON.stringify(when)}\n    decision: deny\n` }]);
const problems = (when: string) => withWhen(when).problems.map(formatProblem);

describe("when is type-checked at load (issue 17, item 6)", () => {
  it.each([
    ["args.a > \"100\"", /"100" is a string: `>` with it fails on numbers .* write the number 100/],
    ["\"5\" <= args.b", /"5" is a string/],
    ["args.a", /when must be a condition \(bool\), but this expression is dyn .*== true/],
    ["args.a == 1 ? \"x\" : \"y\"", /when must be a condition \(bool\), but this expression is string/],
    ["size(text)", /but this expression is int/],
    ["1 > \"a\"", /no such overload: int > string/],
    ["text.contains(1)", /no matching overload for 'string.contains\(int\)'/],
    ["text > 5", /no such overload: string > int/],
    ["foo.a == 1", /Unknown variable: foo/],
    ["bar(args) == 1", /no matching overload for 'bar\(dyn\)'/],
    ["session > 1", /no such overload/],
  ])("refuses %s at the when, as file:line:col", (when, message) => {
    const found = problems(when);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^w\.yaml:4:11: rules\[0\]\.when: invalid CEL expression: /);
    expect(found[0]).toMatch(message);
  });

  it.each([
    "has(args.a) && args.a > 100",
    "args.a > 100",
    "args.a >= 1.5 && args.a < -2e3",
    'args.name > "m"',
    'args.env == "prod"',
    "args.flag == true",
    '"untrusted-content" in session.labels',
    'session.labels.exists(l, l.startsWith("x"))',
    "size(detections) > 0",
    'text.matches(r"rm\\s+-rf")',
    'direction == "outbound" && kind == "request"',
    'has(request.params) && request.params.arguments.path.endsWith(".md")',
    'method.startsWith("tools/")',
  ])("accepts %s", (when) => {
    expect(problems(when)).toEqual([]);
  });

  it("what the checker cannot know stays a run-time rule error, so a deny (fail closed)", () => {
    const { ruleSet } = withWhen('args.a == "x"');
    const d = evaluate("mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } }, { direction: "outbound" }, ruleSet!);
    expect([d.decision, d.reasonCode[0]]).toEqual(["deny", "RULE_ERROR"]);
  });
});
