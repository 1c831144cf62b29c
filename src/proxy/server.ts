import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { AgentKeys, isLoopbackHost, presentedKey } from "../agent-keys.js";
import { FRONT_DEFAULTS } from "../defaults.js";
import { ErrorCode } from "../protocol/json-rpc.js";
import { httpError, meterBody, meterFrames, socketError } from "../transports/downstream/http-util.js";
import { StreamableHttpEndpoint, type HttpCaller, type SessionContinuity } from "../transports/downstream/streamable-http.js";
import type { Connect } from "../transports/types.js";
import { ByteBudget, ConnectionCount, RefusalLog } from "./front-limits.js";
import { liveness, readiness, type HealthAnswer, type HealthSource } from "./health.js";
import { openLink, type RouteRuntime } from "./link.js";
import type { DecisionSink } from "./pipeline.js";
import { passWellKnown, wellKnownTarget, type WellKnownRoute } from "./well-known.js";
import type { ReasonCode } from "../reasons.js";

export interface ServedRoute {
  path: string;
  runtime: RouteRuntime;
  /** An HTTP upstream's URL: its OAuth metadata documents under `/.well-known/` are passed through. */
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
  /** Where refusals made before the guardian are logged (kind `refused`, rate-limited); none: not logged. */
  log?: DecisionSink;
  /** Timeouts and caps of the HTTP front; see FRONT_DEFAULTS and docs/serve.md. */
  front?: Partial<FrontLimits>;
  /** What /healthz and /readyz report (replica, rules, store); none: bare answers. */
  health?: HealthSource;
  /** Sealed session ids per route (src/proxy/continuity.ts); none: random ids, sessions stay in this process. */
  continuity?: (route: ServedRoute) => SessionContinuity;
  /** Takes requests for sessions that live in another replica (src/proxy/forward.ts); true: taken. */
  forward?: { take(req: IncomingMessage, res: ServerResponse): boolean };
}

