import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import type { Pin } from "../../src/guardian/detectors/pins.js";
import { CLI, ROOT, tempDir } from "../helpers.js";

/*
 * Real `guardwire wrap` processes (the built CLI), each with a real MCP SDK client over stdio and a real SDK server
 * behind it, sharing one pins file as every wrap of a client does by default.
 */

const SERVER = join(ROOT, "test", "fixtures", "servers", "mutable-server.mjs");
type Text = { content: { type: string; text: string }[]; isError?: boolean };

const servers = (file: string): Record<string, Record<string, Pin>> =>
  existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, Record<string, Pin>> }).servers : {};

function tools(dir: string, name: string, list: { name: string; description: string }[]): string {
  const file = join(dir, `${name}.tools.json`);
  writeFileSync(file, JSON.stringify(list));
  return file;
}

/** `guardwire wrap --name <name> --pins <pins>` of the mutable server, with a client connected (initialized). */
async function wrap(dir: string, name: string, pins: string, toolsFile: string): Promise<{ client: Client; stderr: () => string; exited: Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "wrap", "--name", name, "--pins", pins, "--log", join(dir, `${name}-${Math.random().toString(36).slice(2)}.ndjson`), "--", process.execPath, SERVER],
    env: { ...process.env, MUTABLE_TOOLS: toolsFile, MUTABLE_NAME: "mutable" } as Record<string, string>,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "pins-test", version: "1.0.0" });
  await client.connect(transport);
  // The wrap process ends once its client goes (it saves what it pinned first).
  const exited = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  return { client, stderr: () => err, exited };
}

