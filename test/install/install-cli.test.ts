import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCEPTANCE_RULES, CLI, EVERYTHING, readLog, tempDir } from "../helpers.js";
import { clientFiles, writeClientFiles } from "../support/client-configs.js";

type Entry = { command: string; args: string[]; env?: Record<string, string>; [k: string]: unknown };
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/** A guardwire command run as a person would: HOME is the temporary one, the folder is the project. */
function gw(home: string, cwd: string, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, NO_COLOR: "1" };
  for (const k of ["XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"]) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const snapshot = (files: string[]) => Object.fromEntries(files.map((f) => [f, readFileSync(f, "utf8")]));

function setup() {
  const home = tempDir("guardwire-home-");
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  const files = clientFiles(home, project);
  writeClientFiles(files);
  return { home, project, files, paths: Object.keys(files) };
}

describe("guardwire install / uninstall on every client's real config, under a temporary HOME", () => {
  const { home, project, files, paths } = setup();
  const at = (...p: string[]) => join(home, ...p);
  const desktop = at(".config", "Claude", "claude_desktop_config.json");
  const vscodeUser = at(".config", "Code", "User", "mcp.json");
  const codex = at(".codex", "config.toml");
  const cursor = at(".cursor", "mcp.json");
  let installed: Record<string, string>;

  beforeAll(() => chmodSync(desktop, 0o640));

  it("--dry-run prints a unified diff per file and changes nothing", () => {
    const r = gw(home, project, "install", "--dry-run", "--rules", ACCEPTANCE_RULES);
    expect(r.code, r.err).toBe(0);
    expect(snapshot(paths)).toEqual(files);
    expect(r.out).toContain(`--- ${desktop}`);
    expect(r.out).toContain(`+++ ${desktop}`);
    expect(r.out).toMatch(/^-\s+"command": "uvx", \/\/ runs from PyPI$/m);
    expect(r.out).toContain("dry run: would change 10 files");
    expect(existsSync(at(".guardwire", "installed.json"))).toBe(false);
  });

  it("install wraps every stdio server, keeps every other key, comment and order, and says which remote servers it skipped", () => {
    const r = gw(home, project, "install", "--rules", ACCEPTANCE_RULES);
    expect(r.code, r.err).toBe(0);
    installed = snapshot(paths);
    for (const name of ["linear", "remote", "github", "docs", "stream"]) expect(r.out).toMatch(new RegExp(`skipped remote server "${name}" .*NOT guarded`));
    expect(r.out).toContain('already guarded: "handwrapped"');
    expect(r.out).toContain("changed 10 files");

    const doc = parseJsonc(installed[desktop] as string) as { globalShortcut: string; mcpServers: Record<string, Entry> };
    const e = doc.mcpServers.everything as Entry;
    expect(e.command).toBe(process.execPath);
    const log = at(".guardwire", "logs", "claude-desktop-everything.ndjson");
    expect(e.args).toEqual([CLI, "wrap", "--name", "everything", "--log", log, "--rules", ACCEPTANCE_RULES, "--", process.execPath, EVERYTHING, "stdio"]);
    expect(e.env).toEqual({ EVERYTHING_TOKEN: "kept" });
    expect(Object.keys(doc)).toEqual(["globalShortcut", "mcpServers"]);
    expect(doc.mcpServers.handwrapped?.args[0]).toBe("guardwire");
    expect(statSync(desktop).mode & 0o777).toBe(0o640);

    // JSONC: comments, trailing commas and the untouched remote entry stay; only command and args changed.
    const vs = installed[vscodeUser] as string;
    expect(vs.startsWith("// VS Code user MCP servers\n")).toBe(true);
    expect(vs).toContain("// the fetch server");
    expect(vs).toContain('"github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },');
    expect(Object.keys((parseJsonc(vs) as { servers: { fetch: object } }).servers.fetch)).toEqual(["type", "command", "args"]);

    // Claude Code: user scope and the project's entries, each with its own log; the other project untouched.
    const claude = parseJsonc(installed[at(".claude.json")] as string) as { mcpServers: Record<string, Entry>; projects: Record<string, { mcpServers?: Record<string, Entry> }> };
    expect(claude.mcpServers.memory?.args).toContain("@modelcontextprotocol/server-memory");
    expect(claude.mcpServers.memory?.type).toBe("stdio");
    const local = claude.projects[project]?.mcpServers?.["local-fs"] as Entry;
    expect(local.args.slice(1, 4)).toEqual(["wrap", "--name", "local-fs"]);
    expect(local.args[5]).toMatch(/claude-code-app-[0-9a-f]{6}-local-fs\.ndjson$/);
    expect(claude.projects[project]?.mcpServers?.linear).toEqual({ type: "sse", url: "https://mcp.linear.app/sse" });
    expect(Object.keys(claude)).toEqual(["numStartups", "mcpServers", "projects", "userID"]);

    // Codex: TOML stays TOML, with its comments.
    const toml = installed[codex] as string;
    expect(toml).toContain("# Codex settings\nmodel = \"o3\"  # the model\n\n[mcp_servers.everything]\n# the reference server\n");
    expect(toml).toContain("# trailing comment");
    expect(toml.endsWith('[mcp_servers.remote]\nurl = "https://example.com/mcp"\n\n[profiles.fast]\nmodel = "o4-mini"\n')).toBe(true);
    const parsed = parseToml(toml) as { mcp_servers: Record<string, Entry> };
    expect(parsed.mcp_servers.everything?.args.slice(0, 4)).toEqual([CLI, "wrap", "--name", "everything"]);
    expect(parsed.mcp_servers.everything?.env).toEqual({ EVERYTHING_TOKEN: "kept" });

    // Each changed file was backed up first, as it was.
    const backups = readdirSync(at(".guardwire", "backups"));
    expect(backups).toHaveLength(10);
    expect(backups.map((b) => readFileSync(at(".guardwire", "backups", b), "utf8")).sort()).toEqual(Object.values(files).sort());
  });

  it.each([
    ["Claude Desktop (JSON)", () => (parseJsonc(installed[desktop] as string) as { mcpServers: Record<string, Entry> }).mcpServers.everything as Entry, "claude-desktop-everything"],
    ["Codex (TOML)", () => (parseToml(installed[codex] as string) as { mcp_servers: Record<string, Entry> }).mcp_servers.everything as Entry, "codex-everything"],
  ])("a real SDK client launches the rewritten %s entry and reaches the server through guardwire, a deny working", async (_, entry, logName) => {
    const e = entry();
    const transport = new StdioClientTransport({ command: e.command, args: e.args, env: { PATH: process.env.PATH ?? "", HOME: home, ...e.env }, stderr: "pipe" });
    const client = new Client({ name: "install-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const denied = (await client.callTool({ name: "get-sum", arguments: { a: 150, b: 1 } })) as TextResult;
      expect(denied.isError).toBe(true);
      expect(denied.content[0]?.text).toContain("[rule deny-big-sum]");
      const allowed = (await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })) as TextResult;
      expect(allowed.isError).toBeFalsy();
      expect(allowed.content[0]?.text).toContain("5");
    } finally {
      await client.close();
    }
    const decisions = readLog(at(".guardwire", "logs", `${logName}.ndjson`));
    expect(decisions.some((d) => d.decision === "deny")).toBe(true);
  }, 60_000);

  it("install twice changes nothing the second time", () => {
    const manifest = readFileSync(at(".guardwire", "installed.json"), "utf8");
    const r = gw(home, project, "install", "--rules", ACCEPTANCE_RULES);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("changed 0 files");
    expect(snapshot(paths)).toEqual(installed);
    expect(readFileSync(at(".guardwire", "installed.json"), "utf8")).toBe(manifest);
    expect(readdirSync(at(".guardwire", "backups"))).toHaveLength(10);
  });

  it("uninstall restores every file byte for byte, and keeps a hand edit made after install", () => {
    const edit = (t: string) => t.replace('"mcpServers": {', '"mcpServers": {\n    "added-later": { "command": "my-server" },');
    const tomlEdit = (t: string) => t.replace("[profiles.fast]\n", "[profiles.fast]\n# added by hand\n");
    writeFileSync(cursor, edit(installed[cursor] as string));
    writeFileSync(codex, tomlEdit(installed[codex] as string));
    const r = gw(home, project, "uninstall");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("restored byte for byte");
    expect(snapshot(paths)).toEqual({ ...files, [cursor]: edit(files[cursor] as string), [codex]: tomlEdit(files[codex] as string) });
    expect(JSON.parse(readFileSync(at(".guardwire", "installed.json"), "utf8"))).toEqual({ version: 1, files: {} });
  });

  afterAll(() => {
    // nothing of the real HOME was touched
    expect(home).toContain("guardwire-home-");
  });
});

