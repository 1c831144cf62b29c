// A model detector, judged before it is added: quality on a labelled set nobody tuned to
// (test/fixtures/model-eval/), next to what guardwire already does on the same texts, and the model's cost on this
// machine (load time, memory, latency per 1 KB of text, a 1 MB result).
//
//   npm run build
//   node bench/model-eval.mjs                                  # guardwire alone (the detector and the default pack)
//   node bench/model-eval.mjs --llm-guardrail DIR [--json FILE] # plus the llm_guardrail package unpacked in DIR
//
// The candidate is not a dependency: fetch it with npm's own client and point the script at it, e.g.
//   (cd /tmp && npm pack llm_guardrail@2.1.2 && mkdir -p llm_guardrail && tar xzf llm_guardrail-2.1.2.tgz -C llm_guardrail)
//   node bench/model-eval.mjs --llm-guardrail /tmp/llm_guardrail/package
// (Its index.js needs nothing but its own model/ folder; its declared dependency is not used.)
//
// Every figure printed is measured in this run. Nothing here is tuned: the candidate runs at its own threshold, the
// sweep below it is reported for information only.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import YAML from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    "llm-guardrail": { type: "string" },
    json: { type: "string" },
    rounds: { type: "string", default: "3000" },
  },
});
const ROUNDS = Number(args.rounds);

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
const r3 = (x) => Math.round(x * 1000) / 1000;

// ---- the candidate's cost to load, measured first, before anything else is in the heap -------------------------
let candidate = null;
if (args["llm-guardrail"]) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const mod = await import(pathToFileURL(join(args["llm-guardrail"], "index.js")).href);
  await mod.checkInjection("warm up"); // the package reads and parses its model on the first call
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  await mod.checkAll("warm up");
  const loadAllMs = performance.now() - t1 + loadMs;
  globalThis.gc?.();
  const after = process.memoryUsage();
  candidate = {
    name: "llm_guardrail@" + JSON.parse(readFileSync(join(args["llm-guardrail"], "package.json"), "utf8")).version,
    mod,
    load: {
      injectionModelMs: r3(loadMs),
      allThreeModelsMs: r3(loadAllMs),
      rssMB: mb(after.rss - before.rss),
      heapMB: mb(after.heapUsed - before.heapUsed),
      gcExposed: typeof globalThis.gc === "function",
    },
  };
}

const { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } = await import("../dist/index.js");
await detectorsReady(); // the shell grammar loads asynchronously
const { compileDetector, MessageScan } = await import("../dist/guardian/detectors/index.js");

// ---- the labelled set ---------------------------------------------------------------------------------------
const dir = join(root, "test", "fixtures", "model-eval");
const cases = [];
for (const [file, label] of [
  ["attacks.yaml", "attack"],
  ["benign.yaml", "benign"],
]) {
  for (const c of YAML.parse(readFileSync(join(dir, file), "utf8")).cases) cases.push({ ...c, label });
}

// ---- how each text reaches the guardian -----------------------------------------------------------------------
/** The text as an MCP message in the place it would really arrive, with the request it answers. */
function mcpMessage(c) {
  switch (c.where) {
    case "tool_description":
      return {
        request: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        message: { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "tool_" + c.id, description: c.text, inputSchema: { type: "object" } }] } },
      };
    case "server_instructions":
      return {
        request: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } },
        message: { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" }, instructions: c.text } },
      };
    case "sampling":
      return {
        request: undefined,
        message: {
          jsonrpc: "2.0",
          id: 9,
          method: "sampling/createMessage",
          params: { systemPrompt: c.text, messages: [{ role: "user", content: { type: "text", text: "Go ahead." } }], maxTokens: 400 },
        },
      };
    default: {
      const tool = { email: "read_email", web: "fetch", calendar: "list_events", issue: "get_issue", chat: "read_channel", search: "web_search" }[c.where] ?? "read_file";
      return {
        request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: tool, arguments: { id: c.id } } },
        message: { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: c.text }] } },
      };
    }
  }
}

const detector = compileDetector("prompt_injection");
const guardwireDetector = (c) => {
  const scan = new MessageScan(mcpMessage(c).message, "srv", null);
  return scan.run(detector).length > 0;
};

