import { describe, expect, it } from "vitest";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { Session } from "../../src/proxy/session.js";
import { idKey } from "../../src/protocol/json-rpc.js";

const { ruleSet } = loadRules([{ file: "t.yaml", text: "name: open\nrules: []\n" }]);
const allowAll = new EmbeddedGuardian(ruleSet as NonNullable<typeof ruleSet>);

/**
 * A session on a sink whose commits the test settles by hand, like `--log-sync always`: every barrier of a turn joins
 * the open commit (a commit = the barriers made since the last `cut`). `interval`: barriers pass at once.
 */
function harness(sync: "always" | "interval" = "always") {
  const toAgent: Record<string, unknown>[] = [];
  const ended: string[] = [];
  const toServer: Record<string, unknown>[] = [];
  const written: DecisionInput[] = [];
  type Commit = { waiters: { then: () => void; failed: () => void }[]; resolve: () => void; reject: () => void };
  const commits: Commit[] = [];
  let open: Commit | undefined;
  const sink = {
    failure: undefined as { file: string; code: string } | undefined,
    write(d: DecisionInput) {
      written.push(d);
    },
    barrier(then: () => void, failed: () => void) {
      if (sync === "interval") return sink.failure ? failed() : then();
      if (!open) {
        const c: Commit = { waiters: [], resolve: () => c.waiters.forEach((w) => w.then()), reject: () => c.waiters.forEach((w) => w.failed()) };
        commits.push(c);
        open = c;
      }
      open.waiters.push({ then, failed });
    },
  };
  const s = new Session(
    { send: (t) => toAgent.push(JSON.parse(t) as Record<string, unknown>), end: (stream) => ended.push(stream) },
    { send: (t) => toServer.push(JSON.parse(t) as Record<string, unknown>) },
    { guardian: allowAll, log: sink, route: "r", transport: "test", streamingMethods: new Set(["message/stream"]) },
  );
  const frame = (m: unknown) => ({ text: JSON.stringify(m) });
  const turn = () => new Promise((r) => setTimeout(r, 0));
  /** Ends the open commit (the writer's fsync starts): later barriers go to a new one. */
  const cut = () => (open = undefined);
  /** Runs `act` as a turn of its own whose commit succeeds. */
  const committed = async (act: () => void) => {
    act();
    await turn();
    commits.at(-1)?.resolve();
    await turn();
    cut();
  };
  return { s, sink, ended, toAgent, toServer, written, commits, turn, cut, committed, agent: (m: unknown) => s.fromDownstream(frame(m)), server: (m: unknown) => s.fromUpstream(frame(m)) };
}

const req = (id: number, method = "ping") => ({ jsonrpc: "2.0", id, method, params: {} });

describe("session with a sync log (--log-sync always)", () => {
  it("forwards a message only once its decision line is committed, each turn with its commit", async () => {
    const h = harness();
    h.agent(req(1));
    await h.turn();
    h.cut();
    h.agent(req(2));
    await h.turn();
    expect(h.written.map((d) => d.id)).toEqual([1, 2]);
    expect(h.toServer).toEqual([]);
    h.commits[0]?.resolve();
    await h.turn();
    expect(h.toServer.map((m) => m.id)).toEqual([1]);
    h.commits[1]?.resolve();
    await h.turn();
    expect(h.toServer.map((m) => m.id)).toEqual([1, 2]);
  });

  it("a commit that fails forwards nothing of its turn: requests and responses become -32051, both ways", async () => {
    const h = harness();
    // The server asks the agent something; the agent asks the server something.
    await h.committed(() => h.server(req(77, "roots/list")));
    expect(h.toAgent.map((m) => m.id)).toEqual([77]);
    // These pass the log-down check (the log still looks fine), but their commit fails.
    h.agent({ jsonrpc: "2.0", id: 77, result: { roots: [] } });
    h.agent(req(5, "tools/list"));
    h.agent({ jsonrpc: "2.0", method: "notifications/initialized" });
    await h.turn();
    h.sink.failure = { file: "/logs/d.ndjson", code: "ENOSPC" };
    h.commits[1]?.reject();
    await h.turn();
    await h.turn();
    // The server's request got an error answer instead of the agent's result; the notification was dropped.
    expect(h.toServer).toEqual([{ jsonrpc: "2.0", id: 77, error: expect.objectContaining({ code: -32051 }) }]);
    const refusal = h.toAgent.find((m) => m.id === 5) as { error: { code: number; data: { reasonCode: string[]; message: string } } };
    expect(refusal.error.code).toBe(-32051);
    expect(refusal.error.data.reasonCode).toEqual(["LOG_UNAVAILABLE"]);
    expect(refusal.error.data.message).toContain("/logs/d.ndjson cannot be written (ENOSPC)");
    expect(h.s.pendingCount).toBe(0);
  });

  it("a failed commit still ends the streams its turn ended", async () => {
    const h = harness();
    await h.committed(() => h.agent(req(9, "message/stream")));
    h.server({ jsonrpc: "2.0", id: 9, result: { kind: "status-update", final: true } });
    h.s.requestsEnded([idKey(9)]);
    await h.turn();
    expect(h.ended).toEqual([]);
    h.sink.failure = { file: "/logs/d.ndjson", code: "EIO" };
    h.commits[1]?.reject();
    await h.turn();
    expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 9, error: expect.objectContaining({ code: -32051 }) }]);
    expect(h.ended).toEqual([idKey(9)]);
  });

  it("while the log is down, every message is refused before it is forwarded (interval mode too)", async () => {
    const h = harness("interval");
    h.sink.failure = { file: "/logs/d.ndjson", code: "EACCES" };
    h.agent(req(1));
    h.server(req(2, "sampling/createMessage"));
    await h.turn();
    expect(h.toServer).toEqual([{ jsonrpc: "2.0", id: 2, error: expect.objectContaining({ code: -32051 }) }]);
    expect(h.toAgent).toEqual([{ jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32051 }) }]);
    await h.turn();
    expect(h.written.map((d) => d.reasonCode)).toEqual([["LOG_UNAVAILABLE"], ["LOG_UNAVAILABLE"]]);
    h.sink.failure = undefined;
    h.agent(req(3));
    await h.turn();
    expect(h.toServer.at(-1)).toMatchObject({ id: 3, method: "ping" });
  });
});
