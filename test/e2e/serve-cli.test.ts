import { execFile, spawnSync, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ACCEPTANCE_RULES, CLI, readLog, ROOT, tempDir } from "../helpers.js";
import { startServeCli, stopChild } from "../support/servers.js";

const INSPECTOR = join(ROOT, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js");
const run = promisify(execFile);

describe("guardwire serve (the CLI)", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    ({ child: serve, base } = await startServeCli(dir, { rules: ACCEPTANCE_RULES, log }));
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
  });

  it("an SDK client works through the route, blocks included", async () => {
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
    const r = await client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 } });
    expect(r.isError).toBe(true);
    await client.close();
  });

  it("mcp-inspector-cli lists tools and calls one through the route", async () => {
    // inspector-cli 1.0.3 finds its own package.json by testing "../package.json" against the working directory: run it
    // from a directory whose parent has one, or it fails before connecting.
    const cwd = join(ROOT, "test");
    const list = await run(process.execPath, [INSPECTOR, `${base}/mcp/everything`, "--transport", "http", "--method", "tools/list"], { cwd });
    expect(JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name)).toContain("get-sum");
    const call = await run(process.execPath, [INSPECTOR, `${base}/mcp/everything`, "--transport", "http", "--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=500", "b=1"], { cwd });
    expect(call.stdout).toContain("sums over 100 are not allowed");
  });

  it("SIGTERM stops it cleanly and the decision log verifies", async () => {
    await stopChild(serve);
    expect(serve.exitCode).toBe(0);
    expect(readLog(log).some((l) => l.decision === "deny" && l.transport === "streamable-http")).toBe(true);
    const v = spawnSync(process.execPath, [CLI, "verify", log], { encoding: "utf8" });
    expect(v.status).toBe(0);
  });

  it("a bad config is refused at start with file, line and key", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, ["listen: { host: 0.0.0.0, port: 7070 }", "routes:", "  - name: x", "    path: nope", "    mcp: { url: ftp://x }"].join("\n"));
    const r = spawnSync(process.execPath, [CLI, "serve", "--config", bad], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:4:\d+: routes\[0\]\.path/);
    expect(r.stderr).toMatch(/bad\.yaml:5:\d+: routes\[0\]\.mcp/);
    expect(r.stderr).toMatch(/bad\.yaml:1:\d+: listen\.host: .*without agent keys/);
  });
});
