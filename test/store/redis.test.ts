import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconnectDelay, redactUrl, SharedStore, type StoreStatus } from "../../src/store/redis.js";
import { startRedis, type RunningRedis } from "../support/redis.js";

const until = async (ok: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("the Redis link (real redis-server)", () => {
  let redis: RunningRedis;
  let store: SharedStore;
  const states: StoreStatus["state"][] = [];
  beforeAll(async () => {
    redis = await startRedis();
    store = new SharedStore({ redis: redis.url, keyPrefix: "t:", onUnavailable: "closed", timeoutMs: 500 });
    store.onState((s) => states.push(s.state));
  });
  afterAll(async () => {
    await store.close();
    await redis.stop();
  });

  it("comes up, goes down when Redis stops (commands fail at once), and reconnects when it returns", async () => {
    await until(() => store.up);
    await store.client.set(store.key("a", "b"), "1");
    expect(await store.client.get("t:a:b")).toBe("1");
    await redis.stop();
    await until(() => !store.up);
    const t0 = Date.now();
    await expect(store.client.get("t:a:b")).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(1000);
    const err = store.unavailable();
    expect(err.code).toBe(-32051);
    expect(err.message).toMatch(/Redis/);
    expect(err.data).toMatchObject({ store: "redis", state: "down" });
    await redis.start();
    await until(() => store.up);
    expect(store.state.reconnects).toBeGreaterThan(0);
    expect(states).toEqual(expect.arrayContaining(["connecting", "up", "down"]));
  });

  it("listen: subscribed again whenever the link comes back (messages after a Redis restart arrive, catch-up runs each time)", async () => {
    const got: string[] = [];
    let subscribed = 0;
    store.listen("t:chan", (text) => got.push(text), async () => {
      subscribed++;
    });
    const publish = async (text: string) => {
      const until = Date.now() + 10_000;
      // Published until received: a subscription is asked for on the next ready connection.
      while (!got.includes(text)) {
        if (Date.now() > until) throw new Error(`${text} never arrived`);
        await store.client.publish("t:chan", text).catch(() => 0);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(() => store.up);
    await publish("before");
    const before = subscribed;
    await redis.stop();
    await until(() => !store.up);
    await redis.start();
    await until(() => store.up);
    await publish("after");
    expect(subscribed).toBeGreaterThan(before);
  });

  it("backs off from 50 ms to 2 s, jittered", () => {
    expect(reconnectDelay(1, () => 0.5)).toBe(50);
    expect(reconnectDelay(3, () => 0.5)).toBe(200);
    expect(reconnectDelay(30, () => 0.5)).toBe(2000);
    expect(reconnectDelay(30, () => 1)).toBe(2400);
  });

  it("keeps passwords out of what it reports", () => {
    expect(redactUrl("redis://user:secret@host:6379/0")).toBe("redis://user:***@host:6379/0");
  });
});
