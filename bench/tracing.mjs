// `node bench/tracing.mjs` (after a build): what tracing costs in `guardwire wrap`.
// MCP SDK client → wrap → server-everything, echo calls, with tracing off (no OTEL_* variables: the session's tracer
// is null) and on (OTEL_TRACES_EXPORTER=otlp to an OTLP/HTTP sink in this process, every span sampled and exported).
// `--baseline <cli.js>` adds a third wrap from another build (e.g. the commit before tracing) to show what "off" costs
// against no tracing code at all. Connections stay open; rounds interleave the variants in rotating order; medians
// across rounds are reported. `--quick` runs fewer rounds. Results go to bench/results-tracing.json.
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cpuOf } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.js");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const rules = join(root, "bench", "rules-30.yaml");
const quick = process.argv.includes("--quick");
const at = process.argv.indexOf("--baseline");
const baseline = at > 0 ? process.argv[at + 1] : undefined;
const P = quick ? { rounds: 3, warm: 200, seq: 200, tput: 500 } : { rounds: 9, warm: 500, seq: 400, tput: 2000 };
const CONCURRENCY = 32;
const watchdog = setTimeout(() => (console.error("bench/tracing: watchdog: stuck"), process.exit(1)), 300_000);

// The OTLP sink: counts spans, answers 200 at once.
let spans = 0;
const sink = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    try {
      for (const rs of JSON.parse(Buffer.concat(chunks).toString("utf8")).resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += ss.spans?.length ?? 0;
    } catch {
      // counted as nothing
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
await new Promise((r) => sink.listen(0, "127.0.0.1", r));
const endpoint = `http://127.0.0.1:${sink.address().port}`;

const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-tracing-"));
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
const variants = {
  off: { cli, env: clean },
  on: { cli, env: { ...clean, OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_TRACES_SAMPLER: "always_on" } },
  ...(baseline ? { baseline: { cli: baseline, env: clean } } : {}),
};


async function connect(name) {
  const v = variants[name];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [v.cli, "wrap", "--pins", join(dir, `pins-${name}.json`), "--rules", rules, "--log", join(dir, `${name}.ndjson`), "--", process.execPath, everything, "stdio"],
    env: v.env,
    stderr: "ignore",
  });
  const client = new Client({ name: "guardwire-bench-tracing", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

const echo = (client, i) => client.callTool({ name: "echo", arguments: { message: `hello ${i}` } });
const pct = (xs, p) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => pct(xs, 50);

async function round(c) {
  for (let i = 0; i < P.warm; i++) await echo(c.client, i);
  const lat = new Float64Array(P.seq);
  for (let i = 0; i < P.seq; i++) {
    const t = performance.now();
    await echo(c.client, i);
    lat[i] = performance.now() - t;
  }
  const cpu0 = cpuOf(c.pid);
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < P.tput) await echo(c.client, next++);
  }));
  const seconds = (performance.now() - t) / 1000;
  const cpu1 = cpuOf(c.pid);
  return { p50ms: pct(lat, 50), p99ms: pct(lat, 99), callsPerSec: P.tput / seconds, wrapCpuUsPerCall: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1e6) / P.tput };
}

const names = Object.keys(variants);
const conns = {};
for (const n of names) conns[n] = await connect(n);
const rounds = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < P.rounds; r++) {
  const order = names.map((_n, i) => names[(i + r) % names.length]);
  for (const n of order) rounds[n].push(await round(conns[n]));
}
for (const n of names) await conns[n].client.close();
await new Promise((r) => setTimeout(r, 200)); // the "on" wrap flushes its last spans as it exits

const summary = Object.fromEntries(
  names.map((n) => [
    n,
    {
      p50ms: +median(rounds[n].map((x) => x.p50ms)).toFixed(3),
      p99ms: +median(rounds[n].map((x) => x.p99ms)).toFixed(3),
      callsPerSec: Math.round(median(rounds[n].map((x) => x.callsPerSec))),
      wrapCpuUsPerCall: rounds[n][0].wrapCpuUsPerCall === null ? null : Math.round(median(rounds[n].map((x) => x.wrapCpuUsPerCall))),
    },
  ]),
);
const result = { date: new Date().toISOString(), node: process.version, rounds: P.rounds, seqCalls: P.seq, concurrentCalls: P.tput, concurrency: CONCURRENCY, baseline: baseline ?? null, spansExported: spans, summary, perRound: rounds };
console.log(JSON.stringify({ summary, spansExported: spans }, null, 2));
if (!quick) writeFileSync(join(root, "bench", "results-tracing.json"), JSON.stringify(result, null, 2) + "\n");
sink.close();
rmSync(dir, { recursive: true, force: true });
clearTimeout(watchdog);
