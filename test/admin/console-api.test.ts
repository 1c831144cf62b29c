import { describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { DecisionStats, MAX_RULES, OTHER } from "../../src/admin/stats.js";
import type { DecisionInput } from "../../src/decision-log/record.js";

const decision = (d: Partial<DecisionInput>): DecisionInput => ({
  session: "s",
  route: "r",
  transport: "stdio",
  protocol: "mcp",
  direction: "outbound",
  kind: "request",
  id: 1,
  method: "tools/call",
  tool: "t",
  agent: null,
  decision: "allow",
  mode: "enforce",
  rules: [],
  reasonCode: [],
  message: "",
  evalUs: 1,
  digest: null,
  ...d,
});

describe("the console's statistics stay bounded", () => {
  it("keeps a fixed ring of buckets, counting by decision and rule", () => {
    const stats = new DecisionStats({ bucketMs: 1000, buckets: 3 });
    for (let s = 0; s < 10; s++) stats.observe(decision({ decision: s % 2 ? "deny" : "allow", rules: s % 2 ? ["no"] : [] }), s * 1000 + 10);
    stats.observe(decision({ decision: "modify", rules: ["m", "m"] }), 9500);
    stats.observe(decision({ kind: "log", decision: "deny" }), 9600);
    const snap = stats.snapshot(9999);
    expect(snap.buckets.map((b) => b.t)).toEqual([7000, 8000, 9000].map((t) => new Date(t).toISOString()));
    expect(snap.buckets[2]).toMatchObject({ decisions: { allow: 0, deny: 1, modify: 1, ask: 0 }, rules: { no: 1, m: 1 } });
    expect(snap.totals).toEqual({ allow: 5, deny: 5, modify: 1, ask: 0 });
    expect(Object.fromEntries(stats.firedByRule())).toEqual({ no: 5, m: 1 });
  });

  it("folds rule ids past the cap into one (other) count", () => {
    const stats = new DecisionStats();
    for (let i = 0; i < MAX_RULES + 50; i++) stats.observe(decision({ decision: "deny", rules: [`rule-${i}`] }), 1000);
    const fired = stats.firedByRule();
    expect(fired.size).toBe(MAX_RULES + 1);
    expect(fired.get(OTHER)).toBe(50);
    expect(fired.get("rule-0")).toBe(1);
  });
});

describe("the playground's trial decision", () => {
  const { ruleSet } = loadRules([
    {
      file: "t.yaml",
      text: `
name: t
default: allow
rules:
  - id: label-read
    match: { method: tools/call, tool: read }
    label: untrusted-content
    decision: allow
  - id: no-send-after-read
    match: { method: tools/call, tool: send }
    when: '"untrusted-content" in session.labels'
    decision: deny
  - id: one-call
    match: { method: tools/call, tool: limited }
    limit: { count: 1, per: 1h, key: session }
    decision: deny
`,
    },
  ]);
  if (!ruleSet) throw new Error("rules");
  const call = (tool: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: {} } });

  it("changes no state: no label, no limit window is counted", () => {
    const g = new EmbeddedGuardian(ruleSet);
    const ctx = { direction: "outbound" as const, session: "s-1" };
    expect(g.trial("mcp", call("read"), ctx).labels).toEqual(["untrusted-content"]);
    expect(g.trial("mcp", call("limited"), ctx).decision).toBe("allow");
    expect(g.trial("mcp", call("limited"), ctx).decision).toBe("allow");
    // The real session saw none of it.
    const real = (tool: string) => g.call(buildAosRequest("protocols/MCP", call(tool), ctx)) as { result: { decision: string } };
    expect(real("send").result.decision).toBe("allow");
    expect(real("limited").result.decision).toBe("allow");
    expect(real("limited").result.decision).toBe("deny");
  });
});
