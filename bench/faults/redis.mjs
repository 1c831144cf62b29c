// `node bench/faults/redis.mjs [--rounds N]`: Redis faults under steady traffic through a real `guardwire serve`
// (dist/) sharing state in a real redis-server (no persistence), with a limit rule on the only tool. Each round:
//   restart: Redis stopped and started again, empty;
//   flush:   FLUSHALL, Redis running;
//   freeze:  SIGSTOP for a few seconds, then SIGCONT.
// Three MCP SDK clients call `echo` back to back the whole time; the server behind serve (this script, run with
// --recording-server) records when each call reached it. Checked, from the decision log, the server's record and the
// clients' answers:
//   - no more calls allowed than the limit in any window, across every fault (allowed calls by the log's time);
//   - each loss of data noted in the log, and none allowed from the note until one window has passed
//     (store.limitsAfterReset: window);
//   - none allowed, and none reaching the server, while Redis is frozen;
//   - every call answered, with a result, the limit's denial or -32051 (STORE_UNAVAILABLE, STORE_RESET), nothing else;
//   - /readyz 503 while frozen and 200 again after SIGCONT; the decision log verifies.
// Prints what it measured (how long until the freeze and the thaw were seen, the holds) and exits 1 on any violation.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

if (process.argv[2] === "--recording-server") recordingServer(process.argv[3]);
else await main();

