import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadConfig } from "../../src/config/load.js";
import { formatDecision } from "../../src/decision-log/format.js";
import type { DecisionRecord } from "../../src/decision-log/record.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ACCEPTANCE_RULES, CLI, readLog } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";

const JSON_AND_SSE = "application/json, text/event-stream";
const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const DENIED_CALL = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get-sum", arguments: { a: 1000, b: 1 } } });

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request with its path exactly as given: Node's client sends it as it is (no dot-segment or escape handling). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A recording HTTP front for a real upstream: every request line the upstream is sent, then the request passed on. */
async function recordingFront(target: string): Promise<{ url: string; seen: string[]; server: Server }> {
  const up = new URL(target);
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const out = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${up.pathname}`, seen, server };
}

describe("serve: no path around the guardian", () => {
  let up: Running;
  let front: Awaited<ReturnType<typeof recordingFront>>;
  let p: InProcessProxy;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    front = await recordingFront(up.url);
    p = await startProxy([{ name: "ev", path: "/mcp/ev", upstream: streamableHttpUpstream({ url: front.url }), passthrough: front.url }], { rules: ACCEPTANCE_RULES });
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    front?.server.close();
    front?.server.closeAllConnections();
    await up?.stop();
  });

  const mcpHeaders = { "content-type": "application/json", accept: JSON_AND_SSE };

  it.each([
    "/.well-known/../mcp/ev",
    "/.well-known/%2e%2e/mcp/ev",
    "/.well-known/%2E%2E/mcp/ev",
    "/.well-known/.%2e/mcp/ev",
    "/.well-known/oauth-protected-resource/..%2fmcp/ev",
    "/.well-known/oauth-protected-resource/..%2Fmcp/ev",
    "/.well-known/..%5cmcp/ev",
    "/.well-known/..\\mcp/ev",
    "//.well-known/oauth-protected-resource/mcp/ev",
    "/mcp/ev/./",
    "/mcp/./ev",
    "/mcp/ev/../ev",
  ])("%s is refused with 400 before routing, and the upstream never sees it", async (path) => {
    const before = front.seen.length;
    const init = await raw(p.base, "POST", path, mcpHeaders, INIT);
    expect(init.status).toBe(400);
    expect(init.text).toContain("path");
    expect(init.headers["mcp-session-id"]).toBeUndefined();
    // The attack's second step: a tools/call a rule denies, on whatever session the first step might have opened.
    const call = await raw(p.base, "POST", path, { ...mcpHeaders, "mcp-session-id": "x", "mcp-protocol-version": "2025-06-18" }, DENIED_CALL);
    expect(call.status).toBe(400);
    expect(front.seen.slice(before)).toEqual([]);
  });

  it("upgrades with such paths are refused too", async () => {
    const res = await raw(p.base, "GET", "/mcp/ev/%2e%2e/ev/ws", { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" });
    expect(res.status).toBe(400);
  });

  it("the OAuth documents pass through for a known route, GET and HEAD only; nothing else under /.well-known does", async () => {
    const before = front.seen.length;
    const doc = await raw(p.base, "GET", "/.well-known/oauth-protected-resource/mcp/ev");
    // server-everything publishes no OAuth metadata: its own 404 comes back, from the path the proxy built itself.
    expect(doc.status).toBe(404);
    expect(front.seen.slice(before)).toEqual(["GET /.well-known/oauth-protected-resource/mcp"]);
    const head = await raw(p.base, "HEAD", "/.well-known/openid-configuration/mcp/ev");
    expect(head.status).toBe(404);
    expect(front.seen.slice(before + 1)).toEqual(["HEAD /.well-known/openid-configuration/mcp"]);
    expect((await raw(p.base, "POST", "/.well-known/oauth-authorization-server/mcp/ev", mcpHeaders, INIT)).status).toBe(405);
    expect((await raw(p.base, "GET", "/.well-known/mcp/ev")).status).toBe(404);
    expect((await raw(p.base, "GET", "/.well-known/oauth-protected-resource/mcp")).status).toBe(404);
    expect((await raw(p.base, "GET", "/.well-known/security.txt")).status).toBe(404);
    expect(front.seen.slice(before + 2)).toEqual([]);
  });

  it("a guarded session still works on the route, and the refused paths are in the log", async () => {
    const init = await raw(p.base, "POST", "/mcp/ev", mcpHeaders, INIT);
    expect(init.status).toBe(200);
    const sid = init.headers["mcp-session-id"] as string;
    const call = await raw(p.base, "POST", "/mcp/ev", { ...mcpHeaders, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" }, DENIED_CALL);
    expect(call.text).toContain("sums over 100 are not allowed");
    const refused = p.log().filter((l) => l.kind === "refused");
    expect(refused.length).toBeGreaterThan(0);
    for (const l of refused) expect(l).toMatchObject({ decision: "deny", reasonCode: ["PATH_REFUSED"], peer: "127.0.0.1", session: "refused:127.0.0.1" });
    // 25 refused paths from one address: the first 10 are logged one by one, the rest counted for the window's summary.
    expect(refused).toHaveLength(10);
  });
});

/** A raw connection: everything it receives, and when it closes. */
function open(base: string): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (c: string) => (text += c));
    const closed = new Promise<number>((r) => socket.once("close", () => r(Date.now())));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => text, closed }));
    socket.once("error", reject);
  });
}

/** Resolves once the connection has received `pattern`, or rejects when it closes first. */
function until(c: { socket: Socket; received: () => string }, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(c.received())) {
        c.socket.off("data", check);
        c.socket.off("close", gone);
        resolve();
      }
    };
    const gone = () => (pattern.test(c.received()) ? resolve() : reject(new Error(`closed before ${pattern}: ${c.received().slice(0, 200)}`)));
    c.socket.on("data", check);
    c.socket.once("close", gone);
    check();
  });
}

describe("serve: the front's timeouts, caps and byte budget", () => {
  let up: Running;
  beforeAll(async () => {
    up = await startEverything("streamableHttp");
  }, 60_000);
  afterAll(async () => {
    await up?.stop();
  });
  const route = () => [{ name: "ev", path: "/mcp/ev", upstream: streamableHttpUpstream({ url: up.url }), passthrough: up.url }];
  const mcpHeaders = { "content-type": "application/json", accept: JSON_AND_SSE };

  it("a client that sends its headers slowly is dropped at the headers timeout", async () => {
    const p = await startProxy(route(), { front: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, idleTimeoutMs: 5000 } });
    try {
      const c = await open(p.base);
      const start = Date.now();
      c.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      // One header byte every 200 ms: never idle, never done.
      const drip = setInterval(() => c.socket.write("x"), 200);
      const end = await c.closed;
      clearInterval(drip);
      expect(end - start).toBeGreaterThanOrEqual(900);
      expect(end - start).toBeLessThan(8000);
      expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
      await expect.poll(() => p.log().filter((l) => l.kind === "refused" && (l.reasonCode as string[]).includes("REQUEST_TIMEOUT")).length).toBe(1);
      // Bytes that are not HTTP: Node's parser refuses them before any request exists; that is logged too.
      const g = await open(p.base);
      g.socket.write("NOT HTTP AT ALL\r\n\r\n");
      await g.closed;
      expect(g.received()).toMatch(/^HTTP\/1\.1 400 /);
      await expect.poll(() => p.log().filter((l) => l.kind === "refused" && (l.reasonCode as string[]).includes("HTTP_PARSE_ERROR")).length).toBe(1);
    } finally {
      await p.close();
    }
  });

  it("a connection silent mid-request is closed at the idle timeout, an idle keep-alive one at the keep-alive timeout", async () => {
    const p = await startProxy(route(), { front: { headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, idleTimeoutMs: 600, keepAliveTimeoutMs: 300 } });
    try {
      const silent = await open(p.base);
      const start = Date.now();
      silent.socket.write("POST /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n{");
      expect((await silent.closed) - start).toBeLessThan(10_000);
      const kept = await open(p.base);
      kept.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await until(kept, /"status":"ok"/);
      const answered = Date.now();
      expect((await kept.closed) - answered).toBeLessThan(10_000);
    } finally {
      await p.close();
    }
  });

  it("an endless chunked body is refused at the size limit as it arrives: 413, then the connection closes", async () => {
    const limit = 64 * 1024;
    const p = await startProxy(route(), { maxBodyBytes: limit });
    try {
      const c = await open(p.base);
      c.socket.write(`POST /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: ${JSON_AND_SSE}\r\ntransfer-encoding: chunked\r\n\r\n`);
      const chunk = `4000\r\n${"a".repeat(0x4000)}\r\n`;
      let sent = 0;
      let closed = false;
      void c.closed.then(() => (closed = true));
      // Keeps sending as long as the socket takes it, as an endless body would.
      while (!closed && !/ 413 /.test(c.received()) && sent < 256 * limit) {
        if (!c.socket.write(chunk)) await new Promise((r) => c.socket.once("drain", r).once("close", r));
        sent += 0x4000;
      }
      await until(c, /HTTP\/1\.1 413 /);
      expect(c.received()).toMatch(/connection: close/i);
      await c.closed;
      // Refused near the limit, not at the end of a body that never ends (the loopback buffers hold a few MB at most).
      expect(sent).toBeLessThan(128 * limit);
      const line = p.log().find((l) => l.kind === "refused");
      expect(line).toMatchObject({ reasonCode: ["BODY_TOO_LARGE"], route: "ev", peer: "127.0.0.1" });
    } finally {
      await p.close();
    }
  });

  it.each([
    ["per-address", { maxConnectionsPerAddress: 3 }, "127.0.0.1 has 3 connections open (maxConnectionsPerAddress)"],
    ["total", { maxConnections: 3 }, "the proxy has 3 connections open (maxConnections)"],
  ])("the connection past the %s cap is answered 503 with Retry-After; a freed slot is usable again", async (_cap, cap, why) => {
    const p = await startProxy(route(), { front: { ...cap, keepAliveTimeoutMs: 30_000 } });
    const held: Awaited<ReturnType<typeof open>>[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const c = await open(p.base);
        c.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        await until(c, /"status":"ok"/);
        held.push(c);
      }
      const extra = await open(p.base);
      extra.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await until(extra, /HTTP\/1\.1 503 [^]*\r\n\r\n\{/);
      expect(extra.received()).toMatch(/retry-after: 1/i);
      await extra.closed;
      held.shift()?.socket.destroy();
      // The server counts the slot free once it has seen the close: retried until then.
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = await raw(p.base, "GET", "/healthz").then((r) => r.status, () => 0);
        if (status !== 200) await sleep(50);
      }
      expect(status).toBe(200);
      const refused = p.log().filter((l) => l.kind === "refused")[0];
      expect(refused).toMatchObject({ reasonCode: ["TOO_MANY_CONNECTIONS"], peer: "127.0.0.1" });
      expect(refused?.message).toContain(why);
    } finally {
      for (const c of held) c.socket.destroy();
      await p.close();
    }
  });

  it("an SSE stream and a silent long tool call outlive the request and idle timeouts", async () => {
    const p = await startProxy(route(), { front: { headersTimeoutMs: 500, requestTimeoutMs: 1000, idleTimeoutMs: 800 } });
    try {
      const init = await raw(p.base, "POST", "/mcp/ev", mcpHeaders, INIT);
      const sid = init.headers["mcp-session-id"] as string;
      const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
      await raw(p.base, "POST", "/mcp/ev", { ...mcpHeaders, ...session }, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      const stream = await open(p.base);
      stream.socket.write(`GET /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\naccept: text/event-stream\r\nmcp-session-id: ${sid}\r\nmcp-protocol-version: 2025-06-18\r\n\r\n`);
      await until(stream, /HTTP\/1\.1 200 [^]*text\/event-stream/);
      let streamClosed = false;
      void stream.closed.then(() => (streamClosed = true));
      // A tool call that says nothing for 3 s, then answers as JSON: the request timeout is 1 s, the idle timeout 0.8 s.
      const call = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "trigger-long-running-operation", arguments: { duration: 3, steps: 1 } } });
      const started = Date.now();
      const answer = await raw(p.base, "POST", "/mcp/ev", { ...mcpHeaders, ...session }, call);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("Long running operation completed");
      expect(streamClosed).toBe(false);
      stream.socket.destroy();
    } finally {
      await p.close();
    }
  }, 30_000);

  it("request bodies past the byte budget are refused with 503 and Retry-After, declared or chunked, and the budget comes back", async () => {
    // Each body byte counts 4 times: 800 KiB of budget is 200 KiB of bodies.
    const p = await startProxy(route(), { maxBodyBytes: 64 * 1024, front: { bodyBudgetBytes: 800 * 1024 } });
    const held: Awaited<ReturnType<typeof open>>[] = [];
    try {
      const post = (length: number) => `POST /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: ${JSON_AND_SSE}\r\ncontent-length: ${length}\r\n\r\n`;
      // Three bodies of 60 KiB declared and half sent: 180 KiB of the 200 KiB reserved.
      for (let i = 0; i < 3; i++) {
        const c = await open(p.base);
        c.socket.write(post(60 * 1024) + " ".repeat(30 * 1024));
        held.push(c);
      }
      // A fourth declared one does not fit: refused at once, before a byte of its body is read.
      await expect.poll(async () => (await raw(p.base, "POST", "/mcp/ev", mcpHeaders, " ".repeat(60 * 1024 - INIT.length) + INIT)).status, { timeout: 10_000 }).toBe(503);
      const refused = await raw(p.base, "POST", "/mcp/ev", mcpHeaders, " ".repeat(30 * 1024));
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("1");
      // A chunked one is taken chunk by chunk, and refused at the chunk that no longer fits (20 KiB are left).
      const chunked = await open(p.base);
      chunked.socket.write(`POST /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: ${JSON_AND_SSE}\r\ntransfer-encoding: chunked\r\n\r\n`);
      for (let i = 0; i < 3; i++) chunked.socket.write(`2800\r\n${" ".repeat(0x2800)}\r\n`);
      await until(chunked, /HTTP\/1\.1 503 /);
      // The held bodies end (their connections close): the budget is free again and a body passes.
      for (const c of held.splice(0)) c.socket.destroy();
      await expect.poll(async () => (await raw(p.base, "POST", "/mcp/ev", mcpHeaders, INIT)).status, { timeout: 10_000 }).toBe(200);
      const lines = p.log().filter((l) => l.kind === "refused");
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines.map((l) => `${(l.reasonCode as string[])[0]} ${l.message}`).filter((x) => !x.startsWith("OVER_BUDGET"))).toEqual([]);
    } finally {
      for (const c of held) c.socket.destroy();
      await p.close();
    }
  });
});

describe("serve: WebSocket messages draw on the same byte budget", () => {
  it("a message that does not fit closes the session with 1013; once bodies are done, messages pass again", async () => {
    const up = await startEverything("streamableHttp");
    const p = await startProxy([{ name: "ev", path: "/mcp/ev", upstream: streamableHttpUpstream({ url: up.url }) }], { maxBodyBytes: 64 * 1024, front: { bodyBudgetBytes: 800 * 1024 } });
    const held: Awaited<ReturnType<typeof open>>[] = [];
    const wsUrl = `${p.base.replace("http", "ws")}/mcp/ev/ws`;
    const connectWs = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, "mcp");
        ws.once("open", () => resolve(ws));
        ws.once("error", reject);
      });
    try {
      // 180 KiB of the 200 KiB of bodies the budget allows are held by three half-sent HTTP bodies.
      for (let i = 0; i < 3; i++) {
        const c = await open(p.base);
        c.socket.write(`POST /mcp/ev HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: ${JSON_AND_SSE}\r\ncontent-length: ${60 * 1024}\r\n\r\n` + " ".repeat(30 * 1024));
        held.push(c);
      }
      await expect.poll(async () => (await raw(p.base, "POST", "/mcp/ev", mcpHeadersOf(), " ".repeat(30 * 1024))).status, { timeout: 10_000 }).toBe(503);
      const ws = await connectWs();
      const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(40 * 1024) } }));
      expect(await closed).toBe(1013);
      for (const c of held.splice(0)) c.socket.destroy();
      // The bodies gone, a WebSocket session works again.
      await expect
        .poll(async () => {
          const again = await connectWs();
          const reply = new Promise<string>((r) => again.once("message", (d) => r(String(d))));
          again.send(INIT);
          const text = await Promise.race([reply, new Promise<string>((r) => again.once("close", () => r("closed")))]);
          again.close();
          return text;
        }, { timeout: 10_000 })
        .toContain("serverInfo");
      expect(p.log().some((l) => l.kind === "refused" && l.transport === "websocket" && (l.reasonCode as string[])[0] === "OVER_BUDGET")).toBe(true);
    } finally {
      for (const c of held) c.socket.destroy();
      await p.close();
      await up.stop();
    }
  }, 60_000);
});

describe("serve: refusals before the guardian are logged, rate-limited, without the key", () => {
  it("a wrong key, a bad Host and a flood of 1,000 keyless requests give a bounded number of lines; verify passes", async () => {
    const up = await startEverything("streamableHttp");
    const key = "k-".repeat(12) + "secret-agent-key";
    const p = await startProxy([{ name: "ev", path: "/mcp/ev", upstream: streamableHttpUpstream({ url: up.url }) }], { agents: [{ id: "alice", key }] });
    try {
      const wrong = "wrong-".repeat(4) + "presented-key";
      expect((await raw(p.base, "POST", "/mcp/ev", { ...mcpHeadersOf(), authorization: `Bearer ${wrong}` }, INIT)).status).toBe(401);
      expect((await raw(p.base, "POST", "/mcp/ev", { ...mcpHeadersOf(), host: "evil.example", authorization: `Bearer ${key}` }, INIT)).status).toBe(403);
      const upgrade = { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-protocol": "mcp" };
      expect((await raw(p.base, "GET", "/mcp/ev/ws", { ...upgrade, "x-guardwire-key": wrong })).status).toBe(401);
      expect((await raw(p.base, "POST", "/mcp/ev", { ...mcpHeadersOf(), authorization: `Bearer ${key}` }, INIT)).status).toBe(200);
      for (let i = 0; i < 1000; i += 50) {
        const statuses = await Promise.all(Array.from({ length: 50 }, () => raw(p.base, "POST", "/mcp/ev", mcpHeadersOf(), INIT).then((r) => r.status)));
        expect(statuses.every((s) => s === 401)).toBe(true);
      }
      await p.close();
      const refused = readLog(p.file).filter((l) => l.kind === "refused");
      const unauthorized = refused.filter((l) => (l.reasonCode as string[])[0] === "UNAUTHORIZED");
      // 10 one by one, then one summary line for the other 992 (the window ended when the server closed).
      expect(unauthorized).toHaveLength(11);
      expect(unauthorized.at(-1)?.message).toMatch(/^992 more UNAUTHORIZED refusals from 127\.0\.0\.1/);
      expect(unauthorized[0]?.message).toContain("the agent key is not valid");
      expect(refused.filter((l) => (l.reasonCode as string[])[0] === "HOST_NOT_ALLOWED")).toHaveLength(1);
      expect(unauthorized[1]).toMatchObject({ transport: "websocket", route: "ev", agent: null });
      const text = readFileSync(p.file, "utf8");
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(key);
      const verify = spawnSync(process.execPath, [CLI, "verify", p.file], { encoding: "utf8" });
      expect(verify.stdout + verify.stderr).toMatch(/^ok:/);
      expect(verify.status).toBe(0);
      const tail = spawnSync(process.execPath, [CLI, "tail", "--no-color", p.file], { encoding: "utf8" });
      expect(tail.stdout).toMatch(/DENY\s+outbound refused\s+from 127\.0\.0\.1\s+UNAUTHORIZED\s+POST \/mcp\/ev: Unauthorized: the agent key is not valid/);
    } finally {
      await up.stop();
    }
  }, 60_000);
});

function mcpHeadersOf(): Record<string, string> {
  return { "content-type": "application/json", accept: JSON_AND_SSE };
}

describe("serve config: the front's options", () => {
  const load = (text: string) => loadConfig("g.yaml", {}, () => text);
  const routes = `routes:\n  - { name: ev, path: /mcp/ev, mcp: { url: "http://127.0.0.1:3001/mcp" } }\n`;

  it("has documented defaults, and takes its own values", () => {
    expect(load(routes).config?.http).toEqual({ headersTimeoutSeconds: 10, requestTimeoutSeconds: 60, keepAliveTimeoutSeconds: 5, idleTimeoutSeconds: 30, maxConnections: 4096, maxConnectionsPerAddress: 2048, bodyBudgetBytes: 64 * 1024 * 1024 });
    expect(load(`http: { maxConnectionsPerAddress: 8, idleTimeoutSeconds: 2.5 }\n${routes}`).config?.http).toMatchObject({ maxConnectionsPerAddress: 8, idleTimeoutSeconds: 2.5, maxConnections: 4096 });
  });

  it("refuses a budget a largest body cannot fit, a headers timeout past the request timeout, and route paths with dot or empty segments", () => {
    const { problems } = load(`maxFrameBytes: 1048576\nhttp: { bodyBudgetBytes: 2097152, headersTimeoutSeconds: 90 }\nroutes:\n  - { name: a, path: /mcp/../a, mcp: { url: "http://x/mcp" } }\n  - { name: b, path: /mcp//b, mcp: { url: "http://x/mcp" } }\n`);
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(["http.bodyBudgetBytes", "http.headersTimeoutSeconds", "routes[0].path", "routes[1].path"]));
  });
});

describe("tail: a refused line reads as such", () => {
  it("names the caller, the reason and what was refused", () => {
    const r = { time: "2026-11-23T12:00:00.000Z", seq: 0, prev: "", hash: "", session: "refused:10.0.0.7", route: "ev", transport: "http", protocol: "mcp", direction: "outbound", kind: "refused", id: null, method: null, tool: null, agent: null, decision: "deny", mode: "enforce", rules: [], reasonCode: ["HOST_NOT_ALLOWED"], message: "POST /mcp/ev: Forbidden: Host evil.example is not allowed", evalUs: 0, digest: null, peer: "10.0.0.7" } satisfies DecisionRecord;
    expect(formatDecision(r, { color: false })).toBe("12:00:00.000  DENY          outbound refused       from 10.0.0.7  HOST_NOT_ALLOWED  POST /mcp/ev: Forbidden: Host evil.example is not allowed  (0µs) refused:10.0.0.7 ev");
  });
});
