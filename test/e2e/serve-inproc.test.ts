import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRulesOrThrow } from "../../src/cli/rules.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { createGuardServer, type ProxyServer } from "../../src/proxy/server.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import { ACCEPTANCE_RULES, EVERYTHING, readLog, tempDir } from "../helpers.js";
import { startEverything, type Running } from "../support/servers.js";

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("serve (in process): SDK client → Streamable HTTP route → upstream", () => {
  const dir = tempDir();
  const logFile = join(dir, "d.ndjson");
  let up: Running;
  let proxy: ProxyServer;
  let base: string;
  let log: DecisionLog;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    const guardian = new EmbeddedGuardian(loadRulesOrThrow(ACCEPTANCE_RULES), {});
    log = DecisionLog.open({ dest: logFile, stderr: process.stderr });
    const runtime = (name: string, upstream: ReturnType<typeof stdioUpstream>) => ({ name, upstream, guardian, log, failMode: "closed" as const, maxFrameBytes: 16 << 20, stderr: process.stderr });
    proxy = createGuardServer({
      host: "127.0.0.1",
      agents: [],
      maxBodyBytes: 16 << 20,
      idleMs: 60_000,
      routes: [
        { path: "/mcp/http", runtime: runtime("http", streamableHttpUpstream({ url: up.url })), passthrough: up.url },
        { path: "/mcp/stdio", runtime: runtime("stdio", stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env })) },
      ],
    });
    await new Promise<void>((r) => proxy.server.listen(0, "127.0.0.1", r));
    const a = proxy.server.address() as { port: number };
    base = `http://127.0.0.1:${a.port}`;
  });
  afterAll(async () => {
    await proxy?.close();
    await up?.stop();
  });

  for (const route of ["http", "stdio"]) {
    it(`${route}: list, allow, deny, modify, sampling`, async () => {
      const client = new Client({ name: "t", version: "1" }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: "m", role: "assistant", content: { type: "text", text: "sampled-ok" } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/${route}`)));
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("echo");
      expect(text(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }))).toContain("5");
      const denied = await client.callTool({ name: "get-sum", arguments: { a: 150, b: 1 } });
      expect(denied.isError).toBe(true);
      expect(text(denied)).toContain("[rule deny-big-sum]");
      expect(text(await client.callTool({ name: "echo", arguments: { message: "my secret plan" } }))).toBe("Echo: my [hidden] plan");
      const s = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hello", maxTokens: 10 } });
      expect(text(s)).toContain("sampled-ok");
      await client.close();
    });
  }

  it("the log has the decisions", () => {
    log.flushSync();
    const lines = readLog(logFile);
    expect(lines.some((l) => l.decision === "deny" && l.route === "http")).toBe(true);
    expect(lines.some((l) => l.decision === "deny" && l.route === "stdio")).toBe(true);
  });
});
