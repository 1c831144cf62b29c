// Where a sequential call's added latency is spent inside `guardwire serve`: `node bench/serve-critical-path.mjs
// [--rounds N] [--calls N] [--other <checkout>]` (after a build). The MCP SDK client calls server-everything's `echo`
// over Streamable HTTP one call at a time through `serve` (the default rules), the bench's bare HTTP relay
// (bench/serve.mjs --relay) and, with --other, another build's `serve`, rotating order, `calls` calls per contender per
// round. Each runs under bench/serve-critical-path-hook.mjs, which times inside the process each message from the
// socket read that brings it in to the socket write that sends it on (request: agent → server; response: server →
// agent). Medians per message (after the warm-up), and the client's p50 per call. The sequential path runs cold, so
// these are several times what the same work costs in a loop; compare contenders within one run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort, numberArg, startNode, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = numberArg("--rounds", 6);
const CALLS = numberArg("--calls", 300);
const o = process.argv.indexOf("--other");
const other = o > 0 ? resolve(process.argv[o + 1]) : null;
const children = [];
watchdog("serve-critical-path", numberArg("--watchdog", 900), children);
const dir = mkdtempSync(join(tmpdir(), "guardwire-serve-critical-path-"));
const hook = ["--import", join(root, "bench", "serve-critical-path-hook.mjs")];
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const port = await freePort();
await startNode(children, [everything, "streamableHttp"], { PORT: String(port) }, /listening on port/i);
const target = `http://127.0.0.1:${port}/mcp`;

const conns = [];
async function add(name, args, url) {
  const file = join(dir, `${name.replace(/\W/g, "-")}.json`);
  const { child, match } = await startNode(children, [...hook, ...args], { HTTP_PATH_OUT: file }, /serving (http:\/\/\S+)|relay listening/);
  const client = new Client({ name: "serve-critical-path", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url(match))));
  conns.push({ name, client, file, child, calls: [] });
}
async function addServe(name, build) {
  const config = join(dir, `${name.replace(/\W/g, "-")}.yaml`);
  writeFileSync(config, [`listen: { host: 127.0.0.1, port: 0 }`, `log: ${join(dir, `${name.replace(/\W/g, "-")}.ndjson`)}`, `routes:`, `  - { name: http, path: /mcp/http, mcp: { url: "${target}" } }`].join("\n"));
  await add(name, [join(build, "dist", "cli", "main.js"), "serve", "--config", config, "--pins", join(dir, `${name.replace(/\W/g, "-")}-pins.json`), "--no-watch"], (m) => `${m[1]}/mcp/http`);
}
await addServe("serve", root);
if (other) await addServe("other serve", other);
const rport = await freePort();
await add("relay", [join(root, "bench", "serve.mjs"), "--relay", String(rport), target], () => `http://127.0.0.1:${rport}/mcp`);

let n = 0;
const echo = (c) => c.callTool({ name: "echo", arguments: { message: `hello ${n++}` } });
for (const c of conns) for (let i = 0; i < CALLS; i++) await echo(c.client);
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < conns.length; j++) {
    const c = conns[(r + j) % conns.length];
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await echo(c.client);
      c.calls.push(performance.now() - t);
    }
  }
}
for (const c of conns) c.child.kill("SIGUSR2");
await new Promise((r) => setTimeout(r, 500));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`serve's critical path, ${ROUNDS} rotating rounds of ${CALLS} sequential calls; inside the process per message (medians), client p50 per call`);
for (const c of conns) {
  const { req, res, reqMarks, resMarks } = JSON.parse(readFileSync(c.file, "utf8"));
  // The warm-up's messages (and the session's start) are left out.
  console.log(`  ${c.name.padEnd(12)} request ${us(median(req.slice(CALLS + 10))).padStart(9)}   response ${us(median(res.slice(CALLS + 10))).padStart(9)}   call p50 ${us(median(c.calls)).padStart(10)}`);
  for (const [what, list] of [["request", reqMarks], ["response", resMarks]]) {
    const kept = list.slice(CALLS + 10);
    const names = [...new Set(kept.flatMap((m) => Object.keys(m)))].filter((k) => kept.filter((m) => k in m).length > kept.length / 2);
    if (names.length <= 1) continue;
    const at = names.map((k) => [k, median(kept.filter((m) => k in m).map((m) => m[k]))]).sort((a, b) => a[1] - b[1]);
    console.log(`    ${what} marks (µs from its read, medians): ${at.map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
}
for (const c of children) c.kill("SIGKILL");
await new Promise((r) => setTimeout(r, 200));
rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
process.exit(0);
