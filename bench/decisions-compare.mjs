// No decision may change: `node bench/decisions-compare.mjs <other guardwire checkout, built> [--pack name]…` judges,
// in process with BOTH builds, every message of the project's corpus (test/fixtures/corpus/*.test.yaml, each case's
// steps in one session, as `guardwire test` builds them) and every message of the open blind sets' cases (each case
// as bench/blind.mjs plays it, in one session: initialize, the lists, the call, a sampling request, the result; an A2A
// case's card, send and reply), each in its direction, with the default pack and rules/strict.yaml (or the --pack
// names given). It prints every message whose AOS answer differs (decision, reason codes, message, rules, the
// rewritten message: the whole answer) and a last line `decisions-compare: N messages × M packs, D differences`.
// Exit 1 when D > 0.
//
// Every blind set numbered 85 or above is BLIND: this script skips it by name and never reads a file under it (only
// test/fixtures/blind/, blind2/ … blind84/ are read).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml } from "yaml";
import { judgeStep, openBlindCases } from "./blind-cases.mjs";

setFlagsFromString("--regexp-tier-up-ticks=0");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2] && !process.argv[2].startsWith("--") ? resolve(process.argv[2]) : null;
if (!other) {
  console.error("usage: node bench/decisions-compare.mjs <other guardwire checkout, built> [--pack name]…");
  process.exit(2);
}
const packs = process.argv.flatMap((a, i) => (process.argv[i - 1] === "--pack" ? [a] : []));
if (!packs.length) packs.push("balanced", "strict");
const fixtures = join(root, "test", "fixtures");

// ---------------------------------------------------------------------------------------------------------------
// Cases as sequences of {protocol, message, direction, request, server?, route?, agent?}

let ids = 0;
/** A corpus step as src/guardian/rule-tests.ts's toMessage builds it. */
function corpusStep(step) {
  const base = { protocol: step.protocol ?? "mcp", server: step.server, route: step.route, agent: step.agent };
  if (step.call) return { ...base, message: { jsonrpc: "2.0", id: ++ids, method: "tools/call", params: { name: step.call.tool, arguments: step.call.args ?? {} } }, request: null, direction: step.direction ?? "outbound" };
  if (step.result) {
    const id = ++ids;
    return {
      ...base,
      message: { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: step.result.text }] } },
      request: { jsonrpc: "2.0", id, method: "tools/call", params: { name: step.result.tool, arguments: step.result.args ?? {} } },
      direction: step.direction ?? "inbound",
    };
  }
  if (step.tools) {
    const id = ++ids;
    return { ...base, message: { jsonrpc: "2.0", id, result: { tools: step.tools } }, request: { jsonrpc: "2.0", id, method: "tools/list", params: {} }, direction: step.direction ?? "inbound" };
  }
  if (step.message) return { ...base, message: step.message, request: step.request ?? null, direction: step.direction ?? ("method" in step.message ? "outbound" : "inbound") };
  return null;
}

function corpusCases() {
  const dir = join(fixtures, "corpus");
  const out = [];
  for (const f of readdirSync(dir).filter((x) => /\.test\.ya?ml$/.test(x)).sort()) {
    const doc = parseYaml(readFileSync(join(dir, f), "utf8"));
    for (const c of doc.cases ?? []) {
      const steps = (c.steps ?? [c]).map(corpusStep).filter(Boolean);
      if (steps.length) out.push({ name: `corpus/${f}: ${c.name}`, steps });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

async function build(dir) {
  const M = await import(join(dir, "dist", "index.js"));
  await M.detectorsReady?.(); // the shell grammar, as every command waits for it (until then lines go to the tokenizer)
  const guardians = {};
  for (const p of packs) {
    const file = join(dir, "rules", `${p}.yaml`);
    if (!existsSync(file)) throw new Error(`${file}: no such pack`);
    const { ruleSet, problems } = M.loadRules(M.readRuleSources(file));
    if (!ruleSet) throw new Error(`${file}: ${JSON.stringify(problems)}`);
    guardians[p] = ruleSet;
  }
  return { M, ruleSets: guardians };
}

const started = performance.now();
const cases = [...corpusCases(), ...openBlindCases(fixtures)];
const builds = [await build(other), await build(root)];
const now = () => new Date("2026-11-28T12:00:00Z");
/** The answer with what no decision is made of left out (the pack's hash; timings, if any). */
const answer = (res) => JSON.parse(JSON.stringify(res, (k, v) => (k === "ruleset" || k === "elapsedMs" || k === "durationMs" || k === "latencyMs" ? undefined : v)));

let messages = 0;
let differences = 0;
for (const p of packs) {
  const guardians = builds.map((b) => new b.M.EmbeddedGuardian(b.ruleSets[p], { now }));
  cases.forEach((c, ci) => {
    const session = `case-${ci}`;
    c.steps.forEach((s, si) => {
      messages++;
      const got = builds.map((b, bi) => {
        try {
          return answer(judgeStep(b.M, guardians[bi], s, session));
        } catch (e) {
          return { threw: String(e?.message ?? e) };
        }
      });
      if (!isDeepStrictEqual(got[0], got[1])) {
        differences++;
        console.log(`DIFFERENT [${p}] ${c.name} step ${si + 1} (${s.direction})`);
        console.log(`  ${other.split("/").pop()}: ${JSON.stringify(got[0]).slice(0, 600)}`);
        console.log(`  this build: ${JSON.stringify(got[1]).slice(0, 600)}`);
      }
    });
  });
}
console.log(`decisions-compare: ${cases.length} cases, ${messages / packs.length} messages × ${packs.length} packs (${packs.join(", ")}), ${differences} differences (${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exit(differences ? 1 : 0);
