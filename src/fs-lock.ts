import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { GuardwireError } from "./errors.js";

/** Who takes a lock, and how to tell whether the process named in a lock still runs (given by the CLI). */
export interface LockOwner {
  pid: number;
  alive(pid: number): boolean;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up (default 5000 ms). */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its pid runs: that pid was reused, or its holder hangs (default 30 s). */
  staleMs?: number;
}

/**
 * Runs `work` while holding the advisory lock `path`, a file created with O_EXCL that names its holder (`<pid>
 * <token>`). Every process that writes the guarded file takes the lock first, so their read-change-write cycles never
 * overlap. A lock whose process is gone (killed mid-write) is taken over at once, any lock after `staleMs`; taking one
 * over is itself done under `<path>.break` and only removes the very lock that was judged stale, so two waiters
 * cannot both take it. A holder that keeps it past `timeoutMs` is an error (`FILE_LOCKED`) naming its pid and the file.
 * Only for processes of one machine (pids of another cannot be checked).
 */
export async function withFileLock<T>(path: string, owner: LockOwner, work: () => Promise<T>, o: LockOptions = {}): Promise<T> {
  const token = `${owner.pid} ${randomBytes(8).toString("hex")}\n`;
  await acquire(path, token, owner, o.timeoutMs ?? 5000, o.staleMs ?? 30_000);
  try {
    return await work();
  } finally {
    release(path, token);
  }
}

async function acquire(path: string, token: string, owner: LockOwner, timeoutMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    if (create(path, token)) return;
    const held = inspect(path);
    if (held === undefined) continue; // released meanwhile
    const dead = held.pid !== undefined && held.pid !== owner.pid && !owner.alive(held.pid);
    if ((dead || held.ageMs > staleMs) && breakStale(path, held.text, staleMs)) continue;
    if (Date.now() >= deadline) {
      const who = held.pid !== undefined ? `process ${held.pid}` : "another process";
      throw new GuardwireError("FILE_LOCKED", `${path} is held by ${who} for ${Math.round(held.ageMs)} ms; try again (delete ${path} if no guardwire runs)`);
    }
    // Jitter, so that waiters woken together do not collide again.
    await sleep(wait + Math.random() * wait);
  }
}

/** Creates the lock with O_EXCL; false when it exists. A reader may see it empty for an instant (then it is young). */
function create(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

function inspect(path: string): { text: string; pid: number | undefined; ageMs: number } | undefined {
  try {
    const text = readFileSync(path, "utf8");
    const ageMs = Date.now() - statSync(path).mtimeMs;
    const pid = Number.parseInt(text, 10);
    return { text, pid: Number.isInteger(pid) && pid > 0 ? pid : undefined, ageMs };
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock judged stale, if it is still that one (same holder and token); false when someone else is at it.
 * Done under `<path>.break`, held for a few system calls only, so no one removes a lock another waiter has just
 * created in place of the stale one.
 */
function breakStale(path: string, judged: string, staleMs: number): boolean {
  const breaker = `${path}.break`;
  if (!create(breaker, "")) {
    // Someone is breaking it now; a breaker left by a process that died in those few calls is itself stale.
    const b = inspect(breaker);
    if (b && b.ageMs > staleMs) unlinkQuietly(breaker);
    return false;
  }
  try {
    if (inspect(path)?.text === judged) unlinkQuietly(path);
  } finally {
    unlinkQuietly(breaker);
  }
  return true;
}

function release(path: string, token: string): void {
  if (inspect(path)?.text === token) unlinkQuietly(path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
