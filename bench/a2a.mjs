// `npm run bench`, part 4: A2A through a guardwire route, against the same @a2a-js/sdk client → agent directly.
//   1. message/send throughput at 32 concurrent calls, proxied ÷ direct;
//   2. per streamed event: a stream of 200 artifact updates, (proxied − direct) stream time ÷ events.
// Rounds interleave direct, proxied and a policy-free relay (a reference: `node bench/serve.mjs --relay`, which reads
// each POST, parses it, sends it on with undici and streams the answer back; the client uses the agent's card with its
// url pointed at the relay); medians across rounds. The agent is test/fixtures/servers/a2a-agent-03.mjs.
// BENCH_OTHER=<another checkout, built>: its guardwire in the same rounds too (before/after a change); --no-big skips 3.
// The CPU each proxy (and the relay) used per send, from /proc, is reported beside the throughput.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClientFactory } from "a2a-sdk-03/client";
import { cpuOf, numberArg, startNode, watchdog } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const P = quick ? { rounds: 3, calls: 300, streams: 5, events: 200 } : { rounds: 9, calls: 1000, streams: 10, events: 200 };
P.rounds = numberArg("--rounds", P.rounds);
const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-a2a-"));
const children = [];
watchdog("bench a2a", 300, children);

/** The match of `ready` in the child's output, with its pid and the child. */
async function start(args, ready) {
  const { child, match } = await startNode(children, args, { PORT: "0" }, ready);
  return Object.assign(match, { pid: child.pid, child });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const message = (text) => ({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }] } });

async function measure(client, pid) {
  let next = 0;
  const cpu0 = cpuOf(pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next++ < P.calls) await client.sendMessage(message("hello"));
  }));
  const tput = P.calls / ((performance.now() - t0) / 1000);
  const cpu1 = cpuOf(pid);
  const cpuUs = cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) / P.calls) * 1e6;
  const perEvent = [];
  for (let s = 0; s < P.streams; s++) {
    const t = performance.now();
    let n = 0;
    for await (const e of client.sendMessageStream(message(`burst ${P.events}`))) if (e.kind === "artifact-update") n++;
    if (n !== P.events) throw new Error(`expected ${P.events} events, got ${n}`);
    perEvent.push((performance.now() - t) / P.events);
  }
  return { tput, perEventMs: median(perEvent), cpuUs };
}

const agentPort = (await start([join(root, "test", "fixtures", "servers", "a2a-agent-03.mjs")], /listening (\d+)/))[1];
/** A serve config for the agent, with its own decision log (a log file is written by one process at a time). */
const configOf = (name) => {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`listen: { host: 127.0.0.1, port: 0 }`, `log: ${join(dir, `${name}.ndjson`)}`, `routes:`, `  - { name: echo, path: /a2a/echo, a2a: { url: "http://127.0.0.1:${agentPort}" } }`].join("\n"));
  return file;
};
const config = configOf("a2a");
const served = await start([join(root, "dist", "cli", "main.js"), "serve", "--config", config, "--pins", join(dir, "pins.json"), "--no-watch"], /serving (http:\/\/\S+)/);
const base = served[1];
const relayPort = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const card = await (await fetch(`http://127.0.0.1:${agentPort}/.well-known/agent-card.json`)).json();
const relayed = await start([join(root, "bench", "serve.mjs"), "--relay", String(relayPort), card.url], /relay listening/);
const direct = await new ClientFactory().createFromUrl(`http://127.0.0.1:${agentPort}`);
const proxied = await new ClientFactory().createFromUrl(`${base}/a2a/echo/`);
const relay = await new ClientFactory().createFromAgentCard({ ...card, url: `http://127.0.0.1:${relayPort}/`, additionalInterfaces: [] });
const contenders = [["direct", direct, null], ["proxied", proxied, served.pid], ["relay", relay, relayed.pid]];
if (process.env.BENCH_OTHER) {
  const other = await start([join(process.env.BENCH_OTHER, "dist", "cli", "main.js"), "serve", "--config", configOf("other"), "--pins", join(dir, "pins-other.json"), "--no-watch"], /serving (http:\/\/\S+)/);
  contenders.push(["other", await new ClientFactory().createFromUrl(`${other[1]}/a2a/echo/`), other.pid]);
}
for (const [, client, pid] of contenders) await measure(client, pid);
const rounds = [];
for (let r = 0; r < P.rounds; r++) {
  const round = {};
  for (let i = 0; i < contenders.length; i++) {
    const [name, client, pid] = contenders[(i + r) % contenders.length];
    round[name] = await measure(client, pid);
  }
  rounds.push(round);
}
// 3. A 10 MB artifact streamed through a fresh proxy: its peak RSS growth over the artifact's size (median of three).
const rssOf = (pid) => {
  const st = readFileSync(`/proc/${pid}/status`, "utf8");
  return { rss: Number(/VmRSS:\s+(\d+)/.exec(st)[1]) / 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(st)[1]) / 1024 };
};
const bigRuns = [];
for (let i = 0; i < (process.argv.includes("--no-big") ? 0 : quick ? 1 : 3); i++) {
  const fresh = await start([join(root, "dist", "cli", "main.js"), "serve", "--config", configOf(`fresh-${i}`), "--pins", join(dir, "pins.json"), "--no-watch"], /serving (http:\/\/\S+)/);
  const client = await new ClientFactory().createFromUrl(`${fresh[1]}/a2a/echo/`);
  for await (const _e of client.sendMessageStream(message("big 1"))) void _e;
  const before = rssOf(fresh.pid);
  let size = 0;
  for await (const e of client.sendMessageStream(message("big 10"))) if (e.kind === "artifact-update") size = e.artifact.parts[0].text.length;
  const after = rssOf(fresh.pid);
  if (size !== 10 * 1024 * 1024) throw new Error(`the 10 MB artifact arrived as ${size} characters`);
  bigRuns.push((after.hwm - before.rss) / 10);
  await new Promise((r) => (fresh.child.once("exit", r), fresh.child.kill("SIGTERM")));
}
const bigGrowth = bigRuns.length > 0 ? median(bigRuns) : null;

