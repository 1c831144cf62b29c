import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeContinuity, SessionEnds } from "../../src/store/continuity.js";
import { OpsBus } from "../../src/store/ops-bus.js";
import { SharedStore } from "../../src/store/redis.js";
import { SessionTokens } from "../../src/store/session-token.js";
import type { EndWatcher } from "../../src/transports/downstream/streamable-http.js";
import { until } from "../support/poll.js";
import { startRedis, type RunningRedis } from "../support/redis.js";

/** A route's sessions as a replica holds them: ended here when told. */
function holding(...ids: string[]): EndWatcher & { held: () => string[]; ended: string[] } {
  const live = new Set(ids);
  const ended: string[] = [];
  return {
    ended,
    held: () => [...live],
    end(id) {
      if (!live.delete(id)) return false;
      ended.push(id);
      return true;
    },
  };
}

describe("sessions ended across replicas (real redis-server)", () => {
  let redis: RunningRedis;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await redis.stop();
  });

  /** A replica's store and operator channel, once it is subscribed. */
  async function replica(id: string, prefix: string): Promise<OpsBus> {
    const store = new SharedStore({ redis: redis.url, keyPrefix: prefix, onUnavailable: "closed", timeoutMs: 500 });
    const bus = new OpsBus(store, id, { replyMs: 2000 });
    closers.push(() => store.close(), () => bus.close());
    await until(() => store.up, Boolean, `${id}'s store is up`);
    return bus;
  }
  const subscribers = (bus: OpsBus) => bus.store.client.pubsub("NUMSUB", bus.channel).then((r) => r[1] as number);

  it("an end is marked in Redis for the tokens' lifetime and ended on every replica holding the session before it settles", async () => {
    const [a, b, c] = [await replica("a", "e1:"), await replica("b", "e1:"), await replica("c", "e1:")];
    const [onA, onB, onC] = [new SessionEnds(a.store, a, 3600), new SessionEnds(b.store, b, 3600), new SessionEnds(c.store, c, 3600)];
    const [heldB, heldC] = [holding("s-1", "s-2"), holding("s-2")];
    onB.watch(heldB);
    onC.watch(heldC);
    await until(() => subscribers(a), (n) => n === 3, "the three replicas listen");
    await onA.end("s-2");
    // Settled: both copies are already ended, and both replicas know it without reading Redis.
    expect(heldB.ended).toEqual(["s-2"]);
    expect(heldC.ended).toEqual(["s-2"]);
    expect([onA.has("s-2"), onB.has("s-2"), onC.has("s-2"), onB.has("s-1")]).toEqual([true, true, true, false]);
    const ttl = await a.store.client.ttl("e1:session:s-2:ended");
    expect(ttl).toBeGreaterThan(3600);
    expect(ttl).toBeLessThanOrEqual(3660);
  });

  it("a replica that was not listening when an end was told ends its copy once it listens again", async () => {
    const [a, b] = [await replica("a", "e2:"), await replica("b", "e2:")];
    const [onA, onB] = [new SessionEnds(a.store, a, 3600), new SessionEnds(b.store, b, 3600)];
    const held = holding("s-missed", "s-live");
    onB.watch(held);
    await until(() => subscribers(a), (n) => n === 2, "both replicas listen");
    // b's link for the channel goes down (and stays down) while a ends the session: b does not hear of it.
    const sub = b.store.subscriber();
    sub.disconnect(false);
    await until(() => subscribers(a), (n) => n === 1, "b no longer listens");
    await until(() => sub.status, (st) => st === "end", "b's link is down");
    await onA.end("s-missed");
    expect(held.ended).toEqual([]);
    // The link comes back: b reads the marks of what it holds and ends the copy it missed the end of.
    await sub.connect();
    await until(() => held.ended, (e) => e.length === 1, "b ended the copy it missed the end of");
    expect(held.ended).toEqual(["s-missed"]);
    expect(held.held()).toEqual(["s-live"]);
    expect(onB.has("s-missed")).toBe(true);
    // A kill marked while b was not listening counts the same.
    sub.disconnect(false);
    await until(() => sub.status, (st) => st === "end", "b's link is down again");
    await b.store.client.set("e2:session:s-live:killed", "1", "EX", 60);
    await sub.connect();
    await until(() => held.ended, (e) => e.length === 2, "b ended the killed one when it listened again");
  });

  it("a token is not continued once ended, killed, or older than the tokens' lifetime", async () => {
    const bus = await replica("a", "e3:");
    const tokens = new SessionTokens([randomBytes(32).toString("base64")]);
    const ends = new SessionEnds(bus.store, bus, 600);
    const c = routeContinuity({ tokens, replica: "a", store: bus.store, ends, shared: true, cluster: true }, "http", true);
    const state = (session: string) => ({ agent: null, session, upstream: { sessionId: "up", protocolVersion: "2025-06-18" }, server: null });
    const fresh = c.seal(state("s-fresh"));
    expect(await c.restore(fresh, null)).toMatchObject({ session: "s-fresh", upstream: { sessionId: "up" } });
    const old = tokens.seal({ route: "http", agent: null, session: "s-old", upstream: "up", protocol: null, server: null, owner: null, issued: Math.floor(Date.now() / 1000) - 601 });
    expect(await c.restore(old, null)).toMatchObject({ status: 404 });
    const killed = c.seal(state("s-killed"));
    await bus.store.client.set("e3:session:s-killed:killed", "1", "EX", 60);
    expect(await c.restore(killed, null)).toMatchObject({ status: 404 });
    await c.ended("s-fresh");
    expect(await c.restore(fresh, null)).toMatchObject({ status: 404 });
  });
});
