import { readAndLoadRules } from "../../src/cli/rules.js";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "../../src/config/load.js";
import { formatFileProblem } from "../../src/yaml.js";
import { ACCEPTANCE_RULES, CLI, EVERYTHING, readLog, ROOT, tempDir } from "../helpers.js";
import { stopChild, waitFor } from "../support/servers.js";

const route = (mcp: string) => ["routes:", "  - name: a", "    path: /a", `    mcp: ${mcp}`].join("\n") + "\n";

function problemsOf(text: string): string[] {
  const file = join(tempDir(), "guardwire.yaml");
  writeFileSync(file, text);
  return loadConfig(file, {}).problems.map((p) => formatFileProblem(p).slice(file.length + 1));
}

describe("config errors name the unknown key and what was expected", () => {
  it("a typo in an mcp upstream: the key, the nearest known one, and every form", () => {
    expect(problemsOf(route("{ comand: node }"))).toEqual([
      '4:10: routes[0].mcp: unknown key "comand" (did you mean "command"?); expected one of: url, headers, timeoutMs | sse, headers | ws, headers | command, args, env, cwd',
    ]);
  });

  it("a typo beside a valid key, and a shortened key, name the one form meant", () => {
    expect(problemsOf(route("{ command: node, cwdd: /tmp }"))).toEqual([expect.stringMatching(/^4:10: routes\[0\]\.mcp: unknown key "cwdd" \(did you mean "cwd"\?\)/)]);
    expect(problemsOf(["routes:", "  - name: a", "    path: /a", "    a2a: { url: 'http://x', passAuth: true }"].join("\n"))).toEqual([
      '4:10: routes[0].a2a: unknown key "passAuth" (did you mean "passAuthorization"?); expected keys: url, headers, passAuthorization, timeoutMs',
    ]);
  });

  it("no key of any form, keys of two forms, not an object", () => {
    expect(problemsOf(route("{}"))).toEqual([expect.stringMatching(/^4:10: routes\[0\]\.mcp: expected one of: url, .* \| command, args, env, cwd$/)]);
    expect(problemsOf(route("{ command: node, url: 'http://x' }"))).toEqual([expect.stringMatching(/routes\[0\]\.mcp: keys of different forms \(command, url\); expected one of/)]);
    expect(problemsOf(route("node"))).toEqual([expect.stringMatching(/routes\[0\]\.mcp: expected an object with one of/)]);
  });

  it("inside the form meant, the real problem at its own key", () => {
    expect(problemsOf(route("{ url: 'http://x', timeoutMs: -1 }"))).toEqual([expect.stringMatching(/^4:\d+: routes\[0\]\.mcp\.timeoutMs: /)]);
  });

  it("a top-level typo", () => {
    expect(problemsOf("listn: {}\n" + route("{ command: node }"))).toEqual([expect.stringMatching(/^1:1: unknown key "listn" \(did you mean "listen"\?\); expected keys: listen, /)]);
  });
});

describe("relative paths in a config are relative to the config file", () => {
  it("rules, log and a stdio route's cwd (given or not); absolute paths and - stay", () => {
    const dir = tempDir();
    const file = join(dir, "guardwire.yaml");
    writeFileSync(file, ["rules: ./rules/mine.yaml", "log: logs/d.ndjson", "routes:", "  - { name: a, path: /a, mcp: { command: node } }", "  - { name: b, path: /b, mcp: { command: node, cwd: ../srv } }", "  - { name: c, path: /c, mcp: { command: node, cwd: /opt } }"].join("\n"));
    const { config } = loadConfig(file, {});
    expect(config?.rules).toBe(join(dir, "rules", "mine.yaml"));
    expect(config?.log).toBe(join(dir, "logs", "d.ndjson"));
    expect(config?.routes.map((r) => (r.mcp && "command" in r.mcp ? r.mcp.cwd : null))).toEqual([dir, join(dir, "..", "srv"), "/opt"]);
    writeFileSync(file, ["log: '-'", route("{ command: node }")].join("\n"));
    expect(loadConfig(file, {}).config?.log).toBe("-");
  });

  it("every shipped example names rules that exist, wherever it is started from", () => {
    const examples = join(ROOT, "examples", "serve");
    const env = { UPSTREAM_KEY: "x", GUARDWIRE_KEY_CLAUDE: "0123456789abcdef0", GUARDWIRE_KEY_CI: "0123456789abcdef1" };
    for (const f of readdirSync(examples).filter((n) => n.endsWith(".yaml"))) {
      const { config, problems } = loadConfig(join(examples, f), env);
      expect(problems, f).toEqual([]);
      // Every entry is a file that exists, or a shipped pack's name; and together they load as one rule set.
      for (const r of [config?.rules ?? []].flat()) expect(existsSync(r) || existsSync(join(ROOT, "rules", `${r}.yaml`)), `${f}: ${r}`).toBe(true);
      if (config?.rules) expect(readAndLoadRules(config.rules).problems, f).toEqual([]);
    }
  });

  it("guardwire serve started from another folder finds its rules, writes its log and runs its server next to the config", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "rules"));
    copyFileSync(ACCEPTANCE_RULES, join(dir, "rules", "acceptance.yaml"));
    symlinkSync(EVERYTHING, join(dir, "everything.mjs"));
    const config = join(dir, "guardwire.yaml");
    writeFileSync(config, ["listen: { host: 127.0.0.1, port: 0 }", "rules: ./rules/acceptance.yaml", "log: ./decisions.ndjson", "routes:", `  - { name: e, path: /mcp/e, mcp: { command: "${process.execPath}", args: [./everything.mjs, stdio] } }`].join("\n"));
    const elsewhere = tempDir();
    const serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { cwd: elsewhere, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const { match } = await waitFor(serve, /serving (http:\/\/\S+)/);
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${match[1]}/mcp/e`)));
      // The acceptance rules (found relative to the config) deny this sum; the server (found relative to it) ran.
      expect((await client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 } })).isError).toBe(true);
      expect((await client.callTool({ name: "get-sum", arguments: { a: 5, b: 1 } })).isError).toBeFalsy();
      await client.close();
    } finally {
      await stopChild(serve);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readLog(join(dir, "decisions.ndjson")).some((l) => l.decision === "deny" && (l.rules as string[]).includes("deny-big-sum"))).toBe(true);
    expect(spawnSync(process.execPath, [CLI, "verify", join(dir, "decisions.ndjson")]).status).toBe(0);
  }, 60_000);
});
