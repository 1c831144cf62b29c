import { request, type Dispatcher } from "undici";
import { a2aOperation, jsonRpcUrlOf, mapPushUrls, restUrlOf, rewriteAgentCard } from "../../protocol/a2a.js";
import { ErrorCode, idKey } from "../../protocol/json-rpc.js";
import { readBounded } from "./http-body.js";
import { readSse } from "../sse-reader.js";
import { PushRelay, pushCredentials } from "../a2a-push.js";
import type { HttpCarry, SendInfo, Upstream, UpstreamFactory } from "../types.js";
import { SendQueue } from "./queue.js";
import { streamableHttpUpstream, upstreamAgent } from "./streamable-http.js";

export interface A2aRemoteOptions {
  /** The remote agent's base URL: its card is at `<url>/.well-known/agent-card.json` (or `agent.json`). */
  url: string;
  headers?: Record<string, string>;
  /** How long a fetched card is used before it is fetched again. */
  cardTtlMs?: number;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

const CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"];
const MAX_CARD_BYTES = 1024 * 1024;

/**
 * A remote A2A agent: its card (fetched, checked, cached briefly) and upstreams to its JSON-RPC endpoint. Every
 * request of a downstream exchange goes through the HTTP upstream (one POST each; streamed answers are SSE).
 */
export class A2aRemote {
  private cached: { card: Record<string, unknown>; endpoint: string; rest: string | null; at: number } | null = null;
  private fetching: Promise<{ card: Record<string, unknown>; endpoint: string; rest: string | null }> | null = null;
  readonly dispatcher: Dispatcher;
  /** The callbacks callers registered through this route, replaced by the proxy's own. */
  readonly push = new PushRelay();

  constructor(private readonly opts: A2aRemoteOptions) {
    this.dispatcher = opts.dispatcher ?? upstreamAgent();
  }

  /** The card's name, once a card was fetched (the `peer` of the log's multi-agent view). */
  get name(): string | null {
    const n = this.cached?.card.name;
    return typeof n === "string" ? n : null;
  }

  /** The agent's own card and its JSON-RPC endpoint; fails with a clear reason when it is not a usable card. */
  async card(): Promise<{ card: Record<string, unknown>; endpoint: string; rest: string | null }> {
    const fresh = this.freshCard();
    if (fresh) return fresh;
    this.fetching ??= this.fetchCard().finally(() => {
      this.fetching = null;
    });
    return this.fetching;
  }

  /** The card fetched within its time to live, if there is one. */
  private freshCard(): { card: Record<string, unknown>; endpoint: string; rest: string | null } | null {
    return this.cached && Date.now() - this.cached.at < (this.opts.cardTtlMs ?? 60_000) ? this.cached : null;
  }

  /** One upstream factory per JSON-RPC endpoint (a new card may name another): its URL is split once, not per call. */
  private endpointUpstream: { endpoint: string; factory: UpstreamFactory } | null = null;
  private upstreamTo(endpoint: string): UpstreamFactory {
    if (this.endpointUpstream?.endpoint !== endpoint) {
      this.endpointUpstream = { endpoint, factory: streamableHttpUpstream({ url: endpoint, headers: this.opts.headers, timeoutMs: this.opts.timeoutMs, dispatcher: this.dispatcher }) };
    }
    return this.endpointUpstream.factory;
  }

  private async fetchCard(): Promise<{ card: Record<string, unknown>; endpoint: string; rest: string | null }> {
    const base = this.opts.url.replace(/\/+$/, "");
    let status = 0;
    for (const path of CARD_PATHS) {
      const res = await request(base + path, {
        headers: { ...this.opts.headers, accept: "application/json" },
        dispatcher: this.dispatcher,
        headersTimeout: this.opts.timeoutMs ?? 10_000,
        bodyTimeout: this.opts.timeoutMs ?? 10_000,
      });
      status = res.statusCode;
      if (status === 404) {
        await res.body.dump();
        continue;
      }
      if (status !== 200) {
        await res.body.dump();
        break;
      }
      const text = await res.body.text();
      if (text.length > MAX_CARD_BYTES) throw new Error("the agent card is larger than 1 MiB");
      let card: unknown;
      try {
        card = JSON.parse(text);
      } catch {
        throw new Error("the agent card is not JSON");
      }
      if (!rewriteAgentCard(card, "")) throw new Error("the agent card is not an agent card (no name, url or supportedInterfaces)");
      const c = card as Record<string, unknown>;
      const endpoint = jsonRpcUrlOf(c);
      if (!endpoint) throw new Error("the agent card offers no JSON-RPC interface");
      const rest = restUrlOf(c);
      this.cached = { card: c, endpoint: new URL(endpoint, base + "/").href, rest: rest === null ? null : new URL(rest, base + "/").href, at: Date.now() };
      return this.cached;
    }
    throw new Error(`no agent card at ${base}${CARD_PATHS[0]} (HTTP ${status})`);
  }

