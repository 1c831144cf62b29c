import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { createProxyServer } from "http-proxy-3";
import { AgentKeys, presentedKey } from "../agent-keys.js";
import { ErrorCode } from "../protocol/json-rpc.js";
import { httpError } from "../transports/downstream/http-util.js";
import { StreamableHttpEndpoint, type HttpCaller } from "../transports/downstream/streamable-http.js";
import type { Connect } from "../transports/types.js";
import { openLink, type RouteRuntime } from "./link.js";

export interface ServedRoute {
  path: string;
  runtime: RouteRuntime;
  /** An HTTP upstream's URL: its `/.well-known/*` documents (OAuth metadata) are passed through. */
  passthrough?: string;
}

/** A downstream transport other than MCP Streamable HTTP, mounted at or under a route path (legacy SSE, WebSocket, A2A). */
export interface ExtraEndpoint {
  /** Handles a plain HTTP request at the route (`suffix` "") or under it; false when the path is not its own. */
  handle?(suffix: string, req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string): boolean;
  /** Handles an upgrade under the route; false when the path is not its own. */
  upgrade?(suffix: string, req: IncomingMessage, socket: Duplex, head: Buffer, caller: HttpCaller): boolean;
  close(): Promise<void>;
}

export interface ProxyServerOptions {
  /** The listening host: loopback listeners accept loopback Host and Origin names by default. */
  host: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  agents: readonly { id: string; key: string }[];
  routes: readonly ServedRoute[];
  maxBodyBytes: number;
  idleMs: number;
  /** Live Streamable HTTP sessions per route (default 10,000). */
  maxSessions?: number;
  /** Characters of events a Streamable HTTP session keeps for `Last-Event-ID` resumption (default 16 Mi). */
  replayChars?: number;
  /** More downstream transports per route, built from the route's connect function. */
  extras?: (connect: Connect, route: ServedRoute) => ExtraEndpoint[];
}

