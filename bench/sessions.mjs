// Sessions: what an MCP Streamable HTTP session costs `guardwire serve` in memory and descriptors, and whether many of
// them opened and closed leave anything behind. Real processes on loopback: server-everything (streamableHttp) as the
// upstream, `guardwire serve` (default rules, one route to it), and raw node:http clients speaking the protocol.
//   1. idle sessions: N sessions opened (initialize, notifications/initialized, the standalone GET stream) and left
//      open; memory after a full collection and descriptors, before and after, divided by N. The floor, in the same
//      run: the same sessions through the policy-free HTTP relay (`node bench/serve.mjs --relay`), which holds the
//      same two connections per idle session (the agent's GET stream and the upstream's) and nothing else.
//   2. churn: 10,000 sessions, each opened, one tools/call (echo), and closed (DELETE), 50 at a time; RSS, heap and
//      descriptors sampled after a collection every 1,000 sessions. Flat: the last samples no higher than the first
//      after warm-up, beyond noise (the slope per 1,000 sessions is reported).
// Both processes run under `node --expose-gc --import bench/mem-probe.mjs`, which collects and measures on a signal.
// `node bench/sessions.mjs [--idle N] [--churn N] [--snapshot]` after a build; `--quick`: 300 idle, 2,000 churned.
// `--snapshot` also writes heap snapshots before and after the idle sessions and prints what the difference holds,
// by constructor (bench/results-sessions-heap.json).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, numberArg, startNode, watchdog } from "./lib.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli", "main.js");
const PROBE = join(ROOT, "bench", "mem-probe.mjs");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const quick = process.argv.includes("--quick");
const IDLE = numberArg("--idle", quick ? 300 : 1000);
const CHURN = numberArg("--churn", quick ? 2000 : 10_000);
const SNAPSHOT = process.argv.includes("--snapshot");
const BATCH = 50;
const SAMPLE_EVERY = Math.max(BATCH, Math.round(CHURN / 10 / BATCH) * BATCH);
const children = [];
watchdog("sessions.mjs", 1800, children);
const dir = mkdtempSync(join(tmpdir(), "gw-sessions-bench-"));
process.on("exit", () => (process.env.BENCH_KEEP ? console.log(`kept ${dir}`) : rmSync(dir, { recursive: true, force: true })));

// ---- the processes --------------------------------------------------------------------------------------------------
async function probed(name, args, ready) {
  const file = join(dir, `${name}.probe`);
  const { child, match } = await startNode(children, ["--expose-gc", "--import", PROBE, ...args], { MEM_PROBE: file }, ready);
  child.stderr.on("data", (b) => process.env.BENCH_VERBOSE && process.stderr.write(`[${name}] ${b}`));
  let n = 0;
  /** Memory after a full collection, and open descriptors, as the process itself sees them. */
  const measure = async (snapshotFile) => {
    const id = `${++n} ${snapshotFile ? `snapshot ${snapshotFile}` : "measure"}`;
    writeFileSync(file + ".req", id);
    process.kill(child.pid, "SIGUSR2");
    for (let i = 0; i < 6000; i++) {
      if (existsSync(file)) {
        const a = JSON.parse(readFileSync(file, "utf8"));
        if (a.id === id) return a;
      }
      await sleep(20);
    }
    throw new Error(`${name}: no answer from the memory probe`);
  };
  return { child, match, measure };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const upstreamPort = await freePort();
await startNode(children, [EVERYTHING, "streamableHttp"], { PORT: String(upstreamPort) }, /listening on port/i);
const upstream = `http://127.0.0.1:${upstreamPort}/mcp`;

writeFileSync(
  join(dir, "serve.yaml"),
  ["listen: { host: 127.0.0.1, port: 0 }", `log: ${join(dir, "serve.ndjson")}`, "routes:", "  - name: everything", "    path: /mcp/everything", `    mcp: { url: ${JSON.stringify(upstream)} }`].join("\n"),
);
const serve = await probed("serve", [CLI, "serve", "--config", join(dir, "serve.yaml"), "--pins", join(dir, "pins.json"), "--no-watch"], /serving (http:\/\/\S+)/);
const serveUrl = `${serve.match[1]}/mcp/everything`;
const relayPort = await freePort();
const relay = await probed("relay", [join(ROOT, "bench", "serve.mjs"), "--relay", String(relayPort), upstream], /relay listening/);
const relayUrl = `http://127.0.0.1:${relayPort}/mcp`;

// ---- a raw Streamable HTTP client -----------------------------------------------------------------------------------
const PROTOCOL = "2025-06-18";
/**
 * One POST; its answer's JSON-RPC message (from a JSON body or the SSE events), status and session id. A request on a
 * kept-alive connection that the server closed as it was sent (its keep-alive timeout: the race every HTTP client
 * has) is sent again once, on a new connection, and counted; any other failure ends the run.
 */
let resent = 0;
async function post(url, agent, body, sid) {
  try {
    return await postOnce(url, agent, body, sid);
  } catch (e) {
    if (!e.reused) throw e;
    resent++;
    return postOnce(url, agent, body, sid);
  }
}
function postOnce(url, agent, body, sid) {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": PROTOCOL };
    if (sid) headers["mcp-session-id"] = sid;
    const req = request(url, { method: "POST", headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        const json = (res.headers["content-type"] ?? "").includes("text/event-stream")
          ? text
              .split("\n")
              .filter((l) => l.startsWith("data:"))
              .map((l) => JSON.parse(l.slice(5)))
              .find((m) => m.id !== undefined)
          : text
            ? JSON.parse(text)
            : undefined;
        resolve({ status: res.statusCode, sid: res.headers["mcp-session-id"], json });
      });
      res.on("error", reject);
    });
    req.on("error", (e) => reject(Object.assign(new Error(`POST ${body.method} to ${url}${sid ? ` (session ${sid})` : ""}: ${e.message}`), { reused: req.reusedSocket && e.code === "ECONNRESET" })));
    req.end(JSON.stringify(body));
  });
}

