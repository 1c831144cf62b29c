import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import { EVERYTHING, tempDir } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { freePort, startEverything, type Running } from "../support/servers.js";

const JSON_AND_SSE = "application/json, text/event-stream";
const init = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: () => Promise<Record<string, unknown>> }> {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: async () => JSON.parse(text.startsWith("event:") || text.startsWith("id:") ? (/data: (.*)/.exec(text)?.[1] ?? "null") : text) as Record<string, unknown> };
}

describe("serve over HTTP: bad input, sessions, security", () => {
  let up: Running;
  let p: InProcessProxy;
  let route: string;
  let deadRoute: string;
  let sid: string;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    p = await startProxy(
      [
        { name: "everything", path: "/mcp/everything", upstream: streamableHttpUpstream({ url: up.url }), passthrough: up.url },
        { name: "nowhere", path: "/mcp/nowhere", upstream: streamableHttpUpstream({ url: dead }) },
      ],
      { maxBodyBytes: 64 * 1024 },
    );
    route = `${p.base}/mcp/everything`;
    deadRoute = `${p.base}/mcp/nowhere`;
    const r = await post(route, JSON.stringify(init()));
    expect(r.status).toBe(200);
    sid = r.headers.get("mcp-session-id") ?? "";
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
  });
  afterAll(async () => {
    await p?.close();
    await up?.stop();
  });

  const inSession = (h: Record<string, string> = {}) => ({ "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18", ...h });

  it("a malformed body is 400 with -32700", async () => {
    const r = await post(route, "{nope", inSession());
    expect(r.status).toBe(400);
    expect(((await r.json()).error as { code: number }).code).toBe(-32700);
  });

  it("a wrong Content-Type is 415, a missing Accept is 406", async () => {
    expect((await post(route, JSON.stringify(init(2)), { ...inSession(), "content-type": "text/plain" })).status).toBe(415);
    const r = await fetch(route, { method: "POST", body: JSON.stringify(init(3)), headers: { "content-type": "application/json", ...inSession() } });
    expect(r.status).toBe(406);
  });

  it("a body over the limit is 413", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { message: "x".repeat(100_000) } } });
    expect((await post(route, big, inSession())).status).toBe(413);
  });

  it("an unknown session is 404 (so clients re-initialize); a missing one on a non-initialize request is 400", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" });
    expect((await post(route, ping, { "mcp-session-id": "nope" })).status).toBe(404);
    expect((await post(route, ping)).status).toBe(400);
  });

  it("an invalid protocol version header is 400", async () => {
    expect((await post(route, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }), inSession({ "mcp-protocol-version": "1999-01-01" }))).status).toBe(400);
  });

  it("a batch where batches are not allowed is -32600", async () => {
    const r = await post(route, JSON.stringify([{ jsonrpc: "2.0", id: 6, method: "ping" }]), inSession());
    expect(r.status).toBe(400);
    expect(((await r.json()).error as { code: number }).code).toBe(-32600);
  });

  it("a batch in 2025-03-26 is split, judged and re-joined", async () => {
    const r = await post(route, JSON.stringify([{ jsonrpc: "2.0", id: 7, method: "ping" }, { jsonrpc: "2.0", id: 8, method: "tools/list" }]), inSession({ "mcp-protocol-version": "2025-03-26" }));
    expect(r.status).toBe(200);
  });

  it("an unreachable upstream answers -32052 with the route name, never a hang or an HTML page", async () => {
    const r = await post(deadRoute, JSON.stringify(init()));
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.id).toBe(1);
    expect(body.error).toMatchObject({ code: -32052, data: { route: "nowhere" } });
  });

  it("DNS rebinding: a foreign Host or Origin is 403; health probes answer", async () => {
    const evilHost = await new Promise<number>((resolve, reject) => {
      const req = request(route, { method: "POST", headers: { host: "evil.example", "content-type": "application/json", accept: JSON_AND_SSE } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify(init()));
    });
    expect(evilHost).toBe(403);
    const evilOrigin = await post(route, JSON.stringify(init()), { origin: "https://evil.example" });
    expect(evilOrigin.status).toBe(403);
    const local = await post(route, JSON.stringify(init(11)), { origin: "http://localhost:3000" });
    expect(local.status).toBe(200);
    expect((await fetch(`${p.base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${p.base}/readyz`)).json()).toMatchObject({ status: "ready" });
  });

  it("DELETE ends the session: later requests get 404", async () => {
    const r = await post(route, JSON.stringify(init(12)));
    const s = r.headers.get("mcp-session-id") ?? "";
    const del = await fetch(route, { method: "DELETE", headers: { "mcp-session-id": s } });
    expect(del.status).toBe(200);
    expect((await post(route, JSON.stringify({ jsonrpc: "2.0", id: 13, method: "ping" }), { "mcp-session-id": s })).status).toBe(404);
  });

  it("every answer above is in the decision log, including the -32052", () => {
    const lines = p.log();
    expect(lines.some((l) => (l.reasonCode as string[]).includes("UPSTREAM_UNAVAILABLE") && l.route === "nowhere")).toBe(true);
  });
});

