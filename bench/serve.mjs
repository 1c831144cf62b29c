// `npm run bench`, part 3: `guardwire serve`, measured against a direct connection in the same run.
//   1. Streamable HTTP: MCP SDK client → guardwire route → server-everything (HTTP), vs the client → server directly.
//   2. A stdio server served over HTTP: guardwire (guardian on, default pack) vs supergateway (no policy), same server.
//   3. 1,000 idle sessions through an HTTP route: guardwire's RSS.
//   4. A 10 MB tool result through an HTTP route: guardwire's peak RSS growth.
//   5. 32 concurrent 15 MB request bodies through an HTTP route: guardwire's peak RSS stays under the body budget
//      (http.bodyBudgetBytes, 64 MiB by default) over its baseline; the bodies past the budget get 503 (`--bodies-only`).
// Rounds interleave the contenders in rotating order; medians across rounds are reported. Every loop is bounded.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cpuOf, freePort, numberArg, startNode, watchdog } from "./lib.mjs";

/** A difference with its sign: +0.012, -0.034. */
const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

// Reference relay mode: `node bench/serve.mjs --relay <port> <target url>` is a policy-free Streamable HTTP relay (read
// the body, parse it as any JSON-RPC-aware proxy must, POST it upstream with undici, stream the answer back): the floor
// for any Node proxy that adds an HTTP hop. Measured in the same rounds, it shows what the hop itself costs here.
if (process.argv[2] === "--relay") {
  const { createServer: httpServer } = await import("node:http");
  const undici = await import("undici");
  const [port, target] = process.argv.slice(3);
  const agent = new undici.Agent({ keepAliveTimeout: 30_000 });
  httpServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString();
    if (body) JSON.parse(body);
    const pass = (from, names) => Object.fromEntries(names.filter((n) => from[n] !== undefined).map((n) => [n, from[n]]));
    const up = await undici.request(target, {
      method: req.method,
      headers: pass(req.headers, ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"]),
      body: body || undefined,
      dispatcher: agent,
      bodyTimeout: 0,
    });
    res.writeHead(up.statusCode, pass(up.headers, ["content-type", "mcp-session-id", "cache-control"]));
    for await (const c of up.body) res.write(c);
    res.end();
  }).listen(Number(port), "127.0.0.1", () => console.log("relay listening"));
  await new Promise(() => {});
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const supergateway = join(root, "node_modules", "supergateway", "dist", "index.js");
const bigServer = join(root, "bench", "big-result-server.mjs");
const quick = process.argv.includes("--quick");
const httpOnly = process.argv.includes("--http-only");
const P = quick ? { rounds: 3, calls: 300, seq: 100, sessions: 200 } : { rounds: 9, calls: 1000, seq: 300, sessions: 1000 };
P.rounds = numberArg("--rounds", P.rounds);
const CONCURRENCY = 32;
const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-serve-"));
const children = [];
// More rounds (--rounds), or a loaded machine, take longer: the watchdog is for a hang, not a slow run.
watchdog("bench serve", numberArg("--watchdog", 400), children);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const start = (args, env, ready) => startNode(children, args, env, ready);

async function startEverythingHttp() {
  const port = await freePort();
  await start([everything, "streamableHttp"], { PORT: String(port) }, /listening on port/i);
  return `http://127.0.0.1:${port}/mcp`;
}

async function startGuardwire(name, mcp, build = root) {
  const config = join(dir, `${name}.yaml`);
  const yaml = [
    `listen: { host: 127.0.0.1, port: 0 }`,
    `log: ${join(dir, `${name}.ndjson`)}`,
    ...(process.env.BENCH_RULES ? [`rules: ${process.env.BENCH_RULES}`] : []),
    `routes:`,
    `  - name: ${name}`,
    `    path: /mcp/${name}`,
    `    mcp: ${JSON.stringify(mcp)}`,
  ].join("\n");
  writeFileSync(config, yaml);
  const { child, match } = await start([join(build, "dist", "cli", "main.js"), "serve", "--config", config, "--pins", join(dir, "pins.json"), "--no-watch"], {}, /serving (http:\/\/\S+)/);
  return { url: `${match[1]}/mcp/${name}`, pid: child.pid };
}