export interface FrontLimits {
  /** Memory for request bodies in flight across the process, each byte counted BODY_COST times; past it: 503. */
  bodyBudgetBytes: number;
  /** The whole header block must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (never the response: streams are not cut). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection that sends nothing for this long while its request is still arriving is closed. */
  idleTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
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

/**
 * What one request-body byte costs while its message is in flight: the bytes, their text, the parsed message, its
 * canonical form for the digest and the bytes sent upstream (bench/serve.mjs measured about 3.5 ×). The byte budget
 * counts each body byte this many times, so the budget bounds the memory, not only the bytes.
 */
export const BODY_COST = 4;


/**
 * `guardwire serve`'s HTTP front: paths any parser could read otherwise refused first, health probes, DNS-rebinding
 * protection (Host and Origin), agent keys, then each route's downstream transports, and the OAuth metadata documents
 * of HTTP upstreams (read with GET or HEAD, fetched from a URL built here).
 */
export function createGuardServer(opts: ProxyServerOptions): ProxyServer {
  const mounted = new Map<string, Mounted>();
  for (const route of opts.routes) {
    const connect: Connect = (downstream, who, upstream) => openLink(route.runtime, downstream, who, upstream);
    mounted.set(route.path, {
      route,
      http: route.runtime.protocol === "a2a" ? null : new StreamableHttpEndpoint({ connect, maxBodyBytes: opts.maxBodyBytes, idleMs: opts.idleMs, maxSessions: opts.maxSessions, replayChars: opts.replayChars, stateless: route.runtime.stateless === true, continuity: opts.continuity?.(route) }),
      extras: opts.extras?.(connect, route) ?? [],
    });
  }
  const keys = new AgentKeys(opts.agents);
  const loopbackListen = isLoopbackHost(opts.host);
  const wellKnown: WellKnownRoute[] = opts.routes.flatMap((r) => (r.passthrough ? [{ path: r.path, upstream: r.passthrough }] : []));

  const limits = { ...FRONT_DEFAULTS, ...opts.front };
  const budget = new ByteBudget(limits.bodyBudgetBytes);
  const connections = new ConnectionCount(limits.maxConnections, limits.maxConnectionsPerAddress);
  const refusals = new RefusalLog(opts.log);

  /** Host and Origin checks (DNS rebinding), then the agent's key: the caller, or the refusal to answer with. */
  const admit = (req: IncomingMessage): { caller: HttpCaller } | Refused => {
    const host = (req.headers.host ?? "").toLowerCase();
    // URLs are built on the Host (metadata, agent cards, push endpoints): one that is not host[:port] is refused here.
    if (host !== "" && !wellFormedHost(host)) return { status: 400, reason: "HOST_MALFORMED", message: `Bad Request: the Host header is not a host[:port]` };
    const hostname = host.replace(/:\d+$/, "");
    const hostOk = opts.allowedHosts ? opts.allowedHosts.some((h) => h.toLowerCase() === host || h.toLowerCase() === hostname) : !loopbackListen || isLoopbackHost(hostname);
    if (!hostOk) return { status: 403, reason: "HOST_NOT_ALLOWED", message: `Forbidden: Host ${host || "(none)"} is not allowed` };
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, host, opts.allowedOrigins, loopbackListen)) {
      return { status: 403, reason: "ORIGIN_NOT_ALLOWED", message: `Forbidden: Origin ${origin} is not allowed` };
    }
    const forward: Record<string, string> = {};
    const auth = req.headers.authorization;
    if (keys.size === 0) {
      if (auth) forward.authorization = auth;
      return { caller: { agent: null, forward } };
    }
    const presented = presentedKey(req.headers);
    const agent = presented.key === undefined ? null : keys.match(presented.key);
    if (!agent) {
      const message = `Unauthorized: ${presented.key === undefined ? "an agent key is required" : "the agent key is not valid"}`;
      return { status: 401, reason: "UNAUTHORIZED", message, headers: { "www-authenticate": 'Bearer realm="guardwire"' } };
    }
    // The agent's own Authorization goes on to the server unless it carried the guardwire key.
    if (auth && presented.viaHeader) forward.authorization = auth;
    return { caller: { agent: { id: agent }, forward } };
  };

  /** Logs a refusal, rate-limited, with the route its path names and the caller's address. */
  const note = (req: IncomingMessage, r: Refused, agent: string | null, transport: "http" | "websocket") => {
    const path = pathOf(req);
    const m = mounted.get(path) ?? routeUnder(path, mounted)[0];
    const route = m ? { name: m.route.runtime.name, protocol: m.route.runtime.protocol ?? ("mcp" as const) } : null;
    refusals.note({ reason: r.reason, message: printable(`${req.method ?? "?"} ${path}: ${r.message}`), peer: addressOf(req.socket), route, agent, transport });
  };

  /**
   * Logs a refusal (rate-limited) and answers it. A body declared within the size limit is drained unread first, so
   * the caller gets its answer whole and the connection stays usable; any other (oversized, chunked, endless) is never
   * read on: it is answered at once and the connection closes.
   */
  const refuse = (req: IncomingMessage, answer: ServerResponse | Duplex, r: Refused, agent: string | null = null) => {
    note(req, r, agent, "writeHead" in answer ? "http" : "websocket");
    if (!("writeHead" in answer)) return socketError(answer, r.status, ErrorCode.ServerError, r.message, { ...r.headers, connection: "close" });
    req.resume();
    const declared = Number(req.headers["content-length"] ?? 0);
    if (req.headers["transfer-encoding"] !== undefined || declared > opts.maxBodyBytes) {
      return httpError(answer, r.status, ErrorCode.ServerError, r.message, null, { ...r.headers, connection: "close" });
    }
    // Answered once the body is in (bounded by the request timeout): answered while the caller still sends, the
    // connection would close under it (Node closes after the answer when the caller asked for `Connection: close`).
    const send = () => httpError(answer, r.status, ErrorCode.ServerError, r.message, null, r.headers);
    if (req.readableEnded) send();
    else req.once("end", send);
  };

  /**
   * The body's bytes against the size limit and the process-wide budget, as declared (Content-Length, reserved at
   * once) and as they arrive (chunked); refused at the first byte past either. Held until the exchange ends. Each
   * byte counts BODY_COST times: what a body costs while it is read, parsed, hashed and forwarded.
   */
  const gateBody = (req: IncomingMessage, res: ServerResponse, agent: string | null): boolean => {
    const declared = Number(req.headers["content-length"] ?? 0) || 0;
    const tooLarge = (bytes: number): Refused => ({ status: 413, reason: "BODY_TOO_LARGE", message: `Payload Too Large: ${bytes} bytes exceeds the ${opts.maxBodyBytes}-byte limit` });
    const refused = declared > opts.maxBodyBytes ? tooLarge(declared) : !budget.reserve(declared * BODY_COST) ? OVER_BUDGET : null;
    if (refused) {
      refuse(req, res, refused, agent);
      return false;
    }
    let held = declared;
    let seen = 0;
    res.once("close", () => budget.release(held * BODY_COST));
    meterBody(req, (bytes) => {
      seen += bytes;
      const over = seen > opts.maxBodyBytes ? tooLarge(seen) : seen > held && !budget.reserve((seen - held) * BODY_COST) ? OVER_BUDGET : null;
      if (over) {
        refuse(req, res, over, agent);
        return over.status as 413 | 503;
      }
      held = Math.max(held, seen);
      return null;
    });
    return true;
  };

  /** Requests being answered, by connection: a connection idle while its answer is on the way is not cut. */
  const answering = new WeakMap<Socket, IncomingMessage>();

  const server = createServer({ headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.headersTimeoutMs / 4)) }, (req, res) => {
    answering.set(req.socket, req);
    res.once("close", () => answering.get(req.socket) === req && answering.delete(req.socket));
    const path = pathOf(req);
    const refused = pathProblem(path);
    if (refused) return refuse(req, res, { status: 400, reason: "PATH_REFUSED", message: `Bad Request: ${refused}` });
    if (path === "/healthz" || path === "/readyz") {
      req.resume();
      const routes = opts.routes.map((r) => r.runtime.name);
      const answer: HealthAnswer = !opts.health ? { status: 200, body: path === "/healthz" ? { status: "ok" } : { status: "ready", routes } } : path === "/healthz" ? liveness(opts.health) : readiness(opts.health, routes);
      const body = JSON.stringify(answer.body);
      res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" }).end(body);
      return;
    }
    const admitted = admit(req);
    if (!("caller" in admitted)) return refuse(req, res, admitted);
    if (!gateBody(req, res, admitted.caller.agent?.id ?? null)) return;
    if (opts.forward?.take(req, res)) return;
    const exact = mounted.get(path);
    if (exact?.http) return void exact.http.handle(req, res, admitted.caller);
    const [under, suffix] = exact ? [exact, ""] : routeUnder(path, mounted);
    const base = `http://${req.headers.host ?? "localhost"}`;
    if (under?.extras.some((e) => e.handle?.(suffix, req, res, admitted.caller, base))) return;
    const target = path.startsWith("/.well-known/") ? wellKnownTarget(path, wellKnown) : undefined;
    if (target) {
      req.resume();
      if (req.method === "GET" || req.method === "HEAD") return void passWellKnown(req.method, target, base, res);
      return httpError(res, 405, ErrorCode.ServerError, "Method Not Allowed: metadata documents are read with GET", null, { allow: "GET, HEAD" });
    }
    req.resume();
    httpError(res, 404, ErrorCode.ServerError, `Not Found: no route at ${path}`);
  });
  // What Node's HTTP parser refuses before any request exists (a headers or request timeout, bytes that are not HTTP,
  // headers too large): answered as Node would, and logged as refused like every other refusal of the front.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that hung up mid-request (reset, or end of stream inside a body) refused nothing: it left.
    if (err.code === "ECONNRESET" || err.code === "HPE_INVALID_EOF_STATE" || !socket.writable) return void socket.destroy();
    const status = err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const reason = status === 408 ? "REQUEST_TIMEOUT" : status === 431 ? "HEADERS_TOO_LARGE" : "HTTP_PARSE_ERROR";
    refusals.note({ reason, message: `${status} ${STATUS_CODES[status]}: ${err.code ?? err.message}`, peer: addressOf(socket as Socket), route: null, agent: null, transport: "http" });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.timeout = limits.idleTimeoutMs;
  server.on("timeout", (socket: Socket) => {
    if (!answering.get(socket)?.complete) socket.destroy();
  });

  // Node's own connection listener attaches the HTTP parser: only connections within the caps get one. One past a
  // cap is answered 503 at once and closed, without reading a byte of it.
  const parse = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    const peer = addressOf(socket);
    const counted = connections.open(peer);
    if ("refused" in counted) {
      socket.on("error", () => {});
      refusals.note({ reason: "TOO_MANY_CONNECTIONS", message: `connection refused: ${counted.refused}`, peer, route: null, agent: null, transport: "http" });
      socketError(socket, 503, ErrorCode.ServerError, `Service Unavailable: ${counted.refused}`, { "retry-after": "1", connection: "close" });
      socket.resume();
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    socket.once("close", counted.release);
    for (const l of parse) l.call(server, socket);
  });

  server.on("upgrade", (req, socket: Socket, head) => {
    // An upgraded connection (a WebSocket session) lives as long as its session; the front's idle timeout is for requests.
    socket.setTimeout(0);
    const path = pathOf(req);
    const refused = pathProblem(path);
    if (refused) return refuse(req, socket, { status: 400, reason: "PATH_REFUSED", message: `Bad Request: ${refused}` });
    const admitted = admit(req);
    if (!("caller" in admitted)) return refuse(req, socket, admitted);
    const [under, suffix] = routeUnder(path, mounted);
    let held = 0;
    meterFrames(req, {
      take: (bytes) => {
        if (!budget.reserve(bytes * BODY_COST)) {
          note(req, OVER_BUDGET, admitted.caller.agent?.id ?? null, "websocket");
          return false;
        }
        held += bytes;
        return true;
      },
      settle: () => {
        budget.release(held * BODY_COST);
        held = 0;
      },
    });
    socket.once("close", () => budget.release(held * BODY_COST));
    if (under?.extras.some((e) => e.upgrade?.(suffix, req, socket, head, admitted.caller))) return;
    socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });

  return {
    server,
    sessionCount: () => [...mounted.values()].reduce((n, m) => n + (m.http?.sessionCount ?? 0), 0),
    async close() {
      await Promise.all([...mounted.values()].flatMap((m) => [m.http?.close(), ...m.extras.map((e) => e.close())]));
      refusals.flush();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}


/** A refusal made before the guardian: its status, the reason code logged with it, and the message the caller gets. */
interface Refused {
  status: number;
  reason: ReasonCode;
  message: string;
  headers?: Record<string, string>;
}

const OVER_BUDGET: Refused = { status: 503, reason: "OVER_BUDGET", message: "Service Unavailable: too many request bytes in flight, try again shortly", headers: { "retry-after": "1" } };

/** The caller's address, IPv4 callers on a dual-stack listener named as IPv4. */
function addressOf(socket: Socket): string {
  const a = socket.remoteAddress ?? "unknown";
  return a.startsWith("::ffff:") ? a.slice(7) : a;
}

/** Text from a caller as a log line may carry it (tail prints it to a terminal): at most 300 characters, nothing unprintable. */
function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** The route a path lies under (the longest route path followed by "/"), and the rest of the path after it. */
function routeUnder(path: string, mounted: Map<string, Mounted>): [Mounted | undefined, string] {
  for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
    const m = mounted.get(path.slice(0, cut));
    if (m) return [m, path.slice(cut + 1)];
  }
  return [undefined, ""];
}

