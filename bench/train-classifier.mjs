// The text model detector's training (issue 24, item 9; docs/detection.md, "Text model detector"): a logistic
// regression over hashed character 3–5-grams and word 1–2-grams, trained on the project's own labelled cases. The
// featuriser is the guardian's own (dist/guardian/detectors/text-model.js), fed through the guardian's MessageScan and
// normaliser: what is trained is exactly what is served. Run `npm run build` first.
//
//   nice -n 15 node bench/train-classifier.mjs --cv     leave-one-blind-set-out CV over blind/ … blind61/ (the corpus
//                                                       always trains): out-of-fold figures per class and per message
//                                                       kind, and the threshold (≤ 1 % of benign cases flagged out of
//                                                       fold), frozen in bench/results-text-model-cv.json
//   nice -n 15 node bench/train-classifier.mjs --ship   train on all training data with that threshold and write the
//                                                       shipped asset rules/text-model.bin (prints its sha256)
//   nice -n 15 node bench/train-classifier.mjs --check  rebuild the asset in memory and compare it byte for byte
//   nice -n 15 node bench/train-classifier.mjs --holdout blind22,blind23   (an experiment: train without those sets,
//                                                       print their recall at 0.5–3 % of their benign cases flagged)
//
// Training data: test/fixtures/blind{,2,…,61}/ and test/fixtures/corpus/*.test.yaml, as of the commit the CV recorded
// (git show; see DATA_COMMIT below). Never read here: blind62/ or any later blind
// set, and test/fixtures/model-eval/ (judged through the packs by bench/model-eval.mjs, aggregates only).
// The offline experiment that chose these settings (docs/detection.md, "A classifier trained on the project's own
// cases") had its own featuriser; it is gone, and its figures stay in bench/results-classifier{,-cv}.json.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { normalizeCase, targetContent } from "./blind-cases.mjs";
import { MessageScan } from "../dist/guardian/detectors/index.js";
import { textFeatures, KINDS } from "../dist/guardian/detectors/text-model.js";
import { encodeTextModel, TEXT_MODEL_FILE } from "../dist/guardian/detectors/text-model-asset.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    cv: { type: "boolean", default: false },
    ship: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    bits: { type: "string" },
    keep: { type: "string" },
    epochs: { type: "string" },
    lr: { type: "string" },
    l2: { type: "string" },
    "cv-out": { type: "string", default: join(root, "bench", "results-text-model-cv.json") },
    "data-commit": { type: "string" },
    "oof-out": { type: "string" },
    holdout: { type: "string" },
    avg: { type: "string" },
    "corpus-attack-weight": { type: "string" },
    loss: { type: "string" },
  },
});
const r3 = (x) => Math.round(x * 1000) / 1000;

/*
 * The training data is read from a git commit, not the working tree: --cv records the commit (default HEAD, whose
 * fixtures must then be committed), --ship and --check read it back from the CV's file. So cases added to the corpus
 * later do not change what rebuilds the shipped asset; retraining on them is a new --cv and --ship.
 */
