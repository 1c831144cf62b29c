import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { GuardwireError } from "../errors.js";
import { makeDirs } from "../fs-dirs.js";

/** The process that holds a log, and how to tell whether another holder is still alive (given by the CLI). */
export interface LockOwner {
  pid: number;
  alive(pid: number): boolean;
}

export const lockPath = (logPath: string): string => `${logPath}.lock`;

/**
 * One writer per log file: `<log>.lock` names the pid that writes it. Two writers would each keep a chain of their
 * own in one file (duplicate seqs, a broken chain), and one's rotation would move the file under the other. A lock
 * whose process is gone (a crash) is stale and taken over. The lock is created whole (written aside, then linked into
 * place), so a reader never sees an empty one.
 */
export function acquireLock(logPath: string, owner: LockOwner): void {
  const path = lockPath(logPath);
  const mine = `${path}.${owner.pid}`;
  try {
    makeDirs(dirname(logPath));
    writeFileSync(mine, `${owner.pid}\n`);
  } catch {
    // The directory cannot be written: neither can the log, which reports that itself (and refuses traffic).
    return;
  }
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, path);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") return;
      }
      const holder = holderOf(path);
      if (holder !== undefined && holder !== owner.pid && owner.alive(holder)) {
        throw new GuardwireError(
          "LOG_UNWRITABLE",
          `the decision log ${logPath} is already written by process ${holder}: give each server its own --log file (\`guardwire tail -f\` follows several at once); if process ${holder} is not guardwire, delete ${path}`,
        );
      }
      try {
        unlinkSync(path);
      } catch {
        // someone else took the stale lock away first
      }
    }
    throw new GuardwireError("LOG_UNWRITABLE", `could not take the lock ${path} for the decision log ${logPath}`);
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // already gone
    }
  }
}

export function releaseLock(logPath: string, owner: LockOwner): void {
  const path = lockPath(logPath);
  if (holderOf(path) !== owner.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