/** A minimal MCP server over stdio: one tool, `echo`, each call appended to `file` with the time it arrived. */
function recordingServer(file) {
  const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
  createInterface({ input: process.stdin }).on("line", (line) => {
    const m = JSON.parse(line);
    if (m.id === undefined || typeof m.method !== "string") return;
    if (m.method === "initialize") {
      send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "recorder", version: "1" } } });
    } else if (m.method === "tools/list") {
      send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } } } }] } });
    } else if (m.method === "tools/call") {
      appendFileSync(file, `${Date.now()} ${m.params?.arguments?.message}\n`);
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: `Echo: ${m.params?.arguments?.message}` }] } });
    } else if (m.method === "ping") {
      send({ jsonrpc: "2.0", id: m.id, result: {} });
    } else {
      send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
    }
  });
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const { freePort, startNode, watchdog, numberArg } = await import(join(root, "bench", "lib.mjs"));
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const { Redis } = await import("ioredis");

  const rounds = numberArg("--rounds", 2);
  const WINDOW_MS = 4000;
  const LIMIT = 20;
  /** Between judging and the log line's time; windows are checked this much shorter, holds this much earlier. */
  const SLACK_MS = 250;
  const TIMEOUT_MS = 500;
  const FROZEN_MS = 3000;
  const CLIENTS = 3;

  const children = [];
  watchdog("faults/redis", 120 + rounds * 90, children);
  const dir = mkdtempSync(join(tmpdir(), "guardwire-faults-redis-"));
  const record = join(dir, "received.txt");
  writeFileSync(record, "");

  // Redis, without persistence: a restart comes back empty.
  const redisPort = await freePort();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  let redis = null;
  const startRedis = async () => {
    // Its own folder: a dump.rdb where the run was started must not be read back into a Redis meant to start empty.
    redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(redis);
    await new Promise((resolve, reject) => {
      let out = "";
      redis.stdout.on("data", (b) => (out += b) && /Ready to accept connections/.test(out) && resolve());
      redis.once("error", (e) => reject(new Error(`redis-server could not start (${e.message}): apt-get install -y redis-server`)));
      redis.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
    });
  };
  const stopRedis = () =>
    new Promise((resolve) => {
      redis.once("exit", resolve);
      redis.kill("SIGTERM");
    });
  await startRedis();

  const rules = join(dir, "rules.yaml");
  writeFileSync(rules, `name: faults-redis
rules:
  - id: echo-rate
    match: { direction: outbound, method: tools/call, tool: echo }
    limit: { count: ${LIMIT}, per: ${WINDOW_MS}ms, key: route }
    decision: deny
    reasonCode: RATE_LIMITED
`);
  const config = join(dir, "serve.yaml");
  writeFileSync(config, [
    "listen: { host: 127.0.0.1, port: 0 }",
    `rules: ${rules}`,
    `log: ${join(dir, "decisions.ndjson")}`,
    `store: { redis: "${redisUrl}", timeoutMs: ${TIMEOUT_MS} }`,
    `sessions: { keys: ["${randomBytes(32).toString("base64")}"] }`,
    "routes:",
    "  - name: rec",
    "    path: /mcp/rec",
    `    mcp: { command: "${process.execPath}", args: ["${fileURLToPath(import.meta.url)}", "--recording-server", "${record}"] }`,
  ].join("\n"));
  const { match } = await startNode(children, [join(root, "dist", "cli", "main.js"), "serve", "--config", config], { GUARDWIRE_REPLICA: "f1" }, /serving (http:\/\/\S+)/);
  const base = match[1];
  const log = join(dir, "decisions.f1.ndjson");

  // /readyz, polled every 50 ms: its changes, with their times.
  const readiness = [];
  let polling = true;
  const poll = (async () => {
    let last = null;
    while (polling) {
      const status = await fetch(`${base}/readyz`).then((r) => r.status, () => 0);
      if (status !== last) readiness.push({ t: Date.now(), status });
      last = status;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const readyAfter = async (t, status, ms = 20_000) => {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
      const seen = readiness.find((x) => x.t >= t && x.status === status);
      if (seen) return seen.t;
    }
    return null;
  };
  if ((await readyAfter(0, 200)) === null) throw new Error("serve never became ready");

  // Steady traffic: each client calls echo back to back; every call must be answered, and answered in a known way.
  const outcomes = { allowed: 0, limited: 0, STORE_UNAVAILABLE: 0, STORE_RESET: 0 };
  const violations = [];
  let running = true;
  let seq = 0;
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const client = new Client({ name: `faults-redis-${c}`, version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/rec`)));
      const loop = (async () => {
        while (running) {
          const message = `c${c}-${++seq}`;
          const answer = await Promise.race([
            client.callTool({ name: "echo", arguments: { message } }).then((r) => ({ r }), (e) => ({ e })),
            new Promise((r) => setTimeout(() => r({ unanswered: true }), 30_000)),
          ]);
          if (answer.unanswered) violations.push(`${message}: no answer within 30 s`);
          else if (answer.r && !answer.r.isError) outcomes.allowed++;
          else if (answer.r?.isError && /echo-rate/.test(JSON.stringify(answer.r))) outcomes.limited++;
          else if (answer.e?.code === -32051 && outcomes[answer.e.data?.reasonCode?.[0]] !== undefined) outcomes[answer.e.data.reasonCode[0]]++;
          else violations.push(`${message}: unexpected answer ${JSON.stringify(answer.r ?? { code: answer.e?.code, message: answer.e?.message })}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      return { client, loop };
    }),
  );

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  admin.on("error", () => {});
  const losses = [];
  const freezes = [];
  await sleep(WINDOW_MS * 2);
  for (let round = 1; round <= rounds; round++) {
    // Restarted empty.
    await stopRedis();
    await startRedis();
    losses.push({ round, kind: "restart", t: Date.now() });
    await sleep(WINDOW_MS * 2 + 2000);
    // Flushed, running.
    await admin.flushall();
    losses.push({ round, kind: "flush", t: Date.now() });
    await sleep(WINDOW_MS * 2 + 1000);
    // Frozen.
    const stopped = Date.now();
    redis.kill("SIGSTOP");
    const notReady = await readyAfter(stopped, 503);
    await sleep(Math.max(0, FROZEN_MS - (Date.now() - stopped)));
    const thawed = Date.now();
    redis.kill("SIGCONT");
    const ready = await readyAfter(thawed, 200);
    freezes.push({ round, stopped, thawed, notReadyMs: notReady && notReady - stopped, readyMs: ready && ready - thawed });
    await sleep(WINDOW_MS * 2);
  }
  running = false;
  await Promise.all(clients.map((c) => c.loop));
  await Promise.all(clients.map((c) => c.client.close()));
  polling = false;
  await poll;
  admin.disconnect();
  const serve = children[1];
  await new Promise((resolve) => {
    serve.once("exit", resolve);
    serve.kill("SIGTERM");
  });

  // What the log says was allowed, and what reached the server.
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const allowed = lines.filter((l) => l.method === "tools/call" && l.direction === "outbound" && l.decision === "allow").map((l) => Date.parse(l.time)).sort((a, b) => a - b);
  const received = readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => Number(l.split(" ")[0]));
  // 1. The limit, in every window (a little shorter than the rule's, for the time between judging and logging).
  let most = 0;
  for (let i = 0, j = 0; i < allowed.length; i++) {
    while (allowed[i] - allowed[j] > WINDOW_MS - SLACK_MS) j++;
    most = Math.max(most, i - j + 1);
  }
  if (most > LIMIT) violations.push(`${most} calls allowed within ${WINDOW_MS - SLACK_MS} ms (limit ${LIMIT} per ${WINDOW_MS} ms)`);
  // 2. Holds: after the note of each loss of data (in the log's order), nothing allowed until one window has passed.
  const notes = lines.filter((l) => l.kind === "log" && l.reasonCode[0] === "STORE_RESET");
  if (notes.length !== losses.length) violations.push(`${notes.length} STORE_RESET notes in the log for ${losses.length} losses of data`);
  const holds = losses.map((x, i) => {
    const note = notes[i];
    if (!note) return { ...x, inHold: null, noteAfterMs: null, firstAllowedAfterMs: null };
    const noted = Date.parse(note.time);
    const after = lines.filter((l) => l.seq > note.seq && l.method === "tools/call" && l.direction === "outbound" && l.decision === "allow").map((l) => Date.parse(l.time));
    const inHold = after.filter((t) => t < noted + WINDOW_MS - SLACK_MS).length;
    if (inHold > 0) violations.push(`round ${x.round} ${x.kind}: ${inHold} calls allowed within one window of the loss of data`);
    return { ...x, inHold, noteAfterMs: noted - x.t, firstAllowedAfterMs: after.length > 0 ? after[0] - noted : null };
  });
  // 3. Nothing allowed or received while frozen (from a moment after SIGSTOP: calls judged just before may land).
  for (const f of freezes) {
    const ok = allowed.filter((t) => t >= f.stopped + SLACK_MS && t <= f.thawed).length;
    const got = received.filter((t) => t >= f.stopped + SLACK_MS && t <= f.thawed).length;
    if (ok + got > 0) violations.push(`round ${f.round} freeze: ${ok} calls allowed, ${got} received by the server while Redis was frozen`);
    if (f.notReadyMs === null) violations.push(`round ${f.round} freeze: /readyz never answered 503`);
    if (f.readyMs === null) violations.push(`round ${f.round} freeze: /readyz never answered 200 again after SIGCONT`);
  }
  // 4. The chain verifies.
  const verify = spawnSync(process.execPath, [join(root, "dist", "cli", "main.js"), "verify", log], { encoding: "utf8" });
  if (verify.status !== 0) violations.push(`guardwire verify: ${verify.stdout}${verify.stderr}`);
  if (outcomes.allowed === 0 || outcomes.limited === 0 || outcomes.STORE_RESET === 0) violations.push(`traffic did not exercise every outcome: ${JSON.stringify(outcomes)}`);

  console.log(`faults/redis: ${rounds} round(s), ${CLIENTS} clients, limit ${LIMIT} per ${WINDOW_MS} ms, store.timeoutMs ${TIMEOUT_MS}`);
  console.log(`  calls: ${JSON.stringify(outcomes)}; most allowed in any ${WINDOW_MS - SLACK_MS} ms: ${most}; received by the server: ${received.length}`);
  for (const h of holds) console.log(`  round ${h.round} ${h.kind}: noted ${h.noteAfterMs} ms after; allowed within one window of the note: ${h.inHold}; first allowed ${h.firstAllowedAfterMs} ms after the note`);
  for (const f of freezes) console.log(`  round ${f.round} freeze: /readyz 503 ${f.notReadyMs} ms after SIGSTOP, 200 ${f.readyMs} ms after SIGCONT`);
  console.log(`  STORE_RESET notes: ${notes.length}; log: ${verify.status === 0 ? "verifies" : "DOES NOT VERIFY"}`);
  if (violations.length > 0) {
    console.log(`VIOLATIONS (${violations.length}):`);
    for (const v of violations.slice(0, 50)) console.log(`  ${v}`);
  } else {
    console.log("no violations");
  }
  await stopRedis();
  process.exit(violations.length > 0 ? 1 : 0);
}
