import { describe, expect, it } from "vitest";
import { SessionRegistry, type SessionInfo, type SessionLink } from "../../src/control/registry.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { DecisionFeed } from "../../src/observe/feed.js";
import { ApprovalBroker } from "../../src/approvals/broker.js";
import type { ApprovalAsk } from "../../src/guardian/verdict.js";
import type { GateResult, Stage } from "../../src/proxy/pipeline.js";

/** A link as link.ts makes one, with what the registry does to it recorded. */
function link(id: string, over: Partial<SessionLink> = {}) {
  const sent: string[] = [];
  const kills: string[] = [];
  let admission: Stage | null = null;
  const session = { id, serverInfo: { name: "srv", version: "1" } as { name: string; version: string } | null, use: (s: Stage) => ((admission = s), () => void (admission = null)) };
  const l: SessionLink = {
    session,
    route: "r",
    transport: "websocket",
    protocol: "mcp",
    agent: "alice",
    downstream: { send: (t) => sent.push(t) },
    kill: (m) => kills.push(m),
    ...over,
  };
  const gate = (value: unknown): GateResult => (admission as Stage | null)?.admit?.(value, { text: JSON.stringify(value) }) ?? "pass";
  return { l, sent, kills, gate };
}

const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {}, ...extra } });
const events = (r: SessionRegistry) => {
  const seen: [string, SessionInfo][] = [];
  for (const e of ["opened", "updated", "closed"] as const) r.on(e, (s) => seen.push([e, s]));
  return seen;
};

