import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT, tempDir } from "../helpers.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { stopChild, waitFor } from "../support/servers.js";

/** A real MCP server (v2 SDK) that takes the stateless 2026-07-28 revision: every call can land on any replica. */
const SERVER = join(ROOT, "test", "fixtures", "servers", "mcp-v2-server.mjs");

const RULES = `name: scale-state
rules:
  - id: echo-rate
    match: { direction: outbound, method: tools/call, tool: echo }
    limit: { count: 10, per: 1m, key: route }
    decision: deny
    reasonCode: RATE_LIMITED
    message: echo is limited to 10 calls a minute on this route
  - id: taint-steps
    match: { direction: inbound, kind: response, tool: steps }
    decision: allow
    label: untrusted
  - id: no-ask-after-steps
    match: { direction: outbound, method: tools/call, tool: ask }
    when: '"untrusted" in session.labels'
    decision: deny
    message: no asking the model after untrusted steps
`;

type Outcome = { text?: string; isError?: boolean; error?: { code: number; message: string; data?: Record<string, unknown> } };

/**
 * Three `guardwire serve` replicas behind HAProxy in round-robin, sharing one Redis. Each call is one stateless
 * exchange (a v2 SDK client pinned to 2026-07-28), so the calls spread over the replicas with no session to carry.
 */
describe("shared state across three replicas behind HAProxy (real Redis, HAProxy, MCP SDK client and server)", () => {
  const dir = tempDir();
  let server: ChildProcess;
  let cluster: Cluster;
  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const upstream = (await waitFor(server, /listening (\S+)/)).match[1] as string;
    const rules = join(dir, "rules.yaml");
    writeFileSync(rules, RULES);
    cluster = await startCluster(dir, { rules, routes: ["  - name: echo", "    path: /mcp/echo", `    mcp: { url: "${upstream}" }`] });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    if (server) await stopChild(server);
  });

  const echoOnce = (message: string) => callOnce("echo", { message });

  /** One call in a new client through HAProxy: its result's text, or the JSON-RPC error it got. */
  async function callOnce(name: string, args: Record<string, unknown>): Promise<Outcome> {
    const client = new Client({ name: "scale-state", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${cluster.base}/mcp/echo`)));
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      return { text: r.content.map((c) => c.text).join("\n"), isError: r.isError };
    } catch (e) {
      const err = e as { code?: unknown; message: string; data?: unknown };
      if (typeof err.code !== "number") throw e;
      return { error: { code: err.code, message: err.message, data: err.data as Record<string, unknown> | undefined } };
    } finally {
      await client.close().catch(() => {});
    }
  }

  /** The replicas whose decision log has a line with `text` in it. */
  const replicasLogging = (text: string) =>
    cluster.replicas
      .filter((r) => {
        try {
          return readFileSync(join(cluster.logDir, `decisions.${r.id}.ndjson`), "utf8").includes(text);
        } catch {
          return false;
        }
      })
      .map((r) => r.id);
  /** The replicas that logged `text`, once `count` of them have (log lines are written a moment after the answer). */
  async function logged(text: string, count: number): Promise<string[]> {
    for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      if (replicasLogging(text).length >= count) break;
    }
    return replicasLogging(text);
  }

  it("a limit of 10 a minute on a route holds globally: the 11th and 12th calls are denied, whichever replica takes them", async () => {
    const results: Outcome[] = [];
    for (let i = 0; i < 12; i++) results.push(await echoOnce(`m${i}`));
    expect(results.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => ({ text: `Echo: m${i}`, isError: undefined })));
    for (const r of results.slice(10)) {
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/limited to 10 calls a minute/);
    }
    expect(await logged('"tools/call"', 3)).toHaveLength(3);
  }, 120_000);

  it("a label set by a decision on one replica is used by a flow rule on the others", async () => {
    // Stateless exchanges of one caller share one guardian session (by caller), on every replica.
    expect((await callOnce("steps", {})).text).toBe("three steps done");
    const labelledBy = await logged('"taint-steps"', 1);
    expect(labelledBy).toHaveLength(1);
    const denied: Outcome[] = [];
    for (let i = 0; i < 3; i++) denied.push(await callOnce("ask", { question: "anything" }));
    for (const d of denied) expect(d).toMatchObject({ isError: true, text: expect.stringContaining("no asking the model after untrusted steps") });
    const deniedBy = await logged('"no-ask-after-steps"', 2);
    expect(deniedBy.filter((r) => r !== labelledBy[0]).length).toBeGreaterThan(0);
  }, 120_000);

  it("Redis stopped: the client gets -32051 naming Redis; calls go through again once it is back", async () => {
    await cluster.redis.stop();
    let down: Outcome = {};
    for (const end = Date.now() + 20_000; Date.now() < end; ) {
      down = await echoOnce("while down");
      if (down.error) break;
    }
    expect(down.error?.code).toBe(-32051);
    expect(down.error?.message).toMatch(/Redis/);
    expect(down.error?.data).toMatchObject({ store: "redis", reasonCode: ["STORE_UNAVAILABLE"] });
    await cluster.redis.start();
    let back: Outcome = {};
    for (const end = Date.now() + 30_000; Date.now() < end; ) {
      back = await echoOnce("back");
      if ((back.error?.data?.reasonCode as string[] | undefined)?.[0] !== "STORE_UNAVAILABLE") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Redis came back empty (no persistence in the test): the limit on echo is held for its window on every replica
    // (docs/scale.md, Redis restarted or emptied); a call no limit counts goes through.
    expect(back.error).toMatchObject({ code: -32051, data: { store: "redis", reasonCode: ["STORE_RESET"] } });
    // The replica that answered has reconnected; HAProxy may send the next call to one still reconnecting, which
    // refuses it (fail closed) until its own client is back.
    let steps: Outcome = {};
    for (const end = Date.now() + 30_000; Date.now() < end; ) {
      steps = await callOnce("steps", {});
      if ((steps.error?.data?.reasonCode as string[] | undefined)?.[0] !== "STORE_UNAVAILABLE") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(steps).toEqual({ text: "three steps done", isError: undefined });
  }, 120_000);
});
