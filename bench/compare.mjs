// Before/after on a shared, noisy machine: `node bench/compare.mjs <other checkout> [--rounds N]` (both built) measures
// another guardwire build against this one IN THE SAME ROUNDS, so load that comes and goes falls on both alike:
//   1. in process: CPU µs per `echo` call through a Session (embedded guardian, bench/rules-30.yaml, a DecisionLog on
//      a temp file), each build in turn, 40 alternating rounds;
//   2. end to end: the MCP SDK client → a bare byte pipe / the other build's `wrap` / this build's `wrap` →
//      server-everything, rotating order: sequential p50 and 32-in-flight throughput against the pipe, and each
//      process's CPU per call from /proc.
// Medians over rounds. The other checkout is typically `git archive <commit> | tar -x -C /tmp/x` with node_modules
// linked and `npx tsc -p tsconfig.build.json` run there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cpuOf, numberArg, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2] && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
if (!other) {
  console.error("usage: node bench/compare.mjs <other guardwire checkout, built> [--rounds N]");
  process.exit(2);
}
const ROUNDS = numberArg("--rounds", 10);
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const rules = join(root, "bench", "rules-30.yaml");
const dir = mkdtempSync(join(tmpdir(), "guardwire-compare-"));
watchdog("compare", 600);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const builds = { before: other, after: root };

// 1. In process.
const request = (i) => JSON.stringify({ method: "tools/call", params: { name: "echo", arguments: { message: `hello ${i}` }, _meta: { progressToken: i } }, jsonrpc: "2.0", id: i });
const response = (i) => JSON.stringify({ result: { content: [{ type: "text", text: `Echo: hello ${i}` }] }, jsonrpc: "2.0", id: i });
async function sessionOf(name) {
  const M = await import(join(builds[name], "dist", "index.js"));
  const { ruleSet } = M.loadRules(M.readRuleSources(rules));
  const log = M.DecisionLog.open({ dest: join(dir, `${name}.ndjson`) });
  const peer = { send: () => undefined };
  const session = new M.Session(peer, peer, { guardian: new M.EmbeddedGuardian(ruleSet), log, route: "bench", transport: "stdio" });
  let id = 1;
  const run = async (calls) => {
    const t = process.cpuUsage();
    for (let k = 0; k < calls; k += 64) {
      for (let j = 0; j < 64; j++, id++) {
        session.fromDownstream({ text: request(id) });
        session.fromUpstream({ text: response(id) });
      }
      await new Promise((r) => setImmediate(r));
    }
    const u = process.cpuUsage(t);
    return (u.user + u.system) / calls;
  };
  return { run, log };
}
const inproc = { before: [], after: [] };
const s = { before: await sessionOf("before"), after: await sessionOf("after") };
for (let r = 0; r < 44; r++) {
  for (const k of r % 2 ? ["before", "after"] : ["after", "before"]) {
    const us = await s[k].run(5000);
    if (r >= 4) inproc[k].push(us);
  }
}
for (const k of Object.keys(s)) await s[k].log.close();

// 2. End to end.
const kinds = {
  pipe: [join(root, "bench", "run.mjs"), "--pipe", process.execPath, everything, "stdio"],
  before: [join(other, "dist", "cli", "main.js"), "wrap", "--rules", rules, "--log", join(dir, "e2e-before.ndjson"), "--", process.execPath, everything, "stdio"],
  after: [join(root, "dist", "cli", "main.js"), "wrap", "--rules", rules, "--log", join(dir, "e2e-after.ndjson"), "--", process.execPath, everything, "stdio"],
};
const conns = {};
for (const [k, args] of Object.entries(kinds)) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
  const client = new Client({ name: "guardwire-compare", version: "1.0.0" });
  await client.connect(transport);
  conns[k] = { client, pid: transport.pid };
}
const echo = (c, i) => c.callTool({ name: "echo", arguments: { message: `hello ${i}` } });
const burst = async (c, calls) => {
  let n = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (n < calls) await echo(c, n++);
  }));
};
for (const k in conns) {
  await burst(conns[k].client, 3000);
  for (let i = 0; i < 500; i++) await echo(conns[k].client, i);
}
const per = Object.fromEntries(Object.keys(conns).map((k) => [k, { p50: [], tput: [], cpu: [] }]));
const names = Object.keys(conns);
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < names.length; j++) {
    const k = names[(r + j) % names.length];
    const { client, pid } = conns[k];
    const lat = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await echo(client, i);
      lat.push(performance.now() - t);
    }
    per[k].p50.push(median(lat));
    const c0 = cpuOf(pid);
    const t0 = performance.now();
    await burst(client, 2000);
    per[k].tput.push(2000 / ((performance.now() - t0) / 1000));
    per[k].cpu.push(((cpuOf(pid) - c0) / 2000) * 1e6);
  }
}
for (const k in conns) await conns[k].client.close();
rmSync(dir, { recursive: true, force: true, maxRetries: 3 });

const added = (k) => median(per[k].p50.map((x, i) => x - per.pipe.p50[i])) * 1000;
const ratio = (k) => median(per[k].tput.map((x, i) => x / per.pipe.tput[i]));
console.log(`\nguardwire compare — ${new Date().toISOString()}, node ${process.version}; before: ${other}`);
console.log(`in process, CPU µs per call (Session + guardian + log), median of ${inproc.before.length} alternating rounds: before ${median(inproc.before).toFixed(1)}, after ${median(inproc.after).toFixed(1)}`);
console.log(`end to end, ${ROUNDS} rotating rounds against a bare byte pipe (pipe: p50 ${median(per.pipe.p50).toFixed(3)} ms, CPU ${median(per.pipe.cpu).toFixed(0)} µs/call):`);
for (const k of ["before", "after"]) {
  console.log(`  ${k.padEnd(6)} added p50 ${added(k).toFixed(0)} µs, throughput ÷ pipe ${ratio(k).toFixed(2)} ×, wrap CPU ${median(per[k].cpu).toFixed(0)} µs/call`);
}
process.exit(0);
