import type { MetricsOptions } from "../observe/metrics.js";
import { SessionRegistry } from "../control/registry.js";
import type { OpsBus } from "../store/ops-bus.js";
import { SharedSessions, type SharedSessionsOptions } from "../control/shared-sessions.js";
import type { ApprovalBroker } from "../approvals/broker.js";
import { DecisionFeed } from "../observe/feed.js";
import type { DecisionSink } from "../proxy/pipeline.js";
import { openMetrics } from "./observe.js";
import type { AdminParts, StartedAdmin } from "./admin-listener.js";
import { adminFile } from "./admin-client.js";

export { adminFile };
export type { AdminParts, ConsoleParts, Shared, StartedAdmin } from "./admin-listener.js";

/** What the operator side of a guardwire process follows: every decision through the feed; with the admin API, the live sessions. */
export interface Operator {
  feed: DecisionFeed;
  /** The decision log, tapped by the feed: what sessions write to. */
  sink: DecisionSink;
  sessions?: SessionRegistry;
  /** With a shared store: the sessions of every replica. */
  shared?: SharedSessions;
}

/**
 * The feed over the log, and (only where an operator can reach it: with the admin API) the session registry; with a
 * shared store's operator channel, listed and controlled across replicas.
 */
export function openOperator(log: DecisionSink, broker: ApprovalBroker, withAdmin: boolean, bus?: OpsBus | null, sharedOptions?: SharedSessionsOptions): Operator {
  const feed = new DecisionFeed();
  const sink = feed.tap(log);
  const sessions = withAdmin ? new SessionRegistry({ broker, log: sink }) : undefined;
  sessions?.observe(feed);
  const shared = sessions && bus ? new SharedSessions(bus, sessions, sharedOptions) : undefined;
  return { feed, sink, sessions, shared };
}

/** The admin parts `wrap` and `serve` give: the operator's feed and sessions, and what the metrics read. */
export interface OperatorAdmin extends Omit<AdminParts, "feed" | "sessions" | "metrics"> {
  operator: Operator;
  measured: Pick<MetricsOptions, "log" | "alerts" | "store" | "ruleset" | "upstreamTransport">;
}

/** The admin listener of `wrap` and `serve`, with its metrics following the live sessions. */
export async function startOperatorAdmin(listen: string, token: string | undefined, o: OperatorAdmin): Promise<StartedAdmin> {
  const { operator, measured, ...parts } = o;
  const metrics = await openMetrics({ version: parts.version, feed: operator.feed, broker: parts.broker, ...measured });
  if (operator.sessions) metrics.followSessions(operator.sessions);
  const shared = { ...parts.shared, sessions: operator.shared };
  const { startAdmin } = await import("./admin-listener.js");
  return startAdmin(listen, token, { ...parts, feed: operator.feed, sessions: operator.sessions, metrics, shared });
}
