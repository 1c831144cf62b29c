import { readFileSync } from "node:fs";
import { AgentKeys, isLoopbackHost } from "../agent-keys.js";
import type { DecisionLog } from "../decision-log/writer.js";
import { GuardwireError } from "../errors.js";
import { createGuardianHttpServer, serveGuardianStdio, type EndpointInfo } from "../guardian/endpoint.js";
import { KEYS_ENV } from "./options.js";
import { buildGuardian, type GuardianOptions } from "./guardians.js";
import { describeErrno, hostPort, listenOn, openDecisionLog } from "./startup.js";

export interface GuardianCommandOptions extends GuardianOptions {
  port?: number;
  host: string;
  stdio: boolean;
  keyFile?: string;
  allowUnauthenticatedRemote: boolean;
  log?: string;
  maxFrameBytes?: number;
}

/** The environment variable that carries the guardian's keys (never argv: other users can read a command line). */
export { KEYS_ENV };
const MIN_KEY = 16;

/**
 * `guardwire guardian`: the embedded guardian served over HTTP (`--port`) or NDJSON (`--stdio`), under the same rules
 * as `serve`: loopback by default, keys required to listen anywhere else, and every decision in the hash-chained log.
 */
export async function runGuardian(o: GuardianCommandOptions, version: string, env: Record<string, string | undefined>): Promise<void> {
  if ((o.port === undefined) === !o.stdio) throw new GuardwireError("USAGE", "give exactly one of --port <n> or --stdio");
  const keys = new AgentKeys(o.stdio ? [] : readKeys(o.keyFile, env[KEYS_ENV]));
  if (!o.stdio && keys.size === 0 && !isLoopbackHost(o.host) && !o.allowUnauthenticatedRemote) {
    throw new GuardwireError(
      "USAGE",
      `listening on ${o.host} without keys is refused; give keys with --key-file <file> or ${KEYS_ENV}, or listen on 127.0.0.1 (or add --allow-unauthenticated-remote)`,
    );
  }
  const { guardian, embedded, close: stopWatching } = buildGuardian(o, process.stderr);
  const log: DecisionLog | undefined = o.log === undefined ? undefined : openDecisionLog({ dest: o.log, stderr: process.stderr, replica: env.GUARDWIRE_REPLICA || undefined, ruleset: () => embedded.rules.hash }, "choose another path with --log");
  const info: EndpointInfo = { version, ruleset: () => ({ name: embedded.rules.name, hash: embedded.rules.hash, rules: embedded.rules.rules.length }) };
  const stop = async (code: number) => {
    await stopWatching();
    await log?.close();
    process.exit(code);
  };
  if (o.stdio) {
    await serveGuardianStdio(guardian, info, process.stdin, process.stdout, { log });
    await stop(0);
    return;
  }
  const server = createGuardianHttpServer(guardian, info, { keys, log, maxBodyBytes: o.maxFrameBytes });
  const port = await listenOn(server, o.port as number, o.host, "choose another --port (0 picks a free one) or --host");
  const access = keys.size > 0 ? `${keys.size} key${keys.size === 1 ? "" : "s"}` : isLoopbackHost(o.host) ? "no keys, loopback only" : "NO KEYS: anyone who can reach it may call it";
  process.stderr.write(`guardwire: AOS guardian listening on http://${hostPort(o.host, port)}/ (${access})\n`);
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => server.close(() => void stop(0)));
}

/**
 * Keys from a file (one per line) and from the environment (comma-separated). An entry is `<key>` or `<id> <key>`;
 * the id names the caller in the log (default key-1, key-2… in order). Blank lines and `#` comments are skipped.
 */
export function readKeys(file: string | undefined, fromEnv: string | undefined): { id: string; key: string }[] {
  let text = "";
  if (file !== undefined) {
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new GuardwireError("USAGE", `cannot read the key file ${file}: ${describeErrno(e)}`);
    }
  }
  const entries = (list: string[], source: string) =>
    list
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((entry, i) => {
        const parts = entry.split(/\s+/);
        const key = parts.at(-1) as string;
        if (parts.length > 2 || key.length < MIN_KEY) {
          throw new GuardwireError("USAGE", `${source}, entry ${i + 1}: an entry is "<key>" or "<id> <key>", and a key needs at least ${MIN_KEY} characters`);
        }
        return { id: parts.length === 2 ? (parts[0] as string) : undefined, key };
      });
  const all = [...entries(text.split("\n"), file ?? "key file"), ...entries((fromEnv ?? "").split(","), KEYS_ENV)];
  return all.map((e, i) => ({ id: e.id ?? `key-${i + 1}`, key: e.key }));
}
