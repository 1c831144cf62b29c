import { DecisionLog, type LogSync } from "../decision-log/writer.js";

/**
 * The decision log as `wrap` and `serve` open it: problems reported on stderr, and the file held by this process
 * (`<log>.lock`), so a second guardwire on the same file is refused with a message saying what to do.
 */
export function openDecisionLog(dest: string, opts: { sync?: LogSync; maxBytes?: number } = {}): DecisionLog {
  return DecisionLog.open({
    dest,
    stderr: process.stderr,
    maxBytes: opts.maxBytes,
    sync: opts.sync,
    onProblem: (text) => process.stderr.write(text + "\n"),
    lock: { pid: process.pid, alive },
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