const git = (...a) => execFileSync("git", a, { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
const cvFile = () => JSON.parse(readFileSync(args["cv-out"], "utf8"));
const DATA_COMMIT = git("rev-parse", args["data-commit"] ?? (args.cv ? "HEAD" : cvFile().dataCommit)).trim();
const fxPath = (...p) => ["test", "fixtures", ...p].join("/");
const listDir = (dir) => git("ls-tree", "--name-only", `${DATA_COMMIT}:${dir}`).split("\n").filter(Boolean).sort();
const readData = (path) => git("show", `${DATA_COMMIT}:${path}`);

/**
 * The chosen setting: the experiment's CV (32 settings) chose learning rate 0.1, 8 epochs, L2 1e-6 at 2^22 buckets;
 * with sets 8 and 9 in the training data (nine folds) the CV's recall at 0.3–3 % of benign cases flagged was highest
 * at 2^20 buckets (2^19 … 2^23 tried; docs/detection.md, "Eighth round"), so 2^20. The corpus's attacks count half
 * (corpusAttackWeight 0.5; they were written beside the rules): with the words hashed with their message's kind
 * (text-model.ts), the twenty-seventh round's full CV found the corpus at half weight 1.4 points of mean recall better
 * than at full weight. Its benign cases keep full weight: they are the developer traffic the packs must pass
 * (test/guardian/packs.test.ts), and at half weight two of them scored over the threshold (docs/detection.md,
 * "Twenty-eighth round").
 */
const SETTING = { bits: 20, epochs: 8, l2: 1e-6, lr: 0.1, seed: 1, keep: 0, corpusAttackWeight: 0.5 };
if (args.bits) SETTING.bits = Number(args.bits);
if (args.keep) SETTING.keep = Number(args.keep);
if (args.epochs) SETTING.epochs = Number(args.epochs);
if (args.lr) SETTING.lr = Number(args.lr);
if (args.l2) SETTING.l2 = Number(args.l2);
// (model27 experiments; absent from SETTING unless given)
if (args.avg) SETTING.avg = Number(args.avg);
if (args["corpus-attack-weight"]) SETTING.corpusAttackWeight = Number(args["corpus-attack-weight"]);
if (args.loss) SETTING.loss = args.loss;
const TRAIN_SETS = ["blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17", "blind18", "blind19", "blind20", "blind21", "blind22", "blind23", "blind24", "blind25", "blind26", "blind27", "blind28", "blind29", "blind30", "blind31", "blind32", "blind33", "blind34", "blind35", "blind36", "blind37", "blind38", "blind39", "blind40", "blind41", "blind42", "blind43", "blind44", "blind45", "blind46", "blind47", "blind48", "blind49", "blind50", "blind51", "blind52", "blind53", "blind54", "blind55", "blind56", "blind57", "blind58", "blind59", "blind60", "blind61", "blind63", "blind64", "blind65", "blind66", "blind67", "blind68", "blind69", "blind70", "blind71", "blind72", "blind73", "blind74", "blind75", "blind76", "blind77", "blind78", "blind79", "blind80", "blind81", "blind82", "blind83", "blind84"];
/** Out of fold, at most this share of the training blind sets' benign cases may be flagged. */
const BENIGN_RATE = 0.01;
/** Out of fold, at most this share of the training blind sets' benign tool-call messages may be flagged. */
const CALL_BENIGN_RATE = 0.005;

// ---------------------------------------------------------------------------------------------------------------
// Cases → wire messages (as the guardian sees them)

const MCP_KINDS = ["initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "call", "result", "sampling"];
const LIST_KEY = { "tools/list": "tools", "prompts/list": "prompts", "resources/list": "resources", "resources/templates/list": "resourceTemplates" };

/** The wire message a blind case's message of kind `t` is, or undefined when the case has none. */
function wire(c, t) {
  const s = c.server ?? {};
  const result = (r) => ({ jsonrpc: "2.0", id: 1, result: r });
  switch (t) {
    case "initialize":
      return s.instructions === undefined ? undefined : result({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: s.serverInfo ?? { name: "s", version: "1" }, instructions: s.instructions });
    case "call":
      return c.call ? { jsonrpc: "2.0", id: 1, method: c.call.method ?? "tools/call", params: c.call.params ?? {} } : undefined;
    case "result":
      if (c.result !== undefined) return result(c.result);
      return c.error !== undefined ? { jsonrpc: "2.0", id: 1, error: c.error } : undefined;
    case "sampling":
      return c.sampling ? { jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: c.sampling } : undefined;
    case "card":
      return c.card ? result(c.card) : undefined;
    case "send":
      return c.send?.parts ? { jsonrpc: "2.0", id: 1, method: c.send.method ?? "message/send", params: { message: { kind: "message", role: "user", messageId: "m-1", parts: c.send.parts } } } : undefined;
    case "reply":
      return c.reply ? result(c.reply.task ?? c.reply.message ?? c.reply) : undefined;
    default: {
      const v = targetContent(c, t);
      return v === undefined ? undefined : result({ [LIST_KEY[t]]: v });
    }
  }
}

/** The message kinds a benign case writes itself (not inherited from its file's defaults). */
function ownKinds(raw, c) {
  if (c.protocol === "a2a") return ["card", "send", "reply"].filter((k) => raw[k] !== undefined || k === "send");
  const s = raw.server ?? {};
  const k = [];
  if (s.instructions !== undefined) k.push("initialize");
  for (const [kind, key] of Object.entries(LIST_KEY)) if (s[key]) k.push(kind);
  if (raw.call) k.push("call");
  if (raw.result || raw.error) k.push("result");
  if (raw.sampling) k.push("sampling");
  return k;
}

/** A blind set's cases: {set, class, label, messages}. Attack cases: their target messages; benign: their own. */
function loadBlindDir(set) {
  const dir = fxPath(set);
  const out = [];
  for (const f of listDir(dir).filter((x) => /\.ya?ml$/.test(x))) {
    const doc = parseYaml(readData(`${dir}/${f}`), { maxAliasCount: -1 });
    for (const raw of doc.cases ?? []) {
      const c = normalizeCase(raw, doc.defaults ?? {}, doc.class);
      const kinds = c.label === "attack" ? c.target : ownKinds(raw, c);
      const messages = (kinds ?? []).filter((k) => c.protocol === "a2a" || MCP_KINDS.includes(k)).map((k) => wire(c, k)).filter(Boolean);
      out.push({ set, class: c.class, label: c.label, messages });
    }
  }
  return out;
}

/** Corpus cases: single-message cases and the steps of benign sequences (attack sequences are judged by state). */
function loadCorpus() {
  const out = [];
  const step = (s) => {
    if (s.call) return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: s.call.tool, arguments: s.call.args ?? {} } };
    if (s.result) return { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: s.result.text }] } };
    if (s.tools) return { jsonrpc: "2.0", id: 1, result: { tools: s.tools } };
    return s.message;
  };
  for (const f of listDir(fxPath("corpus")).filter((x) => x.endsWith(".test.yaml"))) {
    const doc = parseYaml(readData(fxPath("corpus", f)));
    for (const c of doc.cases ?? []) {
      if (c.label !== "attack" && c.label !== "benign") continue;
      if (c.steps && c.label === "attack") continue;
      const messages = (c.steps ?? [c]).map(step).filter(Boolean);
      if (messages.length) out.push({ set: "corpus", class: c.class ?? "?", label: c.label, messages });
    }
  }
  return out;
}