async function startRelay(target) {
  const port = await freePort();
  const { child } = await start([fileURLToPath(import.meta.url), "--relay", String(port), target], {}, /relay listening/);
  return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid };
}

async function startSupergateway() {
  const port = await freePort();
  await start(
    [supergateway, "--stdio", `${process.execPath} ${everything} stdio`, "--outputTransport", "streamableHttp", "--stateful", "--port", String(port), "--logLevel", "info"],
    {},
    /Listening on port|listening/i,
  );
  return `http://127.0.0.1:${port}/mcp`;
}

async function connect(url) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const echo = (client, i) => client.callTool({ name: "echo", arguments: { message: `hello ${i}` } });

/**
 * Sequential latency (p50 of `seq` calls) and throughput (`calls` calls, 32 in flight) on one connection, and the CPU
 * the middle process (`pid`, when there is one) used per call in the throughput phase.
 */
async function measure(client, pid) {
  for (let i = 0; i < 50; i++) await echo(client, i);
  const lat = [];
  for (let i = 0; i < P.seq; i++) {
    const t = performance.now();
    await echo(client, i);
    lat.push(performance.now() - t);
  }
  let next = 0;
  const cpu0 = cpuOf(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < P.calls) await echo(client, next++);
    }),
  );
  const tput = P.calls / ((performance.now() - t0) / 1000);
  const cpu1 = cpuOf(pid);
  return { p50: median(lat), tput, cpuUs: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) / P.calls) * 1e6 };
}

async function rounds(contenders) {
  const clients = {};
  for (const [name, c] of Object.entries(contenders)) clients[name] = await connect(typeof c === "string" ? c : c.url);
  const per = Object.fromEntries(Object.keys(contenders).map((n) => [n, []]));
  const names = Object.keys(contenders);
  for (let r = 0; r < P.rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      per[name].push(await measure(clients[name], typeof contenders[name] === "string" ? null : contenders[name].pid));
    }
  }
  for (const c of Object.values(clients)) await c.close();
  return per;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** Opens one idle Streamable HTTP session with raw HTTP: initialize, initialized, and the standalone GET stream. */
async function openIdleSession(url, agent) {
  const post = (body, sid) =>
    new Promise((resolve, reject) => {
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
      if (sid) headers["mcp-session-id"] = sid;
      const req = request(url, { method: "POST", headers, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers["mcp-session-id"]));
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const sid = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "idle", version: "1" } } });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid);
  await new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" }, agent }, (res) => resolve(res));
    req.on("error", reject);
    req.end();
  });
}

/** A 10 MB tool result through an HTTP route: guardwire's peak RSS growth over its size (one fresh proxy). */
async function bigResultOnce() {
  const bigPort = await freePort();
  await start([bigServer], { PORT: String(bigPort) }, /listening/);
  const big = await startGuardwire("big", { url: `http://127.0.0.1:${bigPort}/mcp` });
  const client = await connect(big.url);
  await client.callTool({ name: "big", arguments: { mb: 1 } });
  const base = rssMb(big.pid);
  const r = await client.callTool({ name: "big", arguments: { mb: 10 } });
  const size = r.content[0].text.length;
  const after = rssMb(big.pid);
  await client.close();
  for (const c of children.splice(-2)) c.kill("SIGTERM");
  return { bytes: size, rssBeforeMb: base.rss, peakMb: after.hwm, growthMb: after.hwm - base.rss, growthRatio: (after.hwm - base.rss) / (size / 1024 / 1024) };
}

/**
 * Peak RSS depends on when V8 happens to collect the copies a large message passes through (the same run gave 1.7 ×
 * to 5.8 × here), so the figure is the median of several fresh proxies, with the range.
 */
