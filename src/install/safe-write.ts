import { createHash, randomBytes } from "node:crypto";
import { closeSync, copyFileSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
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
 * Replaces `file` with `text` atomically: a temporary file in the same directory, written, fsynced, given the
 * original's mode, then renamed over it. A reader sees the old file or the new one, never half of one. A symlink
 * (a dotfiles repository) stays a symlink: its target is the file replaced.
 */
export function atomicWrite(link: string, text: string | Buffer): void {
  const file = realpathSync(link);
  const mode = statSync(file).mode & 0o7777;
  const tmp = join(dirname(file), `.${basename(file)}.guardwire-${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    fchmodSync(fd, mode); // exactly the original's, whatever the umask
    writeSync(fd, typeof text === "string" ? Buffer.from(text) : text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}
