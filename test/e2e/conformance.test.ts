import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, readLog, tempDir } from "../helpers.js";
import { CONFORMANCE_SERVER, runConformance, type ScenarioResult } from "../support/conformance-suite.js";
import { stopChild, waitFor } from "../support/servers.js";

/**
 * The official MCP conformance suite (0.1.13), run against an upstream offering its "everything server" surface,
 * directly and through a `guardwire serve` route with the default rules: every scenario that passes directly must pass
 * through the proxy.
 */
describe("MCP conformance suite through guardwire serve", () => {
  const dir = tempDir();
  let upstream: ChildProcess;
  let serve: ChildProcess;
  let direct: Map<string, ScenarioResult>;
  let proxied: Map<string, ScenarioResult>;

  beforeAll(async () => {
    upstream = spawn(process.execPath, [CONFORMANCE_SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = (await waitFor(upstream, /listening (\d+)/)).match[1];
    const config = join(dir, "guardwire.yaml");
    writeFileSync(config, ["listen: { host: 127.0.0.1, port: 0 }", `log: ${join(dir, "decisions.ndjson")}`, "routes:", "  - name: everything", "    path: /mcp/everything", `    mcp: { url: "http://127.0.0.1:${port}/mcp" }`].join("\n"));
    serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
    const base = (await waitFor(serve, /serving http:\/\/127\.0\.0\.1:(\d+)/)).match[1];
    // The suite reaches both as localhost, the name its DNS-rebinding scenario treats as the valid one.
    [direct, proxied] = await Promise.all([runConformance(`http://localhost:${port}/mcp`), runConformance(`http://localhost:${base}/mcp/everything`)]);
  }, 300_000);
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (upstream) await stopChild(upstream);
  });

  it("the upstream passes the suite directly (so the comparison means something)", () => {
    const table = [...direct].map(([name, r]) => `${r.passed ? "pass" : "FAIL"}  ${name} (${r.checks} checks)${r.failures.length ? ` ${r.failures.join("; ")}` : ""}`);
    console.log(`conformance, direct:\n${table.join("\n")}`);
    expect(direct.size).toBeGreaterThanOrEqual(30);
    expect([...direct.values()].filter((r) => r.passed).length).toBeGreaterThanOrEqual(30);
  });

  it("every scenario that passes directly passes through the proxy", () => {
    const regressions = [...direct].filter(([name, r]) => r.passed && !proxied.get(name)?.passed).map(([name]) => `${name}: ${proxied.get(name)?.failures.join("; ") ?? "not run"}`);
    console.log(`conformance, through guardwire: ${[...proxied.values()].filter((r) => r.passed).length}/${proxied.size} scenarios pass`);
    expect(regressions).toEqual([]);
    // And it did go through the guardian: every scenario's calls are in the decision log.
    const calls = readLog(join(dir, "decisions.ndjson")).filter((l) => l.method === "tools/call" && l.direction === "outbound");
    expect(calls.length).toBeGreaterThanOrEqual(10);
  });
});