describe("serve: agent keys", () => {
  let up: Running;
  let p: InProcessProxy;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    p = await startProxy([{ name: "e", path: "/mcp/e", upstream: streamableHttpUpstream({ url: up.url }) }], {
      agents: [
        { id: "claude-code", key: "k-0123456789abcdef" },
        { id: "cursor", key: "k-fedcba9876543210" },
      ],
    });
  });
  afterAll(async () => {
    await p?.close();
    await up?.stop();
  });

  it("no key or a wrong key is 401; a right key works and its id is the agent rules and the log see", async () => {
    expect((await post(`${p.base}/mcp/e`, JSON.stringify(init()))).status).toBe(401);
    expect((await post(`${p.base}/mcp/e`, JSON.stringify(init()), { authorization: "Bearer k-wrong-wrong-wrong" })).status).toBe(401);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/e`), { requestInit: { headers: { authorization: "Bearer k-fedcba9876543210" } } }));
    await client.listTools();
    await client.close();
    expect(p.log().some((l) => l.agent === "cursor" && l.method === "tools/list")).toBe(true);
  });

  it("a session belongs to the agent that opened it", async () => {
    const r = await post(`${p.base}/mcp/e`, JSON.stringify(init()), { "x-guardwire-key": "k-0123456789abcdef" });
    const s = r.headers.get("mcp-session-id") ?? "";
    const other = await post(`${p.base}/mcp/e`, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), { "x-guardwire-key": "k-fedcba9876543210", "mcp-session-id": s });
    expect(other.status).toBe(404);
  });
});

describe("serve: a legacy SSE or WebSocket agent that goes away releases its child", () => {
  for (const kind of ["sse", "ws"] as const) {
    it(`${kind}: closing the connection ends the stdio child`, async () => {
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      const { WebSocketClientTransport } = await import("@modelcontextprotocol/sdk/client/websocket.js");
      const { WebSocket } = await import("ws");
      (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
      const pidFile = join(tempDir(), "pid");
      const script = join(tempDir(), "server.sh");
      writeFileSync(script, `echo $$ > ${pidFile}\nexec "${process.execPath}" "${EVERYTHING}" stdio\n`);
      const p = await startProxy([{ name: "s", path: "/mcp/s", upstream: stdioUpstream({ command: "sh", args: [script], env: process.env }) }]);
      try {
        const client = new Client({ name: "t", version: "1" });
        await client.connect(kind === "sse" ? new SSEClientTransport(new URL(`${p.base}/mcp/s/sse`)) : new WebSocketClientTransport(new URL(`${p.base.replace("http", "ws")}/mcp/s/ws`)));
        await client.listTools();
        const { readFileSync } = await import("node:fs");
        const pid = Number(readFileSync(pidFile, "utf8"));
        expect(() => process.kill(pid, 0)).not.toThrow();
        await client.close();
        await expect.poll(() => { try { process.kill(pid, 0); return "alive"; } catch { return "gone"; } }, { timeout: 10_000 }).toBe("gone");
      } finally {
        await p.close();
      }
    });
  }
});

describe("serve: a stdio upstream lives as long as its downstream session", () => {
  it("DELETE ends the child process", async () => {
    const pidFile = join(tempDir(), "pid");
    const script = join(tempDir(), "server.sh");
    writeFileSync(script, `echo $$ > ${pidFile}\nexec "${process.execPath}" "${EVERYTHING}" stdio\n`);
    const p = await startProxy([{ name: "s", path: "/mcp/s", upstream: stdioUpstream({ command: "sh", args: [script], env: process.env }) }]);
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/s`));
      const client = new Client({ name: "t", version: "1" });
      await client.connect(transport);
      await client.listTools();
      const { readFileSync } = await import("node:fs");
      const pid = Number(readFileSync(pidFile, "utf8"));
      expect(() => process.kill(pid, 0)).not.toThrow();
      await transport.terminateSession();
      await client.close();
      await expect.poll(() => { try { process.kill(pid, 0); return "alive"; } catch { return "gone"; } }, { timeout: 10_000 }).toBe("gone");
      expect(p.proxy.sessionCount()).toBe(0);
    } finally {
      await p.close();
    }
  });
});

