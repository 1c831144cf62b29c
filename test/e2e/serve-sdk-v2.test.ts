import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ROOT, tempDir } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { stopChild, waitFor } from "../support/servers.js";

const SERVER = join(ROOT, "test", "fixtures", "servers", "mcp-v2-server.mjs");

/**
 * The v2 MCP SDK (client 2.4.0, server 2.4.0) through a route. guardwire speaks the 2025 revisions; a v2 client
 * negotiates those by default, and one set to `auto` falls back to them through the proxy.
 */
describe("serve: the v2 MCP SDK, client and server, through a route", () => {
  let server: ReturnType<typeof spawn>;
  let upstream: string;
  let p: InProcessProxy;
  let route: string;

  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    upstream = (await waitFor(server, /listening (\S+)/)).match[1] as string;
    const rules = join(tempDir(), "v2.yaml");
    writeFileSync(rules, "name: v2\ndefault: allow\nrules:\n  - id: no-forbidden-echo\n    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }\n    when: 'args.message.contains(\"forbidden\")'\n    decision: deny\n    message: not that word\n");
    p = await startProxy([{ name: "v2", path: "/mcp/v2", upstream: streamableHttpUpstream({ url: upstream }) }], { rules });
    route = `${p.base}/mcp/v2`;
  });
  afterAll(async () => {
    await p?.close();
    if (server) await stopChild(server);
  });

  for (const mode of ["legacy", "auto"] as const) {
    it(`a v2 client (versionNegotiation: ${mode}) works through the route, and the rules act`, async () => {
      const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(route)));
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
      const blocked = await client.callTool({ name: "echo", arguments: { message: "a forbidden word" } });
      expect(blocked).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("not that word") }] });
      await client.close();
    });
  }

  it("the same auto client reaches 2026-07-28 directly: what the proxy changes is the era, not whether it works", async () => {
    const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(upstream)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await client.close();
    expect(p.log().filter((l) => l.method === "tools/call" && l.decision === "deny").length).toBeGreaterThanOrEqual(2);
  });
});