describe("guardwire install over time", () => {
  it("a server of the same name in two clients' files gets two logs; one added later is wrapped by the next install; uninstall keeps later edits", () => {
    const home = tempDir("guardwire-home-");
    const stable = join(home, ".config", "Code", "User", "mcp.json");
    const insiders = join(home, ".config", "Code - Insiders", "User", "mcp.json");
    const original = '{\n  "servers": {\n    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] }\n  }\n}\n';
    writeClientFiles({ [stable]: original, [insiders]: original });
    expect(gw(home, home, "install").code).toBe(0);
    const logOf = (file: string, name: string) => {
      const args = (parseJsonc(readFileSync(file, "utf8")) as { servers: Record<string, Entry> }).servers[name]?.args ?? [];
      return args[args.indexOf("--log") + 1];
    };
    expect(logOf(stable, "fetch")).toBe(join(home, ".guardwire", "logs", "vscode-fetch.ndjson"));
    expect(logOf(insiders, "fetch")).toBe(join(home, ".guardwire", "logs", "vscode-fetch-2.ndjson"));

    // By hand: a new server, and the wrapped fetch now runs a newer version.
    const edited = readFileSync(stable, "utf8").replace('"mcp-server-fetch"]', '"mcp-server-fetch==2.0"]').replace('"servers": {', '"servers": {\n    "git": { "command": "uvx", "args": ["mcp-server-git"] },');
    writeFileSync(stable, edited);
    const second = gw(home, home, "install");
    expect(second.out).toContain('wrapped "git": uvx mcp-server-git');
    expect(second.out).toContain('already guarded: "fetch"');
    expect(logOf(stable, "git")).toBe(join(home, ".guardwire", "logs", "vscode-git.ndjson"));

    const r = gw(home, home, "uninstall");
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(insiders, "utf8")).toBe(original);
    expect(readFileSync(stable, "utf8")).toBe('{\n  "servers": {\n    "git": { "command": "uvx", "args": ["mcp-server-git"] },\n    "fetch": { "command": "uvx", "args": ["mcp-server-fetch==2.0"] }\n  }\n}\n');
    expect(r.out).toContain('unwrapped "fetch" (edited since install: the command it now wraps is kept)');
  });
});