/** The request's path: its target up to the query, exactly as sent (never decoded or normalised). */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Why a path is refused before any routing, or null. Refused: whatever a parser further on (a URL class, a library, the
 * upstream's router) could read as another path than the one routed here — dot segments, encoded dots, slashes or
 * backslashes, backslashes, empty segments — and any target that is not a plain path.
 */
export function pathProblem(path: string): string | null {
  if (!path.startsWith("/")) return "the request target must be a path";
  if (/%(2e|2f|5c)/i.test(path)) return "the path holds an encoded dot, slash or backslash";
  if (path.includes("\\")) return "the path holds a backslash";
  if (path.includes("//")) return "the path holds an empty segment (//)";
  // Every segment follows a "/" (the path starts with one): a "." or ".." segment, without splitting the path.
  if (/\/\.\.?(\/|$)/.test(path)) return "the path holds a dot segment";
  return null;
}

/**
 * `host[:port]`: a registered name or IPv4 address, or a bracketed IPv6 address, that a URL can be built on as is.
 * Clients send the same Host on every request: the answers for the last few hundred are kept (building a URL to
 * check one costs more than the rest of admission).
 */
function wellFormedHost(host: string): boolean {
  let ok = hostsSeen.get(host);
  if (ok !== undefined) return ok;
  ok = /^(?:[a-z0-9._~-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(host);
  if (ok) {
    try {
      new URL(`http://${host}/`);
    } catch {
      ok = false;
    }
  }
  if (host.length > 255) return ok;
  if (hostsSeen.size >= 256) hostsSeen.clear();
  hostsSeen.set(host, ok);
  return ok;
}
const hostsSeen = new Map<string, boolean>();

function originAllowed(origin: string, host: string, allowed: readonly string[] | undefined, loopbackListen: boolean): boolean {
  if (allowed) return allowed.includes("*") || allowed.includes(origin);
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  // Same origin as the proxy itself, or a loopback page talking to a loopback proxy.
  return u.host === host || (loopbackListen && isLoopbackHost(u.hostname));
}
