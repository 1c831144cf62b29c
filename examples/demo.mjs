// `npm run demo`: guardwire's embedded guardian with the default rules in front of a real MCP server
// (@modelcontextprotocol/server-filesystem on a temp dir), driven by the real MCP SDK client, then the decisions
// as `guardwire tail` shows them. Its temporary folder is removed at the end (`--keep` keeps it, to look around).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.js");
const server = join(root, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

const work = mkdtempSync(join(tmpdir(), "guardwire-demo-"));
const keep = process.argv.includes("--keep");
// However the demo ends, its folder goes with it (unless --keep).
process.on("exit", () => {
  if (!keep) rmSync(work, { recursive: true, force: true });
});
const files = join(work, "project");
mkdirSync(join(files, ".ssh"), { recursive: true });
writeFileSync(join(files, "notes.txt"), "Remember to ship the release notes on Friday.\n");
writeFileSync(join(files, "deploy.log"), "deploy ok, using key AKIA4QWERTYUIOP2ZXCV for the upload\n");
writeFileSync(join(files, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n-----END OPENSSH PRIVATE KEY-----\n");
const log = join(work, "guardwire-decisions.ndjson");

// Exactly what a client config would run: guardwire wrap -- <the server command>.
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, "wrap", "--log", log, "--pins", join(work, "pins.json"), "--", process.execPath, server, files],
  stderr: "ignore",
});
const client = new Client({ name: "guardwire-demo", version: "1.0.0" });
await client.connect(transport);

const show = (title, result) => {
  const text = (result.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(" ").replace(/\s+/g, " ").trim();
  console.log(`  ${title.padEnd(44)} → ${result.isError ? "isError: " : ""}${text.slice(0, 100)}`);
};

console.log(`\nguardwire demo: an MCP SDK client → guardwire wrap (default rules) → server-filesystem on ${files}\n`);
console.log("What the agent sees:");
const tools = await client.listTools();
console.log(`  ${"tools/list".padEnd(44)} → ${tools.tools.length} tools`);
show("read_text_file notes.txt", await client.callTool({ name: "read_text_file", arguments: { path: join(files, "notes.txt") } }));
show("read_text_file .ssh/id_ed25519", await client.callTool({ name: "read_text_file", arguments: { path: join(files, ".ssh", "id_ed25519") } }));
show("read_text_file deploy.log (holds an AWS key)", await client.callTool({ name: "read_text_file", arguments: { path: join(files, "deploy.log") } }));
await client.close();
await new Promise((r) => setTimeout(r, 200));

console.log(`\nThe decisions, as \`guardwire tail ${log}\` shows them:\n`);
spawnSync(process.execPath, [cli, "tail", log], { stdio: "inherit", env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" } });
console.log(`\nAnd the log's hash chain, as \`guardwire verify ${log}\` checks it:\n`);
const verify = spawnSync(process.execPath, [cli, "verify", log], { stdio: "inherit" });
process.exitCode = verify.status ?? 1;
console.log(keep ? `\nThe demo's files stay in ${work}.` : `\nThe demo's folder ${work} is removed (\`node examples/demo.mjs --keep\` keeps it).`);