describe("two guardwire wrap processes sharing one pins file", () => {
  it.each([
    ["at once", 0],
    ["200 ms apart", 200],
  ])("pinning %s keeps both servers' pins (5 runs)", async (_, apart) => {
    for (let run = 0; run < 5; run++) {
      const dir = tempDir();
      const pins = join(dir, "pins.json");
      const [a, b] = await Promise.all([
        wrap(dir, "alpha", pins, tools(dir, "alpha", [{ name: "lookup", description: "Looks a word up" }])),
        wrap(dir, "beta", pins, tools(dir, "beta", [{ name: "translate", description: "Translates a word" }])),
      ]);
      const first = a.client.listTools();
      if (apart > 0) await new Promise((r) => setTimeout(r, apart));
      const second = b.client.listTools();
      expect((await first).tools.map((t) => t.name)).toEqual(["lookup"]);
      expect((await second).tools.map((t) => t.name)).toEqual(["translate"]);
      await expect.poll(() => Object.keys(servers(pins)).sort(), { timeout: 15_000, interval: 50 }).toEqual(["alpha", "beta"]);
      await Promise.all([a.client.close(), b.client.close()]);
      await Promise.all([a.exited, b.exited]);
      const saved = servers(pins);
      expect(Object.keys(saved.alpha ?? {}), `run ${run}: ${a.stderr()}`).toEqual(["lookup"]);
      expect(Object.keys(saved.beta ?? {}), `run ${run}: ${b.stderr()}`).toEqual(["translate"]);
      expect(a.stderr() + b.stderr()).not.toMatch(/could not be saved|corrupt/);
    }
  }, 180_000);

  it("a rug pull after the other process pinned is caught: its list loses the changed tool, calls to it are refused", async () => {
    const dir = tempDir();
    const pins = join(dir, "pins.json");
    const file = tools(dir, "shared", [
      { name: "lookup", description: "Looks a word up" },
      { name: "echo", description: "Echoes" },
    ]);
    // Both run before anything is pinned: the second learns the pins only from the file.
    const [a, b] = await Promise.all([wrap(dir, "shared", pins, file), wrap(dir, "shared", pins, file)]);
    try {
      expect((await a.client.listTools()).tools.map((t) => t.name)).toEqual(["lookup", "echo"]);
      await expect.poll(() => Object.keys(servers(pins).shared ?? {}).sort(), { timeout: 15_000, interval: 50 }).toEqual(["echo", "lookup"]);
      tools(dir, "shared", [
        { name: "lookup", description: "Looks a word up and keeps a copy" },
        { name: "echo", description: "Echoes" },
      ]);
      expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      const refused = (await b.client.callTool({ name: "lookup", arguments: { text: "x" } })) as Text;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toContain(`tool "lookup" of server "shared" changed (description)`);
      // The change waits for approval in the file, for every process (a's next list loses the tool too).
      await expect.poll(() => servers(pins).shared?.lookup?.pending?.definition?.description, { timeout: 15_000, interval: 50 }).toBe("Looks a word up and keeps a copy");
      await expect.poll(async () => (await a.client.listTools()).tools.map((t) => t.name), { timeout: 15_000, interval: 300 }).toEqual(["echo"]);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  }, 60_000);
});

/** A guardwire command run as a person would: HOME is the temporary one. */
function gw(home: string, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, NO_COLOR: "1" };
  for (const k of ["XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"]) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: home, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

type Report = { servers: { name: string; pinName: string; tools: { name: string; pin: string }[]; findings: { type: string; severity: string; name: string; excerpt: string }[] }[]; exitCode: number };

describe("install → use → a tool changes → scan reports it", () => {
  it("the pins wrap writes under the entry's name are the ones scan compares with", async () => {
    const home = tempDir("guardwire-home-");
    const toolsFile = join(home, "notes-tools.json");
    writeFileSync(toolsFile, JSON.stringify([{ name: "lookup", description: "Looks a note up" }]));
    const config = join(home, ".config", "Claude", "claude_desktop_config.json");
    mkdirSync(dirname(config), { recursive: true });
    // The server reports another name than the entry's: pins are the entry's.
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [SERVER], env: { MUTABLE_TOOLS: toolsFile, MUTABLE_NAME: "notes-server" } } } }, null, 2));

    const installed = gw(home, "install", "--client", "claude-desktop");
    expect(installed.code, installed.err).toBe(0);
    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { notes: { command: string; args: string[]; env: Record<string, string> } } }).mcpServers.notes;
    expect(entry.args).toContain("wrap");
    expect(entry.args).not.toContain("--pins");

    // Use the server the way the client would: the command install wrote, with a real SDK client.
    const use = async () => {
      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { PATH: process.env.PATH ?? "", HOME: home, ...entry.env }, stderr: "pipe" });
      const client = new Client({ name: "claude-desktop-stand-in", version: "1.0.0" });
      await client.connect(transport);
      try {
        return (await client.listTools()).tools.map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    expect(await use()).toEqual(["lookup"]);
    const pins = join(home, ".guardwire", "pins.json");
    await expect.poll(() => Object.keys(servers(pins)), { timeout: 15_000, interval: 50 }).toEqual(["notes"]);

    const clean = gw(home, "scan", "--client", "claude-desktop", "--json");
    expect(clean.code, clean.err + clean.out).toBe(0);
    const before = JSON.parse(clean.out) as Report;
    expect(before.servers[0]).toMatchObject({ name: "notes", pinName: "notes", tools: [{ name: "lookup", pin: "same" }], findings: [] });

    // The server is updated: its tool says something else now.
    writeFileSync(toolsFile, JSON.stringify([{ name: "lookup", description: "Looks a note up and mails it to its author" }]));
    const changed = gw(home, "scan", "--client", "claude-desktop", "--json");
    expect(changed.code, changed.err).toBe(1);
    const after = JSON.parse(changed.out) as Report;
    expect(after.exitCode).toBe(1);
    expect(after.servers[0]?.tools).toEqual([{ name: "lookup", pin: "changed" }]);
    expect(after.servers[0]?.findings).toEqual([
      expect.objectContaining({ type: "tool_changed", severity: "high", name: "lookup", excerpt: expect.stringContaining(`tool "lookup" of server "notes" changed (description)`) }),
    ]);
    const table = gw(home, "scan", "--client", "claude-desktop");
    expect(table.code).toBe(1);
    expect(table.out).toMatch(/lookup\s+CHANGED since pinned/);
    // And through guardwire the changed tool is taken out of the list.
    expect(await use()).toEqual([]);
  }, 120_000);
});
