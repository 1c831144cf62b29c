import { execFile, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { WebSocket as WsWebSocket } from "ws";
import { CLI, readLog, ROOT, tempDir } from "../helpers.js";
import { startServeCli, stopChild } from "../support/servers.js";

const run = promisify(execFile);
// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one. `ws` speaks the same API.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;
const RULES = join(ROOT, "test", "fixtures", "rules", "sessions.yaml");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");
type Info = { id: string; transport: string; client: { name: string; version: string } | null; messages: { outbound: number; inbound: number }; denies: number; held: number; state: string };

describe("live sessions in serve", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const adminFile = join(dir, "admin.json");
  const env = { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile };
  const clients: Client[] = [];
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    ({ child: serve, base } = await startServeCli(dir, { rules: RULES, log, extra: ["admin: { listen: 127.0.0.1:0 }"], env }));
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    if (serve) await stopChild(serve);
  });

  const admin = () => JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
    const a = admin();
    const res = await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, data: (await res.json()) as Record<string, unknown> };
  }

  async function connect(name: string, transport: Transport): Promise<Client> {
    const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  const streamable = () => new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`));

  /** The session of the client named `name`, once it satisfies `ok` (the admin API is the source of truth). */
  async function sessionOf(name: string, ok: (s: Info) => boolean = () => true): Promise<Info> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const s = ((await api("GET", "/api/sessions")).data.sessions as Info[]).find((x) => x.client?.name === name);
      if (s && ok(s)) return s;
      if (Date.now() > deadline) throw new Error(`no such session for ${name}: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A long tool call, once the server has it (its first progress): it is pending at the server. */
  async function inFlight(client: Client): Promise<{ call: Promise<unknown> }> {
    let started: () => void = () => {};
    const at = new Promise<void>((r) => (started = r));
    const call = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }, undefined, { onprogress: () => started(), timeout: 60_000 }).catch((e: unknown) => e);
    await at;
    return { call };
  }

  it("Streamable HTTP: listed with its client and counts; suspend refuse, suspend hold, resume", async () => {
    const client = await connect("http-client", streamable());
    expect(text(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    const s = await sessionOf("http-client", (x) => x.messages.outbound === 3);
    expect(s).toMatchObject({ transport: "streamable-http", client: { name: "http-client", version: "1.0.0" }, denies: 0, state: "active" });

    await api("POST", `/api/sessions/${s.id}/suspend`, { mode: "refuse", reason: "audit" });
    const err = await client.callTool({ name: "echo", arguments: { message: "no" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).message).toContain("session suspended by an operator: audit");

    const out = (await run(process.execPath, [CLI, "sessions", "suspend", s.id, "--mode", "hold"], { env })).stdout;
    expect(out).toContain("new requests held");
    const held = client.callTool({ name: "echo", arguments: { message: "later" } });
    await sessionOf("http-client", (x) => x.held === 1);
    await run(process.execPath, [CLI, "sessions", "resume", s.id], { env });
    expect(text(await held)).toBe("Echo: later");
    expect(await sessionOf("http-client", (x) => x.held === 0 && x.state === "active")).toMatchObject({ denies: 1 });
  });

  it("Streamable HTTP kill: pending and held answered once each, the session is gone (the next call fails)", async () => {
    const client = await connect("http-killed", streamable());
    const { call: long } = await inFlight(client);
    const s = await sessionOf("http-killed");
    await api("POST", `/api/sessions/${s.id}/suspend`, {});
    const held = client.callTool({ name: "echo", arguments: { message: "held" } }).catch((e: unknown) => e);
    await sessionOf("http-killed", (x) => x.held === 1);
    const r = await api("POST", `/api/sessions/${s.id}/kill`, { reason: "rogue" });
    expect(r).toMatchObject({ status: 200, data: { killed: true, session: { id: s.id } } });
    for (const e of [await long, await held]) {
      expect(e).toBeInstanceOf(McpError);
      expect((e as McpError).message).toContain("session killed by an operator: rogue");
    }
    const next = await client.callTool({ name: "echo", arguments: { message: "after" } }).catch((e: unknown) => e);
    expect(String(next)).toMatch(/Session not found/);
    expect(((await api("GET", "/api/sessions")).data.sessions as Info[]).some((x) => x.id === s.id)).toBe(false);
    expect(await api("GET", `/api/sessions/${s.id}`)).toMatchObject({ status: 404 });
  }, 60_000);

  it("WebSocket kill: the pending call is answered, then the client sees its connection close", async () => {
    const client = await connect("ws-client", new WebSocketClientTransport(new URL(`${base.replace("http", "ws")}/mcp/everything/ws`)));
    const closed = new Promise<void>((r) => (client.onclose = r));
    const { call: long } = await inFlight(client);
    const s = await sessionOf("ws-client");
    expect(s.transport).toBe("websocket");
    const out = (await run(process.execPath, [CLI, "sessions", "kill", s.id, "--reason", "bye"], { env })).stdout;
    expect(out).toBe(`killed ${s.id} (websocket on everything)\n`);
    const e = await long;
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).message).toContain("session killed by an operator: bye");
    await closed;
  }, 60_000);

  it("legacy SSE kill: the held request is answered on the stream, then the stream ends", async () => {
    // A raw client: the SDK's EventSource would reconnect (a new session) where this test wants to see the end.
    const res = await fetch(`${base}/mcp/everything/sse`, { headers: { accept: "text/event-stream" } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let buffer = "";
    const next = async (): Promise<{ event: string; data: string } | null> => {
      for (;;) {
        const i = buffer.indexOf("\n\n");
        if (i >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          return { event: /^event: (.*)$/m.exec(block)?.[1] ?? "message", data: /^data: (.*)$/m.exec(block)?.[1] ?? "" };
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += new TextDecoder().decode(value);
      }
    };
    const endpoint = new URL((await next())?.data as string, base).href;
    const post = (m: unknown) => fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(m) });
    await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "sse-raw", version: "0.1" } } });
    let initialized: { id?: number } = {};
    while (initialized.id !== 1) initialized = JSON.parse((await next())?.data ?? "{}") as { id?: number };
    expect(initialized).toMatchObject({ result: { serverInfo: {} } });
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    const s = await sessionOf("sse-raw", (x) => x.messages.outbound === 2);
    expect(s.transport).toBe("sse");
    await api("POST", `/api/sessions/${s.id}/suspend`, {});
    await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "held" } } });
    await sessionOf("sse-raw", (x) => x.held === 1);
    await api("POST", `/api/sessions/${s.id}/kill`, { reason: "bye" });
    // The server's own notifications may come first; the answer is the one with id 2.
    let answer: { id?: number } = {};
    while (answer.id !== 2) answer = JSON.parse((await next())?.data ?? "{}") as { id?: number };
    expect(answer).toMatchObject({ id: 2, error: { code: -32050, message: "session killed by an operator: bye" } });
    expect(await next()).toBeNull();
  }, 60_000);

  it("the event stream carries session.opened, session.updated and session.closed", async () => {
    const a = admin();
    const ac = new AbortController();
    const res = await fetch(`${a.url}/api/events?only=session.opened,session.updated,session.closed`, { headers: { authorization: `Bearer ${a.token}` }, signal: ac.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const seen: { event: string; id: string; state: string }[] = [];
    let buffer = "";
    const want = async (event: string, state?: string) => {
      const match = (x: { event: string; state: string }) => x.event === event && (!state || x.state === state);
      while (!seen.some(match)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("event stream ended");
        buffer += new TextDecoder().decode(value);
        for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const ev = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (ev && data) {
            const { session } = JSON.parse(data) as { session: { id: string; state: string } };
            seen.push({ event: ev, id: session.id, state: session.state });
          }
        }
      }
      return seen.find(match) as { id: string; state: string };
    };
    const transport = streamable();
    const client = await connect("evented", transport);
    const opened = await want("session.opened");
    await api("POST", `/api/sessions/${opened.id}/suspend`, {});
    expect((await want("session.updated", "suspended")).id).toBe(opened.id);
    await transport.terminateSession();
    await client.close();
    expect((await want("session.closed")).id).toBe(opened.id);
    ac.abort();
  });

  it("the log holds the operator's actions, the refusal and the kills, and verifies", async () => {
    const all = readLog(log);
    const kills = all.filter((l) => l.kind === "control" && l.method === "guardwire/kill");
    expect(kills.map((l) => l.transport).sort()).toEqual(["sse", "streamable-http", "websocket"]);
    expect(all.filter((l) => l.kind === "control" && l.method === "guardwire/suspend").length).toBeGreaterThanOrEqual(3);
    const lines = all.filter((l) => l.kind !== "control");
    expect(lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_SUSPENDED"))).toHaveLength(1);
    const killed = lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_KILLED"));
    // Streamable HTTP: the long call and the held echo; WebSocket: the long call; SSE: the held echo.
    expect(killed.map((l) => `${l.transport} ${l.tool}`).sort()).toEqual([
      "sse echo",
      "streamable-http echo",
      "streamable-http trigger-long-running-operation",
      "websocket trigger-long-running-operation",
    ]);
    expect((await run(process.execPath, [CLI, "verify", log])).stdout).toMatch(/ok/i);
  });

  it("a shutdown answers a held request with a deny before the sessions close", async () => {
    const client = await connect("at-shutdown", streamable());
    const s = await sessionOf("at-shutdown");
    await api("POST", `/api/sessions/${s.id}/suspend`, {});
    const held = client.callTool({ name: "echo", arguments: { message: "held at shutdown" } }).catch((e: unknown) => e);
    await sessionOf("at-shutdown", (x) => x.held === 1);
    serve.kill("SIGTERM");
    const e = await held;
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).message).toContain("guardwire is shutting down: the session was suspended, its request not forwarded");
    await new Promise((r) => serve.once("exit", r));
    expect(readLog(log).filter((l) => (l.reasonCode as string[]).includes("SESSION_SHUTDOWN")).map((l) => l.tool)).toEqual(["echo"]);
  });
});
