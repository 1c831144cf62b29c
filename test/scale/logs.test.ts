import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { startEverything, type Running } from "../support/servers.js";

const run = promisify(execFile);

/** Each replica reads its own rule file (`${GUARDWIRE_REPLICA}` in the config), so a rollout can reach one replica first. */
const rulesText = (limit: number) => `name: cluster
default: allow
rules:
  - id: deny-big-sum
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: get-sum }
    when: 'args.a > ${limit}'
    decision: deny
    reasonCode: TOO_BIG
    message: sums over ${limit} are not allowed
`;

const json = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

/** Polls until `check` holds (a probe, a reload, a health check of HAProxy): no sleeps as synchronisation. */
async function until<T>(what: string, get: () => Promise<T>, check: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    try {
      last = await get();
      if (check(last)) return last;
    } catch {
      // not answering yet
    }
    if (Date.now() > end) throw new Error(`${what}: not reached in ${ms} ms (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The admin listener's /metrics (its URL and token are in the replica's admin file). */
async function metricsOf(adminFile: string): Promise<string> {
  const admin = JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
  return (await fetch(`${admin.url}/metrics`, { headers: { authorization: `Bearer ${admin.token}` } })).text();
}

/** A tool call guardwire blocked comes back as an error result naming the rule's message. */
const blocked = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.isError ? JSON.stringify(r.content) : "not blocked");

const initialize = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } } });

describe("decision logs, health and rollout across three replicas (real HAProxy, real Redis)", () => {
  let dir: string;
  let upstream: Running;
  let cluster: Cluster;
  const rulesFile = (id: string) => join(dir, `rules-${id}.yaml`);

  beforeAll(async () => {
    dir = tempDir();
    for (const id of ["r1", "r2", "r3"]) writeFileSync(rulesFile(id), rulesText(100));
    upstream = await startEverything("streamableHttp");
    cluster = await startCluster(dir, {
      rules: join(dir, "rules-${GUARDWIRE_REPLICA}.yaml"),
      routes: ["  - name: ev", "    path: /mcp/ev", `    mcp: { url: "${upstream.url}" }`],
      admin: true,
    });
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
    await upstream?.stop();
  });

  it("/healthz on each replica names it, the same rules version and the store up; /metrics shows the same", async () => {
    const hashes = new Set<string>();
    for (const r of cluster.replicas) {
      const h = await until(`${r.id} store up`, () => json(`${r.base}/healthz`), (a) => (a.body.store as { state?: string })?.state === "up");
      expect(h.status).toBe(200);
      expect(h.body).toMatchObject({ status: "ok", replica: r.id, store: { backend: "redis", state: "up", onUnavailable: "closed" } });
      expect(JSON.stringify(h.body)).not.toContain("redis://");
      const ruleset = h.body.ruleset as { hash: string; rules: number };
      expect(ruleset.rules).toBe(1);
      hashes.add(ruleset.hash);
      expect((await json(`${r.base}/readyz`)).status).toBe(200);
      const metrics = await metricsOf(r.adminFile);
      expect(metrics).toContain(`guardwire_rules_info{ruleset="${ruleset.hash}"} 1`);
      expect(metrics).toMatch(/^guardwire_store_up 1$/m);
      expect(metrics).toMatch(/^guardwire_store_reconnects_total \d+$/m);
    }
    expect(hashes.size).toBe(1);
  }, 60_000);

  it("traffic through HAProxy and straight to each replica lands in each replica's own log", async () => {
    // New sessions through HAProxy: round-robin spreads the initializes over the replicas.
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${cluster.base}/mcp/ev`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: initialize(i + 1) });
      expect(r.status).toBe(200);
      expect(r.headers.get("mcp-session-id")).toBeTruthy();
      await r.text();
    }
    // A whole SDK session on each replica (continuing a session across replicas is docs/scale.md's Sessions section).
    for (const r of cluster.replicas) {
      const client = new Client({ name: `client-${r.id}`, version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${r.base}/mcp/ev`)));
      expect((await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
      expect(blocked(await client.callTool({ name: "get-sum", arguments: { a: 500, b: 2 } }))).toMatch(/sums over 100 /);
      await client.close();
    }
  }, 60_000);

  it("a rules rollout is seen converging: /healthz, /metrics and new records show each replica's version", async () => {
    const before = ((await json(`${cluster.replicas[0]?.base}/healthz`)).body.ruleset as { hash: string }).hash;
    const [first, ...rest] = cluster.replicas;
    if (!first) throw new Error("no replica");
    // The new rules reach r1 first: its hot reload (--watch, the default) shows at once; the others still run the old.
    writeFileSync(rulesFile(first.id), rulesText(10));
    const after = ((await until("r1 reloaded", () => json(`${first.base}/healthz`), (a) => (a.body.ruleset as { hash: string }).hash !== before)).body.ruleset as { hash: string }).hash;
    for (const r of rest) expect(((await json(`${r.base}/healthz`)).body.ruleset as { hash: string }).hash).toBe(before);
    expect(await metricsOf(first.adminFile)).toContain(`guardwire_rules_info{ruleset="${after}"} 1`);
    const client = new Client({ name: "after-reload", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${first.base}/mcp/ev`)));
    expect(blocked(await client.callTool({ name: "get-sum", arguments: { a: 50, b: 2 } }))).toMatch(/sums over 10 /);
    await client.close();
    // Then the others: every replica ends on the same version.
    for (const r of rest) writeFileSync(rulesFile(r.id), rulesText(10));
    for (const r of cluster.replicas) await until(`${r.id} converged`, () => json(`${r.base}/healthz`), (a) => (a.body.ruleset as { hash: string }).hash === after);
    const log = readLogOf(first.id);
    const denied = log.find((x) => x.tool === "get-sum" && x.decision === "deny" && String(x.message).includes("over 10 "));
    expect(denied).toMatchObject({ replica: "r1", ruleset: after });
    expect(log.filter((x) => x.ruleset === before).length).toBeGreaterThan(0);
  }, 60_000);

  it("/readyz is 503 while Redis is down (HAProxy takes the replicas out of rotation), /healthz stays 200; both recover when Redis returns", async () => {
    await cluster.redis.stop();
    for (const r of cluster.replicas) {
      const ready = await until(`${r.id} not ready`, () => json(`${r.base}/readyz`), (a) => a.status === 503);
      expect(ready.body).toMatchObject({ status: "not ready", replica: r.id, store: { state: expect.stringMatching(/down|connecting/) } });
      expect(String(ready.body.reason)).toMatch(/Redis/);
      const live = await json(`${r.base}/healthz`);
      expect(live.status).toBe(200);
      expect(live.body.store).toMatchObject({ backend: "redis", state: expect.stringMatching(/down|connecting/) });
    }
    // The shipped HAProxy config checks /readyz; with every replica out it still sends to them, as backups, so the
    // agent gets guardwire's own answer (an initialize needs no shared state; a judged call gets -32051, test/scale/state).
    await until("HAProxy without a ready replica", () => fetch(`${cluster.base}/mcp/ev`, { method: "POST", body: initialize(99), headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } }).then((r) => r.status), (s) => s === 200);
    await cluster.redis.start();
    for (const r of cluster.replicas) {
      const ready = await until(`${r.id} ready again`, () => json(`${r.base}/readyz`), (a) => a.status === 200);
      expect(ready.body).toMatchObject({ status: "ready", store: { state: "up" } });
      expect((ready.body.store as { reconnects: number }).reconnects).toBeGreaterThan(0);
    }
    await until("HAProxy with ready replicas", () => fetch(`${cluster.base}/mcp/ev`, { method: "POST", body: initialize(100), headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } }).then((r) => r.status), (s) => s === 200);
  }, 90_000);

  it("every replica's log verifies (guardwire verify <folder>), every record names its replica and rules version, and tail merges them by time", async () => {
    // Stopped replicas have flushed their logs and written their chain heads.
    for (const r of cluster.replicas) await r.stop();
    const files = readdirSync(cluster.logDir).filter((f) => f.endsWith(".ndjson")).sort();
    expect(files).toEqual(["decisions.r1.ndjson", "decisions.r2.ndjson", "decisions.r3.ndjson"]);
    const verified = await run(process.execPath, [CLI, "verify", cluster.logDir]);
    for (const f of files) expect(verified.stdout).toMatch(new RegExp(`${f}: ok: \\d+ lines, chain intact`));

    let initializes = 0;
    for (const r of cluster.replicas) {
      const log = readLogOf(r.id);
      expect(log.length).toBeGreaterThan(4);
      for (const rec of log) {
        expect(rec.replica).toBe(r.id);
        expect(rec.ruleset).toMatch(/^[0-9a-f]{16}$/);
      }
      initializes += log.filter((x) => x.method === "initialize" && x.direction === "outbound").length;
    }
    // Six through HAProxy, three straight, one more after Redis came back (at least: a health check may have met a replica first).
    expect(initializes).toBeGreaterThanOrEqual(6 + 4);

    const tail = await run(process.execPath, [CLI, "tail", "--json", cluster.logDir]);
    const merged = tail.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { time: string; replica: string });
    const total = cluster.replicas.reduce((n, r) => n + readLogOf(r.id).length, 0);
    expect(merged).toHaveLength(total);
    expect(merged.map((x) => x.time)).toEqual([...merged.map((x) => x.time)].sort());
    expect(new Set(merged.map((x) => x.replica))).toEqual(new Set(["r1", "r2", "r3"]));
    const readable = await run(process.execPath, [CLI, "tail", "--no-color", cluster.logDir]);
    expect(readable.stdout).toMatch(/ @r2/);

    // One replica's log changed: verify names that file and line, the other chains still reported whole, exit 1.
    const r2 = join(cluster.logDir, "decisions.r2.ndjson");
    const text = readFileSync(r2, "utf8");
    writeFileSync(r2, text.replace('"replica":"r2"', '"replica":"r1"'));
    const tampered = await run(process.execPath, [CLI, "verify", cluster.logDir]).then(() => ({ code: 0, stdout: "", stderr: "" }), (e: { code: number; stdout: string; stderr: string }) => e);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/decisions\.r2\.ndjson:1: tampered/);
    expect(tampered.stdout).toMatch(/decisions\.r1\.ndjson: ok: /);
    expect(tampered.stdout).toMatch(/decisions\.r3\.ndjson: ok: /);
    writeFileSync(r2, text);
  }, 60_000);

  const readLogOf = (id: string) =>
    readFileSync(join(cluster.logDir, `decisions.${id}.ndjson`), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
});
