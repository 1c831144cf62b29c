// An offline experiment (issue 24, item 9): does a small text classifier trained on this project's own labelled cases
// add recall on a held-out set, at a false-positive rate near 1 %? Not product code; nothing in src/ uses it.
//
//   node bench/train-classifier.mjs --cv        choose the settings: leave-one-blind-set-out cross-validation over
//                                               blind/ … blind5/ (the corpus always trains), nothing held out is read
//   node bench/train-classifier.mjs --final     train the chosen setting on all training data, freeze it and the
//                                               threshold, then score the held-out sets ONCE (aggregates only) and
//                                               write bench/results-classifier.json (model included)
//
// Training data: test/fixtures/blind{,2,3,4,5}/ and test/fixtures/corpus/*.test.yaml. Held out, never read case by
// case: test/fixtures/blind6/ and test/fixtures/model-eval/. This script prints and writes only aggregate figures for
// them (per class and overall); it joins the rules' per-case outcomes on blind6 (a JSON file given with --rules6,
// default /work/wt/notes/blind6-after.json) by id in memory, and never prints an id, a text or a per-case outcome.
//
// One example is one message, the text a guardian would see: every string of it (keys too), base64/hex/percent layers
// decoded and appended, NFKC, invisible characters removed (their presence a feature), non-ASCII confusables mapped to
// their Latin skeleton (`unhomoglyph`'s TR39 data), lower-cased. Features: hashed character n-grams and word
// uni/bigrams, a token for the kind of message (call, result, tools/list…), log-scaled counts, L2-normalised.
// Attack examples: the messages an attack case names as its targets. Benign examples: every message a benign case
// writes itself (not the file's shared defaults). A case counts as flagged when any of those messages scores at or
// above the threshold.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import skeletonData from "unhomoglyph/data.json" with { type: "json" };
import { normalizeCase, stringsOf, targetContent } from "./blind-cases.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    cv: { type: "boolean", default: false },
    final: { type: "boolean", default: false },
    rules6: { type: "string", default: "/work/wt/notes/blind6-after.json" },
    out: { type: "string", default: join(root, "bench", "results-classifier.json") },
    overlap: { type: "boolean", default: false },
    kinds: { type: "boolean", default: false },
    cost: { type: "boolean", default: false },
    "every-message": { type: "boolean", default: false },
  },
});
const r3 = (x) => Math.round(x * 1000) / 1000;
const fx = (root, ...p) => join(root, "test", "fixtures", ...p);

// ---------------------------------------------------------------------------------------------------------------
// Cases → messages (the same expansion as bench/blind.mjs: what goes on the wire)

/** What a message of a case carries; an initialize result with its server's name, as the wire has it. */
const content = (c, t) => (t === "initialize" ? (c.server?.instructions === undefined ? undefined : { serverInfo: c.server.serverInfo, instructions: c.server.instructions }) : targetContent(c, t));

/** The message kinds a benign case writes itself (not inherited from its file's defaults). */
function ownKinds(raw, c) {
  if (c.protocol === "a2a") return ["card", "send", "reply"].filter((k) => raw[k] !== undefined || k === "send");
  const s = raw.server ?? {};
  const k = [];
  if (s.instructions !== undefined) k.push("initialize");
  if (s.tools) k.push("tools/list");
  if (s.prompts) k.push("prompts/list");
  if (s.resources) k.push("resources/list");
  if (s.resourceTemplates) k.push("resources/templates/list");
  if (raw.call) k.push("call");
  if (raw.result || raw.error) k.push("result");
  if (raw.sampling) k.push("sampling");
  return k;
}

/** Blind-format cases of one folder: {id, set, class, label, protocol, messages: [{kind, value}]}. With `every`, a
 * benign case's messages are every message of its exchange (inherited defaults too), as a deployed detector sees them. */
