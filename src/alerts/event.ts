import type { DecisionInput } from "../decision-log/record.js";
import type { AlertInfo, Severity } from "../guardian/alert.js";

/**
 * One alert, as raised by a session and posted to webhooks. It says what was decided about which message, never what
 * the message said: like the decision log, it carries the message's digest (the same as its log line's), not content.
 */
export interface AlertEvent {
  severity: Severity;
  /** The alerting rules that fired. */
  rules: string[];
  /** Every rule that decided the message (alerting or not). */
  decidedBy: string[];
  reasonCode: string[];
  decision: DecisionInput["decision"];
  mode: DecisionInput["mode"];
  /** The decision's explanation (a rule's `message:`), as in the log. */
  message: string;
  route: string;
  session: string;
  transport: string;
  protocol: DecisionInput["protocol"];
  agent: string | null;
  server: { name: string; version?: string } | null;
  direction: DecisionInput["direction"];
  kind: DecisionInput["kind"];
  method: string | null;
  tool: string | null;
  /** The JSON-RPC id of the message. */
  messageId: string | number | null;
  digest: string | null;
}

/** Where a session raises alerts: synchronous, constant time, never throws, never waits (delivery is elsewhere). */
export interface AlertSink {
  raise(event: AlertEvent): void;
}

/** The alert of a decision, from its log line (so the two share the digest and every field). */
export function alertFromDecision(d: DecisionInput, alert: AlertInfo, server: { name: string; version?: string } | null): AlertEvent {
  return {
    severity: alert.severity,
    rules: alert.rules,
    decidedBy: d.rules,
    reasonCode: d.reasonCode,
    decision: d.decision,
    mode: d.mode,
    message: d.message,
    route: d.route,
    session: d.session,
    transport: d.transport,
    protocol: d.protocol,
    agent: d.agent,
    server,
    direction: d.direction,
    kind: d.kind,
    method: d.method,
    tool: d.tool,
    messageId: d.id,
    digest: d.digest,
  };
}
