/*
 * The reason codes guardwire itself writes (docs/errors.md#reason-codes, checked against this table by
 * test/errors-catalogue.test.ts). A rule's own `reasonCode` is free-form UPPER_SNAKE_CASE and is not listed here.
 * `line` says where a code appears: on a message's decision line (`message`), on a line of kind `refused` (the HTTP
 * front, before the guardian), `control` (an operator's action) or `log` (the log itself), or in a warning on stderr.
 */

export interface ReasonEntry {
  line: "message" | "refused" | "control" | "log" | "stderr";
  meaning: string;
}

export const REASONS = {
  // The guardian's own decisions.
  DEFAULT_DENY: { line: "message", meaning: "no rule fired and the rules' default is deny" },
  RULE_ERROR: { line: "message", meaning: "a rule's `when` failed to evaluate (fail closed)" },
  TOOL_FILTERED: { line: "message", meaning: "tools denied unconditionally were removed from a `tools/list` result" },
  TOOL_CHANGED: { line: "message", meaning: "the shipped packs' pin rule: a tool changed since it was pinned (the caller is told the list changed)" },
  GUARDIAN_UNAVAILABLE: { line: "message", meaning: "the guardian threw, timed out, or answered something malformed: `-32051`" },
  STORE_UNAVAILABLE: { line: "message", meaning: "the shared store (Redis) is away and `store.onUnavailable` is `closed`: `-32051`" },
  STORE_RESET: { line: "message", meaning: "Redis lost the guardian's state; flow rules hold until it is rebuilt (also a warning on stderr)" },
  SPLIT_ACROSS_EVENTS: { line: "message", meaning: "an A2A stream's event refused because, joined to the stream's earlier events, a rule refuses it (that rule's code beside it)" },
  LOG_UNAVAILABLE: { line: "message", meaning: "the decision log cannot be written, so nothing is forwarded: `-32051`" },
  // The session: framing, correlation, the server.
  PARSE_ERROR: { line: "message", meaning: "a frame was not JSON" },
  INVALID_REQUEST: { line: "message", meaning: "JSON, but not a valid JSON-RPC message (or an empty batch)" },
  TOO_DEEP: { line: "message", meaning: "nesting beyond the depth limit (128)" },
  FRAME_TOO_LARGE: { line: "message", meaning: "a frame beyond the size limit (16 MiB by default)" },
  DUPLICATE_ID: { line: "message", meaning: "a request reused the id of one still pending (refused; the pending one untouched)" },
  TOO_MANY_PENDING: { line: "message", meaning: "more than 4096 requests pending in one direction" },
  UNSOLICITED_RESPONSE: { line: "message", meaning: "a response to no pending request (dropped)" },
  REQUEST_CANCELLED: { line: "message", meaning: "the answer to a request the agent cancelled (dropped), or a held request cancelled" },
  REQUEST_DENIED: { line: "message", meaning: "`notifications/cancelled`/`progress` about a request that was denied (dropped)" },
  CANCEL_UNKNOWN_REQUEST: { line: "message", meaning: "a `notifications/cancelled` naming no pending request (dropped)" },
  UPSTREAM_UNAVAILABLE: { line: "message", meaning: "the server exited, could not be reached, lost the session or answered a `5xx`/`429`: `-32052`" },
  UPSTREAM_REFUSED: { line: "message", meaning: "the server refused a request with an HTTP `4xx` and no JSON-RPC answer: `-32600` or `-32053`" },
  // Approvals (docs/approvals.md).
  APPROVAL_REQUIRED: { line: "message", meaning: "a `decision: ask` rule held the message" },
  APPROVED: { line: "message", meaning: "a person approved the held message, or a remembered approval covered it" },
  APPROVAL_DENIED: { line: "message", meaning: "a person refused it (the approver's reason in the message)" },
  APPROVAL_TIMEOUT: { line: "message", meaning: "nobody answered within `ask.timeout` (`onTimeout` decided)" },
  APPROVAL_CANCELLED: { line: "message", meaning: "the agent cancelled the held request (nothing is owed)" },
  APPROVAL_SHUTDOWN: { line: "message", meaning: "the session or guardwire stopped while the message was held" },
  APPROVAL_LIMIT: { line: "message", meaning: "too many messages already held (per session or in all)" },
  APPROVAL_UNAVAILABLE: { line: "message", meaning: "the message cannot be held here (in a batch, a server→agent request, nobody to ask)" },
  // Live session control (docs/sessions.md).
  SESSION_SUSPENDED: { line: "control", meaning: "an operator suspended the session; its requests are held or refused" },
  SESSION_RESUMED: { line: "control", meaning: "an operator resumed the session; held requests go on" },
  SESSION_KILLED: { line: "control", meaning: "an operator killed the session; pending and held requests are answered `-32050`" },
  SESSION_SHUTDOWN: { line: "message", meaning: "guardwire stopped while the session was suspended; its held requests are refused" },
  SESSION_CLOSED: { line: "message", meaning: "the session closed while suspended; its held requests are not forwarded" },
  // The HTTP front's refusals (docs/decision-log.md#refusals-before-the-guardian).
  PATH_REFUSED: { line: "refused", meaning: "a path the front does not serve, or one that is not canonical" },
  HOST_MALFORMED: { line: "refused", meaning: "a Host header that is not host[:port]" },
  HOST_NOT_ALLOWED: { line: "refused", meaning: "a Host not among `allowedHosts` (DNS rebinding)" },
  ORIGIN_NOT_ALLOWED: { line: "refused", meaning: "an Origin not among `allowedOrigins`" },
  UNAUTHORIZED: { line: "refused", meaning: "no valid agent key" },
  BODY_TOO_LARGE: { line: "refused", meaning: "a body beyond the frame limit" },
  OVER_BUDGET: { line: "refused", meaning: "too many request bytes in flight across the process (503, Retry-After)" },
  TOO_MANY_CONNECTIONS: { line: "refused", meaning: "connections (in all, or from one address) at their cap" },
  REQUEST_TIMEOUT: { line: "refused", meaning: "the request did not arrive within the front's timeouts (408)" },
  HEADERS_TOO_LARGE: { line: "refused", meaning: "a header block over Node's limit (431)" },
  HTTP_PARSE_ERROR: { line: "refused", meaning: "bytes that are not HTTP (400)" },
  // The log itself (docs/decision-log.md).
  LOG_RECOVERED: { line: "log", meaning: "a torn last line (a crash mid-write) was closed on restart; the chain goes on" },
  LOG_LINES_DROPPED: { line: "log", meaning: "decision lines not kept while the log could not be written (over the held bytes)" },
  // Warnings on stderr.
  STORE_RESTARTED: { line: "stderr", meaning: "Redis restarted with its data kept" },
  ALERTS_DROPPED: { line: "stderr", meaning: "alerts dropped: a webhook's queue was full, or guardwire was stopping" },
  ALERTS_UNDELIVERED: { line: "stderr", meaning: "alerts a webhook did not take after every retry" },
  APPROVAL_WEBHOOK_DROPPED: { line: "stderr", meaning: "approval requests dropped: the approval webhook's queue was full" },
  APPROVAL_WEBHOOK_UNDELIVERED: { line: "stderr", meaning: "approval requests the approval webhook did not take after every retry" },
  APPROVALS_FILE_UNWRITABLE: { line: "stderr", meaning: "the file of `remember: always` approvals cannot be written" },
} as const satisfies Record<string, ReasonEntry>;

export type ReasonCode = keyof typeof REASONS;

/** Each reason code as a typed constant: `Reason.DUPLICATE_ID` is "DUPLICATE_ID". */
export const Reason = Object.freeze(Object.fromEntries(Object.keys(REASONS).map((code) => [code, code]))) as { readonly [K in ReasonCode]: K };