function loadBlindDir(dir, set, every = false) {
  const out = [];
  for (const f of readdirSync(dir).filter((x) => /\.ya?ml$/.test(x)).sort()) {
    const doc = parseYaml(readFileSync(join(dir, f), "utf8"), { maxAliasCount: -1 });
    const defaults = doc.defaults ?? {};
    for (const raw of doc.cases ?? []) {
      const c = normalizeCase(raw, defaults, doc.class);
      const all = c.protocol === "a2a" ? ["card", "send", "reply"] : ["initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "call", "result", "sampling"];
      const kinds = c.label === "attack" ? c.target : every ? all : ownKinds(raw, c);
      const messages = (kinds ?? []).map((k) => ({ kind: k, value: content(c, k) })).filter((m) => m.value !== undefined);
      out.push({ id: c.id, set, class: c.class, label: c.label, protocol: c.protocol, messages });
    }
  }
  return out;
}

/** Corpus cases (`*.test.yaml`): single-message cases, and the steps of benign sequences. Attack sequences (rug pulls,
 * toxic flows) are judged by state, not by one message's text: left out. */
function loadCorpus() {
  const dir = fx(root, "corpus");
  const out = [];
  const stepMessage = (s) => {
    if (s.call) return { kind: "call", value: { name: s.call.tool, arguments: s.call.args ?? {} } };
    if (s.result) return { kind: "result", value: { content: [{ type: "text", text: s.result.text }] } };
    if (s.tools) return { kind: "tools/list", value: s.tools };
    if (s.message) {
      const m = s.message;
      const a2a = s.protocol === "a2a";
      if (m.method === "sampling/createMessage") return { kind: "sampling", value: m.params };
      if (m.method) return { kind: a2a ? "send" : "call", value: m.params ?? {} };
      if (a2a) return { kind: s.request?.method === "agent/card" ? "card" : "reply", value: m.result ?? m.error };
      if (m.result?.tools) return { kind: "tools/list", value: m.result.tools };
      if (m.result?.instructions !== undefined) return { kind: "initialize", value: { serverInfo: m.result.serverInfo, instructions: m.result.instructions } };
      for (const k of ["prompts", "resources", "resourceTemplates"])
        if (m.result?.[k]) return { kind: { prompts: "prompts/list", resources: "resources/list", resourceTemplates: "resources/templates/list" }[k], value: m.result[k] };
      return { kind: "result", value: m.result ?? m.error };
    }
    return undefined;
  };
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".test.yaml")).sort()) {
    const doc = parseYaml(readFileSync(join(dir, f), "utf8"));
    let n = 0;
    for (const c of doc.cases ?? []) {
      n++;
      if (c.label !== "attack" && c.label !== "benign") continue;
      let messages;
      if (c.steps) {
        if (c.label === "attack") continue;
        messages = c.steps.map(stepMessage).filter(Boolean);
      } else messages = [stepMessage(c)].filter(Boolean);
      if (messages.length) out.push({ id: `corpus:${f}:${n}`, set: "corpus", class: c.class ?? "?", label: c.label, protocol: c.protocol ?? "mcp", messages });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Text normalisation and features


const MAX_TEXT = 16_384;
const printable = (s) => {
  if (!s) return false;
  let ok = 0;
  for (const ch of s) if (/[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u.test(ch) || ch === "$" || ch === "|" || ch === "<" || ch === ">" || ch === "=" || ch === "+" || ch === "~" || ch === "^" || ch === "`") ok++;
  return ok / [...s].length >= 0.9;
};

/** Bounded decoding of base64, hex and percent layers: decoded text that reads as text is appended. */
function decodedLayers(text) {
  const extra = [];
  let budget = 8;
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{20,}={0,2}/g)) {
    if (budget-- <= 0) break;
    try {
      const d = Buffer.from(m[0].replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
      if (d.length >= 8 && printable(d)) extra.push(d);
    } catch {
      // not base64
    }
  }
  for (const m of text.matchAll(/(?:[0-9a-fA-F]{2}){10,}/g)) {
    if (budget-- <= 0) break;
    const d = Buffer.from(m[0], "hex").toString("utf8");
    if (printable(d)) extra.push(d);
  }
  if (/%[0-9a-fA-F]{2}/.test(text)) {
    try {
      extra.push(decodeURIComponent(text.slice(0, MAX_TEXT)));
    } catch {
      extra.push(text.replace(/%([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
    }
  }
  return extra;
}

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u206A-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** The normalised text of a message, plus flag tokens for what was hidden in it. */
export function normalise(value, opts) {
  let text = stringsOf(value).join("\n").slice(0, MAX_TEXT);
  const flags = [];
  if (INVISIBLE.test(text)) flags.push("__invisible");
  INVISIBLE.lastIndex = 0;
  if (ANSI.test(text)) flags.push("__ansi");
  ANSI.lastIndex = 0;
  text = text.replace(INVISIBLE, "").replace(ANSI, " ");
  if (opts.decode) {
    const layers = decodedLayers(text);
    if (layers.length) flags.push("__decoded");
    text += "\n" + layers.join("\n");
  }
  text = text.normalize("NFKC");
  let skel = "";
  let mapped = false;
  if (!/[^\x00-\x7f]/.test(text)) skel = text;
  else for (const ch of text) {
    if (ch.charCodeAt(0) > 0x7f && skeletonData[ch] !== undefined && /^[\x20-\x7e]+$/.test(skeletonData[ch])) {
      skel += skeletonData[ch];
      mapped = true;
    } else skel += ch;
  }
  if (mapped) flags.push("__confusable");
  text = skel.toLowerCase();
  if (opts.digits) text = text.replace(/\d+/g, "0");
  return { text: text.replace(/\s+/g, " ").slice(0, MAX_TEXT * 2), flags };
}

/** FNV-1a over a string, 32 bits. */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Sparse feature vector {idx: Int32Array, val: Float32Array}, L2-normalised, log-scaled counts. */
export function featurise(kind, value, opts) {
  const { text, flags } = normalise(value, opts);
  const mask = (1 << opts.bits) - 1;
  const counts = new Map();
  const add = (s) => {
    const i = hash(s) & mask;
    counts.set(i, (counts.get(i) ?? 0) + 1);
  };
  if (opts.chars) {
    const t = " " + text + " ";
    for (let n = opts.chars[0]; n <= opts.chars[1]; n++) for (let i = 0; i + n <= t.length; i++) add("c" + t.substr(i, n));
  }
  if (opts.words) {
    const w = text.match(/[\p{L}\p{N}_./~$-]+/gu) ?? [];
    for (let i = 0; i < w.length; i++) {
      add("w" + w[i]);
      if (opts.words >= 2 && i + 1 < w.length) add("b" + w[i] + " " + w[i + 1]);
    }
  }
  for (const f of flags) add(f);
  if (opts.kind) add("__kind:" + kind);
  const idx = Int32Array.from(counts.keys());
  const val = new Float32Array(idx.length);
  let norm = 0;
  idx.forEach((k, j) => {
    val[j] = 1 + Math.log(counts.get(k));
    norm += val[j] * val[j];
  });
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < val.length; j++) val[j] /= norm;
  if (opts.kind) {
    // the kind token stays at full weight: it says where the text is, not what it says
    const k = hash("__kind:" + kind) & mask;
    const j = idx.indexOf(k);
    if (j >= 0) val[j] = 1;
  }
  return { idx, val };
}

/**
 * The same features as `featurise`, computed without building a string per n-gram: FNV-1a of "c" + the n-gram is
 * folded one character at a time, emitting the 3-, 4- and 5-gram of each start from one pass. Same buckets, same
 * values; only the order of the entries differs (so a dot product can differ in its last bits).
 */
const C_SEED = Math.imul(0x811c9dc5 ^ 0x63, 0x01000193) >>> 0; // FNV-1a state after "c"
let counts32 = null;
export function featuriseFast(kind, value, opts) {
  const { text, flags } = normalise(value, opts);
  const mask = (1 << opts.bits) - 1;
  if (!counts32 || counts32.length !== mask + 1) counts32 = new Int32Array(mask + 1);
  const touched = [];
  const bump = (i) => {
    if (counts32[i]++ === 0) touched.push(i);
  };
  if (opts.chars) {
    const t = " " + text + " ";
    const [lo, hi] = opts.chars;
    for (let i = 0; i + lo <= t.length; i++) {
      let h = C_SEED;
      for (let n = 1; n <= hi && i + n <= t.length; n++) {
        h = Math.imul(h ^ t.charCodeAt(i + n - 1), 0x01000193);
        if (n >= lo) bump((h >>> 0) & mask);
      }
    }
  }
  const add = (s) => bump(hash(s) & mask);
  if (opts.words) {
    const w = text.match(/[\p{L}\p{N}_./~$-]+/gu) ?? [];
    for (let i = 0; i < w.length; i++) {
      add("w" + w[i]);
      if (opts.words >= 2 && i + 1 < w.length) add("b" + w[i] + " " + w[i + 1]);
    }
  }
  for (const f of flags) add(f);
  if (opts.kind) add("__kind:" + kind);
  const idx = Int32Array.from(touched);
  const val = new Float32Array(idx.length);
  let norm = 0;
  for (let j = 0; j < idx.length; j++) {
    val[j] = 1 + Math.log(counts32[idx[j]]);
    norm += val[j] * val[j];
    counts32[idx[j]] = 0;
  }
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < val.length; j++) val[j] /= norm;
  if (opts.kind) {
    const k = hash("__kind:" + kind) & mask;
    const j = idx.indexOf(k);
    if (j >= 0) val[j] = 1;
  }
  return { idx, val };
}

// ---------------------------------------------------------------------------------------------------------------
// Models

function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s >>> 13;
    return (s >>> 0) / 4294967296;
  };
}

/** Logistic regression, AdaGrad SGD with L2, classes weighted to balance. */
function trainLR(examples, opts) {
  const dim = 1 << opts.bits;
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  const pos = examples.filter((e) => e.y === 1).length;
  const neg = examples.length - pos;
  const cw = { 1: examples.length / (2 * pos), 0: examples.length / (2 * neg) };
  const rnd = seededRandom(opts.seed ?? 1);
  const order = examples.map((_, i) => i);
  const lr = opts.lr ?? 0.5;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const { x, y } = examples[i];
      let z = b;
      for (let j = 0; j < x.idx.length; j++) z += w[x.idx[j]] * x.val[j];
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - y) * cw[y];
      for (let j = 0; j < x.idx.length; j++) {
        const k = x.idx[j];
        const gk = g * x.val[j] + opts.l2 * w[k];
        g2[k] += gk * gk;
        w[k] -= (lr * gk) / Math.sqrt(g2[k]);
      }
      gb += g * g;
      b -= (lr * g) / Math.sqrt(gb);
    }
  }
  return { type: "lr", w, b };
}

