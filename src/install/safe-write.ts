import { createHash } from "node:crypto";
import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { makeDirs } from "../fs-dirs.js";

export const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/**
 * Copies `file` to `<dir>/<time>-<name>-<hash of its path>` before it is changed; returns the copy's path. The time
 * is the caller's (one run's backups share it).
 */
export function backup(file: string, dir: string, now: Date): string {
  makeDirs(dir, 0o700);
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const copy = join(dir, `${stamp}-${basename(file)}-${sha256(file).slice(0, 8)}`);
  copyFileSync(file, copy);
  return copy;
}
