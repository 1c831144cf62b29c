import { describe, expect, it } from "vitest";
import { ApprovalBroker } from "../../src/approvals/broker.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { Session } from "../../src/proxy/session.js";
import { approvalStage } from "../../src/approvals/hold.js";

const RULES = `name: t
rules:
  - id: ask-echo
    match: { method: tools/call, tool: echo }
    decision: ask
    ask: { timeout: 1h, remember: session }
`;

/** A session with an ask rule between two in-memory peers (the agent and the server), and a broker. */
function harness(broker = new ApprovalBroker(), opts: { approvals?: boolean; rules?: string } = {}) {
  broker.channels.add("admin");
  const { ruleSet } = loadRules([{ file: "t.yaml", text: opts.rules ?? RULES }]);
  if (!ruleSet) throw new Error("rules");
  const toAgent: Record<string, unknown>[] = [];
  const toServer: Record<string, unknown>[] = [];
  const log: DecisionInput[] = [];
  const s = new Session(
    { send: (t) => toAgent.push(JSON.parse(t) as Record<string, unknown>) },
    { send: (t) => toServer.push(JSON.parse(t) as Record<string, unknown>) },
    { guardian: new EmbeddedGuardian(ruleSet), log: { write: (d) => log.push(d) }, route: "r", transport: "test", stages: opts.approvals === false ? [] : [approvalStage(broker)] },
  );
  const agent = (m: unknown) => s.fromDownstream({ text: JSON.stringify(m) });
  const settled = () => new Promise((r) => setTimeout(r, 0));
  return { s, broker, toAgent, toServer, log, agent, settled };
}

const echo = (id: number | string, message: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { message } } });
const textOf = (m: Record<string, unknown> | undefined) => ((m?.result as { content?: { text: string }[] } | undefined)?.content?.[0]?.text ?? "");