export interface ProxyServer {
  server: Server;
  /** Live downstream sessions across routes (Streamable HTTP). */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Mounted {
  route: ServedRoute;
  /** MCP routes: Streamable HTTP at the route path itself. */
  http: StreamableHttpEndpoint | null;
  extras: ExtraEndpoint[];
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * `guardwire serve`'s HTTP front: health probes, DNS-rebinding protection (Host and Origin), agent keys, then each
 * route's downstream transports, and plain pass-through for the upstream's `/.well-known/*` documents.
 */
export function createGuardServer(opts: ProxyServerOptions): ProxyServer {
  const mounted = new Map<string, Mounted>();
  for (const route of opts.routes) {
    const connect: Connect = (downstream, who, upstream) => openLink(route.runtime, downstream, who, upstream);
    mounted.set(route.path, {
      route,
      http: route.runtime.protocol === "a2a" ? null : new StreamableHttpEndpoint({ connect, maxBodyBytes: opts.maxBodyBytes, idleMs: opts.idleMs, maxSessions: opts.maxSessions, replayChars: opts.replayChars, stateless: route.runtime.stateless === true }),
      extras: opts.extras?.(connect, route) ?? [],
    });
  }
  const keys = new AgentKeys(opts.agents);
  const loopbackListen = LOOPBACK.has(opts.host);
  const passthrough = createProxyServer({ changeOrigin: true, ignorePath: true, xfwd: false });
  // Protected-resource metadata names the resource: through the proxy, that is the proxy's route URL, or an OAuth
  // client that checks it against the URL it connected to (the MCP SDK does) would stop.
  const resourceOf = new WeakMap<IncomingMessage, string>();
  passthrough.on("proxyRes", (proxyRes, req, res) => {
    const resource = resourceOf.get(req);
    const type = String(proxyRes.headers["content-type"] ?? "");
    if (!resource || !type.includes("json") || (proxyRes.statusCode ?? 0) !== 200) {
      res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
      proxyRes.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    proxyRes.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    proxyRes.on("end", () => {
      let body = Buffer.concat(chunks).toString("utf8");
      try {
        const doc = JSON.parse(body) as Record<string, unknown>;
        if (typeof doc.resource === "string") body = JSON.stringify({ ...doc, resource });
      } catch {
        // not JSON after all: passed as it is
      }
      const headers = { ...proxyRes.headers, "content-length": String(Buffer.byteLength(body)) };
      delete headers["transfer-encoding"];
      res.writeHead(200, headers).end(body);
    });
  });
  passthrough.on("error", (_e, _req, res) => {
    if (res && "writeHead" in res && !res.headersSent) httpError(res, 502, ErrorCode.UpstreamUnavailable, "Bad Gateway: the upstream cannot be reached");
    else res?.destroy();
  });

  /** Host and Origin checks (DNS rebinding), then the agent's key: the caller, or the refusal to answer with. */
  const admit = (req: IncomingMessage): { caller: HttpCaller } | { status: number; message: string; headers?: Record<string, string> } => {
    const host = (req.headers.host ?? "").toLowerCase();
    const hostname = host.replace(/:\d+$/, "");
    const hostOk = opts.allowedHosts ? opts.allowedHosts.some((h) => h.toLowerCase() === host || h.toLowerCase() === hostname) : !loopbackListen || LOOPBACK.has(hostname);
    if (!hostOk) return { status: 403, message: `Forbidden: Host ${host || "(none)"} is not allowed` };
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, host, opts.allowedOrigins, loopbackListen)) {
      return { status: 403, message: `Forbidden: Origin ${origin} is not allowed` };
    }
    const forward: Record<string, string> = {};
    const auth = req.headers.authorization;
    if (keys.size === 0) {
      if (auth) forward.authorization = auth;
      return { caller: { agent: null, forward } };
    }
    const presented = presentedKey(req.headers);
    const agent = presented.key === undefined ? null : keys.match(presented.key);
    if (!agent) return { status: 401, message: "Unauthorized: a valid agent key is required", headers: { "www-authenticate": 'Bearer realm="guardwire"' } };
    // The agent's own Authorization goes on to the server unless it carried the guardwire key.
    if (auth && presented.viaHeader) forward.authorization = auth;
    return { caller: { agent: { id: agent }, forward } };
  };

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (path === "/healthz" || path === "/readyz") {
      const body = JSON.stringify(path === "/healthz" ? { status: "ok" } : { status: "ready", routes: opts.routes.map((r) => r.runtime.name) });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
      return;
    }
    const admitted = admit(req);
    if (!("caller" in admitted)) {
      req.resume();
      return httpError(res, admitted.status, ErrorCode.ServerError, admitted.message, null, admitted.headers);
    }
    const exact = mounted.get(path);
    if (exact?.http) return void exact.http.handle(req, res, admitted.caller);
    const [under, suffix] = exact ? [exact, ""] : routeUnder(path, mounted);
    const base = `http://${req.headers.host ?? "localhost"}`;
    if (under?.extras.some((e) => e.handle?.(suffix, req, res, admitted.caller, base))) return;
    const target = path.startsWith("/.well-known/") ? wellKnownTarget(path, mounted) : undefined;
    if (target) {
      const suffix = path.slice("/.well-known/oauth-protected-resource".length);
      if (path.startsWith("/.well-known/oauth-protected-resource") && mounted.has(suffix)) resourceOf.set(req, `${base}${suffix}`);
      return void passthrough.web(req, res, { target, selfHandleResponse: true });
    }
    req.resume();
    httpError(res, 404, ErrorCode.ServerError, `Not Found: no route at ${path}`);
  });

  server.on("upgrade", (req, socket, head) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    const admitted = admit(req);
    if (!("caller" in admitted)) {
      socket.end(`HTTP/1.1 ${admitted.status} ${admitted.status === 401 ? "Unauthorized" : "Forbidden"}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [under, suffix] = routeUnder(path, mounted);
    if (under?.extras.some((e) => e.upgrade?.(suffix, req, socket, head, admitted.caller))) return;
    socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });

  return {
    server,
    sessionCount: () => [...mounted.values()].reduce((n, m) => n + (m.http?.sessionCount ?? 0), 0),
    async close() {
      await Promise.all([...mounted.values()].flatMap((m) => [m.http?.close(), ...m.extras.map((e) => e.close())]));
      passthrough.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}


/** The route a path lies under (the longest route path followed by "/"), and the rest of the path after it. */
function routeUnder(path: string, mounted: Map<string, Mounted>): [Mounted | undefined, string] {
  for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
    const m = mounted.get(path.slice(0, cut));
    if (m) return [m, path.slice(cut + 1)];
  }
  return [undefined, ""];
}

/**
 * `/.well-known/<doc>/<route path>` (RFC 9728 / RFC 8414 path insertion) → the upstream's own `/.well-known/<doc>/<its
 * path>`; `/.well-known/<doc>` alone → the upstream's, when exactly one route can have it.
 */
function wellKnownTarget(path: string, mounted: Map<string, Mounted>): string | undefined {
  const rest = path.slice("/.well-known/".length);
  const cut = rest.indexOf("/");
  const doc = cut === -1 ? rest : rest.slice(0, cut);
  const suffix = cut === -1 ? "" : rest.slice(cut);
  const candidates = [...mounted.values()].filter((m) => m.route.passthrough !== undefined);
  const m = suffix ? candidates.find((c) => c.route.path === suffix) : candidates.length === 1 ? candidates[0] : undefined;
  if (!m?.route.passthrough) return undefined;
  const up = new URL(m.route.passthrough);
  const upPath = up.pathname === "/" ? "" : up.pathname;
  return `${up.origin}/.well-known/${doc}${suffix ? upPath : ""}`;
}

function originAllowed(origin: string, host: string, allowed: readonly string[] | undefined, loopbackListen: boolean): boolean {
  if (allowed) return allowed.includes("*") || allowed.includes(origin);
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  // Same origin as the proxy itself, or a loopback page talking to a loopback proxy.
  return u.host === host || (loopbackListen && LOOPBACK.has(u.hostname));
}
