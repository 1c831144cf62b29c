// `node bench/faults/pins.mjs [--rounds N] [--wraps N] [--listings N]`: one pins file shared by several real
// `guardwire wrap` processes (dist/), each with a real MCP SDK client and server, pinning at the same moments.
// Each round: --wraps wraps (default 4), each of its own server (--name s0, s1, …), list their tools --listings times
// (default 6) all at once, a new tool appearing at each listing; one more wrap lists in a loop meanwhile and is killed
// with SIGKILL at a random moment (it may hold the pins lock, or be writing: the others must go on). Then every wrap is
// closed and the file is checked: it parses, every tool every surviving wrap listed is pinned under its server, and the
// lock is not left behind. Prints what it measured; exit 1 on any violation, 2 if the run hangs.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { watchdog } from "../lib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const server = join(root, "test", "fixtures", "servers", "mutable-server.mjs");

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
};
const P = { rounds: option("--rounds", 3), wraps: option("--wraps", 4), listings: option("--listings", 6) };
watchdog("faults/pins", 120 + P.rounds * (30 + P.wraps * P.listings), []);

const toolsOf = (n) => Array.from({ length: n }, (_, k) => ({ name: `t${k}`, description: `Tool number ${k}` }));

async function startWrap(dir, pins, name) {
  const toolsFile = join(dir, `${name}.tools.json`);
  writeFileSync(toolsFile, JSON.stringify(toolsOf(1)));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "wrap", "--name", name, "--pins", pins, "--log", join(dir, `${name}.ndjson`), "--", process.execPath, server],
    // The server reports the same name as the route: the pins land under it whichever name a guardwire keys them by.
    env: { ...process.env, MUTABLE_TOOLS: toolsFile, MUTABLE_NAME: name },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d.toString()));
  const client = new Client({ name: "faults-pins", version: "1" });
  const exited = new Promise((resolve) => (transport.onclose = resolve));
  await client.connect(transport);
  return { name, client, transport, toolsFile, exited, stderr: () => stderr };
}

const totals = { rounds: 0, wraps: 0, listings: 0, refused: 0, expected: 0, pinned: 0, lost: 0, killed: 0, killedListings: 0, saveRetries: 0, leftTemp: 0, ms: [] };
const violations = [];

for (let round = 1; round <= P.rounds; round++) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "gw-faults-pins-"));
  const pins = join(dir, "pins.json");
  const wraps = await Promise.all(Array.from({ length: P.wraps }, (_, i) => startWrap(dir, pins, `s${i}`)));
  const victim = await startWrap(dir, pins, "victim");
  // The victim pins in a loop until it is killed, at a random listing of the others.
  let stop = false;
  const victimLoop = (async () => {
    for (let k = 1; !stop; k++) {
      writeFileSync(victim.toolsFile, JSON.stringify(toolsOf(k)));
      try {
        await victim.client.listTools();
        totals.killedListings++;
      } catch {
        return;
      }
    }
  })();
  const killAt = Math.floor(Math.random() * P.listings);
  for (let k = 1; k <= P.listings; k++) {
    if (k - 1 === killAt) {
      // A few milliseconds into the next round of saves: the victim may be holding the lock or writing.
      setTimeout(() => {
        process.kill(victim.transport.pid, "SIGKILL");
        totals.killed++;
      }, Math.random() * 20);
    }
    await Promise.all(
      wraps.map(async (w) => {
        writeFileSync(w.toolsFile, JSON.stringify(toolsOf(k)));
        totals.listings++;
        try {
          const listed = await w.client.listTools();
          if (listed.tools.length !== k) violations.push(`round ${round}: ${w.name} listed ${listed.tools.length} tools, expected ${k}`);
        } catch (e) {
          totals.refused++;
          violations.push(`round ${round}: ${w.name}'s listing ${k} failed: ${e.message}`);
        }
      }),
    );
  }
  stop = true;
  await victimLoop;
  await Promise.all(wraps.map((w) => w.client.close()));
  await Promise.all(wraps.map((w) => w.exited));
  await victim.client.close().catch(() => {});

  let saved;
  try {
    saved = JSON.parse(readFileSync(pins, "utf8")).servers;
  } catch (e) {
    violations.push(`round ${round}: the pins file does not parse: ${e.message}`);
    saved = {};
  }
  for (const w of wraps) {
    const expected = toolsOf(P.listings).map((t) => t.name);
    const have = Object.keys(saved[w.name] ?? {});
    const lost = expected.filter((t) => !have.includes(t));
    totals.expected += expected.length;
    totals.pinned += expected.length - lost.length;
    totals.lost += lost.length;
    if (lost.length > 0) violations.push(`round ${round}: ${w.name} lost ${lost.join(", ")}${w.stderr() ? ` (stderr: ${w.stderr().trim().slice(-300)})` : ""}`);
    totals.saveRetries += (w.stderr().match(/could not be saved/g) ?? []).length;
    if (/corrupt/.test(w.stderr())) violations.push(`round ${round}: ${w.name}: ${w.stderr().trim()}`);
  }
  if (existsSync(`${pins}.lock`)) violations.push(`round ${round}: the lock ${pins}.lock was left behind`);
  // Temporary files of the killed wrap (killed mid-write) are left; they are never read.
  totals.leftTemp += readdirSync(dir).filter((f) => f.startsWith(".pins.json.guardwire-")).length;
  totals.rounds++;
  totals.wraps += P.wraps + 1;
  totals.ms.push(Date.now() - started);
  if (violations.length === 0) rmSync(dir, { recursive: true, force: true });
  else console.error(`round ${round}: files kept in ${dir}`);
}

const ms = totals.ms.sort((a, b) => a - b);
console.log(`faults/pins: ${totals.rounds} rounds, ${P.wraps} wraps pinning at once on one pins file + 1 killed with SIGKILL per round`);
console.log(`  listings through the surviving wraps: ${totals.listings} (each adding a tool), ${totals.refused} failed; through the killed ones before the kill: ${totals.killedListings}`);
console.log(`  pins expected: ${totals.expected}, found: ${totals.pinned}, lost: ${totals.lost}`);
console.log(`  saves retried after a lock wait or write failure (said on stderr): ${totals.saveRetries}; temporary files left by killed wraps: ${totals.leftTemp}`);
console.log(`  round time: median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms.at(-1)} ms`);
if (violations.length > 0) {
  console.log(`VIOLATIONS (${violations.length}):`);
  for (const v of violations) console.log(`  ${v}`);
  process.exit(1);
}
console.log("ok: every pin of every surviving wrap is in the file");
process.exit(0);
