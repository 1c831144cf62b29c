import { execFile, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { WebSocket as WsWebSocket } from "ws";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { CLI, readLog, ROOT, tempDir } from "../helpers.js";
import { startServeCli, stopChild } from "../support/servers.js";

const run = promisify(execFile);
// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one. `ws` speaks the same API.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;
const ACCEPTANCE = join(ROOT, "test", "fixtures", "rules", "approval-acceptance.yaml");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("approvals in serve", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const adminFile = join(dir, "admin.json");
  const clients: Client[] = [];
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    ({ child: serve, base } = await startServeCli(dir, { rules: ACCEPTANCE, log, extra: ["admin: { listen: 127.0.0.1:0 }"], env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile } }));
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    if (serve) await stopChild(serve);
  });

  async function connect(answer?: () => ElicitResult, transport?: Transport): Promise<Client> {
    const client = new Client({ name: "t", version: "1" }, { capabilities: answer ? { elicitation: {} } : {} });
    if (answer) client.setRequestHandler(ElicitRequestSchema, async () => answer());
    await client.connect(transport ?? new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
    clients.push(client);
    return client;
  }

  const admin = () => JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
  async function heldIds(n: number): Promise<string[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const a = admin();
      const res = await fetch(`${a.url}/api/approvals`, { headers: { authorization: `Bearer ${a.token}` } });
      const list = ((await res.json()) as { approvals: { id: string }[] }).approvals;
      if (list.length >= n) return list.map((x) => x.id);
      if (Date.now() > deadline) throw new Error(`expected ${n} held approvals`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("elicitation on the held request's stream: approve, then decline", async () => {
    const answers: ElicitResult[] = [{ action: "accept", content: { decision: "approve" } }, { action: "decline" }];
    const client = await connect(() => answers.shift() as ElicitResult);
    expect(text(await client.callTool({ name: "echo", arguments: { message: "needs-approval http" } }))).toBe("Echo: needs-approval http");
    const declined = (await client.callTool({ name: "echo", arguments: { message: "needs-approval http 2" } })) as TextResult;
    expect(declined.isError).toBe(true);
    expect(text(declined)).toContain("declined in the client");
  });

  it("elicitation over legacy SSE and WebSocket: approve", async () => {
    const transports: Transport[] = [new SSEClientTransport(new URL(`${base}/mcp/everything/sse`)), new WebSocketClientTransport(new URL(`${base.replace("http", "ws")}/mcp/everything/ws`))];
    for (const t of transports) {
      const client = await connect(() => ({ action: "accept", content: { decision: "approve", reason: "fine" } }), t);
      expect(text(await client.callTool({ name: "echo", arguments: { message: "needs-approval legacy" } }))).toBe("Echo: needs-approval legacy");
    }
  });

  it("a client without elicitation, approved through the CLI", async () => {
    const client = await connect();
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval operator" } });
    const [id] = await heldIds(1);
    await run(process.execPath, [CLI, "approvals", "approve", id as string], { env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile } });
    expect(text(await call)).toBe("Echo: needs-approval operator");
  });

  it("SIGTERM answers a held request with a deny, and the log verifies", async () => {
    const client = await connect();
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval shutdown" } });
    await heldIds(1);
    serve.kill("SIGTERM");
    const r = (await call) as TextResult;
    expect(r.isError).toBe(true);
    await new Promise((resolve) => serve.once("exit", resolve));
    const decided = readLog(log).filter((l) => (l.approval as { step?: string } | undefined)?.step === "decided");
    expect(decided.map((l) => (l.approval as { outcome: string }).outcome)).toEqual(["approved", "refused", "approved", "approved", "approved", "shutdown"]);
    const v = await run(process.execPath, [CLI, "verify", log]);
    expect(v.stdout).toMatch(/ok/i);
  });
});