describe("session holds (proxy/hold.ts)", () => {
  it("a held request is not forwarded; its id stays taken; the agent gets exactly one answer", async () => {
    const h = harness();
    h.agent(echo(1, "a"));
    expect(h.toServer).toEqual([]);
    expect(h.broker.list()).toHaveLength(1);
    h.agent(echo(1, "b"));
    await h.settled();
    expect(h.toAgent[0]).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringMatching(/already pending/) } });
    h.agent({ jsonrpc: "2.0", id: 1, method: "ping" });
    await h.settled();
    expect(h.toAgent[1]).toMatchObject({ id: 1, error: { code: -32600 } });
    await h.settled();
    expect(h.log.filter((l) => l.reasonCode.includes("DUPLICATE_ID"))).toHaveLength(2);
    h.toAgent.splice(0);
    h.broker.decide(h.broker.list()[0]?.id as string, { approve: true, channel: "api" });
    await h.settled();
    expect(h.toServer).toEqual([echo(1, "a")]);
    h.s.fromUpstream({ text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Echo: a" }] } }) });
    await h.settled();
    expect(h.toAgent).toHaveLength(1);
    expect(textOf(h.toAgent[0])).toBe("Echo: a");
  });

  it("past the session bound a new ask is refused at once with APPROVAL_LIMIT", async () => {
    const h = harness(new ApprovalBroker({ maxPerSession: 2 }));
    h.agent(echo(1, "a"));
    h.agent(echo(2, "b"));
    h.agent(echo(3, "c"));
    await h.settled();
    expect(h.toAgent).toHaveLength(1);
    expect(h.toAgent[0]).toMatchObject({ id: 3, result: { isError: true } });
    expect(textOf(h.toAgent[0])).toMatch(/2 approvals are already waiting in this session/);
    await h.settled();
    expect(h.log.at(-1)).toMatchObject({ id: 3, decision: "deny", reasonCode: ["APPROVAL_LIMIT"] });
    h.broker.shutdown();
  });

  it("an ask inside a batch, or with no broker, is blocked with APPROVAL_UNAVAILABLE (never forwarded)", async () => {
    const h = harness();
    h.s.fromDownstream({ text: JSON.stringify([echo(1, "a"), { jsonrpc: "2.0", id: 2, method: "ping" }]) });
    await h.settled();
    // A batch's allowed elements go upstream one by one; the replies are re-joined for the agent.
    expect(h.toServer).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
    h.s.fromUpstream({ text: JSON.stringify({ jsonrpc: "2.0", id: 2, result: {} }) });
    await h.settled();
    const reply = h.toAgent[0] as unknown as Record<string, unknown>[];
    expect(reply.map((m) => m.id).sort()).toEqual([1, 2]);
    expect(textOf(reply.find((m) => m.id === 1))).toMatch(/only single agent requests can be held/);
    expect(h.log.find((l) => l.id === 1)).toMatchObject({ decision: "deny", reasonCode: ["APPROVAL_UNAVAILABLE"] });

    const none = harness(undefined, { approvals: false });
    none.agent(echo(5, "x"));
    await none.settled();
    expect(none.toServer).toEqual([]);
    expect(textOf(none.toAgent[0])).toMatch(/no approval channel is configured/);
  });

  it("remember: session covers the same arguments in this session only; the upstream closing denies what is held", async () => {
    const broker = new ApprovalBroker();
    const h = harness(broker);
    h.agent(echo(1, "same"));
    broker.decide(broker.list()[0]?.id as string, { approve: true, channel: "api", remember: "session" });
    await h.settled();
    h.agent(echo(2, "same"));
    await h.settled();
    expect(h.toServer.map((m) => m.id)).toEqual([1, 2]);
    expect(h.log.find((l) => l.id === 2 && l.approval)?.approval).toMatchObject({ step: "remembered" });

    const other = harness(broker);
    other.agent(echo(1, "same"));
    expect(other.toServer).toEqual([]);
    other.s.upstreamClosed("server exited");
    await other.settled();
    expect(textOf(other.toAgent[0])).toMatch(/the session is closing/);
    expect(broker.list()).toEqual([]);
  });

  it("onTimeout: allow forwards after the timeout; an approval forwards the modify rules' message", async () => {
    const rules = `${RULES.replace("ask: { timeout: 1h, remember: session }", "ask: { timeout: 50ms, onTimeout: allow }")}  - id: tag
    match: { method: tools/call, tool: echo }
    decision: modify
    modify: [{ set: "$.params.arguments.tagged", value: true }]
`;
    const h = harness(new ApprovalBroker(), { rules });
    h.agent(echo(1, "late"));
    await new Promise<void>((resolve) => h.broker.once("decided", () => resolve()));
    await h.settled();
    expect(h.toServer).toEqual([{ ...echo(1, "late"), params: { name: "echo", arguments: { message: "late", tagged: true } } }]);
    await h.settled();
    expect(h.log.at(-1)).toMatchObject({ id: 1, decision: "modify", reasonCode: ["APPROVAL_TIMEOUT"], approval: { step: "decided", outcome: "timeout" } });
  });

  it("a form left open in the client is withdrawn when an operator decides first", async () => {
    const h = harness();
    h.agent({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } } });
    h.agent(echo(1, "x"));
    await h.settled();
    const form = h.toAgent.find((m) => m.method === "elicitation/create");
    expect(form?.id).toMatch(/^guardwire-approval-ap-[0-9a-f]+-[0-9a-f]{16}$/);
    expect(h.toServer.map((m) => m.method)).toEqual(["initialize"]);
    h.broker.decide(h.broker.list()[0]?.id as string, { approve: false, channel: "api", reason: "no" });
    await h.settled();
    expect(h.toAgent.find((m) => m.method === "notifications/cancelled")).toMatchObject({ params: { requestId: form?.id } });
    // A late answer to the withdrawn form is not the server's business: it is dropped, never forwarded.
    h.agent({ jsonrpc: "2.0", id: form?.id, result: { action: "accept", content: { decision: "approve" } } });
    await h.settled();
    expect(h.toServer.map((m) => m.method)).toEqual(["initialize"]);
  });
});
