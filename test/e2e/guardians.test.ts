import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type Server } from "node:http";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { ChainGuardian } from "../../src/guardian/chain.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { RemoteGuardian } from "../../src/guardian/remote.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import { ACCEPTANCE_RULES, CLI, connectWrapped, EVERYTHING, readLog, tempDir } from "../helpers.js";

const sumCall = (a: number, id = 3) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get-sum", arguments: { a, b: 1 } } });

/** `guardwire guardian --port 0`-style: a real guardian process on a loopback port. */
async function startGuardianProcess(args: string[]): Promise<{ url: string; proc: ChildProcessWithoutNullStreams }> {
  const proc = spawn(process.execPath, [CLI, "guardian", "--host", "127.0.0.1", ...args], { stdio: "pipe" });
  const [line] = (await once(createInterface({ input: proc.stderr }), "line")) as [string];
  const m = /listening on (http:\/\/\S+)/.exec(line);
  if (!m) throw new Error(`unexpected: ${line}`);
  return { url: m[1] as string, proc };
}

/** A guardian that misbehaves on purpose: what a broken remote guardian looks like on the wire. */
async function startBrokenGuardian(behaviour: "hang" | "garbage" | "change-id" | "http-500"): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const aos = JSON.parse(body) as { id: number; method: string; params: { message: Record<string, unknown> } };
      if (behaviour === "hang") return;
      if (behaviour === "http-500") return void res.writeHead(500).end("oops");
      if (behaviour === "garbage") return void res.writeHead(200, { "content-type": "application/json" }).end("<html>not json</html>");
      const changed = { ...aos.params.message, id: 999 };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ jsonrpc: "2.0", id: aos.id, result: { decision: "modify", message: "m", modifiedRequest: { jsonrpc: "2.0", id: aos.id, method: aos.method, params: { message: changed } } } }),
      );
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const a = server.address() as { port: number };
  return { url: `http://127.0.0.1:${a.port}/`, server };
}

