import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedStore } from "../../src/store/redis.js";
import { advertisedUrl, ReplicaRegistry } from "../../src/store/replicas.js";
import { startRedis, type RunningRedis } from "../support/redis.js";

const until = async (ok: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("the replica registry (real redis-server)", () => {
  let redis: RunningRedis;
  let store: SharedStore;
  beforeAll(async () => {
    redis = await startRedis();
    store = new SharedStore({ redis: redis.url, keyPrefix: "t:", onUnavailable: "closed", timeoutMs: 500 });
  });
  afterAll(async () => {
    await store.close();
    await redis.stop();
  });

  it("a replica announced is found by the others, with a TTL; stopping removes it at once", async () => {
    await until(async () => store.up);
    const r1 = new ReplicaRegistry(store, "r1", 3000);
    r1.announce("http://10.0.0.1:7070");
    const r2 = new ReplicaRegistry(store, "r2");
    await until(async () => (await new ReplicaRegistry(store, "x").urlOf("r1")) !== null);
    expect(await r2.urlOf("r1")).toBe("http://10.0.0.1:7070");
    const ttl = await store.client.pttl("t:replica:r1");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3000);
    expect(await r2.urlOf("r9")).toBeNull();
    await r1.close();
    expect(await store.client.exists("t:replica:r1")).toBe(0);
    expect(await new ReplicaRegistry(store, "x").urlOf("r1")).toBeNull();
  });

  it("registers again as soon as Redis comes back (it came back empty)", async () => {
    const r3 = new ReplicaRegistry(store, "r3", 60_000);
    r3.announce("http://10.0.0.3:7070");
    await until(async () => (await store.client.exists("t:replica:r3").catch(() => 0)) === 1);
    await redis.stop();
    await expect(new ReplicaRegistry(store, "x").urlOf("r3")).rejects.toThrow();
    await redis.start();
    // The heartbeat interval is 20 s here: only the beat on reconnection can bring the key back this soon.
    await until(async () => (await store.client.exists("t:replica:r3").catch(() => 0)) === 1, 10_000);
    await r3.close();
  });

  it("advertises replica.advertise, else the listening address when it names one host", () => {
    expect(advertisedUrl("http://gw-1.internal:7070/", "0.0.0.0", 7070)).toBe("http://gw-1.internal:7070");
    expect(advertisedUrl(undefined, "10.1.2.3", 7070)).toBe("http://10.1.2.3:7070");
    expect(advertisedUrl(undefined, "::1", 7070)).toBe("http://[::1]:7070");
    expect(advertisedUrl(undefined, "0.0.0.0", 7070)).toBeNull();
    expect(advertisedUrl(undefined, "::", 7070)).toBeNull();
  });
});
