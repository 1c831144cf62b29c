// guardwire's own CPU per call, in process, without pipes or other processes: `node bench/session.mjs [--calls N]`
// (after a build). A Session with the embedded guardian (bench/rules-30.yaml) and a real DecisionLog on a temp file
// judges and logs the request and the response of an MCP `tools/call` of `echo` (the frames the SDK client and
// server-everything exchange in bench/run.mjs), between two peers that only keep what they are sent. It reports CPU
// µs per call (request + response, both judged, both logged), split: frames only through the session, and the log's
// share. For finding where guardwire's own time goes (`node --cpu-prof bench/session.mjs`); bench/run.mjs is the
// end-to-end figure.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DecisionLog, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources, Session, verifyFiles } from "../dist/index.js";
import { numberArg } from "./lib.mjs";
await detectorsReady(); // the shell grammar loads asynchronously

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CALLS = numberArg("--calls", 50000);
const ROUNDS = numberArg("--rounds", 5);
const dir = mkdtempSync(join(tmpdir(), "guardwire-session-bench-"));

const { ruleSet, problems } = loadRules(readRuleSources(join(root, "bench", "rules-30.yaml")));
if (!ruleSet || problems.length > 0) throw new Error(`bench/rules-30.yaml does not load: ${JSON.stringify(problems)}`);

const request = (i) =>
  JSON.stringify({ method: "tools/call", params: { name: "echo", arguments: { message: `hello ${i}` }, _meta: { progressToken: i } }, jsonrpc: "2.0", id: i });
const response = (i) => JSON.stringify({ result: { content: [{ type: "text", text: `Echo: hello ${i}` }] }, jsonrpc: "2.0", id: i });

/** Per call CPU µs through one session, with the log given (or one that keeps nothing). */
function run(log, calls) {
  let got = 0;
  const peer = { send: () => void got++ };
  const session = new Session(peer, peer, { guardian: new EmbeddedGuardian(ruleSet), log, route: "bench", transport: "stdio" });
  const frames = Array.from({ length: 256 }, (_v, i) => [{ text: request(i + 1) }, { text: response(i + 1) }]);
  const t = process.cpuUsage();
  // Rounds of 256 calls, each request answered in its own turn, as on the wire.
  return new Promise((resolve) => {
    let done = 0;
    const step = () => {
      for (const [req, res] of frames) {
        session.fromDownstream(req);
        session.fromUpstream(res);
      }
      done += frames.length;
      if (done < calls) setImmediate(step);
      else
        setImmediate(() => {
          const used = process.cpuUsage(t);
          if (got !== done * 2) throw new Error(`${got} frames forwarded of ${done * 2}`);
          resolve({ us: (used.user + used.system) / done, calls: done });
        });
    };
    step();
  });
}

const nullLog = { write: () => undefined };
const results = { noLog: [], logged: [] };
for (let r = 0; r < ROUNDS; r++) {
  results.noLog.push((await run(nullLog, CALLS)).us);
  const file = join(dir, `d${r}.ndjson`);
  const log = DecisionLog.open({ dest: file });
  const { us, calls } = await run(log, CALLS);
  results.logged.push(us);
  await log.close();
  const v = await verifyFiles([file]);
  if (!v.ok || v.lines !== calls * 2) throw new Error(`log of round ${r} does not verify: ${JSON.stringify(v)}`);
}
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const noLog = median(results.noLog);
const logged = median(results.logged);
console.log(`session, in process: ${CALLS} calls × ${ROUNDS} rounds, medians, CPU µs per call (request + response)`);
console.log(`  judged, logged:    ${logged.toFixed(1)} µs`);
console.log(`  judged, no log:    ${noLog.toFixed(1)} µs`);
console.log(`  the log's share:   ${(logged - noLog).toFixed(1)} µs`);
