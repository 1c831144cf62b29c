import type { LogSync } from "../decision-log/writer.js";
import { GuardwireError } from "../errors.js";
import { DEFAULT_MAX_FRAME_BYTES } from "../protocol/safe-json.js";
import { startStdioServer, type StartingServer } from "../transports/upstream/stdio.js";
import type { AlertFlags } from "./alerts.js";
import type { GuardianOptions } from "./guardians.js";
import { defaultWrapLog, routeName } from "../install/wrap-entry.js";
import type { ApprovalFlags } from "./approval-channels.js";

export interface WrapOptions extends GuardianOptions, AlertFlags, ApprovalFlags {
  /** The route name in the log and in rules; derived from the server command when not given. */
  name?: string;
  /** Default: ./guardwire-decisions.<name>.ndjson, one file per server (a log has one writer). */
  log?: string;
  maxFrameBytes?: number;
  logMaxBytes?: number;
  logPreview?: boolean;
  /** `always`: a message is forwarded only once its decision line is written and fsynced (group commit). */
  logSync?: LogSync;
  /** Serve the admin API (approvals) on HOST:PORT or unix:/path; its token from --admin-token or GUARDWIRE_ADMIN_TOKEN. */
  admin?: string;
  adminToken?: string;
  version?: string;
}

/**
 * `guardwire wrap -- <command> [args…]`: stdout is the protocol channel, so everything guardwire itself says goes to
 * stderr, and the decision log never goes to stdout. Returns the exit code to use: the server's own.
 */
export async function runWrap(command: string[], opts: WrapOptions): Promise<number> {
  const [cmd, ...args] = command;
  if (!cmd) throw new GuardwireError("USAGE", "wrap needs a server command after --, e.g. guardwire wrap -- npx -y @modelcontextprotocol/server-everything");
  const route = opts.name ?? routeName(cmd, args);
  const logDest = opts.log ?? defaultWrapLog(route);
  if (logDest === "/dev/stdout" || logDest === "stdout") {
    throw new GuardwireError("USAGE", "the decision log cannot go to stdout in wrap mode (stdout carries the protocol); use a file or - for stderr");
  }
  // The server is started first: its own start-up (most of the wait for a first answer) runs while guardwire loads the
  // guardian, the rules and the log. Nothing is read from it, nor from the agent, until the session exists, so the
  // first message is judged like any other; if guardwire cannot start, the server is stopped unheard.
  const started = startStdioServer({ command: cmd, args, env: process.env, cwd: process.cwd() });
  const early = stopServerOnSignal(started);
  let launcher;
  let core;
  try {
    ({ launcher, core } = await openAndLaunch(cmd, args, route, logDest, opts, started));
  } catch (e) {
    early.remove();
    started.discard();
    throw e;
  }
  early.remove();
  const { runtime, operator, channels } = core;
  const flush = core.flush;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      // Every held request is answered (a deny) before the server is stopped.
      channels.broker.shutdown();
      operator.sessions?.shutdown();
      setImmediate(() => {
        flush();
        launcher.signal(sig);
      });
    });
  }
  const exit = await launcher.done;
  const killed = launcher.killed();
  if (killed) process.stderr.write(`guardwire: ${killed}; the server was stopped (exit ${KILLED_EXIT})\n`);
  await runtime.close();
  process.stdin.pause();
  process.stdin.unref?.();
  if (killed) return KILLED_EXIT;
  return exit.code ?? (exit.signal ? 128 + signalNumber(exit.signal) : 1);
}

/** Loads and opens what a session needs (in parallel with the server's start), then starts the session on `started`. */
async function openAndLaunch(cmd: string, args: string[], route: string, logDest: string, opts: WrapOptions, started: StartingServer) {
  const [{ detectorsReady }, { alertsFromFlags }, { approvalsFromFlags }, { answerHeldFirst, openCore }, { logView }, { launchStdio }] = await Promise.all([
    import("../guardian/detectors/index.js"),
    import("./alerts.js"),
    import("./approval-channels.js"),
    import("./runtime.js"),
    import("./startup.js"),
    import("../proxy/stdio-launcher.js"),
  ]);
  // Nothing is judged before the detectors' grammar is there (as program.ts waits for it for the other commands).
  await detectorsReady().catch((e: unknown) => {
    throw new GuardwireError("RULES_INVALID", `the detectors could not be loaded (reinstall guardwire): ${(e as Error).message}`);
  });
  // The composition root: every part opened once, in order, and closed in reverse (runtime.ts).
  const core = await openCore({
    guardian: opts,
    // One process, one file: a replica id only when the environment names one (docs/decision-log.md).
    log: { dest: logDest, maxBytes: opts.logMaxBytes, sync: opts.logSync, replica: process.env.GUARDWIRE_REPLICA || undefined },
    logFix: "choose another path with --log",
    alerts: alertsFromFlags(opts),
    approvals: approvalsFromFlags(opts),
    admin: opts.admin,
    version: opts.version,
    stderr: process.stderr,
  });
  const { runtime, log, embedded, operator, channels } = core;
  const flush = () => {
    try {
      log.flushSync();
    } catch {
      // nothing more can be done at exit
    }
  };
  // The lock goes last: after a signal, the server's last messages are still logged by this process.
  process.on("exit", () => (flush(), log.releaseLock()));
  if (opts.admin) {
    const { startOperatorAdmin } = await import("./admin.js");
    const ui = { embedded, rules: core.rules, log: logView(logDest, log) };
    const measured = { log, alerts: core.alerts, ruleset: () => embedded.rules.hash, upstreamTransport: () => "stdio" };
    const admin = await startOperatorAdmin(opts.admin, opts.adminToken ?? process.env.GUARDWIRE_ADMIN_TOKEN, { version: opts.version ?? "", broker: channels.broker, operator, measured, links: channels.links, console: ui });
    runtime.onClose("admin", admin, (a) => a.close());
    channels.listening(admin.url);
  } else channels.listening(undefined);
  answerHeldFirst(core);

  let launcher;
  try {
    launcher = await launchStdio({
      command: cmd,
      args,
      env: process.env,
      cwd: process.cwd(),
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      judge: core.judge,
      log: operator.sink,
      failMode: opts.failMode,
      maxFrameBytes: opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      route,
      logPreview: opts.logPreview ?? false,
      stages: core.stages,
      tracer: core.tracing?.tracer,
      sessions: operator.sessions,
      started,
    });
  } catch (e) {
    flush();
    throw e;
  }
  return { launcher, core: { ...core, flush } };
}

/**
 * While guardwire starts, a signal ends it as it always did (by that signal), and the server started early with it.
 * Removed once the session's own handlers take over.
 */
function stopServerOnSignal(started: StartingServer): { remove(): void } {
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const handler = (sig: NodeJS.Signals): void => {
    started.discard();
    for (const s of signals) process.removeListener(s, handler);
    process.kill(process.pid, sig);
  };
  for (const s of signals) process.on(s, handler);
  return { remove: () => signals.forEach((s) => process.removeListener(s, handler)) };
}

/** wrap's exit code when an operator killed its session (docs/sessions.md). */
const KILLED_EXIT = 3;

function signalNumber(sig: NodeJS.Signals): number {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return table[sig] ?? 1;
}
