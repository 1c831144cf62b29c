import { describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import type { JsonObject } from "../../src/protocol/json-rpc.js";

function guardian(rules: string): EmbeddedGuardian {
  const { ruleSet, problems } = loadRules([{ file: "limits.yaml", text: `name: limits\nrules:\n${rules}` }]);
  if (!ruleSet) throw new Error(JSON.stringify(problems));
  return new EmbeddedGuardian(ruleSet, { now: () => new Date(0) });
}

function problemsOf(rules: string): string[] {
  return loadRules([{ file: "limits.yaml", text: `name: limits\nrules:\n${rules}` }]).problems.map((p) => p.message);
}

/** One judgement in session s1: a message in a direction, with the request it answers for a response. */
function judge(g: EmbeddedGuardian, message: JsonObject, direction: "outbound" | "inbound", request?: JsonObject) {
  const req = buildAosRequest("protocols/MCP", message, { direction, session: "s1", request: request ?? null });
  return readVerdict(req, g.call(req) as never, message).decision;
}

const call = (id: number, tool = "search"): JsonObject => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: { q: id } } });
const result = (id: number): JsonObject => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `result ${id}` }] } });

describe("limit: what is counted, and what is never withheld", () => {
  const documented = "  - { id: tool-rate, match: { method: tools/call, tool: search }, limit: { count: 3, per: 1m, key: session }, decision: deny, reasonCode: RATE_LIMITED }\n";

  it("the documented example counts the calls, not their results: three calls and three results pass, the fourth call is refused", () => {
    const g = guardian(documented);
    const seen: string[] = [];
    for (const id of [1, 2, 3]) {
      seen.push(judge(g, call(id), "outbound"));
      seen.push(judge(g, result(id), "inbound", call(id)));
    }
    seen.push(judge(g, call(4), "outbound"));
    expect(seen).toEqual(["allow", "allow", "allow", "allow", "allow", "allow", "deny"]);
  });

  it("a result is never withheld because the limit was reached: answers that come back after the fourth call pass", () => {
    const g = guardian(documented);
    for (const id of [1, 2, 3, 4]) judge(g, call(id), "outbound");
    expect([1, 2, 3].map((id) => judge(g, result(id), "inbound", call(id)))).toEqual(["allow", "allow", "allow"]);
    expect(judge(g, call(5), "outbound")).toBe("deny");
  });

  it("a rule that names a direction counts that direction: the server's sampling requests, not the agent's answers to them", () => {
    const g = guardian("  - { id: sampling-rate, match: { direction: inbound, method: sampling/createMessage }, limit: { count: 2, per: 1m }, decision: deny }\n");
    const ask = (id: number): JsonObject => ({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } });
    const answer = (id: number): JsonObject => ({ jsonrpc: "2.0", id, result: { role: "assistant", content: { type: "text", text: "ok" }, model: "m" } });
    const seen = [1, 2, 3].map((id) => [judge(g, ask(id), "inbound"), judge(g, answer(id), "outbound", ask(id))]);
    expect(seen).toEqual([["allow", "allow"], ["allow", "allow"], ["deny", "allow"]]);
  });

  it("and an outbound rule counts the agent's calls in the same way", () => {
    const g = guardian("  - { id: out-rate, match: { direction: outbound, method: tools/call }, limit: { count: 1, per: 1m }, decision: deny }\n");
    expect([judge(g, call(1), "outbound"), judge(g, result(1), "inbound", call(1)), judge(g, call(2), "outbound")]).toEqual(["allow", "allow", "deny"]);
  });

  it("notifications are counted when the rule's kind names them", () => {
    const g = guardian("  - { id: log-flood, match: { direction: inbound, kind: notification, method: notifications/message }, limit: { count: 2, per: 1m }, decision: deny }\n");
    const note = (): JsonObject => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
    expect([1, 2, 3].map(() => judge(g, note(), "inbound"))).toEqual(["allow", "allow", "deny"]);
  });

  it("a limit over responses or events is refused at load, saying to count the request", () => {
    expect(problemsOf("  - { id: bad, match: { kind: response, tool: search }, limit: { count: 3, per: 1m }, decision: deny }\n")).toEqual([expect.stringContaining("never responses or events")]);
    expect(problemsOf("  - { id: bad, match: { kind: [request, event] }, limit: { count: 3, per: 1m }, decision: deny }\n")).toHaveLength(1);
    expect(problemsOf("  - { id: ok, match: { kind: [request, notification] }, limit: { count: 3, per: 1m }, decision: deny }\n")).toEqual([]);
  });
});
