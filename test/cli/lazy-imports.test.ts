import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, EVERYTHING, modulesInFile, ROOT, tempDir } from "../helpers.js";
import { stopChild, waitFor } from "../support/servers.js";

// Each command loads only what it uses (docs/benchmarks.md, start-up). Checked by what the process loads, recorded by a
// module hook (test/support/record-modules.mjs), never by timing.

const run = promisify(execFile);
const RECORDER = join(ROOT, "test", "support", "record-modules.mjs");
const dir = tempDir("guardwire-lazy-");
let serial = 0;
const recordFile = () => join(dir, `modules-${++serial}.txt`);
const recorded = (file: string) => new Set(readFileSync(file, "utf8").split("\n").filter((l) => l.startsWith("file:")).map((u) => fileURLToPath(u)));

/** The npm packages among the loaded modules (a scoped package with its scope), and guardwire's own files (dist/…). */
function loaded(file: string): { packages: Set<string>; own: Set<string> } {
  const packages = new Set<string>();
  const own = new Set<string>();
  for (const path of [...recorded(file)].flatMap(modulesInFile)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (m) packages.add(m[1] as string);
    else if (path.startsWith(join(ROOT, "dist"))) own.add(relative(ROOT, path));
  }
  return { packages, own };
}

// The libraries that cost the most to load (tens to hundreds of ms of CPU each here), and the detectors' grammar.
const HEAVY = ["@modelcontextprotocol/sdk", "express", "hono", "ajv", "jose", "prom-client", "ioredis", "undici", "ws", "zod", "yaml", "diff", "web-tree-sitter", "tree-sitter-bash", "htmlparser2", "@marcbachmann/cel-js", "re2js", "jsonpath-rfc9535", "unhomoglyph"];
const heavyIn = (packages: Set<string>) => [...packages].filter((p) => HEAVY.includes(p) || p.startsWith("@opentelemetry/"));

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string; file: string }> {
  const file = recordFile();
  writeFileSync(file, "");
  try {
    const r = await run(process.execPath, ["--import", RECORDER, CLI, ...args], { env: { ...process.env, ...env, GUARDWIRE_RECORD_MODULES: file } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr, file };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr, file };
  }
}

