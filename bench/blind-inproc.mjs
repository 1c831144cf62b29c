// A quick look at the OPEN blind sets in process (not the measure: bench/blind.mjs through wrap / serve is):
// `node bench/blind-inproc.mjs [--sets blind57,blind63] [--class name] [--pack balanced] [--list]` plays each case's
// messages in one session with the embedded guardian, as bench/decisions-compare.mjs does, and counts an attack as
// caught when any of its target messages is not allowed unchanged (denied, held, or rewritten), and a benign case as
// changed when any of its messages is. Prints counts per class; --list adds the ids of missed attacks and changed
// benign cases. Sets numbered 85 or above are blind and never read (bench/blind-cases.mjs openBlindSets).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { judgeStep, openBlindCases } from "./blind-cases.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const sets = option("--sets")?.split(",") ?? null;
const onlyClass = option("--class");
const pack = option("--pack") ?? "balanced";
const list = process.argv.includes("--list");

const M = await import(join(root, "dist", "index.js"));
await M.detectorsReady(); // the shell grammar, as every command waits for it (until then lines go to the tokenizer)
const file = join(root, "rules", `${pack}.yaml`);
if (!existsSync(file)) throw new Error(`${file}: no such pack`);
const { ruleSet, problems } = M.loadRules(M.readRuleSources(file));
if (!ruleSet) throw new Error(`${file}: ${JSON.stringify(problems)}`);
const guardian = new M.EmbeddedGuardian(ruleSet, { now: () => new Date("2026-11-28T12:00:00Z") });

/** Which of a case's steps its `target` names (the blind schema's target words). */
function isTarget(c, step) {
  const targets = [c.target ?? []].flat();
  const m = step.message;
  const method = step.request?.method ?? m.method;
  for (const t of targets) {
    if (t === "call" && step.direction === "outbound" && m.method !== "sampling/createMessage") return true;
    if (t === "send" && step.direction === "outbound") return true;
    if (t === "sampling" && m.method === "sampling/createMessage") return true;
    if (t === "result" && step.direction === "inbound" && step.request && !["initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list"].includes(method)) return true;
    if (t === "reply" && step.direction === "inbound" && method?.startsWith("message/")) return true;
    if (t === "card" && method === "agent/card") return true;
    if (t === method) return true;
  }
  return false;
}

const tally = {};
const missed = [];
const changed = [];
let n = 0;
openBlindCases(join(root, "test", "fixtures"), sets).forEach((bc, ci) => {
  const c = bc.case;
  if (onlyClass && c.class !== onlyClass) return;
  n++;
  let hit = false;
  let why = "";
  for (const s of bc.steps) {
    // pins are kept per route: a list another case showed is not a rug pull
    const res = judgeStep(M, guardian, s, `case-${ci}`, `case-${ci}`);
    const decision = res.result?.decision ?? "error";
    if (decision !== "allow" && (c.label === "benign" || isTarget(c, s))) {
      hit = true;
      why ||= `${s.request?.method ?? s.message.method}: ${decision} ${res.result?.message ?? ""}`.slice(0, 160);
    }
  }
  const t = (tally[c.class] ??= { attacks: 0, caught: 0, benign: 0, changed: 0 });
  if (c.label === "attack") {
    t.attacks++;
    if (hit) t.caught++;
    else missed.push(bc.name);
  } else {
    t.benign++;
    if (hit) {
      t.changed++;
      changed.push(`${bc.name} (${why})`);
    }
  }
});

let A = 0, C = 0, B = 0, F = 0;
for (const [k, t] of Object.entries(tally)) {
  console.log(`${k}: ${t.caught}/${t.attacks} caught, ${t.changed}/${t.benign} benign changed`);
  A += t.attacks; C += t.caught; B += t.benign; F += t.changed;
}
console.log(`blind-inproc [${pack}]: ${n} cases, ${C}/${A} attacks caught (${(C / Math.max(A, 1)).toFixed(3)}), ${F}/${B} benign changed`);
if (list) {
  for (const m of missed) console.log(`MISSED ${m}`);
  for (const m of changed) console.log(`CHANGED ${m}`);
}
