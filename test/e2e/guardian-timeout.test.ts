import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ACCEPTANCE_RULES, EVERYTHING, ROOT, readLog, tempDir } from "../helpers.js";
import { a2aSender, startServeCli, stopChild, waitFor } from "../support/servers.js";

// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one. `ws` speaks the same API.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

const SLOW_GUARDIAN = join(ROOT, "test", "fixtures", "servers", "slow-guardian.mjs");
const A2A_AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs");
/** How long the remote guardian takes over each tools/call and message/send (everything else it answers at once). */
const SLOW_MS = 3000;
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * `guardwire serve` with `guardian: {kind: remote, timeoutMs}` in front of a real AOS guardian process that answers
 * tools/call after 3 s: the configured timeout, not a fixed 2 s, decides whether the message is judged or refused.
 */
async function startServe(timeoutMs: number, guardianUrl: string, a2aPort: string): Promise<{ child: ChildProcess; base: string; log: string }> {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const { child, base } = await startServeCli(dir, {
    rules: ACCEPTANCE_RULES,
    log,
    extra: [`guardian: { kind: remote, url: "${guardianUrl}", timeoutMs: ${timeoutMs} }`],
    routes: [
      "  - name: everything",
      "    path: /mcp/everything",
      `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`,
      "  - name: echo",
      "    path: /a2a/echo",
      `    a2a: { url: "http://127.0.0.1:${a2aPort}" }`,
    ],
  });
  return { child, base, log };
}

/** A tools/call through `transport`, timed. */
async function timedCall(transport: Transport): Promise<{ ms: number; result: TextResult | Error }> {
  const client = new Client({ name: "timeout-test", version: "1" });
  await client.connect(transport);
  try {
    const started = performance.now();
    const result = await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } }, undefined, { timeout: 30_000 }).then(
      (r) => r as TextResult,
      (e: Error) => e,
    );
    return { ms: performance.now() - started, result };
  } finally {
    await client.close();
  }
}

describe("serve waits for a remote guardian as long as guardian.timeoutMs says", () => {
  let guardian: ChildProcess;
  let agent: ChildProcess;
  let patient: { child: ChildProcess; base: string; log: string };
  let hasty: { child: ChildProcess; base: string; log: string };

  beforeAll(async () => {
    guardian = spawn(process.execPath, [SLOW_GUARDIAN, "--delay", String(SLOW_MS), "--slow", "tools/call,message/send"], { stdio: ["ignore", "pipe", "pipe"] });
    const url = (await waitFor(guardian, /listening on (http:\/\/\S+)/)).match[1] as string;
    agent = spawn(process.execPath, [A2A_AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const a2aPort = (await waitFor(agent, /listening (\d+)/)).match[1] as string;
    [patient, hasty] = await Promise.all([startServe(4000, url, a2aPort), startServe(1000, url, a2aPort)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([patient, hasty].map((s) => s && stopChild(s.child)));
    if (guardian) await stopChild(guardian);
    if (agent) await stopChild(agent);
  });

  it("timeoutMs 4000, a guardian 3 s slow: allowed on every downstream transport and on an A2A route", async () => {
    const path = `${patient.base}/mcp/everything`;
    const send = await a2aSender(`${patient.base}/a2a/echo/`);
    const [http, sse, ws, a2a] = await Promise.all([
      timedCall(new StreamableHTTPClientTransport(new URL(path))),
      timedCall(new SSEClientTransport(new URL(`${path}/sse`))),
      timedCall(new WebSocketClientTransport(new URL(`${path.replace("http", "ws")}/ws`))),
      (async () => {
        const started = performance.now();
        const answer = (await send("hello")) as { parts?: { text?: string }[] };
        return { ms: performance.now() - started, answer };
      })(),
    ]);
    for (const call of [http, sse, ws]) {
      expect(call.result).not.toBeInstanceOf(Error);
      expect((call.result as TextResult).isError).not.toBe(true);
      expect((call.result as TextResult).content[0]?.text).toContain("3");
      // The guardian really was asked, and waited for: the answer came after its delay.
      expect(call.ms).toBeGreaterThanOrEqual(SLOW_MS - 50);
    }
    expect(a2a.answer.parts?.[0]?.text).toBe("You said: hello");
    expect(a2a.ms).toBeGreaterThanOrEqual(SLOW_MS - 50);
    const calls = () => readLog(patient.log).filter((l) => l.method === "tools/call" && l.kind === "request");
    await expect.poll(() => calls().map((l) => l.decision), { timeout: 10_000 }).toEqual(["allow", "allow", "allow"]);
    expect(readLog(patient.log).some((l) => (l.reasonCode as string[]).includes("GUARDIAN_UNAVAILABLE"))).toBe(false);
  }, 60_000);

  it("timeoutMs 1000, the same guardian: the call is refused once the guardian's timeout passes (logged GUARDIAN_UNAVAILABLE)", async () => {
    const call = await timedCall(new StreamableHTTPClientTransport(new URL(`${hasty.base}/mcp/everything`)));
    // Refused by the remote guardian's own timeout (1 s): a blocked tool call is an isError result naming why.
    expect(call.result).not.toBeInstanceOf(Error);
    expect((call.result as TextResult).isError).toBe(true);
    expect((call.result as TextResult).content[0]?.text).toContain("guardian unavailable");
    expect((call.result as TextResult).content[0]?.text).toContain("timed out after 1000 ms");
    const refused = await expect.poll(() => readLog(hasty.log).find((l) => l.method === "tools/call" && l.kind === "request"), { timeout: 10_000 }).toBeDefined().then(() => readLog(hasty.log).find((l) => l.method === "tools/call" && l.kind === "request"));
    expect(refused).toMatchObject({ decision: "deny", reasonCode: ["GUARDIAN_UNAVAILABLE"] });
    expect(String(refused?.message)).toContain("timed out after 1000 ms");
  }, 60_000);
});
