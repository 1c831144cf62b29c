import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, errorResponse, idOfKey, type JsonRpcResponse } from "../../protocol/json-rpc.js";
import type { HttpCarry } from "../types.js";
import { traceHeadersOf } from "./http-util.js";
import type { Stream } from "./sse-streams.js";

/** One POST that carried requests: it is answered as JSON, or switches to SSE when a related message comes first. */
export interface Exchange {
  res: ServerResponse;
  /** The requests (id keys) it still waits for: its own table of what is pending. */
  waiting: Set<string>;
  /** Its requests' id keys as they came, a repeated id once per request: a batch's orphans get one answer each. */
  requests: readonly string[];
  batch: boolean;
  stream: Stream | null;
  /** The proxy's own protected-resource metadata URL for this route, for an upstream's auth challenge (made if one comes). */
  metadata: () => string;
  /** The agent stopped listening before every answer came: what follows goes to its stream's replay log. */
  cut: boolean;
}

/**
 * The `carry` of a POST: its protocol headers, and the exchange that waits for its answers. Request ids are the
 * agent's to choose and may repeat (a duplicate of a pending id is refused by the session), so an answer is routed
 * by the exchange it names, never by its id alone.
 */
export interface PostCarry extends HttpCarry {
  exchange?: Exchange;
}

/** A POST's carry: its protocol version and the headers the caller forwards, and its trace context. */
export function carryOf(req: IncomingMessage, forward: Record<string, string>): PostCarry {
  const version = req.headers["mcp-protocol-version"];
  const headers: Record<string, string> = { ...forward };
  if (typeof version === "string") headers["mcp-protocol-version"] = version;
  const trace = traceHeadersOf(req);
  return trace ? { headers, trace } : { headers };
}

/** Where the route's protected-resource metadata is, as the agent reaches it (RFC 9728 path insertion). */
export function metadataUrl(req: IncomingMessage): string {
  const here = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  return `${here.origin}/.well-known/oauth-protected-resource${here.pathname}`;
}

/** A POST's body as the session receives it. */
export interface PostFrame {
  text: string;
  value: unknown;
  carry: PostCarry;
}

/** The one answer of a request its session ended before it was answered (-32052). */
export function sessionEnded(key: string): JsonRpcResponse {
  return errorResponse(idOfKey(key), ErrorCode.UpstreamUnavailable, "Session ended before this request was answered", { reason: "session ended" });
}

/**
 * A session's POSTs still waiting for answers, by request id key. Each exchange's `waiting` is the one record of what
 * it waits for; this index finds the exchange a message sent by id alone (progress, a server request on a request's
 * stream) belongs to, and `answerOrphans` is the one place where requests left without an answer get one.
 */
export class PendingPosts {
  /** The POSTs waiting for each request id key, oldest first: the first is the one messages by id alone go to. */
  private readonly byKey = new Map<string, Exchange[]>();

  /** How many request keys are awaited. */
  get size(): number {
    return this.byKey.size;
  }

  /** A POST awaits answers to these requests. */
  add(res: ServerResponse, requests: string[], batch: boolean, metadata: () => string): Exchange {
    const ex: Exchange = { res, waiting: new Set(requests), requests, batch, stream: null, metadata, cut: false };
    for (const k of ex.waiting) {
      const list = this.byKey.get(k);
      if (list) list.push(ex);
      else this.byKey.set(k, [ex]);
    }
    return ex;
  }

  /** The oldest POST still waiting for this request. */
  first(key: string): Exchange | undefined {
    return this.byKey.get(key)?.[0];
  }

  /** These requests of `ex` are answered: it waits for them no more. */
  settle(ex: Exchange, keys: Iterable<string>): void {
    for (const k of [...keys]) {
      this.unbind(k, ex);
      ex.waiting.delete(k);
    }
  }

  /**
   * The agent stopped listening to `ex` before every answer came. `abandon` is told each request whose upstream
   * request is this POST's (the first to wait for it: a refused duplicate's POST has none of its own). `ex.waiting`
   * stays as it is: the keys its stream still carries answers for.
   */
  cut(ex: Exchange, abandon: (key: string) => void): void {
    ex.cut = true;
    for (const k of ex.waiting) {
      if (this.first(k) === ex) abandon(k);
      this.unbind(k, ex);
    }
  }

  /** Every POST still waiting, in the order they came. */
  open(): Exchange[] {
    return [...new Set([...this.byKey.values()].flat())];
  }

  /**
   * The session ends (a DELETE or shutdown racing its requests): each request still waiting on a POST that is still
   * listening gets its one answer here (-32052, a batch's as one array), through `deliver`, since the session's own
   * answer could no longer reach a stream that is about to close. A batch is answered as one, so one still waiting
   * has had none of its answers: each of its requests gets one, an id it repeats (the duplicate the session refused)
   * once per request.
   */
  answerOrphans(deliver: (ex: Exchange, key: string, text: string) => void): void {
    for (const ex of this.open()) {
      const keys = [...ex.waiting];
      if (keys.length === 0 || ex.cut) continue;
      if (ex.batch) deliver(ex, keys[0] as string, JSON.stringify(ex.requests.map(sessionEnded)));
      else for (const k of keys) deliver(ex, k, JSON.stringify(sessionEnded(k)));
    }
  }

  clear(): void {
    this.byKey.clear();
  }

  private unbind(key: string, ex: Exchange): void {
    const list = this.byKey.get(key);
    if (!list) return;
    const at = list.indexOf(ex);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byKey.delete(key);
  }
}