async function open(url, agent) {
  const init = await post(url, agent, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "sessions-bench", version: "1" } } });
  if (init.status !== 200 || !init.sid || !init.json?.result) throw new Error(`initialize: ${init.status} ${JSON.stringify(init.json)}`);
  const note = await post(url, agent, { jsonrpc: "2.0", method: "notifications/initialized" }, init.sid);
  if (note.status !== 202) throw new Error(`notifications/initialized: ${note.status}`);
  return init.sid;
}

/** The standalone GET stream, left open; resolves once its headers are in, with a way to close it. */
function stream(url, agent, sid) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL }, agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET stream: ${res.statusCode}`));
      res.resume();
      resolve(() => req.destroy());
    });
    req.on("error", (e) => (e.code === "ECONNRESET" ? undefined : reject(e)));
    req.end();
  });
}

async function del(url, agent, sid) {
  try {
    return await delOnce(url, agent, sid);
  } catch (e) {
    if (!e.reused) throw e;
    resent++;
    return delOnce(url, agent, sid);
  }
}
function delOnce(url, agent, sid) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL }, agent }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 || res.statusCode === 204 ? resolve() : reject(new Error(`DELETE: ${res.statusCode}`))));
    });
    req.on("error", (e) => reject(Object.assign(new Error(`DELETE ${url} (session ${sid}): ${e.message}`), { reused: req.reusedSocket && e.code === "ECONNRESET" })));
    req.end();
  });
}

/** One whole session: opened, one tools/call, closed with DELETE. */
async function churnOne(url, agent, i) {
  const sid = await open(url, agent);
  const r = await post(url, agent, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: `m${i}` } } }, sid);
  if (r.json?.result?.content?.[0]?.text !== `Echo: m${i}`) throw new Error(`echo: ${JSON.stringify(r.json)}`);
  await del(url, agent, sid);
}

// ---- 1. idle sessions -------------------------------------------------------------------------------------------------
const kb = (bytes) => bytes / 1024;
const procStatus = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  return { rssKb: Number(/VmRSS:\s+(\d+)/.exec(s)[1]), fds: readdirSync(`/proc/${pid}/fd`).length };
};

async function idle(name, proc, url) {
  let agent = new Agent({ keepAlive: true, maxSockets: 64 });
  // Warm-up: the code paths compiled, pools and caches at their working size.
  for (let i = 0; i < 100; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => churnOne(url, agent, i + j)));
  const snapBefore = SNAPSHOT ? join(dir, `${name}-before.heapsnapshot`) : undefined;
  const before = await proc.measure(snapBefore);
  const statusBefore = procStatus(proc.child.pid);
  const sids = [];
  const closers = [];
  for (let i = 0; i < IDLE; i += BATCH) {
    const opened = await Promise.all(Array.from({ length: Math.min(BATCH, IDLE - i) }, () => open(url, agent)));
    sids.push(...opened);
    // Each GET stream holds its own connection (the agent's pool is for the POSTs).
    closers.push(...(await Promise.all(opened.map((sid) => stream(url, new Agent({ keepAlive: false }), sid)))));
  }
  await sleep(500);
  const snapAfter = SNAPSHOT ? join(dir, `${name}-after.heapsnapshot`) : undefined;
  const after = await proc.measure(snapAfter);
  const statusAfter = procStatus(proc.child.pid);
  // Closed again: streams dropped, sessions deleted (a new pool: the measurement may have outlasted the keep-alive).
  agent.destroy();
  agent = new Agent({ keepAlive: true, maxSockets: 64 });
  for (const c of closers) c();
  for (let i = 0; i < sids.length; i += BATCH) await Promise.all(sids.slice(i, i + BATCH).map((sid) => del(url, agent, sid)));
  agent.destroy();
  // Past the upstream pool's keep-alive (3 s): the connections the sessions' streams used are let go by then.
  await sleep(5000);
  const snapClosed = SNAPSHOT ? join(dir, `${name}-closed.heapsnapshot`) : undefined;
  const closed = await proc.measure(snapClosed);
  const per = (k) => kb(after[k] - before[k]) / IDLE;
  return {
    sessions: IDLE,
    perSessionKb: { rss: per("rss"), heapUsed: per("heapUsed"), external: per("external"), rssFromProc: (statusAfter.rssKb - statusBefore.rssKb) / IDLE },
    fdsPerSession: (after.fds - before.fds) / IDLE,
    before,
    after,
    closed,
    snapshots: SNAPSHOT ? { before: snapBefore, after: snapAfter, closed: snapClosed } : undefined,
  };
}

// ---- 2. churn ---------------------------------------------------------------------------------------------------------
async function churn(proc, url) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const samples = [];
  const sample = async (done) => {
    const m = await proc.measure();
    samples.push({ sessions: done, rssKb: kb(m.rss), heapUsedKb: kb(m.heapUsed), externalKb: kb(m.external), fds: m.fds });
  };
  await sample(0);
  const t0 = performance.now();
  for (let i = 0; i < CHURN; i += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, CHURN - i) }, (_, j) => churnOne(url, agent, i + j)));
    if ((i + BATCH) % SAMPLE_EVERY === 0 || i + BATCH >= CHURN) await sample(Math.min(i + BATCH, CHURN));
  }
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  await sleep(5000);
  await sample(CHURN);
  // The slope of a least-squares line through the samples after the first tenth (warm-up), per 1,000 sessions.
  const tail = samples.filter((s) => s.sessions >= SAMPLE_EVERY);
  const slope = (key) => {
    const xs = tail.map((s) => s.sessions / 1000);
    const ys = tail.map((s) => s[key]);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const num = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
    const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    return den ? num / den : 0;
  };
  return { sessions: CHURN, seconds, samples, slopePer1000: { rssKb: slope("rssKb"), heapUsedKb: slope("heapUsedKb"), fds: slope("fds") } };
}

// ---- heap snapshot difference, by constructor ----------------------------------------------------------------------
function bySelfSize(file) {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const iType = f.indexOf("type");
  const iName = f.indexOf("name");
  const iSize = f.indexOf("self_size");
  const n = f.length;
  const out = new Map();
  for (let i = 0; i < snap.nodes.length; i += n) {
    const type = types[snap.nodes[i + iType]];
    const name = type === "object" || type === "closure" ? snap.strings[snap.nodes[i + iName]] : `(${type})`;
    const key = type === "closure" ? `closure ${name}` : name;
    const e = out.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += snap.nodes[i + iSize];
    out.set(key, e);
  }
  return out;
}
function heapDiff(before, after, sessions) {
  const a = bySelfSize(before);
  const b = bySelfSize(after);
  const rows = [];
  for (const [k, v] of b) {
    const w = a.get(k) ?? { count: 0, size: 0 };
    const d = v.size - w.size;
    if (d > 0) rows.push({ what: k, perSessionBytes: d / sessions, perSessionCount: (v.count - w.count) / sessions });
  }
  rows.sort((x, y) => y.perSessionBytes - x.perSessionBytes);
  return { totalPerSessionBytes: rows.reduce((s, r) => s + r.perSessionBytes, 0), top: rows.slice(0, 30) };
}

// ---- run ------------------------------------------------------------------------------------------------------------
const results = { when: new Date().toISOString(), node: process.version, batch: BATCH };
results.idle = { guardwire: await idle("serve", serve, serveUrl), relay: await idle("relay", relay, relayUrl) };
if (SNAPSHOT) {
  for (const who of ["guardwire", "relay"]) {
    const s = results.idle[who].snapshots;
    results.idle[who].heapDiff = heapDiff(s.before, s.after, IDLE);
    results.idle[who].retainedAfterClose = heapDiff(s.before, s.closed, IDLE);
  }
}
if (CHURN > 0) results.churn = await churn(serve, serveUrl);
results.resentOnClosedKeepAlive = resent;
writeFileSync(join(ROOT, "bench", "results-sessions.json"), JSON.stringify(results, null, 2) + "\n");

const g = results.idle.guardwire;
const r = results.idle.relay;
const f1 = (x) => x.toFixed(1);
console.log(`sessions: ${IDLE} idle Streamable HTTP sessions (initialize, initialized, GET stream), memory after a full collection`);
console.log(`  guardwire serve: ${f1(g.perSessionKb.rss)} KB RSS per session (heap ${f1(g.perSessionKb.heapUsed)} KB, external ${f1(g.perSessionKb.external)} KB), ${f1(g.fdsPerSession)} descriptors   target ≤ 50 KB: ${g.perSessionKb.rss <= 50 ? "ok" : "MISSED"}`);
console.log(`  floor: bare HTTP relay: ${f1(r.perSessionKb.rss)} KB RSS per session (heap ${f1(r.perSessionKb.heapUsed)} KB), ${f1(r.fdsPerSession)} descriptors; guardwire ÷ relay ${(g.perSessionKb.rss / r.perSessionKb.rss).toFixed(2)} ×, +${f1(g.perSessionKb.rss - r.perSessionKb.rss)} KB`);
console.log(`  after closing them: guardwire heap ${f1(kb(g.closed.heapUsed) / 1024)} MB (before ${f1(kb(g.before.heapUsed) / 1024)}), descriptors ${g.closed.fds} (before ${g.before.fds})`);
if (SNAPSHOT) {
  for (const who of ["guardwire", "relay"]) {
    const d = results.idle[who].heapDiff;
    console.log(`  ${who} heap growth per idle session by constructor (self size; ${f1(d.totalPerSessionBytes / 1024)} KB in all):`);
    for (const row of d.top.slice(0, 15)) console.log(`    ${String(Math.round(row.perSessionBytes)).padStart(7)} B  ${row.perSessionCount.toFixed(1).padStart(6)} ×  ${row.what}`);
    const k = results.idle[who].retainedAfterClose;
    console.log(`  ${who}: still held after the sessions were closed, per session (${f1(k.totalPerSessionBytes / 1024)} KB in all):`);
    for (const row of k.top.slice(0, 8)) console.log(`    ${String(Math.round(row.perSessionBytes)).padStart(7)} B  ${row.perSessionCount.toFixed(1).padStart(6)} ×  ${row.what}`);
  }
}
const c = results.churn;
if (!c) process.exit(0);
const first = c.samples.find((s) => s.sessions >= SAMPLE_EVERY);
const last = c.samples.at(-1);
console.log(`churn: ${CHURN} sessions opened, one echo each, closed (${BATCH} at a time, ${c.seconds.toFixed(0)} s)`);
console.log(`  RSS ${f1(first.rssKb / 1024)} → ${f1(last.rssKb / 1024)} MB, heap ${f1(first.heapUsedKb / 1024)} → ${f1(last.heapUsedKb / 1024)} MB, descriptors ${first.fds} → ${last.fds} (from ${first.sessions} sessions to the end)`);
console.log(`  slope per 1,000 sessions: RSS ${f1(c.slopePer1000.rssKb)} KB, heap ${f1(c.slopePer1000.heapUsedKb)} KB, descriptors ${c.slopePer1000.fds.toFixed(2)}`);
process.exit(0);
