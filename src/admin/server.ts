import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { ApprovalBroker, ApprovalOutcome, HeldApproval } from "../approvals/broker.js";
import { isScope } from "../approvals/broker.js";
import { GuardwireError } from "../errors.js";

export interface AdminOptions {
  broker: ApprovalBroker;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token: string;
  version: string;
}

const MAX_BODY = 64 * 1024;
/** Live event streams open at once; past this a new one is refused with 503. */
const MAX_STREAMS = 32;

/** The admin API's error codes (docs/approvals.md): stable, for scripts and the console. */
type ApiError = "UNAUTHORIZED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "BAD_REQUEST" | "BAD_SCOPE" | "TOO_LARGE" | "TOO_MANY_STREAMS";

/**
 * The admin API: one HTTP listener apart from agent traffic, JSON in and out, a bearer token on every request.
 * Routes are a table so sessions, a live decision stream and rules can be added beside approvals.
 */
export function createAdminServer(opts: AdminOptions): Server {
  const expected = hash("sha256", opts.token, "buffer");
  opts.broker.channels.add("admin");
  let streams = 0;
  const routes: { method: string; pattern: RegExp; run: (m: RegExpExecArray, body: () => Promise<Record<string, unknown>>) => Promise<[number, unknown]> | [number, unknown] }[] = [
    { method: "GET", pattern: /^\/api$/, run: () => [200, { version: opts.version, endpoints: ["GET /api/events", "GET /api/approvals", "GET /api/approvals/:id", "POST /api/approvals/:id/approve", "POST /api/approvals/:id/deny"] }] },
    { method: "GET", pattern: /^\/api\/approvals$/, run: () => [200, { approvals: opts.broker.list() }] },
    {
      method: "GET",
      pattern: /^\/api\/approvals\/([\w-]+)$/,
      run: (m) => {
        const a = opts.broker.get(m[1] as string);
        return a ? [200, { approval: a }] : fail(404, "NOT_FOUND", `no held approval ${m[1]}`);
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/approvals\/([\w-]+)\/(approve|deny)$/,
      run: async (m, body) => {
        const b = await body();
        const reason = b.reason;
        const by = b.by;
        if (reason !== undefined && (typeof reason !== "string" || reason.length > 500)) return fail(400, "BAD_REQUEST", "reason must be a string of at most 500 characters");
        if (by !== undefined && (typeof by !== "string" || by.length > 100)) return fail(400, "BAD_REQUEST", "by must be a string of at most 100 characters");
        if (b.remember !== undefined && !isScope(b.remember)) return fail(400, "BAD_REQUEST", "remember must be once, session or always");
        const channel = b.channel === "cli" ? "cli" : "api";
        const approve = m[2] === "approve";
        const r = opts.broker.decide(m[1] as string, { approve, channel, by, reason, remember: approve && isScope(b.remember) ? b.remember : undefined });
        if (!r.ok) return fail(r.code === "NOT_FOUND" ? 404 : 400, r.code, r.message);
        return [200, { approval: r.approval, decision: approve ? "approved" : "refused" }];
      },
    },
  ];

  return createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      const [status, body] = e instanceof BodyError ? fail(e.status, e.code, e.message) : fail(400, "BAD_REQUEST", (e as Error).message);
      send(res, status, body);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = req.headers.authorization ?? "";
    const given = /^Bearer (.+)$/.exec(auth)?.[1];
    if (!given || !timingSafeEqual(hash("sha256", given, "buffer"), expected)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="guardwire-admin"');
      return send(res, ...fail(401, "UNAUTHORIZED", "a valid bearer token is required"));
    }
    const path = new URL(req.url ?? "/", "http://admin").pathname;
    if (path === "/api/events" && req.method === "GET") return events(res);
    const matching = routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
    const hit = matching.find((x) => x.r.method === req.method);
    if (!hit?.m) {
      if (matching.length > 0) return send(res, ...fail(405, "METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${path}`));
      return send(res, ...fail(404, "NOT_FOUND", `no such endpoint: ${path}`));
    }
    const [status, body] = await hit.r.run(hit.m, () => readJson(req));
    send(res, status, body);
  }

  /** Server-sent events: `approval.requested` and `approval.decided`, as they happen (what a console follows). */
  function events(res: ServerResponse): void {
    if (streams >= MAX_STREAMS) return send(res, ...fail(503, "TOO_MANY_STREAMS", `at most ${MAX_STREAMS} event streams at once`));
    streams++;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    res.write(": guardwire admin events\n\n");
    const emit = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const requested = (approval: HeldApproval) => emit("approval.requested", { approval });
    const decided = (approval: HeldApproval, outcome: ApprovalOutcome) => emit("approval.decided", { approval, outcome });
    opts.broker.on("requested", requested);
    opts.broker.on("decided", decided);
    res.once("close", () => {
      streams--;
      opts.broker.off("requested", requested);
      opts.broker.off("decided", decided);
    });
  }
}

/** A non-loopback admin listener without a token is refused: approving agent actions must not be open to the network. */
export function checkAdminListen(host: string, token: string | undefined): void {
  if (!token && !isLoopback(host)) {
    throw new GuardwireError("CONFIG_INVALID", `the admin API on ${host} is not loopback: give it a token (wrap --admin-token, admin.token in the serve config, or GUARDWIRE_ADMIN_TOKEN)`);
  }
}

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "[::1]";
}

/** `127.0.0.1:7070`, `[::1]:7070` or `7070` (loopback). */
export function parseListen(spec: string): { host: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(spec);
  const port = Number(m?.[2]);
  if (!m || port > 65535) throw new GuardwireError("USAGE", `admin listen address "${spec}" is not HOST:PORT (e.g. 127.0.0.1:7070)`);
  return { host: (m[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiError,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
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

function fail(status: number, code: ApiError, message: string): [number, unknown] {
  return [status, { error: { code, message } }];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
