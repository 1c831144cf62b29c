// Before/after for `guardwire serve` on a shared, noisy machine: `node bench/serve-compare.mjs <other checkout> mcp|a2a
// [--pairs N] [--calls N] [--seq N]` (both built). Both builds serve the same upstream (server-everything over
// Streamable HTTP, or the A2A agent test/fixtures/servers/a2a-agent-03.mjs) at once; the bench alternates short
// segments between them — `calls` calls at 32 in flight through one, then the other, the order swapped every pair —
// and reports the median and interquartile range over pairs of this build ÷ the other: CPU per call of the serve
// process (/proc), throughput, and with --seq N the p50 of N sequential calls (this − other). Short alternating
// segments put the machine's load on both builds alike, which interleaved rounds of several contenders (serve.mjs,
// a2a.mjs) cannot do as well when other work comes and goes within a round.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientFactory } from "a2a-sdk-03/client";
import { cpuOf, freePort, numberArg, startNode, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2] && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
const kind = process.argv[3];
if (!other || (kind !== "mcp" && kind !== "a2a")) {
  console.error("usage: node bench/serve-compare.mjs <other guardwire checkout, built> mcp|a2a [--pairs N] [--calls N] [--seq N]");
  process.exit(2);
}
const PAIRS = numberArg("--pairs", 20);
const CALLS = numberArg("--calls", 300);
const SEQ = numberArg("--seq", 0);
const children = [];
watchdog("serve-compare", numberArg("--watchdog", 1500), children);
const dir = mkdtempSync(join(tmpdir(), "guardwire-serve-compare-"));

let route;
let connect;
let call;
if (kind === "a2a") {
  const { match } = await startNode(children, [join(root, "test", "fixtures", "servers", "a2a-agent-03.mjs")], { PORT: "0" }, /listening (\d+)/);
  route = `  - { name: echo, path: /a2a/echo, a2a: { url: "http://127.0.0.1:${match[1]}" } }`;
  connect = (base) => new ClientFactory().createFromUrl(`${base}/a2a/echo/`);
  const message = () => ({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: "hello" }] } });
  call = (client) => client.sendMessage(message());
} else {
  const port = await freePort();
  const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
  await startNode(children, [everything, "streamableHttp"], { PORT: String(port) }, /listening on port/i);
  route = `  - { name: http, path: /mcp/http, mcp: { url: "http://127.0.0.1:${port}/mcp" } }`;
  connect = async (base) => {
    const client = new Client({ name: "serve-compare", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/http`)));
    return client;
  };
  let i = 0;
  call = (client) => client.callTool({ name: "echo", arguments: { message: `hello ${i++}` } });
}

const builds = [];
for (const [name, build] of [["this", root], ["other", other]]) {
  const config = join(dir, `${name}.yaml`);
  writeFileSync(config, [`listen: { host: 127.0.0.1, port: 0 }`, `log: ${join(dir, `${name}.ndjson`)}`, `routes:`, route].join("\n"));
  const { child, match } = await startNode(children, [join(build, "dist", "cli", "main.js"), "serve", "--config", config, "--pins", join(dir, `${name}-pins.json`), "--no-watch"], {}, /serving (http:\/\/\S+)/);
  builds.push({ pid: child.pid, client: await connect(match[1]) });
}

/** One segment through one build: throughput and CPU per call at 32 in flight, then the sequential p50. */
async function segment(b) {
  const cpu0 = cpuOf(b.pid);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next++ < CALLS) await call(b.client);
  }));
  const tput = CALLS / ((performance.now() - t0) / 1000);
  const cpuUs = ((cpuOf(b.pid) - cpu0) / CALLS) * 1e6;
  const lat = [];
  for (let i = 0; i < SEQ; i++) {
    const t = performance.now();
    await call(b.client);
    lat.push(performance.now() - t);
  }
  return { tput, cpuUs, p50: SEQ > 0 ? lat.sort((x, y) => x - y)[SEQ >> 1] : null };
}

const [mine, theirs] = builds;
for (const b of builds) await segment(b); // warm-up
const pairs = [];
for (let p = 0; p < PAIRS; p++) {
  let a;
  let b;
  if (p % 2 === 0) {
    a = await segment(mine);
    b = await segment(theirs);
  } else {
    b = await segment(theirs);
    a = await segment(mine);
  }
  pairs.push({ cpu: a.cpuUs / b.cpuUs, tput: a.tput / b.tput, p50Ms: SEQ > 0 ? a.p50 - b.p50 : null, thisCpuUs: a.cpuUs, otherCpuUs: b.cpuUs });
}
const quantile = (xs, f) => [...xs].sort((x, y) => x - y)[Math.floor(f * (xs.length - 1))];
const spread = (key, digits = 3) => {
  const xs = pairs.map((p) => p[key]);
  return `${quantile(xs, 0.5).toFixed(digits)} (interquartile ${quantile(xs, 0.25).toFixed(digits)}–${quantile(xs, 0.75).toFixed(digits)})`;
};
console.log(`\nserve-compare ${kind}: this build (${root}) against ${other}, ${PAIRS} pairs of ${CALLS} calls at 32 in flight${SEQ > 0 ? ` + ${SEQ} sequential` : ""}, medians over pairs`);
console.log(`  CPU per call, this ÷ other: ${spread("cpu")} — this ${quantile(pairs.map((p) => p.thisCpuUs), 0.5).toFixed(0)} µs, other ${quantile(pairs.map((p) => p.otherCpuUs), 0.5).toFixed(0)} µs`);
console.log(`  throughput, this ÷ other:   ${spread("tput")}`);
if (SEQ > 0) console.log(`  sequential p50, this − other: ${spread("p50Ms")} ms`);
for (const c of children) c.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
process.exit(0);
