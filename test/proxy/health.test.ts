import { describe, expect, it } from "vitest";
import type { MetricValueWithName } from "prom-client";
import { liveness, readiness, type HealthSource } from "../../src/proxy/health.js";
import { DecisionFeed } from "../../src/observe/feed.js";
import { GuardwireMetrics } from "../../src/observe/metrics.js";
import type { StoreStatus } from "../../src/store/redis.js";

const status = (state: StoreStatus["state"], over: Partial<StoreStatus> = {}): StoreStatus => ({
  backend: "redis", state, url: "redis://:***@redis:6379/0", since: "2026-11-23T18:00:00.000Z", reconnects: 3, resets: 0, ...over,
});

function source(over: Partial<HealthSource> = {}): HealthSource {
  return { version: "1.2.3", replica: "r1", rules: () => ({ name: "team", hash: "5d0f3a1b2c3d4e5f", rules: [1, 2, 3] }), store: null, stopping: () => false, ...over };
}

describe("/healthz and /readyz payloads", () => {
  it("healthz names the replica, the rules version and the store state, never the store's URL, and stays 200 while the store is down", () => {
    const a = liveness(source({ store: { state: status("down", { lastError: "connect ECONNREFUSED 10.0.0.5:6379" }), onUnavailable: "closed" } }));
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      status: "ok", version: "1.2.3", replica: "r1", ruleset: { name: "team", hash: "5d0f3a1b2c3d4e5f", rules: 3 },
      store: { backend: "redis", state: "down", since: "2026-11-23T18:00:00.000Z", lastError: "connect ECONNREFUSED 10.0.0.5:6379", reconnects: 3, onUnavailable: "closed", resets: 0 },
    });
    expect(JSON.stringify(a.body)).not.toContain("redis://");
  });

  it("after a loss of the store's data: healthz shows how many, the last one, and until when limit rules are held; readyz stays 200", () => {
    const lastReset = { at: "2026-11-23T18:00:00.000Z", cause: "Redis restarted empty (run_id 1a2b3c4d → 5e6f7a8b)" };
    const store = { state: status("up", { resets: 1, lastReset, limitsHeldUntil: "2026-11-23T18:01:00.000Z" }), onUnavailable: "closed" as const };
    expect(liveness(source({ store })).body.store).toMatchObject({ state: "up", resets: 1, lastReset, limitsHeldUntil: "2026-11-23T18:01:00.000Z" });
    expect(readiness(source({ store }), ["a"]).status).toBe(200);
  });

  it("readyz is 503 while Redis does not answer in time, naming it", () => {
    const r = readiness(source({ store: { state: status("unresponsive", { lastError: "not answering within 500 ms" }), onUnavailable: "closed" } }), ["a"]);
    expect(r).toMatchObject({ status: 503, body: { reason: "the shared store (Redis) is unresponsive: not answering within 500 ms", store: { state: "unresponsive" } } });
  });

  it("without a store: store is null and readyz is 200 with the routes", () => {
    const r = readiness(source(), ["github", "files"]);
    expect(r).toEqual({ status: 200, body: expect.objectContaining({ status: "ready", routes: ["github", "files"], store: null, replica: "r1" }) });
  });

  it("readyz is 503 while the store is not up with onUnavailable: closed, 200 with local, and 503 while stopping", () => {
    for (const state of ["connecting", "down"] as const) {
      const r = readiness(source({ store: { state: status(state), onUnavailable: "closed" } }), ["a"]);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: "not ready", reason: `the shared store (Redis) is ${state}` });
    }
    expect(readiness(source({ store: { state: status("up"), onUnavailable: "closed" } }), ["a"]).status).toBe(200);
    expect(readiness(source({ store: { state: status("down"), onUnavailable: "local" } }), ["a"]).status).toBe(200);
    expect(readiness(source({ stopping: () => true }), ["a"])).toMatchObject({ status: 503, body: { reason: "stopping" } });
    expect(liveness(source({ stopping: () => true })).status).toBe(200);
  });
});

describe("/metrics: the store and the rules version", () => {
  it("guardwire_store_up follows the store's state, reconnects are counted, and guardwire_rules_info names the rules in force", async () => {
    const store = { state: status("up") };
    let hash = "aaaaaaaaaaaaaaaa";
    const metrics = new GuardwireMetrics({ version: "t", feed: new DecisionFeed(), store, ruleset: () => hash });
    const values = async (name: string) => ((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []) as MetricValueWithName<string>[];
    expect((await values("guardwire_store_up"))[0]?.value).toBe(1);
    expect((await values("guardwire_store_reconnects_total"))[0]?.value).toBe(3);
    expect((await values("guardwire_store_resets_total"))[0]?.value).toBe(0);
    expect((await values("guardwire_store_limits_held"))[0]?.value).toBe(0);
    store.state = status("up", { resets: 2, limitsHeldUntil: "2026-11-23T18:01:00.000Z" });
    expect((await values("guardwire_store_resets_total"))[0]?.value).toBe(2);
    expect((await values("guardwire_store_limits_held"))[0]?.value).toBe(1);
    store.state = status("unresponsive", { reconnects: 5 });
    hash = "bbbbbbbbbbbbbbbb";
    expect((await values("guardwire_store_up"))[0]?.value).toBe(0);
    expect((await values("guardwire_store_reconnects_total"))[0]?.value).toBe(5);
    expect((await values("guardwire_rules_info")).map((v) => [v.labels.ruleset, v.value])).toEqual([["bbbbbbbbbbbbbbbb", 1]]);
    const text = await metrics.text();
    expect(text).toContain('guardwire_rules_info{ruleset="bbbbbbbbbbbbbbbb"} 1');
    expect(text).toContain("guardwire_store_up 0");
    metrics.close();
  });

  it("without a store the store series are absent", async () => {
    const metrics = new GuardwireMetrics({ version: "t", feed: new DecisionFeed() });
    expect(await metrics.text()).not.toContain("guardwire_store_up");
    metrics.close();
  });
});
