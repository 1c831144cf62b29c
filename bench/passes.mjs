// Which native passes read a long string during one judgement: `node bench/passes.mjs [--min N]` (after a build)
// judges judgement.mjs's 1 MB result once to warm up, then once more with String's searches, case changes, splits and
// replaces, RegExp's exec and test, and Buffer.byteLength wrapped, and prints each call on a string of at least N
// characters (default 100,000) by its three nearest callers, with how many times it ran. A pass listed twice from
// different callers reads the text twice; one that runs thousands of times is a search per hit. (Loops over a
// string's code units in JavaScript — the injection gate, the encoded-run check, the text model's window — are not
// seen here: the CPU profile shows those.)
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { numberArg } from "./lib.mjs";

setFlagsFromString("--regexp-tier-up-ticks=0");
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const MIN = numberArg("--min", 100000);
const M = await import(join(root, "dist", "index.js"));
await M.detectorsReady();
const { ruleSet } = M.loadRules(M.readRuleSources(join(root, "rules", "balanced.yaml")));
const guardian = new M.EmbeddedGuardian(ruleSet);
const bigText = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(10486).slice(0, 1_048_576);
const bigJson = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: bigText }] } });
const request = () =>
  M.buildAosRequest("protocols/MCP", JSON.parse(bigJson), {
    direction: "inbound",
    session: "s",
    route: "bench",
    transport: "stdio",
    request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "read_file", arguments: { path: "big.txt" } } },
  });
guardian.call(request());

const counts = new Map();
const note = (what) => {
  const callers = (new Error().stack ?? "")
    .split("\n")
    .slice(3, 6)
    .map((s) => s.trim().replace(/^at /, "").replace(/\(?file:\/\/.*\/dist\//, "").replace(/\)$/, ""))
    .join(" < ");
  const k = `${what}  @ ${callers}`;
  counts.set(k, (counts.get(k) ?? 0) + 1);
};
const arg = (a) => (a instanceof RegExp ? `/${a.source.slice(0, 60)}/${a.flags}` : JSON.stringify(String(a).slice(0, 30)));
const restore = [];
for (const m of ["toLowerCase", "toUpperCase", "split", "normalize", "indexOf", "includes", "lastIndexOf", "search", "match", "matchAll", "replace", "replaceAll", "trim"]) {
  const orig = String.prototype[m];
  String.prototype[m] = function (...a) {
    if (String(this).length >= MIN) note(`String.${m}(${a.length > 0 ? arg(a[0]) : ""})`);
    return orig.apply(this, a);
  };
  restore.push(() => (String.prototype[m] = orig));
}
for (const m of ["exec", "test"]) {
  const orig = RegExp.prototype[m];
  RegExp.prototype[m] = function (s) {
    if (typeof s === "string" && s.length >= MIN) note(`RegExp.${m}(${arg(this)})`);
    return orig.call(this, s);
  };
  restore.push(() => (RegExp.prototype[m] = orig));
}
const byteLength = Buffer.byteLength;
Buffer.byteLength = function (s, ...a) {
  if (typeof s === "string" && s.length >= MIN) note("Buffer.byteLength");
  return byteLength.call(this, s, ...a);
};
restore.push(() => (Buffer.byteLength = byteLength));
guardian.call(request());
for (const r of restore) r();
console.log(`\nnative passes over strings of ${MIN} characters or more, one judgement of the 1 MB result (balanced pack):\n`);
for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${String(c).padStart(7)}  ${k}`);
