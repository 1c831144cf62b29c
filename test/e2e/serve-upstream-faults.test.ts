import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import { WebSocket } from "ws";
import { legacySseUpstream } from "../../src/transports/upstream/legacy-sse.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ROOT } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

type RpcError = { code: number; message: string; data?: Record<string, unknown> };

/** What a call through the SDK client ended with: its result, or the error it threw (JSON-RPC or HTTP). */
async function outcome(p: Promise<unknown>): Promise<{ result?: unknown; error?: RpcError }> {
  try {
    return { result: await p };
  } catch (e) {
    return { error: e as RpcError };
  }
}

/**
 * A real HTTP MCP endpoint that initializes normally, then answers each tool with an HTTP error: the status (and body)
 * a real server or its gateway would send.
 */
function faultyServer(): Server {
  return createServer((req, res) => {
    let b = "";
    req.on("data", (c: Buffer) => (b += c.toString()));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      const m = JSON.parse(b) as { id?: number; method?: string; params?: { name?: string } };
      if (m.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "faulty", version: "1" } } }));
      }
      if (m.id === undefined) return void res.writeHead(202).end();
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
      switch (m.params?.name) {
        case "too-large":
          return void res.writeHead(413, { "content-type": "text/html" }).end("<h1>Request Entity Too Large</h1>");
        case "own-error":
          return json(400, { jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "Invalid params: n must be a number" } });
        case "leaky-error":
          return json(400, { jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "Invalid params: SECRET=hunter2" } });
        case "anonymous-error":
          return json(400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: SECRET=hunter2" } });
        case "slow-down":
          return json(429, { error: "rate limited" }, { "retry-after": "7" });
        case "forbidden":
          return void res.writeHead(403).end();
        case "gateway":
          return void res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>");
        default:
          return json(200, { jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "ok" }] } });
      }
    });
  });
}