const { ruleSet } = loadRules(readRuleSources(join(root, "rules", "balanced.yaml")));
const guardian = new EmbeddedGuardian(ruleSet);
let sessionN = 0;
/** The default pack's enforced decision on the text arriving inbound: deny or modify counts as caught. */
const defaultPack = (c) => {
  const { request, message } = mcpMessage(c);
  const ctx = { direction: "inbound", session: "s-eval-" + sessionN++, route: "eval", transport: "stdio" };
  if (request) ctx.request = request;
  const answer = guardian.call(buildAosRequest("protocols/MCP", message, ctx));
  return answer.result.decision === "deny" || answer.result.decision === "modify";
};

// ---- quality --------------------------------------------------------------------------------------------------
/** Precision, recall and false-positive rate of `flags` (id -> caught) over `subset`. */
function score(flags, subset = cases) {
  let tp = 0,
    fn = 0,
    fp = 0,
    tn = 0;
  for (const c of subset) {
    const hit = flags.get(c.id);
    if (c.label === "attack") {
      if (hit) tp++;
      else fn++;
    } else if (hit) fp++;
    else tn++;
  }
  return {
    attacks: tp + fn,
    caught: tp,
    recall: tp + fn ? r3(tp / (tp + fn)) : null,
    benign: fp + tn,
    falsePositives: fp,
    fpRate: fp + tn ? r3(fp / (fp + tn)) : null,
    precision: tp + fp ? r3(tp / (tp + fp)) : null,
  };
}

const flags = { guardwireDetector: new Map(), defaultPack: new Map() };
for (const c of cases) {
  flags.guardwireDetector.set(c.id, guardwireDetector(c));
  flags.defaultPack.set(c.id, defaultPack(c));
}
const scores = {};
if (candidate) {
  flags.model = new Map();
  flags.modelAnyOfThree = new Map();
  candidate.scores = new Map();
  for (const c of cases) {
    const r = await candidate.mod.checkInjection(c.text);
    const all = await candidate.mod.checkAll(c.text);
    flags.model.set(c.id, r.detected);
    flags.modelAnyOfThree.set(c.id, !all.allowed);
    candidate.scores.set(c.id, r.confidence);
  }
  // What adding the model as an extra, optional detector would give: either one fires.
  flags.defaultPackOrModel = new Map(cases.map((c) => [c.id, flags.defaultPack.get(c.id) || flags.model.get(c.id)]));
}

const en = (c) => c.lang === "en";
const groups = {
  all: () => true,
  english: en,
  otherLanguages: (c) => !en(c),
  notQuoted: (c) => !c.quoted,
};
for (const [name, f] of Object.entries(flags)) {
  scores[name] = {};
  for (const [g, pred] of Object.entries(groups)) scores[name][g] = score(f, cases.filter(pred));
  scores[name].quotedBenignFlagged = cases.filter((c) => c.quoted && f.get(c.id)).map((c) => c.id);
  scores[name].byStyle = {};
  for (const style of [...new Set(cases.filter((c) => c.style).map((c) => c.style))].sort()) {
    const s = score(f, cases.filter((c) => c.style === style));
    scores[name].byStyle[style] = `${s.caught}/${s.attacks}`;
  }
  scores[name].missed = cases.filter((c) => c.label === "attack" && !f.get(c.id)).map((c) => c.id);
  scores[name].falsePositiveIds = cases.filter((c) => c.label === "benign" && f.get(c.id)).map((c) => c.id);
}

let sweep;
if (candidate) {
  sweep = [0.3, 0.5, 0.7, 0.9].map((t) => {
    const f = new Map(cases.map((c) => [c.id, candidate.scores.get(c.id) >= t]));
    const s = score(f);
    const u = score(new Map(cases.map((c) => [c.id, f.get(c.id) || flags.defaultPack.get(c.id)])));
    return { threshold: t, recall: s.recall, fpRate: s.fpRate, precision: s.precision, withDefaultPack: { recall: u.recall, fpRate: u.fpRate } };
  });
}

