import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Where guardwire's own files are (package.json, rules/, dist/console/, dist/packs/, the command line's entry): found
 * from this module's place by walking up to guardwire's package.json, so the answer is the same from src/, dist/ and
 * the command line's bundle (dist/cli/chunks/), whose files sit at different depths.
 */
function findRoot(): { root: string; version: string } {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "guardwire") return { root: dir, version: pkg.version ?? "0.0.0" };
    }
    if (dirname(dir) === dir) throw new Error(`guardwire's package.json was not found above ${start} (reinstall guardwire)`);
  }
}

const found = findRoot();

/** The package's folder (where package.json is). */
export const PACKAGE_ROOT = found.root;
/** The package's version, as in its package.json. */
export const PACKAGE_VERSION = found.version;
/** A file or folder of the package, by its path from the package's folder: `packageFile("rules")`. */
export const packageFile = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
