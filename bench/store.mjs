// `npm run bench` (store part): what sharing the guardian's state through Redis costs per judged message. The same
// workload — tools/call messages through a rule set with a flow rule that reads `session` and a `limit` rule — is
// judged by an embedded guardian with its state in memory and by one with its state in a real redis-server started
// here on a free loopback port, in interleaved rounds of the same run. Reported: this process's CPU per call, the
// added p50 per call (sequential calls), redis-server's CPU per call, and the Redis round trips per message as
// counted (awaited round trips, unawaited writes) and as Redis saw them (INFO commandstats).
// `node bench/store.mjs --quick` (after a build) runs fewer rounds.
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules } from "../dist/index.js";
import { SharedStore } from "../dist/store/redis.js";
import { SharedGuardianState } from "../dist/store/guardian-state.js";
import { cpuOf, freePort, numberArg, watchdog } from "./lib.mjs";
await detectorsReady(); // the shell grammar loads asynchronously

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const rounds = numberArg("--rounds", quick ? 4 : 10);
const perRound = numberArg("--calls", quick ? 1000 : 2000);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const children = [];
watchdog("bench/store.mjs", 600, children);

if (spawnSync("sh", ["-c", "command -v redis-server"]).status !== 0) {
  console.error("bench/store.mjs needs redis-server (Debian: apt-get install -y redis-server); .ci/run installs it");
  process.exit(1);
}
const port = await freePort();
const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
children.push(redis);
await new Promise((resolve, reject) => {
  let out = "";
  redis.stdout.on("data", (b) => {
    out += b;
    if (/Ready to accept connections/.test(out)) resolve();
  });
  redis.once("exit", (code) => reject(new Error(`redis-server exited ${code}:\n${out}`)));
});

const RULES = `name: store-bench
rules:
  - id: taint
    match: { direction: inbound, kind: response, tool: fetch }
    decision: allow
    label: untrusted
  - id: no-send-after-taint
    match: { direction: outbound, method: tools/call, tool: "send_*" }
    when: '"untrusted" in session.labels'
    decision: deny
  - id: call-rate
    match: { direction: outbound, method: tools/call }
    limit: { count: 100000, per: 1m, key: session }
    decision: deny
    reasonCode: RATE_LIMITED
`;
const { ruleSet } = loadRules([{ file: "store-bench.yaml", text: RULES }]);
const memory = new EmbeddedGuardian(ruleSet);
// Without the once-a-second epoch check: it is no message's cost, and would show in the commands counted per message.
const store = new SharedStore({ redis: `redis://127.0.0.1:${port}`, keyPrefix: "bench:", onUnavailable: "closed", timeoutMs: 500, probeMs: 3_600_000 });
const state = new SharedGuardianState(store);
const shared = EmbeddedGuardian.withStore(ruleSet, state);
for (let i = 0; i < 500 && !state.available; i++) await new Promise((r) => setTimeout(r, 10));
if (!state.available) throw new Error("the store did not come up");

// Round trips as guardwire starts them: a command on its own, or a pipeline (whose commands carry its stream). What
// an answer waits for is sent before call() returns; the writes go after the reads are answered, unawaited.
let trips = 0;
const client = store.client;
const sendCommand = client.sendCommand.bind(client);
client.sendCommand = (command, stream, ...rest) => {
  if (stream === undefined) trips++;
  return sendCommand(command, stream, ...rest);
};
const pipeline = client.pipeline.bind(client);
client.pipeline = (...a) => {
  const p = pipeline(...a);
  const exec = p.exec.bind(p);
  p.exec = (...e) => {
    trips++;
    return exec(...e);
  };
  return p;
};

const call = (i) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: i % 4 === 0 ? "send_mail" : "search", arguments: { q: `query ${i}` } } });
const reqs = Array.from({ length: 64 }, (_v, i) => buildAosRequest("protocols/MCP", call(i), { direction: "outbound", session: `s${i % 16}`, route: "bench", server: { name: "srv" } }));
// A message no rule reads shared state for: a tool result (no label rule matches it, no limit on responses).
const plain = buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } }, { direction: "inbound", session: "s0", route: "bench", request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search" } } });

async function run(g, n, lat) {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const a = g.call(reqs[i % 64]);
    if (a instanceof Promise) await a;
    if (lat) lat.push(performance.now() - t);
  }
}
/** Calls with `width` in flight at a time, as a busy replica judges them: CPU per call only. */
async function runConcurrent(g, n, width) {
  for (let i = 0; i < n; i += width) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + width); j++) batch.push(g.call(reqs[j % 64]));
    await Promise.all(batch);
  }
}
// Warm-up (JIT, scripts loaded into Redis, connections) before anything is measured.
await run(memory, 3000);
await run(shared, 3000);