/** Multinomial naive Bayes over the same (non-negative) features, log-count ratio as the score. */
function trainNB(examples, opts) {
  const dim = 1 << opts.bits;
  const a = opts.alpha ?? 0.1;
  const c1 = new Float64Array(dim).fill(a);
  const c0 = new Float64Array(dim).fill(a);
  let n1 = 0;
  for (const { x, y } of examples) {
    const c = y ? c1 : c0;
    if (y) n1++;
    for (let j = 0; j < x.idx.length; j++) c[x.idx[j]] += x.val[j];
  }
  let s1 = 0,
    s0 = 0;
  for (let k = 0; k < dim; k++) {
    s1 += c1[k];
    s0 += c0[k];
  }
  const w = new Float64Array(dim);
  for (let k = 0; k < dim; k++) w[k] = Math.log(c1[k] / s1) - Math.log(c0[k] / s0);
  return { type: "nb", w, b: Math.log(n1 / (examples.length - n1)) };
}

function scoreX(model, x) {
  let z = model.b;
  for (let j = 0; j < x.idx.length; j++) z += model.w[x.idx[j]] * x.val[j];
  return model.type === "lr" ? 1 / (1 + Math.exp(-z)) : z;
}

/** Keeps the `keep` largest weights by magnitude (the rest become 0): a smaller model to ship. */
function prune(model, keep) {
  if (!keep) return model;
  const nz = [];
  for (let k = 0; k < model.w.length; k++) if (model.w[k] !== 0) nz.push(Math.abs(model.w[k]));
  if (nz.length <= keep) return model;
  nz.sort((a, b) => b - a);
  const cut = nz[keep - 1];
  const w = model.w.map((x) => (Math.abs(x) >= cut ? x : 0));
  return { ...model, w };
}

const train = (examples, opts) => prune(opts.model === "nb" ? trainNB(examples, opts) : trainLR(examples, opts), opts.keep);

// ---------------------------------------------------------------------------------------------------------------
// Data

const TRAIN_SETS = ["blind", "blind2", "blind3", "blind4", "blind5"];
function trainingCases() {
  const cases = [];
  for (const s of TRAIN_SETS) cases.push(...loadBlindDir(fx(root, s), s));
  cases.push(...loadCorpus());
  return cases;
}

/** Examples of a case list under a featurisation: one per message, with the case's index. */
function examplesOf(cases, opts) {
  const ex = [];
  cases.forEach((c, ci) => {
    for (const m of c.messages) ex.push({ ci, kind: m.kind, x: featurise(m.kind, m.value, opts), y: c.label === "attack" ? 1 : 0 });
  });
  return ex;
}

