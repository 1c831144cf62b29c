// `npm run bench` (second part): the guardian's judgement — every detector on, the default pack — and a remote
// guardian on loopback. Each figure is measured in this run; targets are marked ok or MISSED.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { judgementCall } from "./lib.mjs";
import { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } from "../dist/index.js";
import { RemoteGuardian } from "../dist/guardian/remote.js";
await detectorsReady(); // the shell grammar loads asynchronously

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const { ruleSet } = loadRules(readRuleSources(join(root, "rules", "balanced.yaml")));
const guardian = new EmbeddedGuardian(ruleSet);

// 1. A 1 KB tools/call: every rule of the pack that matches a tool call runs its detectors.
const call = judgementCall;
const ctx = { direction: "outbound", session: "s-bench", route: "bench", transport: "stdio" };
const reqs = Array.from({ length: 32 }, (_v, i) => buildAosRequest("protocols/MCP", call(i), ctx));
const bytes = JSON.stringify(call(0)).length;
for (let i = 0; i < 20000; i++) guardian.call(reqs[i % 32]);
const n = quick ? 10000 : 50000;
const samples = new Float64Array(n);
for (let i = 0; i < n; i++) {
  const t = performance.now();
  guardian.call(reqs[i % 32]);
  samples[i] = (performance.now() - t) * 1000;
}
let t0 = performance.now();
for (let i = 0; i < n; i++) guardian.call(reqs[i % 32]);
const perSec = n / ((performance.now() - t0) / 1000);
const decision = guardian.call(reqs[0]).result.decision;

// 2. A 1 MB tool result, scanned inbound by every detector the pack runs on results. The message is parsed from its
// JSON text, as every message the proxy judges is (a string V8 slices out of a repeated one reads slower than the
// flat string a parser makes). Beside it, in the same rounds, the floor: parsing that JSON text and reading every
// character of the result once (a charCodeAt loop) — what looking at a megabyte costs at the least in JavaScript.
const big = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ";
const bigJson = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: big.repeat(Math.ceil(1_048_576 / big.length)).slice(0, 1_048_576) }] } });
const bigReq = buildAosRequest("protocols/MCP", JSON.parse(bigJson), {
  direction: "inbound",
  session: "s-bench",
  request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "read_file", arguments: { path: "big.txt" } } },
});
const floor = () => {
  const text = JSON.parse(bigJson).result.content[0].text;
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum = (sum + text.charCodeAt(i)) | 0;
  return sum;
};
// A proxy judges results of every size: the detectors that read results are warmed on 1 KB ones first (as they are
// in steady traffic; judged cold, a scanner whose loop V8 compiles while it runs the megabyte reads it up to 1.5 times
// slower), then the megabyte once.
const smallResults = Array.from({ length: 32 }, (_v, i) =>
  buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: `Build ${i} finished. The parser now reads each frame once and the session forwards it in the same turn; `.repeat(9) }] } }, {
    direction: "inbound",
    session: "s-bench",
    request: { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "run_tests", arguments: {} } },
  }),
);
for (let i = 0; i < 5000; i++) guardian.call(smallResults[i % 32]);
guardian.call(bigReq);
floor();
const bigMs = [];
const bigCpuMs = [];
const floorMs = [];
for (let i = 0; i < (quick ? 5 : 15); i++) {
  let t = performance.now();
  const c = process.cpuUsage();
  guardian.call(bigReq);
  const used = process.cpuUsage(c);
  bigMs.push(performance.now() - t);
  bigCpuMs.push((used.user + used.system) / 1000);
  t = performance.now();
  floor();
  floorMs.push(performance.now() - t);
}

// 3. A remote guardian on loopback (`guardwire guardian --port 0`), against the same rules in process.
const proc = spawn(process.execPath, [join(root, "dist", "cli", "main.js"), "guardian", "--port", "0", "--no-watch", "--pins", join(root, "bench", ".pins.json")], { stdio: "pipe" });
const [line] = await once(createInterface({ input: proc.stderr }), "line");
const url = /listening on (\S+)/.exec(line)[1];
const remote = new RemoteGuardian({ url, timeoutMs: 2000 });
const lat = { embedded: [], remote: [] };
// Warm both ends up (JIT, keep-alive sockets) as steady traffic would: 3,000 calls before anything is timed.
for (let i = 0; i < 3000; i++) await remote.call(reqs[i % 32]);
for (let round = 0; round < (quick ? 3 : 7); round++) {
  for (const which of round % 2 ? ["remote", "embedded"] : ["embedded", "remote"]) {
    const xs = [];
    for (let i = 0; i < 500; i++) {
      const t = performance.now();
      if (which === "remote") await remote.call(reqs[i % 32]);
      else await Promise.resolve(guardian.call(reqs[i % 32]));
      xs.push(performance.now() - t);
    }
    lat[which].push(pct(xs, 50));
  }
}
proc.kill();
const addedMs = pct(lat.remote.map((r, i) => r - lat.embedded[i]), 50);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
  pack: "balanced",
  callBytes: bytes,
  decision,
  p50us: pct(samples, 50),
  p99us: pct(samples, 99),
  evalsPerSec: Math.round(perSec),
  oneMbResultMs: pct(bigMs, 50),
  oneMbResultCpuMs: pct(bigCpuMs, 50),
  oneMbFloorMs: pct(floorMs, 50),
  remoteAddedP50ms: addedMs,
};
writeFileSync(join(root, "bench", "judgement-results.json"), JSON.stringify(results, null, 2) + "\n");
const row = (what, value, target, ok) => console.log(`${what.padEnd(56)} ${value.padStart(14)}   ${target.padEnd(16)} ${ok === undefined ? "" : ok ? "ok" : "MISSED"}`);
console.log(`\nguardwire bench — the guardian's judgement (balanced pack, every detector); load average ${results.loadAverage.join(", ")}\n`);
row(`p50 per evaluation, ${bytes} B tools/call`, `${results.p50us.toFixed(1)} µs`, "≤ 15 µs", results.p50us <= 15);
row("p99", `${results.p99us.toFixed(1)} µs`, "");
row("throughput, one core", `${results.evalsPerSec} /s`, "≥ 40,000 /s", results.evalsPerSec >= 40000);
row("1 MB tool result, scanned inbound", `${results.oneMbResultMs.toFixed(2)} ms`, "≤ 5 ms", results.oneMbResultMs <= 5);
row("  the same, CPU time of the evaluation", `${results.oneMbResultCpuMs.toFixed(2)} ms`, "");
row("  floor: JSON.parse of it and one read of every character", `${results.oneMbFloorMs.toFixed(2)} ms`, "");
row("remote guardian on loopback, added p50", `${results.remoteAddedP50ms.toFixed(3)} ms`, "≤ 0.5 ms", results.remoteAddedP50ms <= 0.5);
console.log("\nfull figures: bench/judgement-results.json");
