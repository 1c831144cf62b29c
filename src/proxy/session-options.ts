import { DEFAULT_RENDER, type RenderOptions } from "../actions/render.js";
import type { Guardian } from "../guardian/guardian.js";
import type { Judge } from "../guardian/judge.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_PENDING } from "../defaults.js";
import type { AgentProtocol } from "../vocabulary.js";
import type { DecisionSink, PeerInfo, StageFactory } from "./pipeline.js";

export interface SessionOptions {
  /** How messages are judged (`judgeOf(guardian)`); or the guardian itself, judged through `judgeOf`. */
  judge?: Judge;
  guardian?: Guardian;
  /** How long a verdict is waited for (with `guardian`); default: the guardian's own timeout and a margin. */
  guardianTimeoutMs?: number;
  log: DecisionSink;
  route: string;
  transport: string;
  protocol?: AgentProtocol;
  failMode?: "closed" | "open";
  maxDepth?: number;
  maxFrameBytes?: number;
  maxPending?: number;
  render?: RenderOptions;
  agent?: { id: string } | null;
  sessionId?: string;
  /** Log a redacted preview of each message (off by default: raw content stays out of the log). */
  logPreview?: boolean;
  /** Methods answered by a stream of responses with the request's id (A2A), ended by `requestsEnded`. */
  streamingMethods?: ReadonlySet<string>;
  /** The peer, when known before any message (an A2A agent's card). */
  server?: PeerInfo | null;
  now?: () => number;
  /** The features of this session, at their points of the lifecycle (pipeline.ts). */
  stages?: readonly StageFactory[];
  /** The session id the agent holds (`Mcp-Session-Id`), for traces; none for stdio, WebSocket and A2A. */
  clientSession?: () => string | null;
  /**
   * The session id is a caller's, shared by its calls (A2A, stateless exchanges): what features keep for the id (the
   * guardian's labels, remembered approvals) outlives this session.
   */
  shared?: boolean;
}

/** The options a session reads on every message, with their defaults. */
export interface SessionSettings {
  route: string;
  transport: string;
  protocol: AgentProtocol;
  failMode: "closed" | "open";
  maxDepth: number;
  maxFrameBytes: number;
  maxPending: number;
  render: RenderOptions;
  logPreview: boolean;
  streamingMethods: ReadonlySet<string> | null;
}

export function settingsOf(opts: SessionOptions): SessionSettings {
  return {
    route: opts.route,
    transport: opts.transport,
    protocol: opts.protocol ?? "mcp",
    failMode: opts.failMode ?? "closed",
    maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxFrameBytes: opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    maxPending: opts.maxPending ?? DEFAULT_MAX_PENDING,
    render: opts.render ?? DEFAULT_RENDER,
    logPreview: opts.logPreview ?? false,
    streamingMethods: opts.streamingMethods ?? null,
  };
}
