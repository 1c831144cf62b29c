// `npm run soak -- --minutes N`: steady, bounded, mixed traffic through a real `guardwire wrap` and a real
// `guardwire serve` (both from dist/), sampling each guardwire process's RSS, heap, open descriptors and event-loop
// delay at the start and every --every seconds (default 60), then a verdict on growth. Traffic, at fixed rates:
//   wrap and serve (MCP): echo, echo rewritten by a rule, get-sum, get-sum denied, sampling (the client answers the
//     server's sampling/createMessage), sampling denied, a 1 MiB echo;
//   serve only: sessions opened and closed with DELETE, opened and abandoned, abandoned with a call in flight;
//   A2A through serve's `a2a:` route to a real @a2a-js/sdk agent: message/send and message/stream (tasks, rewritten
//     artifacts, bursts of events, denied streams, a 1 MiB artifact);
//   wrap processes (each with its own server) started, used and stopped.
// The event-loop delay and heap come from bench/soak-probe.mjs, preloaded with `node --import`: guardwire itself is
// unchanged. Results: a table per sample, the verdict, and bench/results-soak.json (or --out). Then the fault runs
// (bench/faults.mjs) for --fault-minutes (default half of --minutes; 0: one pass; --no-faults: none). Exit code 1 if any check fails
// (growth, errors, unanswered requests, processes left behind, a fault run's violation), 2 if the run hangs.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ClientFactory } from "a2a-sdk-03/client";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.js");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const agentScript = join(root, "test", "fixtures", "servers", "a2a-agent-03.mjs");
const probe = join(root, "bench", "soak-probe.mjs");
const rules = join(root, "bench", "soak-rules.yaml");

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const P = {
  minutes: Number(option("--minutes", 10)),
  everySeconds: Number(option("--every", 60)),
  warmupMinutes: Number(option("--warmup", 1)),
  faultMinutes: Number(option("--fault-minutes", Number(option("--minutes", 10)) / 2)),
  sessionIdleSeconds: Number(option("--idle", 60)),
  probeMs: 5000,
  maxInFlightPerKind: 8,
};
const out = option("--out", join(root, "bench", "results-soak.json"));
if (!(P.minutes > P.warmupMinutes) || !(P.everySeconds > 0)) {
  console.error("usage: node bench/soak.mjs --minutes N [--every SECONDS] [--warmup MINUTES] [--idle SECONDS] [--out FILE] (N > warm-up)");
  process.exit(2);
}
// Tolerances for "flat", after the warm-up: growth from the first to the last sample, and the least-squares slope
// projected over the same span, must both stay within them.
const TOLERANCE = { rssMb: (warm) => Math.max(25, warm * 0.2), fds: (warm) => Math.max(10, warm * 0.25) };

const dir = mkdtempSync(join(tmpdir(), "guardwire-soak-"));
const probeEnv = { SOAK_PROBE_DIR: dir, SOAK_PROBE_MS: String(P.probeMs) };
const children = [];
const watchdog = setTimeout(() => {
  console.error(`soak: still running ${P.minutes * 60 + 180} s after the start; giving up`);
  for (const c of children) c.kill("SIGKILL");
  process.exit(2);
}, (P.minutes * 60 + 180) * 1000);
watchdog.unref();

