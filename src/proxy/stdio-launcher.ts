import type { Readable, Writable } from "node:stream";
import type { Judge } from "../guardian/judge.js";
import { NdjsonChannel } from "../transports/ndjson-channel.js";
import { spawnStdioServer, type StartingServer, type StdioServer } from "../transports/upstream/stdio.js";
import { Session } from "./session.js";
import type { DecisionSink, MessageTracer, StageFactory } from "./pipeline.js";
import type { LiveSessions } from "./live.js";

export interface LauncherOptions {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  judge: Judge;
  log: DecisionSink;
  failMode: "closed" | "open";
  maxFrameBytes: number;
  route?: string;
  logPreview?: boolean;
  /** The features the session runs (pipeline.ts). */
  stages: readonly StageFactory[];
  /** Spans of each request's trip to the server. */
  tracer?: MessageTracer | null;
  /** Live control (docs/sessions.md): a kill answers what is pending and stops the server. */
  sessions?: LiveSessions;
  /** The server, already started with `command`, `args`, `env` and `cwd` (wrap starts it first); else it is spawned here. */
  started?: StartingServer;
}

export interface Launcher {
  session: Session;
  server: StdioServer;
  /** Resolves with the server's exit once it has ended and every pending request was answered. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Forward a signal to the server (SIGINT/SIGTERM). */
  signal(sig: NodeJS.Signals): void;
  /** Why an operator killed the session, once one did. */
  killed(): string | undefined;
}

/**
 * `guardwire wrap`: the agent talks to us on stdin/stdout, we talk to the real server on its stdin/stdout,
 * and every line in between goes through a session.
 */
export async function launchStdio(opts: LauncherOptions): Promise<Launcher> {
  const server = opts.started ? await passingStderr(opts.started, opts.stderr) : await spawnStdioServer({ command: opts.command, args: opts.args, env: opts.env, cwd: opts.cwd, stderr: opts.stderr });
  const child = server.child;
  if (!child.stdin || !child.stdout) throw new Error("child stdio not piped");

  // Frames can only arrive once this function has returned to the event loop, after `session` exists.
  const downstream = new NdjsonChannel(opts.stdin, opts.stdout, opts.maxFrameBytes, (f) => session.fromDownstream(f));
  const upstream = new NdjsonChannel(child.stdout, child.stdin, opts.maxFrameBytes, (f) => session.fromUpstream(f));
  downstream.feedsFrom(child.stdout);
  upstream.feedsFrom(opts.stdin);
  const route = opts.route ?? opts.command;
  // The tracer times each request's trip to the server around the session (null when tracing is off).
  const hops = opts.tracer?.hops?.(() => session.id, "stdio") ?? null;
  const session: Session = new Session(downstream, hops ? hops.wrap(upstream) : upstream, {
    judge: opts.judge,
    log: opts.log,
    route,
    transport: "stdio",
    failMode: opts.failMode,
    maxFrameBytes: opts.maxFrameBytes,
    logPreview: opts.logPreview,
    stages: opts.stages,
  });

  let killed: string | undefined;
  const unregister = opts.sessions?.register({
    session,
    route,
    transport: "stdio",
    protocol: "mcp",
    agent: null,
    downstream,
    // What is pending is answered on stdout first; then the server is stopped, and wrap exits with it.
    kill: (message) => {
      killed = message;
      hops?.closed(message);
      session.kill(message, () => void server.shutdown());
    },
  });

  // The agent closed its end: let the server finish, then escalate.
  opts.stdin.on("end", () => void server.shutdown());

  const done = server.exited.then((exit) => {
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    session.upstreamClosed(`server exited (${how})`, () => hops?.closed(`server exited (${how})`));
    unregister?.();
    return exit;
  });

  return {
    session,
    server,
    done,
    killed: () => killed,
    signal: (sig) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    },
  };
}

/** A server started earlier: its stderr goes through from now on (what it wrote meanwhile waited in the pipe). */
async function passingStderr(started: StartingServer, stderr: Writable): Promise<StdioServer> {
  const server = await started.started;
  server.passStderr(stderr);
  return server;
}
