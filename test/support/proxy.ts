import { join } from "node:path";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRulesOrThrow } from "../../src/cli/rules.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { createGuardServer, type ProxyServerOptions, type ProxyServer } from "../../src/proxy/server.js";
import type { UpstreamFactory } from "../../src/transports/types.js";
import { legacySseEndpoint } from "../../src/transports/downstream/legacy-sse.js";
import { websocketEndpoint } from "../../src/transports/downstream/websocket.js";
import { readLog, tempDir } from "../helpers.js";
import { A2A_STREAMING_METHODS } from "../../src/protocol/a2a.js";
import { a2aEndpoint } from "../../src/transports/downstream/a2a-http.js";
import type { A2aRemote } from "../../src/transports/upstream/a2a.js";

export interface InProcessProxy {
  base: string;
  proxy: ProxyServer;
  log: () => Record<string, unknown>[];
  /** The decision log's file. */
  file: string;
  /** The embedded guardian every route judges with (told each session's end, as `serve` tells it). */
  guardian: EmbeddedGuardian;
  close(): Promise<void>;
}

/** guardwire's HTTP front in this process, in front of real upstreams: for tests that poke at HTTP details. */
export async function startProxy(
  routes: ({ name: string; path: string; upstream: UpstreamFactory; passthrough?: string; stateless?: boolean } | { name: string; path: string; a2a: A2aRemote })[],
  /** `listenHost`: the address the server is told it listens on (loopback or not: the Host checks follow it); it binds 127.0.0.1 all the same. */
  opts: { rules?: string; maxBodyBytes?: number; idleMs?: number; listenHost?: string } & Partial<Pick<ProxyServerOptions, "agents" | "allowedHosts" | "allowedOrigins" | "maxSessions" | "replayChars" | "front">> = {},
): Promise<InProcessProxy> {
  const file = join(tempDir(), "decisions.ndjson");
  const guardian = new EmbeddedGuardian(loadRulesOrThrow(opts.rules), {});
  const log = DecisionLog.open({ dest: file, stderr: process.stderr });
  const maxBodyBytes = opts.maxBodyBytes ?? 16 << 20;
  const proxy = createGuardServer({
    host: opts.listenHost ?? "127.0.0.1",
    agents: opts.agents ?? [],
    allowedHosts: opts.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
    maxBodyBytes,
    idleMs: opts.idleMs ?? 60_000,
    maxSessions: opts.maxSessions,
    replayChars: opts.replayChars,
    front: opts.front,
    log,
    routes: routes.map((r) => {
      const common = { name: r.name, guardian, endSession: (id: string) => guardian.endSession(id), log, failMode: "closed" as const, maxFrameBytes: maxBodyBytes, stderr: process.stderr };
      if ("a2a" in r) {
        const remote = r.a2a;
        const server = () => (remote.name ? { name: remote.name, version: "" } : null);
        return { path: r.path, runtime: { ...common, protocol: "a2a" as const, upstream: remote.upstream(), streamingMethods: A2A_STREAMING_METHODS, server } };
      }
      return { path: r.path, passthrough: r.passthrough, runtime: { ...common, upstream: r.upstream, stateless: r.stateless } };
    }),
    extras: (connect, route) => {
      const r = routes.find((x) => x.path === route.path);
      if (r && "a2a" in r) return [a2aEndpoint({ connect, maxBodyBytes, cardUpstream: (url) => r.a2a.cardUpstream(url), passAuthorization: false, push: r.a2a.push, restUpstream: r.a2a.restUpstream() })];
      return [legacySseEndpoint({ connect, maxBodyBytes }), websocketEndpoint({ connect, maxFrameBytes: maxBodyBytes })];
    },
  });
  await new Promise<void>((r) => proxy.server.listen(0, "127.0.0.1", r));
  const a = proxy.server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${a.port}`,
    proxy,
    file,
    guardian,
    log: () => {
      log.flushSync();
      return readLog(file);
    },
    async close() {
      await proxy.close();
      await log.close();
    },
  };
}
