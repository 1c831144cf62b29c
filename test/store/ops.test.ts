import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalBroker, type HoldContext } from "../../src/approvals/broker.js";
import type { ApprovalAsk } from "../../src/guardian/verdict.js";
import { SharedDeduper } from "../../src/alerts/shared-deduper.js";
import { SharedApprovals } from "../../src/approvals/shared-approvals.js";
import { SessionRegistry, type SessionInfo, type SessionLink } from "../../src/control/registry.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { DecisionFeed } from "../../src/observe/feed.js";
import { SharedSessions } from "../../src/control/shared-sessions.js";
import { killedKey } from "../../src/store/session-token.js";
import { OpsBus, type BusOptions } from "../../src/store/ops-bus.js";
import { SharedStore } from "../../src/store/redis.js";
import { until } from "../support/poll.js";
import { startRedis, type RunningRedis } from "../support/redis.js";

const ctx: HoldContext = { session: "s1", route: "r", transport: "stdio", agent: null, server: "srv", method: "tools/call", tool: "echo" };
const ask: ApprovalAsk = { rule: "ask-echo", prompt: "ok?", timeoutMs: 60_000, onTimeout: "deny", remember: "once", argsDigest: "a".repeat(64), ruleset: "h1" };

describe("the operator side's Redis pieces (real redis-server)", () => {
  let redis: RunningRedis;
  const stores: SharedStore[] = [];
  const buses: OpsBus[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const b of buses) await b.close().catch(() => undefined);
    for (const s of stores) await s.close();
    await redis.stop();
  });

  const store = async (prefix = "t:") => {
    const s = new SharedStore({ redis: redis.url, keyPrefix: prefix, onUnavailable: "closed", timeoutMs: 500 });
    stores.push(s);
    await until(() => s.up, Boolean, "the store comes up");
    return s;
  };
  /** A replica's operator channel, once it is subscribed and its heartbeat is seen. */
  const bus = async (id: string, opts: BusOptions = {}, prefix = "t:") => {
    const b = new OpsBus(await store(prefix), id, opts);
    buses.push(b);
    await until(() => b.replicas(), (l) => l.includes(id), `${id} is alive`);
    await until(async () => (await b.store.client.pubsub("NUMSUB", b.channel))[1] as number, (n) => n >= buses.filter((x) => x.channel === b.channel).length, `${id} is subscribed`);
    return b;
  };

  it("a request reaches the replicas that handle it; one that received it but does not answer is counted missing", async () => {
    const a = await bus("a", { replyMs: 300 }, "bus1:");
    const b = await bus("b", {}, "bus1:");
    b.handle("echo", (body) => ({ got: body }));
    expect(await a.request("echo", 1)).toEqual({ answers: [{ replica: "b", body: { got: 1 } }], missing: 0 });
    const c = await bus("c", {}, "bus1:");
    // c has no part answering "echo": it says so (null) at once, so no one waits for it.
    expect(await a.request("echo", 2)).toEqual({ answers: expect.arrayContaining([{ replica: "b", body: { got: 2 } }, { replica: "c", body: null }]), missing: 0 });
    // One that received the request and never answers (its process hangs, or dies right then) is counted missing.
    const silent = new Redis(redis.url);
    await silent.subscribe(c.channel);
    expect(await a.request("echo", 4)).toMatchObject({ missing: 1 });
    silent.disconnect();
    c.handle("echo", () => "c here");
    expect(await a.request("echo", 3, "c")).toEqual({ answers: [{ replica: "c", body: "c here" }], missing: 0 });
    const events: unknown[] = [];
    b.on("note", (body, from) => events.push([body, from]));
    a.emit("note", { x: 1 });
    await until(() => events.length, (n) => n === 1, "the event arrives");
    expect(events).toEqual([[{ x: 1 }, "a"]]);
  });

  it("a replica that dies leaves no approvable ghost: its held approvals drop out of the others' lists and out of Redis", async () => {
    const opts = { heartbeatMs: 100, aliveMs: 400, replyMs: 500 };
    const a = await bus("a", opts, "ghost:");
    const b = await bus("b", opts, "ghost:");
    const brokerA = new ApprovalBroker();
    const brokerB = new ApprovalBroker();
    new SharedApprovals(a, brokerA);
    const onB = new SharedApprovals(b, brokerB);
    const h = brokerA.request(ctx, ask, ["admin"]);
    if ("limit" in h) throw new Error("refused");
    const listed = await until(() => onB.list(), (l) => l.approvals.length === 1, "b lists a's approval");
    expect(listed.approvals[0]).toMatchObject({ id: h.held.id, replica: "a" });
    // a dies without a word: its connection closes, its heartbeat stops.
    await a.store.close();
    expect((await onB.decide(h.held.id, { approve: true, channel: "api" })).ok).toBe(false);
    await until(() => onB.list(), (l) => l.approvals.length === 0, "a's approval is no longer listed");
    await until(() => b.store.client.exists(b.store.key("approval", h.held.id)), (n) => n === 0, "a's approval is gone from Redis");
    onB.close();
    brokerA.shutdown();
    brokerB.shutdown();
  });

  it("remember: always is shared: an approval remembered on a covers the same call on b and on a replica started later; forgetting on b forgets everywhere", async () => {
    const a = await bus("a", {}, "always:");
    const b = await bus("b", {}, "always:");
    const always = { ...ask, remember: "always" as const };
    const [brokerA, brokerB, brokerC] = [new ApprovalBroker(), new ApprovalBroker(), new ApprovalBroker()];
    const shared = [new SharedApprovals(a, brokerA), new SharedApprovals(b, brokerB)];
    const h = brokerA.request(ctx, always, ["admin"]);
    if ("limit" in h) throw new Error("refused");
    expect(brokerA.decide(h.held.id, { approve: true, channel: "api", remember: "always" })).toMatchObject({ ok: true });
    await until(() => brokerB.coveredBy({ ...ctx, session: "another" }, always), (id) => id === h.held.id, "b knows a's approval");
    const c = await bus("c", {}, "always:");
    shared.push(new SharedApprovals(c, brokerC));
    await until(() => brokerC.coveredBy(ctx, always), (id) => id === h.held.id, "c loaded it from Redis");
    expect(brokerB.forget(h.held.id)).toBe(1);
    await until(() => [brokerA.coveredBy(ctx, always), brokerC.coveredBy(ctx, always)], (ids) => ids.every((id) => id === null), "a and c forgot it");
    expect(await b.store.client.hlen(b.store.key("approvals", "always"))).toBe(0);
    for (const s of shared) s.close();
  });

  it("a session continued on two replicas is one row (counts summed, both replicas named, also once one let go of it), and a kill through a third reaches the holder and is marked", async () => {
    const opts = { replyMs: 2000 };
    const [a, b, c] = [await bus("a", opts, "kill:"), await bus("b", opts, "kill:"), await bus("c", opts, "kill:")];
    const kills: string[] = [];
    const link = (replica: string): SessionLink => ({
      session: { id: "s-shared", serverInfo: null, use: () => () => undefined },
      route: "everything",
      transport: "streamable-http",
      protocol: "mcp",
      agent: null,
      downstream: { send: () => undefined },
      kill: (m) => kills.push(`${replica}: ${m}`),
    });
    // Each replica counts the decisions its own copy logged (a real feed, as serve wires it).
    const feeds = [new DecisionFeed(), new DecisionFeed(), new DecisionFeed()];
    const [ra, rb, rc] = [new SessionRegistry(), new SessionRegistry(), new SessionRegistry()];
    [ra, rb, rc].forEach((r, i) => r.observe(feeds[i]!));
    const shared = [new SharedSessions(a, ra, { gapMs: 10 }), new SharedSessions(b, rb, { gapMs: 10 }), new SharedSessions(c, rc, { gapMs: 10, killedMs: 90_000_000 })];
    const events: [string, SessionInfo][] = [];
    const stop = shared[2]!.events((event, data) => events.push([event, (data as { session: SessionInfo }).session]));
    ra.register(link("a"));
    const letGoOnB = rb.register(link("b"));
    const line = (direction: "outbound" | "inbound", decision: "allow" | "deny") =>
      ({ session: "s-shared", route: "everything", transport: "streamable-http", protocol: "mcp", direction, kind: "request", id: 1, method: "tools/call", tool: "echo", agent: null, decision, mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 0, digest: null }) as DecisionInput;
    const sinkA = feeds[0]!.tap({ write: () => undefined });
    const sinkB = feeds[1]!.tap({ write: () => undefined });
    for (let i = 0; i < 3; i++) sinkA.write(line("outbound", "allow"));
    sinkA.write(line("inbound", "allow"));
    for (let i = 0; i < 2; i++) sinkB.write(line("outbound", "deny"));
    sinkB.write(line("inbound", "allow"));
    // Counts reach Redis with each replica's next write of its list (a registry event, or the periodic one).
    ra.suspend("s-shared", { mode: "hold" });
    rb.suspend("s-shared", { mode: "hold" });
    const listed = await until(() => shared[2]!.list(), (l) => l.sessions[0]?.messages.outbound === 5, "c lists one merged row with both copies' counts");
    expect(listed.sessions).toHaveLength(1);
    expect(listed.sessions[0]).toMatchObject({ id: "s-shared", replicas: ["a", "b"], messages: { outbound: 5, inbound: 2 }, denies: 2, state: "suspended" });
    expect(await shared[2]!.get("s-shared")).toMatchObject({ id: "s-shared", replicas: ["a", "b"], messages: { outbound: 5, inbound: 2 } });
    expect(await shared[0]!.get("s-shared")).toMatchObject({ replicas: ["a", "b"], denies: 2 });
    // c's event stream shows the merged row too, never one replica's partial copy as the session.
    await until(() => events.at(-1), (e) => e?.[1].replicas?.length === 2, "an event carries the merged row");

    // b lets go of its copy (idle there): the row still counts what b counted, and names b among the replicas it went through.
    letGoOnB();
    // Once b's own list no longer names it, the row's counts for b can only come from what b kept at letting go.
    await until(() => b.store.client.hexists(b.store.key("ops", "sessions", "b"), "s-shared"), (n) => n === 0, "b's list no longer names it");
    const after = await shared[2]!.list();
    expect(after.sessions).toMatchObject([{ id: "s-shared", replicas: ["a", "b"], messages: { outbound: 5, inbound: 2 }, denies: 2 }]);

    // b takes it up again, denies once more and lets go at once; a kill asked straight after (before b's list is next
    // written) still answers with every count: what b kept is in Redis before b answers the kill.
    const again = rb.register(link("b"));
    sinkB.write(line("outbound", "deny"));
    again();
    // Sent on b's connection as it let go (not with its list's next write), so a read on that connection sees it.
    expect(await b.store.client.hget(b.store.key("ops", "session", "s-shared", "gone"), "denies:b")).toBe("3");
    const r = await shared[2]!.kill("s-shared", "rogue", "ops");
    expect(r).toMatchObject({ ok: true, session: { id: "s-shared", replicas: ["a", "b"], messages: { outbound: 6, inbound: 2 }, denies: 3 } });
    expect(kills).toEqual(["a: session killed by an operator: rogue"]);
    expect(await c.store.client.pttl(killedKey(c.store, "s-shared"))).toBeGreaterThan(89_000_000);
    await until(() => shared[2]!.list(), (l) => l.sessions.length === 0, "the killed session is listed nowhere");
    // Closed only once no replica holds it: the last event for it says so.
    await until(() => events.at(-1), (e) => e?.[0] === "session.closed", "the last event is session.closed");
    expect(await shared[0]!.kill("s-shared")).toMatchObject({ ok: false, code: "NOT_FOUND" });
    stop();
    for (const x of shared) await x.close();
  });

  it("Redis down: a replica lists and decides what it holds itself, says the list is incomplete, and cannot decide another's", async () => {
    const a = await bus("a", {}, "down:");
    const b = await bus("b", {}, "down:");
    const [brokerA, brokerB] = [new ApprovalBroker(), new ApprovalBroker()];
    const [onA, onB] = [new SharedApprovals(a, brokerA), new SharedApprovals(b, brokerB)];
    const mine = brokerB.request(ctx, ask, ["admin"]);
    const theirs = brokerA.request(ctx, ask, ["admin"]);
    if ("limit" in mine || "limit" in theirs) throw new Error("refused");
    await until(() => onB.list(), (l) => l.approvals.length === 2, "b lists both");
    await redis.stop();
    await until(() => b.store.up, (up) => !up, "b notices Redis is gone");
    const listed = await onB.list();
    expect(listed.approvals.map((x) => x.id)).toEqual([mine.held.id]);
    expect(listed.incomplete).toMatch(/Redis/);
    expect(await onB.decide(theirs.held.id, { approve: true, channel: "api" })).toMatchObject({ ok: false, code: "UNAVAILABLE" });
    expect(await onB.decide(mine.held.id, { approve: true, channel: "api" })).toMatchObject({ ok: true });
    await expect(mine.outcome).resolves.toMatchObject({ outcome: "approved" });
    await redis.start();
    onA.close();
    onB.close();
    brokerA.shutdown();
    brokerB.shutdown();
  });

  it("alerts: the first replica in a window posts, the others hold back; after the window it posts again; Redis down: posted", async () => {
    const one = new SharedDeduper(await store("dd:"), "r1", 400);
    const two = new SharedDeduper(await store("dd:"), "r2", 400);
    const now = Date.now();
    expect(await one.admit("k", now)).toBe(0);
    expect(await two.admit("k", now)).toBeNull();
    // Repeats within the window are held back from the local cache, without a round trip.
    expect(one.admit("k", now + 1)).toBeNull();
    expect(two.admit("k", now + 1)).toBeNull();
    const probe = stores[stores.length - 1] as SharedStore;
    await until(() => probe.client.keys("dd:alert:*"), (k) => k.length === 0, "the window ends in Redis");
    // r2 says how many repeats it held back before this one (its own: the first and the local repeat).
    expect(await two.admit("k", Date.now() + 500)).toBe(2);
    expect(await one.admit("k", Date.now() + 500)).toBeNull();
    await redis.stop();
    await until(() => probe.up, (up) => !up, "the store notices Redis is gone");
    expect(await one.admit("other", Date.now())).toBe(0);
    expect(one.admit("other", Date.now())).toBeNull();
    await redis.start();
  });
});
