import type { AlertEvent } from "./event.js";

export type AlertFormat = "json" | "slack";

/**
 * What is posted: the alert, when it was raised (ms since the epoch), how many like it were held back (de-duplication),
 * and its id — made at the first post, the same on every retry and for every webhook.
 */
export interface Posted {
  id?: string;
  at: number;
  suppressed: number;
  event: AlertEvent;
}

/** The generic JSON body (docs/alerts.md, "Payload"). */
export function jsonPayload(p: Posted): Record<string, unknown> {
  const e = p.event;
  return {
    type: "guardwire.alert",
    version: 1,
    id: p.id,
    time: new Date(p.at).toISOString(),
    severity: e.severity,
    rules: e.rules,
    decidedBy: e.decidedBy,
    reasonCode: e.reasonCode,
    decision: e.decision,
    mode: e.mode,
    message: e.message,
    route: e.route,
    session: e.session,
    transport: e.transport,
    protocol: e.protocol,
    agent: e.agent,
    server: e.server,
    direction: e.direction,
    kind: e.kind,
    method: e.method,
    tool: e.tool,
    messageId: e.messageId,
    digest: e.digest,
    suppressed: p.suppressed,
  };
}

const ICON: Record<AlertEvent["severity"], string> = { low: ":information_source:", medium: ":warning:", high: ":rotating_light:", critical: ":fire:" };

/** Slack (and Mattermost, Rocket.Chat…) incoming-webhook body: one `text` in mrkdwn. */
export function slackPayload(p: Posted): { text: string } {
  const e = p.event;
  const code = (s: string) => "`" + esc(s).replace(/`/g, "'") + "`";
  const what = [e.method ?? "(no method)", e.tool ? code(e.tool) : ""].filter(Boolean).join(" ");
  const audit = e.mode === "audit" ? " (audit: would have been)" : "";
  const lines = [
    `${ICON[e.severity]} *${e.severity.toUpperCase()}* guardwire alert: *${e.decision}*${audit} by ${e.rules.map(code).join(", ")}${e.reasonCode.length > 0 ? ` (${esc(e.reasonCode.join(", "))})` : ""}`,
    `${e.direction} ${e.kind} ${what} on route ${code(e.route)}, session ${code(e.session)}${e.agent ? `, agent ${code(e.agent)}` : ""}${e.server ? `, server ${code(e.server.name)}` : ""}`,
  ];
  if (e.message) lines.push(`> ${esc(e.message)}`);
  if (p.suppressed > 0) lines.push(`_${p.suppressed} more like it were held back since the last one_`);
  return { text: lines.join("\n") };
}

/** Slack's three control characters in text. */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function render(format: AlertFormat, p: Posted): string {
  return JSON.stringify(format === "slack" ? slackPayload(p) : jsonPayload(p));
}