describe("serve: an upstream's HTTP error says what happened", () => {
  let upstream: Server;
  let p: InProcessProxy;
  let client: Client;

  beforeAll(async () => {
    upstream = faultyServer();
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    p = await startProxy([{ name: "faulty", path: "/mcp/faulty", upstream: streamableHttpUpstream({ url }) }], { rules: join(ROOT, "test", "fixtures", "rules", "upstream-faults.yaml") });
    client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/faulty`)));
  });
  afterAll(async () => {
    await client?.close();
    await p?.close();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  const call = (name: string) => outcome(client.callTool({ name, arguments: {} }));

  it("413 → -32600 'request too large', with the route and the status", async () => {
    const { error } = await call("too-large");
    expect(error?.code).toBe(-32600);
    expect(error?.message).toContain("too large (HTTP 413)");
    expect(error?.data).toMatchObject({ route: "faulty", status: 413 });
  });

  it("400 with the server's own JSON-RPC error for the request: that error is the answer, judged and logged", async () => {
    const { error } = await call("own-error");
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("n must be a number") });
    const logged = p.log().filter((l) => l.direction === "inbound" && l.kind === "response" && l.tool === "own-error");
    expect(logged).toEqual([expect.objectContaining({ decision: "allow" })]);
  });

  it("the server's own error is judged like any answer: one that leaks is blocked, and never reaches the agent", async () => {
    const r = await call("leaky-error");
    expect(r.error).toBeUndefined();
    const text = JSON.stringify(r.result);
    expect(text).toContain("no-leaky-errors");
    expect(text).not.toContain("hunter2");
    expect(p.log().filter((l) => l.tool === "leaky-error" && l.direction === "inbound")).toEqual([expect.objectContaining({ decision: "deny", rules: ["no-leaky-errors"] })]);
  });

  it("400 without an answer for the request → -32600 'refused'; the body is not passed on", async () => {
    const { error } = await call("anonymous-error");
    expect(error).toMatchObject({ code: -32600, data: { status: 400 } });
    expect(JSON.stringify(error)).not.toContain("hunter2");
    expect(p.log().filter((l) => l.tool === "anonymous-error" && l.direction === "inbound")).toEqual([expect.objectContaining({ decision: "deny", reasonCode: ["UPSTREAM_REFUSED"] })]);
  });

  it("429 → -32052 'rate limited' with Retry-After in data; 502 → -32052 with the status", async () => {
    const limited = (await call("slow-down")).error;
    expect(limited).toMatchObject({ code: -32052, data: { status: 429, retryAfter: "7" } });
    expect(limited?.message).toContain("rate limited");
    const gateway = (await call("gateway")).error;
    expect(gateway).toMatchObject({ code: -32052, data: { route: "faulty", status: 502, reason: "HTTP 502 from upstream" } });
    expect(gateway?.message).toContain("Upstream unavailable");
  });

  it("every failure leaves the session usable", async () => {
    expect(await client.callTool({ name: "fine", arguments: {} })).toMatchObject({ content: [{ text: "ok" }] });
  });

  it("403 reaches a WebSocket agent (which has no HTTP status per call) as -32053", async () => {
    const ws = new Client({ name: "t", version: "1" });
    await ws.connect(new WebSocketClientTransport(new URL(`${p.base.replace("http", "ws")}/mcp/faulty/ws`)));
    try {
      expect((await outcome(ws.callTool({ name: "forbidden", arguments: {} }))).error).toMatchObject({ code: -32053, data: { status: 403 } });
    } finally {
      await ws.close();
    }
  });
});

describe("serve: a dead or restarted upstream ends the session, so the agent starts over", () => {
  let up: Running;
  let legacy: Running;
  let p: InProcessProxy;
  let port: number;
  let route: string;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    port = Number(new URL(up.url).port);
    const sse = await startEverything("sse");
    p = await startProxy([
      { name: "everything", path: "/mcp/everything", upstream: streamableHttpUpstream({ url: up.url }) },
      { name: "legacy", path: "/mcp/legacy", upstream: legacySseUpstream({ url: sse.url }) },
    ]);
    route = `${p.base}/mcp/everything`;
    legacy = sse;
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await up?.stop();
    await legacy?.stop();
  });

  const echo = (c: Client, message = "hi") => outcome(c.callTool({ name: "echo", arguments: { message } }));
  const connect = async (url = route) => {
    const c = new Client({ name: "t", version: "1" });
    c.onerror = () => {}; // the GET stream's reconnects after the session ends are expected
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    return c;
  };

  it("killed: the call gets -32052 (connection refused); restarted: the next gets -32052 (session lost), then 404, and a new initialize works", async () => {
    const c = await connect();
    expect((await echo(c)).result).toMatchObject({ content: [{ text: "Echo: hi" }] });
    await up.stop();

    const refused = (await echo(c)).error;
    expect(refused).toMatchObject({ code: -32052, data: { route: "everything" } });
    // Refused, or (a pooled connection the kill cut) closed: either way the reason says so.
    expect(String(refused?.data?.reason)).toMatch(/refused the connection|closed the connection/);

    up = await startEverything("streamableHttp", port);
    const lost = (await echo(c)).error;
    expect(lost).toMatchObject({ code: -32052 });
    expect(String(lost?.data?.reason)).toContain("lost the session");

    const gone = (await echo(c)).error;
    expect(gone?.code).toBe(404);
    await c.close();

    const fresh = await connect();
    expect((await echo(fresh, "again")).result).toMatchObject({ content: [{ text: "Echo: again" }] });
    await fresh.close();
    expect(p.log().filter((l) => (l.reasonCode as string[]).includes("UPSTREAM_UNAVAILABLE")).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("unreachable for three requests in a row: each is answered -32052, then the session ends (404)", async () => {
    const c = await connect();
    expect((await echo(c)).result).toBeDefined();
    await up.stop();
    for (let i = 0; i < 3; i++) expect((await echo(c)).error).toMatchObject({ code: -32052 });
    expect((await echo(c)).error?.code).toBe(404);
    await c.close();
    up = await startEverything("streamableHttp", port);
  }, 60_000);

  it("a notification's POST is answered once the server has it: 202; 502 (-32052) while the server is down; 404 once it lost the session", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const init = await fetch(route, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
    await init.text();
    const sid = init.headers.get("mcp-session-id") as string;
    const notify = () => fetch(route, { method: "POST", headers: { ...headers, "mcp-session-id": sid }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    expect((await notify()).status).toBe(202);
    await up.stop();
    const down = await notify();
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: RpcError }).error).toMatchObject({ code: -32052, message: expect.stringMatching(/did not take the message/) });
    up = await startEverything("streamableHttp", port);
    const lost = await notify();
    expect(lost.status).toBe(404);
    expect(((await lost.json()) as { error: RpcError }).error.message).toMatch(/^Session not found: the server lost the session/);
    // The session ended with it: what follows is 404 too, and nothing more reaches the server.
    expect((await notify()).status).toBe(404);
  }, 60_000);

  it("a legacy-SSE upstream whose event stream ends takes the session with it: 404, and a new initialize works", async () => {
    const c = await connect(`${p.base}/mcp/legacy`);
    expect((await echo(c)).result).toBeDefined();
    const before = p.proxy.sessionCount();
    const port = Number(new URL(legacy.url).port);
    await legacy.stop();
    await expect.poll(() => p.proxy.sessionCount(), { timeout: 10_000 }).toBe(before - 1);
    expect((await echo(c)).error?.code).toBe(404);
    await c.close();
    legacy = await startEverything("sse", port);
    const fresh = await connect(`${p.base}/mcp/legacy`);
    expect((await echo(fresh)).result).toBeDefined();
    await fresh.close();
  }, 60_000);
});
