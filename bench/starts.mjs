// Many starts of `guardwire wrap`, each checked: `node bench/starts.mjs [--runs N] [--other <built checkout>]` after a
// build. Each run spawns `wrap -- <server-everything stdio>`, sends `initialize`, then `tools/list` and a `tools/call` of
// `echo` once the previous answer is in, and closes its input. A run counts as failed unless all three answers are
// results and the process exits without a signal (a crash, SIGSEGV, shows here). For a change to how the process
// starts (a V8 flag set at run time, a loader change): a rare crash needs many starts to show. Prints failed runs and
// the median time to the `initialize` answer; with --other, that build's `wrap` alternates with this one's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { numberArg } from "./lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = numberArg("--runs", 100);
const at = process.argv.indexOf("--other");
const builds = at > 0 ? [root, process.argv[at + 1]] : [root];
const everything = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const dir = mkdtempSync(join(tmpdir(), "guardwire-starts-"));
const line = (m) => JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n";

/** One start: the time to the `initialize` answer, or why it failed. */
function start(build, n) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(build, "dist", "cli", "main.js"), "wrap", "--log", join(dir, `d${n}.ndjson`), "--", process.execPath, everything, "stdio"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let rest = "";
  let answered = 0;
  let results = 0;
  let tAnswer = 0;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const text of lines) {
      const m = JSON.parse(text);
      if (m.id === undefined) continue;
      answered++;
      if (m.result) results++;
      if (m.id === 1) {
        tAnswer = performance.now() - t0;
        child.stdin.write(line({ method: "notifications/initialized" }) + line({ id: 2, method: "tools/list" }));
      } else if (m.id === 2) child.stdin.write(line({ id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }));
      else child.stdin.end();
    }
  });
  child.stdin.write(line({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "starts", version: "1" } } }));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const ok = answered === 3 && results === 3 && signal === null;
      resolve({ ok, ms: tAnswer, why: ok ? "" : `exit ${code}, signal ${signal}, ${results}/${answered} results; ${stderr.slice(-300)}` });
    });
  });
}

const per = new Map(builds.map((b) => [b, { failed: 0, ms: [] }]));
for (let i = 0; i < RUNS; i++) {
  for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
    const r = await start(b, i);
    const p = per.get(b);
    if (r.ok) p.ms.push(r.ms);
    else {
      p.failed++;
      console.log(`run ${i + 1} of ${b}: FAILED (${r.why})`);
    }
  }
}
rmSync(dir, { recursive: true, force: true });
for (const [b, p] of per) {
  const ms = [...p.ms].sort((x, y) => x - y);
  console.log(`${b}: ${RUNS} starts, ${p.failed} failed; initialize answered in ${ms.length ? Math.round(ms[Math.floor(ms.length / 2)]) : "?"} ms (median)`);
}
process.exitCode = [...per.values()].some((p) => p.failed > 0) ? 1 : 0;
