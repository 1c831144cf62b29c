import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { request } from "undici";
import { A2A_PUSH_METHOD, A2A_STREAMING_METHODS, a2aOperation, mapPushUrls, restCallOf, rewriteAgentCard, type RestCall } from "../../protocol/a2a.js";
import type { PushRelay, PushTarget } from "../a2a-push.js";
import { classify, ErrorCode, idKey } from "../../protocol/json-rpc.js";
import { DEFAULT_MAX_DEPTH } from "../../defaults.js";
import { parseJson } from "../../protocol/safe-json.js";
import { sseEventParts } from "../../protocol/sse.js";
import type { Connect, Connection, Downstream, HttpCarry, SendInfo, UpstreamFactory } from "../types.js";
import { eventWriter, httpError, readBody, SSE_HEADERS, traceHeadersOf } from "./http-util.js";
import { callerName, type HttpCaller } from "./streamable-http.js";
import { inTurn } from "../../turn.js";

export interface A2aEndpointOptions {
  connect: Connect;
  maxBodyBytes: number;
  /** The guarded card fetch: an upstream answering `agent/card` with the card as served at `proxyUrl`. */
  cardUpstream(proxyUrl: string): UpstreamFactory;
  /** Pass the caller's Authorization to the remote agent. */
  passAuthorization: boolean;
  /** Push callbacks registered through this route: the agent's webhook posts arrive at `<route>/push/<id>`. */
  push?: PushRelay;
  /** The agent's HTTP+JSON binding, for calls to `<route>/rest/…`. */
  restUpstream?: UpstreamFactory;
}

/** The caller's REST call as one JSON-RPC request: the body as params, or the path and query parameters. */
function restMessage(call: RestCall, url: URL, body: unknown): Record<string, unknown> {
  const params = body !== undefined ? body : { ...call.pathParams, ...Object.fromEntries(url.searchParams) };
  return { jsonrpc: "2.0", id: 1, method: call.method, params };
}

/**
 * A2A has no session, but the guardian's flow rules and limits need one: every call of one caller (its key's id, or
 * its address on a route without keys) is judged in the same guardian session, `a2a:<caller>` in the log. Each call
 * still has a guarded exchange of its own (callers' request ids may repeat).
 */
function guardianSession(req: IncomingMessage, caller: HttpCaller): string {
  return `a2a:${callerName(req, caller)}`;
}

/** Headers an agent may carry its push token in (0.3 SDKs use the first). */
const PUSH_TOKEN_HEADERS = ["x-a2a-notification-token", "authorization"];

/** Request headers A2A defines, carried to the remote agent. */
const CARRIED = ["a2a-version", "a2a-extensions", "x-a2a-extensions"];

/**
 * A2A's JSON-RPC binding toward the caller, at `<route>/`: the agent card at `<route>/.well-known/agent-card.json` (and
 * `agent.json`) with every URL leading back here, and one guarded exchange per POST — a JSON answer, or for
 * `message/stream`, `SendStreamingMessage` and the resubscribe methods, an SSE stream whose every event was judged.
 */
