import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, EVERYTHING, tempDir } from "../helpers.js";

const run = promisify(execFile);

/** A wrapped server-everything started as a client would start it, in `cwd`, with no --log. */
async function connect(cwd: string, extra: string[]): Promise<Client> {
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "wrap", ...extra, "--pins", join(cwd, "pins.json"), "--", process.execPath, EVERYTHING, "stdio"], cwd, stderr: "pipe" }));
  return client;
}

describe("wrap without --log: one log per server", () => {
  it("two servers started together each write their own chain, and tail with no file reads both", async () => {
    const dir = tempDir();
    const [a, b] = await Promise.all([connect(dir, []), connect(dir, ["--name", "notes"])]);
    await Promise.all([a.callTool({ name: "echo", arguments: { message: "from a" } }), b.callTool({ name: "echo", arguments: { message: "from b" } })]);
    await Promise.all([a.close(), b.close()]);
    const logs = readdirSync(dir).filter((f) => f.endsWith(".ndjson")).sort();
    // The derived name (server-everything) and the given one (notes).
    expect(logs).toEqual(["guardwire-decisions.notes.ndjson", "guardwire-decisions.server-everything.ndjson"]);
    expect(existsSync(join(dir, "guardwire-decisions.ndjson"))).toBe(false);
    const verified = await run(process.execPath, [CLI, "verify", ...logs.map((f) => join(dir, f))]);
    for (const f of logs) expect(verified.stdout).toContain(`${f}: ok`);
    const tail = await run(process.execPath, [CLI, "tail", "--tool", "echo", "--no-color"], { cwd: dir });
    expect(tail.stdout).toMatch(/server-everything/);
    expect(tail.stdout).toMatch(/notes/);
  }, 60_000);
});
