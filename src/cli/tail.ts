import { followFile, parseLine } from "../decision-log/reader.js";
import { formatDecision, matchesFilter, type DecisionFilter } from "../decision-log/format.js";

export interface TailOptions extends DecisionFilter {
  /** One log, or several (one per server): followed side by side, lines printed as each file grows. */
  file: string | string[];
  follow: boolean;
  json: boolean;
  color: boolean;
  signal?: AbortSignal;
  pollMs?: number;
  /** Only approvals still held: requested, with no decision yet in the log. */
  pending?: boolean;
}

/** `guardwire tail`: readable decisions, filtered; with -f, follows the logs across rotation until interrupted. */
export async function runTail(opts: TailOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const files = typeof opts.file === "string" ? [opts.file] : opts.file;
  let missing = false;
  const held = new Map<string, string>();
  const show = (line: string, r: NonNullable<ReturnType<typeof parseLine>>) => out.write((opts.json ? line : formatDecision(r, { color: opts.color })) + "\n");
  await Promise.all(
    files.map((file) =>
      followFile(file, {
        follow: opts.follow,
        pollMs: opts.pollMs,
        signal: opts.signal,
        onMissing: () => {
          missing = true;
          err.write(opts.follow ? `guardwire: waiting for ${file} to appear…\n` : `guardwire: no decision log at ${file}\n`);
        },
        onLine: (line) => {
          const r = parseLine(line);
          if (!r) {
            err.write(`guardwire: skipped a line that is not a decision\n`);
            return;
          }
          if (!matchesFilter(r, opts)) return;
          if (!opts.pending) return show(line, r);
          // Without -f: what is still held at the end of the log. With -f: each request, then its decision.
          if (r.approval?.step === "requested") held.set(r.approval.id, line);
          else if (r.approval?.step === "decided" && held.delete(r.approval.id) && opts.follow) show(line, r);
          else return;
          if (opts.follow && r.approval.step === "requested") show(line, r);
        },
      }),
    ),
  );
  if (opts.pending && !opts.follow) for (const line of held.values()) show(line, parseLine(line) as NonNullable<ReturnType<typeof parseLine>>);
  return missing && !opts.follow ? 1 : 0;
}