function trainingCases() {
  // (model27 experiments) M27_CASES=<file>: the cases read once from the data commit, kept in that file
  const cache = process.env.M27_CASES ? `${process.env.M27_CASES}.${DATA_COMMIT}.json` : null;
  if (cache) {
    try {
      return JSON.parse(readFileSync(cache, "utf8"));
    } catch {}
  }
  const cases = [...TRAIN_SETS.flatMap(loadBlindDir), ...loadCorpus()];
  if (cache) writeFileSync(cache, JSON.stringify(cases));
  return cases;
}

/** One example per message, featurised through the guardian's own scan, normaliser and featuriser. */
function examplesOf(cases) {
  const ex = [];
  cases.forEach((c, ci) => {
    for (const m of c.messages) {
      const input = new MessageScan(m, "train", null).modelInput;
      // A message with no prose (data only) is never scored when served (detectors/index.ts): not an example either.
      if (input.text === "") continue;
      ex.push({ ci, kind: input.kind, x: textFeatures(SETTING.bits, input.kind, input.text, input.flags), y: c.label === "attack" ? 1 : 0, sw: c.set === "corpus" && c.label === "attack" ? (SETTING.corpusAttackWeight ?? 1) : 1 });
    }
  });
  return ex;
}

// ---------------------------------------------------------------------------------------------------------------
// The model: logistic regression, AdaGrad SGD with L2, classes weighted to balance, seeded (deterministic)

function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s >>> 13;
    return (s >>> 0) / 4294967296;
  };
}

