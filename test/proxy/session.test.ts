import { describe, expect, it } from "vitest";
import type { DecisionInput } from "../../src/decision-log/record.js";
import type { AosRequest, AosResponse } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import type { Guardian } from "../../src/guardian/guardian.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { Session } from "../../src/proxy/session.js";

function ruleSet(yaml: string) {
  const { ruleSet, problems } = loadRules([{ file: "t.yaml", text: yaml }]);
  if (!ruleSet) throw new Error(JSON.stringify(problems));
  return ruleSet;
}

/** A session wired to two in-memory peers, recording what each side receives and what is logged. */
function harness(guardian: Guardian, opts: { failMode?: "closed" | "open"; guardianTimeoutMs?: number } = {}) {
  const toAgent: unknown[] = [];
  const toServer: unknown[] = [];
  const log: DecisionInput[] = [];
  const s = new Session(
    { send: (t) => toAgent.push(JSON.parse(t)) },
    { send: (t) => toServer.push(JSON.parse(t)) },
    { guardian, log: { write: (d) => log.push(d) }, route: "r", transport: "test", ...opts },
  );
  const frame = (m: unknown) => ({ text: JSON.stringify(m) });
  // A turn's sends are held until its decision lines are made and committed (a microtask later); `settled` waits for that.
  const settled = () => new Promise((r) => setTimeout(r, 0));
  return { s, toAgent, toServer, log, settled, agent: (m: unknown) => s.fromDownstream(frame(m)), server: (m: unknown) => s.fromUpstream(frame(m)) };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const allowAll = new EmbeddedGuardian(ruleSet("name: open\nrules: []\n"));

class ScriptedGuardian implements Guardian {
  constructor(private readonly answer: (req: AosRequest) => AosResponse | Promise<AosResponse>) {}
  call(req: AosRequest) {
    return this.answer(req);
  }
}

describe("session: fail closed", () => {
  it("a rule that throws denies the call with RULE_ERROR, and the agent is answered", async () => {
    const g = new EmbeddedGuardian(ruleSet("name: t\nrules:\n  - { id: boom, when: 'args.n > 1', decision: deny }\n"));
    const h = harness(g);
    h.agent(call(1, "x", { n: "text" }));
    await h.settled();
    expect(h.toServer).toEqual([]);
    expect(h.toAgent[0]).toMatchObject({ id: 1, result: { isError: true } });
    await h.settled();
    expect(h.log[0]).toMatchObject({ decision: "deny", reasonCode: ["RULE_ERROR"], rules: ["boom"] });
  });

  it("a guardian that throws, hangs or answers garbage is -32051 for a request and a drop for a notification", async () => {
    for (const g of [
      new ScriptedGuardian(() => {
        throw new Error("exploded");
      }),
      new ScriptedGuardian(() => new Promise<AosResponse>(() => {})),
      new ScriptedGuardian((req) => ({ jsonrpc: "2.0", id: req.id, result: { verdict: "yes" } })),
    ]) {
      const h = harness(g, { guardianTimeoutMs: 50 });
      h.agent({ jsonrpc: "2.0", id: 7, method: "resources/list" });
      h.agent({ jsonrpc: "2.0", method: "notifications/initialized" });
      await new Promise((r) => setTimeout(r, 120));
      expect(h.toServer).toEqual([]);
      expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32051, message: "Guardian unavailable" }) }]);
      expect(h.log.map((l) => l.reasonCode)).toEqual([["GUARDIAN_UNAVAILABLE"], ["GUARDIAN_UNAVAILABLE"]]);
    }
  });

  it("failMode open forwards what the guardian could not judge, and logs it as such", async () => {
    const h = harness(new ScriptedGuardian(() => { throw new Error("down"); }), { failMode: "open" });
    h.agent(call(1, "x"));
    await h.settled();
    expect(h.toServer).toEqual([call(1, "x")]);
    expect(h.log[0]).toMatchObject({ decision: "allow", failOpen: true, reasonCode: ["GUARDIAN_UNAVAILABLE"] });
  });
});