/** Per case, the highest score of its messages. */
function caseScores(cases, examples, scores) {
  const s = new Float64Array(cases.length).fill(-Infinity);
  examples.forEach((e, i) => {
    if (scores[i] > s[e.ci]) s[e.ci] = scores[i];
  });
  return s;
}

/** The lowest threshold that flags at most `rate` of the benign cases (ties broken upwards). */
function thresholdFor(cases, cs, rate) {
  const benign = [];
  cases.forEach((c, i) => c.label === "benign" && benign.push(cs[i]));
  benign.sort((a, b) => b - a);
  const allowed = Math.floor(benign.length * rate);
  // flag when score > benign[allowed] (so at most `allowed` benign cases are at or above it)
  return benign[allowed] === undefined ? -Infinity : nextUp(benign[allowed]);
}
const nextUp = (x) => x + Math.max(1e-12, Math.abs(x) * 1e-9);

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
  return { overall: fin(all), perClass: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, fin(v)])) };
}

// ---------------------------------------------------------------------------------------------------------------
// Cross-validation: each blind set in turn is held out; the other four and the corpus train.

function crossValidate(cases, opts) {
  const ex = examplesOf(cases, opts);
  const oof = new Float64Array(ex.length).fill(NaN);
  for (const held of TRAIN_SETS) {
    const tr = ex.filter((e) => cases[e.ci].set !== held);
    const model = train(tr, opts);
    ex.forEach((e, i) => {
      if (cases[e.ci].set === held) oof[i] = scoreX(model, e.x);
    });
  }
  const blindIdx = cases.map((c, i) => (c.set === "corpus" ? -1 : i)).filter((i) => i >= 0);
  const bc = blindIdx.map((i) => cases[i]);
  const exB = ex.map((e, i) => ({ ...e, s: oof[i] })).filter((e) => cases[e.ci].set !== "corpus");
  const remap = new Map(blindIdx.map((ci, j) => [ci, j]));
  const cs = caseScores(bc, exB.map((e) => ({ ...e, ci: remap.get(e.ci) })), exB.map((e) => e.s));
  const res = {};
  for (const rate of [0.005, 0.01, 0.015, 0.02, 0.05]) {
    const th = thresholdFor(bc, cs, rate);
    res[rate] = { threshold: th, ...tally(bc, Array.from(cs, (s) => s >= th)) };
  }
  // per held-out set at the 1 % threshold, to see how steady it is
  const th = res[0.01].threshold;
  res.perSet = Object.fromEntries(TRAIN_SETS.map((s) => [s, tally(bc.filter((c) => c.set === s), Array.from(cs).filter((_, j) => bc[j].set === s).map((x) => x >= th)).overall]));
  // the selection criterion: mean recall over benign-flag rates 0.5, 1, 1.5 and 2 % (one threshold alone rests on
  // the 4th-highest benign score of 404, too noisy to choose by)
  res.criterion = r3([0.005, 0.01, 0.015, 0.02].reduce((a, k) => a + res[k].overall.recall, 0) / 4);
  return res;
}

const BASE = { bits: 18, chars: [3, 5], words: 2, kind: true, decode: true, digits: false, model: "lr", epochs: 8, l2: 1e-6, lr: 0.5, alpha: 0.1, seed: 1 };
const GRID = [
  {},
  { model: "nb" },
  { model: "nb", alpha: 0.02 },
  { bits: 16 },
  { bits: 20 },
  { chars: [2, 4] },
  { chars: [3, 6] },
  { chars: null },
  { words: 0 },
  { words: 1 },
  { kind: false },
  { decode: false },
  { digits: true },
  { l2: 1e-5 },
  { l2: 1e-7 },
  { epochs: 4 },
  { epochs: 16 },
  { lr: 0.2 },
  { bits: 20, lr: 0.2 },
  { bits: 20, chars: [2, 4] },
  { bits: 20, words: 1 },
  { bits: 20, epochs: 4 },
  { bits: 20, model: "nb" },
  { bits: 20, lr: 0.1 },
  { bits: 22, lr: 0.2 },
  { bits: 20, lr: 0.2, decode: false },
  { bits: 22, lr: 0.1 },
  { bits: 22, lr: 0.2, epochs: 4 },
  { bits: 22, lr: 0.2, words: 1 },
  { bits: 22, lr: 0.1, keep: 200_000 },
  { bits: 22, lr: 0.1, keep: 50_000 },
  { bits: 22, lr: 0.1, keep: 20_000 },
];

if (args.cv) {
  const cases = trainingCases();
  const c = (f) => cases.filter(f).length;
  console.log(`training cases: ${cases.length} (${c((x) => x.label === "attack")} attacks, ${c((x) => x.label === "benign")} benign); blind sets ${c((x) => x.set !== "corpus")}, corpus ${c((x) => x.set === "corpus")}; messages ${cases.reduce((n, x) => n + x.messages.length, 0)}`);
  const rows = [];
  for (const g of GRID) {
    const opts = { ...BASE, ...g };
    const t = performance.now();
    const r = crossValidate(cases, opts);
    const o = (rate) => `${r[rate].overall.caught}/${r[rate].overall.attacks} fp ${r[rate].overall.flagged}/${r[rate].overall.benign}`;
    console.log(`${JSON.stringify(g).padEnd(34)} crit ${r.criterion} @1% ${o(0.01)}  @2% ${o(0.02)}  @5% ${o(0.05)}  per set @1%: ${Object.entries(r.perSet).map(([s, x]) => `${s} ${x.caught}/${x.attacks} fp${x.flagged}`).join(", ")}  (${Math.round(performance.now() - t)} ms)`);
    rows.push({ setting: g, opts, cv: r });
  }
  writeFileSync(join(root, "bench", "results-classifier-cv.json"), JSON.stringify({ date: new Date().toISOString(), base: BASE, rows }, null, 2) + "\n");
}

