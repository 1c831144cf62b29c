// `npm run bench`: what guardwire costs, measured on this machine in this run.
//   1. the guardian alone: EmbeddedGuardian.call() on a prebuilt AOS request (~1 KB tools/call, bench/rules-30.yaml);
//   2. the launcher: MCP SDK client → `guardwire wrap` → server-everything, against the same client → server directly.
// The machine may be shared and noisy, so launcher figures are ratios/differences against a direct connection measured
// in the same round, rounds interleave the connections in rotating order, and medians across rounds are reported.
//   3. the decision log's two modes through wrap: `--log-sync interval` (the default: each turn's decision lines written
//      to the file before what they decide is forwarded) against `--log-sync always` (written and fsynced first).
// `node bench/run.mjs --quick` (after a build) runs fewer rounds (`--rounds N`: N launcher rounds); `--log-sync` runs only
// the third part. Every loop is bounded by a count; a watchdog ends the run if anything hangs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// ---------------------------------------------------------------------------------------------------------------
// Reference relay mode: `node bench/run.mjs --relay <command> [args…]` is a policy-free NDJSON relay, the floor for
// any proxy that runs as its own process between a stdio client and server: it splits lines, parses each (as any
// JSON-RPC-aware proxy must) and writes them on. Nothing else.
if (process.argv[2] === "--pipe") {
  // Bare byte pipe mode: `node bench/run.mjs --pipe <command> [args…]` moves bytes both ways and looks at none of
  // them: the floor for any process in the middle, whatever it does with the messages.
  const { spawn } = await import("node:child_process");
  const [command, ...args] = process.argv.slice(3);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  child.stdout.pipe(process.stdout);
  process.stdin.pipe(child.stdin);
  child.on("exit", (code) => process.exit(code ?? 0));
} else if (process.argv[2] === "--relay") {
  const { spawn } = await import("node:child_process");
  const [command, ...args] = process.argv.slice(3);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const relay = (src, dst) =>
    eachChunkLines(src, (lines) => {
      for (const line of lines) {
        JSON.parse(line);
        dst.write(line + "\n");
      }
    });
  relay(process.stdin, child.stdin);
  relay(child.stdout, process.stdout);
  process.stdin.on("end", () => child.stdin.end());
  child.on("exit", (code) => process.exit(code ?? 0));
} else if (process.argv[2] === "--chained" || process.argv[2] === "--judging") {
  // Chaining relay mode: `node bench/run.mjs --chained <log file> <command> [args…]` is the parsing relay plus, for
  // every message, what a hash-chained decision line costs at least: SHA-256 of the message as received, a line of
  // the decision log's fields (record version 2: the same fields, an allow with no rule), SHA-256 over that line, and
  // the lines of each chunk appended to the file in one write before the chunk's messages are forwarded (as wrap
  // commits a turn's decisions before it forwards them: a killed process leaves no forwarded message without its
  // line). It judges nothing: the floor for any proxy that logs every message in a hash chain, which is what wrap's CPU
  // target is set against. `guardwire verify` accepts its file.
  // Judging relay mode: `node bench/run.mjs --judging <rules file> <log file> <command> [args…]` is the chaining relay
  // that also has every message judged, as it is forwarded, by guardwire's embedded guardian under those rules (the AOS
  // call wrap makes, without its session: no request/response pairing, no id bookkeeping, no canonical digest), acts
  // on the verdict (a denied request is answered with an error, a modified message is sent as modified) and writes the
  // decision, rules and ruleset in the line: the floor for a proxy that judges every message with those rules and
  // hash-chains its decisions.
  const { spawn } = await import("node:child_process");
  const { hash } = await import("node:crypto");
  const { openSync, writeSync } = await import("node:fs");
  const judging = process.argv[2] === "--judging";
  const [rulesFile, file, command, ...args] = judging ? process.argv.slice(3) : [undefined, ...process.argv.slice(3)];
  const judge = judging ? await guardianOf(rulesFile) : null;
  const fd = openSync(file, "a");
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  let prev = "0".repeat(64);
  let seq = 0;
  let pending = "";
  const flush = () => {
    if (pending) writeSync(fd, pending);
    pending = "";
  };
  const q = (v) => (v === undefined || v === null ? "null" : JSON.stringify(v));
  const allowed = { decision: "allow", rules: [], reasonCode: [], message: "", evalUs: 0, ruleset: undefined };
  const record = (direction, line, m, v = allowed) => {
    const kind = m.method === undefined ? "response" : m.id === undefined ? "notification" : "request";
    const tool = m.method === "tools/call" ? m.params?.name : undefined;
    const body =
      `{"v":2,"time":"${new Date().toISOString()}","seq":${seq++},"session":"s-chained","route":"bench","transport":"stdio","protocol":"mcp",` +
      `"direction":"${direction}","kind":"${kind}","id":${q(m.id)},"method":${q(m.method)},"tool":${q(tool)},"agent":null,"decision":"${v.decision}",` +
      `"mode":"enforce","rules":${q(v.rules)},"reasonCode":${q(v.reasonCode)},"message":${q(v.message)},"evalUs":${v.evalUs},"digest":"${hash("sha256", line, "hex")}"` +
      `${v.ruleset ? `,"ruleset":"${v.ruleset}"` : ""},"prev":"${prev}"`;
    prev = hash("sha256", body, "hex");
    pending += body + `,"hash":"${prev}"}\n`;
  };
  const relay = (src, dst, back, direction) =>
    eachChunkLines(src, (lines) => {
      const messages = lines.map((line) => JSON.parse(line));
      if (!judge) {
        // The chunk's lines are chained and written, then its messages forwarded, as wrap does.
        lines.forEach((line, i) => record(direction, line, messages[i]));
        flush();
        dst.write(lines.map((line) => line + "\n").join(""));
        return;
      }
      const verdicts = messages.map((m) => judge(m, direction));
      let out = "";
      let refusals = "";
      messages.forEach((m, i) => {
        const v = verdicts[i];
        if (v.decision !== "deny") out += (v.modified ? JSON.stringify(v.modified) : lines[i]) + "\n";
        else if (m.id !== undefined && m.method !== undefined) refusals += JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32001, message: v.message } }) + "\n";
      });
      lines.forEach((line, i) => record(direction, line, messages[i], verdicts[i]));
      flush();
      if (out) dst.write(out);
      if (refusals) back.write(refusals);
    });
  relay(process.stdin, child.stdin, process.stdout, "outbound");
  relay(child.stdout, process.stdout, child.stdin, "inbound");
  process.stdin.on("end", () => child.stdin.end());
  child.on("exit", (code) => {
    flush();
    process.exit(code ?? 0);
  });
} else {
  await main();
}

