// Start-up: how long a user waits for a guardwire command, beside what Node itself takes in the same run.
//   1. `guardwire --version`, exit to exit, against `node -e 0` (Node's own start and exit: the floor);
//   2. `guardwire wrap -- <server-everything stdio>`: from spawning it to the answer of an `initialize` written at once,
//      against a bare NDJSON relay (Node, `node:` modules only: split lines, parse each, write it on) in front of the
//      same server, and the server alone;
//   3. `guardwire approvals` (list) against a running `guardwire serve`'s admin API, against `node` making the same GET
//      with `node:http`.
// Rounds interleave the contenders in a rotating order; each figure is the median over rounds, with its range, and the
// ratio and difference to its floor are per round, then the median. `node bench/startup.mjs [--rounds N]` after a
// build (default 11 rounds; about a minute here). `--relay <command> [args…]` is the bare relay mode.
import { spawn } from "node:child_process";

if (process.argv[2] === "--relay") {
  const [command, ...args] = process.argv.slice(3);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const relay = (src, dst) => {
    let rest = "";
    src.setEncoding("utf8");
    src.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      for (const line of lines) {
        if (!line) continue;
        JSON.parse(line);
        dst.write(line + "\n");
      }
    });
  };
  relay(process.stdin, child.stdin);
  relay(child.stdout, process.stdout);
  process.stdin.on("end", () => child.stdin.end());
  child.on("exit", (code) => process.exit(code ?? 0));
} else {
  await main();
}

