// `node bench/faults/log.mjs [--rounds N]` (after a build): the decision log under crashes, N rounds of each.
//   kill -9 of `wrap` mid-burst (raw test server recording every line it reads) and of `serve` under 32 calls in flight
//     (the invariant suite's recording MCP server over stdio, four MCP SDK clients): every message a server received and
//     every answer a client received must have its decision line; `verify` must say intact or torn, never tampered;
//   a machine crash (root only, with loop devices): the log on an ext4 image, the image copied mid-traffic without a
//     sync and mounted again; `verify` must say intact or torn, and the head must not name a line the disk lacks.
// Prints what it measured per round; exit 1 on any violation, 2 on a hang.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { watchdog } from "../lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const rawServer = join(root, "test", "fixtures", "servers", "raw-server.mjs");
const witness = join(root, "test", "support", "witness.mjs");
const { digest } = await import(join(root, "dist", "proxy", "decision-line.js"));
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const children = [];
watchdog("faults/log", 120 + rounds * 90, children);
const base = mkdtempSync(join(tmpdir(), "guardwire-faults-log-"));
const failures = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = (done) =>
  new Promise((resolve) => {
    const check = () => (done() ? resolve() : setImmediate(check));
    check();
  });
const verify = (file) => spawnSync(process.execPath, [cli, "verify", file], { encoding: "utf8" });
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

function logLines(file) {
  return readFileSync(file, "utf8").split("\n").flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return [];
    }
  });
}

/** Members of `seen` (a multiset) that no line picked by `pick` accounts for, keyed by `key`. */
function unmatched(seen, lines, key) {
  const have = new Map();
  for (const k of lines) have.set(k, (have.get(k) ?? 0) + 1);
  return seen.filter((s) => {
    const n = have.get(key(s)) ?? 0;
    have.set(key(s), n - 1);
    return n <= 0;
  });
}

async function wrapRound(r) {
  const dir = join(base, `wrap-${r}`);
  mkdirSync(dir);
  const log = join(dir, "d.ndjson");
  const received = join(dir, "received.ndjson");
  const wrap = spawn(process.execPath, [cli, "wrap", "--log", log, "--pins", join(dir, "pins.json"), "--", process.execPath, rawServer], { env: { ...process.env, RAW_RECORD: received }, stdio: "pipe" });
  children.push(wrap);
  wrap.stdin.on("error", () => undefined);
  const replies = [];
  const waiting = new Map();
  createInterface({ input: wrap.stdout }).on("line", (line) => {
    const id = JSON.parse(line).id;
    replies.push(id);
    waiting.get(id)?.();
  });
  let next = 1;
  const burst = (n) => {
    let text = "";
    for (let i = 0; i < n; i++) text += JSON.stringify({ jsonrpc: "2.0", id: next++, method: "work", params: {} }) + "\n";
    const last = next - 1;
    wrap.stdin.write(text);
    return new Promise((resolve) => waiting.set(last, resolve));
  };
  const started = Date.now();
  while (Date.now() - started < 700) await burst(200);
  const before = replies.length;
  void burst(2000);
  await until(() => replies.length > before + 50);
  const exited = new Promise((resolve) => wrap.once("exit", resolve));
  wrap.kill("SIGKILL");
  await exited;
  const v = verify(log);
  const lines = logLines(log);
  const atServer = readFileSync(received, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).id);
  const serverLost = unmatched(atServer, lines.filter((l) => l.direction === "outbound" && l.kind === "request").map((l) => l.id), (x) => x);
  const clientLost = unmatched(replies, lines.filter((l) => l.direction === "inbound" && l.kind === "response").map((l) => l.id), (x) => x);
  console.log(`wrap kill -9 #${r + 1}: ${atServer.length} at the server (${serverLost.length} without a line), ${replies.length} at the client (${clientLost.length} without a line), verify exit ${v.status}`);
  check(v.status === 0 || v.status === 3, `wrap #${r + 1}: verify exit ${v.status}: ${v.stderr}`);
  check(serverLost.length === 0 && clientLost.length === 0, `wrap #${r + 1}: messages without a decision line`);
}

