// `node bench/faults/cluster.mjs [--rounds N]`: one session everywhere, in a loop, on a real cluster: three
// `guardwire serve` replicas (dist/) sharing a real redis-server, in front of server-everything over Streamable HTTP
// (through a pass-through that records what reaches it, holding each `notifications/initialized` back a few ms) and
// over stdio (the session lives in one replica, the others forward to it). Each round, for each route, a session is:
//   opened on one replica, its `notifications/initialized` sent through a second, its next request through a third
//     (the tools server-everything adds on `initialized` must be there, and the server must have seen the
//     notification first);
//   used through every replica (get-sum);
//   listed through a replica's admin API as one row naming every replica it touched (every 10th round);
//   deleted through one replica, then asked for through every replica: each must answer 404 at once.
// Prints what it measured (acknowledgement and DELETE times, the checks made) and exits 1 on any violation, 2 on a hang.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionTokens } from "../../dist/store/session-token.js";
import { freePort, numberArg, startNode, watchdog } from "../lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const rounds = numberArg("--rounds", 50);
const HOLD_MS = 20;
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

const children = [];
watchdog("faults/cluster", 120 + rounds * 10, children);
const dir = mkdtempSync(join(tmpdir(), "guardwire-faults-cluster-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const violations = [];
const violation = (what) => {
  violations.push(what);
  if (violations.length <= 20) console.error(`VIOLATION ${what}`);
};

/** What reached server-everything, per server session, in the order it passed it on. */
const seen = new Map();
async function startRecorder(target) {
  const to = new URL(target);
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const pass = () => {
        const sid = req.headers["mcp-session-id"];
        if (req.method === "POST" && typeof sid === "string") {
          const list = seen.get(sid) ?? [];
          list.push(JSON.parse(body).method ?? "response");
          seen.set(sid, list);
        }
        const out = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        out.on("error", () => res.destroy());
        res.on("close", () => out.destroy());
        out.end(body);
      };
      if (body.includes('"notifications/initialized"')) setTimeout(pass, HOLD_MS);
      else pass();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}${to.pathname}`, close: () => (server.closeAllConnections(), server.close()) };
}

async function startRedis() {
  const bin = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  if (!bin) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  const port = await freePort();
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b) => {
      out += b;
      if (/Ready to accept connections/.test(out)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
  return `redis://127.0.0.1:${port}`;
}

const post = (url, sid, body) => fetch(url, { method: "POST", headers: sid ? { ...HEADERS, "mcp-session-id": sid } : HEADERS, body: JSON.stringify(body) });

/** The JSON-RPC answer of a POST (JSON, or the answering event of an SSE stream). */
async function answerOf(res) {
  const text = await res.text();
  if (text.startsWith("{")) return JSON.parse(text);
  const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
  return events.find((e) => e.method === undefined) ?? {};
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const key = randomBytes(32).toString("base64");
const tokens = new SessionTokens([key]);
const redisUrl = await startRedis();
const upPort = await freePort();
children.push(spawn(process.execPath, [everything, "streamableHttp"], { env: { ...process.env, PORT: String(upPort) }, stdio: "ignore" }));
// server-everything takes a moment to listen: the recorder's first POST is retried by nothing, so wait for it.
for (let i = 0; ; i++) {
  try {
    await fetch(`http://127.0.0.1:${upPort}/mcp`, { method: "GET" });
    break;
  } catch {
    if (i > 100) throw new Error("server-everything did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}
const recorder = await startRecorder(`http://127.0.0.1:${upPort}/mcp`);
writeFileSync(join(dir, "rules.yaml"), "name: faults-cluster\ndefault: allow\nrules: []\n");

const replicas = [];
for (const id of ["r1", "r2", "r3"]) {
  const config = join(dir, `${id}.yaml`);
  writeFileSync(
    config,
    [
      "listen: { host: 127.0.0.1, port: 0 }",
      `rules: ${join(dir, "rules.yaml")}`,
      `log: ${join(dir, "decisions.ndjson")}`,
      `store: { redis: "${redisUrl}" }`,
      `sessions: { keys: ["${key}"] }`,
      "admin: { listen: 127.0.0.1:0 }",
      "routes:",
      "  - name: http",
      "    path: /mcp/http",
      `    mcp: { url: "${recorder.url}" }`,
      "  - name: stdio",
      "    path: /mcp/stdio",
      `    mcp: { command: "${process.execPath}", args: ["${everything}", stdio] }`,
    ].join("\n") + "\n",
  );
  const adminFile = join(dir, `${id}.admin.json`);
  const { match } = await startNode(children, [cli, "serve", "--config", config, "--pins", join(dir, `${id}.pins.json`)], { GUARDWIRE_REPLICA: id, GUARDWIRE_ADMIN_FILE: adminFile }, /serving (http:\/\/\S+)/);
  replicas.push({ id, base: match[1], adminFile });
}

async function listed(r, guardianSession) {
  const a = JSON.parse(readFileSync(r.adminFile, "utf8"));
  const res = await fetch(`${a.url}/api/sessions`, { headers: { authorization: `Bearer ${a.token}` } });
  return (await res.json()).sessions.filter((s) => s.id === guardianSession);
}

const ackMs = { http: [], stdio: [] };
const deleteMs = { http: [], stdio: [] };
let checks404 = 0;
let orderChecks = 0;
let listChecks = 0;
let sessions = 0;

async function round(n, route) {
  const [a, b, c] = [0, 1, 2].map((k) => replicas[(n + k) % 3]);
  const url = (r) => `${r.base}/mcp/${route}`;
  const init = await post(url(a), null, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: { sampling: {} }, clientInfo: { name: "faults", version: "1" } } });
  await init.text();
  const sid = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !sid) return violation(`${route} round ${n}: initialize on ${a.id} answered ${init.status}`);
  sessions++;
  const t0 = performance.now();
  const note = await post(url(b), sid, { jsonrpc: "2.0", method: "notifications/initialized" });
  ackMs[route].push(performance.now() - t0);
  if (note.status !== 202) return violation(`${route} round ${n}: notifications/initialized through ${b.id} answered ${note.status}`);
  const tools = (await answerOf(await post(url(c), sid, { jsonrpc: "2.0", id: 1, method: "tools/list" }))).result?.tools?.map((t) => t.name) ?? [];
  orderChecks++;
  if (!tools.includes("trigger-sampling-request")) violation(`${route} round ${n}: tools/list through ${c.id} came before notifications/initialized through ${b.id} reached the server`);
  for (const [i, r] of replicas.entries()) {
    const answer = await answerOf(await post(url(r), sid, { jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name: "get-sum", arguments: { a: n, b: i } } }));
    if (!JSON.stringify(answer.result ?? {}).includes(String(n + i))) violation(`${route} round ${n}: get-sum through ${r.id}: ${JSON.stringify(answer).slice(0, 200)}`);
  }
  // The token opened with the cluster's key: the guardian session the listings go by, the server's session id.
  const ticket = tokens.open(sid);
  if (n % 10 === 0) {
    listChecks++;
    const want = route === "http" ? "r1,r2,r3" : a.id;
    let rows = [];
    for (let i = 0; i < 100; i++) {
      rows = await listed(c, ticket.session);
      if (rows.length === 1 && rows[0].replicas?.join() === want) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (rows.length !== 1 || rows[0].replicas?.join() !== want) violation(`${route} round ${n}: ${c.id} lists ${JSON.stringify(rows.map((x) => x.replicas))}, want one row on ${want}`);
  }
  const t1 = performance.now();
  const del = await fetch(url(c), { method: "DELETE", headers: { "mcp-session-id": sid } });
  deleteMs[route].push(performance.now() - t1);
  if (del.status !== 200) violation(`${route} round ${n}: DELETE through ${c.id} answered ${del.status}`);
  for (const r of replicas) {
    const res = await post(url(r), sid, { jsonrpc: "2.0", id: 99, method: "tools/list" });
    const text = await res.text();
    checks404++;
    if (res.status !== 404) violation(`${route} round ${n}: after DELETE, ${r.id} answered ${res.status} ${text.slice(0, 160)}`);
  }
  if (route === "http") {
    // What the server saw of this session, in order: the notification before every request after it.
    const order = seen.get(ticket.upstream) ?? [];
    const at = order.indexOf("notifications/initialized");
    if (at < 0 || order.slice(0, at).some((m) => m !== "initialize")) violation(`http round ${n}: the server saw ${order.join(", ")}`);
  }
}

const started = performance.now();
for (let n = 0; n < rounds; n++) {
  await round(n, "http");
  await round(n, "stdio");
}
const seconds = (performance.now() - started) / 1000;
recorder.close();

const ms = (x) => `${x.toFixed(1)} ms`;
console.log(`faults/cluster: ${rounds} rounds, ${sessions} sessions (Streamable HTTP and stdio upstreams, 3 replicas, real Redis) in ${seconds.toFixed(1)} s`);
console.log(`  order: ${orderChecks} notification-then-request checks across replicas (the notification held ${HOLD_MS} ms on its way to the HTTP server), ${seen.size} HTTP server sessions' arrival order checked`);
for (const route of ["http", "stdio"]) {
  const how = route === "http" ? "Streamable HTTP server, notification held 20 ms" : "stdio child, through the owner";
  console.log(`  ${route} (${how}): 202 after p50 ${ms(percentile(ackMs[route], 50))}, p99 ${ms(percentile(ackMs[route], 99))}; DELETE answered after p50 ${ms(percentile(deleteMs[route], 50))}, p99 ${ms(percentile(deleteMs[route], 99))}`);
}
console.log(`  after each DELETE, a request with the deleted token through every replica: ${checks404} requests`);
console.log(`  listings: ${listChecks} checks of one merged row naming every replica`);
console.log(violations.length === 0 ? "  no violation" : `  ${violations.length} violation(s)`);
process.exit(violations.length === 0 ? 0 : 1);
