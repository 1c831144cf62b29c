import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedGuardian, buildAosRequest, loadRules, readRuleSources } from "../../dist/index.js";
import { CLI, readLog, ROOT, tempDir } from "../helpers.js";
import { stopChild, waitFor } from "../support/servers.js";

/* Docs that were wrong as written (issue 26), run as a reader would run them. */

const AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs");
const KEY = "k-orchestrator-0123456789";

describe("docs/a2a.md: the keyed caller snippet, with the A2A SDK through guardwire serve", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  let agent: ChildProcess;
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = (await waitFor(agent, /listening (\d+)/)).match[1];
    const config = join(dir, "guardwire.yaml");
    // The doc's config, with the remote agent here and a free port.
    writeFileSync(config, ["listen: { host: 127.0.0.1, port: 0 }", `log: ${log}`, 'agents: [{ id: orchestrator, key: "${GUARDWIRE_KEY}" }]', "routes:", "  - name: travel", "    path: /a2a/travel", `    a2a: { url: "http://127.0.0.1:${port}" }`].join("\n"));
    serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { env: { ...process.env, GUARDWIRE_KEY: KEY }, stdio: ["ignore", "pipe", "pipe"] });
    base = (await waitFor(serve, /serving (http:\/\/\S+)/)).match[1] as string;
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
  });

  /** The doc's snippet as written, with the SDK under its name here (0.3) and this serve's address. */
  const snippet = () => {
    const doc = readFileSync(join(ROOT, "docs", "a2a.md"), "utf8");
    const code = /```js\n(\/\/ caller\.mjs[\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    return (code as string).replace('"@a2a-js/sdk/client"', '"a2a-sdk-03/client"').replace("http://127.0.0.1:7070/a2a/travel/", `${base}/a2a/travel/`);
  };
  const run = (key: string | undefined) =>
    spawnSync(process.execPath, ["--input-type=module", "-e", snippet()], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, GUARDWIRE_KEY: key } });

  it("with the key: the card and the message go through, and the log names the caller", async () => {
    const r = run(KEY);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^message .*Find a flight to Lisbon/);
    await expect.poll(() => readLog(log).some((l) => l.agent === "orchestrator" && l.method === "message/send" && l.decision === "allow"), { timeout: 10_000 }).toBe(true);
  });

  it("with a wrong key: refused (401), nothing reaches the agent", () => {
    const r = run("k-wrong-wrong-wrong-wrong");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/401/);
  });
});

describe("README: AWS's documented example key passes by design; a key of the same shape does not", () => {
  it("with the default pack, AKIAIOSFODNN7EXAMPLE is allowed out, the demo's key is denied", () => {
    const { ruleSet } = loadRules(readRuleSources("balanced"));
    const guardian = new EmbeddedGuardian(ruleSet as NonNullable<typeof ruleSet>);
    const send = (key: string) => {
      const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "send_email", arguments: { to: "ops@example.com", body: `use ${key} for the upload` } } };
      const answer = guardian.call(buildAosRequest("protocols/MCP", message, { direction: "outbound" }));
      return "result" in answer ? answer.result.decision : "error";
    };
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("AKIAIOSFODNN7EXAMPLE");
    expect(send("AKIAIOSFODNN7EXAMPLE")).toBe("allow");
    expect(send("AKIA4QWERTYUIOP2ZXCV")).toBe("deny");
  });
});