async function bigResult() {
  const runs = [];
  for (let i = 0; i < (quick ? 3 : 9); i++) runs.push(await bigResultOnce());
  const ratios = runs.map((r) => r.growthRatio).sort((a, b) => a - b);
  return { bytes: runs[0].bytes, runs, growthRatio: ratios[Math.floor(ratios.length / 2)], min: ratios[0], max: ratios[ratios.length - 1] };
}

/** One 15 MB tools/call body (a small call padded with an argument the server ignores), raw: its HTTP status. */
function postBody(url, sid, body) {
  return new Promise((resolve) => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", "mcp-session-id": sid };
    const req = request(url, { method: "POST", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", (e) => (process.env.BENCH_DEBUG && console.error(e.message), resolve(0)));
    req.end(body);
  });
}

/** 32 concurrent 15 MB bodies through a fresh proxy: peak RSS over the baseline, against the body budget. */
async function largeBodies() {
  const upstream = await startEverythingHttp();
  const g = await startGuardwire("bodies", { url: upstream });
  const sid = await new Promise((resolve, reject) => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bodies", version: "1" } } };
    const req = request(g.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers["mcp-session-id"]));
    });
    req.on("error", reject);
    req.end(JSON.stringify(init));
  });
  await postBody(g.url, sid, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  const size = 15 * 1024 * 1024;
  const body = (i) => JSON.stringify({ jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name: "get-sum", arguments: { a: 1, b: 2, pad: "x".repeat(size) } } });
  // Warm-up: one body on its own, so the baseline includes what any single large body leaves behind.
  await postBody(g.url, sid, body(-1));
  await new Promise((r) => setTimeout(r, 1000));
  const base = rssMb(g.pid);
  const statuses = await Promise.all(Array.from({ length: 32 }, (_, i) => postBody(g.url, sid, body(i))));
  const peak = rssMb(g.pid);
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssMb(g.pid);
  for (const c of children.splice(-2)) c.kill("SIGTERM");
  const count = (code) => statuses.filter((s) => s === code).length;
  return { bodies: 32, bodyBytes: size, budgetMb: 64, baselineMb: base.rss, peakMb: peak.hwm, growthMb: peak.hwm - base.rss, afterMb: after.rss, ok: count(200), refused503: count(503), other: 32 - count(200) - count(503) };
}

