import { describe, expect, it } from "vitest";
import { buildAosRequest, type AosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";

const { ruleSet } = loadRules(readRuleSources("test/fixtures/rules/acceptance.yaml"));
if (!ruleSet) throw new Error("rules");
const guardian = new EmbeddedGuardian(ruleSet, { now: () => new Date("2026-01-01T00:00:00Z") });
const sumCall = (a: number) => ({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get-sum", arguments: { a, b: 1 } } });

describe("the embedded guardian speaks AOS", () => {
  it("answers protocols/MCP with an AOSSuccessResult naming the rules", () => {
    const req = buildAosRequest("protocols/MCP", sumCall(500), { direction: "outbound", session: "s-1", route: "r", transport: "stdio" });
    const res = guardian.call(req);
    expect(res).toMatchObject({
      jsonrpc: "2.0",
      id: req.id,
      result: { decision: "deny", message: "sums over 100 are not allowed", reasonCode: ["TOO_BIG"], data: { rules: ["deny-big-sum"], rule: "deny-big-sum" } },
    });
  });

  it("accepts the flat params form (the message itself as params)", () => {
    const res = guardian.call({ jsonrpc: "2.0", id: "x", method: "protocols/MCP", params: sumCall(500) });
    expect(res).toMatchObject({ id: "x", result: { decision: "deny" } });
  });

  it("returns a modify with a complete modifiedRequest: same AOS id and method, inner id unchanged", () => {
    const msg = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { message: "a secret" } } };
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    const res = guardian.call(req);
    if (!("result" in res)) throw new Error("expected a result");
    const r = res.result as { decision: string; modifiedRequest: AosRequest };
    expect(r.decision).toBe("modify");
    expect(r.modifiedRequest.id).toBe(req.id);
    expect(r.modifiedRequest.method).toBe("protocols/MCP");
    expect(r.modifiedRequest.params?.message).toEqual({ ...msg, params: { name: "echo", arguments: { message: "a [hidden]" } } });
    expect(readVerdict(req, res, msg)).toMatchObject({ action: "rewrite", decision: "modify", rules: ["hide-secret-word"] });
  });

  it("protocols/A2A is judged with protocol a2a", () => {
    const res = guardian.call({ jsonrpc: "2.0", id: 1, method: "protocols/A2A", params: { message: sumCall(500), context: { direction: "outbound" } } });
    expect(res).toMatchObject({ result: { decision: "allow" } });
  });

  it("answers ping, refuses unknown methods and bad params with JSON-RPC errors", () => {
    expect(guardian.call({ jsonrpc: "2.0", id: 1, method: "ping", params: { timestamp: "2026-01-01T00:00:00Z" } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { status: "connected", version: "0.1.0", timestamp: "2026-01-01T00:00:00.000Z" },
    });
    expect(guardian.call({ jsonrpc: "2.0", id: 2, method: "steps/unknown", params: {} })).toMatchObject({ error: { code: -32601 } });
    expect(guardian.call({ jsonrpc: "2.0", id: 3, method: "protocols/MCP", params: { message: 5 } })).toMatchObject({ error: { code: -32602 } });
    expect(guardian.call({ jsonrpc: "1.0", id: 4, method: "ping" } as unknown as AosRequest)).toMatchObject({ error: { code: -32600 } });
  });

  it("judges steps/* too, so agents can call it directly", () => {
    const { ruleSet: steps } = loadRules([{ file: "s.yaml", text: `
name: steps
rules:
  - { id: no-rm, match: { protocol: aos, method: steps/toolCallRequest, tool: shell }, when: 'args.cmd.startsWith("rm")', decision: deny }
` }]);
    const g = new EmbeddedGuardian(steps!);
    const step = (cmd: string) => ({
      jsonrpc: "2.0" as const, id: 1, method: "steps/toolCallRequest",
      params: { context: {}, toolCallRequest: { executionId: "e", toolId: "shell", inputs: [{ name: "cmd", value: cmd }] } },
    });
    expect(g.call(step("rm -rf x"))).toMatchObject({ result: { decision: "deny", data: { rules: ["no-rm"] } } });
    expect(g.call(step("ls"))).toMatchObject({ result: { decision: "allow" } });
  });
});

describe("reading a guardian's answer fails closed", () => {
  const msg = sumCall(1);
  const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
  const modify = (message: Record<string, unknown>) => ({
    jsonrpc: "2.0" as const, id: req.id,
    result: { decision: "modify", message: "m", modifiedRequest: { jsonrpc: "2.0", id: req.id, method: "protocols/MCP", params: { message } } },
  });
  it.each([
    ["an error", { jsonrpc: "2.0" as const, id: req.id, error: { code: -32603, message: "boom" } }],
    ["a different id", { jsonrpc: "2.0" as const, id: 999999, result: { decision: "allow", message: "" } }],
    ["an unknown decision", { jsonrpc: "2.0" as const, id: req.id, result: { decision: "maybe", message: "" } }],
    ["a modify without modifiedRequest", { jsonrpc: "2.0" as const, id: req.id, result: { decision: "modify", message: "" } }],
    ["a modify that changes the id", modify({ ...msg, id: 4 })],
    ["a modify that changes the method", modify({ ...msg, method: "tools/list" })],
    ["a modify that turns a request into a notification", modify({ jsonrpc: "2.0", method: "tools/call", params: {} })],
  ])("%s is GUARDIAN_UNAVAILABLE", (_name, res) => {
    const v = readVerdict(req, res as never, msg);
    expect(v.unavailable).toBe(true);
    expect(v.action).toBe("block");
    expect(v.reasonCode).toEqual(["GUARDIAN_UNAVAILABLE"]);
  });
});