describe("session: correlation and order", () => {
  it("an asynchronous guardian still delivers each direction in order", async () => {
    let n = 0;
    const delays = [30, 1, 15];
    const g = new ScriptedGuardian(
      (req) => new Promise((r) => setTimeout(() => r({ jsonrpc: "2.0", id: req.id, result: { decision: "allow", message: "" } }), delays[n++ % 3])),
    );
    const h = harness(g);
    h.agent(call(1, "a"));
    h.agent(call(2, "b"));
    h.agent(call(3, "c"));
    await new Promise((r) => setTimeout(r, 80));
    expect(h.toServer.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
  });

  it("a response is judged with the request it answers, and an unsolicited one is dropped", async () => {
    const g = new EmbeddedGuardian(ruleSet("name: t\nrules:\n  - { id: no-secret-results, match: { direction: inbound, tool: read }, when: 'text.contains(\"secret\")', decision: deny }\n"));
    const h = harness(g);
    h.agent(call(1, "read"));
    h.server({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "the secret" }] } });
    await h.settled();
    expect(h.toAgent[0]).toMatchObject({ id: 1, result: { isError: true, content: [{ text: expect.stringContaining("no-secret-results") }] } });
    h.server({ jsonrpc: "2.0", id: 99, result: {} });
    expect(h.toAgent).toHaveLength(1);
    await h.settled();
    expect(h.log.at(-1)).toMatchObject({ reasonCode: ["UNSOLICITED_RESPONSE"], decision: "deny" });
  });

  it("ids 1 and \"1\" are different requests; a reused pending id is refused", async () => {
    const h = harness(allowAll);
    h.agent({ jsonrpc: "2.0", id: 1, method: "a" });
    h.agent({ jsonrpc: "2.0", id: "1", method: "b" });
    h.agent({ jsonrpc: "2.0", id: 1, method: "c" });
    await h.settled();
    expect(h.toServer).toHaveLength(2);
    expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32600 }) }]);
  });

  it("progress and cancellation about a denied request are dropped", async () => {
    const g = new EmbeddedGuardian(ruleSet("name: t\nrules:\n  - { id: no, match: { tool: bad }, decision: deny }\n"));
    const h = harness(g);
    h.agent(call(5, "bad"));
    h.agent(call(6, "good"));
    h.agent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    h.agent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6 } });
    await h.settled();
    expect(h.toServer).toEqual([call(6, "good"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6 } }]);
    expect(h.log.map((l) => [l.decision, l.reasonCode])).toEqual([["deny", []], ["allow", []], ["deny", ["REQUEST_DENIED"]], ["allow", []]]);
  });

  it("a cancellation of a request that is not pending is dropped: it cannot cancel a later request with that id", async () => {
    const h = harness(allowAll);
    h.agent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    h.agent(call(1, "a"));
    await h.settled();
    expect(h.toServer).toEqual([call(1, "a")]);
    h.server({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } });
    await h.settled();
    expect(h.toAgent).toEqual([]);
    expect(h.log.filter((l) => l.kind === "notification").map((l) => [l.direction, l.decision, l.reasonCode])).toEqual([
      ["outbound", "deny", ["CANCEL_UNKNOWN_REQUEST"]],
      ["inbound", "deny", ["CANCEL_UNKNOWN_REQUEST"]],
    ]);
  });

  it("allowed messages are forwarded byte for byte", async () => {
    const sent: string[] = [];
    const s = new Session({ send: () => {} }, { send: (t) => sent.push(t) }, { guardian: allowAll, log: { write: () => {} }, route: "r", transport: "t" });
    const raw = '{"id":1, "jsonrpc":"2.0","method":"x","params":{"z":1,"a":[1.0,2e3],"_meta":{"k":"\\u00e9"}}}';
    s.fromDownstream({ text: raw });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([raw]);
  });

  it("every message is logged exactly once", async () => {
    const h = harness(allowAll);
    h.agent(call(1, "a"));
    h.server({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    h.server({ jsonrpc: "2.0", id: 1, result: {} });
    h.agent({ jsonrpc: "2.0", method: "notifications/initialized" });
    await h.settled();
    expect(h.log.map((l) => `${l.direction}:${l.kind}`)).toEqual(["outbound:request", "inbound:notification", "inbound:response", "outbound:notification"]);
  });

  it("when the upstream closes, every pending request gets -32052 with the route", async () => {
    const h = harness(allowAll);
    h.agent(call(1, "a"));
    h.agent(call(2, "b"));
    h.s.upstreamClosed("server exited (code 1)");
    await h.settled();
    expect(h.toAgent).toEqual([1, 2].map((id) => ({ jsonrpc: "2.0", id, error: { code: -32052, message: "Upstream unavailable", data: { route: "r", reason: "server exited (code 1)" } } })));
    expect(h.s.pendingCount).toBe(0);
  });
});

