// CPU profile of `guardwire wrap` or `guardwire serve` under load: `node bench/profile.mjs wrap|serve|a2a [--calls N]`
// (after a build). The MCP SDK client calls server-everything's `echo` through guardwire, 32 in flight, then
// sequentially (a2a: the A2A SDK client sends messages through a serve route to test/fixtures/servers/a2a-agent-03.mjs); guardwire runs under `node --cpu-prof`, and the top frames by self time are printed (and the
// .cpuprofile kept under bench/profiles/ for a closer look in Chrome DevTools). The warm-up calls are profiled too, so
// the JIT's share shows; the figures are for finding where time goes, not for comparing runs (bench/run.mjs does that).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientFactory } from "a2a-sdk-03/client";
import { freePort, numberArg, startNode, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.js");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const what = process.argv[2];
if (what !== "wrap" && what !== "serve" && what !== "a2a" && what !== "--summarise") {
  console.error("usage: node bench/profile.mjs wrap|serve|a2a [--calls N] [--top N]  |  node bench/profile.mjs --summarise <file.cpuprofile>");
  process.exit(2);
}
const CALLS = numberArg("--calls", 20000);
const TOP = numberArg("--top", 25);
const dir = mkdtempSync(join(tmpdir(), "guardwire-profile-"));
const profDir = join(dir, "prof");
const children = [];
watchdog("profile", 300, children);

const echo = what === "a2a"
  ? (client) => client.sendMessage({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: "hello" }] } })
  : (client, i) => client.callTool({ name: "echo", arguments: { message: `hello ${i}` } });

const start = (args, env, ready) => startNode(children, args, env, ready);

