import { spawn, type ChildProcess } from "node:child_process";
import { GuardwireError } from "../../errors.js";
import { NdjsonChannel } from "../ndjson-channel.js";
import type { UpstreamFactory } from "../types.js";
import { SendQueue } from "./queue.js";

export interface SpawnOptions {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Where the server's stderr goes (passed through untouched). */
  stderr: NodeJS.WritableStream;
}

export interface StdioServer {
  child: ChildProcess;
  /** Resolves when the child has exited: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Close stdin, then SIGTERM after `graceMs`, then SIGKILL. */
  shutdown(graceMs?: number): Promise<void>;
}

/** Starts an MCP server over stdio. Fails with UPSTREAM_SPAWN_FAILED and a message saying what to check. */
export async function spawnStdioServer(opts: SpawnOptions): Promise<StdioServer> {
  const server = await startStdioServer(opts).started;
  server.passStderr(opts.stderr);
  return server;
}

/** A server started before its session exists (`guardwire wrap` starts it first, and loads the guardian meanwhile). */
export interface StartingServer {
  /** Resolves once the process has started, or fails with UPSTREAM_SPAWN_FAILED; a failure is reported only when awaited. */
  started: Promise<StdioServer & { passStderr(to: NodeJS.WritableStream): void }>;
  /** The session will not be made (guardwire could not start): the server is stopped, its output never read. */
  discard(): void;
}

/**
 * Spawns the server now, with its exit watched from the start. Nothing of its stdout or stderr is read until the
 * caller attaches to them (the pipes hold what it writes meanwhile): its stderr only from `passStderr`.
 */
export function startStdioServer(opts: Omit<SpawnOptions, "stderr">): StartingServer {
  const child = spawn(opts.command, opts.args, {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const started = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (e: NodeJS.ErrnoException) => {
      const hint =
        e.code === "ENOENT" ? "command not found (check PATH)" : e.code === "EACCES" ? "permission denied (is it executable?)" : e.message;
      reject(new GuardwireError("UPSTREAM_SPAWN_FAILED", `Cannot start upstream "${opts.command}": ${hint}`, { cause: e }));
    });
  });
  child.stdin?.on("error", () => {
    // EPIPE when the server exits first: its exit is handled through `exited`.
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  let shuttingDown: Promise<void> | undefined;
  const shutdown = (graceMs = 2000): Promise<void> => {
    shuttingDown ??= (async () => {
      child.stdin?.end();
      if (await settlesWithin(exited, graceMs)) return;
      child.kill("SIGTERM");
      if (await settlesWithin(exited, graceMs)) return;
      child.kill("SIGKILL");
      await exited;
    })();
    return shuttingDown;
  };
  const passStderr = (to: NodeJS.WritableStream): void => {
    child.stderr?.pipe(to as NodeJS.WritableStream & { write: (c: Buffer) => boolean }, { end: false });
  };
  const server = started.then(() => ({ child, exited, shutdown, passStderr }));
  // Said when awaited (the caller may first fail for another reason, which then comes first).
  server.catch(() => undefined);
  return {
    started: server,
    discard: () => {
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}

function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/**
 * A stdio server as the upstream of one downstream session (`guardwire serve`): one child per session, ended with
 * it. Frames sent before the child has started wait in order; a child that cannot start fails them.
 */
export function stdioUpstream(opts: Omit<SpawnOptions, "stderr">): UpstreamFactory {
  return (sink, ctx) => {
    const queue = new SendQueue(sink);
    let channel: NdjsonChannel | null = null;
    let server: StdioServer | null = null;
    spawnStdioServer({ ...opts, stderr: ctx.stderr }).then(
      (s) => {
        server = s;
        const child = s.child;
        if (!child.stdout || !child.stdin) throw new Error("child stdio not piped");
        const c = new NdjsonChannel(child.stdout, child.stdin, ctx.maxFrameBytes, (f) => sink.frame(f));
        channel = c;
        queue.drain((text) => c.send(text));
        void s.exited.then((exit) => queue.close(`server exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`));
      },
      (e: Error) => queue.close(e.message),
    );
    return {
      send(text, info) {
        if (!queue.hold(text, info, channel !== null)) channel?.send(text);
      },
      async close() {
        queue.close("session ended", false);
        await server?.shutdown(1000);
      },
      pause: () => server?.child.stdout?.pause(),
      resume: () => server?.child.stdout?.resume(),
    };
  };
}