describe("session: a reused id", () => {
  it("the refusal goes back with the duplicate's carry, the answer with the first's, so a downstream finds each exchange", async () => {
    const toAgent: { text: string; carry: unknown }[] = [];
    const toServer: string[] = [];
    const s = new Session({ send: (t, i) => toAgent.push({ text: t, carry: i?.carry }) }, { send: (t) => toServer.push(t) }, { guardian: allowAll, log: { write: () => {} }, route: "r", transport: "t" });
    s.fromDownstream({ text: JSON.stringify(call(7, "slow")), carry: "first" });
    s.fromDownstream({ text: JSON.stringify(call(7, "again")), carry: "second" });
    s.fromDownstream({ text: JSON.stringify([call(7, "in-batch"), call(8, "b")]), carry: "batch" });
    s.fromUpstream({ text: JSON.stringify([{ jsonrpc: "2.0", id: 8, result: { b: 1 } }]) });
    s.fromUpstream({ text: JSON.stringify({ jsonrpc: "2.0", id: 7, result: { slow: 1 } }) });
    await new Promise((r) => setTimeout(r, 0));
    expect(toServer).toHaveLength(2);
    expect(toAgent.map((m) => [m.carry, JSON.parse(m.text)])).toEqual([
      ["second", { jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32600 }) }],
      ["batch", [{ jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32600 }) }, { jsonrpc: "2.0", id: 8, result: { b: 1 } }]],
      ["first", { jsonrpc: "2.0", id: 7, result: { slow: 1 } }],
    ]);
  });

  it("a denied request that reuses a pending id does not stop the pending one's cancellation", async () => {
    const g = new EmbeddedGuardian(ruleSet("name: t\nrules:\n  - { id: no, match: { tool: bad }, decision: deny }\n"));
    const h = harness(g);
    h.agent(call(5, "good"));
    h.agent(call(5, "bad"));
    h.agent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    await h.settled();
    expect(h.toServer).toEqual([call(5, "good"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }]);
    expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 5, result: expect.objectContaining({ isError: true }) }]);
  });
});

describe("session: an upstream's HTTP refusal", () => {
  it("is answered by its status, from one table, and logged as refused or unavailable", async () => {
    const cases: [number, Record<string, string>, number, string, string][] = [
      [400, {}, -32600, "Upstream refused the request (HTTP 400)", "UPSTREAM_REFUSED"],
      [413, {}, -32600, "Upstream refused the request: too large (HTTP 413)", "UPSTREAM_REFUSED"],
      [401, {}, -32053, "Upstream requires authorization (HTTP 401)", "UPSTREAM_REFUSED"],
      [403, {}, -32053, "Upstream refused authorization (HTTP 403)", "UPSTREAM_REFUSED"],
      [429, { "retry-after": "30" }, -32052, "Upstream rate limited (HTTP 429)", "UPSTREAM_UNAVAILABLE"],
      [404, {}, -32052, "Upstream unavailable", "UPSTREAM_UNAVAILABLE"],
      [503, {}, -32052, "Upstream unavailable", "UPSTREAM_UNAVAILABLE"],
    ];
    for (const [status, headers, code, message, reasonCode] of cases) {
      const h = harness(allowAll);
      h.agent(call(1, "x"));
      h.s.requestsFailed(["n:1"], `HTTP ${status} from upstream`, { status, headers });
      await h.settled();
      const data = status === 429 ? { route: "r", reason: "HTTP 429 from upstream", status, retryAfter: "30" } : { route: "r", reason: `HTTP ${status} from upstream`, status };
      expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code, message, data } }]);
      await h.settled();
      expect(h.log.at(-1)).toMatchObject({ direction: "inbound", kind: "response", decision: "deny", reasonCode: [reasonCode] });
    }
  });
});

