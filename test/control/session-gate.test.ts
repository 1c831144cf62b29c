import { describe, expect, it } from "vitest";
import { SessionRegistry } from "../../src/control/registry.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { Session } from "../../src/proxy/session.js";

const { ruleSet } = loadRules([{ file: "t.yaml", text: "name: open\nrules: []\n" }]);

/** A real session between two in-memory peers, registered for live control. */
function live(sink?: { write(d: DecisionInput): unknown; barrier(then: () => void, failed: () => void): void }) {
  const toAgent: unknown[] = [];
  const toServer: unknown[] = [];
  const log: DecisionInput[] = [];
  const downstream = { send: (t: string) => toAgent.push(JSON.parse(t)) };
  const s = new Session(downstream, { send: (t) => toServer.push(JSON.parse(t)) }, { guardian: new EmbeddedGuardian(ruleSet as NonNullable<typeof ruleSet>), log: sink ?? { write: (d) => log.push(d) }, route: "r", transport: "test", sessionId: "s-1" });
  const registry = new SessionRegistry();
  let closed = 0;
  let onClose: () => void = () => {};
  const closing = new Promise<void>((r) => (onClose = r));
  registry.register({ session: s, route: "r", transport: "test", protocol: "mcp", agent: null, downstream, kill: (m) => s.kill(m, () => (closed++, onClose())) });
  const settled = () => new Promise((r) => setTimeout(r, 0));
  const agent = (m: unknown) => s.fromDownstream({ text: JSON.stringify(m) });
  return { s, registry, toAgent, toServer, log, settled, agent, closed: () => closed, closing };
}

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {} } });
const err = (id: number) => ({ jsonrpc: "2.0", id, error: { code: -32050, message: "session killed by an operator: runaway" } });
const note = { jsonrpc: "2.0", method: "notifications/roots/list_changed" };

describe("a session's gate (live control)", () => {
  it("refuse: a batch gets one error per request, its notification is dropped, its response goes on; all logged", async () => {
    const h = live();
    h.s.fromUpstream({ text: JSON.stringify({ jsonrpc: "2.0", id: "srv-1", method: "roots/list" }) });
    h.registry.suspend("s-1", { mode: "refuse", reason: "audit" });
    h.agent([call(1), note, { jsonrpc: "2.0", id: "srv-1", result: { roots: [] } }]);
    await h.settled();
    expect(h.toAgent.at(-1)).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32050, message: "session suspended by an operator: audit" } }]);
    expect(h.toServer).toEqual([{ jsonrpc: "2.0", id: "srv-1", result: { roots: [] } }]);
    await h.settled();
    const refused = h.log.filter((l) => l.reasonCode.includes("SESSION_SUSPENDED"));
    expect(refused.map((l) => [l.kind, l.method, l.tool])).toEqual([
      ["request", "tools/call", "echo"],
      ["notification", "notifications/roots/list_changed", null],
    ]);
  });

  it("refuse: an empty batch still gets its one Invalid Request answer (it is refused before the gate)", async () => {
    const h = live();
    h.registry.suspend("s-1", { mode: "refuse", reason: "audit" });
    h.agent([]);
    await h.settled();
    expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: empty batch" } }]);
    expect(h.toServer).toEqual([]);
  });

  it("hold: nothing reaches the server until resume, then each message is judged and forwarded in order", async () => {
    const h = live();
    h.registry.suspend("s-1");
    h.agent(call(1));
    h.agent(note);
    h.agent([call(2), call(3)]);
    await h.settled();
    expect(h.toServer).toEqual([]);
    expect(h.log).toEqual([]);
    h.registry.resume("s-1");
    await h.settled();
    expect(h.toServer.map((m) => (m as { id?: number; method: string }).id ?? (m as { method: string }).method)).toEqual([1, "notifications/roots/list_changed", 2, 3]);
    expect(h.log.map((l) => l.decision)).toEqual(["allow", "allow", "allow", "allow"]);
  });

  it("kill: the pending request is answered once (SESSION_KILLED), the held one too, then the close runs; a late answer is dropped", async () => {
    const h = live();
    h.agent(call(1));
    h.registry.suspend("s-1");
    h.agent(call(2));
    h.registry.kill("s-1", "runaway");
    await h.closing;
    expect(h.toAgent).toEqual([err(1), err(2)]);
    expect(h.closed()).toBe(1);
    h.s.fromUpstream({ text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }) });
    await h.settled();
    expect(h.toAgent).toHaveLength(2);
    expect(h.log.filter((l) => l.reasonCode.includes("SESSION_KILLED")).map((l) => l.id)).toEqual([1, 2]);
    expect(h.log.at(-1)).toMatchObject({ reasonCode: ["UNSOLICITED_RESPONSE"] });
  });

  it("kill with a sync log: both ends close only once the answers' lines are on disk and the answers are out", async () => {
    const syncs: (() => void)[] = [];
    // A sink whose commits the test completes by hand, like an fsync that takes its time.
    const h = live({ write: () => undefined, barrier: (then) => void syncs.push(then) });
    h.agent(call(1));
    while (syncs.length < 1) await h.settled();
    for (const done of syncs.splice(0)) done();
    await h.settled();
    h.registry.kill("s-1", "runaway");
    while (syncs.length < 1) await h.settled();
    expect(h.toAgent).toEqual([]);
    expect(h.closed()).toBe(0);
    for (const done of syncs.splice(0)) done();
    await h.closing;
    expect(h.toAgent).toEqual([err(1)]);
  });
});