// ---------------------------------------------------------------------------------------------------------------
// The frozen model: the chosen setting trained on all training data, weights quantised (1e-4) and delta-coded

function freeze(model, opts, threshold) {
  const idx = [];
  const val = [];
  let last = 0;
  for (let k = 0; k < model.w.length; k++) {
    const q = Math.round(model.w[k] * 1e4);
    if (q !== 0) {
      idx.push(k - last);
      val.push(q);
      last = k;
    }
  }
  return { format: "hashed-ngram-logreg/1", opts, bias: Math.round(model.b * 1e4) / 1e4, threshold, weights: { delta: idx, q1e4: val } };
}
function thaw(frozen) {
  const w = new Float64Array(1 << frozen.opts.bits);
  let k = 0;
  frozen.weights.delta.forEach((d, i) => {
    k += d;
    w[k] = frozen.weights.q1e4[i] / 1e4;
  });
  return { type: "lr", w, b: frozen.bias };
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** The model-eval texts as the message each would arrive in (as bench/model-eval.mjs builds them). */
function modelEvalMessage(c) {
  switch (c.where) {
    case "tool_description": return { kind: "tools/list", value: [{ name: "tool_" + c.id, description: c.text, inputSchema: { type: "object" } }] };
    case "server_instructions": return { kind: "initialize", value: { serverInfo: { name: "s", version: "1" }, instructions: c.text } };
    case "sampling": return { kind: "sampling", value: { systemPrompt: c.text, messages: [{ role: "user", content: { type: "text", text: "Go ahead." } }], maxTokens: 400 } };
    default: return { kind: "result", value: { content: [{ type: "text", text: c.text }] } };
  }
}

async function final() {
  const cv = JSON.parse(readFileSync(join(root, "bench", "results-classifier-cv.json"), "utf8"));
  // The rule fixed before training: the best CV criterion among settings whose model fits in 5 MB of JSON.
  const ranked = [...cv.rows].sort((a, b) => b.cv.criterion - a.cv.criterion);
  const cases = trainingCases();
  let chosen, frozen, trainMs, sizeBytes;
  const tried = [];
  for (const row of ranked) {
    const t0 = performance.now();
    const ex = examplesOf(cases, row.opts);
    const model = train(ex, row.opts);
    const ms = performance.now() - t0;
    const f = freeze(model, row.opts, row.cv["0.01"].threshold);
    const bytes = Buffer.byteLength(JSON.stringify(f));
    tried.push({ setting: row.setting, criterion: row.cv.criterion, jsonBytes: bytes });
    console.log(`candidate ${JSON.stringify(row.setting)} criterion ${row.cv.criterion}: model ${(bytes / 1048576).toFixed(2)} MB as JSON, trained in ${Math.round(ms)} ms`);
    if (bytes <= 5 * 1048576) {
      chosen = row;
      frozen = f;
      trainMs = ms;
      sizeBytes = bytes;
      break;
    }
  }
  const opts = chosen.opts;
  const model = thaw(frozen);
  const thresholds = { "1%": chosen.cv["0.01"].threshold, "2%": chosen.cv["0.02"].threshold, "5%": chosen.cv["0.05"].threshold };
  console.log(`chosen ${JSON.stringify(chosen.setting)}; thresholds from CV (benign-flag rate on the training blind sets): ${JSON.stringify(thresholds)}`);
  const scoreCase = (c) => Math.max(-Infinity, ...c.messages.map((m) => scoreX(model, featurise(m.kind, m.value, opts))));

  // ---- held-out 1: blind6, aggregates only ----
  const b6 = loadBlindDir(fx(root, "blind6"), "blind6");
  const rules6 = JSON.parse(readFileSync(args.rules6, "utf8")).results;
  const unmatched = b6.filter((c) => !rules6[c.id]).length;
  const rulesFlag = b6.map((c) => {
    const v = rules6[c.id]?.verdict;
    return c.label === "attack" ? ["blocked", "cut", "cut-partial"].includes(v) : v === "false-positive";
  });
  const s6 = b6.map(scoreCase);
  const blind6 = { cases: b6.length, unmatchedWithRules: unmatched, rulesCommit: JSON.parse(readFileSync(args.rules6, "utf8")).commit, rules: tally(b6, rulesFlag) };
  for (const [name, th] of Object.entries(thresholds)) {
    const m = s6.map((s) => s >= th);
    blind6[`model@${name}`] = tally(b6, m);
    blind6[`rulesOrModel@${name}`] = tally(b6, m.map((x, i) => x || rulesFlag[i]));
  }

  // ---- held-out 2: model-eval, aggregates only ----
  const { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } = await import("../dist/index.js");
  await detectorsReady();
  const { ruleSet } = loadRules(readRuleSources(join(root, "rules", "balanced.yaml")));
  const guardian = new EmbeddedGuardian(ruleSet);
  const me = [];
  for (const [file, label] of [["attacks.yaml", "attack"], ["benign.yaml", "benign"]])
    for (const c of parseYaml(readFileSync(fx(root, "model-eval", file), "utf8")).cases) me.push({ ...c, label, class: "prompt_injection", messages: [modelEvalMessage(c)] }); // one class: no breakdown by place (some places hold a single case)
  let sn = 0;
  const packFlag = me.map((c) => {
    // the default pack's enforced decision on the text arriving inbound, as bench/model-eval.mjs does it
    const mm = modelEvalMessage(c);
    let message, request;
    if (mm.kind === "tools/list") [request, message] = [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 1, result: { tools: mm.value } }];
    else if (mm.kind === "initialize")
      [request, message] = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } },
        { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, ...mm.value } },
      ];
    else if (mm.kind === "sampling") [request, message] = [undefined, { jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: mm.value }];
    else {
      const tool = { email: "read_email", web: "fetch", calendar: "list_events", issue: "get_issue", chat: "read_channel", search: "web_search" }[c.where] ?? "read_file";
      [request, message] = [{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: tool, arguments: { id: c.id } } }, { jsonrpc: "2.0", id: 7, result: mm.value }];
    }
    const ctx = { direction: "inbound", session: "s-eval-" + sn++, route: "eval", transport: "stdio" };
    if (request) ctx.request = request;
    const d = guardian.call(buildAosRequest("protocols/MCP", message, ctx)).result.decision;
    return d === "deny" || d === "modify";
  });
  const sme = me.map(scoreCase);
  const groupsOf = (cs, flags) => {
    const t = tally(cs, flags);
    const en = cs.map((c, i) => [c, i]).filter(([c]) => c.lang === "en");
    const other = cs.map((c, i) => [c, i]).filter(([c]) => c.lang !== "en");
    const q = cs.map((c, i) => [c, i]).filter(([c]) => c.quoted && c.label === "benign");
    return {
      ...t,
      english: tally(en.map(([c]) => c), en.map(([, i]) => flags[i])).overall,
      otherLanguages: tally(other.map(([c]) => c), other.map(([, i]) => flags[i])).overall,
      quotedBenignFlagged: `${q.filter(([, i]) => flags[i]).length}/${q.length}`,
    };
  };
  const modelEval = { cases: me.length, rules: groupsOf(me, packFlag) };
  for (const [name, th] of Object.entries(thresholds)) {
    const m = sme.map((s) => s >= th);
    modelEval[`model@${name}`] = groupsOf(me, m);
    modelEval[`rulesOrModel@${name}`] = groupsOf(me, m.map((x, i) => x || packFlag[i]));
  }

  // ---- cost: featurise + score one message, 1 KB texts built from the training messages ----
  const texts = cases.flatMap((c) => c.messages.map((m) => stringsOf(m.value).join("\n"))).filter((t) => t.length > 40);
  const KB = texts.map((t) => {
    let s = t;
    while (Buffer.byteLength(s) < 1024) s += "\n" + t;
    while (Buffer.byteLength(s) > 1024) s = s.slice(0, -1);
    return s;
  });
  // the fast featuriser must give the same decisions as the one the model was trained and judged with
  let maxDiff = 0;
  let flips = 0;
  for (const c of cases)
    for (const m of c.messages) {
      const a = scoreX(model, featurise(m.kind, m.value, opts));
      const b = scoreX(model, featuriseFast(m.kind, m.value, opts));
      maxDiff = Math.max(maxDiff, Math.abs(a - b));
      if (a >= frozen.threshold !== b >= frozen.threshold) flips++;
    }
  const timeIt = (f) => {
    const one = (t) => scoreX(model, f("result", { content: [{ type: "text", text: t }] }, opts));
    for (let i = 0; i < 1000; i++) one(KB[i % KB.length]);
    const xs = [];
    for (let i = 0; i < 5000; i++) {
      const t = performance.now();
      one(KB[i % KB.length]);
      xs.push((performance.now() - t) * 1000);
    }
    return xs;
  };
  const xsPlain = timeIt(featurise);
  const xs = timeIt(featuriseFast);
  const one = (t) => scoreX(model, featuriseFast("result", { content: [{ type: "text", text: t }] }, opts));
  const big = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(11000).slice(0, 1048576);
  const bigMs = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    one(big);
    bigMs.push(performance.now() - t);
  }
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const loaded = thaw(JSON.parse(JSON.stringify(frozen)));
  const loadHeapMB = Math.round(((process.memoryUsage().heapUsed - heap0) / 1048576) * 10) / 10;
  void loaded;
  const cost = {
    per1KB: { p50us: r3(pct(xs, 50)), p99us: r3(pct(xs, 99)), rounds: xs.length, warmup: 1000, featuriser: "featuriseFast" },
    per1KBPlainFeaturiser: { p50us: r3(pct(xsPlain, 50)), p99us: r3(pct(xsPlain, 99)) },
    fastVsPlain: { trainingMessages: cases.reduce((n, c) => n + c.messages.length, 0), maxScoreDiff: maxDiff, decisionFlips: flips },
    oneMB: { p50ms: r3(pct(bigMs, 50)), maxMs: r3(Math.max(...bigMs)), note: "the text is cut to its first 16 KB (MAX_TEXT) before featurising" },
    modelJsonBytes: sizeBytes,
    nonZeroWeights: frozen.weights.delta.length,
    weightArrayBytes: (1 << opts.bits) * 8,
    loadHeapMB,
    trainMs: Math.round(trainMs),
    trainingMessages: cases.reduce((n, c) => n + c.messages.length, 0),
  };

  const line = (name, t) => `${name.padEnd(18)} ${t.overall.caught}/${t.overall.attacks} (${t.overall.recall})  benign flagged ${t.overall.flagged}/${t.overall.benign} (${t.overall.fpRate})`;
  console.log(`\nblind6 (held out; ${b6.length} cases, ${unmatched} without a rules outcome):`);
  for (const [k, v] of Object.entries(blind6)) if (v && v.overall) console.log("  " + line(k, v));
  console.log(`  per class, rules → rules OR model@1% (attacks caught; benign flagged):`);
  for (const cl of Object.keys(blind6.rules.perClass).sort()) {
    const a = blind6.rules.perClass[cl], b = blind6["rulesOrModel@1%"].perClass[cl], m = blind6["model@1%"].perClass[cl];
    console.log(`    ${cl.padEnd(18)} rules ${a.caught}/${a.attacks} fp ${a.flagged}/${a.benign}   model ${m.caught}/${m.attacks} fp ${m.flagged}/${m.benign}   rules OR model ${b.caught}/${b.attacks} fp ${b.flagged}/${b.benign}`);
  }
  console.log(`\nmodel-eval (held out; ${me.length} texts):`);
  for (const [k, v] of Object.entries(modelEval)) if (v && v.overall) console.log("  " + line(k, v) + `  english ${v.english.caught}/${v.english.attacks}, other languages ${v.otherLanguages.caught}/${v.otherLanguages.attacks}, quoted benign flagged ${v.quotedBenignFlagged}`);
  console.log(`\ncost: ${JSON.stringify(cost)}`);

  const out = {
    date: new Date().toISOString(),
    node: process.version,
    experiment: "issue 24 item 9: a classifier trained on the project's own labelled cases, judged once on held-out sets (aggregates only)",
    training: { sets: [...TRAIN_SETS, "corpus"], cases: cases.length, attacks: cases.filter((c) => c.label === "attack").length, benign: cases.filter((c) => c.label === "benign").length },
    selection: { rule: "best mean OOF recall at 0.5/1/1.5/2 % benign flagged, leave-one-blind-set-out CV, among settings whose model is <= 5 MB as JSON", candidatesTried: tried, chosen: chosen.setting, cvOfChosen: chosen.cv },
    thresholds,
    heldOut: { blind6, modelEval },
    cost,
    model: frozen,
  };
  writeFileSync(args.out, JSON.stringify(out) + "\n");
  console.log(`wrote ${args.out}`);
}