async function serveRound(r) {
  const dir = join(base, `serve-${r}`);
  mkdirSync(dir);
  const log = join(dir, "d.ndjson");
  const received = join(dir, "witness.jsonl");
  const config = join(dir, "guardwire.yaml");
  writeFileSync(config, [
    "listen: { host: 127.0.0.1, port: 0 }",
    `log: ${log}`,
    "routes:",
    "  - name: witness",
    "    path: /mcp",
    `    mcp: { command: "${process.execPath}", args: ["${witness}", stdio], env: { WITNESS_FILE: "${received}" } }`,
  ].join("\n"));
  const serve = spawn(process.execPath, [cli, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(serve);
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const on = (b) => {
      out += b.toString();
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) resolve(`${m[1]}/mcp`);
    };
    serve.stdout.on("data", on);
    serve.stderr.on("data", on);
    serve.once("exit", () => reject(new Error(out)));
  });
  const results = [];
  const clients = await Promise.all(Array.from({ length: 4 }, async () => {
    const c = new Client({ name: "faults", version: "1" });
    const t = new StreamableHTTPClientTransport(new URL(url));
    await c.connect(t);
    const deliver = t.onmessage;
    t.onmessage = (m) => {
      if ("result" in m && "id" in m) results.push(m.id);
      deliver?.(m);
    };
    return c;
  }));
  let stop = false;
  const loops = clients.flatMap((c) => Array.from({ length: 8 }, async () => {
    while (!stop) {
      try {
        await c.callTool({ name: "echo", arguments: { message: "load" } });
      } catch {
        return;
      }
    }
  }));
  await until(() => results.length >= 300);
  const exited = new Promise((resolve) => serve.once("exit", resolve));
  serve.kill("SIGKILL");
  await exited;
  stop = true;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(loops);
  const v = verify(log);
  const lines = logLines(log);
  // What the server received, as messages, paired with `allow` lines by digest (what guardwire forwards when it allows).
  const delivered = readFileSync(received, "utf8").trimEnd().split("\n").flatMap((l) => {
    const m = JSON.parse(JSON.parse(l).text);
    return Array.isArray(m) ? m : [m];
  });
  const serverLost = unmatched(delivered, lines.filter((l) => l.direction === "outbound" && l.decision === "allow").map((l) => l.digest), (m) => digest(m));
  const clientLost = unmatched(results, lines.filter((l) => l.direction === "inbound" && l.kind === "response").map((l) => JSON.stringify(l.id)), (id) => JSON.stringify(id));
  console.log(`serve kill -9 #${r + 1}: ${delivered.length} at the server (${serverLost.length} without a line), ${results.length} results at the clients (${clientLost.length} without a line), verify exit ${v.status}`);
  check(v.status === 0 || v.status === 3, `serve #${r + 1}: verify exit ${v.status}: ${v.stderr}`);
  check(serverLost.length === 0 && clientLost.length === 0, `serve #${r + 1}: messages without a decision line`);
}

const loopFsAvailable = () => process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v mkfs.ext4 && command -v losetup"]).status === 0;

async function crashRound(r) {
  const dir = join(base, `crash-${r}`);
  const mnt = join(dir, "mnt");
  const copyMnt = join(dir, "copy");
  mkdirSync(mnt, { recursive: true });
  mkdirSync(copyMnt);
  const image = join(dir, "fs.img");
  execFileSync("truncate", ["-s", "256M", image]);
  execFileSync("mkfs.ext4", ["-q", "-F", image]);
  execFileSync("mount", ["-o", "loop", image, mnt]);
  try {
    const log = join(mnt, "d.ndjson");
    const wrap = spawn(process.execPath, [cli, "wrap", "--log", log, "--pins", join(dir, "pins.json"), "--", process.execPath, rawServer], { stdio: "pipe" });
    children.push(wrap);
    let next = 1;
    let stop = false;
    const waiting = new Map();
    createInterface({ input: wrap.stdout }).on("line", (line) => waiting.get(JSON.parse(line).id)?.());
    const traffic = (async () => {
      while (!stop) {
        let text = "";
        for (let i = 0; i < 50; i++) text += JSON.stringify({ jsonrpc: "2.0", id: next++, method: "work" }) + "\n";
        const answered = new Promise((resolve) => waiting.set(next - 1, resolve));
        wrap.stdin.write(text);
        await Promise.race([answered, sleep(2000)]);
      }
    })();
    // Past ext4's 5 s journal commit, at a moment that differs from round to round.
    await sleep(5500 + Math.floor(Math.random() * 3000));
    wrap.kill("SIGSTOP");
    await sleep(300);
    const copy = join(dir, "crash.img");
    execFileSync("cp", ["--sparse=always", image, copy]);
    wrap.kill("SIGCONT");
    stop = true;
    await traffic;
    wrap.stdin.end();
    await new Promise((resolve) => wrap.once("exit", resolve));
    execFileSync("mount", ["-o", "loop", copy, copyMnt]);
    try {
      const crashed = join(copyMnt, "d.ndjson");
      const v = verify(crashed);
      const lines = existsSync(crashed) ? logLines(crashed) : [];
      const head = existsSync(`${crashed}.head`) ? JSON.parse(readFileSync(`${crashed}.head`, "utf8")).seq : -1;
      const last = lines.at(-1)?.seq ?? -1;
      console.log(`machine crash #${r + 1}: the disk held up to seq ${last}, its head named ${head}; verify exit ${v.status}`);
      check(v.status === 0 || v.status === 3, `crash #${r + 1}: verify exit ${v.status}: ${v.stderr}`);
      check(head <= last, `crash #${r + 1}: the head names seq ${head}, the disk ends at ${last}`);
    } finally {
      spawnSync("umount", [copyMnt]);
    }
  } finally {
    spawnSync("umount", [mnt]);
  }
}

for (let r = 0; r < rounds; r++) {
  await wrapRound(r);
  await serveRound(r);
  if (loopFsAvailable()) await crashRound(r);
  else if (r === 0) console.log("machine crash: skipped (needs root and loop devices: run as root)");
}
rmSync(base, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`faults/log: ${failures.length} violation(s):\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(`faults/log: ${rounds} round(s), no violation`);
process.exit(0);
