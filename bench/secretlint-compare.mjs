// How guardwire's secret formats (src/guardian/detectors/secrets.ts) compare with secretlint's recommended preset, on
// the same inputs: recall on the fake credentials of bench/secret-samples.mjs, findings on ordinary text (this
// repository's docs and sources, and the READMEs and type definitions of the installed packages: none holds a real
// secret, so every finding there is a false positive), and time per KB. The figures in docs/dependencies.md come from
// this script. secretlint is not a dependency: install it anywhere and point at it.
//
//   mkdir -p /tmp/sl && cd /tmp/sl && npm install @secretlint/core@13.0.7 @secretlint/secretlint-rule-preset-recommend@13.0.7
//   npm run build && node bench/secretlint-compare.mjs --secretlint /tmp/sl/node_modules
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { secretSamples } from "./secret-samples.mjs";
import { detectSecrets } from "../dist/guardian/detectors/secrets.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--secretlint");
if (at < 0) {
  console.error("usage: node bench/secretlint-compare.mjs --secretlint <node_modules holding @secretlint/core and the preset>");
  process.exit(2);
}
const nm = process.argv[at + 1];
const { lintSource } = await import(pathToFileURL(join(nm, "@secretlint/core/module/index.js")).href);
const { creator: preset } = await import(pathToFileURL(join(nm, "@secretlint/secretlint-rule-preset-recommend/module/index.js")).href);
const config = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset }] };
const secretlint = async (text) => {
  const r = await lintSource({ source: { content: text, filePath: "/input.txt", contentType: "text" }, options: { config } });
  return r.messages.map((m) => ({ type: m.ruleId + ":" + m.messageId, start: m.range[0], end: m.range[1] }));
};
const ours = (text) => detectSecrets([{ path: [], value: text }]);

// Ordinary text: files under 256 KB, markdown, TypeScript and type definitions.
function files(dir, exts, out = [], depth = 0) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === ".git" || e.name === "blind" || depth > 6) continue;
      files(p, exts, out, depth + 1);
    } else if (exts.some((x) => e.name.endsWith(x)) && statSync(p).size < 262_144) out.push(p);
  }
  return out;
}
const ordinary = [
  ...files(join(root, "docs"), [".md"]),
  ...files(join(root, "src"), [".ts"]),
  ...files(join(root, "node_modules"), ["README.md", ".d.ts"]).slice(0, 3000),
];
const texts = ordinary.map((p) => readFileSync(p, "utf8"));
const kb = texts.reduce((n, t) => n + t.length, 0) / 1024;

async function measure(name, detect) {
  const { secrets, benign } = secretSamples();
  let caught = 0;
  const missed = [];
  for (const s of secrets) {
    const found = await detect(s.text);
    // Found: a finding that covers the secret (secretlint reports some findings as the whole line or file).
    const at = s.text.lastIndexOf(s.secret);
    if (found.some((d) => d.start <= at && d.end >= at + s.secret.length)) caught++;
    else missed.push(s.name);
  }
  const lookalikes = [];
  for (const b of benign) if ((await detect(b.text)).length > 0) lookalikes.push(b.name);
  let fp = 0;
  const fpFiles = [];
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i++) {
    const n = (await detect(texts[i])).length;
    if (n > 0) {
      fp += n;
      fpFiles.push(ordinary[i].replace(root + "/", ""));
    }
  }
  const ms = performance.now() - t0;
  return { name, recall: `${caught}/${secrets.length}`, missed, lookalikesFlagged: `${lookalikes.length}/${benign.length}`, lookalikes, ordinaryKB: Math.round(kb), falsePositives: fp, fpFiles: fpFiles.slice(0, 20), usPerKB: +((ms * 1000) / kb).toFixed(1) };
}

const du = (p) => execFileSync("du", ["-sk", p]).toString().split("\t")[0];
for (const r of [await measure("secretlint preset-recommend 13.0.7", secretlint), await measure("guardwire secrets.ts", async (t) => ours(t))]) console.log(JSON.stringify(r, null, 2));
console.log(`secretlint install: ${du(join(nm, "@secretlint"))} KB in @secretlint, ${readdirSync(nm).filter((d) => !d.startsWith(".")).length} top-level packages; node engines ${JSON.parse(readFileSync(join(nm, "@secretlint/core/package.json"), "utf8")).engines.node}`);
