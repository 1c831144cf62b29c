import type { AgentProtocol } from "../vocabulary.js";
import type { RenderOptions } from "../actions/render.js";
import type { Guardian } from "../guardian/guardian.js";
import type { Judge } from "../guardian/judge.js";
import type { Connection, Downstream, SessionPeer, Upstream, UpstreamFactory } from "../transports/types.js";
import { Session } from "./session.js";
import type { DecisionSink, MessageTracer, StageFactory } from "./pipeline.js";
import type { LiveSessions } from "./live.js";

/** What every session of one route shares. */
export interface RouteRuntime {
  name: string;
  upstream: UpstreamFactory;
  /** How messages are judged (`judgeOf(guardian)`), or the guardian itself. */
  judge?: Judge;
  guardian?: Guardian;
  log: DecisionSink;
  failMode: "closed" | "open";
  maxFrameBytes: number;
  stderr: NodeJS.WritableStream;
  render?: RenderOptions;
  logPreview?: boolean;
  /** What the route carries (default mcp). */
  protocol?: AgentProtocol;
  /** Methods answered by a stream of responses (A2A). */
  streamingMethods?: ReadonlySet<string>;
  /** The upstream takes stateless MCP (2026-07-28) requests one by one: a Streamable HTTP upstream. */
  stateless?: boolean;
  /** The peer, when the route knows it up front (an A2A agent's card name). */
  server?: () => { name: string; version: string } | null;
  /** The features every session of the route runs (approvals, alerts, tracing: pipeline.ts). */
  stages?: readonly StageFactory[];
  /** Spans of each request's trip to the server (docs/observability.md). */
  tracer?: MessageTracer | null;
  /** The kind of server transport (`stdio`, `streamable-http`, `sse`, `websocket`, `a2a`), for the upstream hop's spans. */
  upstreamTransport?: string;
  /** Where an operator lists, suspends, resumes and kills live sessions (docs/sessions.md). */
  sessions?: LiveSessions;
  /**
   * A session closed for good (not let go for another replica, and not one of the sessions a caller's calls share):
   * the guardian forgets what it kept for it alone (`Guardian.endSession`).
   */
  endSession?: (session: string) => void;
}

/** Pairs one downstream session with a new upstream connection through a guarded session. */
export function openLink(route: RouteRuntime, downstream: Downstream, who: SessionPeer, factory: UpstreamFactory = route.upstream): Connection & { session: Session } {
  let closing: Promise<void> | undefined;
  /** Every call of one caller is judged in one guardian session (A2A, stateless exchanges): it outlives this link. */
  const shared = route.protocol === "a2a" || who.sessionId?.startsWith("stateless:") === true;
  // The tracer times each request's trip to the server around the session (null when tracing is off).
  const hops = route.tracer?.hops?.(() => session.id, route.upstreamTransport ?? null) ?? null;
  const upstream: Upstream = factory(
    {
      frame: (f) => session.fromUpstream(f),
      failed: (keys, reason, http) => {
        hops?.failed(keys, reason, http?.status);
        // An auth challenge reaches a Streamable HTTP agent as the status itself: its OAuth flow starts there.
        if (http && (http.status === 401 || http.status === 403) && downstream.refused) downstream.refused(keys, http);
        session.requestsFailed(keys, reason, http);
      },
      ended: (keys) => {
        hops?.ended(keys);
        session.requestsEnded(keys);
      },
      // The pending requests are answered first (answers already in judgement end their hops), then the downstream
      // session ends (the agent's next request: 404).
      closed: (reason) =>
        session.upstreamClosed(reason, () => {
          hops?.closed(reason);
          queueMicrotask(() => {
            if (!closing) downstream.upstreamGone(reason);
          });
        }),
    },
    { route: route.name, stderr: route.stderr, maxFrameBytes: route.maxFrameBytes, resume: who.resume?.upstream ?? null },
  );
  const session: Session = new Session(downstream, hops ? hops.wrap(upstream) : upstream, {
    judge: route.judge,
    guardian: route.guardian,
    log: route.log,
    route: route.name,
    transport: who.transport,
    failMode: route.failMode,
    maxFrameBytes: route.maxFrameBytes,
    render: route.render,
    logPreview: route.logPreview,
    agent: who.agent,
    sessionId: who.sessionId,
    protocol: route.protocol,
    streamingMethods: route.streamingMethods,
    server: who.resume?.server ?? route.server?.() ?? null,
    stages: route.stages,
    clientSession: downstream.clientSessionId ? () => downstream.clientSessionId?.() ?? null : undefined,
    shared,
  });
  const unregister = route.sessions?.register({
    session,
    route: route.name,
    transport: who.transport,
    protocol: route.protocol ?? "mcp",
    agent: who.agent?.id ?? null,
    downstream,
    shared,
    // Pending requests are answered first; the downstream ends after them (404, WebSocket closed, SSE stream ended).
    kill: (message) => {
      hops?.closed(message);
      session.kill(message, () => (downstream.upstreamGone(message), void close()));
    },
  });
  // Its guardian session ends with it, unless it is one of a caller's shared ones (A2A calls, stateless exchanges).
  const close = () => (closing ??= (unregister?.(), shared || route.endSession?.(session.id), upstream.close()));
  const release = () => (closing ??= (unregister?.(), upstream.release ? upstream.release() : upstream.close()));
  const state = () => ({ upstream: upstream.state?.() ?? null, server: session.serverInfo });
  return { session, receive: (f) => session.fromDownstream(f), upstream, close, release, state };
}
