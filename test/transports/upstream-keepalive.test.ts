import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamAgent } from "../../src/transports/upstream/streamable-http.js";

/**
 * The MCP SDK's server answers a POST with an SSE stream whose headers it writes itself, `connection: keep-alive`
 * among them, so Node adds no `Keep-Alive: timeout=5` hint; the server still closes an idle connection after its
 * keep-alive timeout (Node's default: 5 s). guardwire must let such a connection go first: one reused just as the
 * server closes it fails a request the server never saw (-32052, seen under load in bench/serve.mjs).
 */
describe("upstream HTTP connections without a keep-alive hint", () => {
  let server: Server;
  let url: string;
  const closed: { at: number; byClient: boolean }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        // As the SDK does: its own headers, the connection header among them (no Keep-Alive hint follows).
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
        res.end(`event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
      });
    });
    // Longer than guardwire should keep the connection: whoever closes first is seen below.
    server.keepAliveTimeout = 20_000;
    server.on("connection", (socket: Socket) => {
      let byClient = false;
      socket.on("end", () => (byClient = true));
      socket.on("close", () => closed.push({ at: performance.now(), byClient }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("are let go by guardwire about 3 s after the last answer, before Node's default server timeout of 5 s", async () => {
    const agent = upstreamAgent();
    try {
      const res = await request(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" }, dispatcher: agent });
      expect(res.headers["keep-alive"]).toBeUndefined();
      await res.body.text();
      const answered = performance.now();
      for (let i = 0; i < 70 && closed.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(closed).toHaveLength(1);
      expect(closed[0]?.byClient).toBe(true);
      const after = (closed[0]?.at ?? Infinity) - answered;
      expect(after).toBeGreaterThan(2_500);
      expect(after).toBeLessThan(4_500);
    } finally {
      await agent.close();
    }
  }, 15_000);
});
