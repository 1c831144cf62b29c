import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ACCEPTANCE_RULES } from "../helpers.js";
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

  it("a guarded session still works on the route", async () => {
    const init = await raw(p.base, "POST", "/mcp/ev", mcpHeaders, INIT);
    expect(init.status).toBe(200);
    const sid = init.headers["mcp-session-id"] as string;
    const call = await raw(p.base, "POST", "/mcp/ev", { ...mcpHeaders, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" }, DENIED_CALL);
    expect(call.text).toContain("sums over 100 are not allowed");
  });
});