describe("commands load what they use", () => {
  it("the recorder sees packages and guardwire's own files (commander for --help)", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    const { packages, own } = loaded(r.file);
    expect(packages.has("commander")).toBe(true);
    expect(own.has(join("dist", "cli", "program.js"))).toBe(true);
  });

  for (const flag of ["--version", "-V"]) {
    it(`guardwire ${flag} loads main.js alone, and prints the version as the command line does`, async () => {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n");
      const { packages, own } = loaded(r.file);
      expect([...packages]).toEqual([]);
      expect([...own]).toEqual([join("dist", "cli", "main.js")]);
    });
  }

  it("--version with anything after it goes to the command line, which answers as it always has", async () => {
    const r = await cli(["--version", "--bogus"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n");
    expect(loaded(r.file).own.has(join("dist", "cli", "program.js"))).toBe(true);
  });

  for (const args of [["--help"], ["approvals", "--help"], ["sessions", "--help"], ["tail", "--help"], ["verify", "--help"], ["wrap", "--help"], ["serve", "--help"], ["scan", "--help"]]) {
    it(`guardwire ${args.join(" ")} loads none of the heavy libraries, nor any command's code`, async () => {
      const r = await cli(args);
      expect(r.code).toBe(0);
      const { packages, own } = loaded(r.file);
      expect([...packages]).toEqual(["commander"]);
      // The command line and the few small modules its options need; no command's implementation.
      expect([...own].filter((f) => !/^dist[\\/](cli[\\/](main|program|options)|errors|defaults|package-files|install[\\/]client-names)\.js$/.test(f))).toEqual([]);
    });
  }

  it("guardwire verify reads a log with no library beyond commander", async () => {
    const log = join(dir, "empty.ndjson");
    writeFileSync(log, "");
    const r = await cli(["verify", log]);
    expect(heavyIn(loaded(r.file).packages)).toEqual([]);
  });

  it("guardwire check loads the rule engine, and nothing of the proxy, the transports or the protocol SDKs", async () => {
    const r = await cli(["check"]);
    expect(r.code, r.stderr).toBe(0);
    const { packages, own } = loaded(r.file);
    expect(own.has(join("dist", "guardian", "rules", "compile.js"))).toBe(true);
    // The shipped pack was parsed and validated by the build (dist/packs/): no YAML parser for it.
    expect(packages.has("yaml")).toBe(false);
    expect(heavyIn(packages).filter((p) => !["zod", "yaml", "@marcbachmann/cel-js", "re2js", "jsonpath-rfc9535", "web-tree-sitter", "htmlparser2", "unhomoglyph"].includes(p))).toEqual([]);
    expect([...own].filter((f) => /^dist[\\/](proxy|transports|admin)[\\/]/.test(f))).toEqual([]);
  });

  it("wrap without --admin, alerts or tracing: no HTTP client or server library, no admin API, no metrics, no store", async () => {
    const file = recordFile();
    writeFileSync(file, "");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", RECORDER, CLI, "wrap", "--pins", join(dir, "pins.json"), "--log", join(dir, "wrap.ndjson"), "--", process.execPath, EVERYTHING, "stdio"],
      env: { ...process.env, GUARDWIRE_RECORD_MODULES: file } as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "lazy-imports", version: "1.0.0" });
    await client.connect(transport);
    const res = (await client.callTool({ name: "echo", arguments: { message: "hello" } })) as { content: { text: string }[] };
    expect(res.content[0]?.text).toBe("Echo: hello");
    await client.close();
    const { packages, own } = loaded(file);
    // It judged the call: the rule engine and the detectors are there.
    expect(own.has(join("dist", "guardian", "embedded.js"))).toBe(true);
    expect(packages.has("web-tree-sitter")).toBe(true);
    expect(heavyIn(packages).filter((p) => ["@modelcontextprotocol/sdk", "express", "hono", "ajv", "jose", "prom-client", "ioredis", "undici", "ws", "diff"].includes(p) || p.startsWith("@opentelemetry/"))).toEqual([]);
    expect([...own].filter((f) => /^dist[\\/](admin[\\/](server|console|playground-api|openapi)|observe[\\/](metrics|tracing)|store[\\/]redis|scan[\\/])/.test(f))).toEqual([]);
  });

  describe("serve, and the commands that talk to its admin API", () => {
    const adminFile = join(dir, "admin.json");
    const serveModules = recordFile();
    let serve: ChildProcess;

    beforeAll(async () => {
      const config = join(dir, "serve.yaml");
      writeFileSync(
        config,
        [
          "listen: { host: 127.0.0.1, port: 0 }",
          `log: ${join(dir, "serve.ndjson")}`,
          "admin: { listen: 127.0.0.1:0 }",
          "routes:",
          "  - name: everything",
          "    path: /mcp/everything",
          `    mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }`,
        ].join("\n"),
      );
      writeFileSync(serveModules, "");
      serve = spawn(process.execPath, ["--import", RECORDER, CLI, "serve", "--config", config, "--pins", join(dir, "serve-pins.json")], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile, GUARDWIRE_RECORD_MODULES: serveModules },
      });
      await waitFor(serve, /serving http:\/\//);
    });
    afterAll(async () => {
      if (serve) await stopChild(serve);
    });

    it("serve with the admin API loads no protocol SDK, web framework, tracing or Redis client", () => {
      const { packages, own } = loaded(serveModules);
      expect(own.has(join("dist", "admin", "server.js"))).toBe(true);
      expect([...packages].filter((p) => ["@modelcontextprotocol/sdk", "express", "hono", "ajv", "jose", "ioredis"].includes(p) || p.startsWith("@opentelemetry/"))).toEqual([]);
    });

    for (const command of ["approvals", "sessions"]) {
      it(`guardwire ${command} (list, through serve's admin API) loads nothing beyond commander`, async () => {
        const r = await cli([command, "--json"], { GUARDWIRE_ADMIN_FILE: adminFile });
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toBeTypeOf("object");
        expect([...loaded(r.file).packages]).toEqual(["commander"]);
      });
    }
  });
});