describe("serve: plain HTTP around MCP is passed through", () => {
  it("the upstream's OAuth metadata is reachable at the proxy's well-known paths", async () => {
    const { createServer } = await import("node:http");
    const seen: string[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.url ?? "");
      const body = JSON.stringify({ resource: "http://upstream.example/mcp", authorization_servers: ["http://auth.example"] });
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    const p = await startProxy([{ name: "o", path: "/mcp/o", upstream: streamableHttpUpstream({ url }), passthrough: url }]);
    try {
      const prm = await fetch(`${p.base}/.well-known/oauth-protected-resource/mcp/o`);
      expect(prm.status).toBe(200);
      // The resource is the URL the agent connected to (the proxy's route), so its OAuth client's check holds.
      expect(await prm.json()).toEqual({ resource: `${p.base}/mcp/o`, authorization_servers: ["http://auth.example"] });
      const as = await fetch(`${p.base}/.well-known/oauth-authorization-server`);
      expect(as.status).toBe(200);
      expect(await as.json()).toMatchObject({ resource: "http://upstream.example/mcp" });
      expect(seen).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]);
      expect((await fetch(`${p.base}/elsewhere`)).status).toBe(404);
    } finally {
      await p.close();
      upstream.close();
    }
  });
});

describe("serve: an upstream's auth challenge reaches the agent as such", () => {
  it("401 with WWW-Authenticate is passed down, so the agent can start its OAuth flow", async () => {
    const { createServer } = await import("node:http");
    const upstream = createServer((req, res) => {
      req.resume();
      res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="http://up.example/.well-known/oauth-protected-resource"' }).end();
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    const p = await startProxy([{ name: "o", path: "/mcp/o", upstream: streamableHttpUpstream({ url }), passthrough: url }]);
    try {
      const r = await post(`${p.base}/mcp/o`, JSON.stringify(init()));
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${p.base}/.well-known/oauth-protected-resource/mcp/o"`);
      expect(p.log().some((l) => (l.reasonCode as string[]).includes("UPSTREAM_REFUSED"))).toBe(true);
    } finally {
      await p.close();
      upstream.close();
    }
  });
});

describe("serve: an upstream that refuses or stalls", () => {
  it("HTTP 500 and a server that never answers both give -32052 with the route, in time", async () => {
    const { createServer } = await import("node:http");
    const upstream = createServer((req, res) => {
      req.resume();
      if (req.url === "/refuse") res.writeHead(500, { "content-type": "text/html" }).end("<h1>oops</h1>");
      // "/stall": never answers
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const p = await startProxy([
      { name: "refuse", path: "/mcp/refuse", upstream: streamableHttpUpstream({ url: `${base}/refuse` }) },
      { name: "stall", path: "/mcp/stall", upstream: streamableHttpUpstream({ url: `${base}/stall`, timeoutMs: 300 }) },
    ]);
    try {
      const refused = await post(`${p.base}/mcp/refuse`, JSON.stringify(init()));
      expect(refused.status).toBe(200);
      expect(await refused.json()).toMatchObject({ id: 1, error: { code: -32052, data: { route: "refuse", reason: "HTTP 500 from upstream" } } });
      const stalled = await post(`${p.base}/mcp/stall`, JSON.stringify(init()));
      expect(await stalled.json()).toMatchObject({ id: 1, error: { code: -32052, data: { route: "stall", reason: "the server did not answer in time" } } });
    } finally {
      await p.close();
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});

describe("serve: idle sessions end", () => {
  it("a session with no stream and no request past its idle time is ended: its next request gets 404", async () => {
    const p = await startProxy([{ name: "s", path: "/mcp/s", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) }], { idleMs: 500 });
    try {
      const r = await post(`${p.base}/mcp/s`, JSON.stringify(init()));
      const sid = r.headers.get("mcp-session-id") ?? "";
      expect(p.proxy.sessionCount()).toBe(1);
      await expect.poll(() => p.proxy.sessionCount(), { timeout: 5000 }).toBe(0);
      expect((await post(`${p.base}/mcp/s`, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), { "mcp-session-id": sid })).status).toBe(404);
    } finally {
      await p.close();
    }
  });
});

describe("serve: sessions are bounded", () => {
  it("past maxSessions a new initialize is refused with 503, and ending one makes room", async () => {
    const p = await startProxy([{ name: "s", path: "/mcp/s", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) }], { maxSessions: 2 });
    try {
      const url = `${p.base}/mcp/s`;
      const a = await post(url, JSON.stringify(init(1)));
      const b = await post(url, JSON.stringify(init(2)));
      expect([a.status, b.status]).toEqual([200, 200]);
      const c = await post(url, JSON.stringify(init(3)));
      expect(c.status).toBe(503);
      expect(c.headers.get("retry-after")).toBe("5");
      await fetch(url, { method: "DELETE", headers: { "mcp-session-id": a.headers.get("mcp-session-id") ?? "" } });
      expect((await post(url, JSON.stringify(init(4)))).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});

describe("serve: a large answer", () => {
  it("a 10 MB result (in UTF-8) with non-ASCII text and surrogate pairs across the slice boundaries arrives byte for byte, as JSON and as an SSE event", async () => {
    const { createServer } = await import("node:http");
    // Emoji (surrogate pairs) every five characters, so about one slice boundary in five falls inside one.
    const text = "ab😀é".repeat(1_300_000); // 6.5 M characters, 10.4 MB of UTF-8
    const answer = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
    const upstream = createServer((req, res) => {
      let b = "";
      req.on("data", (c: Buffer) => (b += c.toString()));
      req.on("end", () => {
        if (b === "") return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
        const m = JSON.parse(b) as { id?: unknown; method?: string; params?: { _meta?: { progressToken?: unknown } } };
        const token = m.params?._meta?.progressToken;
        if (m.method === "tools/call" && token !== undefined) {
          // Progress first, so the answer is a stream: one SSE event of 10 MB after a small one.
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 1 } })}\n\n`);
          res.end(`data: ${answer(m.id)}\n\n`);
          return;
        }
        if (m.method === "initialize") {
          res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "big", version: "1" } } }));
        } else if (m.id === undefined) res.writeHead(202).end();
        else res.writeHead(200, { "content-type": "application/json" }).end(answer(m.id));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    const p = await startProxy([{ name: "big", path: "/mcp/big", upstream: streamableHttpUpstream({ url }) }]);
    try {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/big`)));
      const r = (await client.callTool({ name: "big", arguments: {} })) as { content: { text: string }[] };
      expect(r.content[0]?.text.length).toBe(text.length);
      expect(r.content[0]?.text === text).toBe(true);
      // The same answer as an SSE event (after progress), written in paced slices too.
      const progress: number[] = [];
      const s = (await client.callTool({ name: "big", arguments: {} }, undefined, { onprogress: (x) => progress.push(x.progress) })) as { content: { text: string }[] };
      expect(progress).toEqual([1]);
      expect(s.content[0]?.text === text).toBe(true);
      await client.close();
    } finally {
      await p.close();
      upstream.close();
    }
  });
});