if (args.final) await final();

// ---------------------------------------------------------------------------------------------------------------
// Leakage check, aggregates only: how close each held-out case's messages come to any training message (cosine of
// the chosen features without the kind token), and the frozen model's recall on the far and the near cases.
async function overlap() {
  const res = JSON.parse(readFileSync(args.out, "utf8"));
  const opts = { ...res.model.opts, kind: false };
  const model = thaw(res.model);
  const th = res.model.threshold;
  const cases = trainingCases();
  const vec = (m) => featurise(m.kind, m.value, opts);
  const dim = 1 << opts.bits;
  const scratch = new Float32Array(dim);
  const maxSim = (queries, pool) => {
    let best = 0;
    for (const q of queries) {
      for (let j = 0; j < q.idx.length; j++) scratch[q.idx[j]] = q.val[j];
      for (const t of pool) {
        let d = 0;
        for (let j = 0; j < t.idx.length; j++) d += scratch[t.idx[j]] * t.val[j];
        if (d > best) best = d;
      }
      for (let j = 0; j < q.idx.length; j++) scratch[q.idx[j]] = 0;
    }
    return best;
  };
  const BANDS = [0.95, 0.9, 0.8, 0.6];
  const report = (name, held, pool, rulesFlag) => {
    const sims = held.map((c) => maxSim(c.messages.map(vec), pool));
    const flag = held.map((c) => Math.max(...c.messages.map((m) => scoreX(model, featurise(m.kind, m.value, res.model.opts)))) >= th);
    const hist = Object.fromEntries(BANDS.map((b) => [`>=${b}`, sims.filter((s) => s >= b).length]));
    const split = (lo, hi) => {
      const ix = held.map((c, i) => i).filter((i) => sims[i] >= lo && sims[i] < hi);
      const a = ix.filter((i) => held[i].label === "attack");
      const b = ix.filter((i) => held[i].label === "benign");
      const o = { attacks: a.length, modelCaught: a.filter((i) => flag[i]).length, benign: b.length, modelFlagged: b.filter((i) => flag[i]).length };
      if (rulesFlag) {
        o.rulesCaught = a.filter((i) => rulesFlag[i]).length;
        o.addedByModel = a.filter((i) => flag[i] && !rulesFlag[i]).length;
      }
      return o;
    };
    const r = { cases: held.length, medianMaxCosine: r3(pct(sims, 50)), histogram: hist, below08: split(-1, 0.8), atOrAbove08: split(0.8, 2) };
    console.log(`${name}: ${JSON.stringify(r)}`);
    return r;
  };
  const out = {};
  // reference: blind5 against the rest of the training data (what the CV saw)
  const pool5 = cases.filter((c) => c.set !== "blind5").flatMap((c) => c.messages.map(vec));
  out.blind5VsRest = report("blind5 vs blind1-4 + corpus (reference, training data)", cases.filter((c) => c.set === "blind5"), pool5, null);
  const pool = cases.flatMap((c) => c.messages.map(vec));
  const b6 = loadBlindDir(fx(root, "blind6"), "blind6");
  const rules6 = JSON.parse(readFileSync(args.rules6, "utf8")).results;
  const rf = b6.map((c) => (c.label === "attack" ? ["blocked", "cut", "cut-partial"].includes(rules6[c.id]?.verdict) : rules6[c.id]?.verdict === "false-positive"));
  out.blind6 = report("blind6 (held out) vs all training", b6, pool, rf);
  const me = [];
  for (const [file, label] of [["attacks.yaml", "attack"], ["benign.yaml", "benign"]])
    for (const c of parseYaml(readFileSync(fx(root, "model-eval", file), "utf8")).cases) me.push({ label, class: "x", messages: [modelEvalMessage(c)] });
  out.modelEval = report("model-eval (held out) vs all training", me, pool, null);
  res.overlap = out;
  writeFileSync(args.out, JSON.stringify(res) + "\n");
}
if (args.overlap) await overlap();

