import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, ROOT } from "../helpers.js";
import { requireBinary, startRedis, type RunningRedis } from "./redis.js";
import { freePort, stopChild, waitFor } from "./servers.js";

/** The HAProxy config guardwire ships (examples/haproxy/haproxy.cfg): the tests run behind it as users would. */
export const SHIPPED_HAPROXY_CFG = join(ROOT, "examples", "haproxy", "haproxy.cfg");

export interface Replica {
  id: string;
  /** This replica's own URL (bypassing HAProxy). */
  base: string;
  child: ChildProcess;
  /** Where its admin API's URL and token are written (GUARDWIRE_ADMIN_FILE), when the cluster has `admin`. */
  adminFile: string;
  config: string;
  stop(): Promise<void>;
}

export interface Cluster {
  /** HAProxy's URL: what agents use. */
  base: string;
  replicas: Replica[];
  redis: RunningRedis;
  /** The directory holding configs and logs. */
  dir: string;
  /** The folder the replicas' logs go to (one file per replica). */
  logDir: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** rules: line value (a path or pack name). */
  rules: string;
  /** YAML lines of `routes:` entries. */
  routes: string[];
  /** More top-level YAML lines for every replica. */
  extra?: string[];
  /** Start an admin API on each replica (loopback, port 0). */
  admin?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * Three `guardwire serve` replicas sharing a real redis-server, behind a real HAProxy in round-robin (the shipped
 * config). Tests that need Redis or HAProxy fail with the apt command to install them, never skip.
 */
export async function startCluster(dir: string, opts: ClusterOptions): Promise<Cluster> {
  const haproxyBin = requireBinary("haproxy", "haproxy");
  const redis = await startRedis();
  const logDir = join(dir, "logs");
  mkdirSync(logDir, { recursive: true });
  const key = randomBytes(32).toString("base64");
  const replicas: Replica[] = [];
  let haproxy: ChildProcess | null = null;
  const stopAll = async () => {
    if (haproxy) await stopChild(haproxy);
    await Promise.all(replicas.map((r) => r.stop()));
    await redis.stop();
  };
  try {
    for (const id of ["r1", "r2", "r3"]) replicas.push(await startReplica(dir, id, key, redis.url, logDir, opts));
    const port = await freePort();
    const env = { ...process.env, GW_BIND: `127.0.0.1:${port}` } as NodeJS.ProcessEnv;
    replicas.forEach((r, i) => (env[`GW_REPLICA_${i + 1}`] = new URL(r.base).host));
    const child = spawn(haproxyBin, ["-db", "-f", SHIPPED_HAPROXY_CFG], { env, stdio: ["ignore", "pipe", "pipe"] });
    haproxy = child;
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child);
    return { base: `http://127.0.0.1:${port}`, replicas, redis, dir, logDir, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function startReplica(dir: string, id: string, key: string, redisUrl: string, logDir: string, opts: ClusterOptions): Promise<Replica> {
  const config = join(dir, `${id}.yaml`);
  const adminFile = join(dir, `${id}.admin.json`);
  const lines = [
    "listen: { host: 127.0.0.1, port: 0 }",
    `rules: ${opts.rules}`,
    `log: ${join(logDir, "decisions.ndjson")}`,
    `store: { redis: "${redisUrl}" }`,
    `sessions: { keys: ["${key}"] }`,
    ...(opts.admin ? ["admin: { listen: 127.0.0.1:0 }"] : []),
    ...(opts.extra ?? []),
    "routes:",
    ...opts.routes,
  ];
  writeFileSync(config, lines.join("\n") + "\n");
  const env = { ...(opts.env ?? process.env), GUARDWIRE_REPLICA: id, GUARDWIRE_ADMIN_FILE: adminFile };
  const child = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, `${id}.pins.json`)], { stdio: ["ignore", "pipe", "pipe"], env });
  // A replica that does not come up is stopped here: the cluster's stop() only knows the ones that did.
  const { match } = await waitFor(child, /serving (http:\/\/\S+)/).catch(async (e: unknown) => {
    await stopChild(child);
    throw e;
  });
  return { id, base: match[1] as string, child, adminFile, config, stop: () => stopChild(child) };
}

/** Polls `url` until it answers (HAProxy needs a moment for its first health checks). */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let out = "";
  child.stdout?.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${out}`);
    try {
      const r = await fetch(url);
      if (r.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`haproxy not answering ${url} after ${timeoutMs} ms:\n${out}`);
}