/** Starts `node [--import probe] …args`, resolves when its output matches `ready`. */
function start(args, { env = {}, ready, probed = true }) {
  const child = spawn(process.execPath, [...(probed ? ["--expose-gc", "--import", probe] : []), ...args], {
    env: { ...process.env, ...(probed ? probeEnv : {}), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let text = "";
  return new Promise((resolve, reject) => {
    const on = (b) => {
      text = (text + b.toString()).slice(-8192);
      const m = ready.exec(text);
      if (m) resolve({ child, pid: child.pid, match: m });
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${text}`)));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// ---- measurement ----

const lastProbeT = new Map();
function sample(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  const file = join(dir, `${pid}.ndjson`);
  const since = lastProbeT.get(pid) ?? 0;
  const lines = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.t > since) : [];
  if (lines.length > 0) lastProbeT.set(pid, lines.at(-1).t);
  return {
    rssMb,
    fds,
    heapMb: lines.length ? lines.at(-1).heapUsed / 1024 / 1024 : null,
    elMeanMs: lines.length ? lines.reduce((s, l) => s + l.elMeanMs, 0) / lines.length : null,
    elP99Ms: lines.length ? Math.max(...lines.map((l) => l.elP99Ms)) : null,
    elMaxMs: lines.length ? Math.max(...lines.map((l) => l.elMaxMs)) : null,
  };
}

async function firstProbeLine(pid) {
  const file = join(dir, `${pid}.ndjson`);
  const until = Date.now() + P.probeMs * 4;
  while (!existsSync(file) || readFileSync(file, "utf8").length === 0) {
    if (Date.now() > until) throw new Error(`no probe line from ${pid}: was it started with --import ${probe}?`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Pids of a process's children (from /proc), to check that a stopped wrap leaves nothing behind. */
const childPids = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function gone(pids, ms) {
  const until = Date.now() + ms;
  while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

// ---- traffic ----

const counts = new Map();
const count = (key) => {
  if (!counts.has(key)) counts.set(key, { sent: 0, answered: 0, denied: 0, abandoned: 0, errors: 0, skipped: 0, inFlight: 0, errorSamples: {} });
  return counts.get(key);
};
const timers = [];

/** Runs `op` `perMinute` times a minute, at most P.maxInFlightPerKind at once (a tick past that is counted as skipped). */
function steady(key, perMinute, op, phase) {
  const c = count(key);
  let i = 0;
  const period = 60_000 / perMinute;
  const tick = () => {
    if (c.inFlight >= P.maxInFlightPerKind) {
      c.skipped++;
      return;
    }
    c.sent++;
    c.inFlight++;
    op(i++)
      .then((outcome) => c[outcome]++)
      .catch((e) => {
        c.errors++;
        const m = String(e?.message ?? e).slice(0, 200);
        c.errorSamples[m] = (c.errorSamples[m] ?? 0) + 1;
      })
      .finally(() => c.inFlight--);
  };
  timers.push(setTimeout(() => timers.push(setInterval(tick, period)), phase * period));
}

const textOf = (r) => (r.content ?? []).map((c) => c.text ?? "").join("\n");
const expect = (ok, what) => {
  if (!ok) throw new Error(what);
};
const deniedByPolicy = (textOrError) => /Denied by policy|-32050/.test(textOrError);
const MIB = 1024 * 1024;

function mcpClient() {
  const client = new Client({ name: "soak", version: "1" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
    model: "soak-model",
    role: "assistant",
    content: { type: "text", text: `sampled: ${JSON.stringify(req.params.messages).slice(0, 200)}` },
  }));
  return client;
}

/** The MCP kinds, per minute, run against one connected client (through wrap or through serve). */
const mcpKinds = (client) => ({
  echo: [120, async (i) => (expect(textOf(await client.callTool({ name: "echo", arguments: { message: `hello ${i}` } })) === `Echo: hello ${i}`, "echo: wrong text"), "answered")],
  "echo-rewritten": [60, async (i) => {
    const t = textOf(await client.callTool({ name: "echo", arguments: { message: `my secret plan ${i}` } }));
    expect(t === `Echo: my [hidden] plan ${i}`, `rewrite not applied: ${t.slice(0, 80)}`);
    return "answered";
  }],
  "get-sum": [60, async (i) => (expect(/\b5\b/.test(textOf(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }))), `get-sum ${i}: no 5`), "answered")],
  "get-sum-denied": [60, async () => {
    const r = await client.callTool({ name: "get-sum", arguments: { a: 150, b: 1 } });
    expect(r.isError === true && textOf(r).includes("sums over 100 are not allowed"), `deny expected: ${textOf(r).slice(0, 80)}`);
    return "denied";
  }],
  sampling: [30, async (i) => {
    const t = textOf(await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: `hello ${i}`, maxTokens: 10 } }));
    expect(t.includes("sampled:") && t.includes(`hello ${i}`), `sampling answer missing: ${t.slice(0, 80)}`);
    return "answered";
  }],
  "sampling-denied": [15, async () => {
    const r = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "something forbidden", maxTokens: 10 } }).catch((e) => e);
    expect(deniedByPolicy(r instanceof Error ? r.message : textOf(r)), `sampling deny expected: ${String(r?.message ?? textOf(r)).slice(0, 80)}`);
    return "denied";
  }],
  "echo-1MiB": [4, async (i) => {
    const message = `${i} `.padEnd(MIB, "x");
    const t = textOf(await client.callTool({ name: "echo", arguments: { message } }));
    expect(t.length === MIB + 6 && t.startsWith(`Echo: ${i} `), `1 MiB echo came back as ${t.length} characters`);
    return "answered";
  }],
});

async function connectWrap(probed) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(probed ? ["--expose-gc", "--import", probe] : []), cli, "wrap", "--rules", rules, "--log", join(dir, `wrap-${Date.now()}-${Math.random()}.ndjson`), "--pins", join(dir, "pins.json"), "--", process.execPath, everything, "stdio"],
    env: { ...process.env, NO_COLOR: "1", ...(probed ? probeEnv : {}) },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (b) => (stderr = (stderr + b.toString()).slice(-4096)));
  const client = mcpClient();
  await client.connect(transport);
  return { client, transport, pid: transport.pid, stderr: () => stderr };
}

async function sessionOp(url, how) {
  const client = mcpClient();
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const t = textOf(await client.callTool({ name: "echo", arguments: { message: "short-lived" } }));
  expect(t === "Echo: short-lived", `session echo: ${t.slice(0, 80)}`);
  if (how === "closed") await transport.terminateSession();
  if (how !== "in-flight") {
    await client.close();
    return "answered";
  }
  // Vanish while a call is running: close on its first progress notification, without DELETE.
  let closing;
  const call = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 3, steps: 3 } }, undefined, {
    onprogress: () => (closing ??= client.close()),
  });
  const r = await call.then(() => "answered", () => "abandoned");
  await (closing ?? client.close());
  return r;
}

/** Starts a wrap (with its own server), calls through it, stops it, and checks that both processes are gone. */
async function wrapLifecycle(i) {
  const w = await connectWrap(false);
  const pids = [w.pid, ...childPids(w.pid)];
  expect(pids.length === 2, `wrap ${w.pid}: expected one server child, found ${pids.length - 1}`);
  expect(textOf(await w.client.callTool({ name: "echo", arguments: { message: `churn ${i}` } })) === `Echo: churn ${i}`, "churn echo");
  const r = await w.client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 } });
  expect(r.isError === true, "churn deny");
  await w.client.close();
  const left = await gone(pids, 10_000);
  expect(left.length === 0, `processes left behind after the wrap was stopped: ${left.join(", ")}`);
  return "answered";
}

const userMessage = (text) => ({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text }] } });
const artifactText = (events) => events.filter((e) => e.kind === "artifact-update").flatMap((e) => e.artifact.parts.map((p) => p.text ?? ""));
async function collect(stream) {
  const events = [];
  for await (const e of stream) events.push(e);
  return events;
}
const completed = (events) => events.some((e) => e.kind === "status-update" && e.final && e.status.state === "completed");

const a2aKinds = (client) => ({
  send: [60, async (i) => {
    const m = await client.sendMessage(userMessage(`hello ${i}`));
    expect(m.parts?.[0]?.text === `You said: hello ${i}`, `a2a send: ${JSON.stringify(m).slice(0, 80)}`);
    return "answered";
  }],
  "stream-task": [60, async (i) => {
    const ev = await collect(client.sendMessageStream(userMessage(`task ${i}`)));
    expect(completed(ev) && artifactText(ev).includes(`artifact: task ${i}`), `a2a stream: ${ev.length} events`);
    return "answered";
  }],
  "stream-rewritten": [30, async (i) => {
    const texts = artifactText(await collect(client.sendMessageStream(userMessage(`task card 4111 ${i}`))));
    expect(texts.includes(`artifact: task card #### ${i}`), `a2a mask not applied: ${texts.join("|").slice(0, 80)}`);
    return "answered";
  }],
  "stream-burst-20": [20, async () => {
    const ev = await collect(client.sendMessageStream(userMessage("burst 20")));
    expect(artifactText(ev).length === 20 && completed(ev), `burst: ${artifactText(ev).length} artifacts`);
    return "answered";
  }],
  "stream-denied": [20, async () => {
    const e = await collect(client.sendMessageStream(userMessage("task forbidden"))).then(() => null, (err) => err);
    expect(e !== null && deniedByPolicy(String(e.message)), `a2a deny expected: ${String(e?.message ?? "it streamed").slice(0, 80)}`);
    return "denied";
  }],
  "stream-1MiB": [2, async () => {
    const texts = artifactText(await collect(client.sendMessageStream(userMessage("big 1"))));
    expect(texts.length === 1 && texts[0].length === MIB, `1 MiB artifact arrived as ${texts.map((t) => t.length)}`);
    return "answered";
  }],
});

// ---- report ----

function slopePerMin(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

function growth(rows, key, tolerance) {
  const after = rows.filter((r) => r.minute >= P.warmupMinutes - 0.01 && r[key] !== null);
  const warm = after[0][key];
  const last = after.at(-1)[key];
  const slope = slopePerMin(after.map((r) => ({ x: r.minute, y: r[key] })));
  const span = after.at(-1).minute - after[0].minute;
  const tol = tolerance ? tolerance(warm) : null;
  return {
    atStart: rows[0][key],
    afterWarmup: warm,
    last,
    growth: last - warm,
    slopePerMinute: slope,
    tolerance: tol,
    flat: tol === null ? null : last - warm <= tol && slope * span <= tol,
  };
}

const fmt = (x, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));
const clock = (min) => `${Math.floor(min)}:${String(Math.round((min % 1) * 60)).padStart(2, "0")}`;

function totals() {
  const t = { sent: 0, answered: 0, denied: 0, abandoned: 0, errors: 0, skipped: 0, inFlight: 0 };
  for (const c of counts.values()) for (const k of Object.keys(t)) t[k] += c[k];
  return t;
}

// ---- run ----

async function main() {
  const began = new Date();
  console.log(`guardwire soak — ${began.toISOString()}, node ${process.version}, ${P.minutes} min, a sample every ${P.everySeconds} s, warm-up ${P.warmupMinutes} min`);
  const agent = await start([agentScript], { env: { PORT: "0" }, ready: /listening (\d+)/ });
  const upstream = await start([everything, "streamableHttp"], { env: { PORT: String(await freePort()) }, ready: /listening on port (\d+)/i });
  const config = join(dir, "serve.yaml");
  writeFileSync(
    config,
    [
      `listen: { host: 127.0.0.1, port: 0 }`,
      `log: ${join(dir, "serve.ndjson")}`,
      `rules: ${rules}`,
      `sessionIdleSeconds: ${P.sessionIdleSeconds}`,
      `routes:`,
      `  - { name: everything, path: /mcp/everything, mcp: { url: "http://127.0.0.1:${upstream.match[1]}/mcp" } }`,
      `  - { name: echo, path: /a2a/echo, a2a: { url: "http://127.0.0.1:${agent.match[1]}" } }`,
    ].join("\n"),
  );
  const serve = await start([cli, "serve", "--config", config, "--pins", join(dir, "pins.json"), "--no-watch"], { ready: /serving (http:\/\/\S+)/ });
  const base = serve.match[1];
  const mcpUrl = `${base}/mcp/everything`;
  const wrap = await connectWrap(true);

  const serveClient = mcpClient();
  await serveClient.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const a2a = await new ClientFactory().createFromUrl(`${base}/a2a/echo/`);

  const watched = [
    { name: "serve", pid: serve.pid, guardwire: true },
    { name: "wrap", pid: wrap.pid, guardwire: true },
    { name: "(server-everything http)", pid: upstream.pid, guardwire: false },
    { name: "(a2a agent)", pid: agent.pid, guardwire: false },
  ];
  await Promise.all(watched.map((w) => firstProbeLine(w.pid)));

  const rows = [];
  const trafficRows = [];
  const t0 = Date.now();
  const take = () => {
    const minute = (Date.now() - t0) / 60_000;
    const traffic = totals();
    trafficRows.push({ minute, ...traffic });
    for (const w of watched) rows.push({ minute, process: w.name, ...sample(w.pid) });
    console.log(`\n${clock(minute)}  ${"process".padEnd(26)} ${"RSS MB".padStart(8)} ${"heap MB".padStart(8)} ${"fds".padStart(5)} ${"EL mean".padStart(8)} ${"EL p99".padStart(7)} ${"EL max".padStart(7)}  (ms)`);
    for (const r of rows.slice(-watched.length)) {
      console.log(`      ${r.process.padEnd(26)} ${fmt(r.rssMb).padStart(8)} ${fmt(r.heapMb).padStart(8)} ${String(r.fds).padStart(5)} ${fmt(r.elMeanMs, 2).padStart(8)} ${fmt(r.elP99Ms).padStart(7)} ${fmt(r.elMaxMs).padStart(7)}`);
    }
    console.log(`      traffic so far: ${traffic.sent} sent, ${traffic.answered} answered, ${traffic.denied} denied, ${traffic.abandoned} abandoned, ${traffic.errors} errors, ${traffic.skipped} skipped, ${traffic.inFlight} in flight`);
  };
  take();

  const plan = [];
  for (const [target, client] of [["wrap", wrap.client], ["serve", serveClient]]) for (const [kind, [rate, op]] of Object.entries(mcpKinds(client))) plan.push([`${target} ${kind}`, rate, op]);
  plan.push(["serve session-closed", 12, () => sessionOp(mcpUrl, "closed")]);
  plan.push(["serve session-abandoned", 12, () => sessionOp(mcpUrl, "abandoned")]);
  plan.push(["serve session-abandoned-in-flight", 6, () => sessionOp(mcpUrl, "in-flight")]);
  for (const [kind, [rate, op]] of Object.entries(a2aKinds(a2a))) plan.push([`a2a ${kind}`, rate, op]);
  plan.push(["wrap start-call-stop", 2, wrapLifecycle]);
  plan.forEach(([key, rate, op], i) => steady(key, rate, op, i / plan.length));

  const end = t0 + P.minutes * 60_000;
  for (let next = t0 + P.everySeconds * 1000; next <= end + 1; next += P.everySeconds * 1000) {
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    take();
  }
  for (const t of timers) clearInterval(t);
  // Let every request in flight finish (the SDK's own request timeout is 60 s).
  const drainUntil = Date.now() + 90_000;
  while (totals().inFlight > 0 && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 100));

  const traffic = totals();
  const unanswered = traffic.sent - traffic.answered - traffic.denied - traffic.abandoned - traffic.errors;
  const processes = {};
  for (const w of watched) {
    const mine = rows.filter((r) => r.process === w.name);
    processes[w.name] = {
      guardwire: w.guardwire,
      rssMb: growth(mine, "rssMb", w.guardwire ? TOLERANCE.rssMb : null),
      fds: growth(mine, "fds", w.guardwire ? TOLERANCE.fds : null),
      heapMb: growth(mine, "heapMb", null),
      elP99MsMax: Math.max(...mine.map((r) => r.elP99Ms ?? 0)),
      elMaxMsMax: Math.max(...mine.map((r) => r.elMaxMs ?? 0)),
    };
  }
  const failures = [];
  for (const [name, p] of Object.entries(processes)) {
    if (!p.guardwire) continue;
    if (!p.rssMb.flat) failures.push(`${name}: RSS grew ${fmt(p.rssMb.growth)} MB after warm-up (${fmt(p.rssMb.slopePerMinute, 2)} MB/min; tolerance ${fmt(p.rssMb.tolerance)} MB)`);
    if (!p.fds.flat) failures.push(`${name}: descriptors grew by ${p.fds.growth} after warm-up (${fmt(p.fds.slopePerMinute, 2)}/min; tolerance ${fmt(p.fds.tolerance, 0)})`);
  }
  if (traffic.errors > 0) failures.push(`${traffic.errors} requests ended in an unexpected error`);
  if (unanswered !== 0) failures.push(`${unanswered} requests never answered`);
  if (traffic.skipped > 0) failures.push(`${traffic.skipped} ticks skipped: a kind had ${P.maxInFlightPerKind} requests in flight (too slow to keep the rate)`);

  console.log(`\nverdict, after a ${P.warmupMinutes}-minute warm-up (growth = last − first sample after it; slope by least squares):`);
  for (const [name, p] of Object.entries(processes)) {
    const flag = (g) => (g.flat === null ? "" : g.flat ? "flat" : "GROWING");
    console.log(
      `  ${name.padEnd(26)} RSS ${fmt(p.rssMb.afterWarmup)} → ${fmt(p.rssMb.last)} MB (${fmt(p.rssMb.slopePerMinute, 2)} MB/min) ${flag(p.rssMb)}; ` +
        `fds ${p.fds.afterWarmup} → ${p.fds.last} (${fmt(p.fds.slopePerMinute, 2)}/min) ${flag(p.fds)}; heap ${fmt(p.heapMb.afterWarmup)} → ${fmt(p.heapMb.last)} MB (${fmt(p.heapMb.slopePerMinute, 2)} MB/min); ` +
        `EL p99 ≤ ${fmt(p.elP99MsMax)} ms, max ${fmt(p.elMaxMsMax)} ms`,
    );
  }
  console.log(`\ntraffic (${P.minutes} min):`);
  console.log(`  ${"kind".padEnd(40)} ${"sent".padStart(6)} ${"answered".padStart(9)} ${"denied".padStart(7)} ${"abandoned".padStart(10)} ${"errors".padStart(7)} ${"skipped".padStart(8)}`);
  for (const [key, c] of counts) console.log(`  ${key.padEnd(40)} ${String(c.sent).padStart(6)} ${String(c.answered).padStart(9)} ${String(c.denied).padStart(7)} ${String(c.abandoned).padStart(10)} ${String(c.errors).padStart(7)} ${String(c.skipped).padStart(8)}`);
  console.log(`  ${"total".padEnd(40)} ${String(traffic.sent).padStart(6)} ${String(traffic.answered).padStart(9)} ${String(traffic.denied).padStart(7)} ${String(traffic.abandoned).padStart(10)} ${String(traffic.errors).padStart(7)} ${String(traffic.skipped).padStart(8)}   unanswered: ${unanswered}`);
  for (const [key, c] of counts) for (const [m, n] of Object.entries(c.errorSamples)) console.log(`  error ×${n} in ${key}: ${m}`);
  console.log(failures.length ? `\nSOAK FAILED:\n  ${failures.join("\n  ")}` : "\nsoak ok: memory and descriptors flat, every request answered, no unexpected error");

  const result = {
    date: began.toISOString(),
    node: process.version,
    params: P,
    tolerance: "RSS: max(25 MB, 20 % of the first sample after warm-up); fds: max(10, 25 %); growth and slope × span both within it",
    ok: failures.length === 0,
    failures,
    // On failure the decision logs (serve.ndjson, wrap-*.ndjson) are kept here, to see what each process decided.
    logs: failures.length ? dir : null,
    traffic: { ...traffic, unanswered },
    kinds: Object.fromEntries(counts),
    processes,
    samples: rows,
    trafficSamples: trafficRows,
  };
  writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
  console.log(`all samples and counts: ${out}`);

  await wrap.client.close().catch(() => {});
  await serveClient.close().catch(() => {});
  await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((r) => (c.once("exit", r), c.kill("SIGTERM")))));
  if (failures.length) console.log(`decision logs kept for inspection: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  clearTimeout(watchdog);
  if (process.argv.includes("--no-faults")) process.exit(failures.length ? 1 : 0);
  console.log(`\nfault runs, for ${P.faultMinutes} minute(s): node bench/faults.mjs --minutes ${P.faultMinutes}`);
  const faults = await new Promise((resolve) => spawn(process.execPath, [join(root, "bench", "faults.mjs"), "--minutes", String(P.faultMinutes)], { stdio: "inherit" }).on("exit", (code) => resolve(code ?? 1)));
  process.exit(failures.length || faults !== 0 ? 1 : 0);
}

await main();