const fig = { memory: { cpu: [], p50: [] }, redis: { cpu: [], p50: [], serverCpu: [], concurrentCpu: [] } };
for (let r = 0; r < rounds; r++) {
  for (const which of r % 2 ? ["redis", "memory"] : ["memory", "redis"]) {
    const g = which === "redis" ? shared : memory;
    const lat = [];
    const c0 = process.cpuUsage();
    const s0 = cpuOf(redis.pid);
    await run(g, perRound, lat);
    const c = process.cpuUsage(c0);
    fig[which].cpu.push((c.user + c.system) / perRound);
    fig[which].p50.push(pct(lat, 50) * 1000);
    if (which === "redis") {
      fig.redis.serverCpu.push(((cpuOf(redis.pid) - s0) * 1e6) / perRound);
      const k0 = process.cpuUsage();
      await runConcurrent(shared, perRound, 32);
      const k = process.cpuUsage(k0);
      fig.redis.concurrentCpu.push((k.user + k.system) / perRound);
    }
  }
}

// Round trips per judged message, counted here and as Redis saw them.
const stats = async () => Object.fromEntries([...(await client.info("commandstats")).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1], Number(m[2])]));
const countFor = async (req, n) => {
  const before = await stats();
  let awaited = 0;
  let all = 0;
  let sync = 0;
  for (let i = 0; i < n; i++) {
    const t0 = trips;
    const a = shared.call(req(i));
    awaited += trips - t0;
    if (a instanceof Promise) await a;
    else sync++;
    all += trips - t0;
  }
  await new Promise((r) => setTimeout(r, 100));
  const after = await stats();
  const ran = Object.fromEntries(Object.entries(after).filter(([k]) => k !== "info").map(([k, v]) => [k, (v - (before[k] ?? 0)) / n]).filter(([, v]) => v > 0));
  return { awaitedRoundTrips: awaited / n, unawaitedWrites: (all - awaited) / n, synchronous: sync / n, redisCommandsPerMessage: ran };
};
const judged = await countFor((i) => reqs[i % 64], 1000);
const readsNothing = await countFor(() => plain, 1000);

const med = (xs) => pct(xs, 50);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  rounds,
  callsPerRound: perRound,
  memory: { cpuUsPerCall: med(fig.memory.cpu), p50us: med(fig.memory.p50) },
  redis: { cpuUsPerCall: med(fig.redis.cpu), p50us: med(fig.redis.p50), redisServerCpuUsPerCall: med(fig.redis.serverCpu), cpuUsPerCall32InFlight: med(fig.redis.concurrentCpu) },
  addedCpuUsPerCall: med(fig.redis.cpu.map((c, i) => c - fig.memory.cpu[i])),
  addedP50us: med(fig.redis.p50.map((p, i) => p - fig.memory.p50[i])),
  roundTrips: { judgedToolCall: judged, messageReadingNoSharedState: readsNothing },
};
await store.close();
redis.kill();
writeFileSync(join(root, "bench", "results-store.json"), JSON.stringify(results, null, 2) + "\n");

const row = (what, value) => console.log(`${what.padEnd(60)} ${value.padStart(12)}`);
console.log(`\nguardwire bench — the guardian's state in memory against in Redis (loopback redis-server, ${rounds} interleaved rounds of ${perRound} calls)\n`);
row("CPU per call, state in memory", `${results.memory.cpuUsPerCall.toFixed(1)} µs`);
row("CPU per call, state in Redis (this process)", `${results.redis.cpuUsPerCall.toFixed(1)} µs`);
row("  added CPU per call", `${results.addedCpuUsPerCall.toFixed(1)} µs`);
row("  CPU per call with 32 calls in flight (this process)", `${results.redis.cpuUsPerCall32InFlight.toFixed(1)} µs`);
row("  redis-server CPU per call", `${results.redis.redisServerCpuUsPerCall.toFixed(1)} µs`);
row("p50 per call, state in memory", `${results.memory.p50us.toFixed(1)} µs`);
row("p50 per call, state in Redis", `${results.redis.p50us.toFixed(1)} µs`);
row("  added p50 per call", `${results.addedP50us.toFixed(1)} µs`);
row("awaited round trips per judged tools/call", judged.awaitedRoundTrips.toFixed(2));
row("unawaited writes per judged tools/call", judged.unawaitedWrites.toFixed(2));
row("awaited round trips, message reading no shared state", readsNothing.awaitedRoundTrips.toFixed(2));
console.log(`Redis commands per judged tools/call: ${JSON.stringify(judged.redisCommandsPerMessage)}`);
console.log("\nfull figures: bench/results-store.json");
