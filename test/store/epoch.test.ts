import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { PROBE_MS, SharedStore, type StoreDataEvent } from "../../src/store/redis.js";
import { tempDir } from "../helpers.js";
import { until } from "../support/poll.js";
import { startRedis, type RunningRedis } from "../support/redis.js";

/**
 * The Redis link against a real redis-server: a frozen server (SIGSTOP) is found by command timeouts and a thawed one
 * by reconnection; guardwire's data lost (restart without persistence, FLUSHALL) is told apart from a new store and
 * from a restart that kept it, by the epoch marker.
 */
describe("the Redis link: frozen servers and lost data (real redis-server)", () => {
  const open: SharedStore[] = [];
  let redis: RunningRedis | null = null;
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    await redis?.stop();
    redis = null;
  });

  /** A store with what it reports: its data events, in order. */
  function connectStore(url: string, prefix = "t:", probeMs?: number): { store: SharedStore; events: StoreDataEvent[] } {
    const store = new SharedStore({ redis: url, keyPrefix: prefix, onUnavailable: "closed", timeoutMs: 300, probeMs });
    open.push(store);
    const events: StoreDataEvent[] = [];
    store.onData((e) => events.push(e));
    return { store, events };
  }
  const checked = (s: SharedStore) => until(() => s.checked, Boolean, "store checked");

  it("a frozen Redis: unresponsive (not answering within N ms) while stopped, up again after SIGCONT; commands meanwhile fail at once", async () => {
    redis = await startRedis();
    const { store } = connectStore(redis.url);
    await checked(store);
    redis.signal("SIGSTOP");
    const t0 = Date.now();
    await until(() => store.state.state, (s) => s === "unresponsive", "unresponsive after SIGSTOP");
    const detectedMs = Date.now() - t0;
    // Found by the periodic check: its period plus the command deadline, with room for a loaded machine.
    expect(detectedMs).toBeLessThan(PROBE_MS + 300 + 5000);
    expect(store.state.lastError).toBe("not answering within 300 ms");
    const err = store.unavailable("Command timed out");
    expect(err.message).toBe("guardwire's shared state store (Redis) is unavailable: not answering within 300 ms");
    expect(err.data).toMatchObject({ state: "unresponsive", error: "not answering within 300 ms" });
    // Still unresponsive after reconnection attempts (the port accepts, nothing answers); commands are not queued.
    await new Promise((r) => setTimeout(r, 1500));
    expect(store.state.state).toBe("unresponsive");
    const c0 = Date.now();
    await expect(store.client.get("t:x")).rejects.toThrow();
    expect(Date.now() - c0).toBeLessThan(2000);
    redis.signal("SIGCONT");
    await until(() => store.checked, Boolean, "up and checked after SIGCONT");
    expect(await store.client.set("t:x", "1")).toBe("OK");
    expect(store.state.lastError).toBeUndefined();
  }, 60_000);

  it("any command that times out makes the link unresponsive at once, without waiting for the periodic check", async () => {
    redis = await startRedis();
    // No periodic check here: the command alone finds it.
    const { store } = connectStore(redis.url, "t2:", 3_600_000);
    await checked(store);
    redis.signal("SIGSTOP");
    const err = await store.client.get("t:y").then(
      () => null,
      (e: Error) => e,
    );
    // What the caller of a timed-out command says names the state, whether or not the link was marked yet.
    expect(store.unavailable(err?.message).message).toMatch(/unavailable: not answering within 300 ms$/);
    await new Promise((r) => setImmediate(r));
    expect(store.state.state).toBe("unresponsive");
    redis.signal("SIGCONT");
    await until(() => store.checked, Boolean, "up and checked after SIGCONT");
  }, 60_000);

  it("a timeout while this process was too busy to read Redis's answer is not a freeze: the link stays up", async () => {
    redis = await startRedis();
    const { store } = connectStore(redis.url, "t3:", 3_600_000);
    await checked(store);
    // The event loop stalls past the deadline while the answer waits in the socket. Stalled in the check phase, the
    // next turn of the loop runs the command's timer before it reads the socket: the command times out.
    const answer = await new Promise<Promise<string>>((resolve) =>
      setImmediate(() => {
        const a = store.client.get("t3:z").then(
          () => "answered",
          (e: Error) => e.message,
        );
        const end = Date.now() + 700;
        while (Date.now() < end);
        resolve(a);
      }),
    );
    expect(await answer).toBe("Command timed out");
    await new Promise((r) => setTimeout(r, 50));
    expect(store.state.state).toBe("up");
  }, 60_000);

  it("the first look at an empty Redis is a new store, not a loss; a restart without persistence is a loss, named with the run_id change", async () => {
    redis = await startRedis();
    const { store, events } = connectStore(redis.url);
    await checked(store);
    const first = store.epochId;
    expect(first).not.toBe("");
    await new Promise((r) => setTimeout(r, PROBE_MS * 2));
    expect(events).toEqual([]);
    expect(store.state).toMatchObject({ resets: 0 });
    await redis.stop();
    await redis.start();
    await until(() => events.length, (n) => n > 0, "loss found after the restart");
    expect(events[0]).toMatchObject({ kind: "lost", atStart: false, cause: expect.stringMatching(/^Redis restarted empty \(run_id \w{8} → \w{8}\)$/) });
    expect(store.epochId).not.toBe(first);
    expect(store.state).toMatchObject({ resets: 1, lastReset: { cause: expect.stringContaining("restarted empty") } });
  }, 60_000);

  it("FLUSHALL without a restart is a loss, found by the periodic check", async () => {
    redis = await startRedis();
    const { store, events } = connectStore(redis.url);
    await checked(store);
    const admin = new Redis(redis.url);
    await admin.flushall();
    const flushedAt = Date.now();
    await until(() => events.length, (n) => n > 0, "loss found after FLUSHALL");
    admin.disconnect();
    const e = events[0] as Extract<StoreDataEvent, { kind: "lost" }>;
    expect(e).toMatchObject({ kind: "lost", atStart: false, cause: expect.stringContaining("deleted without a restart (FLUSHALL") });
    expect(Math.abs(e.at - flushedAt)).toBeLessThan(PROBE_MS + 2000);
  }, 60_000);

  it("a restart that kept the data (AOF) changes the run_id only: no loss, said as kept", async () => {
    redis = await startRedis({ aof: tempDir() });
    const { store, events } = connectStore(redis.url);
    await checked(store);
    const first = store.epochId;
    await redis.stop();
    await redis.start();
    await until(() => events.length, (n) => n > 0, "restart noticed");
    expect(events).toEqual([{ kind: "kept", cause: expect.stringMatching(/^Redis restarted or failed over \(run_id \w{8} → \w{8}\) with guardwire's data intact/) }]);
    expect(store.epochId).toBe(first);
    expect(store.state.resets).toBe(0);
  }, 60_000);

  it("a failover behind one address to a replica holding the data (another run_id, the marker there): kept, not lost", async () => {
    const primary = await startRedis();
    const replica = await startRedis();
    const admin = new Redis(replica.url);
    // One address in front of both, as Sentinel behind a proxy gives (a TCP relay, switched by the test).
    let target = primary.port;
    const relays = new Set<Socket>();
    const relay = createServer((a) => {
      const b = connect(target, "127.0.0.1");
      relays.add(a).add(b);
      a.pipe(b).pipe(a);
      const end = () => (a.destroy(), b.destroy());
      a.on("error", end).on("close", end);
      b.on("error", end).on("close", end);
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
    try {
      const { store, events } = connectStore(`redis://127.0.0.1:${(relay.address() as AddressInfo).port}`);
      await checked(store);
      const first = store.epochId;
      await admin.replicaof("127.0.0.1", String(primary.port));
      await until(async () => (await admin.hget("t:epoch", "id")) === first, Boolean, "replica synced");
      // Failover: the replica promoted, the address switched to it, the primary gone.
      await admin.replicaof("NO", "ONE");
      target = replica.port;
      for (const s of relays) s.destroy();
      await primary.stop();
      await until(() => events.length, (n) => n > 0, "failover noticed");
      expect(events).toEqual([{ kind: "kept", cause: expect.stringMatching(/^Redis restarted or failed over \(run_id \w{8} → \w{8}\) with guardwire's data intact/) }]);
      expect(store.epochId).toBe(first);
      expect(store.state.resets).toBe(0);
    } finally {
      admin.disconnect();
      relay.close();
      for (const s of relays) s.destroy();
      await primary.stop();
      await replica.stop();
    }
  }, 60_000);

  it("several replicas: each finds the loss, at the same moment, whichever looked first; one started later learns it at its start", async () => {
    redis = await startRedis();
    const a = connectStore(redis.url);
    const b = connectStore(redis.url);
    await checked(a.store);
    await checked(b.store);
    await redis.stop();
    await redis.start();
    // A replica starting now may take the empty store for new before the running ones look: they still find the loss.
    const c = connectStore(redis.url);
    await until(() => a.events.length > 0 && b.events.length > 0 && c.events.length > 0, Boolean, "every replica knows the loss");
    const at = (e: StoreDataEvent | undefined) => (e as Extract<StoreDataEvent, { kind: "lost" }>).at;
    expect(a.events[0]).toMatchObject({ kind: "lost", atStart: false });
    expect(b.events[0]).toMatchObject({ kind: "lost", atStart: false });
    expect(c.events[0]).toMatchObject({ kind: "lost" });
    expect(Math.abs(at(a.events[0]) - at(b.events[0]))).toBeLessThan(1000);
    expect(Math.abs(at(a.events[0]) - at(c.events[0]))).toBeLessThan(1000);
    expect(new Set([a.store.epochId, b.store.epochId, c.store.epochId]).size).toBe(1);
    // One loss, one event each: the periodic checks that follow find nothing new.
    await new Promise((r) => setTimeout(r, PROBE_MS * 2));
    expect([a.events.length, b.events.length, c.events.length]).toEqual([1, 1, 1]);
  }, 60_000);
});
