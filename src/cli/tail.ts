import { followFile, parseLine } from "../decision-log/reader.js";
import { formatDecision } from "../decision-log/format.js";
import { matchesFilter, type DecisionFilter } from "../observe/filter.js";
import type { DecisionRecord } from "../decision-log/record.js";
import { dirname, resolve } from "node:path";
import { expandLogPaths } from "./log-files.js";

export interface TailOptions extends DecisionFilter {
  /** One log, or several (one per server or replica; a directory stands for the logs in it): merged by time. */
  file: string | string[];
  follow: boolean;
  json: boolean;
  color: boolean;
  signal?: AbortSignal;
  pollMs?: number;
  /** Only approvals still held: requested, with no decision yet in the log. */
  pending?: boolean;
  /** No log was named: `file` is the default (./guardwire-decisions*.ndjson), and a missing one is said as such. */
  defaulted?: boolean;
}

/**
 * `guardwire tail`: readable decisions, filtered; with -f, follows the logs across rotation until interrupted. Several
 * logs are merged by time: what they hold at start is sorted as one, then new lines are shown as they come.
 */
export async function runTail(opts: TailOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const files = expandLogPaths(typeof opts.file === "string" ? [opts.file] : opts.file);
  if (files.length === 0) {
    err.write(`guardwire: no decision logs (*.ndjson) in ${String(opts.file)}\n`);
    return 1;
  }
  let missing = false;
  const held = new Map<string, string>();
  const show = (line: string, r: DecisionRecord) => out.write((opts.json ? line : formatDecision(r, { color: opts.color })) + "\n");
  const consume = (line: string, r: DecisionRecord) => {
    if (!matchesFilter(r, opts)) return;
    if (!opts.pending) return show(line, r);
    // Without -f: what is still held at the end of the logs. With -f: each request, then its decision.
    if (r.approval?.step === "requested") held.set(r.approval.id, line);
    else if (r.approval?.step === "decided" && held.delete(r.approval.id) && opts.follow) show(line, r);
    else return;
    if (opts.follow && r.approval.step === "requested") show(line, r);
  };
  // Until every file has given what it held at start, lines wait here to be merged by time.
  let backlog: { line: string; r: DecisionRecord; file: number }[] | null = [];
  let waiting = files.length;
  const caughtUp = () => {
    if (--waiting > 0 || !backlog) return;
    const merged = backlog.sort((a, b) => (a.r.time < b.r.time ? -1 : a.r.time > b.r.time ? 1 : a.file - b.file || a.r.seq - b.r.seq));
    backlog = null;
    for (const { line, r } of merged) consume(line, r);
  };
  await Promise.all(
    files.map((file, index) =>
      followFile(file, {
        follow: opts.follow,
        pollMs: opts.pollMs,
        signal: opts.signal,
        onMissing: () => {
          missing = true;
          err.write(opts.follow ? `guardwire: waiting for ${file} to appear…\n` : opts.defaulted ? noDefaultLog(file) : `guardwire: no decision log at ${resolve(file)}\n`);
        },
        onCaughtUp: caughtUp,
        onLine: (line) => {
          const r = parseLine(line);
          if (!r) {
            err.write(`guardwire: skipped a line that is not a decision\n`);
            return;
          }
          if (backlog) backlog.push({ line, r, file: index });
          else consume(line, r);
        },
      }),
    ),
  );
  if (opts.pending && !opts.follow) for (const line of held.values()) show(line, parseLine(line) as DecisionRecord);
  return missing && !opts.follow ? 1 : 0;
}

/** Where `tail` looked when given no log, and how to name one. */
function noDefaultLog(file: string): string {
  return (
    `guardwire: no decision log found: looked for guardwire-decisions*.ndjson in ${resolve(dirname(file))}; ` +
    `name a log or a folder of logs: guardwire tail <file|folder> (install's servers log to ~/.guardwire/logs/)\n`
  );
}
