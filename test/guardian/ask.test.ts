import { describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { ChainGuardian } from "../../src/guardian/chain.js";
import { evaluate } from "../../src/guardian/evaluate.js";

const problemsOf = (yaml: string) => loadRules([{ file: "x.yaml", text: yaml }]).problems.map((p) => `${String(p.path)}: ${p.message}`);
const rule = (extra: string) => `name: t\nrules:\n  - id: a\n    match: { method: tools/call }\n${extra}`;

const { ruleSet } = loadRules(readRuleSources("test/fixtures/rules/approval-acceptance.yaml"));
if (!ruleSet) throw new Error("the acceptance rule does not load");
const guardian = new EmbeddedGuardian(ruleSet);
const echo = (message: string) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message } } });

describe("decision: ask", () => {
  it("loads the issue's acceptance rule as written", () => {
    expect(ruleSet.rules[0]?.ask).toMatchObject({ timeoutMs: 10_000, onTimeout: "deny", remember: "once" });
  });

  it("rule tests can expect decision: ask (guardwire test)", () => {
    const summary = runTestFiles("test/fixtures/rules/approval-acceptance.test.yaml");
    expect(summary).toMatchObject({ passed: 2, failed: 0 });
  });

  it("checks durations, scopes and prompt placeholders at load", () => {
    expect(problemsOf(rule("    decision: ask\n    ask: { timeout: soon }\n")).join()).toMatch(/ask.timeout.*duration/);
    expect(problemsOf(rule("    decision: ask\n    ask: { timeout: 2h }\n")).join()).toMatch(/at most 1h/);
    expect(problemsOf(rule("    decision: ask\n    ask: { remember: forever }\n")).join()).toMatch(/ask.remember/);
    expect(problemsOf(rule('    decision: ask\n    ask: { prompt: "run {params.x}?" }\n')).join()).toMatch(/placeholder \{params.x\}/);
    expect(problemsOf(rule('    decision: ask\n    ask: { prompt: "run {tool.name}?" }\n')).join()).toMatch(/placeholder \{tool.name\}/);
    expect(problemsOf(rule("    decision: deny\n    ask: { timeout: 5s }\n")).join()).toMatch(/only apply to decision: ask/);
    expect(problemsOf(rule("    decision: ask\n"))).toEqual([]);
    expect(problemsOf(`name: t\nrules:\n  - id: a\n    match: { kind: [request, response] }\n    decision: ask\n`).join()).toMatch(/only holds requests/);
  });

  it("answers AOS deny APPROVAL_REQUIRED with the request in data.approval; readVerdict holds it", () => {
    const msg = echo("needs-approval: ship it");
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound", session: "s", route: "r", transport: "stdio" });
    const res = guardian.call(req);
    expect(res).toMatchObject({
      result: {
        decision: "deny",
        reasonCode: ["APPROVAL_REQUIRED"],
        message: "echo with an approval marker",
        data: {
          rule: "ask-echo",
          ruleset: ruleSet.hash,
          approval: { rule: "ask-echo", prompt: "Allow echo of needs-approval: ship it?", timeoutMs: 10_000, onTimeout: "deny", remember: "once", ruleset: ruleSet.hash },
        },
      },
    });
    const v = readVerdict(req, res, msg);
    expect(v).toMatchObject({ action: "hold", decision: "ask", ask: { rule: "ask-echo", timeoutMs: 10_000 } });
    expect(v.ask?.argsDigest).toMatch(/^[0-9a-f]{64}$/);
    const other = guardian.call(buildAosRequest("protocols/MCP", echo("needs-approval: other"), { direction: "outbound" }));
    const digestOf = (r: typeof res) => ("result" in r ? ((r.result.data as { approval?: { argsDigest: string } } | undefined)?.approval?.argsDigest ?? "") : "");
    expect(digestOf(other)).not.toBe(v.ask?.argsDigest);
  });

  it("an ask rule lets the response to the call it asked about by", () => {
    const yaml = "name: t\nrules:\n  - id: ask-any-echo\n    match: { tool: echo }\n    decision: ask\n";
    const set = loadRules([{ file: "t.yaml", text: yaml }]).ruleSet;
    if (!set) throw new Error("rules");
    const g = new EmbeddedGuardian(set);
    const call = echo("x");
    const res = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "Echo: x" }] } };
    const req = buildAosRequest("protocols/MCP", res, { direction: "inbound", request: call });
    expect(readVerdict(req, g.call(req), res)).toMatchObject({ action: "forward", decision: "allow" });
    const out = buildAosRequest("protocols/MCP", call, { direction: "outbound" });
    expect(readVerdict(out, g.call(out), call)).toMatchObject({ action: "hold" });
  });

  it("a message the rule does not ask about passes", () => {
    const msg = echo("hello");
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    expect(readVerdict(req, guardian.call(req), msg)).toMatchObject({ action: "forward", decision: "allow" });
  });

  it("a malformed approval request from a guardian blocks (fails closed)", () => {
    const msg = echo("needs-approval");
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    const res = { jsonrpc: "2.0" as const, id: req.id, result: { decision: "deny" as const, message: "ask", reasonCode: ["APPROVAL_REQUIRED"], data: { approval: { rule: "x", timeoutMs: -1 } } } };
    expect(readVerdict(req, res, msg)).toMatchObject({ action: "block", decision: "deny" });
  });

  it("deny beats ask; ask carries the modify rules' edits for after the approval", () => {
    const yaml = `name: t
rules:
  - id: ask-all
    match: { method: tools/call }
    decision: ask
  - id: hide
    match: { method: tools/call }
    decision: modify
    modify: [{ set: "$.params.arguments.extra", value: 1 }]
  - id: no-rm
    match: { method: tools/call, tool: rm }
    decision: deny
`;
    const set = loadRules([{ file: "t.yaml", text: yaml }]).ruleSet;
    if (!set) throw new Error("rules");
    const g = new EmbeddedGuardian(set);
    const msg = echo("x");
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    const v = readVerdict(req, g.call(req), msg);
    expect(v).toMatchObject({ action: "hold", ask: { prompt: "Approve tools/call echo?", modified: { params: { arguments: { message: "x", extra: 1 } } } } });
    const rm = { ...msg, params: { name: "rm", arguments: {} } };
    const req2 = buildAosRequest("protocols/MCP", rm, { direction: "outbound" });
    expect(readVerdict(req2, g.call(req2), rm)).toMatchObject({ action: "block", decision: "deny", rule: "no-rm" });
  });

  it("in a chain an ask is never lost: a later allow keeps it, a later deny beats it, a later modify is what an approval forwards", async () => {
    const g = (yaml: string) => {
      const set = loadRules([{ file: "t.yaml", text: `name: t\nrules:\n${yaml}` }]).ruleSet;
      if (!set) throw new Error("rules");
      return new EmbeddedGuardian(set);
    };
    const allow = g("  - { id: ok, match: { tool: echo }, decision: allow }\n");
    const deny = g("  - { id: no, match: { tool: echo }, decision: deny }\n");
    const tag = g('  - { id: tag, match: { tool: echo }, decision: modify, modify: [{ set: "$.params.arguments.tagged", value: 1 }] }\n');
    const msg = echo("needs-approval chained");
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    const held = readVerdict(req, await new ChainGuardian([guardian, allow]).call(req), msg);
    expect(held).toMatchObject({ action: "hold", ask: { rule: "ask-echo", prompt: "Allow echo of needs-approval chained?" } });
    expect(held.ask?.modified).toBeUndefined();
    expect(readVerdict(req, await new ChainGuardian([guardian, deny]).call(req), msg)).toMatchObject({ action: "block", rule: "no" });
    const rewritten = readVerdict(req, await new ChainGuardian([guardian, tag]).call(req), msg);
    expect(rewritten).toMatchObject({ action: "hold", ask: { modified: { params: { arguments: { message: "needs-approval chained", tagged: 1 } } } } });
  });

  it("an ask on a request inside an input_required result (MCP 2026-07-28) refuses the result: it cannot be held there", () => {
    const set = loadRules([{ file: "t.yaml", text: "name: t\nrules:\n  - { id: ask-sampling, match: { direction: inbound, method: sampling/createMessage }, decision: ask }\n" }]).ruleSet;
    if (!set) throw new Error("rules");
    const result = { jsonrpc: "2.0", id: 5, result: { resultType: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } } };
    const d = evaluate("mcp", result, { direction: "inbound", request: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } } }, set);
    expect(d).toMatchObject({ decision: "deny", rule: "ask-sampling", reasonCode: ["APPROVAL_UNAVAILABLE"] });
    expect(d.ask).toBeUndefined();
  });
});