  /**
   * Upstreams to the agent's JSON-RPC endpoint; sends wait for the card that names it. With the card at hand (every
   * call but the first of each minute) the upstream is made at once, without waiting a turn for the card.
   */
  upstream(): UpstreamFactory {
    return (sink, ctx) => {
      const queue = new SendQueue(sink);
      const fresh = this.freshCard();
      let real: Upstream | null = fresh ? this.upstreamTo(fresh.endpoint)(sink, ctx) : null;
      if (!real) {
        this.card().then(
          ({ endpoint }) => {
            if (queue.gone !== null) return;
            real = this.upstreamTo(endpoint)(sink, ctx);
            queue.drain((text, info) => real?.send(text, info));
          },
          (e: Error) => queue.close(`agent card unavailable: ${e.message}`),
        );
      }
      return {
        send: (text, info) => {
          text = this.withProxyCallbacks(text, info);
          if (!queue.hold(text, info, real !== null)) real?.send(text, info);
        },
        close: async () => {
          queue.close("exchange ended", false);
          await real?.close();
        },
        abandon: (key) => real?.abandon?.(key),
        pause: () => real?.pause?.(),
        resume: () => real?.resume?.(),
      };
    };
  }

  /**
   * A request that registers push callbacks (send, stream, push-config) leaves with the proxy's callback URLs in place
   * of the caller's: the guardian judged the caller's own, the agent posts to the proxy. Other frames pass as they are.
   */
  private withProxyCallbacks(text: string, info: SendInfo | undefined): string {
    const base = (info?.carry as HttpCarry | undefined)?.pushBase;
    if (!base || !text.includes('"url"')) return text;
    const m = JSON.parse(text) as { method?: string; params?: unknown };
    const op = a2aOperation(m.method ?? null);
    if (op !== "send" && op !== "stream" && op !== "push-config") return text;
    const session = (info?.carry as HttpCarry | undefined)?.pushSession;
    const params = mapPushUrls(m.params, (url, config) => this.push.register(url, pushCredentials(config), base, session));
    return params === m.params ? text : JSON.stringify({ ...m, params });
  }

  /**
   * The agent's HTTP+JSON binding for one REST call: the judged message's params become the body of the caller's
   * call (method, path and query as the caller sent them) to the agent's REST base; the answer — a JSON document or
   * an SSE stream of them — comes back as JSON-RPC results (HTTP errors as errors carrying the status and body), so
   * the session judges and logs it like any other answer.
   */
  restUpstream(): UpstreamFactory {
    return (sink, ctx) => {
      const abort = new AbortController();
      return {
        send: (text, info) => {
          const rest = (info?.carry as HttpCarry | undefined)?.rest;
          text = this.withProxyCallbacks(text, info);
          const m = JSON.parse(text) as { id?: string | number; params?: unknown };
          if (!rest || m.id === undefined) return;
          const key = idKey(m.id);
          const answer = (body: Record<string, unknown>) => sink.frame({ text: JSON.stringify({ jsonrpc: "2.0", id: m.id, ...body }), stream: key });
          void (async () => {
            const { rest: base } = await this.card();
            if (!base) throw new Error("the agent card offers no HTTP+JSON interface");
            const headers: Record<string, string> = { ...this.opts.headers, ...(info?.carry as HttpCarry).headers, accept: "application/json, text/event-stream" };
            const hasBody = rest.method === "POST" || rest.method === "PUT" || rest.method === "PATCH";
            if (hasBody) headers["content-type"] = rest.path.startsWith("/v1/") ? "application/json" : "application/a2a+json";
            const res = await request(base.replace(/\/+$/, "") + rest.path + rest.query, {
              method: rest.method as "GET",
              headers,
              body: hasBody ? JSON.stringify(m.params ?? {}) : undefined,
              dispatcher: this.dispatcher,
              signal: abort.signal,
              headersTimeout: this.opts.timeoutMs ?? 60_000,
              bodyTimeout: 0,
            });
            const type = String(res.headers["content-type"] ?? "");
            if (type.startsWith("text/event-stream") && res.statusCode < 300) {
              await readSse(res.body, ctx.maxFrameBytes, (ev) => {
                const data = ev.data.length > 0 ? (JSON.parse(ev.data) as unknown) : null;
                if (ev.event === "error") answer({ error: { code: -32603, message: "error event from the agent", data } });
                else answer({ result: data });
              });
              sink.ended?.([key]);
              return;
            }
            const body = await readBounded(res.body, ctx.maxFrameBytes);
            if (typeof body !== "string") throw new Error(`the agent's answer exceeds ${ctx.maxFrameBytes} bytes`);
            const data = body.length > 0 && type.includes("json") ? (JSON.parse(body) as unknown) : body.length > 0 ? body : null;
            if (res.statusCode < 300) answer({ result: data });
            // A JSON-RPC error code is not an HTTP status: the status travels in data, for the REST caller to get back.
            else answer({ error: { code: ErrorCode.ServerError, message: `HTTP ${res.statusCode} from the agent`, data: { httpStatus: res.statusCode, body: data } } });
          })().catch((e: Error) => sink.failed([key], abort.signal.aborted ? "exchange ended" : e.message));
        },
        close: async () => abort.abort(),
        abandon: () => abort.abort(),
      };
    };
  }

  /** An upstream that answers one `agent/card` request with the card as the proxy serves it: a guarded card fetch. */
  cardUpstream(proxyUrl: string): UpstreamFactory {
    return (sink) => {
      let gone = false;
      return {
        send: (text, info) => {
          const id = (JSON.parse(text) as { id?: unknown }).id;
          if (id === undefined || gone) return;
          this.card().then(
            ({ card }) => sink.frame({ text: JSON.stringify({ jsonrpc: "2.0", id, result: rewriteAgentCard(card, proxyUrl) }), stream: info?.stream ?? null }),
            (e: Error) => sink.failed(info?.requests ?? [], `agent card unavailable: ${e.message}`),
          );
        },
        close: async () => {
          gone = true;
        },
      };
    };
  }
}
