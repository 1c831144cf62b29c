import type { Peer } from "../transports/types.js";

/** What a session sends to the server through (the `upstream` a Session is constructed with). */
export type SessionUpstream = Peer & { abandon?(request: string): void };

/**
 * A tracer's view of one session's upstream hop — from a request leaving for the server until its answer arrives or it
 * fails (docs/observability.md). Wired by whoever pairs a downstream with an upstream (link.ts, stdio-launcher.ts)
 * around the session: it sees what the session actually sends, whenever the session sends it.
 */
export interface UpstreamHops {
  /** The peer to hand the session as its upstream: each request that leaves through it starts its hop. */
  wrap(peer: SessionUpstream): SessionUpstream;
  /** The server will not answer these requests (id keys): the send failed, their stream broke, or it refused them with `status`. */
  failed(requests: string[], reason: string, status?: number): void;
  /** The streams of these requests ended (a streamed answer is complete). */
  ended(requests: string[]): void;
  /** The upstream is gone, or the session was killed: every hop still open ends as failed. */
  closed(reason: string): void;
}
