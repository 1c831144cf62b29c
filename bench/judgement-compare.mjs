// Before/after for the guardian's judgement on a shared, noisy machine: `node bench/judgement-compare.mjs <other
// checkout, built> [--rounds N] [--pack name]` evaluates the default pack (or rules/<name>.yaml) in process with both
// builds IN THE SAME RUN, alternating rounds of 4,000 evaluations, so load that comes and goes falls on both alike.
// Messages: judgement.mjs's 942 B `tools/call` (outbound), a short `echo` call, a 1 KB benign tool result (inbound),
// a 14-tool `tools/list` result (40 a round, each in a new session) and judgement.mjs's 1 MB result (inbound, 3 a
// round). Reports each build's median over rounds of the per-round mean per evaluation.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { judgementCall, numberArg } from "./lib.mjs";

// As every guardwire command that judges sets it (src/cli/program.ts). Without it the build loaded second judged the
// 1 MB result 4-6 times slower than the first, whichever it was (main against itself too): a few of the packs'
// expressions over that megabyte ran in V8's regexp interpreter in the second build only, and only once the tools/list
// shape had run; with the flag both builds take 9-11 ms (2026-11-27).
setFlagsFromString("--regexp-tier-up-ticks=0");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2] && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
if (!other) {
  console.error("usage: node bench/judgement-compare.mjs <other guardwire checkout, built> [--rounds N] [--pack name]");
  process.exit(2);
}
const ROUNDS = numberArg("--rounds", 30);
const packArg = process.argv.indexOf("--pack");
const pack = packArg > 0 ? process.argv[packArg + 1] : "balanced";
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const call = judgementCall;
const echo = (i) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { message: `hello ${i}` } } });
const result = (i) => ({
  jsonrpc: "2.0",
  id: i,
  result: { content: [{ type: "text", text: `Build ${i} finished. The parser now reads each frame once and the session forwards it in the same turn; `.repeat(9) }] },
});
const bigText = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(10486).slice(0, 1_048_576);
const bigJson = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: bigText }] } });
/** server-filesystem's kind of list: 14 tools, each described in a few sentences with an input schema (7 KB). */
const tools = Array.from({ length: 14 }, (_v, i) => ({
  name: `tool_${i}`,
  description: `Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Only works within allowed directories. ${i}`,
  inputSchema: { type: "object", properties: { path: { type: "string", description: "The path" }, head: { type: "number", description: "If provided, returns only the first N lines of the file" } }, required: ["path"] },
}));
/** Evaluations per round of a shape (4,000 unless said). */
const PER_ROUND = { "1 MB tool result, inbound": 3, "tools/list, a new session": 40 };
const shapes = {
  "1 KB tools/call, outbound": (M, i) => M.buildAosRequest("protocols/MCP", call(i), { direction: "outbound", session: "s", route: "bench", transport: "stdio" }),
  "echo tools/call, outbound": (M, i) => M.buildAosRequest("protocols/MCP", echo(i), { direction: "outbound", session: "s", route: "bench", transport: "stdio" }),
  "1 KB tool result, inbound": (M, i) =>
    M.buildAosRequest("protocols/MCP", result(i), { direction: "inbound", session: "s", route: "bench", transport: "stdio", request: { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "run_tests", arguments: {} } } }),
  // The same list as each new session asks for it (every `serve` session lists the tools once).
  "tools/list, a new session": (M, i) =>
    M.buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: 1, result: { tools } }, { direction: "inbound", session: `list-${i}`, route: "bench", transport: "stdio", request: { jsonrpc: "2.0", id: 1, method: "tools/list" } }),
  // judgement.mjs's 1 MB result, parsed from its JSON text as the proxy would (one copy shared by the 32 slots).
  "1 MB tool result, inbound": (M, i) =>
    i === 0 ? M.buildAosRequest("protocols/MCP", JSON.parse(bigJson), { direction: "inbound", session: "s", route: "bench", transport: "stdio", request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "read_file", arguments: { path: "big.txt" } } } }) : null,
};

async function build(dir) {
  const M = await import(join(dir, "dist", "index.js"));
  // Each build judges with its own pack (a pack may use what only its build knows: a new detector or rule field).
  const { ruleSet } = M.loadRules(M.readRuleSources(join(dir, "rules", `${pack}.yaml`)));
  const guardian = new M.EmbeddedGuardian(ruleSet);
  const reqs = Object.fromEntries(Object.entries(shapes).map(([k, f]) => [k, Array.from({ length: 32 }, (_v, i) => f(M, i)).filter((r) => r !== null)]));
  return { guardian, reqs };
}
const builds = { before: await build(other), after: await build(root) };
const per = Object.fromEntries(Object.keys(shapes).map((k) => [k, { before: [], after: [] }]));
// CPU time too: on a loaded machine a round's wall time includes the time the process waited for a core.
const cpu = Object.fromEntries(Object.keys(shapes).map((k) => [k, { before: [], after: [] }]));
for (const b of Object.values(builds)) for (const k in shapes) for (let i = 0; i < (PER_ROUND[k] ?? 4000) * 5; i++) b.guardian.call(b.reqs[k][i % b.reqs[k].length]);
for (let r = 0; r < ROUNDS; r++) {
  for (const k in shapes) {
    for (const name of r % 2 ? ["before", "after"] : ["after", "before"]) {
      const { guardian, reqs } = builds[name];
      const n = PER_ROUND[k] ?? 4000;
      const t = performance.now();
      const c = process.cpuUsage();
      for (let i = 0; i < n; i++) guardian.call(reqs[k][i % reqs[k].length]);
      const used = process.cpuUsage(c);
      per[k][name].push(((performance.now() - t) / n) * 1000);
      cpu[k][name].push((used.user + used.system) / n);
    }
  }
}
console.log(`\nguardwire judgement compare — ${new Date().toISOString()}, node ${process.version}, pack ${pack}, ${ROUNDS} alternating rounds; before: ${other}`);
for (const k in shapes) {
  const b = median(per[k].before);
  const a = median(per[k].after);
  const unit = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(2)} µs`);
  const cb = median(cpu[k].before);
  const ca = median(cpu[k].after);
  console.log(`  ${k.padEnd(28)} before ${unit(b)}, after ${unit(a)} (${(((a - b) / b) * 100).toFixed(0)} %); CPU before ${unit(cb)}, after ${unit(ca)} (${(((ca - cb) / cb) * 100).toFixed(0)} %)`);
}