describe("session: a server request that reuses an id", () => {
  it("is refused to the server, and leaves alone an agent request that happens to share the id", async () => {
    const h = harness(allowAll);
    h.agent({ jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } });
    const ask = { jsonrpc: "2.0", id: "a", method: "sampling/createMessage", params: {} };
    h.server(ask);
    h.server(ask);
    await h.settled();
    expect(h.toAgent).toEqual([ask]);
    expect(h.toServer).toEqual([{ jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } }, { jsonrpc: "2.0", id: "a", error: expect.objectContaining({ code: -32600 }) }]);
    h.server({ jsonrpc: "2.0", id: "a", result: { done: true } });
    await h.settled();
    expect(h.toAgent).toEqual([ask, { jsonrpc: "2.0", id: "a", result: { done: true } }]);
  });
});

describe("write before forward on stdio", () => {
  it("commits a message's decision line before it forwards the message, in the same turn, in both directions", async () => {
    const { NdjsonChannel } = await import("../../src/transports/ndjson-channel.js");
    const { PassThrough } = await import("node:stream");
    const agentIn = new PassThrough();
    const agentOut = new PassThrough();
    const serverIn = new PassThrough();
    const serverOut = new PassThrough();
    const events: string[] = [];
    agentOut.on("data", (b: Buffer) => events.push(`to agent: ${JSON.parse(b.toString()).id}`));
    serverIn.on("data", (b: Buffer) => events.push(`to server: ${JSON.parse(b.toString()).id}`));
    // PassThrough emits `data` synchronously on write, so `events` is the order of the writes.
    const log = {
      write: (d: DecisionInput) => void events.push(`logged ${d.direction} ${d.id}`),
      barrier: (then: () => void) => (events.push("committed"), then()),
    };
    // Frames arrive only after this turn, once `session` exists (as in stdio-launcher).
    const down = new NdjsonChannel(agentIn, agentOut, 1 << 20, (f) => session.fromDownstream(f));
    const up = new NdjsonChannel(serverOut, serverIn, 1 << 20, (f) => session.fromUpstream(f));
    const session = new Session(down, up, { guardian: allowAll, log, route: "r", transport: "stdio" });

    agentIn.write(JSON.stringify(call(7, "echo", { message: "hi" })) + "\n");
    await new Promise((r) => setImmediate(r));
    serverOut.write(JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } }) + "\n");
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(["logged outbound 7", "committed", "to server: 7", "logged inbound 7", "committed", "to agent: 7"]);
  });

  it("a chunk's messages are judged, logged in the file and forwarded before its handler returns: no hop between", async () => {
    const { NdjsonChannel } = await import("../../src/transports/ndjson-channel.js");
    const { DecisionLog } = await import("../../src/decision-log/writer.js");
    const { PassThrough } = await import("node:stream");
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const file = join(mkdtempSync(join(tmpdir(), "gw-turn-")), "d.ndjson");
    const log = DecisionLog.open({ dest: file });
    const agentIn = new PassThrough();
    const agentOut = new PassThrough();
    const serverIn = new PassThrough();
    const serverOut = new PassThrough();
    const seen: string[] = [];
    // What the file holds at the moment each message is forwarded.
    const linesNow = () => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => `${JSON.parse(l).direction} ${JSON.parse(l).id}`);
    serverIn.on("data", (b: Buffer) => seen.push(`to server: ${b.toString().trim().split("\n").map((l) => JSON.parse(l).id).join(",")} [file: ${linesNow().join(", ")}]`));
    agentOut.on("data", (b: Buffer) => seen.push(`to agent: ${JSON.parse(b.toString()).id} [file: ${linesNow().join(", ")}]`));
    const down = new NdjsonChannel(agentIn, agentOut, 1 << 20, (f) => session.fromDownstream(f));
    const up = new NdjsonChannel(serverOut, serverIn, 1 << 20, (f) => session.fromUpstream(f));
    const session = new Session(down, up, { guardian: allowAll, log, route: "r", transport: "stdio" });
    await new Promise((r) => setImmediate(r));

    // Two messages in one chunk: one write of both lines, then one write of both messages, all within write().
    agentIn.write(JSON.stringify(call(1, "echo")) + "\n" + JSON.stringify(call(2, "echo")) + "\n");
    expect(seen).toEqual(["to server: 1,2 [file: outbound 1, outbound 2]"]);
    serverOut.write(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }) + "\n");
    expect(seen[1]).toBe("to agent: 1 [file: outbound 1, outbound 2, inbound 1]");
    await log.close();
  });
});
