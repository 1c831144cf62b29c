import { existsSync, openSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import { syncDirSync } from "../fs-atomic.js";
import { makeDirs } from "../fs-dirs.js";

/**
 * Opens the log for appending, making its folder if needed; throws what the open met (ENOTDIR, EACCES…). A file it
 * creates has its name made durable at once (an fsync of its folder), so a crash never leaves a head — written after
 * an fsync of the log — beside no log at all.
 */
export function openLogFile(path: string): number {
  try {
    makeDirs(dirname(path));
  } catch {
    // opening says why more plainly (ENOTDIR, EACCES)
  }
  const created = !existsSync(path);
  const fd = openSync(path, "a");
  if (created) syncNewName(dirname(path));
  return fd;
}

/** Moves `log` → `log.1` → `log.2` … keeping `keep` rotated files; throws when a rename fails. */
export function shiftRotated(path: string, keep: number): void {
  for (let i = keep - 1; i >= 1; i--) {
    if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  }
  renameSync(path, `${path}.1`);
}

/** Best effort: a directory this process may write in but not open (no read permission) keeps the log working. */
function syncNewName(dir: string): void {
  try {
    syncDirSync(dir);
  } catch {
    // the name becomes durable at the filesystem's next commit
  }
}
