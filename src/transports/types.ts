/*
 * The contract between transports and a session. A transport reads frames off its wire and hands them to the session;
 * the session sends frames back through a Peer. Over stdio there is one stream each way; over HTTP a message belongs
 * to a stream (the POST of the agent's request it answers or relates to), so sends say which one.
 */

import type { Receipt } from "./receipt.js";

/** A frame as read off a transport: its text, or a note that it was too large to read (with its start). */
export type Frame = ReadFrame | { oversize: string; bytes: number; stream?: string | null; carry?: unknown };

export interface ReadFrame {
  /** One JSON-RPC message or a batch array, as received. */
  text: string;
  /** The parsed value, when the transport already parsed it safely (protocol/safe-json) to answer at its own layer. */
  value?: unknown;
  /**
   * Inbound only: the agent request (its id key, protocol/json-rpc `idKey`) on whose upstream stream this message
   * arrived, so it is delivered on that request's downstream stream. null or absent: not tied to a request.
   */
  stream?: string | null;
  /**
   * Outbound only: the downstream transport's context for this frame (e.g. protocol headers), handed to the upstream,
   * and back to the downstream with the frame's answers.
   */
  carry?: unknown;
}

export interface SendInfo {
  /**
   * Toward the agent: the id key of the agent request this message answers or relates to (its HTTP stream), or null
   * for messages tied to no request. Toward the server: the id key of the request being sent, or null.
   */
  stream: string | null;
  /** Toward the agent: this message is the answer to `stream`'s request (the last thing on that stream). */
  answer?: boolean;
  /** Toward the server: the id keys of every request in this frame (one, several for a batch, none). */
  requests?: string[];
  /**
   * Toward the server: the `carry` of the agent frame this send came from. Toward the agent, with `answer`: the `carry`
   * of the request frame answered, so a downstream finds the exchange it came in even when ids repeat.
   */
  carry?: unknown;
}

/** One side of a session: where frames are sent. `text` is one JSON-RPC message or a batch array. */
export interface Peer {
  send(text: string, info?: SendInfo): void;
  /** A streamed answer (A2A `message/stream`…) is complete: end that request's stream. */
  end?(stream: string): void;
}

/**
 * An HTTP server's refusal: its status and the headers that say more (`WWW-Authenticate`, `Retry-After`). The session
 * answers by status; 401/403 with a challenge also reach a Streamable HTTP agent as such (its OAuth flow starts there).
 */
export interface HttpRefusal {
  status: number;
  headers: Record<string, string>;
}

/** What an upstream reports to its session. */
export interface UpstreamSink {
  /** A frame from the server (`frame.stream` set when the transport knows the request stream it came on). */
  frame(frame: Frame): void;
  /** These requests (id keys) could not be delivered, or their stream broke before the answer, or `http` refused them. */
  failed(requests: string[], reason: string, http?: HttpRefusal): void;
  /** The upstream is gone for good: every pending request is answered with -32052. */
  closed(reason: string): void;
  /** The upstream streams of these requests ended normally (a streamed answer is complete). */
  ended?(requests: string[]): void;
}

/** A server-facing connection for one downstream session. Sends made before it is connected are queued. */
export interface Upstream extends Peer {
  /** Ends the upstream side of the session: aborts its streams, ends the server session, stops a child. */
  close(): Promise<void>;
  /** The agent opened its standalone stream (HTTP GET): open the server's, where the transport has one. */
  openStandalone?(): void;
  /** The agent stopped listening for this request's stream: release the upstream stream that carries it. */
  abandon?(request: string): void;
  /** Backpressure from a slow agent: stop reading from the server until resumed. */
  pause?(): void;
  resume?(): void;
  /** The server's session as this connection knows it (a Streamable HTTP upstream), to seal into the agent's token. */
  state?(): UpstreamState | null;
  /** Lets go of the session here without ending the server's (another replica goes on with it); else as `close`. */
  release?(): Promise<void>;
}

/** A server session another replica can continue: its id and the protocol version its `initialize` answer chose. */
export interface UpstreamState {
  sessionId: string;
  protocolVersion: string | null;
}

export interface UpstreamContext {
  /** Route name, for error messages (-32052 carries it). */
  route: string;
  /** Where a child's stderr goes. */
  stderr: NodeJS.WritableStream;
  maxFrameBytes: number;
  /** Continue this server session (restored from a session token) instead of starting one. */
  resume?: UpstreamState | null;
}

/** The `carry` of a frame received over HTTP: protocol headers to pass upstream (lower-case names). */
export interface HttpCarry {
  headers: Record<string, string>;
  /** The W3C trace context headers of the agent's HTTP request, for its spans (never passed upstream as they are). */
  trace?: TraceHeaders;
  /** A2A: where this proxy receives the agent's webhook posts for the route (`<proxy>/<route>/push/`). */
  pushBase?: string;
  /** A2A: the caller's guardian session, which the webhook posts for the callbacks it registers are judged in. */
  pushSession?: string;
  /** A2A HTTP+JSON: the caller's REST call, replayed toward the agent's REST base with the judged body. */
  rest?: { method: string; path: string; query: string };
  /** Notifications and responses: the agent's POST is answered once the server has them (src/transports/receipt.ts). */
  receipt?: Receipt;
}

export type UpstreamFactory = (sink: UpstreamSink, ctx: UpstreamContext) => Upstream;

/** `traceparent` (and `tracestate`) as an HTTP request carried them. */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/** An agent-facing session as a link sees it: a peer, told when the upstream refused over HTTP or went away. */
export interface Downstream extends Peer {
  /**
   * The session id the agent holds (`Mcp-Session-Id`, legacy SSE's `sessionId`) once it was given one; null before, and
   * for transports without one (stdio, WebSocket, A2A, stateless exchanges).
   */
  clientSessionId?(): string | null;
  /** The server refused these requests with a status the agent must see (401/403, for OAuth). */
  refused?(requests: string[], http: HttpRefusal): void;
  /** The upstream is gone: end the downstream session (its pending requests were already answered). */
  upstreamGone(reason: string): void;
  /**
   * A transport whose agent can go away without a word (Streamable HTTP: no stream open, no request in flight): since
   * when it has been so, and when the session ends if the agent does not come back; null while it is connected.
   */
  idle?(): { since: number; ends: number } | null;
}

/** Who is on the agent side of a new session. */
export interface SessionPeer {
  transport: string;
  agent: { id: string } | null;
  sessionId?: string;
  /** A session continued from its token on this replica: its server session, and the server it already knows. */
  resume?: { upstream: UpstreamState | null; server: { name: string; version: string } | null };
}

/** A guarded session as a downstream transport drives it. */
export interface Connection {
  /** A frame from the agent. */
  receive(frame: Frame): void;
  upstream: Upstream;
  /** Ends both sides: the upstream stream, session or child is released. Safe to call twice. */
  close(): Promise<void>;
  /** Like `close`, but the server's session is left open for another replica to continue. */
  release?(): Promise<void>;
  /** What a session token seals: the server session and the server's name and version, once known. */
  state?(): { upstream: UpstreamState | null; server: { name: string; version: string } | null };
}

/** Opens a guarded session for a downstream; `upstream` replaces the route's own (an A2A card fetch). */
export type Connect = (downstream: Downstream, who: SessionPeer, upstream?: UpstreamFactory) => Connection;
