// `node bench/faults.mjs [--minutes M] [--only a,b]` (after a build): the fault runs, bench/faults/*.mjs, one round of
// each, again and again until M minutes have passed (default: one pass). Each script injects its faults into real
// processes (kill -9 of wrap and serve, a machine crash of the log's disk, Redis restarted empty or frozen, wraps
// racing on one pins file, a cluster's sessions deleted across replicas) and checks what must hold; it prints what it
// measured and exits non-zero on a violation. `npm run soak` runs this after its steady traffic. Exit 1 if any run
// failed.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "faults");
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const minutes = Number(option("--minutes", 0));
const only = option("--only", "")
  .split(",")
  .filter(Boolean);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && (only.length === 0 || only.includes(f.replace(/\.mjs$/, ""))))
  .sort();
if (scripts.length === 0 || !(minutes >= 0)) {
  console.error(`usage: node bench/faults.mjs [--minutes M] [--only ${readdirSync(here).map((f) => f.replace(/\.mjs$/, "")).join(",")}]`);
  process.exit(2);
}

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, script), "--rounds", "1"], { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });

const until = Date.now() + minutes * 60_000;
const failed = [];
let pass = 0;
do {
  pass++;
  for (const script of scripts) {
    console.log(`\n== faults pass ${pass}: ${script}`);
    const code = await run(script);
    if (code !== 0) failed.push(`pass ${pass}, ${script}: exit ${code}`);
  }
} while (Date.now() < until);
console.log(failed.length ? `\nFAULTS FAILED:\n  ${failed.join("\n  ")}` : `\nfaults ok: ${pass} pass(es) of ${scripts.join(", ")}, no violation`);
process.exit(failed.length ? 1 : 0);
