import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import { join } from "node:path";
import { legacySseUpstream } from "../../src/transports/upstream/legacy-sse.js";
import { websocketUpstream } from "../../src/transports/upstream/websocket.js";
import { ACCEPTANCE_RULES, EVERYTHING, ROOT } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";

// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one. `ws` speaks the same API.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

/** Each downstream kind × each upstream kind that needs no extra fixture: the same session must behave the same. */
describe("serve: any downstream works with any upstream", () => {
  let up: Running;
  let sse: Running;
  let p: InProcessProxy;
  let wsServer: InProcessProxy;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    sse = await startEverything("sse");
    // No published MCP server speaks WebSocket; a second guardwire serving server-everything at /ws stands in.
    wsServer = await startProxy([{ name: "inner", path: "/inner", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) }], { rules: join(ROOT, "rules", "audit-only.yaml") });
    p = await startProxy(
      [
        { name: "http", path: "/mcp/http", upstream: streamableHttpUpstream({ url: up.url }) },
        { name: "stdio", path: "/mcp/stdio", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) },
        { name: "sse", path: "/mcp/sse", upstream: legacySseUpstream({ url: sse.url }) },
        { name: "ws", path: "/mcp/ws", upstream: websocketUpstream({ url: `${wsServer.base.replace("http", "ws")}/inner/ws` }) },
      ],
      { rules: ACCEPTANCE_RULES },
    );
  });
  afterAll(async () => {
    await p?.close();
    await wsServer?.close();
    await up?.stop();
    await sse?.stop();
  });

  const downstreams: Record<string, (route: string) => Transport> = {
    "streamable-http": (r) => new StreamableHTTPClientTransport(new URL(`${p.base}${r}`)),
    sse: (r) => new SSEClientTransport(new URL(`${p.base}${r}/sse`)),
    websocket: (r) => new WebSocketClientTransport(new URL(`${p.base.replace("http", "ws")}${r}/ws`)),
  };

  for (const [kind, make] of Object.entries(downstreams)) {
    for (const route of ["/mcp/http", "/mcp/stdio", "/mcp/sse", "/mcp/ws"]) {
      it(`${kind} → ${route}: tools, a block, a rewrite, sampling, elicitation, logging`, async () => {
        const client = new Client({ name: "t", version: "1" }, { capabilities: { sampling: {}, elicitation: {} } });
        client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: "m", role: "assistant", content: { type: "text", text: "sampled-ok" } }));
        client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
        const logs: string[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.level)));
        await client.connect(make(route));
        try {
          expect((await client.listTools()).tools.length).toBeGreaterThan(5);
          expect(text(await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } }))).toContain("3");
          const denied = await client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 } });
          expect(denied.isError).toBe(true);
          expect(text(await client.callTool({ name: "echo", arguments: { message: "a secret" } }))).toBe("Echo: a [hidden]");
          expect(text(await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } }))).toContain("sampled-ok");
          const e = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
          expect(text(e).toLowerCase()).toContain("decline");
          await client.setLoggingLevel("debug");
          const progress: number[] = [];
          await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (pr) => void progress.push(pr.progress) });
          expect(progress.length).toBeGreaterThan(0);
        } finally {
          await client.close();
        }
      });
    }
  }
});
