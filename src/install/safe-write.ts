import { createHash } from "node:crypto";
import { copyFileSync, realpathSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { writeFileAtomicSync } from "../fs-atomic.js";
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

/**
 * Replaces `file` with `text` atomically and durably (src/fs-atomic.ts), with the original's mode. A reader sees the
 * old file or the new one, never half of one. A symlink (a dotfiles repository) stays a symlink: its target is the
 * file replaced.
 */
export function atomicWrite(link: string, text: string | Buffer): void {
  const file = realpathSync(link);
  writeFileAtomicSync(file, text, { mode: statSync(file).mode & 0o7777 });
}