const ratio = median(rounds.map((r) => r.proxied.tput / r.direct.tput));
const added = median(rounds.map((r) => r.proxied.perEventMs - r.direct.perEventMs));
const relayRatio = median(rounds.map((r) => r.relay.tput / r.direct.tput));
const relayAdded = median(rounds.map((r) => r.relay.perEventMs - r.direct.perEventMs));
const line = (what, value, target, ok) => console.log(`${what.padEnd(58)} ${value.padStart(14)}   ${target.padEnd(10)} ${ok ? "ok" : "MISSED"}`);
console.log(`\nguardwire A2A bench — node ${process.version}${quick ? ", QUICK" : ""}, ${P.rounds} interleaved rounds, medians\n`);
line("message/send throughput, proxied ÷ direct (32 in flight)", `${ratio.toFixed(2)} ×`, "≥ 0.85 ×", ratio >= 0.85);
line("per streamed event, added latency", `+${(added * 1000).toFixed(0)} µs`, "≤ 100 µs", added <= 0.1);
if (bigGrowth !== null) console.log(`10 MB artifact streamed through a fresh proxy: peak RSS growth ÷ size ${bigGrowth.toFixed(2)} × (median of ${bigRuns.length}: ${bigRuns.map((x) => x.toFixed(2)).join(", ")})`);
console.log(`reference: a policy-free Node HTTP relay in the same rounds: ${relayRatio.toFixed(2)} × throughput, +${(relayAdded * 1000).toFixed(0)} µs per event`);
console.log(`(direct ${median(rounds.map((r) => r.direct.tput)).toFixed(0)} sends/s, ${(median(rounds.map((r) => r.direct.perEventMs)) * 1000).toFixed(0)} µs/event; proxied ${median(rounds.map((r) => r.proxied.tput)).toFixed(0)} sends/s, ${(median(rounds.map((r) => r.proxied.perEventMs)) * 1000).toFixed(0)} µs/event)`);
const cpu = (name) => median(rounds.map((r) => r[name].cpuUs));
console.log(`CPU per send (median of rounds): guardwire ${cpu("proxied").toFixed(0)} µs, relay ${cpu("relay").toFixed(0)} µs (÷ relay ${median(rounds.map((r) => r.proxied.cpuUs / r.relay.cpuUs)).toFixed(2)} ×)`);
let other = null;
if (process.env.BENCH_OTHER) {
  other = {
    build: process.env.BENCH_OTHER,
    throughputRatio: median(rounds.map((r) => r.other.tput / r.direct.tput)),
    addedPerEventMs: median(rounds.map((r) => r.other.perEventMs - r.direct.perEventMs)),
    cpuUsPerSend: cpu("other"),
    thisTputOverOther: median(rounds.map((r) => r.proxied.tput / r.other.tput)),
    thisCpuOverOther: median(rounds.map((r) => r.proxied.cpuUs / r.other.cpuUs)),
    thisPerEventMinusOtherUs: median(rounds.map((r) => (r.proxied.perEventMs - r.other.perEventMs) * 1000)),
  };
  console.log(`BENCH_OTHER ${other.build}: ${other.throughputRatio.toFixed(2)} × direct, +${(other.addedPerEventMs * 1000).toFixed(0)} µs per event, CPU ${other.cpuUsPerSend.toFixed(0)} µs per send; this build ÷ other: throughput ${other.thisTputOverOther.toFixed(3)} ×, CPU ${other.thisCpuOverOther.toFixed(3)} ×, per event ${other.thisPerEventMinusOtherUs >= 0 ? "+" : ""}${other.thisPerEventMinusOtherUs.toFixed(0)} µs`);
}
writeFileSync(join(root, "bench", "results-a2a.json"), JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, params: P, throughputRatio: ratio, addedPerEventMs: added, relayThroughputRatio: relayRatio, relayAddedPerEventMs: relayAdded, cpuUsPerSend: cpu("proxied"), relayCpuUsPerSend: cpu("relay"), other, bigArtifactGrowth: bigGrowth, bigArtifactRuns: bigRuns, rounds }, null, 2) + "\n");
await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((r) => (c.once("exit", r), c.kill("SIGTERM")))));
rmSync(dir, { recursive: true, force: true });
process.exit(0);