async function main() {
  const results = { date: new Date().toISOString(), node: process.version, quick, params: { ...P, concurrency: CONCURRENCY } };
  if (process.argv.includes("--bodies-only")) {
    console.log(await largeBodies());
    for (const c of children) c.kill("SIGTERM");
    process.exit(0);
  }
  if (process.argv.includes("--big-only")) {
    console.log(await bigResult());
    for (const c of children) c.kill("SIGTERM");
    process.exit(0);
  }

  // 1 + 2: interleaved rounds of direct HTTP, guardwire HTTP→HTTP, guardwire HTTP→stdio and supergateway HTTP→stdio.
  const direct = await startEverythingHttp();
  const viaHttp = await startGuardwire("http", { url: direct });
  const relay = await startRelay(direct);
  const contenders = { direct, guardwire: viaHttp, relay };
  // BENCH_OTHER=<another checkout, built>: its guardwire in the same rounds too (before/after a change).
  if (process.env.BENCH_OTHER) contenders.other = await startGuardwire("other", { url: direct }, process.env.BENCH_OTHER);
  if (!httpOnly) {
    contenders.guardwireStdio = (await startGuardwire("stdio", { command: process.execPath, args: [everything, "stdio"] })).url;
    contenders.supergateway = await startSupergateway();
  }
  const per = await rounds(contenders);
  const med = (name, key) => median(per[name].map((m) => m[key]));
  const ratio = (a, b, key) => median(per[a].map((m, i) => m[key] / per[b][i][key]));
  const diff = (a, b, key) => median(per[a].map((m, i) => m[key] - per[b][i][key]));
  results.http = {
    directTput: med("direct", "tput"),
    proxiedTput: med("guardwire", "tput"),
    tputRatio: ratio("guardwire", "direct", "tput"),
    directP50Ms: med("direct", "p50"),
    proxiedP50Ms: med("guardwire", "p50"),
    addedP50Ms: diff("guardwire", "direct", "p50"),
    relayTputRatio: ratio("relay", "direct", "tput"),
    relayAddedP50Ms: diff("relay", "direct", "p50"),
    // The targets: guardwire against the bare relay measured in the same rounds.
    relayTput: med("relay", "tput"),
    relayP50Ms: med("relay", "p50"),
    tputRatioVsRelay: ratio("guardwire", "relay", "tput"),
    addedP50MsVsRelay: diff("guardwire", "relay", "p50"),
    cpuUsPerCall: med("guardwire", "cpuUs"),
    relayCpuUsPerCall: med("relay", "cpuUs"),
    cpuRatioVsRelay: ratio("guardwire", "relay", "cpuUs"),
  };
  if (per.other) {
    results.http.other = { build: process.env.BENCH_OTHER, cpuUsPerCall: med("other", "cpuUs"), cpuRatioVsRelay: ratio("other", "relay", "cpuUs"), cpuRatioVsThis: ratio("guardwire", "other", "cpuUs"), addedP50MsVsThis: diff("guardwire", "other", "p50") };
    const o = results.http.other;
    o.tputRatioVsThis = ratio("guardwire", "other", "tput");
    o.rounds = per.other.map((m, i) => ({ cpu: per.guardwire[i].cpuUs / m.cpuUs, p50Ms: per.guardwire[i].p50 - m.p50, tput: per.guardwire[i].tput / m.tput }));
    console.log(`BENCH_OTHER ${o.build}: CPU per call ${o.cpuUsPerCall.toFixed(0)} µs (÷ relay ${o.cpuRatioVsRelay.toFixed(2)} ×); this build ÷ other ${o.cpuRatioVsThis.toFixed(3)} ×, p50 ${o.addedP50MsVsThis >= 0 ? "+" : ""}${o.addedP50MsVsThis.toFixed(3)} ms, throughput ${o.tputRatioVsThis.toFixed(3)} ×`);
    console.log(`  per round, this ÷ other: CPU ${o.rounds.map((r) => r.cpu.toFixed(2)).join(" ")}; p50 ${o.rounds.map((r) => signed(r.p50Ms)).join(" ")} ms; throughput ${o.rounds.map((r) => r.tput.toFixed(2)).join(" ")}`);
  }
  const line = (what, value, target, ok) => console.log(`${what.padEnd(58)} ${value.padStart(14)}   ${target.padEnd(10)} ${ok ? "ok" : "MISSED"}`);
  const h = results.http;
  const vsRelay = () => {
    line("Streamable HTTP CPU per call, guardwire ÷ bare relay", `${h.cpuRatioVsRelay.toFixed(2)} ×`, "≤ 1.3 ×", h.cpuRatioVsRelay <= 1.3);
    console.log(`  CPU per call (median of rounds): guardwire ${h.cpuUsPerCall.toFixed(0)} µs, relay ${h.relayCpuUsPerCall.toFixed(0)} µs`);
    line("Streamable HTTP added p50 over the bare relay, sequential", `${signed(h.addedP50MsVsRelay)} ms`, "≤ 0.05 ms", h.addedP50MsVsRelay <= 0.05);
    console.log(`  p50: direct ${h.directP50Ms.toFixed(3)}, relay ${h.relayP50Ms.toFixed(3)}, guardwire ${h.proxiedP50Ms.toFixed(3)} ms; throughput guardwire ÷ relay ${h.tputRatioVsRelay.toFixed(2)} ×`);
  };
  if (httpOnly) {
    console.log(`\nguardwire serve bench, Streamable HTTP only — ${results.date.slice(0, 10)}, node ${process.version}${quick ? ", QUICK" : ""}, ${P.rounds} interleaved rounds, medians\n`);
    vsRelay();
    writeFileSync(join(root, "bench", "results-serve-http.json"), JSON.stringify({ ...results, rounds: per }, null, 2) + "\n");
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => (c.once("exit", r), c.kill("SIGTERM"))) : null)));
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    process.exit(0);
  }
  results.stdioOverHttp = {
    guardwireTput: med("guardwireStdio", "tput"),
    supergatewayTput: med("supergateway", "tput"),
    tputRatio: ratio("guardwireStdio", "supergateway", "tput"),
    guardwireP50Ms: med("guardwireStdio", "p50"),
    supergatewayP50Ms: med("supergateway", "p50"),
  };

  // 3: idle sessions.
  const idle = await startGuardwire("idle", { url: direct });
  const before = rssMb(idle.pid).rss;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  for (let i = 0; i < P.sessions; i += 50) await Promise.all(Array.from({ length: Math.min(50, P.sessions - i) }, () => openIdleSession(idle.url, agent)));
  await new Promise((r) => setTimeout(r, 1000));
  results.idleSessions = { sessions: P.sessions, rssBeforeMb: before, rssAfterMb: rssMb(idle.pid).rss };
  agent.destroy();

  results.bigResult = await bigResult();
  results.largeBodies = await largeBodies();
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => (c.once("exit", r), c.kill("SIGTERM"))) : null)));
  rmSync(dir, { recursive: true, force: true });

  const s = results.stdioOverHttp;
  console.log(`\nguardwire serve bench — ${results.date.slice(0, 10)}, node ${process.version}${quick ? ", QUICK" : ""}, ${P.rounds} interleaved rounds, medians\n`);
  line("Streamable HTTP throughput, proxied ÷ direct (32 in flight)", `${h.tputRatio.toFixed(2)} ×`, "≥ 0.85 ×", h.tputRatio >= 0.85);
  line("Streamable HTTP added p50 latency", `${signed(h.addedP50Ms)} ms`, "≤ 0.15 ms", h.addedP50Ms <= 0.15);
  line("stdio over HTTP, guardwire ÷ supergateway throughput", `${s.tputRatio.toFixed(2)} ×`, "≥ 1.0 ×", s.tputRatio >= 1);
  line("stdio over HTTP p50, guardwire vs supergateway", `${s.guardwireP50Ms.toFixed(2)} / ${s.supergatewayP50Ms.toFixed(2)} ms`, "≤", s.guardwireP50Ms <= s.supergatewayP50Ms);
  line(`${P.sessions} idle sessions, guardwire RSS`, `${results.idleSessions.rssAfterMb.toFixed(0)} MB`, "< 250 MB", results.idleSessions.rssAfterMb < 250);
  line("10 MB tool result, peak RSS growth ÷ size (median)", `${results.bigResult.growthRatio.toFixed(2)} ×`, "< 3 ×", results.bigResult.growthRatio < 3);
  console.log(`  ${results.bigResult.runs.length} fresh proxies, ranged ${results.bigResult.min.toFixed(2)}–${results.bigResult.max.toFixed(2)} ×`);
  const b = results.largeBodies;
  line("32 concurrent 15 MB bodies, peak RSS over baseline", `${b.growthMb.toFixed(0)} MB`, `< ${b.budgetMb} MB`, b.growthMb < b.budgetMb);
  console.log(`  ${b.ok} answered, ${b.refused503} refused 503 (over the budget), ${b.other} other; RSS ${b.baselineMb.toFixed(0)} MB before, ${b.afterMb.toFixed(0)} MB 2 s after`);
  vsRelay();
  console.log(`reference: a policy-free Node HTTP relay in the same rounds: ${h.relayTputRatio.toFixed(2)} × throughput, ${signed(h.relayAddedP50Ms)} ms p50`);
  console.log(`(direct ${h.directTput.toFixed(0)} calls/s, p50 ${h.directP50Ms.toFixed(3)} ms; proxied ${h.proxiedTput.toFixed(0)} calls/s, p50 ${h.proxiedP50Ms.toFixed(3)} ms)`);
  writeFileSync(join(root, "bench", "results-serve.json"), JSON.stringify({ ...results, rounds: per }, null, 2) + "\n");
  console.log("all figures, per round: bench/results-serve.json");
  process.exit(0);
}

await main();
