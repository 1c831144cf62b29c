// Loaded into the process under test by bench/sessions.mjs: `node --expose-gc --import ./bench/mem-probe.mjs …`.
// On SIGUSR2 it reads the request in $MEM_PROBE.req — `<n> measure`, or `<n> snapshot <file>` — collects garbage (twice, so
// that weak references and finalizers settle) and writes its answer to $MEM_PROBE as one JSON line: memory after the
// collection, and the number of open descriptors. `snapshot` also writes a heap snapshot to <file> (node:v8).
import { readFileSync, readdirSync, writeFileSync, renameSync } from "node:fs";
import { writeHeapSnapshot } from "node:v8";

const out = process.env.MEM_PROBE;
if (!out || typeof globalThis.gc !== "function") throw new Error("mem-probe.mjs needs MEM_PROBE=<file> and node --expose-gc");
process.on("SIGUSR2", () => {
  const req = readFileSync(out + ".req", "utf8").trim();
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  const answer = { id: req, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, fds: readdirSync("/proc/self/fd").length };
  const [, what, file] = req.split(" ");
  if (what === "snapshot") writeHeapSnapshot(file);
  writeFileSync(out + ".tmp", JSON.stringify(answer) + "\n");
  renameSync(out + ".tmp", out);
});