function train(examples) {
  const dim = (1 << SETTING.bits) + KINDS.length;
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  const pos = examples.filter((e) => e.y === 1).length;
  const cw = { 1: examples.length / (2 * pos), 0: examples.length / (2 * (examples.length - pos)) };
  const rnd = seededRandom(SETTING.seed);
  const order = examples.map((_, i) => i);
  // averaging (model27): the mean of the weights after each of the last `avg` epochs
  const avgFrom = SETTING.avg ? SETTING.epochs - SETTING.avg : Infinity;
  const wa = SETTING.avg ? new Float64Array(dim) : null;
  let ba = 0;
  for (let epoch = 0; epoch < SETTING.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const { x, y, sw } = examples[i];
      let z = b;
      for (let j = 0; j < x.idx.length; j++) z += w[x.idx[j]] * x.val[j];
      let g;
      if (SETTING.loss === "mhuber") {
        const yz = (2 * y - 1) * z;
        g = yz >= 1 ? 0 : yz >= -1 ? -2 * (1 - yz) * (2 * y - 1) : -4 * (2 * y - 1);
        g *= cw[y] * (sw ?? 1);
        if (g === 0) continue;
      } else g = (1 / (1 + Math.exp(-z)) - y) * cw[y] * (sw ?? 1);
      for (let j = 0; j < x.idx.length; j++) {
        const k = x.idx[j];
        const gk = g * x.val[j] + SETTING.l2 * w[k];
        g2[k] += gk * gk;
        w[k] -= (SETTING.lr * gk) / Math.sqrt(g2[k]);
      }
      gb += g * g;
      b -= (SETTING.lr * g) / Math.sqrt(gb);
    }
    if (wa && epoch >= avgFrom) {
      for (let k = 0; k < dim; k++) wa[k] += w[k] / SETTING.avg;
      ba += b / SETTING.avg;
    }
  }
  return prune(wa ? { w: wa, b: ba } : { w, b });
}

/** Weights under 1e-4 are dropped; with `keep`, only the `keep` largest (the kind weights always stay). */
function prune(model) {
  const n = 1 << SETTING.bits;
  let cut = 1e-4;
  if (SETTING.keep) {
    const mags = [];
    for (let k = 0; k < n; k++) if (Math.abs(model.w[k]) >= 1e-4) mags.push(Math.abs(model.w[k]));
    if (mags.length > SETTING.keep) cut = mags.sort((a, b) => b - a)[SETTING.keep - 1];
  }
  for (let k = 0; k < n; k++) if (Math.abs(model.w[k]) < cut) model.w[k] = 0;
  return model;
}

function score(model, x) {
  let z = model.b;
  for (let j = 0; j < x.idx.length; j++) z += model.w[x.idx[j]] * x.val[j];
  return 1 / (1 + Math.exp(-z));
}

function tally(cases, flagged) {
  const per = {};
  const all = { attacks: 0, caught: 0, benign: 0, flagged: 0 };
  cases.forEach((c, i) => {
    const p = (per[c.class] ??= { attacks: 0, caught: 0, benign: 0, flagged: 0 });
    for (const t of [p, all]) {
      if (c.label === "attack") {
        t.attacks++;
        if (flagged[i]) t.caught++;
      } else {
        t.benign++;
        if (flagged[i]) t.flagged++;
      }
    }
  });
  const fin = (t) => ({ ...t, recall: t.attacks ? r3(t.caught / t.attacks) : null, fpRate: t.benign ? r3(t.flagged / t.benign) : null });
  return { overall: fin(all), perClass: Object.fromEntries(Object.entries(per).sort().map(([k, v]) => [k, fin(v)])) };
}

// ---------------------------------------------------------------------------------------------------------------
// Cross-validation: each training blind set held out in turn (a new set by another author is what a held-out set is)

