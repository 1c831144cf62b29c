import { describe, expect, it } from "vitest";
import { matchesFilter, type FilterableDecision } from "../../src/observe/filter.js";

/* The filter semantics tail and the console share (docs/decision-log.md, Filters). */

const d = (o: Partial<FilterableDecision> = {}): FilterableDecision => ({ decision: "deny", method: "tools/call", tool: "read_file", session: "s-1", route: "fs", agent: "ci-bot", rules: ["no-credential-files"], ...o });

describe("decision filters", () => {
  it("no filter, or empty lists, match everything", () => {
    expect(matchesFilter(d(), {})).toBe(true);
    expect(matchesFilter(d(), { route: [], agent: [], rule: [] })).toBe(true);
  });

  it("a list matches when any glob matches the whole field, case-sensitively", () => {
    expect(matchesFilter(d(), { route: ["f*"] })).toBe(true);
    expect(matchesFilter(d(), { route: ["f"] })).toBe(false);
    expect(matchesFilter(d(), { route: ["FS"] })).toBe(false);
    expect(matchesFilter(d(), { agent: ["alice", "ci-{bot,runner}"] })).toBe(true);
    expect(matchesFilter(d(), { tool: ["read_?ile"] })).toBe(true);
  });

  it("filters combine with AND", () => {
    expect(matchesFilter(d(), { route: ["fs"], agent: ["ci-bot"], rule: ["no-*"], decision: ["deny"] })).toBe(true);
    expect(matchesFilter(d(), { route: ["fs"], agent: ["alice"] })).toBe(false);
  });

  it("a field the decision lacks does not match a filter on it", () => {
    expect(matchesFilter(d({ agent: null }), { agent: ["*"] })).toBe(false);
    expect(matchesFilter(d({ tool: null }), { tool: ["*"] })).toBe(false);
    expect(matchesFilter(d({ rules: [] }), { rule: ["*"] })).toBe(false);
  });

  it("rule matches any of the decision's rules; task matches the task or the context", () => {
    expect(matchesFilter(d({ rules: ["a", "log-pii"] }), { rule: ["log-pii"] })).toBe(true);
    expect(matchesFilter(d({ task: "t-1", context: "c-9" }), { task: ["c-*"] })).toBe(true);
    expect(matchesFilter(d({ task: "t-1" }), { task: ["c-*"] })).toBe(false);
  });
});
