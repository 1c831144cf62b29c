// Preloaded into a process under soak (`node --require bench/soak-probe.cjs …`) to measure what guardwire does not
// expose: every SOAK_PROBE_MS (default 5,000) it appends one JSON line to SOAK_PROBE_DIR/<pid>.ndjson with the V8 heap
// and the event-loop delay of that interval (perf_hooks.monitorEventLoopDelay, reset after each line).
// Nothing here touches the process's own behaviour; the timer is unref'd so it never keeps the process alive.
"use strict";
const { appendFileSync } = require("node:fs");
const { join } = require("node:path");
const { monitorEventLoopDelay } = require("node:perf_hooks");

const dir = process.env.SOAK_PROBE_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.ndjson`);
  const every = Number(process.env.SOAK_PROBE_MS ?? 5000);
  // The histogram records whole timer intervals (resolution + delay); the delay is what lies beyond the resolution.
  const resolution = 10;
  const h = monitorEventLoopDelay({ resolution });
  h.enable();
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4) / 100 - resolution);
  setInterval(() => {
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
