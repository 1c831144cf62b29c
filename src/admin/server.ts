import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hash, timingSafeEqual } from "node:crypto";
import { isLoopbackHost } from "../agent-keys.js";
import { GuardwireError, type AdminErrorCode } from "../errors.js";

export interface AdminOptions {
  /**
   * Every request must carry `Authorization: Bearer <token>` (routes marked `public` check their own credentials).
   * null: no token (a Unix socket, whose file permissions are the credential).
   */
  token: string | null;
  version: string;
  /** What the listener serves: each part of guardwire contributes its routes (approvals, events, sessions, …). */
  routes: AdminRoute[];
}

export const MAX_BODY = 64 * 1024;

/** The admin API's error codes (docs/approvals.md): stable, for scripts and the console. */
/** The admin API's error codes (src/errors.ts): all but the approval links' own. */
export type ApiError = Exclude<AdminErrorCode, "LINK_INVALID" | "LINK_EXPIRED" | "LINK_USED" | "APPROVAL_GONE">;

export interface AdminRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The JSON object body (at most MAX_BODY bytes); `{}` when empty. */
  body(): Promise<Record<string, unknown>>;
}

/** A JSON answer, or nothing when the route wrote the response itself (event streams, pages, metrics text). */
export type AdminAnswer = [number, unknown] | void;

export interface AdminRoute {
  method: "GET" | "POST" | "PUT" | "DELETE" | "HEAD";
  pattern: RegExp;
  /** Listed by `GET /api` (e.g. "GET /api/approvals/:id"); unlisted routes are still served. */
  doc?: string;
  /** No bearer token: the route authenticates the caller itself (signed links) or serves nothing secret (page assets). */
  public?: boolean;
  run(m: RegExpExecArray, r: AdminRequest): Promise<AdminAnswer> | AdminAnswer;
}

/**
 * The admin API: one HTTP listener apart from agent traffic, JSON in and out, a bearer token on every request but
 * those of public routes. The routes come from the parts of guardwire that have something to show or control.
 */
export function createAdminServer(opts: AdminOptions): Server {
  const expected = opts.token === null ? null : hash("sha256", opts.token, "buffer");
  const index: AdminRoute = { method: "GET", pattern: /^\/api$/, run: () => [200, { version: opts.version, endpoints: opts.routes.flatMap((r) => (r.doc ? [r.doc] : [])) }] };
  const routes = [index, ...opts.routes];

  return createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      const [status, body] = e instanceof BodyError ? fail(e.status, e.code, e.message) : fail(400, "BAD_REQUEST", (e as Error).message);
      send(res, status, body);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://admin");
    const matching = routes.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m);
    const hit = matching.find((x) => x.r.method === req.method || (req.method === "HEAD" && x.r.method === "GET"));
    if (expected && !hit?.r.public) {
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!given || !timingSafeEqual(hash("sha256", given, "buffer"), expected)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="guardwire-admin"');
        return send(res, ...fail(401, "UNAUTHORIZED", "a valid bearer token is required"));
      }
      const refused = crossSite(req);
      if (refused) return send(res, ...fail(403, "FORBIDDEN", refused));
    }
    if (!hit?.m) {
      if (matching.length > 0) return send(res, ...fail(405, "METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${url.pathname}`));
      return send(res, ...fail(404, "NOT_FOUND", `no such endpoint: ${url.pathname}`));
    }
    const answer = await hit.r.run(hit.m, { req, res, url, body: () => readJson(req) });
    if (answer) send(res, answer[0], answer[1]);
  }
}

/**
 * Defence in depth for browsers on the token's routes (the bearer token alone already stops cross-site requests, as a
 * page elsewhere cannot read it; public routes guard themselves): a request that says where it comes from must come
 * from a page of this listener (its host; the scheme may differ behind a TLS proxy), and a browser's change (anything
 * but GET/HEAD) must be JSON, which no plain form or image can send.
 */
function crossSite(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (hostOf(origin) !== req.headers.host) return `requests from ${origin} are not accepted (only the console served here)`;
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) return "a browser request that changes something must be sent as application/json";
  return undefined;
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** A non-loopback admin listener without a token is refused: approving agent actions must not be open to the network. */
export function checkAdminListen(host: string, token: string | undefined): void {
  if (!token && !isLoopbackHost(host)) {
    throw new GuardwireError("CONFIG_INVALID", `the admin API on ${host} is not loopback: give it a token (wrap --admin-token, admin.token in the serve config, or GUARDWIRE_ADMIN_TOKEN)`);
  }
}


export type AdminListen = { host: string; port: number } | { socket: string };

/** `127.0.0.1:7070`, `[::1]:7070`, `7070` (loopback) or `unix:/path/admin.sock`. */
export function parseListen(spec: string): AdminListen {
  if (spec.startsWith("unix:")) {
    const socket = spec.slice("unix:".length);
    if (!socket.startsWith("/")) throw new GuardwireError("USAGE", `admin listen address "${spec}" needs an absolute socket path (unix:/path/admin.sock)`);
    return { socket };
  }
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(spec);
  const port = Number(m?.[2]);
  if (!m || port > 65535) throw new GuardwireError("USAGE", `admin listen address "${spec}" is not HOST:PORT (e.g. 127.0.0.1:7070)`);
  return { host: (m[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiError,
    message: string,
  ) {
    super(message);
  }
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY) throw new BodyError(413, "TOO_LARGE", `body over ${MAX_BODY} bytes`);
    chunks.push(c);
  }
  if (size === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BodyError(400, "BAD_REQUEST", "body is not JSON");
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new BodyError(400, "BAD_REQUEST", "body must be a JSON object");
  return v as Record<string, unknown>;
}

export function fail(status: number, code: ApiError, message: string): [number, unknown] {
  return [status, { error: { code, message } }];
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