async function main() {
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir, loadavg } = await import("node:os");
  const { dirname, join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const { createRequire } = await import("node:module");
  const { numberArg, startNode, watchdog } = await import("./lib.mjs");

  const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
  const CLI = join(ROOT, "dist", "cli", "main.js");
  const SELF = fileURLToPath(import.meta.url);
  const EVERYTHING = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const ROUNDS = numberArg("--rounds", process.argv.includes("--quick") ? 5 : 11);
  const children = [];
  watchdog("startup.mjs", 600, children);
  const dir = mkdtempSync(join(tmpdir(), "gw-startup-bench-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

  /** Wall ms from spawning `node args` to its exit (it must exit 0). */
  function timeToExit(args, env = {}) {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stdout.resume();
      child.stderr.on("data", (b) => (err += b));
      child.once("error", reject);
      child.once("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`node ${args.join(" ")} exited ${code}: ${err}`))));
    });
  }

  const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-bench", version: "1" } } }) + "\n";
  let serial = 0;
  /** Wall ms from spawning `node args` (a stdio MCP server, or something in front of one) to the answer of an `initialize` written at spawn. */
  function timeToInitialize(args) {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
      children.push(child);
      let out = "";
      let err = "";
      let done = false;
      child.stdin.write(INIT);
      child.stderr.on("data", (b) => (err += b));
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (s) => {
        out += s;
        if (done || !out.includes("\n")) return;
        const ms = performance.now() - t0;
        done = true;
        const answer = JSON.parse(out.slice(0, out.indexOf("\n")));
        child.stdin.end();
        child.kill("SIGTERM");
        if (answer.id !== 1 || !answer.result?.serverInfo) reject(new Error(`not an initialize result: ${out.slice(0, 300)}`));
        else child.once("close", () => resolve(ms));
      });
      child.once("close", (code) => done || reject(new Error(`node ${args.join(" ")} exited ${code} before answering:\n${err}`)));
    });
  }
  const wrapArgs = () => {
    const n = ++serial;
    return [CLI, "wrap", "--log", join(dir, `wrap-${n}.ndjson`), "--pins", join(dir, `pins-${n}.json`), "--no-watch", "--", process.execPath, EVERYTHING, "stdio"];
  };

  // A running serve with its admin API, for `approvals`; GUARDWIRE_ADMIN_FILE is where it writes its URL and token.
  const adminFile = join(dir, "admin.json");
  const config = join(dir, "serve.yaml");
  writeFileSync(
    config,
    [
      "listen: { host: 127.0.0.1, port: 0 }",
      `log: ${join(dir, "serve.ndjson")}`,
      "admin: { listen: 127.0.0.1:0 }",
      "routes:",
      "  - name: everything",
      "    path: /mcp/everything",
      `    mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }`,
    ].join("\n"),
  );
  await startNode(children, [CLI, "serve", "--config", config, "--pins", join(dir, "serve-pins.json"), "--no-watch"], { GUARDWIRE_ADMIN_FILE: adminFile }, /serving http:\/\//);
  const admin = JSON.parse(readFileSync(adminFile, "utf8"));
  const adminEnv = { GUARDWIRE_ADMIN_FILE: adminFile };
  // The floor: the same GET with node:http, its answer read whole and parsed, nothing else loaded.
  const bareGet = `const h=require("node:http");h.get(${JSON.stringify(admin.url + "/api/approvals")},{headers:{authorization:${JSON.stringify("Bearer " + admin.token)}}},(r)=>{let b="";r.on("data",(c)=>b+=c);r.on("end",()=>{JSON.parse(b);if(r.statusCode!==200)process.exit(1)})})`;

  const contenders = {
    nodeExit: () => timeToExit(["-e", "0"]),
    version: () => timeToExit([CLI, "--version"]),
    bareGet: () => timeToExit(["-e", bareGet]),
    approvals: () => timeToExit([CLI, "approvals"], adminEnv),
    server: () => timeToInitialize([EVERYTHING, "stdio"]),
    relay: () => timeToInitialize([SELF, "--relay", process.execPath, EVERYTHING, "stdio"]),
    wrap: () => timeToInitialize(wrapArgs()),
  };
  // BENCH_OTHER=<another checkout, built>: its guardwire in the same rounds (before/after a change).
  const OTHER = process.env.BENCH_OTHER ? join(process.env.BENCH_OTHER, "dist", "cli", "main.js") : null;
  if (OTHER) {
    contenders.otherVersion = () => timeToExit([OTHER, "--version"]);
    contenders.otherApprovals = () => timeToExit([OTHER, "approvals"], adminEnv);
    contenders.otherWrap = () => timeToInitialize([OTHER, ...wrapArgs().slice(1)]);
  }
  const names = Object.keys(contenders);
  // Warm-up: one of each (the file system cache, the first compile of everything).
  for (const n of names) await contenders[n]();
  const rounds = [];
  const load = [loadavg()[0]];
  for (let r = 0; r < ROUNDS; r++) {
    const round = {};
    for (let i = 0; i < names.length; i++) {
      const n = names[(i + r) % names.length];
      round[n] = await contenders[n]();
    }
    rounds.push(round);
  }
  load.push(loadavg()[0]);

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const stat = (f) => {
    const xs = rounds.map(f);
    return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
  };
  const pair = (name, floor, targetMs) => ({
    ms: stat((r) => r[name]),
    floorMs: stat((r) => r[floor]),
    addedMs: stat((r) => r[name] - r[floor]),
    ratio: stat((r) => r[name] / r[floor]),
    targetMs,
    met: median(rounds.map((r) => r[name])) <= targetMs,
  });
  const results = {
    when: new Date().toISOString(),
    node: process.version,
    rounds: ROUNDS,
    loadAverage: load,
    version: pair("version", "nodeExit", 300),
    wrapInitialize: { ...pair("wrap", "relay", 500), serverAloneMs: stat((r) => r.server) },
    approvals: pair("approvals", "bareGet", 500),
    other: OTHER ? { build: process.env.BENCH_OTHER, version: pair("otherVersion", "nodeExit", 300), wrapInitialize: pair("otherWrap", "relay", 500), approvals: pair("otherApprovals", "bareGet", 500) } : undefined,
    raw: rounds,
  };
  writeFileSync(join(ROOT, "bench", "results-startup.json"), JSON.stringify(results, null, 2) + "\n");

  const f = (x) => x.toFixed(0);
  const line = (label, p, floorLabel) =>
    `${label.padEnd(44)} ${f(p.ms.median).padStart(5)} ms (${f(p.ms.min)}–${f(p.ms.max)})   ${floorLabel.padEnd(26)} ${f(p.floorMs.median).padStart(5)} ms   +${f(p.addedMs.median)} ms  ${p.ratio.median.toFixed(2)} ×   target ≤ ${p.targetMs} ms: ${p.met ? "ok" : "MISSED"}`;
  console.log(`start-up, ${ROUNDS} rounds, median (range); load average ${load.map((x) => x.toFixed(1)).join(" → ")}`);
  console.log(line("guardwire --version", results.version, "floor: node -e 0"));
  console.log(line("wrap: spawn to initialize answered", results.wrapInitialize, "floor: bare NDJSON relay"));
  console.log(`${"  (server-everything alone)".padEnd(44)} ${f(results.wrapInitialize.serverAloneMs.median).padStart(5)} ms`);
  console.log(line("guardwire approvals (serve's admin API)", results.approvals, "floor: node:http GET"));
  if (OTHER) {
    console.log(`BENCH_OTHER ${process.env.BENCH_OTHER}, same rounds:`);
    console.log(line("  its --version", results.other.version, "floor: node -e 0"));
    console.log(line("  its wrap: spawn to initialize answered", results.other.wrapInitialize, "floor: bare NDJSON relay"));
    console.log(line("  its approvals", results.other.approvals, "floor: node:http GET"));
  }
  process.exit(0);
}