describe("the session registry", () => {
  it("lists a session with its client (from initialize) and its statistics (from the decision feed)", () => {
    const r = new SessionRegistry();
    const seen = events(r);
    const feed = new DecisionFeed();
    r.observe(feed);
    const a = link("s-1");
    r.register(a.l);
    expect(a.gate({ jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "cli", version: "9" } } })).toBe("pass");
    const sink = feed.tap({ write: () => undefined });
    const line = (over: Partial<DecisionInput>): DecisionInput => ({ session: "s-1", route: "r", transport: "websocket", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "echo", agent: "alice", decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 1, digest: null, ...over });
    sink.write(line({}));
    sink.write(line({ decision: "deny" }));
    sink.write(line({ direction: "inbound", kind: "response" }));
    sink.write(line({ decision: "ask", approval: { id: "ap-1", step: "requested" } }));
    sink.write(line({ session: "other" }));
    expect(r.get("s-1")).toMatchObject({ id: "s-1", route: "r", transport: "websocket", agent: "alice", client: { name: "cli", version: "9" }, server: { name: "srv", version: "1" }, messages: { outbound: 2, inbound: 1 }, denies: 1, held: 0, state: "active" });
    expect(seen.map(([e, s]) => `${e} ${s.client?.name ?? "-"}`)).toEqual(["opened -", "updated cli"]);
  });

  it("an update goes out when the held count changes: a request held by a suspension, an approval held or decided", async () => {
    const broker = new ApprovalBroker();
    const r = new SessionRegistry({ broker });
    const a = link("s-1");
    r.register(a.l);
    const seen = events(r);
    r.suspend("s-1");
    const waiting = a.gate(call(1)) as Promise<unknown>;
    const ask: ApprovalAsk = { rule: "ask-echo", prompt: "ok?", timeoutMs: 60_000, onTimeout: "deny", remember: "once", argsDigest: "a".repeat(64), ruleset: "h1" };
    const h = broker.request({ session: "s-1", route: "r", transport: "websocket", agent: "alice", server: "srv", method: "tools/call", tool: "echo" }, ask, ["admin"]);
    if ("limit" in h) throw new Error("refused");
    expect(seen.map(([e, s]) => `${e} ${s.held}`)).toEqual(["updated 0", "updated 1", "updated 2"]);
    broker.decide(h.held.id, { approve: true, channel: "api" });
    r.resume("s-1");
    await waiting;
    expect(seen.map(([e, s]) => `${e} ${s.held}`).slice(3)).toEqual(["updated 1", "updated 0"]);
  });

  it("suspend hold: requests wait and go on in order at resume; responses and notifications about them pass", async () => {
    const r = new SessionRegistry();
    const a = link("s-1");
    r.register(a.l);
    expect(r.suspend("s-1", { reason: "look" })).toMatchObject({ ok: true, session: { state: "suspended", suspend: { mode: "hold", reason: "look" } } });
    const order: number[] = [];
    const one = a.gate(call(1)) as Promise<unknown>;
    const two = a.gate(call(2)) as Promise<unknown>;
    void one.then(() => order.push(1));
    void two.then(() => order.push(2));
    expect(a.gate({ jsonrpc: "2.0", id: 7, result: {} })).toBe("pass");
    expect(r.get("s-1")?.held).toBe(2);
    r.resume("s-1");
    expect(await Promise.all([one, two])).toEqual(["pass", "pass"]);
    expect(order).toEqual([1, 2]);
    expect(r.get("s-1")).toMatchObject({ held: 0, state: "active" });
    expect(r.get("s-1")?.suspend).toBeUndefined();
  });

  it("a cancellation withdraws its held request: logged, no answer owed", async () => {
    const r = new SessionRegistry();
    const a = link("s-1");
    r.register(a.l);
    r.suspend("s-1");
    const held = a.gate(call(3));
    expect(a.gate({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } })).toBe("pass");
    expect(await held).toEqual({ message: "request cancelled by the agent while its session was suspended", reasonCode: "REQUEST_CANCELLED", answer: false });
    expect(r.get("s-1")?.held).toBe(0);
  });

  it("suspend refuse: a clear refusal at once, with the reason", () => {
    const r = new SessionRegistry();
    const a = link("s-1");
    r.register(a.l);
    r.suspend("s-1", { mode: "refuse", reason: "maintenance" });
    expect(a.gate(call(1))).toEqual({ message: "session suspended by an operator: maintenance", reasonCode: "SESSION_SUSPENDED" });
    r.suspend("s-1", { mode: "refuse" });
    expect(a.gate(call(2))).toEqual({ message: "session suspended by an operator", reasonCode: "SESSION_SUSPENDED" });
  });

  it("holds are bounded per session and in all: past either, the request is refused", () => {
    const r = new SessionRegistry({ maxHeld: 2, maxHeldTotal: 3 });
    const a = link("s-1");
    const b = link("s-2");
    r.register(a.l);
    r.register(b.l);
    r.suspend("s-1");
    r.suspend("s-2");
    expect(a.gate(call(1))).toBeInstanceOf(Promise);
    expect(a.gate(call(2))).toBeInstanceOf(Promise);
    expect(a.gate(call(3))).toMatchObject({ reasonCode: "SESSION_SUSPENDED", message: expect.stringContaining("too many requests are already held") });
    expect(b.gate(call(1))).toBeInstanceOf(Promise);
    expect(b.gate(call(2))).toMatchObject({ reasonCode: "SESSION_SUSPENDED" });
    r.shutdown();
    expect(r.list().map((s) => s.held)).toEqual([0, 0]);
  });

  it("a held request with a progressToken gets heartbeats until it is released", async () => {
    const r = new SessionRegistry({ heartbeatMs: 5 });
    const a = link("s-1");
    r.register(a.l);
    r.suspend("s-1");
    const held = a.gate(call(1, { _meta: { progressToken: "tok" } }));
    while (a.sent.length < 2) await new Promise((res) => setTimeout(res, 5));
    expect(JSON.parse(a.sent[0] as string)).toMatchObject({ method: "notifications/progress", params: { progressToken: "tok", progress: 1 } });
    r.resume("s-1");
    await held;
    const count = a.sent.length;
    await new Promise((res) => setTimeout(res, 30));
    expect(a.sent.length).toBe(count);
  });

  it("kill: held requests refused, the creator's close called once, the session gone; its gate refuses after", async () => {
    const r = new SessionRegistry();
    const seen = events(r);
    const a = link("s-1");
    r.register(a.l);
    r.suspend("s-1");
    const held = a.gate(call(1));
    expect(r.kill("s-1", "runaway")).toMatchObject({ ok: true, session: { id: "s-1" } });
    expect(await held).toEqual({ message: "session killed by an operator: runaway", reasonCode: "SESSION_KILLED" });
    expect(a.kills).toEqual(["session killed by an operator: runaway"]);
    expect(r.get("s-1")).toBeUndefined();
    expect(a.gate(call(2))).toEqual({ message: "session killed by an operator: runaway", reasonCode: "SESSION_KILLED" });
    expect(seen.filter(([e]) => e === "closed")).toHaveLength(1);
    expect(r.kill("s-1")).toEqual({ ok: false, code: "NOT_FOUND", message: "no live session s-1" });
    expect(r.resume("nope")).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });

  it("a session that ends is unlisted; what it held is answered", async () => {
    const r = new SessionRegistry();
    const seen = events(r);
    const a = link("s-1");
    const off = r.register(a.l);
    r.suspend("s-1");
    const held = a.gate(call(1));
    off();
    expect(await held).toMatchObject({ reasonCode: "SESSION_CLOSED" });
    expect(r.list()).toEqual([]);
    expect(seen.map(([e]) => e)).toEqual(["opened", "updated", "updated", "closed"]); // suspended, a request held, closed
  });

  it("a caller's exchanges (A2A) share one entry, listed between calls until idle; a suspension outlasts them", async () => {
    const r = new SessionRegistry({ callerIdleMs: 20 });
    const seen = events(r);
    const x = link("a2a:bob", { shared: true, protocol: "a2a", transport: "a2a-jsonrpc" });
    const offX = r.register(x.l);
    r.suspend("a2a:bob");
    offX();
    await new Promise((res) => setTimeout(res, 50));
    expect(r.get("a2a:bob")).toMatchObject({ state: "suspended" });
    const y = link("a2a:bob", { shared: true, protocol: "a2a", transport: "a2a-jsonrpc" });
    const offY = r.register(y.l);
    const held = y.gate(call(1));
    r.resume("a2a:bob");
    expect(await held).toBe("pass");
    expect(r.list()).toHaveLength(1);
    offY();
    expect(r.list()).toHaveLength(1);
    while (r.list().length > 0) await new Promise((res) => setTimeout(res, 10));
    expect(seen.filter(([e]) => e === "opened" || e === "closed").map(([e]) => e)).toEqual(["opened", "closed"]);
  });
});
