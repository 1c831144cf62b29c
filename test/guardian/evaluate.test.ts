import { describe, expect, it } from "vitest";
import { evaluate, type MessageContext } from "../../src/guardian/evaluate.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import type { CompiledRuleSet } from "../../src/guardian/rules/compile.js";

function rules(yaml: string): CompiledRuleSet {
  const { ruleSet, problems } = loadRules([{ file: "t.yaml", text: yaml }]);
  if (!ruleSet) throw new Error(JSON.stringify(problems));
  return ruleSet;
}
const call = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const out: MessageContext = { direction: "outbound" };
const inb: MessageContext = { direction: "inbound" };

const acceptance = rules(`
name: acceptance
default: allow
rules:
  - id: deny-big-sum
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: get-sum }
    when: 'args.a > 100'
    decision: deny
    reasonCode: TOO_BIG
    message: sums over 100 are not allowed
  - id: hide-secret-word
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("secret")'
    decision: modify
    modify:
      - { replace: "$.params.arguments.message", pattern: "secret", with: "[hidden]" }
  - id: deny-forbidden-sampling
    match: { protocol: mcp, direction: inbound, method: sampling/createMessage }
    when: 'text.contains("forbidden")'
    decision: deny
    reasonCode: SAMPLING_FORBIDDEN
`);

describe("evaluate: the acceptance rules, table-driven", () => {
  const sampling = (t: string) => ({ jsonrpc: "2.0", id: 0, method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: t } }], maxTokens: 10 } });
  const cases: { name: string; protocol?: "mcp" | "a2a"; msg: Record<string, unknown>; ctx: MessageContext; decision: string; rules: string[]; reasonCode?: string[] }[] = [
    { name: "big sum denied", msg: call("get-sum", { a: 101, b: 1 }), ctx: out, decision: "deny", rules: ["deny-big-sum"], reasonCode: ["TOO_BIG"] },
    { name: "a = 100 allowed", msg: call("get-sum", { a: 100, b: 1 }), ctx: out, decision: "allow", rules: [] },
    { name: "other tool with a > 100 allowed", msg: call("get-product", { a: 1000 }), ctx: out, decision: "allow", rules: [] },
    { name: "inbound big sum not judged by outbound rule", msg: call("get-sum", { a: 1000 }), ctx: inb, decision: "allow", rules: [] },
    { name: "A2A traffic not judged by mcp rule", protocol: "a2a", msg: call("get-sum", { a: 1000 }), ctx: out, decision: "allow", rules: [] },
    { name: "echo with secret modified", msg: call("echo", { message: "my secret plan" }), ctx: out, decision: "modify", rules: ["hide-secret-word"] },
    { name: "echo without secret allowed", msg: call("echo", { message: "my plan" }), ctx: out, decision: "allow", rules: [] },
    { name: "forbidden sampling denied", msg: sampling("a forbidden idea"), ctx: inb, decision: "deny", rules: ["deny-forbidden-sampling"], reasonCode: ["SAMPLING_FORBIDDEN"] },
    { name: "ordinary sampling allowed", msg: sampling("a nice idea"), ctx: inb, decision: "allow", rules: [] },
    { name: "a notification allowed", msg: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, ctx: inb, decision: "allow", rules: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = evaluate(c.protocol ?? "mcp", c.msg, c.ctx, acceptance);
      expect(d.decision).toBe(c.decision);
      expect(d.rules).toEqual(c.rules);
      if (c.reasonCode) expect(d.reasonCode).toEqual(c.reasonCode);
    });
  }

  it("a modify rewrites exactly the targeted content and keeps id and method", () => {
    const original = call("echo", { message: "my secret plan", extra: { keep: true } }, "abc");
    const d = evaluate("mcp", original, out, acceptance);
    expect(d.modified).toEqual({ ...original, params: { name: "echo", arguments: { message: "my [hidden] plan", extra: { keep: true } } } });
    expect(original.params.arguments.message).toBe("my secret plan");
  });

  it("a response knows the tool of the request it answers", () => {
    const rs = rules(`
name: r
rules:
  - id: results-of-fetch
    match: { direction: inbound, kind: response, tool: fetch }
    when: 'text.contains("evil") && request.params.arguments.url == "http://x"'
    decision: deny
`);
    const request = call("fetch", { url: "http://x" });
    const response = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "evil page" }] } };
    expect(evaluate("mcp", response, { direction: "inbound", request }, rs).decision).toBe("deny");
    expect(evaluate("mcp", response, { direction: "inbound", request: call("other", { url: "http://x" }) }, rs).decision).toBe("allow");
  });
});