describe("guardwire install leaves a malformed config untouched and says where it is broken", () => {
  it("reports path:line:column, exits 1, and still guards the other files", () => {
    const { home, project, files } = setup();
    const windsurf = join(home, ".codeium", "windsurf", "mcp_config.json");
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    writeFileSync(windsurf, broken);
    const r = gw(home, project, "install");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${windsurf}:4:5: CommaExpected; the file is left untouched`);
    expect(readFileSync(windsurf, "utf8")).toBe(broken);
    expect(readFileSync(join(home, ".cursor", "mcp.json"), "utf8")).not.toBe(files[join(home, ".cursor", "mcp.json")]);

    const codex = join(home, ".codex", "config.toml");
    writeFileSync(codex, "[mcp_servers.x\ncommand = 'y'\n");
    const again = gw(home, project, "install", "--client", "codex");
    expect(again.code).toBe(1);
    expect(again.err).toMatch(new RegExp(`${codex}:\\d+:\\d+: .+; the file is left untouched`));
    expect(readFileSync(codex, "utf8")).toBe("[mcp_servers.x\ncommand = 'y'\n");
  });
});

describe("guardwire doctor", () => {
  it("on a half-installed setup: names what is guarded, what is not and how to fix it, and exits 1", () => {
    const { home, project } = setup();
    expect(gw(home, project, "install", "--client", "cursor,codex").code).toBe(0);
    mkdirSync(join(home, ".guardwire"), { recursive: true });
    writeFileSync(join(home, ".guardwire", "pins.json"), "{ not json");
    const r = gw(home, project, "doctor");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^ok {3}Node \d+\.\d+/m);
    expect(r.out).toMatch(new RegExp(`^ok {3}cursor ${join(home, ".cursor", "mcp.json")}: "git" is guarded$`, "m"));
    expect(r.out).toMatch(/^FIX {2}claude-desktop .*: "everything" is NOT guarded\n {5}→ guardwire install --client claude-desktop$/m);
    // A remote server install cannot wrap is said, as a note: not a problem to fix here.
    expect(r.out).toMatch(/^note cursor .*: remote server "remote" \(https:\/\/example.com\/mcp\) is NOT guarded: install cannot wrap a server it does not start\n {5}→ .*guardwire serve/m);
    expect(r.out).toMatch(/^ok {3}log writable: .*\.guardwire\/logs\/cursor-git\.ndjson$/m);
    expect(r.out).toMatch(/^ok {3}rules load: the default pack/m);
    expect(r.out).toMatch(/^FIX {2}pins file .*pins\.json cannot be read/m);
    expect(readFileSync(join(home, ".guardwire", "pins.json"), "utf8")).toBe("{ not json");

    // Fully installed, pins fixed, only remote servers left: they are named, and doctor exits 0 (nothing to fix here).
    writeFileSync(join(home, ".guardwire", "pins.json"), JSON.stringify({ version: 1, servers: {} }));
    expect(gw(home, project, "install").code).toBe(0);
    const after = gw(home, project, "doctor");
    expect(after.out).not.toMatch(/"[^"]+" is NOT guarded/);
    expect(after.out).toMatch(/^note .*remote server "linear" .* is NOT guarded/m);
    expect(after.out).not.toMatch(/^FIX/m);
    expect(after.out).toMatch(/^all good \(\d+ notes above\)$/m);
    expect(after.code).toBe(0);
    // A pins file as guardwire writes it today (version 2, with definitions) is readable too.
    writeFileSync(join(home, ".guardwire", "pins.json"), JSON.stringify({ version: 2, servers: { fs: { read: { fingerprint: "a".repeat(64), definition: { name: "read" } } } } }));
    expect(gw(home, project, "doctor").out).toMatch(/^ok +pins file readable/m);
  });

  it("finds rules that no longer load, a log path that is a folder, and a guardwire that is gone", () => {
    const home = tempDir("guardwire-home-");
    const rules = join(home, "my-rules.yaml");
    writeFileSync(rules, readFileSync(ACCEPTANCE_RULES, "utf8"));
    const cursor = join(home, ".cursor", "mcp.json");
    writeClientFiles({
      [cursor]: JSON.stringify({ mcpServers: { a: { command: "uvx", args: ["a"] }, b: { command: "node", args: ["/gone/dist/cli/main.js", "wrap", "--log", join(home, "logdir"), "--", "x"] } } }),
    });
    mkdirSync(join(home, "logdir"));
    expect(gw(home, home, "install", "--rules", rules).code).toBe(0);
    writeFileSync(rules, "rules:\n  - id: x\n    when: 'this is not CEL ((('\n");
    const r = gw(home, home, "doctor");
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FIX  rules ${rules} do not load: `);
    expect(r.out).toContain("→ `guardwire check <rules>` lists each problem");
    expect(r.out).toMatch(/^FIX {2}guarded servers run \/gone\/dist\/cli\/main\.js, which does not exist$/m);
    expect(r.out).toMatch(new RegExp(`^FIX {2}log ${join(home, "logdir")} is not a file$`, "m"));
    expect(r.out).toMatch(/^ok {3}log writable: .*cursor-a\.ndjson$/m);
  });

  it("says all good (exit 0) when every server is guarded and everything loads", () => {
    const home = tempDir("guardwire-home-");
    const files = clientFiles(home, home);
    const desktop = join(home, ".config", "Claude", "claude_desktop_config.json");
    writeClientFiles({ [desktop]: files[desktop] as string });
    expect(gw(home, home, "install", "--rules", ACCEPTANCE_RULES).code).toBe(0);
    const r = gw(home, home, "doctor");
    expect(r.out).toContain("all good");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`rules load: ${ACCEPTANCE_RULES}`);
  });
});