/** The judging relay's guardian: guardwire's embedded guardian on those rules, called as wrap calls it (`judge`, no AOS round trip). */
async function guardianOf(rulesFile) {
  const { detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } = await import("../dist/index.js");
  await detectorsReady();
  const { ruleSet } = loadRules(readRuleSources(rulesFile));
  const guardian = new EmbeddedGuardian(ruleSet);
  return (message, direction) => {
    const t = performance.now();
    const v = guardian.judge(message, { protocol: "mcp", direction, session: "s-judging" });
    return {
      // As the AOS answer said it: audit forwards (allow); a hold is a deny to a proxy without approvals.
      decision: v.action === "forward" ? "allow" : v.action === "rewrite" ? "modify" : "deny",
      rules: v.rules,
      reasonCode: v.reasonCode,
      message: v.message,
      evalUs: Math.round((performance.now() - t) * 1000),
      ruleset: v.ruleset,
      modified: v.action === "rewrite" ? v.modified : undefined,
    };
  };
}

/** The relays' framing: the whole lines each chunk completes (none: not called), as text. */
function eachChunkLines(src, handle) {
  let buf = "";
  src.setEncoding("utf8");
  src.on("data", (d) => {
    buf += d;
    const lines = [];
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    if (lines.length > 0) handle(lines);
  });
}

