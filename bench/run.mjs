// `npm run bench`: guardwire's cost, measured as ratios against a direct connection in the same run.
// The machine is shared and noisy, so direct and proxied runs are interleaved and medians of rounds are reported.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildAosRequest, EmbeddedGuardian, loadRules, readRuleSources } from "../dist/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.js");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const rulesFile = join(root, "bench", "rules-30.yaml");
const quick = process.argv.includes("--quick");
const results = { date: new Date().toISOString(), node: process.version, quick };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};
const fmt = (n, d = 2) => Number(n).toFixed(d);

// 1. The guardian alone: a ~1 KB tools/call against a 30-rule pack.
function benchGuardian() {
  const { ruleSet, problems } = loadRules(readRuleSources(rulesFile));
  if (!ruleSet) throw new Error(JSON.stringify(problems));
  const guardian = new EmbeddedGuardian(ruleSet);
  const message = {
    jsonrpc: "2.0",
    id: 42,
    method: "tools/call",
    params: {
      name: "write_file",
      arguments: {
        path: "/home/dev/project/src/components/very/deeply/nested/module/implementation.ts",
        content: "export function add(a: number, b: number): number {\n  return a + b;\n}\n".repeat(10),
        mode: "overwrite",
        tags: ["refactor", "typescript", "components"],
      },
      _meta: { progressToken: "tok-123" },
    },
  };
  const size = JSON.stringify(message).length;
  const ctx = { direction: "outbound", session: "s-bench", route: "bench", transport: "stdio" };
  const one = () => guardian.call(buildAosRequest("protocols/MCP", message, ctx));
  for (let i = 0; i < 20000; i++) one(); // warm up the JIT
  const n = quick ? 20000 : 100000;
  const samples = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    one();
    samples[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) one();
  const perSec = n / (Number(process.hrtime.bigint() - t0) / 1e9);
  const decision = one().result.decision;
  results.guardian = { messageBytes: size, rules: ruleSet.rules.length, p50us: pct(samples, 50), p99us: pct(samples, 99), evalsPerSec: Math.round(perSec), decision };
}

const relay = join(root, "bench", "relay.mjs");

async function connect(kind, log) {
  const args =
    kind === "proxied"
      ? [cli, "wrap", "--rules", rulesFile, "--log", log, "--", process.execPath, everything, "stdio"]
      : kind === "relay"
        ? [relay, process.execPath, everything, "stdio"]
        : [everything, "stdio"];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const echo = (client, i) => client.callTool({ name: "echo", arguments: { message: `hello ${i}` } });

async function throughput(client, calls, concurrency) {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await echo(client, next++);
    }),
  );
  return calls / ((performance.now() - t) / 1000);
}

async function latencies(client, calls) {
  const out = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await echo(client, i);
    out.push(performance.now() - t);
  }
  return out;
}

// 2. The launcher: SDK client → guardwire wrap → server-everything, against the same client → server directly.
async function benchLauncher() {
  const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-"));
  const log = join(dir, "decisions.ndjson");
  const clients = { direct: await connect("direct"), relay: await connect("relay"), proxied: await connect("proxied", log) };
  const rounds = quick ? 3 : 7;
  const calls = quick ? 500 : 2000;
  const seq = quick ? 200 : 500;
  for (const c of Object.values(clients)) {
    await throughput(c, 500, 32);
    await latencies(c, 200);
  }
  const kinds = ["direct", "relay", "proxied"];
  const tput = { direct: [], relay: [], proxied: [] };
  const lat = { direct: [], relay: [], proxied: [] };
  for (let r = 0; r < rounds; r++) {
    // Rotate which goes first, so drift in machine load hits all alike.
    const order = kinds.map((_k, i) => kinds[(i + r) % kinds.length]);
    for (const which of order) {
      tput[which].push(await throughput(clients[which], calls, 32));
      lat[which].push(median(await latencies(clients[which], seq)));
    }
  }
  for (const c of Object.values(clients)) await c.close();
  const ratio = (k) => median(tput[k].map((p, i) => p / tput.direct[i]));
  const added = (k) => median(lat[k].map((p, i) => p - lat.direct[i]));
  results.launcher = {
    rounds,
    callsPerRound: calls,
    directCallsPerSec: Math.round(median(tput.direct)),
    relayCallsPerSec: Math.round(median(tput.relay)),
    proxiedCallsPerSec: Math.round(median(tput.proxied)),
    throughputRatio: ratio("proxied"),
    relayThroughputRatio: ratio("relay"),
    directP50ms: median(lat.direct),
    relayP50ms: median(lat.relay),
    proxiedP50ms: median(lat.proxied),
    addedP50ms: added("proxied"),
    relayAddedP50ms: added("relay"),
  };
}

benchGuardian();
await benchLauncher();

const g = results.guardian;
const l = results.launcher;
const row = (what, value, target, ok) => console.log(`${what.padEnd(58)} ${value.padStart(16)}   target ${target.padEnd(10)} ${ok ? "ok" : "MISSED"}`);
console.log(`\nguardwire bench — node ${process.version}${quick ? " (quick)" : ""}\n`);
row(`guardian p50, ${g.messageBytes} B tools/call, ${g.rules} rules`, `${fmt(g.p50us)} µs`, "≤ 20 µs", g.p50us <= 20);
row("guardian p99", `${fmt(g.p99us)} µs`, "-", true);
row("guardian throughput, one core", `${g.evalsPerSec} /s`, "-", true);
row(`wrap throughput / direct, 32 concurrent (${l.proxiedCallsPerSec} vs ${l.directCallsPerSec}/s)`, `${fmt(l.throughputRatio)} ×`, "≥ 0.80 ×", l.throughputRatio >= 0.8);
row(`wrap added p50 latency (${fmt(l.proxiedP50ms, 3)} vs ${fmt(l.directP50ms, 3)} ms)`, `${fmt(l.addedP50ms, 3)} ms`, "≤ 0.1 ms", l.addedP50ms <= 0.1);
console.log("reference: a policy-free Node NDJSON relay (bench/relay.mjs) in the same run:");
row(`  relay throughput / direct (${l.relayCallsPerSec}/s)`, `${fmt(l.relayThroughputRatio)} ×`, "-", true);
row("  relay added p50 latency", `${fmt(l.relayAddedP50ms, 3)} ms`, "-", true);
writeFileSync(join(root, "bench", "results.json"), JSON.stringify(results, null, 2) + "\n");
console.log("\nfull figures: bench/results.json");
