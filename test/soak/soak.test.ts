import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers.js";

const run = promisify(execFile);

interface Growth {
  afterWarmup: number;
  last: number;
  growth: number;
  tolerance: number;
  flat: boolean;
}
interface Kind {
  sent: number;
  answered: number;
  denied: number;
  abandoned: number;
  errors: number;
  errorSamples?: Record<string, number>;
}
interface Soak {
  ok: boolean;
  failures: string[];
  logs: string | null;
  traffic: Kind & { unanswered: number };
  kinds: Record<string, Kind>;
  processes: Record<string, { guardwire: boolean; rssMb: Growth; fds: Growth }>;
}

// The same script as `npm run soak`, for two minutes (a sample each minute, the first minute a warm-up) against the
// built dist/: real `guardwire wrap` and `guardwire serve` processes, real servers, an A2A agent, real SDK clients.
// Abandoned sessions expire after 15 s idle here (60 s in `npm run soak`), so that the number of live sessions, and
// the memory they hold, has levelled off by the end of the warm-up minute.
describe("soak (bench/soak.mjs --minutes 2)", () => {
  it("keeps RSS and descriptors flat after warm-up, answers every request, and has no unexpected error", { timeout: 420_000 }, async () => {
    const out = join(tempDir("guardwire-soak-test-"), "results.json");
    // Exit code 1 means a check failed; the JSON says which, and the assertions below name it.
    await run(process.execPath, [join(ROOT, "bench", "soak.mjs"), "--minutes", "2", "--idle", "15", "--out", out, "--no-faults"], { maxBuffer: 16 * 1024 * 1024 }).catch((e: { code?: number }) => {
      if (e.code !== 1) throw e;
    });
    const soak = JSON.parse(readFileSync(out, "utf8")) as Soak;

    const errored = Object.entries(soak.kinds).filter(([, c]) => c.errors > 0).map(([kind, c]) => ({ kind, samples: c.errorSamples }));
    expect(soak.traffic.errors, JSON.stringify({ failures: soak.failures, errored, logs: soak.logs })).toBe(0);
    expect(soak.traffic.unanswered).toBe(0);
    expect(soak.traffic.sent).toBe(soak.traffic.answered + soak.traffic.denied + soak.traffic.abandoned);
    // Every kind of traffic really ran, with the outcome its rule gives.
    for (const [kind, c] of Object.entries(soak.kinds)) expect(c.sent, kind).toBeGreaterThan(0);
    for (const kind of ["wrap get-sum-denied", "serve get-sum-denied", "wrap sampling-denied", "serve sampling-denied", "a2a stream-denied"]) {
      expect(soak.kinds[kind]?.denied, kind).toBe(soak.kinds[kind]?.sent);
    }
    for (const kind of ["wrap echo-rewritten", "serve echo-rewritten", "wrap sampling", "serve sampling", "wrap echo-1MiB", "serve session-closed", "serve session-abandoned", "a2a stream-rewritten", "a2a stream-1MiB", "wrap start-call-stop"]) {
      expect(soak.kinds[kind]?.answered, kind).toBe(soak.kinds[kind]?.sent);
    }

    // Flat: RSS within max(25 MB, 20 %) and descriptors within max(10, 25 %) of the sample after warm-up.
    for (const name of ["serve", "wrap"]) {
      const p = soak.processes[name];
      expect(p?.guardwire).toBe(true);
      expect(p?.rssMb.growth, `${name} RSS ${p?.rssMb.afterWarmup} → ${p?.rssMb.last} MB`).toBeLessThanOrEqual(p?.rssMb.tolerance ?? 0);
      expect(p?.fds.growth, `${name} fds ${p?.fds.afterWarmup} → ${p?.fds.last}`).toBeLessThanOrEqual(p?.fds.tolerance ?? 0);
    }
    expect(soak.failures).toEqual([]);
    expect(soak.ok).toBe(true);
  });
});
