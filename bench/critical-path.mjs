// Where a sequential call's added latency is spent inside the proxy: `node bench/critical-path.mjs [--rounds N]
// [--other <checkout>]` (after a build). The MCP SDK client calls server-everything's `echo` one call at a time through
// `wrap` (bench/rules-30.yaml), the judging relay, the chaining relay and the parsing relay of bench/run.mjs (and
// another build's `wrap` with --other), rotating order, 300 calls per contender per round. Each runs under
// bench/critical-path-hook.mjs, which times, inside the process, each message from the data event that brings it in to
// the write that sends it on (the write itself, which every contender pays, not included). Medians per message (after
// the first 300), request and response, and the client's p50 per call. The sequential path runs cold — the process
// sleeps between messages and others run on the two cores — so these are several times what the same work costs in a
// loop; compare contenders within one run.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { numberArg, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = numberArg("--rounds", 8);
const o = process.argv.indexOf("--other");
const other = o > 0 ? resolve(process.argv[o + 1]) : null;
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const rules = join(root, "bench", "rules-30.yaml");
const run = join(root, "bench", "run.mjs");
const dir = mkdtempSync(join(tmpdir(), "guardwire-critical-path-"));
watchdog("critical-path", 600);
const server = [process.execPath, everything, "stdio"];
const kinds = {
  wrap: [join(root, "dist", "cli", "main.js"), "wrap", "--rules", rules, "--log", join(dir, "wrap.ndjson"), "--", ...server],
  ...(other ? { "other wrap": [join(other, "dist", "cli", "main.js"), "wrap", "--rules", rules, "--log", join(dir, "other.ndjson"), "--", ...server] } : {}),
  "judging relay": [run, "--judging", rules, join(dir, "judging.ndjson"), ...server],
  "chaining relay": [run, "--chained", join(dir, "chained.ndjson"), ...server],
  "parsing relay": [run, "--relay", ...server],
};
const conns = [];
for (const [name, args] of Object.entries(kinds)) {
  const file = join(dir, `${name.replace(/\W/g, "-")}.json`);
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", join(root, "bench", "critical-path-hook.mjs"), ...args], env: { ...process.env, CRITICAL_PATH_OUT: file }, stderr: "ignore" });
  const client = new Client({ name: "guardwire-critical-path", version: "1.0.0" });
  await client.connect(transport);
  conns.push({ name, client, file, calls: [] });
}
const echo = (c, i) => c.callTool({ name: "echo", arguments: { message: `hello ${i}` } });
for (const c of conns) for (let i = 0; i < 300; i++) await echo(c.client, i);
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < conns.length; j++) {
    const c = conns[(r + j) % conns.length];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await echo(c.client, i);
      c.calls.push(performance.now() - t);
    }
  }
}
for (const c of conns) await c.client.close();
await new Promise((r) => setTimeout(r, 500));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(`critical path, ${ROUNDS} rotating rounds of 300 sequential calls; inside the proxy per message (medians), client p50 per call`);
for (const c of conns) {
  const { req, res } = JSON.parse(readFileSync(c.file, "utf8").trim().split("\n").pop());
  // The warm-up's messages are left out.
  console.log(`  ${c.name.padEnd(16)} request ${us(median(req.slice(300))).padStart(9)}   response ${us(median(res.slice(300))).padStart(9)}   call p50 ${us(median(c.calls)).padStart(10)}`);
}
rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
process.exit(0);
