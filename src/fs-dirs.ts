import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * `mkdirSync(dir, { recursive: true })` without Node 20's endless loop on a path whose parent refuses a new entry with
 * ENOENT although it exists (`/proc/nope/x`: the process spun at 100 % CPU and never said why). The missing
 * directories are made one at a time from the deepest that exists, each without `recursive`, so such a path fails at
 * once with the error a plain mkdir gives. `mode` is each new directory's, as with `recursive`.
 */
export function makeDirs(dir: string, mode?: number): void {
  const missing: string[] = [];
  let d = resolve(dir);
  while (statSync(d, { throwIfNoEntry: false }) === undefined) {
    missing.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i] as string, mode === undefined ? undefined : { mode });
    } catch (e) {
      // Made meanwhile by someone else: fine, as with `recursive`.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}
