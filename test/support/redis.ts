import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, stopChild, waitFor } from "./servers.js";

/** Says what to install when a binary a test needs is missing (tests that need it fail with this, never skip). */
export function requireBinary(name: string, aptPackage: string): string {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === "") {
    throw new Error(`${name} is not installed: this test needs the real ${name} from Debian's packages (apt-get install -y ${aptPackage}); npm test installs it as root on Debian`);
  }
  return path;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM); `start()` brings it back on the same port, empty (or with its AOF, with `aof`). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes (`SIGSTOP`) or thaws (`SIGCONT`) the running server: its port stays open, nothing is answered. */
  signal(sig: "SIGSTOP" | "SIGCONT"): void;
}

/**
 * A real redis-server on a free loopback port, no persistence — or, with `aof` (a folder), an append-only file there,
 * so a restart keeps the data. Fails with the apt command when redis-server is missing.
 */
export async function startRedis(opts: { aof?: string } = {}): Promise<RunningRedis> {
  const bin = requireBinary("redis-server", "redis-server");
  const port = await freePort();
  let child: ChildProcess | null = null;
  // Its own folder either way: a replica's full sync writes dump.rdb there, which must never be read back by a
  // server meant to start empty (nor land in the working directory).
  const persistence = opts.aof ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", opts.aof] : ["--appendonly", "no", "--dir", mkdtempSync(join(tmpdir(), "guardwire-redis-"))];
  const start = async () => {
    child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--protected-mode", "yes"], { stdio: ["ignore", "pipe", "pipe"] });
    await waitFor(child, /Ready to accept connections/);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop: async () => {
      if (child) {
        // A frozen server does not act on SIGTERM until it is thawed.
        child.kill("SIGCONT");
        await stopChild(child);
      }
      child = null;
    },
    signal: (sig) => {
      child?.kill(sig);
    },
  };
}
