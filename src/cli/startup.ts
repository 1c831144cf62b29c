import { resolve } from "node:path";
import type { Server } from "node:http";
import { DecisionLog, type DecisionLogOptions } from "../decision-log/writer.js";
import { GuardwireError } from "../errors.js";

export { wholeNumber } from "./options.js";

/*
 * What a command opens before traffic arrives — its numeric options, its decision log, its listening socket — each
 * failure as one line that says what failed and how to fix it, never a stack trace.
 */

const ERRNO: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "read-only file system",
  EISDIR: "it is a directory",
  ENOTDIR: "a parent is not a directory",
  ENOENT: "no such file or directory",
  ENOSPC: "no space left on the device",
  EADDRINUSE: "the address is already in use",
  EADDRNOTAVAIL: "the address is not one of this machine's",
  ENOTFOUND: "the host name does not resolve",
};

/** `permission denied (EACCES)`: the reason in words, the code for searching. */
export function describeErrno(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (!code) return (e as Error).message;
  return ERRNO[code] ? `${ERRNO[code]} (${code})` : code;
}

/**
 * Opens the decision log as `wrap`, `serve` and `guardian` do: held by this process (`<log>.lock`, so a second
 * guardwire on the same file is refused), problems reported on stderr. A log that cannot be written at start is a
 * one-line refusal naming the file and `fix` (`--log`, or the config's `log:`); one that fails later refuses traffic
 * until it can be written again (docs/decision-log.md).
 */
export function openDecisionLog(o: Omit<DecisionLogOptions, "lock" | "onProblem">, fix: string): DecisionLog {
  let starting = true;
  const onProblem = (text: string) => void (starting || process.stderr.write(text + "\n"));
  let log: DecisionLog;
  try {
    log = DecisionLog.open({ ...o, onProblem, lock: { pid: process.pid, alive } });
  } catch (e) {
    if (e instanceof GuardwireError) throw e;
    throw new GuardwireError("LOG_UNWRITABLE", `cannot write the decision log ${o.dest}: ${describeErrno(e)}; ${fix}`, { cause: e });
  }
  if (log.failure) {
    const e = log.error;
    void log.close();
    throw new GuardwireError("LOG_UNWRITABLE", `cannot write the decision log ${o.dest}: ${describeErrno(e)}; ${fix}`, { cause: e });
  }
  starting = false;
  return log;
}

/** The log as the admin API reports on it: its file (none when it goes to stderr). */
export function logView(dest: string, log: DecisionLog): { file: string | null; flush(): void } {
  return { file: dest === "-" ? null : resolve(dest), flush: () => log.flushSync() };
}

/** This process, as the holder of a lock file (pins, src/fs-lock.ts). */
export const thisProcess = { pid: process.pid, alive };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Listens, or rejects with one line naming the address, the reason and `fix`. */
export function listenOn(server: Server, port: number, host: string, fix: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (e: Error) => reject(new GuardwireError("USAGE", `cannot listen on ${hostPort(host, port)}: ${describeErrno(e)}; ${fix}`, { cause: e }));
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      const a = server.address();
      resolve(a && typeof a === "object" ? a.port : port);
    });
  });
}

export function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}
