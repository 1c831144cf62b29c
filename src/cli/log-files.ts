import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Decision log paths as given on the command line: a directory stands for the logs in it (`*.ndjson` and their
 * rotated `*.ndjson.N`), a file for itself. Missing paths are kept, so the caller reports them.
 */
export function expandLogPaths(paths: string[]): string[] {
  return paths.flatMap((p) => {
    let dir = false;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      return [p];
    }
    if (!dir) return [p];
    return readdirSync(p)
      .filter((f) => /\.ndjson(\.\d+)?$/.test(f))
      .sort()
      .map((f) => join(p, f));
  });
}

/**
 * The chains among these files: a log and its rotated files (`log.2`, `log.1`, `log`) are one chain, oldest first;
 * different logs (one per server, one per replica) are different chains, in name order.
 */
export function chainsOf(files: string[]): string[][] {
  const chains = new Map<string, { file: string; age: number }[]>();
  for (const file of new Set(files)) {
    const m = /^(.*)\.(\d+)$/.exec(file);
    const base = m ? (m[1] as string) : file;
    const list = chains.get(base) ?? [];
    list.push({ file, age: m ? Number(m[2]) : 0 });
    chains.set(base, list);
  }
  return [...chains.keys()].sort().map((base) => (chains.get(base) ?? []).sort((a, b) => b.age - a.age).map((x) => x.file));
}

/**
 * What `guardwire tail` reads when given no file: the logs `wrap` and `serve` write by default in the working folder
 * (`guardwire-decisions.ndjson`, and `guardwire-decisions.<server>.ndjson`, one per wrapped server), merged by time;
 * the single default name when there is none yet (so `tail -f` waits for it).
 */
export function defaultLogs(dir = "."): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((f) => /^guardwire-decisions(\.[A-Za-z0-9_][A-Za-z0-9._-]*)?\.ndjson$/.test(f));
  } catch {
    // an unreadable folder: the default name, reported as missing by the caller
  }
  return names.length > 0 ? names.sort().map((f) => join(dir, f)) : [join(dir, "guardwire-decisions.ndjson")];
}