export function a2aEndpoint(opts: A2aEndpointOptions) {
  const open = new Set<Connection>();
  /**
   * URLs joined from the route's path and the request's Host (`base`): the same few on every call, so each is built
   * once (a URL parse per call is a measurable share of a short exchange). Bounded: Host is the caller's to choose.
   */
  const joined = new Map<string, string>();
  const urlOf = (path: string, base: string): string => {
    const k = `${base} ${path}`;
    let url = joined.get(k);
    if (url === undefined) {
      url = new URL(path, base).href;
      if (joined.size >= 256) joined.clear();
      joined.set(k, url);
    }
    return url;
  };

  const card = (req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string, routeUrl: string) => {
    const ex = new A2aExchange(res, "card", false);
    const c = opts.connect(ex, { transport: "a2a-jsonrpc", agent: caller.agent, sessionId: guardianSession(req, caller) }, opts.cardUpstream(urlOf(routeUrl, base)));
    ex.connection = c;
    c.receive({ text: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "agent/card" }) });
  };

  const post = async (req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string, routeUrl: string) => {
    if (!(req.headers["content-type"] ?? "").toLowerCase().match(/^application\/(a2a\+)?json/)) {
      req.resume();
      return httpError(res, 415, ErrorCode.InvalidRequest, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = await readBody(req, opts.maxBodyBytes);
    if (!body.ok) return httpError(res, body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.status === 413 ? "Payload Too Large" : "Parse error");
    const parsed = parseJson(body.text, { maxDepth: DEFAULT_MAX_DEPTH });
    if (!parsed.ok) return httpError(res, 400, parsed.code === "TOO_DEEP" ? ErrorCode.InvalidRequest : ErrorCode.ParseError, parsed.code === "TOO_DEEP" ? `Invalid Request: ${parsed.detail}` : "Parse error", parsed.id);
    const c = classify(parsed.value);
    if (!c.ok || c.kind !== "request") {
      // A2A callers only send requests, one per POST.
      return httpError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${c.ok ? "A2A takes one request per call" : c.reason}`, c.id);
    }
    const op = a2aOperation(c.method ?? null);
    const ex = new A2aExchange(res, idKey(c.id as string | number), A2A_STREAMING_METHODS.has(c.method ?? ""), op === "card" ? urlOf(routeUrl, base) : null, op === "push-config" ? (opts.push ?? null) : null);
    const session = guardianSession(req, caller);
    const conn = opts.connect(ex, { transport: "a2a-jsonrpc", agent: caller.agent, sessionId: session });
    ex.connection = conn;
    open.add(conn);
    res.on("close", () => {
      open.delete(conn);
      if (!ex.finished) conn.upstream.abandon?.(ex.key);
      void conn.close();
    });
    const carry = carryOf(req, caller, opts.passAuthorization);
    if (opts.push) {
      carry.pushBase = urlOf(`${routeUrl}push/`, base);
      carry.pushSession = session;
    }
    // One turn (turn.ts): judged, committed and sent on before this returns.
    inTurn(() => conn.receive({ text: body.text, value: parsed.value, carry }));
  };

  /** A call on the HTTP+JSON binding (`<route>/rest/v1/message:send`, `<route>/rest/tasks/{id}`, …): judged the same. */
  const rest = async (restPath: string, req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string, routeUrl: string) => {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", base);
    const call = restCallOf(method, restPath);
    let body: unknown;
    if (method === "POST" || method === "PUT" || method === "PATCH") {
      const read = await readBody(req, opts.maxBodyBytes);
      if (!read.ok) return httpError(res, read.status, ErrorCode.InvalidRequest, read.status === 413 ? "Payload Too Large" : "Bad Request");
      const parsed = read.text.trim() === "" ? { ok: true as const, value: {} } : parseJson(read.text, { maxDepth: DEFAULT_MAX_DEPTH });
      if (!parsed.ok) return httpError(res, 400, ErrorCode.ParseError, "Parse error: the body is not JSON");
      body = parsed.value;
    } else {
      req.resume();
    }
    const message = restMessage(call, url, body);
    const op = a2aOperation(call.method);
    const ex = new A2aExchange(res, "n:1", call.streaming, op === "card" ? urlOf(routeUrl, base) : null, op === "push-config" ? (opts.push ?? null) : null, true);
    const conn = opts.connect(ex, { transport: "a2a-rest", agent: caller.agent, sessionId: guardianSession(req, caller) }, opts.restUpstream);
    ex.connection = conn;
    open.add(conn);
    res.on("close", () => {
      open.delete(conn);
      if (!ex.finished) conn.upstream.abandon?.(ex.key);
      void conn.close();
    });
    const carry = carryOf(req, caller, opts.passAuthorization);
    carry.rest = { method, path: restPath, query: url.search };
    if (opts.push) {
      carry.pushBase = urlOf(`${routeUrl}push/`, base);
      carry.pushSession = guardianSession(req, caller);
    }
    inTurn(() => conn.receive({ text: JSON.stringify(message), value: message, carry }));
  };

  /**
   * The agent's webhook post for a callback registered through this route: judged as an inbound `tasks/pushNotification`
   * and, if allowed (or modified), relayed to the caller's own URL with its token. A denied post is dropped (logged).
   */
  const webhook = async (id: string, req: IncomingMessage, res: ServerResponse) => {
    const target = opts.push?.target(id);
    if (!target) {
      req.resume();
      return httpError(res, 404, ErrorCode.ServerError, "Not Found: no such push callback");
    }
    if (!presentsCredentials(req, target)) {
      req.resume();
      return httpError(res, 401, ErrorCode.ServerError, "Unauthorized: wrong or missing notification token");
    }
    const body = await readBody(req, opts.maxBodyBytes);
    if (!body.ok) return httpError(res, body.status, ErrorCode.InvalidRequest, body.status === 413 ? "Payload Too Large" : "Bad Request");
    const parsed = parseJson(body.text, { maxDepth: DEFAULT_MAX_DEPTH });
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== "object") return httpError(res, 400, ErrorCode.ParseError, "Parse error: a notification is a JSON object");
    res.writeHead(202).end();
    const type = (req.headers["content-type"] ?? "").toLowerCase().startsWith("application/a2a+json") ? "application/a2a+json" : "application/json";
    const relay = new WebhookRelay(target, type);
    const text = JSON.stringify({ jsonrpc: "2.0", method: A2A_PUSH_METHOD, params: parsed.value });
    // Judged in the session of the caller that registered the callback: what a post brings in counts for its flow rules.
    relay.connection = opts.connect(relay, { transport: "a2a-push", agent: null, sessionId: target.session ?? `push-${id.slice(0, 8)}` }, (sink) => {
      queueMicrotask(() => sink.frame({ text }));
      return { send: () => {}, close: async () => {} };
    });
    // A denied post is never relayed: the session is done once the post was judged either way.
    setTimeout(() => void relay.connection.close(), 5000).unref();
  };

  return {
    handle(suffix: string, req: IncomingMessage, res: ServerResponse, caller: HttpCaller, base: string): boolean {
      const path = (req.url ?? "/").split("?")[0] as string;
      const routeUrl = path.slice(0, path.length - suffix.length).replace(/\/?$/, "/");
      if (req.method === "GET" && (suffix === ".well-known/agent-card.json" || suffix === ".well-known/agent.json")) card(req, res, caller, base, routeUrl);
      else if (req.method === "POST" && suffix === "") void post(req, res, caller, base, routeUrl);
      else if (req.method === "POST" && suffix.startsWith("push/")) void webhook(suffix.slice(5), req, res);
      else if (suffix.startsWith("rest/") && opts.restUpstream) void rest(suffix.slice(4), req, res, caller, base, routeUrl);
      else return false;
      return true;
    },
    async close(): Promise<void> {
      await Promise.all([...open].map((c) => c.close()));
    },
  };
}

/** One caller request and its answer: JSON, or an SSE stream of judged events. */
class A2aExchange implements Downstream {
  connection!: Connection;
  finished = false;
  private blocked = false;

  constructor(
    private readonly res: ServerResponse,
    readonly key: string,
    private readonly streaming: boolean,
    /** Set for extended-card requests: the card in the answer is rewritten to lead here. */
    private readonly cardUrl: string | null = null,
    /** Set for push-config requests: the caller gets its own callback URLs back, not the proxy's. */
    private readonly push: PushRelay | null = null,
    /** HTTP+JSON binding: answers are documents (a result, or an HTTP error), not JSON-RPC envelopes. */
    private readonly rest = false,
  ) {}

  send(text: string, info?: SendInfo): void {
    if (this.finished) return;
    if (this.key === "card") return this.sendCard(text);
    if (this.cardUrl) text = rewriteCardAnswer(text, this.cardUrl);
    if (this.push) text = withCallerCallbacks(text, this.push);
    let event: string | undefined;
    if (this.rest) {
      const doc = restDocument(text);
      if (!this.streaming || doc.status >= 300) {
        if (!this.streaming || !this.res.headersSent) return this.finish(doc.status, doc.type, doc.body);
        event = "error";
      }
      text = doc.body;
    }
    if (!this.streaming) {
      this.finish(200, "application/json", text);
      return;
    }
    if (!this.res.headersSent) this.res.writeHead(200, SSE_HEADERS);
    const writer = eventWriter(this.res, () => {
      this.blocked = false;
      this.connection.upstream.resume?.();
    });
    if (event) {
      writer.write(sseEventParts(text, undefined, event));
      return this.end();
    }
    if (!writer.write(sseEventParts(text)) && !this.blocked) {
      // A slow caller: the remote agent's stream is not read until this one drains.
      this.blocked = true;
      this.connection.upstream.pause?.();
    }
    if (info?.answer) this.end();
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.res.headersSent) this.res.writeHead(200, SSE_HEADERS);
    eventWriter(this.res).end();
    void this.connection.close();
  }

  upstreamGone(): void {
    // The answer (-32052) was already sent by the session.
  }

  /** The card is served as a document, not a JSON-RPC answer; a denied or failed fetch is a 502 with the reason. */
  private sendCard(text: string): void {
    const m = JSON.parse(text) as { result?: unknown; error?: { message?: string; data?: unknown } };
    if (m.result !== undefined) this.finish(200, "application/json", JSON.stringify(m.result));
    else this.finish(502, "application/json", JSON.stringify({ error: m.error?.message ?? "agent card unavailable", data: m.error?.data ?? null }));
  }

  private finish(status: number, type: string, body: string): void {
    this.finished = true;
    if (!this.res.headersSent) this.res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
    this.res.end(body);
    // After the turn: the upstream is still finishing the read that produced this answer.
    queueMicrotask(() => void this.connection?.close());
  }
}

function rewriteCardAnswer(text: string, proxyUrl: string): string {
  const m = JSON.parse(text) as { result?: unknown };
  if (m.result === undefined) return text;
  const card = rewriteAgentCard(m.result, proxyUrl);
  return card ? JSON.stringify({ ...m, result: card }) : text;
}

/**
 * A judged answer as the HTTP+JSON binding gives it: a result is the document itself; an agent's HTTP error (-32000,
 * its status in `data.httpStatus`) keeps its status and body; guardwire's own refusals map to 403 (-32050 denied), 503
 * (-32051 guardian unavailable) and 502 (-32052 upstream unavailable), with the JSON-RPC error as the body.
 */
function restDocument(text: string): { status: number; type: string; body: string } {
  const m = JSON.parse(text) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  if (m.error === undefined) return { status: 200, type: "application/json", body: JSON.stringify(m.result ?? null) };
  const code = m.error.code;
  const http = m.error.data as { httpStatus?: unknown; body?: unknown } | null | undefined;
  if (code === ErrorCode.ServerError && typeof http?.httpStatus === "number" && http.httpStatus >= 300 && http.httpStatus < 600) {
    return { status: http.httpStatus, type: "application/json", body: typeof http.body === "string" ? http.body : JSON.stringify(http.body ?? { error: m.error.message }) };
  }
  const status = code === ErrorCode.DeniedByPolicy ? 403 : code === ErrorCode.GuardianUnavailable ? 503 : code === ErrorCode.UpstreamUnavailable ? 502 : 500;
  return { status, type: "application/json", body: JSON.stringify({ error: m.error }) };
}

function withCallerCallbacks(text: string, push: PushRelay): string {
  const m = JSON.parse(text) as { result?: unknown };
  const result = mapPushUrls(m.result, (url) => push.original(url));
  return result === m.result ? text : JSON.stringify({ ...m, result });
}

/** Relays a judged webhook post to the caller's own callback. */
class WebhookRelay implements Downstream {
  connection!: Connection;

  constructor(
    private readonly target: PushTarget,
    private readonly contentType: string,
  ) {}

  /** The post as the caller registered for it: its URL, its credentials, the agent's content type. */
  send(text: string): void {
    const params = (JSON.parse(text) as { params?: unknown }).params;
    const headers: Record<string, string> = { "content-type": this.contentType };
    if (this.target.authorization !== null) headers.authorization = this.target.authorization;
    else if (this.target.token !== null) headers["x-a2a-notification-token"] = this.target.token;
    request(this.target.url, { method: "POST", headers, body: JSON.stringify(params), headersTimeout: 10_000, bodyTimeout: 10_000 }).then(
      (r) => r.body.dump(),
      () => {
        // The caller's webhook is unreachable: the agent was already answered; the decision is in the log.
      },
    ).finally(() => void this.connection.close());
  }

  upstreamGone(): void {}
}

/** The agent proves it is the one the caller registered with: the configured Authorization, or the token. */
function presentsCredentials(req: IncomingMessage, target: PushTarget): boolean {
  if (target.authorization !== null) return typeof req.headers.authorization === "string" && sameSecret(req.headers.authorization, target.authorization);
  if (target.token === null) return true;
  const presented = PUSH_TOKEN_HEADERS.map((h) => req.headers[h]).find((v): v is string => typeof v === "string");
  return presented !== undefined && sameSecret(presented.replace(/^Bearer\s+/i, ""), target.token);
}

function sameSecret(a: string, b: string): boolean {
  const d = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(d(a), d(b));
}

function carryOf(req: IncomingMessage, caller: HttpCaller, passAuthorization: boolean): HttpCarry {
  const headers: Record<string, string> = {};
  for (const h of CARRIED) {
    const v = req.headers[h];
    if (typeof v === "string") headers[h] = v;
  }
  if (passAuthorization && caller.forward.authorization) headers.authorization = caller.forward.authorization;
  const trace = traceHeadersOf(req);
  return trace ? { headers, trace } : { headers };
}