// ---------------------------------------------------------------------------------------------------------------
// Which messages: the chosen setting's out-of-fold scores on the training blind sets, per message kind, at the frozen
// 1 % threshold (training data only; this is what says where the model belongs).
function kinds() {
  const res = JSON.parse(readFileSync(args.out, "utf8"));
  const opts = res.model.opts;
  const th = res.model.threshold;
  const cases = trainingCases();
  const ex = examplesOf(cases, opts);
  const oof = new Float64Array(ex.length);
  for (const held of TRAIN_SETS) {
    const model = train(ex.filter((e) => cases[e.ci].set !== held), opts);
    ex.forEach((e, i) => {
      if (cases[e.ci].set === held) oof[i] = scoreX(model, e.x);
    });
  }
  const per = {};
  ex.forEach((e, i) => {
    if (cases[e.ci].set === "corpus") return;
    const k = (per[e.kind] ??= { attackMessages: 0, caught: 0, benignMessages: 0, flagged: 0 });
    if (e.y) {
      k.attackMessages++;
      if (oof[i] >= th) k.caught++;
    } else {
      k.benignMessages++;
      if (oof[i] >= th) k.flagged++;
    }
  });
  for (const [k, v] of Object.entries(per).sort()) console.log(`${k.padEnd(26)} attack messages ${v.caught}/${v.attackMessages}   benign messages flagged ${v.flagged}/${v.benignMessages}`);
  res.cvByMessageKind = per;
  writeFileSync(args.out, JSON.stringify(res) + "\n");
}
if (args.kinds) kinds();