describe("guardwire guardian --port: the embedded guardian as an AOS endpoint", () => {
  let g: { url: string; proc: ChildProcessWithoutNullStreams };
  beforeAll(async () => {
    g = await startGuardianProcess(["--port", "0", "--rules", ACCEPTANCE_RULES]);
  });
  afterAll(() => g?.proc.kill());

  it("answers protocols/MCP, ping, steps and describe over HTTP", async () => {
    const post = async (body: unknown) => (await fetch(g.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
    expect(await post(buildAosRequest("protocols/MCP", sumCall(500), { direction: "outbound" }))).toMatchObject({ result: { decision: "deny", data: { rules: ["deny-big-sum"] } } });
    expect(await post({ jsonrpc: "2.0", id: 2, method: "ping", params: { timestamp: new Date().toISOString() } })).toMatchObject({ result: { status: "connected", version: "0.1.0" } });
    expect(await post({ jsonrpc: "2.0", id: 3, method: "steps/message", params: { context: {}, message: { id: "m", role: "user", content: [] }, citation: [] } })).toMatchObject({ result: { decision: "allow" } });
    expect(await post({ jsonrpc: "2.0", id: 4, method: "describe" })).toMatchObject({ result: { name: "guardwire", aos: "0.1.0", methods: expect.arrayContaining(["protocols/MCP", "steps/toolCallRequest"]) } });
    expect((await fetch(g.url, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).status).toBe(415);
    expect(await (await fetch(g.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" })).json()).toMatchObject({ error: { code: -32700 } });
  });

  it("is usable as a remote guardian, alone or in a chain after the embedded one", async () => {
    const remote = new RemoteGuardian({ url: g.url, timeoutMs: 2000 });
    const msg = sumCall(500);
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound" });
    expect(readVerdict(req, await remote.call(req), msg)).toMatchObject({ action: "block", rules: ["deny-big-sum"] });

    const { ruleSet } = loadRules([{ file: "m.yaml", text: "name: m\nrules:\n  - { id: bump, match: { tool: get-sum }, decision: modify, modify: [{ set: '$.params.arguments.a', value: 150 }] }\n" }]);
    const chain = new ChainGuardian([new EmbeddedGuardian(ruleSet!), remote]);
    const small = sumCall(1);
    const r2 = buildAosRequest("protocols/MCP", small, { direction: "outbound" });
    // The embedded guardian raises a to 150; the remote one then denies what it is handed: the most restrictive wins.
    expect(readVerdict(r2, await chain.call(r2), small)).toMatchObject({ action: "block", rules: ["bump", "deny-big-sum"] });
  });

  it("adds little latency on loopback (sanity bound; the figure is in the benchmark)", async () => {
    const remote = new RemoteGuardian({ url: g.url });
    const req = buildAosRequest("protocols/MCP", sumCall(1), { direction: "outbound" });
    for (let i = 0; i < 20; i++) await remote.call(req);
    const t = performance.now();
    for (let i = 0; i < 50; i++) await remote.call(req);
    expect((performance.now() - t) / 50).toBeLessThan(50);
  });
});

describe("a remote guardian that misbehaves is treated as failed (fail closed, -32051)", () => {
  for (const behaviour of ["hang", "garbage", "change-id", "http-500"] as const) {
    it(behaviour, async () => {
      const { url, server } = await startBrokenGuardian(behaviour);
      try {
        const dir = tempDir();
        const log = join(dir, "d.ndjson");
        const w = await connectWrapped(["--rules", ACCEPTANCE_RULES, "--log", log, "--guardian", url, "--guardian-timeout-ms", "300"], [process.execPath, EVERYTHING, "stdio"]).catch((e: Error) => e);
        // initialize itself is judged by the chain, so a broken guardian refuses the session from the start.
        expect(w).toBeInstanceOf(Error);
        expect(String((w as Error).message)).toMatch(/-32051|Guardian unavailable/);
        await expect.poll(() => readLog(log).map((l) => l.reasonCode), { timeout: 3000 }).toContainEqual(["GUARDIAN_UNAVAILABLE"]);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  }
});

describe("guardwire guardian --stdio", () => {
  it("announces readiness, then answers AOS over NDJSON in order", async () => {
    const proc = spawn(process.execPath, [CLI, "guardian", "--stdio", "--rules", ACCEPTANCE_RULES], { stdio: "pipe" });
    const lines = createInterface({ input: proc.stdout });
    const got: unknown[] = [];
    lines.on("line", (l) => got.push(JSON.parse(l)));
    proc.stdin.write(JSON.stringify(buildAosRequest("protocols/MCP", sumCall(500), { direction: "outbound" })) + "\n");
    proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: "d", method: "describe" }) + "\n");
    proc.stdin.write("garbage\n");
    proc.stdin.end();
    await once(proc, "exit");
    expect(got[0]).toMatchObject({ jsonrpc: "2.0", method: "ready", params: { name: "guardwire", methods: expect.arrayContaining(["describe"]) } });
    expect(got[1]).toMatchObject({ result: { decision: "deny" } });
    expect(got[2]).toMatchObject({ id: "d", result: { ruleset: { name: "acceptance", rules: 3 } } });
    expect(got[3]).toMatchObject({ id: null, error: { code: -32700 } });
  });
});

describe("hot reload in wrap", () => {
  it("swaps valid rules in, keeps the old ones on an invalid edit, and logs the rule-set hash per decision", async () => {
    const dir = tempDir();
    const rules = join(dir, "rules.yaml");
    const log = join(dir, "d.ndjson");
    const version = (limit: number) => `name: live\nrules:\n  - { id: cap, match: { direction: outbound, tool: get-sum }, when: 'args.a > ${limit}', decision: deny }\n`;
    writeFileSync(rules, version(100));
    const w = await connectWrapped(["--rules", rules, "--log", log], [process.execPath, EVERYTHING, "stdio"]);
    try {
      const sum = async (a: number) => (await w.client.callTool({ name: "get-sum", arguments: { a, b: 0 } })).isError === true;
      expect(await sum(50)).toBe(false);
      writeFileSync(rules, version(10));
      await expect.poll(() => w.stderr(), { timeout: 5000 }).toContain("rules reloaded");
      expect(await sum(50)).toBe(true);
      writeFileSync(rules, "name: live\nrules:\n  - { id: cap, decision: perhaps }\n");
      await expect.poll(() => w.stderr(), { timeout: 5000 }).toContain("rules NOT reloaded");
      expect(w.stderr()).toContain("rules[0].decision");
      expect(await sum(50)).toBe(true);
    } finally {
      await w.client.close();
    }
    await expect.poll(() => new Set(readLog(log).filter((l) => l.tool === "get-sum" && l.kind === "request").map((l) => l.ruleset)).size, { timeout: 3000 }).toBe(2);
  });
});