async function connect() {
  const prof = ["--cpu-prof", `--cpu-prof-dir=${profDir}`];
  if (what === "wrap") {
    const args = [...prof, cli, "wrap", "--rules", join(root, "bench", "rules-30.yaml"), "--log", join(dir, "d.ndjson"), "--", process.execPath, everything, "stdio"];
    const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
    const client = new Client({ name: "guardwire-profile", version: "1.0.0" });
    await client.connect(transport);
    return { client, stop: () => client.close() };
  }
  const config = join(dir, "serve.yaml");
  const rules = process.env.BENCH_RULES ? [`rules: ${process.env.BENCH_RULES}`] : [];
  let route;
  if (what === "a2a") {
    const { match } = await start([join(root, "test", "fixtures", "servers", "a2a-agent-03.mjs")], { PORT: "0" }, /listening (\d+)/);
    route = [`  - { name: echo, path: /a2a/echo, a2a: { url: "http://127.0.0.1:${match[1]}" } }`];
  } else {
    const port = await freePort();
    await start([everything, "streamableHttp"], { PORT: String(port) }, /listening on port/i);
    route = [`  - name: http`, `    path: /mcp/http`, `    mcp: { url: "http://127.0.0.1:${port}/mcp" }`];
  }
  writeFileSync(config, [`listen: { host: 127.0.0.1, port: 0 }`, `log: ${join(dir, "d.ndjson")}`, ...rules, `routes:`, ...route].join("\n"));
  const { child, match } = await start([...prof, cli, "serve", "--config", config, "--pins", join(dir, "pins.json"), "--no-watch"], {}, /serving (http:\/\/\S+)/);
  let client;
  if (what === "a2a") client = await new ClientFactory().createFromUrl(`${match[1]}/a2a/echo/`);
  else {
    client = new Client({ name: "guardwire-profile", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${match[1]}/mcp/http`)));
  }
  return {
    client,
    stop: async () => {
      await client.close?.();
      // SIGTERM: serve exits cleanly, and node writes the profile on the way out.
      await new Promise((r) => (child.once("exit", r), child.kill("SIGTERM")));
    },
  };
}

if (what === "--summarise") {
  rmSync(dir, { recursive: true, force: true });
  summarise(JSON.parse(readFileSync(process.argv[3], "utf8")), process.argv[3]);
  process.exit(0);
}
const { client, stop } = await connect();
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < CALLS) await echo(client, next++);
  }),
);
const tput = CALLS / ((performance.now() - t0) / 1000);
for (let i = 0; i < Math.floor(CALLS / 10); i++) await echo(client, i);
await stop();
for (const c of children) c.kill("SIGTERM");
// The profile is written as the process exits.
for (let i = 0; i < 100 && !(readdirSync(profDir, { withFileTypes: true }).some((f) => f.name.endsWith(".cpuprofile"))); i++) await new Promise((r) => setTimeout(r, 100));
const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no profile written");
const profile = JSON.parse(readFileSync(join(profDir, file), "utf8"));

summarise(profile, `${what} under load: ${CALLS} calls at 32 in flight (${Math.round(tput)} calls/s) + ${Math.floor(CALLS / 10)} sequential`);
const out = join(root, "bench", "profiles");
mkdirSync(out, { recursive: true });
const kept = join(out, `${what}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
writeFileSync(kept, JSON.stringify(profile));
console.log(`profile: ${kept}`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);

/** Where a frame's self time belongs, for the summary by category. */
function categoryOf(fn, url) {
  if (fn === "(garbage collector)") return "garbage collection";
  if (/decision-log\/|protocol\/canonical|^digest$|^hashHex$/.test(url + " " + fn) || (fn === "hash" && url.startsWith("node:internal/crypto"))) return "decision log (serialize, digest, SHA-256, write)";
  if (/dist\/guardian\/|cel-js|re2js/.test(url)) return "guardian (rules, CEL, RE2, detectors)";
  if (/protocol\/(safe-json|json-rpc|mcp|a2a)|^parse$/.test(url + " " + fn) || fn === "parse") return "JSON parse and classify";
  if (/dist\/proxy\/|dist\/transports\/|protocol\/ndjson|sse-reader|eventsource-parser/.test(url)) return "session and guardwire transports";
  if (/undici|node:_http|^parseHeaders$|llhttp|wasm/.test(url + " " + fn)) return "HTTP (node:http, undici)";
  if (/zod/.test(url)) return "JSON parse and classify";
  if (/node:internal\/modules|commander|node:internal\/bootstrap/.test(url) || /compileSourceTextModule|wrapSafe|internalModuleStat|realpathSync/.test(fn)) return "start-up (module loading)";
  if (/^(writev|writeUtf8String|writeBuffer|writeLatin1String|read|readBuffer)$/.test(fn) || /node:net|stream|node:internal\/stream_base/.test(url)) return "pipe and socket I/O (syscalls, streams)";
  if (fn === "(program)") return "(program)";
  return "other";
}

function summarise(profile, title) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const self = new Map();
  const cats = new Map();
  let busy = 0;
  let total = 0;
  for (const [id, n] of counts) {
    const f = byId.get(id).callFrame;
    total += n;
    if (f.functionName === "(idle)") continue;
    busy += n;
    const url = f.url.replace(`file://${root}/`, "").replace(/^file:\/\/.*\/node_modules\//, "node_modules/");
    const key = `${f.functionName || "(anonymous)"}  ${url ? `${url}:${f.lineNumber + 1}` : ""}`.trim();
    self.set(key, (self.get(key) ?? 0) + n);
    const cat = categoryOf(f.functionName, url);
    cats.set(cat, (cats.get(cat) ?? 0) + n);
  }
  const pct = (n) => ((n / busy) * 100).toFixed(1).padStart(5);
  console.log(`\n${title}; ${busy} busy samples of ${total}`);
  console.log("by category (self time):");
  for (const [k, n] of [...cats].sort((a, b) => b[1] - a[1])) console.log(`${pct(n)}  ${k}`);
  console.log("top frames (self time):");
  for (const [k, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(n)}  ${k}`);
}