// ---------------------------------------------------------------------------------------------------------------
// Cost in one run, next to the default pack on the same 1 KB texts (built from training messages only): the parts
// of the model's work, and the pack, interleaved round by round so that load on the machine hits both alike.
async function cost() {
  const res = JSON.parse(readFileSync(args.out, "utf8"));
  const opts = res.model.opts;
  const model = thaw(res.model);
  const cases = trainingCases();
  const texts = cases.flatMap((c) => c.messages.map((m) => stringsOf(m.value).join("\n"))).filter((t) => t.length > 40);
  const KB = texts.map((t) => {
    let s = t;
    while (Buffer.byteLength(s) < 1024) s += "\n" + t;
    while (Buffer.byteLength(s) > 1024) s = s.slice(0, -1);
    return s;
  });
  const { buildAosRequest, detectorsReady, EmbeddedGuardian, loadRules, readRuleSources } = await import("../dist/index.js");
  await detectorsReady();
  const { ruleSet } = loadRules(readRuleSources(join(root, "rules", "balanced.yaml")));
  const guardian = new EmbeddedGuardian(ruleSet);
  const asValue = (t) => ({ content: [{ type: "text", text: t }] });
  const fns = {
    normaliseOnly: (t) => normalise(asValue(t), opts),
    model: (t) => scoreX(model, featuriseFast("result", asValue(t), opts)),
    defaultPack: (t) =>
      guardian.call(
        buildAosRequest("protocols/MCP", { jsonrpc: "2.0", id: 7, result: asValue(t) }, {
          direction: "inbound",
          session: "s-cost",
          route: "eval",
          transport: "stdio",
          request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fetch", arguments: {} } },
        }),
      ),
  };
  const xs = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let i = 0; i < 1000; i++) for (const f of Object.values(fns)) f(KB[i % KB.length]);
  for (let i = 0; i < 5000; i++)
    for (const [k, f] of Object.entries(fns)) {
      const t = performance.now();
      f(KB[i % KB.length]);
      xs[k].push((performance.now() - t) * 1000);
    }
  const c = Object.fromEntries(Object.entries(xs).map(([k, v]) => [k, { p50us: r3(pct(v, 50)), p99us: r3(pct(v, 99)) }]));
  c.ratioModelToPackP50 = r3(c.model.p50us / c.defaultPack.p50us);
  c.texts = KB.length;
  c.rounds = 5000;
  console.log(`cost per 1 KB, same run: ${JSON.stringify(c)}`);
  res.cost.sameRunWithDefaultPack = c;
  writeFileSync(args.out, JSON.stringify(res) + "\n");
}
if (args.cost) await cost();

// ---------------------------------------------------------------------------------------------------------------
// The stricter false-positive count on blind6: a benign case is flagged when ANY message of its exchange (its own and
// the ones its file's defaults give it) scores at or above the threshold. Same frozen model; aggregates only.
async function everyMessage() {
  const res = JSON.parse(readFileSync(args.out, "utf8"));
  const opts = res.model.opts;
  const model = thaw(res.model);
  const b6 = loadBlindDir(fx(root, "blind6"), "blind6", true);
  const rules6 = JSON.parse(readFileSync(args.rules6, "utf8")).results;
  const rf = b6.map((c) => (c.label === "attack" ? ["blocked", "cut", "cut-partial"].includes(rules6[c.id]?.verdict) : rules6[c.id]?.verdict === "false-positive"));
  const out = { messagesScored: b6.reduce((n, c) => n + c.messages.length, 0) };
  for (const [name, th] of Object.entries(res.thresholds)) {
    const m = b6.map((c) => Math.max(...c.messages.map((x) => scoreX(model, featuriseFast(x.kind, x.value, opts)))) >= th);
    out[`model@${name}`] = tally(b6, m);
    out[`rulesOrModel@${name}`] = tally(b6, m.map((x, i) => x || rf[i]));
    const o = (t) => `${t.overall.caught}/${t.overall.attacks}, benign flagged ${t.overall.flagged}/${t.overall.benign}`;
    console.log(`blind6, every message of a benign exchange scored, @${name}: model ${o(out[`model@${name}`])}; rules OR model ${o(out[`rulesOrModel@${name}`])}`);
  }
  res.heldOut.blind6EveryMessage = out;
  writeFileSync(args.out, JSON.stringify(res) + "\n");
}
if (args["every-message"]) await everyMessage();
