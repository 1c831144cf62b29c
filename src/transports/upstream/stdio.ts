import { spawn, type ChildProcess } from "node:child_process";
import { GuardwireError } from "../../errors.js";
import { NdjsonChannel } from "../ndjson-channel.js";
import type { SendInfo, UpstreamFactory } from "../types.js";

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
  const child = spawn(opts.command, opts.args, {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (e: NodeJS.ErrnoException) => {
      const hint =
        e.code === "ENOENT" ? "command not found (check PATH)" : e.code === "EACCES" ? "permission denied (is it executable?)" : e.message;
      reject(new GuardwireError("UPSTREAM_SPAWN_FAILED", `Cannot start upstream "${opts.command}": ${hint}`, { cause: e }));
    });
  });
  child.stderr?.pipe(opts.stderr as NodeJS.WritableStream & { write: (c: Buffer) => boolean }, { end: false });
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
  return { child, exited, shutdown };
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
    let channel: NdjsonChannel | null = null;
    let server: StdioServer | null = null;
    let gone: string | null = null;
    const queued: [string, SendInfo | undefined][] = [];
    const fail = (info: SendInfo | undefined, reason: string) => {
      if (info?.requests?.length) queueMicrotask(() => sink.failed(info.requests ?? [], reason));
    };
    spawnStdioServer({ ...opts, stderr: ctx.stderr }).then(
      (s) => {
        server = s;
        const child = s.child;
        if (!child.stdout || !child.stdin) throw new Error("child stdio not piped");
        channel = new NdjsonChannel(child.stdout, child.stdin, ctx.maxFrameBytes, (f) => sink.frame(f));
        for (const [text] of queued.splice(0)) channel.send(text);
        void s.exited.then((exit) => {
          gone = `server exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`;
          sink.closed(gone);
        });
      },
      (e: Error) => {
        gone = e.message;
        for (const [, info] of queued.splice(0)) fail(info, gone);
        sink.closed(gone);
      },
    );
    return {
      send(text, info) {
        if (gone !== null) return fail(info, gone);
        if (channel) return channel.send(text);
        if (queued.length >= MAX_QUEUED) return fail(info, "upstream not started yet and its queue is full");
        queued.push([text, info]);
      },
      async close() {
        gone ??= "session ended";
        queued.length = 0;
        await server?.shutdown(1000);
      },
      pause: () => server?.child.stdout?.pause(),
      resume: () => server?.child.stdout?.resume(),
    };
  };
}

const MAX_QUEUED = 1024;
