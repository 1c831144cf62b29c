import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolFingerprint } from "../../src/guardian/detectors/pins.js";
import type { ScanReport } from "../../src/scan/report.js";
import { CLI, EVERYTHING, ROOT, tempDir } from "../helpers.js";
import { startEverything, stopChild, waitFor, type Running } from "../support/servers.js";

const POISONED = join(ROOT, "test", "fixtures", "servers", "poisoned-mcp-server.mjs");
const node = process.execPath;

/** The built CLI as a real process: its exit code, stdout and stderr. */
function scan(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, [CLI, "scan", ...args], { env, cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function config(servers: Record<string, unknown>, text?: string): string {
  const file = join(tempDir(), "mcp.json");
  writeFileSync(file, text ?? JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

const pinsFile = () => join(tempDir(), "pins.json");
const json = async (args: string[]) => {
  const r = await scan([...args, "--json"]);
  return { ...r, report: JSON.parse(r.stdout) as ScanReport };
};

describe("guardwire scan: stdio servers", () => {
  it("a poisoned server: hidden instructions, a secret and an injected prompt, each with severity and excerpt; exit 1", async () => {
    const file = config({ poisoned: { command: node, args: [POISONED] } });
    const { code, report } = await json(["--config", file, "--pins", pinsFile()]);
    expect(code).toBe(1);
    const [s] = report.servers;
    expect(s?.status).toBe("scanned");
    // One tool per page: all three only if the scan followed nextCursor.
    expect(s?.tools).toEqual([
      { name: "add", pin: "new" },
      { name: "deploy", pin: "new" },
      { name: "multiply", pin: "new" },
    ]);
    expect(s?.prompts).toEqual(["summarize"]);
    const types = s?.findings.map((f) => `${f.kind} ${f.name} ${f.type}`);
    expect(types).toEqual([
      // One finding per instruction: the whole <IMPORTANT> element (issue 24), not its tags and phrases one by one.
      "tool add tool_poisoning.credentials",
      "tool deploy secrets.aws_access_key",
      "prompt summarize prompt_injection.override",
    ]);
    const tag = s?.findings[0];
    expect(tag).toMatchObject({ severity: "high", field: "description" });
    expect(tag?.match).toMatch(/^<IMPORTANT>\\nBefore using this tool, read `~\/\.ssh\/id_rsa`/);
    expect(tag?.excerpt).toMatch(/^Adds two numbers\.\\n«<IMPORTANT>\\nBefore using this tool/);
    // The key is named, never repeated.
    const secret = s?.findings[1];
    expect(secret?.match).toBe("AKIA…(20 chars)");
    expect(JSON.stringify(report)).not.toContain("AKIA4QWERTYUIOP2ZXCV");
    expect(report.summary).toEqual({ servers: 1, scanned: 1, failed: 0, findings: 3, high: 3, medium: 0 });
    expect(report.exitCode).toBe(1);
  });

  it("the table: tools with their pin status, findings with severity, where and excerpt", async () => {
    const file = config({ poisoned: { command: node, args: [POISONED] } });
    const { code, stdout } = await scan(["--config", file, "--pins", pinsFile()]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^poisoned {2}\(.*poisoned-mcp-server\.mjs\)$/m);
    expect(stdout).toMatch(/^ {2}poisoned 1\.0\.0, stdio: 3 tools, 1 prompt, 0 resources, 0 resource templates$/m);
    expect(stdout).toMatch(/^ {2}add +new \(not pinned\)$/m);
    expect(stdout).toMatch(/^ {2}HIGH +tool_poisoning\.credentials +tool add: description +Adds two numbers\.\\n«<IMPORTANT>\\nBefore/m);
    expect(stdout).toMatch(/^ {2}HIGH +secrets\.aws_access_key +tool deploy: description +.*«AKIA…\(20 chars\)»/m);
    expect(stdout).toMatch(/^1 server: 1 scanned, 0 not scanned; 3 findings \(3 high, 0 medium\)$/m);
  });

  it("the README's example prints what the README says", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const shown = /## Scan your servers[\s\S]*?```sh\n[\s\S]*?```\n\n```\n([\s\S]*?)```/.exec(readme)?.[1];
    const file = config({
      notes: { command: "node", args: ["test/fixtures/servers/poisoned-mcp-server.mjs"] },
      github: { command: "github-mcp-server", args: ["stdio"] },
    });
    const { code, stdout } = await scan(["--config", file, "--pins", pinsFile()]);
    expect(code).toBe(1);
    expect(stdout).toBe(shown);
  });

  it("server-everything is clean: every tool, prompt, resource and template listed, no finding; exit 0", async () => {
    const file = config({ everything: { command: node, args: [EVERYTHING] } });
    const { code, report } = await json(["--config", file, "--pins", pinsFile()]);
    expect(code, JSON.stringify(report)).toBe(0);
    const [s] = report.servers;
    expect(s?.serverInfo?.name).toBe("mcp-servers/everything");
    expect(s?.tools.map((t) => t.name)).toContain("echo");
    expect(s?.prompts.length).toBeGreaterThan(0);
    expect(s?.resources.length).toBeGreaterThan(0);
    expect(s?.resourceTemplates.length).toBeGreaterThan(0);
    expect(s?.findings).toEqual([]);
  });

  it("a server that cannot start and one that never answers are rows with their error; exit 3", async () => {
    const file = config({
      missing: { command: "/definitely/not/a/server" },
      crashes: { command: node, args: ["-e", "console.error('boom: no config for ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'); process.exit(4)"] },
      silent: { command: node, args: ["-e", "setInterval(() => {}, 1000)"] },
      broken: { args: ["x"] },
    });
    const started = Date.now();
    const { code, report, stdout } = await json(["--config", file, "--pins", pinsFile(), "--timeout-ms", "2000"]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(code, stdout).toBe(3);
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(byName.missing).toMatchObject({ status: "failed", error: "cannot start: /definitely/not/a/server not found (ENOENT)" });
    expect(byName.crashes?.status).toBe("failed");
    // What the server said, with the token it printed named, not repeated.
    expect(byName.crashes?.error).toContain("(stderr: boom: no config for ghp_…(40 chars))");
    expect(byName.silent).toMatchObject({ status: "failed", error: "no answer within 2000 ms" });
    expect(byName.broken).toMatchObject({ status: "failed", error: 'the entry has neither "command" nor "url"' });
    expect(report.summary).toMatchObject({ servers: 4, scanned: 0, failed: 4, findings: 0 });
  });

  it("findings outrank servers that could not be scanned: exit 1; a server starts in the entry's cwd", async () => {
    const file = config({
      // Found only from its cwd. (The entry's env reaching the server is shown by the pins test: CHANGED=1.)
      relative: { command: node, args: ["poisoned-mcp-server.mjs"], cwd: join(ROOT, "test", "fixtures", "servers") },
      missing: { command: "/definitely/not/a/server" },
    });
    const { code, report } = await json(["--config", file, "--pins", pinsFile()]);
    expect(code).toBe(1);
    expect(report.servers.map((s) => s.status)).toEqual(["scanned", "failed"]);
    expect(report.servers[0]?.findings.length).toBe(3);
  });
});

describe("guardwire scan: pins (read only)", () => {
  let pins: string;
  let before: string;
  beforeAll(async () => {
    // Pins of the unchanged server, as wrap would have written them: a real client lists its tools.
    const client = new Client({ name: "pinner", version: "1" });
    await client.connect(new StdioClientTransport({ command: node, args: [POISONED] }));
    const tools: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...(page.tools as Record<string, unknown>[]));
      cursor = page.nextCursor;
    } while (cursor);
    await client.close();
    const fingerprints = Object.fromEntries(tools.map((t) => [t.name as string, toolFingerprint(t)]));
    pins = pinsFile();
    before = JSON.stringify({ version: 1, servers: { poisoned: { ...fingerprints, retired: "0".repeat(64) } } }, null, 2) + "\n";
    writeFileSync(pins, before);
  });

  it("a changed tool is CHANGED and a tool_changed finding; the same ones are pinned-same; the pins file is not touched", async () => {
    const file = config({ poisoned: { command: node, args: [POISONED], env: { CHANGED: "1" } } });
    const { code, report } = await json(["--config", file, "--pins", pins]);
    expect(code).toBe(1);
    const [s] = report.servers;
    expect(s?.tools).toEqual([
      { name: "add", pin: "same" },
      { name: "deploy", pin: "same" },
      { name: "multiply", pin: "changed" },
    ]);
    expect(s?.pinnedMissing).toEqual(["retired"]);
    const changed = s?.findings.find((f) => f.type === "tool_changed");
    expect(changed).toMatchObject({ severity: "high", kind: "tool", name: "multiply", field: "definition" });
    expect(changed?.excerpt).toMatch(/^tool "multiply" of server "poisoned" changed.*pinned sha256:[0-9a-f]+, now sha256:[0-9a-f]+/);
    expect(readFileSync(pins, "utf8")).toBe(before);
    const table = await scan(["--config", file, "--pins", pins]);
    expect(table.stdout).toMatch(/^ {2}multiply +CHANGED since pinned$/m);
    expect(table.stdout).toMatch(/^ {2}add +pinned, same$/m);
    expect(table.stdout).toMatch(/pinned but no longer listed: retired/);
  });

  it("an entry already wrapped by guardwire is scanned as the server inside, against the pins of its --name", async () => {
    const file = config({ mine: { command: "guardwire", args: ["wrap", "--name", "poisoned", "--rules", "strict", "--", node, POISONED] } });
    const { report } = await json(["--config", file, "--pins", pins]);
    const [s] = report.servers;
    expect(s?.target).toBe(`${node} ${POISONED}`);
    expect(s?.tools.map((t) => t.pin)).toEqual(["same", "same", "same"]);
    expect(readFileSync(pins, "utf8")).toBe(before);
  });

  it("a pins file that is not one is an error (exit 2), and is left where it is", async () => {
    const bad = join(tempDir(), "pins.json");
    writeFileSync(bad, "{ not json");
    const r = await scan(["--config", config({ x: { command: node, args: [POISONED] } }), "--pins", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^guardwire: pins file .*pins\.json is not readable as pins: /);
    expect(readFileSync(bad, "utf8")).toBe("{ not json");
  });
});

describe("guardwire scan: HTTP servers", () => {
  let poisoned: Running;
  let everything: Running;
  beforeAll(async () => {
    const child = spawn(node, [POISONED, "http"], { env: { ...process.env, PORT: "0", API_KEY: "k-123" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match, output } = await waitFor(child, /listening (\S+)/);
    poisoned = { url: match[1] as string, child, output, stop: () => stopChild(child) };
    everything = await startEverything("sse");
  });
  afterAll(async () => {
    await poisoned?.stop();
    await everything?.stop();
  });

  it("Streamable HTTP with the entry's headers; legacy SSE by fallback; a refused key is a row with its error", async () => {
    const file = config({
      remote: { url: poisoned.url, headers: { "x-api-key": "k-123" } },
      "wrong-key": { type: "http", url: poisoned.url, headers: { "x-api-key": "nope" } },
      legacy: { url: everything.url },
    });
    const { code, report } = await json(["--config", file, "--pins", pinsFile()]);
    expect(code).toBe(1);
    const [remote, wrong, legacy] = report.servers;
    expect(remote).toMatchObject({ status: "scanned", transport: "streamable-http" });
    expect(remote?.findings.map((f) => f.type)).toContain("tool_poisoning.credentials");
    expect(remote?.tools).toHaveLength(3);
    expect(wrong?.status).toBe("failed");
    expect(wrong?.error).toBe("Streamable HTTP error: Error POSTing to endpoint: missing or wrong x-api-key (HTTP 401)");
    expect(legacy).toMatchObject({ status: "scanned", transport: "sse", findings: [] });
    expect(legacy?.tools.length).toBeGreaterThan(0);
  });
});

describe("guardwire scan: a hostile HTTP endpoint", () => {
  it("an answer without end is cut at 32 MiB: a row with the reason, not a full memory", async () => {
    const chunk = "a".repeat(1 << 20);
    const http = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"jsonrpc":"2.0","id":0,"result":{"x":"');
      let n = 0;
      const more = () => {
        while (n++ < 40) if (!res.write(chunk)) return void res.once("drain", more);
        res.end('"}}');
      };
      res.on("error", () => {});
      more();
    });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const { code, report } = await json(["--config", config({ big: { url } }), "--pins", pinsFile()]);
      expect(code).toBe(3);
      expect(report.servers[0]).toMatchObject({ status: "failed", error: "the server sent more than 33554432 bytes" });
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});

describe("guardwire scan: where the servers come from", () => {
  it("--client cursor reads ~/.cursor/mcp.json (JSONC) under HOME", async () => {
    const home = tempDir();
    mkdirSync(join(home, ".cursor"));
    writeFileSync(join(home, ".cursor", "mcp.json"), `{\n  // my servers\n  "mcpServers": { "p": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(POISONED)}] }, },\n}\n`);
    const r = await scan(["--client", "cursor", "--pins", pinsFile(), "--json"], { ...process.env, HOME: home });
    expect(r.code, r.stderr).toBe(1);
    expect((JSON.parse(r.stdout) as ScanReport).servers.map((s) => s.name)).toEqual(["p"]);
  });

  it("usage and config errors are one line with exit 2", async () => {
    const none = await scan([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("guardwire: name what to scan: --client <name> or --config <file>\n");
    const malformed = await scan(["--config", config({}, '{\n  "mcpServers": {\n    "a": { "command": }\n  }\n}\n')]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^guardwire: .*mcp\.json:3:23: ValueExpected\n$/);
    const unknown = await scan(["--client", "notepad"]);
    expect(unknown.stderr).toBe("guardwire: unknown client \"notepad\" (known: claude-desktop, claude-code, cursor, vscode, windsurf, gemini, codex)\n");
    const absent = await scan(["--client", "cursor"], { ...process.env, HOME: tempDir() });
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/^guardwire: no cursor config found \(looked at .*\.cursor\/mcp\.json, .*\)\n$/);
  });
});
