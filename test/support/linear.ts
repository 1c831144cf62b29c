import { expect } from "vitest";
import { cpuMs } from "./cpu.js";

/**
 * A detector's cost grows with its input, not faster: for each adversarial piece, `run` on the piece repeated to
 * ~400 KB costs at most `bound` times what it costs on ~20 KB (20 times shorter). The best of three runs each, since
 * the machine is shared; the short one is run once first so both are timed warm.
 */
export function expectLinear(pieces: readonly string[], run: (v: string) => unknown, bound = 200): void {
  const time = (v: string) =>
    Math.min(
      ...[0, 1, 2].map(() => {
        const t = cpuMs();
        run(v);
        return cpuMs() - t;
      }),
    );
  for (const p of pieces) {
    const small = p.repeat(Math.ceil(20_000 / p.length));
    const big = p.repeat(Math.ceil(400_000 / p.length));
    expect(() => run(big)).not.toThrow();
    time(small);
    const ratio = time(big) / Math.max(time(small), 1);
    expect(ratio, JSON.stringify(p)).toBeLessThan(bound);
  }
}