function crossValidate() {
  const cases = trainingCases();
  const ex = examplesOf(cases);
  const oof = new Float64Array(ex.length).fill(NaN);
  for (const held of TRAIN_SETS) {
    const t = performance.now();
    const model = train(ex.filter((e) => cases[e.ci].set !== held));
    ex.forEach((e, i) => {
      if (cases[e.ci].set === held) oof[i] = score(model, e.x);
    });
    console.log(`fold ${held}: trained in ${Math.round(performance.now() - t)} ms`);
  }
  // (for analysis: each message's out-of-fold score, with its case's set, class, label and the message kind)
  if (args["oof-out"]) writeFileSync(args["oof-out"], JSON.stringify(ex.map((e, i) => ({ ci: e.ci, set: cases[e.ci].set, cls: cases[e.ci].class, y: e.y, kind: e.kind, s: r3(oof[i] * 1000) / 1000 }))));
  // a case is flagged when any of its messages is
  const caseScore = new Float64Array(cases.length).fill(-Infinity);
  ex.forEach((e, i) => {
    if (oof[i] > caseScore[e.ci]) caseScore[e.ci] = oof[i];
  });
  const blind = cases.map((c, i) => i).filter((i) => cases[i].set !== "corpus");
  const benign = blind.filter((i) => cases[i].label === "benign").map((i) => caseScore[i]).sort((a, b) => b - a);
  const allowed = Math.floor(benign.length * BENIGN_RATE);
  // flagged when the score is at or above the threshold: just above the (allowed+1)-th highest benign score
  const threshold = Number(Math.min(0.999, benign[allowed] + 1e-4).toFixed(4));
  const bc = blind.map((i) => cases[i]);
  const flags = blind.map((i) => caseScore[i] >= threshold);
  const result = { threshold, benignRate: BENIGN_RATE, ...tally(bc, flags) };
  result.perSet = Object.fromEntries(TRAIN_SETS.map((s) => [s, tally(bc.filter((c) => c.set === s), flags.filter((_, j) => bc[j].set === s)).overall]));
  const kinds = {};
  ex.forEach((e, i) => {
    if (cases[e.ci].set === "corpus") return;
    const k = (kinds[e.kind] ??= { attackMessages: 0, caught: 0, benignMessages: 0, flagged: 0 });
    if (e.y) {
      k.attackMessages++;
      if (oof[i] >= threshold) k.caught++;
    } else {
      k.benignMessages++;
      if (oof[i] >= threshold) k.flagged++;
    }
  });
  result.perKind = kinds;
  // Outbound tool calls (balanced's `text-model-calls` rule) get a threshold of their own, stricter than the cases':
  // at most CALL_BENIGN_RATE of the blind sets' benign call messages flagged out of fold. The pack carries this number
  // (test/guardian/text-model.test.ts holds the pack to this file).
  const callBenign = ex.flatMap((e, i) => (cases[e.ci].set !== "corpus" && e.kind === "call" && e.y === 0 ? [oof[i]] : []));
  callBenign.sort((a, b) => b - a);
  const callAllowed = Math.floor(callBenign.length * CALL_BENIGN_RATE);
  result.callThreshold = Number(Math.min(0.999, callBenign[callAllowed] + 1e-4).toFixed(4));
  result.callBenignRate = CALL_BENIGN_RATE;
  {
    // (model27) the measure: mean out-of-fold recall at 0.5, 1, 1.5 and 2 % of the blind sets' benign cases flagged
    const rec = [0.005, 0.01, 0.015, 0.02].map((rate) => {
      const t = benign[Math.floor(benign.length * rate)] + 1e-9;
      return blind.filter((i) => cases[i].label === "attack" && caseScore[i] >= t).length / result.overall.attacks;
    });
    console.log(`oof mean recall at 0.5/1/1.5/2 %: ${(rec.reduce((a, b) => a + b, 0) / 4).toFixed(4)} (${rec.map((x) => x.toFixed(4)).join(" ")})`);
  }
  const o = result.overall;
  console.log(`out of fold at ${threshold}: ${o.caught}/${o.attacks} attacks (${o.recall}), ${o.flagged}/${o.benign} benign flagged (${o.fpRate})`);
  const callAttacks = ex.filter((e, i) => cases[e.ci].set !== "corpus" && e.kind === "call" && e.y === 1 && oof[i] >= result.callThreshold).length;
  console.log(`tool calls at ${result.callThreshold}: ${callAttacks}/${kinds.call?.attackMessages} attack messages, ${callBenign.filter((x) => x >= result.callThreshold).length}/${callBenign.length} benign messages flagged`);
  for (const [k, v] of Object.entries(result.perClass)) console.log(`  ${k.padEnd(18)} ${v.caught}/${v.attacks}  benign flagged ${v.flagged}/${v.benign}`);
  for (const [k, v] of Object.entries(result.perSet)) console.log(`  ${k.padEnd(18)} ${v.caught}/${v.attacks}  benign flagged ${v.flagged}/${v.benign}`);
  for (const [k, v] of Object.entries(kinds)) console.log(`  kind ${k.padEnd(26)} ${v.caught}/${v.attackMessages}  benign messages flagged ${v.flagged}/${v.benignMessages}`);
  const summary = { cases: cases.length, attacks: cases.filter((c) => c.label === "attack").length, benign: cases.filter((c) => c.label === "benign").length, messages: ex.length };
  return { date: new Date().toISOString(), node: process.version, setting: SETTING, dataCommit: DATA_COMMIT, trainSets: [...TRAIN_SETS, "corpus"], training: summary, cv: result };
}