// ---- cost per 1 KB of text -------------------------------------------------------------------------------------
/** Each case's text repeated to fill exactly 1 KB (cut at a character boundary). */
const KB = cases.map((c) => {
  let s = c.text;
  while (Buffer.byteLength(s) < 1024) s += "\n" + c.text;
  while (Buffer.byteLength(s) > 1024) s = s.slice(0, -1);
  return s;
});

async function latency(fn) {
  for (let i = 0; i < Math.min(ROUNDS, 500); i++) await fn(KB[i % KB.length]);
  const xs = new Float64Array(ROUNDS);
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn(KB[i % KB.length]);
    xs[i] = (performance.now() - t) * 1000;
  }
  return { p50us: r3(pct(xs, 50)), p99us: r3(pct(xs, 99)), rounds: ROUNDS };
}

const asResult = (text) => ({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text }] } });
const cost = {
  guardwireDetector: await latency((t) => new MessageScan(asResult(t), "srv", null).run(detector)),
  defaultPack: await latency((t) =>
    guardian.call(
      buildAosRequest("protocols/MCP", asResult(t), {
        direction: "inbound",
        session: "s-cost",
        route: "eval",
        transport: "stdio",
        request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fetch", arguments: {} } },
      }),
    ),
  ),
};
if (candidate) {
  cost.model = await latency((t) => candidate.mod.checkInjection(t));
  cost.modelAnyOfThree = await latency((t) => candidate.mod.checkAll(t));
  // Large results: the time at each size, or what the package threw.
  const big = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ";
  cost.modelLarge = {};
  for (const size of [16_384, 65_536, 262_144, 1_048_576]) {
    const text = big.repeat(Math.ceil(size / big.length)).slice(0, size);
    const ms = [];
    try {
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await candidate.mod.checkInjection(text);
        ms.push(performance.now() - t);
      }
      cost.modelLarge[size] = { p50ms: r3(pct(ms, 50)), maxMs: r3(Math.max(...ms)), runs: ms.length };
    } catch (e) {
      cost.modelLarge[size] = { threw: `${e.name}: ${e.message}` };
    }
  }
}

// ---- report ---------------------------------------------------------------------------------------------------
const out = {
  date: new Date().toISOString(),
  node: process.version,
  set: { cases: cases.length, attacks: cases.filter((c) => c.label === "attack").length, benign: cases.filter((c) => c.label === "benign").length },
  candidate: candidate ? { name: candidate.name, load: candidate.load, thresholdSweep: sweep } : null,
  scores,
  cost,
};
const line = (name, s) =>
  `${name.padEnd(20)} recall ${String(s.recall).padEnd(6)} (${s.caught}/${s.attacks})  false positives ${s.falsePositives}/${s.benign} (${s.fpRate})  precision ${s.precision}`;
console.log(`model-eval: ${out.set.cases} texts (${out.set.attacks} attacks, ${out.set.benign} benign), node ${process.version}`);
for (const [name, s] of Object.entries(scores)) {
  console.log(line(name, s.all));
  console.log(`${"".padEnd(20)} english ${s.english.caught}/${s.english.attacks}, other languages ${s.otherLanguages.caught}/${s.otherLanguages.attacks}; quoted benign flagged: ${s.quotedBenignFlagged.join(", ") || "none"}`);
  console.log(`${"".padEnd(20)} by style: ${Object.entries(s.byStyle).map(([k, v]) => `${k} ${v}`).join(", ")}`);
}
if (candidate) {
  console.log(`${candidate.name}: load ${candidate.load.injectionModelMs} ms (injection model), ${candidate.load.allThreeModelsMs} ms (all three); +${candidate.load.rssMB} MB RSS, +${candidate.load.heapMB} MB heap`);
  console.log(`threshold sweep (information only): ${sweep.map((s) => `${s.threshold}: recall ${s.recall} fp ${s.fpRate} (with the pack: ${s.withDefaultPack.recall} / ${s.withDefaultPack.fpRate})`).join("; ")}`);
}
for (const [name, c] of Object.entries(cost)) console.log(`cost ${name.padEnd(16)} ${JSON.stringify(c)}`);
if (args.json) writeFileSync(args.json, JSON.stringify(out, null, 2) + "\n");