describe("evaluate: semantics", () => {
  it("deny beats modify beats allow; the reported rule is the first deny; all fired ids are listed", () => {
    const rs = rules(`
name: p
rules:
  - { id: a-allow, decision: allow }
  - { id: b-modify, decision: modify, modify: [{ set: "$.params.x", value: 1 }] }
  - { id: c-deny, decision: deny, reasonCode: C }
  - { id: d-deny, decision: deny, reasonCode: D }
`);
    const d = evaluate("mcp", { jsonrpc: "2.0", id: 1, method: "m", params: {} }, out, rs);
    expect(d.decision).toBe("deny");
    expect(d.rule).toBe("c-deny");
    expect(d.rules).toEqual(["a-allow", "b-modify", "c-deny", "d-deny"]);
    expect(d.reasonCode).toEqual(["C", "D"]);
  });

  it("modifications apply in load order to the evolving message", () => {
    const rs = rules(`
name: m
rules:
  - { id: one, decision: modify, modify: [{ set: "$.params.note", value: "a" }] }
  - { id: two, decision: modify, modify: [{ replace: "$.params.note", pattern: "a", with: "b" }, { remove: "$.params.drop" }] }
`);
    const d = evaluate("mcp", { jsonrpc: "2.0", id: 1, method: "m", params: { drop: 1 } }, out, rs);
    expect(d.decision).toBe("modify");
    expect(d.modified).toEqual({ jsonrpc: "2.0", id: 1, method: "m", params: { note: "b" } });
  });

  it("default deny still lets protocol plumbing and responses through", () => {
    const rs = rules(`
name: strict
default: deny
rules:
  - { id: ok-list, match: { method: tools/list }, decision: allow }
`);
    const req = (method: string) => ({ jsonrpc: "2.0", id: 1, method, params: {} });
    expect(evaluate("mcp", req("initialize"), out, rs).decision).toBe("allow");
    expect(evaluate("mcp", req("ping"), out, rs).decision).toBe("allow");
    expect(evaluate("mcp", { jsonrpc: "2.0", method: "notifications/initialized" }, out, rs).decision).toBe("allow");
    expect(evaluate("mcp", req("tools/list"), out, rs).decision).toBe("allow");
    expect(evaluate("mcp", { jsonrpc: "2.0", id: 1, result: {} }, inb, rs).decision).toBe("allow");
    const d = evaluate("mcp", req("tools/call"), out, rs);
    expect(d.decision).toBe("deny");
    expect(d.reasonCode).toEqual(["DEFAULT_DENY"]);
  });

  it("a rule that fails to evaluate denies with RULE_ERROR naming the rule (fail closed)", () => {
    const rs = rules(`
name: e
rules:
  - { id: typed, when: 'args.a > 100', decision: deny }
`);
    const d = evaluate("mcp", call("t", { a: "not a number" }), out, rs);
    expect(d.decision).toBe("deny");
    expect(d.reasonCode).toEqual(["RULE_ERROR"]);
    expect(d.rule).toBe("typed");
    expect(d.errors?.[0]?.rule).toBe("typed");
    const open = evaluate("mcp", call("t", { a: "x" }), out, rs, null, { failOpen: true });
    expect(open.decision).toBe("allow");
    expect(open.reasonCode).toEqual(["RULE_ERROR"]);
    expect(open.errors?.[0]?.rule).toBe("typed");
  });

  it("a retry's inputResponses are judged as the responses they are, to the requests remembered by key", () => {
    const rs = rules(`
name: ir2
rules:
  - id: no-leak-back
    match: { protocol: mcp, direction: outbound, kind: response, method: sampling/createMessage }
    when: 'text.contains("leak")'
    decision: deny
  - id: mask-back
    match: { protocol: mcp, direction: outbound, kind: response, method: sampling/createMessage }
    decision: modify
    modify: [{ replace: "$..text", pattern: "4111", with: "####" }]
`);
    const asked = { key: "m", method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } };
    const retry = (text: string) => ({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "ask", arguments: {}, inputResponses: { m: { role: "assistant", content: { type: "text", text } } } } });
    const known = { inputRequest: (k: string) => (k === "m" ? asked : undefined) };
    expect(evaluate("mcp", retry("a leak"), out, rs, null, known)).toMatchObject({ decision: "deny", rule: "no-leak-back" });
    const masked = evaluate("mcp", retry("card 4111"), out, rs, null, known);
    expect(masked.decision).toBe("modify");
    expect(JSON.stringify(masked.modified)).toContain("card ####");
    // Without the request it answers, the method is unknown: rules keyed on it do not apply.
    expect(evaluate("mcp", retry("a leak"), out, rs).decision).toBe("allow");
    // The inbound input_required result reports what it let through, for the guardian to remember.
    const result = { jsonrpc: "2.0", id: 9, result: { resultType: "input_required", inputRequests: { m: { method: asked.method, params: asked.params } } } };
    expect(evaluate("mcp", result, inb, rs).inputRequests).toEqual([asked]);
  });

  it("size() counts code points, list items and map keys, in both call forms", () => {
    const rs = rules(`
name: s
rules:
  - id: sizes
    when: 'size(args.s) == 3 && args.s.size() == 3 && size(args.l) == 2 && args.l.size() == 2 && size(args.m) == 1 && size(text) == 5'
    decision: deny
`);
    // Three code points, one of them a surrogate pair (four UTF-16 units); text is "t\na😀b", five.
    expect(evaluate("mcp", call("t", { s: "a😀b", l: [1, 2], m: { k: 1 } }), out, rs).rule).toBe("sizes");
    expect(evaluate("mcp", call("t", { s: "abcd", l: [1, 2], m: { k: 1 } }), out, rs).decision).toBe("allow");
    const bad = loadRules([{ file: "t.yaml", text: "name: b\nrules:\n  - { id: b, when: 'size(1) > 0', decision: deny }\n" }]);
    expect(bad.ruleSet).toBeUndefined();
    expect(JSON.stringify(bad.problems)).toContain("size(int)");
  });

  it("the requests inside an input_required result (MCP 2026-07-28) are judged as the requests they stand for", () => {
    const rs = rules(`
name: ir
rules:
  - id: no-password-elicitation
    match: { protocol: mcp, direction: inbound, method: elicitation/create }
    when: 'text.contains("password")'
    decision: deny
    reasonCode: PHISHING
  - id: mask-sampling
    match: { protocol: mcp, direction: inbound, method: sampling/createMessage }
    decision: modify
    modify: [{ replace: "$..text", pattern: "4111", with: "####" }]
`);
    const ask = (inputRequests: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 5, result: { resultType: "input_required", inputRequests } });
    const sampling = { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "card 4111" } }], maxTokens: 9 } };
    const modified = evaluate("mcp", ask({ s: sampling, r: { method: "roots/list" } }), inb, rs);
    expect(modified.decision).toBe("modify");
    expect(modified.rules).toEqual(["mask-sampling"]);
    expect(JSON.stringify(modified.modified)).toContain("card ####");
    expect((modified.modified?.result as { inputRequests: { r: unknown } }).inputRequests.r).toEqual({ method: "roots/list" });
    const denied = evaluate("mcp", ask({ s: sampling, e: { method: "elicitation/create", params: { message: "your password please", requestedSchema: {} } } }), inb, rs);
    expect(denied).toMatchObject({ decision: "deny", rule: "no-password-elicitation", reasonCode: ["PHISHING"] });
    expect(denied.message).toContain('elicitation/create (input request "e")');
    expect(denied.modified).toBeUndefined();
    // An ordinary result, or the same shape going out, is not expanded.
    expect(evaluate("mcp", { jsonrpc: "2.0", id: 6, result: { resultType: "complete", content: [] } }, inb, rs).decision).toBe("allow");
    expect(evaluate("mcp", ask({ e: { method: "elicitation/create", params: { message: "password" } } }), out, rs).decision).toBe("allow");
  });

  it("audit mode decides and reports, but the enforced decision stays allow", () => {
    const rs = rules(`
name: a
mode: audit
rules:
  - { id: would-deny, match: { tool: rm }, decision: deny, reasonCode: WOULD }
`);
    const d = evaluate("mcp", call("rm", {}), out, rs);
    expect(d.mode).toBe("audit");
    expect(d.decision).toBe("allow");
    expect(d.audit).toEqual({ decision: "deny", rules: ["would-deny"], reasonCode: ["WOULD"] });
  });

  it("tool, method and route globs", () => {
    const rs = rules(`
name: g
rules:
  - { id: shell, match: { tool: ["*shell*", "run_*", "exec*"] }, decision: deny }
  - { id: notes, match: { method: "notifications/*", route: "fil*" }, decision: deny }
`);
    expect(evaluate("mcp", call("my_shell_tool", {}), out, rs).rule).toBe("shell");
    expect(evaluate("mcp", call("run_it", {}), out, rs).rule).toBe("shell");
    expect(evaluate("mcp", call("read", {}), out, rs).decision).toBe("allow");
    const n = { jsonrpc: "2.0", method: "notifications/message", params: {} };
    expect(evaluate("mcp", n, { direction: "inbound", route: "files" }, rs).rule).toBe("notes");
    expect(evaluate("mcp", n, { direction: "inbound", route: "web" }, rs).decision).toBe("allow");
  });

  it("an edit can never reach a prototype", () => {
    const rs = rules(`
name: proto
rules:
  - { id: p, decision: modify, modify: [{ set: "$.params.__proto__.polluted", value: true }, { set: "$['params']['constructor']['x']", value: 1 }] }
`);
    const msg = JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"__proto__":{"a":1}}}') as Record<string, unknown>;
    const d = evaluate("mcp", msg, out, rs);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(JSON.stringify(d.modified)).toContain('"__proto__":{"a":1,"polluted":true}');
  });
});

describe("A2A: operation and text", () => {
  const set = rules(`
name: a2a
default: allow
rules:
  - id: no-sends-about-user
    match: { protocol: a2a, operation: send }
    when: 'text.contains("user")'
    decision: deny
  - id: no-streams
    match: { protocol: a2a, operation: stream }
    decision: deny
`);
  const send = (method: string, text: string) => ({ jsonrpc: "2.0", id: 1, method, params: { message: { kind: "message", messageId: "m-user-1", role: "user", parts: [{ kind: "text", text }] } } });

  it("operation covers both versions' method names", () => {
    expect(evaluate("a2a", send("message/stream", "hi"), out, set).decision).toBe("deny");
    expect(evaluate("a2a", send("SendStreamingMessage", "hi"), out, set).decision).toBe("deny");
    expect(evaluate("a2a", send("tasks/get", "hi"), out, set).decision).toBe("allow");
  });

  it("text is the text parts: the role and ids do not count, the words do", () => {
    expect(evaluate("a2a", send("message/send", "hello"), out, set).decision).toBe("allow");
    expect(evaluate("a2a", send("SendMessage", "ask the user"), out, set).decision).toBe("deny");
  });
});