// ---------------------------------------------------------------------------------------------------------------
// The shipped asset

function build() {
  const cv = cvFile();
  if (JSON.stringify(cv.setting) !== JSON.stringify(SETTING)) throw new Error(`the CV in ${args["cv-out"]} was run with ${JSON.stringify(cv.setting)}, not ${JSON.stringify(SETTING)}: run --cv first`);
  const cases = trainingCases();
  const model = train(examplesOf(cases));
  const n = 1 << SETTING.bits;
  const buckets = [];
  const weights = [];
  for (let k = 0; k < n; k++)
    if (model.w[k] !== 0) {
      buckets.push(k);
      weights.push(model.w[k]);
    }
  const kindWeights = KINDS.map((_, i) => Number(model.w[n + i].toFixed(6)));
  return encodeTextModel({ bits: SETTING.bits, bias: Number(model.b.toFixed(6)), threshold: cv.cv.threshold, kindWeights, buckets, weights });
}

const sha = (b) => createHash("sha256").update(b).digest("hex");
const assetPath = join(root, TEXT_MODEL_FILE);

if (args.holdout) {
  // An experiment, not a shipping step: train without the named sets, score them, print recall at fixed shares of their
  // benign cases flagged (a case is flagged when any of its messages is).
  const held = args.holdout.split(",");
  const cases = trainingCases();
  const ex = examplesOf(cases);
  const model = train(ex.filter((e) => !held.includes(cases[e.ci].set)));
  const caseScore = new Float64Array(cases.length).fill(-Infinity);
  ex.forEach((e) => {
    if (held.includes(cases[e.ci].set)) caseScore[e.ci] = Math.max(caseScore[e.ci], score(model, e.x));
  });
  const idx = cases.map((_, i) => i).filter((i) => held.includes(cases[i].set));
  const benign = idx.filter((i) => cases[i].label === "benign").map((i) => caseScore[i]).sort((a, b) => b - a);
  const attacks = idx.filter((i) => cases[i].label === "attack");
  for (const rate of [0.005, 0.01, 0.02, 0.03]) {
    const t = benign[Math.floor(benign.length * rate)] + 1e-9;
    console.log(`holdout ${held.join("+")} at ${rate * 100} % benign (${Math.floor(benign.length * rate)}/${benign.length}): ${attacks.filter((i) => caseScore[i] >= t).length}/${attacks.length}`);
  }
  {
    const rec = [0.005, 0.01, 0.015, 0.02].map((rate) => attacks.filter((i) => caseScore[i] >= benign[Math.floor(benign.length * rate)] + 1e-9).length / attacks.length);
    console.log(`holdout mean recall at 0.5/1/1.5/2 %: ${(rec.reduce((a, b) => a + b, 0) / 4).toFixed(4)} (${rec.map((x) => x.toFixed(3)).join(" ")})`);
  }
  for (const t of [cvFile().cv.threshold]) console.log(`  at the shipped threshold ${t}: ${attacks.filter((i) => caseScore[i] >= t).length}/${attacks.length}, benign ${benign.filter((x) => x >= t).length}`);
}
if (args.cv) {
  const out = crossValidate();
  writeFileSync(args["cv-out"], JSON.stringify(out, null, 2) + "\n");
  console.log(`wrote ${args["cv-out"]}`);
}
if (args.ship) {
  const bytes = build();
  writeFileSync(assetPath, bytes);
  console.log(`wrote ${assetPath}: ${bytes.length} bytes, sha256 ${sha(bytes)}`);
}
if (args.check) {
  const bytes = build();
  const shipped = readFileSync(assetPath);
  const same = Buffer.compare(Buffer.from(bytes), shipped) === 0;
  console.log(`${same ? "identical" : "DIFFERENT"}: rebuilt ${bytes.length} bytes sha256 ${sha(bytes)}; shipped ${shipped.length} bytes sha256 ${sha(shipped)}`);
  if (!same) process.exitCode = 1;
}
