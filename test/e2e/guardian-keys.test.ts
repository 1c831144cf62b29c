import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { ACCEPTANCE_RULES, CLI, readLog, tempDir } from "../helpers.js";

const FILE_KEY = "file-key-0123456789abcdef";
const ENV_KEY = "env-key-0123456789abcdef";
const sumCall = (a: number) => buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get-sum", arguments: { a, b: 1 } } }, { direction: "outbound" });

async function start(args: string[], env: Record<string, string> = {}): Promise<{ url: string; proc: ChildProcessWithoutNullStreams; banner: string }> {
  const proc = spawn(process.execPath, [CLI, "guardian", "--pins", join(tempDir(), "pins.json"), "--rules", ACCEPTANCE_RULES, ...args], { stdio: "pipe", env: { ...process.env, ...env } });
  const [banner] = (await once(createInterface({ input: proc.stderr }), "line")) as [string];
  const m = /listening on http:\/\/[^:]+:(\d+)\//.exec(banner);
  if (!m) throw new Error(`unexpected: ${banner}`);
  return { url: `http://127.0.0.1:${m[1]}/`, proc, banner };
}

describe("guardwire guardian --port with keys and a decision log", () => {
  const dir = tempDir();
  const log = join(dir, "guardian.ndjson");
  const keyFile = join(dir, "keys");
  let g: Awaited<ReturnType<typeof start>>;
  const post = (body: unknown, headers: Record<string, string> = {}) => fetch(g.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    writeFileSync(keyFile, `# who may ask\nclaude ${FILE_KEY}\n\n`);
    // 0.0.0.0 is allowed because keys are given; the test still talks to it over loopback.
    g = await start(["--port", "0", "--host", "0.0.0.0", "--key-file", keyFile, "--log", log], { GUARDWIRE_GUARDIAN_KEYS: ENV_KEY });
  }, 30_000);
  afterAll(() => g?.proc.kill());

  it("says that keys are required", () => {
    expect(g.banner).toMatch(/\(2 keys\)$/);
  });

  it("answers 401 without a key or with a wrong one", async () => {
    const none = await post(sumCall(500));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post(sumCall(500), { authorization: `Bearer ${FILE_KEY}x` })).status).toBe(401);
    expect((await post(sumCall(500), { authorization: FILE_KEY })).status).toBe(401);
  });

  it("answers 200 with a key from the file (Bearer) or the environment (X-Guardwire-Key)", async () => {
    const fromFile = await post(sumCall(500), { authorization: `Bearer ${FILE_KEY}` });
    expect(fromFile.status).toBe(200);
    expect(await fromFile.json()).toMatchObject({ result: { decision: "deny", data: { rules: ["deny-big-sum"] } } });
    const fromEnv = await post(sumCall(5), { "x-guardwire-key": ENV_KEY });
    expect(fromEnv.status).toBe(200);
    expect(await fromEnv.json()).toMatchObject({ result: { decision: "allow" } });
  });

  it("writes each decision to a log that verifies", async () => {
    g.proc.kill("SIGTERM");
    await once(g.proc, "exit");
    const lines = readLog(log);
    expect(lines.map((l) => [l.agent, l.decision, l.tool, l.transport, l.session])).toEqual([
      ["claude", "deny", "get-sum", "aos-http", "aos:claude"],
      ["key-2", "allow", "get-sum", "aos-http", "aos:key-2"],
    ]);
    expect(lines[0]).toMatchObject({ protocol: "mcp", direction: "outbound", kind: "request", method: "tools/call", rules: ["deny-big-sum"], mode: "enforce" });
    const v = spawnSync(process.execPath, [CLI, "verify", log], { encoding: "utf8" });
    expect(v.stdout).toMatch(/^ok: 2 lines, chain intact/);
    expect(v.status).toBe(0);
  }, 30_000);
});

describe("guardwire guardian: the same refusals as serve", () => {
  it("refuses to listen beyond loopback without keys", () => {
    const r = spawnSync(process.execPath, [CLI, "guardian", "--port", "0", "--host", "0.0.0.0", "--pins", join(tempDir(), "pins.json")], { encoding: "utf8", env: { ...process.env, GUARDWIRE_GUARDIAN_KEYS: "" } });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^guardwire: listening on 0\.0\.0\.0 without keys is refused; give keys with --key-file <file> or GUARDWIRE_GUARDIAN_KEYS/)]);
  });

  it("refuses a key shorter than 16 characters", () => {
    const r = spawnSync(process.execPath, [CLI, "guardian", "--port", "0", "--pins", join(tempDir(), "pins.json")], { encoding: "utf8", env: { ...process.env, GUARDWIRE_GUARDIAN_KEYS: "short" } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^guardwire: GUARDWIRE_GUARDIAN_KEYS, entry 1: .*at least 16 characters\n$/);
  });

  it("loopback without keys is allowed, and says so", async () => {
    const g = await start(["--port", "0"], { GUARDWIRE_GUARDIAN_KEYS: "" });
    try {
      expect(g.banner).toMatch(/\(no keys, loopback only\)$/);
      const r = await fetch(g.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sumCall(5)) });
      expect(r.status).toBe(200);
    } finally {
      g.proc.kill();
    }
  }, 30_000);

  it("--stdio --log: decisions over NDJSON are logged too", async () => {
    const log = join(tempDir(), "stdio.ndjson");
    const r = spawnSync(process.execPath, [CLI, "guardian", "--stdio", "--log", log, "--rules", ACCEPTANCE_RULES, "--no-watch", "--pins", join(tempDir(), "pins.json")], {
      encoding: "utf8",
      input: JSON.stringify(sumCall(500)) + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping", params: { timestamp: new Date().toISOString() } }) + "\n",
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(3);
    // ping is not a decision: one line, for the tools/call.
    expect(readLog(log).map((l) => [l.transport, l.decision, l.session])).toEqual([["aos-stdio", "deny", "aos:stdio"]]);
    expect(spawnSync(process.execPath, [CLI, "verify", log]).status).toBe(0);
  }, 30_000);
});
