import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { ErrorCode } from "../protocol/json-rpc.js";
import type { ReplicaRegistry } from "./replicas.js";
import type { SessionTokens } from "./session-token.js";
import { httpError, readBody } from "../transports/downstream/http-util.js";

/** Marks a request one replica forwarded to another: it is never forwarded again. */
export const HOP_HEADER = "x-guardwire-hop";
/** A hop header older than this is refused (clocks of replicas agree within it). */
const HOP_MAX_AGE_S = 60;
/** Failures to connect: nothing listens where the replica was, so it is gone (with the sessions it held). */
const GONE = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT"]);
/** Hop-by-hop headers: they describe one connection, not the request. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", HOP_HEADER]);

/**
 * Requests for sessions that live in another replica (stdio, WebSocket and legacy-SSE upstreams, legacy-SSE agents, a
 * stream resumed with `Last-Event-ID`) go to that replica, found in the registry, and its answer comes back as it is
 * streamed (docs/scale.md). The hop carries a MAC under the session key, so no outsider can pass for a replica.
 */
export class SessionForwarder {
  constructor(
    private readonly tokens: SessionTokens,
    private readonly registry: ReplicaRegistry,
    private readonly maxBodyBytes: number,
  ) {}

  /** Owners of tokens seen lately: opening a token (about 30 µs) is done once per token, not per request. */
  private readonly owners = new Map<string, string | null>();
  /** A connection per forwarded request: a kept-alive one the other replica is closing could fail a request that was sent. */
  private readonly agents = { http: new Agent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

  /** True when the request is taken (forwarded, or refused); false: it is this replica's to answer. */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    const hop = req.headers[HOP_HEADER];
    if (hop !== undefined) {
      if (typeof hop === "string" && this.hopValid(hop, req)) return false;
      req.resume();
      httpError(res, 403, ErrorCode.ServerError, `Forbidden: the ${HOP_HEADER} header is for guardwire's replicas only`);
      return true;
    }
    const owner = this.ownerOf(req);
    if (owner === null || owner === this.registry.id) return false;
    void this.forward(owner, req, res);
    return true;
  }

  /** Sends a request whose body this replica already read to replica `owner`, and its answer back; false: one forwarded here already. */
  relay(owner: string, req: IncomingMessage, res: ServerResponse, body: string): boolean {
    if (req.headers[HOP_HEADER] !== undefined) return false;
    void this.forward(owner, req, res, body);
    return true;
  }

  /** The replica a request's session or stream lives in, when it names one. */
  private ownerOf(req: IncomingMessage): string | null {
    const last = req.headers["last-event-id"];
    if (req.method === "GET" && typeof last === "string" && last.includes("~")) return last.slice(0, last.indexOf("~"));
    const token = sessionTokenOf(req);
    if (token === null) return null;
    let owner = this.owners.get(token);
    if (owner === undefined) {
      owner = this.tokens.open(token)?.owner ?? null;
      if (this.owners.size >= 10_000) this.owners.clear();
      this.owners.set(token, owner);
    }
    return owner;
  }

  private async forward(owner: string, req: IncomingMessage, res: ServerResponse, read?: string): Promise<void> {
    let base: string | null;
    try {
      base = await this.registry.urlOf(owner);
    } catch (e) {
      req.resume();
      return httpError(res, 503, ErrorCode.GuardianUnavailable, `Service Unavailable: the replica holding this session (${owner}) cannot be looked up in Redis (${(e as Error).message}); retry shortly`, null, { "retry-after": "1" });
    }
    if (base === null) {
      req.resume();
      return gone(res, owner);
    }
    let body = read;
    if (body === undefined && req.method === "POST") {
      const b = await readBody(req, this.maxBodyBytes);
      if (!b.ok) return httpError(res, b.status, b.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, b.status === 413 ? "Payload Too Large" : "Parse error: the request body could not be read");
      body = b.text;
    } else if (body === undefined) {
      req.resume();
    }
    const headers: OutgoingHttpHeaders = withoutHopByHop(req.headers);
    headers[HOP_HEADER] = this.hopFor(req);
    if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
    const target = new URL(req.url ?? "/", base);
    const https = target.protocol === "https:";
    const out = (https ? httpsRequest : httpRequest)(target, { method: req.method, headers, agent: https ? this.agents.https : this.agents.http });
    out.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      res.flushHeaders();
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    out.on("error", (e: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy();
      if (!GONE.has(e.code ?? "")) {
        return httpError(res, 502, ErrorCode.UpstreamUnavailable, `Bad Gateway: the replica holding this session (${owner}) broke off the request (${e.code ?? e.message})`);
      }
      this.registry.forget(owner);
      gone(res, owner);
    });
    res.on("close", () => out.destroy());
    out.end(body);
  }

  private hopFor(req: IncomingMessage): string {
    const at = Math.floor(Date.now() / 1000);
    return `${at}.${this.tokens.hopMac(hopText(at, req))}`;
  }

  private hopValid(hop: string, req: IncomingMessage): boolean {
    const dot = hop.indexOf(".");
    const at = Number(hop.slice(0, dot));
    if (dot < 1 || !Number.isInteger(at) || Math.abs(Date.now() / 1000 - at) > HOP_MAX_AGE_S) return false;
    return this.tokens.hopValid(hopText(at, req), hop.slice(dot + 1));
  }
}

/** What a hop's MAC covers: when, the method, the target and the session or stream it is for. */
function hopText(at: number, req: IncomingMessage): string {
  const last = req.headers["last-event-id"];
  return `${at} ${req.method ?? ""} ${req.url ?? ""} ${sessionTokenOf(req) ?? ""} ${typeof last === "string" ? last : ""}`;
}

/** The session token a request names: `Mcp-Session-Id`, or legacy SSE's `?sessionId=`. */
function sessionTokenOf(req: IncomingMessage): string | null {
  const header = req.headers["mcp-session-id"];
  if (typeof header === "string") return header;
  const q = (req.url ?? "").indexOf("?");
  return q === -1 ? null : new URLSearchParams((req.url as string).slice(q + 1)).get("sessionId");
}

function withoutHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

function gone(res: ServerResponse, owner: string): void {
  httpError(res, 404, ErrorCode.SessionNotFound, `Session not found: the replica holding this session (${owner}) is gone; initialize a new session`);
}
