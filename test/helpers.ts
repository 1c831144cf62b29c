import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const ROOT = resolve(import.meta.dirname, "..");
/** The built CLI: `npm test` builds before running the tests. */
export const CLI = join(ROOT, "dist", "cli", "main.js");
export const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
export const ACCEPTANCE_RULES = join(ROOT, "test", "fixtures", "rules", "acceptance.yaml");

let bundled: Record<string, string[]> | undefined;
/**
 * The command line is a bundle (scripts/bundle-cli.mjs): the modules a loaded file of it holds, as the build recorded
 * them in dist/cli/chunks/inputs.json (absolute paths); any other file stands for itself.
 */
export function modulesInFile(path: string): string[] {
  bundled ??= JSON.parse(readFileSync(join(ROOT, "dist", "cli", "chunks", "inputs.json"), "utf8")) as Record<string, string[]>;
  return bundled[relative(ROOT, path)]?.map((p) => resolve(ROOT, p)) ?? [path];
}

export function tempDir(prefix = "guardwire-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function readLog(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface Wrapped {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/** A real MCP SDK client talking to `guardwire wrap -- <server…>` over stdio. */
export async function connectWrapped(
  wrapArgs: string[],
  server: string[],
  client = new Client({ name: "guardwire-test", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } }),
): Promise<Wrapped> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Pins go to a temp file, never the real ~/.guardwire.
    args: [CLI, "wrap", "--pins", join(tempDir(), "pins.json"), ...wrapArgs, "--", ...server],
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" } as Record<string, string>,
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

export async function connectDirect(
  server: string[],
  client = new Client({ name: "guardwire-test", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } }),
): Promise<Wrapped> {
  const [command, ...args] = server;
  const transport = new StdioClientTransport({ command: command as string, args, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}
