import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import { ACCEPTANCE_RULES, EVERYTHING } from "../helpers.js";
import { until } from "../support/poll.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";

// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one. `ws` speaks the same API.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

/*
 * docs/benchmarks.md, "Idle sessions and churn": the guardian kept each session's labels and counts until 10,000
 * newer sessions pushed them out. A session that ends for good now tells the guardian (Guardian.endSession), which
 * forgets them at once; A2A calls and stateless exchanges share their caller's guardian session and do not end it
 * (test/e2e/a2a.test.ts, "the calls of one caller share a guardian session", runs with the same wiring).
 */
describe("a guarded session's end reaches the guardian", () => {
  let p: InProcessProxy;
  beforeAll(async () => {
    p = await startProxy([{ name: "stdio", path: "/mcp", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) }], { rules: ACCEPTANCE_RULES });
  });
  afterAll(async () => {
    await p?.close();
  });

  const downstreams: Record<string, () => Transport> = {
    "streamable-http": () => new StreamableHTTPClientTransport(new URL(`${p.base}/mcp`)),
    sse: () => new SSEClientTransport(new URL(`${p.base}/mcp/sse`)),
    websocket: () => new WebSocketClientTransport(new URL(`${p.base.replace("http", "ws")}/mcp/ws`)),
  };

  for (const [kind, make] of Object.entries(downstreams)) {
    it(`${kind}: three sessions judged, then closed, leave no state in the guardian`, async () => {
      const before = p.guardian.sessionsHeld;
      const clients = await Promise.all(
        [1, 2, 3].map(async () => {
          const client = new Client({ name: "t", version: "1" });
          const transport = make();
          await client.connect(transport);
          await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
          return { client, transport };
        }),
      );
      expect(p.guardian.sessionsHeld).toBe(before + 3);
      for (const { client, transport } of clients) {
        if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
        await client.close();
      }
      expect(await until(() => p.guardian.sessionsHeld, (n) => n === before, "sessions the guardian holds")).toBe(before);
    });
  }
});