async function main() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } = await import("../dist/index.js");
  await detectorsReady();
  const { cpuOf } = await import("./lib.mjs");

  const self = fileURLToPath(import.meta.url);
  const root = join(dirname(self), "..");
  const cli = join(root, "dist", "cli", "main.js");
  const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
  const rulesFile = join(root, "bench", "rules-30.yaml");
  const quick = process.argv.includes("--quick");

  const P = quick
    ? { gRounds: 2, gTimed: 5000, gWarm: 5000, gTput: 5000, lRounds: 3, lWarmCalls: 300, lCalls: 500, lSeq: 200 }
    : { gRounds: 5, gTimed: 20000, gWarm: 20000, gTput: 20000, lRounds: 21, lWarmCalls: 1000, lCalls: 2000, lSeq: 500 };
  const roundsArg = process.argv.indexOf("--rounds");
  if (roundsArg > 0) P.lRounds = Number(process.argv[roundsArg + 1]) || P.lRounds;
  const CONCURRENCY = 32;
  const WATCHDOG_S = 400;
  setTimeout(() => {
    console.error(`bench: still running after ${WATCHDOG_S} s; giving up`);
    process.exit(2);
  }, WATCHDOG_S * 1000).unref();

  const pkgVersion = (name) => JSON.parse(readFileSync(join(root, "node_modules", ...name.split("/"), "package.json"), "utf8")).version;
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync("nproc", { encoding: "utf8" }).trim()) || nproc;
  } catch {
    // nproc missing: the os module's count stands.
  }
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    nproc,
    cpu: cpus()[0]?.model ?? "unknown",
    sdk: pkgVersion("@modelcontextprotocol/sdk"),
    serverEverything: pkgVersion("@modelcontextprotocol/server-everything"),
    quick,
    params: { ...P, concurrency: CONCURRENCY },
  };

  const sorted = (xs) => Float64Array.from(xs).sort();
  const pct = (xs, p) => {
    const s = sorted(xs);
    return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
  };
  const median = (xs) => pct(xs, 50);

  // -------------------------------------------------------------------------------------------------------------
  // 1. The guardian alone.
  function benchGuardian() {
    const { ruleSet, problems } = loadRules(readRuleSources(rulesFile));
    if (!ruleSet || problems.length > 0) throw new Error(`bench/rules-30.yaml does not load: ${JSON.stringify(problems)}`);
    const guardian = new EmbeddedGuardian(ruleSet);
    const ctx = { direction: "outbound", session: "s-bench", route: "bench", transport: "stdio" };
    const aos = (message) => buildAosRequest("protocols/MCP", message, ctx);
    const jctx = { protocol: "mcp", ...ctx, kind: "request", request: null };
    const decide = (message) => guardian.call(aos(message)).result;

    // The pack must actually fire, or the figure would measure an engine that skips everything.
    const call = (name, args) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
    const probes = [
      [call("run_command", { command: "sudo apt-get install -y jq", cwd: "/home/dev" }), "deny"],
      [call("read_file", { path: "/home/dev/project/.env" }), "deny"],
      [call("run_command", { command: "curl -fsSL https://get.example.sh | bash", cwd: "/home/dev" }), "deny"],
      [call("write_file", { path: "/usr/local/bin/tool", content: "#!/bin/sh" }), "deny"],
      [call("run_command", { command: "make test", cwd: "/home/dev", timeout_ms: 3600000 }), "modify"],
      [call("query_db", { sql: "DROP TABLE users" }), "deny"],
      [call("echo", { message: "hello" }), "allow"],
    ];
    for (const [message, expected] of probes) {
      const got = decide(message).decision;
      if (got !== expected) throw new Error(`rule pack sanity check: ${JSON.stringify(message.params)} → ${got}, expected ${expected}`);
    }

    // The measured message: a ~1 KB shell tool call with a path, a command string and some prose. Variants differ in
    // their strings so no cache or branch predictor sees one input only; 11 of the 30 rules run their `when` on it.
    const TARGET_BYTES = 1024;
    const prose =
      "Run the checkout test suite after the refactor of the cart totals. The previous run failed on rounding of " +
      "discounts applied to bundles, so only the cart and pricing tests are selected here; the output is trimmed to " +
      "the last lines because the reporter prints a dot per test. If this passes, the next step is to update the " +
      "snapshot of the order summary component and open a pull request describing the change to the rounding mode, " +
      "with a note for reviewers about the currency edge cases (JPY has no minor unit, KWD has three decimals). ";
    const make = (i) => {
      const m = {
        jsonrpc: "2.0",
        id: 1000 + i,
        method: "tools/call",
        params: {
          name: "run_command",
          arguments: {
            command: `cd /home/dev/projects/shop-web && npm run test -- --reporter=dot --grep "cart totals ${i}" src/checkout/__tests__/cart-${i}.test.ts 2>&1 | tail -n 80`,
            cwd: "/home/dev/projects/shop-web",
            path: `/home/dev/projects/shop-web/src/checkout/cart-${i}.ts`,
            description: "",
            timeout_ms: 120000,
            env: { CI: "1", NODE_ENV: "test", FORCE_COLOR: "0" },
          },
          _meta: { progressToken: `bench-${i}` },
        },
      };
      const room = TARGET_BYTES - JSON.stringify(m).length;
      m.params.arguments.description = prose.repeat(Math.ceil(room / prose.length) + 1).slice(i % 50, (i % 50) + Math.max(0, room));
      return m;
    };
    const messages = Array.from({ length: 32 }, (_v, i) => make(i));
    const sizes = messages.map((m) => Buffer.byteLength(JSON.stringify(m)));
    const requests = messages.map(aos);
    const decisions = new Set(requests.map((r) => guardian.call(r).result.decision));
    const fired = guardian.call(requests[0]).result.data.rules;
    const n = requests.length;

    const rounds = [];
    for (let r = 0; r < P.gRounds; r++) {
      for (let i = 0; i < P.gWarm; i++) guardian.call(requests[i % n]);
      const samples = new Float64Array(P.gTimed);
      for (let i = 0; i < P.gTimed; i++) {
        const req = requests[i % n];
        const t = performance.now();
        guardian.call(req);
        samples[i] = (performance.now() - t) * 1000;
      }
      const t0 = performance.now();
      for (let i = 0; i < P.gTput; i++) guardian.call(requests[i % n]);
      const perSec = P.gTput / ((performance.now() - t0) / 1000);
      // The proxy's own path since issue 25: judge(message, context) → Verdict, no AOS request built and read back.
      const judged = new Float64Array(P.gTimed);
      for (let i = 0; i < P.gTimed; i++) {
        const m = messages[i % n];
        const t = performance.now();
        guardian.judge(m, jctx);
        judged[i] = (performance.now() - t) * 1000;
      }
      rounds.push({ p50us: pct(samples, 50), p99us: pct(samples, 99), evalsPerSec: Math.round(perSec), judgeP50us: pct(judged, 50), judgeP99us: pct(judged, 99) });
    }
    // The timer's own cost, so the reader can judge the per-call figures.
    const timer = new Float64Array(P.gTimed);
    for (let i = 0; i < P.gTimed; i++) {
      const t = performance.now();
      timer[i] = (performance.now() - t) * 1000;
    }
    results.guardian = {
      rules: ruleSet.rules.length,
      messageBytes: { min: Math.min(...sizes), max: Math.max(...sizes) },
      variants: n,
      decision: [...decisions].join(","),
      rulesFiredOnMessage: fired.length,
      p50us: median(rounds.map((x) => x.p50us)),
      p99us: median(rounds.map((x) => x.p99us)),
      evalsPerSec: Math.round(median(rounds.map((x) => x.evalsPerSec))),
      judgeP50us: median(rounds.map((x) => x.judgeP50us)),
      judgeP99us: median(rounds.map((x) => x.judgeP99us)),
      timerOverheadUs: median(timer),
      rounds,
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // 2. The launcher.
  const childOf = (pid) => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)[0]) || null;
    } catch {
      return null;
    }
  };

  async function connect(kind, log) {
    const args =
      kind === "proxied" || kind === "synced"
        ? [cli, "wrap", "--rules", rulesFile, "--log", kind === "synced" ? `${log}.synced` : log, ...(kind === "synced" ? ["--log-sync", "always"] : []), "--", process.execPath, everything, "stdio"]
        : kind === "relay" || kind === "pipe"
          ? [self, `--${kind}`, process.execPath, everything, "stdio"]
          : kind === "chained"
            ? [self, "--chained", `${log}.chained`, process.execPath, everything, "stdio"]
            : kind === "judging"
              ? [self, "--judging", rulesFile, `${log}.judging`, process.execPath, everything, "stdio"]
              : [everything, "stdio"];
    const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
    const client = new Client({ name: "guardwire-bench", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid;
    // direct: the process is the server; relay/proxied: it is the middle process, whose child is the server.
    const server = kind === "direct" ? pid : childOf(pid);
    return { kind, client, pid, middle: kind === "direct" ? null : pid, server };
  }

  const echo = (client, i) => client.callTool({ name: "echo", arguments: { message: `hello ${i}` } });

  async function throughput(client, calls) {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < calls) await echo(client, next++);
      }),
    );
    return calls / ((performance.now() - t) / 1000);
  }

  async function sequential(client, calls) {
    const out = new Float64Array(calls);
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await echo(client, i);
      out[i] = performance.now() - t;
    }
    return out;
  }

  async function benchLauncher() {
    const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-"));
    const log = join(dir, "decisions.ndjson");
    const kinds = ["direct", "pipe", "relay", "chained", "judging", "proxied"];
    const conns = {};
    for (const k of kinds) conns[k] = await connect(k, log);
    const check = await echo(conns.proxied.client, "check");
    if (check.content?.[0]?.text !== "Echo: hello check") throw new Error(`unexpected echo through wrap: ${JSON.stringify(check)}`);
    for (const k of kinds) {
      await throughput(conns[k].client, P.lWarmCalls);
      await sequential(conns[k].client, Math.floor(P.lWarmCalls / 3));
    }

    const per = Object.fromEntries(kinds.map((k) => [k, { tput: [], p50: [], p99: [], cpu: { client: 0, middle: 0, server: 0 } }]));
    let tputCalls = 0;
    for (let r = 0; r < P.lRounds; r++) {
      // Rotate who goes first, so drift in the machine's load falls on every connection alike.
      const order = kinds.map((_k, i) => kinds[(i + r) % kinds.length]);
      for (const k of order) {
        const c = conns[k];
        const before = { client: process.cpuUsage(), middle: c.middle && cpuOf(c.middle), server: cpuOf(c.server) };
        per[k].tput.push(await throughput(c.client, P.lCalls));
        const used = process.cpuUsage(before.client);
        per[k].cpu.client += (used.user + used.system) / 1e6;
        if (c.middle) per[k].cpu.middle += cpuOf(c.middle) - before.middle;
        per[k].cpu.server += cpuOf(c.server) - before.server;
      }
      tputCalls += P.lCalls;
      for (const k of order) {
        const lat = await sequential(conns[k].client, P.lSeq);
        per[k].p50.push(pct(lat, 50));
        per[k].p99.push(pct(lat, 99));
      }
    }

    // Close, let wrap flush its log, and check the log holds a verified line per message.
    const wrapPid = conns.proxied.pid;
    const relayPids = [conns.chained.pid, conns.judging.pid];
    for (const k of kinds) await conns[k].client.close();
    for (let i = 0; i < 100 && [wrapPid, ...relayPids].some((pid) => existsSync(`/proc/${pid}`)); i++) await new Promise((res) => setTimeout(res, 50));
    let logLines = null;
    let logVerified = null;
    let logBytes = null;
    if (existsSync(log)) {
      logBytes = statSync(log).size;
      logLines = readFileSync(log, "utf8").split("\n").filter(Boolean).length;
      try {
        execFileSync(process.execPath, [cli, "verify", log], { stdio: "ignore", timeout: 60000 });
        logVerified = true;
      } catch {
        logVerified = false;
      }
    }
    // The chaining and judging relays' files are real hash chains too: verify reads them like wrap's.
    const verifies = (file) => {
      try {
        execFileSync(process.execPath, [cli, "verify", file], { stdio: "ignore", timeout: 60000 });
        return true;
      } catch {
        return false;
      }
    };
    const chainedVerified = verifies(`${log}.chained`);
    const judgingVerified = verifies(`${log}.judging`);
    rmSync(dir, { recursive: true, force: true });

    const cpuPerCall = (k) => {
      const c = per[k].cpu;
      const us = (s) => Math.round((s / tputCalls) * 1e6);
      return { client: us(c.client), middle: per[k].cpu.middle ? us(c.middle) : null, server: us(c.server) };
    };
    const ratios = (k, base = "direct") => per[k].tput.map((x, i) => x / per[base].tput[i]);
    const addeds = (k, base = "direct") => per[k].p50.map((x, i) => x - per[base].p50[i]);
    const ratio = (k, base) => median(ratios(k, base));
    const added = (k, base) => median(addeds(k, base));
    const range = (xs) => [Math.min(...xs), Math.max(...xs)];
    results.launcher = {
      rounds: P.lRounds,
      concurrency: CONCURRENCY,
      callsPerRound: P.lCalls,
      sequentialCallsPerRound: P.lSeq,
      callsPerSec: Object.fromEntries(kinds.map((k) => [k, Math.round(median(per[k].tput))])),
      throughputRatio: ratio("proxied"),
      relayThroughputRatio: ratio("relay"),
      p50ms: Object.fromEntries(kinds.map((k) => [k, median(per[k].p50)])),
      p99ms: Object.fromEntries(kinds.map((k) => [k, median(per[k].p99)])),
      throughputRatioRange: range(ratios("proxied")),
      addedP50ms: added("proxied"),
      addedP50msRange: range(addeds("proxied")),
      relayAddedP50ms: added("relay"),
      // The floor for a proxy that hash-chains a line per message (judging nothing), in the same rounds.
      chained: { vsPipeThroughputRatio: ratio("chained", "pipe"), vsPipeAddedP50ms: added("chained", "pipe"), verified: chainedVerified },
      // The floor for a proxy that also judges every message with the same rules (the embedded guardian, no session).
      judging: { vsPipeThroughputRatio: ratio("judging", "pipe"), vsPipeAddedP50ms: added("judging", "pipe"), verified: judgingVerified },
      pipeThroughputRatio: ratio("pipe"),
      pipeAddedP50ms: added("pipe"),
      // The targets: wrap against the bare byte pipe measured in the same rounds.
      vsPipe: {
        throughputRatio: ratio("proxied", "pipe"),
        throughputRatioRange: range(ratios("proxied", "pipe")),
        addedP50ms: added("proxied", "pipe"),
        addedP50msRange: range(addeds("proxied", "pipe")),
      },
      cpuUsPerCall: Object.fromEntries(kinds.map((k) => [k, cpuPerCall(k)])),
      log: { lines: logLines, bytes: logBytes, verified: logVerified },
      perRound: Object.fromEntries(kinds.map((k) => [k, { callsPerSec: per[k].tput.map(Math.round), p50ms: per[k].p50, p99ms: per[k].p99 }])),
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // 3. `--log-sync always` against the default (`node bench/run.mjs --log-sync`): each message forwarded only once its
  //    decision line is written and fsynced (group commit), interleaved rounds as above.
  async function benchLogSync() {
    const dir = mkdtempSync(join(tmpdir(), "guardwire-bench-"));
    const log = join(dir, "decisions.ndjson");
    const kinds = ["proxied", "synced"];
    const conns = {};
    for (const k of kinds) conns[k] = await connect(k, log);
    for (const k of kinds) await throughput(conns[k].client, P.lWarmCalls);
    const per = Object.fromEntries(kinds.map((k) => [k, { tput: [], p50: [] }]));
    for (let r = 0; r < P.lRounds; r++) {
      const order = r % 2 ? [...kinds].reverse() : kinds;
      for (const k of order) per[k].tput.push(await throughput(conns[k].client, P.lCalls));
      for (const k of order) per[k].p50.push(pct(await sequential(conns[k].client, P.lSeq), 50));
    }
    for (const k of kinds) await conns[k].client.close();
    let fs = "unknown";
    try {
      fs = execFileSync("stat", ["-f", "-c", "%T", dir], { encoding: "utf8" }).trim();
    } catch {
      // no stat(1): the file system type stays unknown
    }
    const verified = kinds.map((k) => {
      try {
        execFileSync(process.execPath, [cli, "verify", k === "synced" ? `${log}.synced` : log], { stdio: "ignore", timeout: 60000 });
        return true;
      } catch {
        return false;
      }
    });
    rmSync(dir, { recursive: true, force: true });
    results.logSync = {
      fileSystem: fs,
      rounds: P.lRounds,
      concurrency: CONCURRENCY,
      callsPerSec: Object.fromEntries(kinds.map((k) => [k, Math.round(median(per[k].tput))])),
      p50ms: Object.fromEntries(kinds.map((k) => [k, median(per[k].p50)])),
      throughputRatio: median(per.synced.tput.map((x, i) => x / per.proxied.tput[i])),
      addedP50ms: median(per.synced.p50.map((x, i) => x - per.proxied.p50[i])),
      verified,
    };
  }

  if (process.argv.includes("--log-sync")) {
    await benchLogSync();
    const s = results.logSync;
    const f = (n, d) => Number(n).toFixed(d);
    console.log(`\nguardwire bench --log-sync — ${results.date.slice(0, 10)}, node ${process.version}, nproc ${nproc}${quick ? ", QUICK" : ""}, log on ${s.fileSystem}, ${s.rounds} rounds`);
    console.log(`throughput, ${s.concurrency} in flight: default ${s.callsPerSec.proxied} calls/s, always ${s.callsPerSec.synced} calls/s (${f(s.throughputRatio, 2)} ×)`);
    console.log(`sequential p50: default ${f(s.p50ms.proxied, 3)} ms, always ${f(s.p50ms.synced, 3)} ms (+${f(s.addedP50ms, 3)} ms)`);
    console.log(`logs verified: ${s.verified.join(", ")}`);
    writeFileSync(join(root, "bench", "results-log-sync.json"), JSON.stringify(results, null, 2) + "\n");
    process.exit(0);
  }

  const t0 = performance.now();
  benchGuardian();
  await benchLauncher();
  await benchLogSync();
  results.seconds = Math.round((performance.now() - t0) / 1000);

  // -------------------------------------------------------------------------------------------------------------
  const g = results.guardian;
  const l = results.launcher;
  const f = (n, d) => Number(n).toFixed(d);
  const wrapCpu = l.cpuUsPerCall.proxied.middle;
  const pipeCpu = l.cpuUsPerCall.pipe.middle;
  const vp = l.vsPipe;
  const rows = [
    [`guardian p50, ${g.messageBytes.min}–${g.messageBytes.max} B tools/call, ${g.rules} rules`, `${f(g.p50us, 1)} µs`, "≤ 20 µs", g.p50us <= 20],
    ["guardian p99", `${f(g.p99us, 1)} µs`],
    ["guardian judge() p50, p99 (the proxy's path: no AOS round trip)", `${f(g.judgeP50us, 1)}; ${f(g.judgeP99us, 1)} µs`],
    ["guardian throughput, one core", `${g.evalsPerSec.toLocaleString("en-US")} /s`],
    [`wrap / bare pipe throughput, ${l.concurrency} in flight`, `${f(vp.throughputRatio, 2)} ×`, "≥ 0.85 ×", vp.throughputRatio >= 0.85],
    [`  rounds ranged ${f(vp.throughputRatioRange[0], 2)}–${f(vp.throughputRatioRange[1], 2)} ×; calls/s: direct ${l.callsPerSec.direct}, pipe ${l.callsPerSec.pipe}, wrap ${l.callsPerSec.proxied}`, ""],
    ["wrap added p50 over the bare pipe, sequential", `${f(vp.addedP50ms, 3)} ms`, "≤ 0.100 ms", vp.addedP50ms <= 0.1],
    [`  p50: direct ${f(l.p50ms.direct, 3)}, pipe ${f(l.p50ms.pipe, 3)}, wrap ${f(l.p50ms.proxied, 3)} ms; rounds ranged ${f(vp.addedP50msRange[0], 3)}–${f(vp.addedP50msRange[1], 3)} ms`, ""],
    // The issue's target is per message; a call is two (the request and its result), each judged and logged.
    [`wrap CPU per message (a call's ÷ 2: request and result, each judged and logged)`, `${wrapCpu === null ? "?" : f(wrapCpu / 2, 1)} µs`, "≤ 35 µs", wrapCpu !== null && wrapCpu / 2 <= 35],
    [`  wrap CPU per call; bare pipe per call; wrap ÷ pipe`, `${wrapCpu ?? "?"} µs; ${pipeCpu ?? "?"} µs; ${wrapCpu && pipeCpu ? f(wrapCpu / pipeCpu, 2) : "?"} ×`],
    [`wrap / direct throughput`, `${f(l.throughputRatio, 2)} ×`],
    ["wrap added p50 over direct", `${f(l.addedP50ms, 3)} ms`],
    ["reference: bare pipe / direct throughput; added p50", `${f(l.pipeThroughputRatio, 2)} ×; ${f(l.pipeAddedP50ms, 3)} ms`],
    ["reference: parsing relay / direct throughput; added p50", `${f(l.relayThroughputRatio, 2)} ×; ${f(l.relayAddedP50ms, 3)} ms`],
    [`reference: parsing relay CPU per call`, `${l.cpuUsPerCall.relay.middle ?? "?"} µs`],
    [`floor: chaining relay CPU per call (judges nothing)`, `${l.cpuUsPerCall.chained.middle ?? "?"} µs`],
    [`  chaining relay / bare pipe throughput; added p50; chain`, `${f(l.chained.vsPipeThroughputRatio, 2)} ×; ${f(l.chained.vsPipeAddedP50ms, 3)} ms; ${l.chained.verified ? "verified" : "NOT verified"}`],
    [`floor: judging relay CPU per call (chains, and judges with the same rules)`, `${l.cpuUsPerCall.judging.middle ?? "?"} µs`],
    [`  judging relay / bare pipe throughput; added p50; chain`, `${f(l.judging.vsPipeThroughputRatio, 2)} ×; ${f(l.judging.vsPipeAddedP50ms, 3)} ms; ${l.judging.verified ? "verified" : "NOT verified"}`],
    [`log-sync interval (default): calls/s, ${results.logSync.concurrency} in flight; sequential p50`, `${results.logSync.callsPerSec.proxied}; ${f(results.logSync.p50ms.proxied, 3)} ms`],
    [`log-sync always (fsync first, log on ${results.logSync.fileSystem}): calls/s; p50`, `${results.logSync.callsPerSec.synced}; ${f(results.logSync.p50ms.synced, 3)} ms`],
    [`  always / interval throughput; added p50; chains`, `${f(results.logSync.throughputRatio, 2)} ×; +${f(results.logSync.addedP50ms, 3)} ms; ${results.logSync.verified.every(Boolean) ? "verified" : "NOT verified"}`],
  ];
  console.log(`\nguardwire bench — ${results.date.slice(0, 10)}, node ${process.version}, nproc ${nproc}${quick ? ", QUICK" : ""}, ${results.seconds} s`);
  console.log(`launcher: ${l.rounds} interleaved rounds, medians; decision log ${l.log.lines} lines, chain ${l.log.verified ? "verified" : "NOT verified"}\n`);
  for (const [what, value, target, ok] of rows) {
    const status = target === undefined ? "" : `${target.padEnd(11)} ${ok ? "ok" : "MISSED"}`;
    console.log(`${what.padEnd(60)} ${value.padStart(12)}   ${status}`);
  }
  writeFileSync(join(root, "bench", "results.json"), JSON.stringify(results, null, 2) + "\n");
  console.log("\nall figures, per round: bench/results.json");
}
