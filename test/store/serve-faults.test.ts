import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readLog, tempDir } from "../helpers.js";
import { until } from "../support/poll.js";
import { startRedis, type RunningRedis } from "../support/redis.js";
import { startServeCli, stopChild } from "../support/servers.js";

/** A limit of 3 calls per window on echo, per session (each test its own MCP session, so its own window). */
const WINDOW_S = 6;
const RULES = `name: redis-faults
rules:
  - id: echo-rate
    match: { direction: outbound, method: tools/call, tool: echo }
    limit: { count: 3, per: ${WINDOW_S}s, key: session }
    decision: deny
    reasonCode: RATE_LIMITED
    message: echo is limited to 3 calls per window
`;

type Outcome = { text: string; isError: boolean } | { error: { code: number; message: string; data?: Record<string, unknown> } };

/**
 * A real `guardwire serve` (server-everything over stdio behind it) sharing state in a real redis-server, and a real
 * MCP SDK client: Redis restarted empty, flushed, and frozen (SIGSTOP) under a limit rule (docs/scale.md).
 */
describe("guardwire serve when Redis loses its data or freezes (real redis-server, serve, MCP client)", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.r1.ndjson");
  const adminFile = join(dir, "admin.json");
  let redis: RunningRedis;
  let serve: ChildProcess;
  let base: string;
  let stderr = "";
  beforeAll(async () => {
    redis = await startRedis();
    const rules = join(dir, "rules.yaml");
    writeFileSync(rules, RULES);
    const key = randomBytes(32).toString("base64");
    ({ child: serve, base } = await startServeCli(dir, {
      rules,
      log: join(dir, "decisions.ndjson"),
      extra: [`store: { redis: "${redis.url}", timeoutMs: 500 }`, `sessions: { keys: ["${key}"] }`, "admin: { listen: 127.0.0.1:0 }"],
      env: { ...process.env, GUARDWIRE_REPLICA: "r1", GUARDWIRE_ADMIN_FILE: adminFile },
    }));
    serve.stderr?.on("data", (b: Buffer) => (stderr += b.toString()));
    await until(() => health("/readyz"), (h) => h.status === 200, "ready");
  }, 60_000);
  afterAll(async () => {
    if (serve) await stopChild(serve);
    await redis?.stop();
  });

  async function health(path: "/healthz" | "/readyz"): Promise<{ status: number; body: Record<string, unknown> }> {
    const r = await fetch(base + path);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }
  async function metrics(): Promise<string> {
    const a = JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
    return (await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${a.token}` } })).text();
  }
  async function session(): Promise<{ call: () => Promise<Outcome>; close: () => Promise<void> }> {
    const client = new Client({ name: "redis-faults", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
    let n = 0;
    return {
      call: async () => {
        try {
          const r = (await client.callTool({ name: "echo", arguments: { message: `m${++n}` } })) as { isError?: boolean; content: { text: string }[] };
          return { text: r.content.map((c) => c.text).join("\n"), isError: r.isError === true };
        } catch (e) {
          const err = e as { code?: unknown; message: string; data?: unknown };
          if (typeof err.code !== "number") throw e;
          return { error: { code: err.code, message: err.message, data: err.data as Record<string, unknown> | undefined } };
        }
      },
      close: () => client.close(),
    };
  }
  const allowed = (o: Outcome) => "text" in o && !o.isError;
  const reasonOf = (o: Outcome) => ("error" in o ? (o.error.data?.reasonCode as string[] | undefined)?.[0] : undefined);
  const notes = (code: string) => readLog(log).filter((l) => l.kind === "log" && (l.reasonCode as string[])[0] === code);

  /**
   * After the loss: calls are refused with -32051 STORE_RESET until one window has passed (none allowed before the
   * hold ends), then three are allowed and the fourth is over the limit again.
   */
  async function heldThenCountedAgain(s: Awaited<ReturnType<typeof session>>): Promise<void> {
    const held = await until(s.call, (o) => reasonOf(o) === "STORE_RESET", "a call refused with STORE_RESET");
    if (!("error" in held)) throw new Error("not refused");
    expect(held.error.code).toBe(-32051);
    expect(held.error.message).toMatch(/lost its limit counts at .* refuse it until/);
    const heldUntil = Date.parse(held.error.data?.heldUntil as string);
    const outcomes: Outcome[] = [];
    const back = await until(
      async () => {
        const o = await s.call();
        outcomes.push(o);
        return o;
      },
      allowed,
      "a call allowed after the window",
      WINDOW_S * 1000 + 20_000,
    );
    expect(allowed(back)).toBe(true);
    // Nothing was allowed before the hold's end: every call until then was refused as held.
    expect(Date.now()).toBeGreaterThanOrEqual(heldUntil);
    expect(outcomes.slice(0, -1).every((o) => reasonOf(o) === "STORE_RESET")).toBe(true);
    expect(allowed(await s.call())).toBe(true);
    expect(allowed(await s.call())).toBe(true);
    expect(await s.call()).toMatchObject({ isError: true, text: expect.stringContaining("limited to 3 calls") });
  }

  it("Redis restarted empty: calls counted by the limit are refused (-32051 STORE_RESET) for one window, noted in the log, shown in /healthz and /metrics; then limits count again", async () => {
    const s = await session();
    for (let i = 0; i < 3; i++) expect(allowed(await s.call())).toBe(true);
    await redis.stop();
    await redis.start();
    const h = await until(() => health("/healthz"), (a) => (a.body.store as { resets?: number }).resets === 1, "healthz shows the reset");
    expect(h.body.store).toMatchObject({ state: "up", resets: 1, lastReset: { cause: expect.stringMatching(/^Redis restarted empty \(run_id/) }, limitsHeldUntil: expect.any(String) });
    expect(await metrics()).toMatch(/^guardwire_store_limits_held 1$/m);
    expect(await metrics()).toMatch(/^guardwire_store_resets_total 1$/m);
    await heldThenCountedAgain(s);
    await s.close();
    // One note, in the log (kind log) and on stderr; the refused calls logged as denies with STORE_RESET.
    await until(() => notes("STORE_RESET").length, (n) => n === 1, "the note in the log");
    expect(notes("STORE_RESET")[0]?.message).toMatch(/^Redis restarted empty .*limit rules refuse the messages they count \(-32051, STORE_RESET\)/);
    expect(stderr).toMatch(/guardwire: Redis restarted empty/);
    expect(readLog(log).some((l) => l.decision === "deny" && l.method === "tools/call" && (l.reasonCode as string[])[0] === "STORE_RESET")).toBe(true);
    expect(await metrics()).toMatch(/^guardwire_store_limits_held 0$/m);
  }, 120_000);

  it("FLUSHALL without a restart: the same, found on the next call", async () => {
    const s = await session();
    for (let i = 0; i < 3; i++) expect(allowed(await s.call())).toBe(true);
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    // The very next call finds the marker gone (its read checks it): refused, never counted afresh.
    expect(reasonOf(await s.call())).toBe("STORE_RESET");
    await heldThenCountedAgain(s);
    await s.close();
    await until(() => notes("STORE_RESET").length, (n) => n === 2, "a second note");
    expect(notes("STORE_RESET")[1]?.message).toMatch(/deleted without a restart \(FLUSHALL/);
  }, 120_000);

  it("Redis frozen (SIGSTOP): /readyz 503 and -32051 naming the state (not answering within 500 ms); SIGCONT: ready again and calls go through", async () => {
    const s = await session();
    expect(allowed(await s.call())).toBe(true);
    redis.signal("SIGSTOP");
    const t0 = Date.now();
    const r = await until(() => health("/readyz"), (a) => a.status === 503, "readyz 503 while frozen", 20_000);
    const detectedMs = Date.now() - t0;
    // Documented: within about timeoutMs + 1 s; a loaded machine gets room, a freeze never found does not.
    expect(detectedMs).toBeLessThan(10_000);
    expect(r.body).toMatchObject({ status: "not ready", reason: "the shared store (Redis) is unresponsive: not answering within 500 ms", store: { state: "unresponsive" } });
    const refused = await s.call();
    expect(refused).toEqual({ error: { code: -32051, message: "MCP error -32051: guardwire's shared state store (Redis) is unavailable: not answering within 500 ms", data: expect.objectContaining({ store: "redis", state: "unresponsive", reasonCode: ["STORE_UNAVAILABLE"] }) } });
    expect(await metrics()).toMatch(/^guardwire_store_up 0$/m);
    redis.signal("SIGCONT");
    await until(() => health("/readyz"), (a) => a.status === 200, "ready again after SIGCONT", 20_000);
    expect(allowed(await until(s.call, allowed, "a call through after SIGCONT"))).toBe(true);
    // Thawed with its data: no loss was found.
    expect((await health("/healthz")).body.store).toMatchObject({ state: "up", resets: 2 });
    await s.close();
  }, 120_000);
});
