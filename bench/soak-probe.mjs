// Preloaded into a process under soak (`node --import bench/soak-probe.mjs …`) to measure what guardwire does not
// expose: every SOAK_PROBE_MS (default 5,000) it appends one JSON line to SOAK_PROBE_DIR/<pid>.ndjson with the V8 heap
// (after a full GC when started with --expose-gc) and the event-loop delay of that interval (perf_hooks.monitorEventLoopDelay, reset after each line).
// Nothing here touches the process's own behaviour; the timer is unref'd so it never keeps the process alive.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.SOAK_PROBE_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.ndjson`);
  const every = Number(process.env.SOAK_PROBE_MS ?? 5000);
  // The histogram records whole timer intervals (resolution + delay); the delay is what lies beyond the resolution.
  const resolution = 10;
  const h = monitorEventLoopDelay({ resolution });
  h.enable();
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4 - resolution * 100) / 100);
  setInterval(() => {
    // Started with --expose-gc by the soak: a full collection first, so the figures are what is retained (a leak),
    // not garbage that a busy young process has not collected yet.
    globalThis.gc?.();
    const m = process.memoryUsage();
    const line = { t: Date.now(), elMeanMs: ms(h.mean), elP99Ms: ms(h.percentile(99)), elMaxMs: ms(h.max), heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
    h.reset();
    try {
      appendFileSync(file, JSON.stringify(line) + "\n");
    } catch {
      // the soak's directory is gone: it has ended
    }
  }, every).unref();
}
