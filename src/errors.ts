/*
 * guardwire's error catalogue (docs/errors.md, checked against these tables by test/errors-catalogue.test.ts). Three
 * families, as the MCP SDK and Fastify keep them: local failures (`GuardwireError`, a string code and the exit status a
 * command ends with), wire errors (a numeric JSON-RPC code, and the HTTP status a front answers with when the error is
 * the HTTP answer itself), and the admin API's errors (a string code and an HTTP status).
 */

export interface LocalErrorEntry {
  /** The exit status of a command that stops on it. */
  exit: number;
  meaning: string;
}

/** Local failures: thrown as `GuardwireError`, printed as one line naming the fix. */
export const LOCAL_ERRORS = {
  UPSTREAM_SPAWN_FAILED: { exit: 127, meaning: "the server's command could not be started (not found, not executable)" },
  RULES_INVALID: { exit: 2, meaning: "a rule file does not load: YAML, schema, CEL or regex error, named by file, line and column" },
  CONFIG_INVALID: { exit: 2, meaning: "the serve configuration (or a client's config file) does not load, named by file, line and key path" },
  LOG_UNWRITABLE: { exit: 2, meaning: "the decision log cannot be opened or written, so nothing is judged" },
  STORE_UNAVAILABLE: { exit: 2, meaning: "the shared store (Redis) cannot be reached where a command needs it" },
  FILE_LOCKED: { exit: 2, meaning: "another process holds the lock of a file guardwire changes (the pins file) past the wait" },
  USAGE: { exit: 2, meaning: "a command line guardwire cannot act on: an unknown option, value or combination" },
} as const satisfies Record<string, LocalErrorEntry>;

export type GuardwireErrorCode = keyof typeof LOCAL_ERRORS;

export class GuardwireError extends Error {
  constructor(
    readonly code: GuardwireErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GuardwireError";
  }
}

export interface WireErrorEntry {
  /** The JSON-RPC error code. */
  code: number;
  /**
   * The HTTP statuses a front answers with when this error is the HTTP answer (an HTTP-level refusal, an A2A REST call);
   * empty when it only travels inside a JSON-RPC answer (a line on stdio, an HTTP 200 body, an SSE event).
   */
  http: readonly number[];
  /** The message it is sent with, before any detail guardwire adds after a colon. */
  message: string;
  meaning: string;
}

/** Wire errors. -32050..-32054 are guardwire's own, in JSON-RPC's server range, unused by MCP and A2A. */
export const WIRE_ERRORS = {
  ParseError: { code: -32700, http: [400], message: "Parse error", meaning: "the message is not JSON" },
  InvalidRequest: {
    code: -32600,
    http: [400, 401, 413, 415],
    message: "Invalid Request",
    meaning: "not a JSON-RPC message, nested too deep, over the frame limit, an empty batch, an id already pending (401: no guardian key)",
  },
  MethodNotFound: { code: -32601, http: [], message: "Method not found", meaning: "the guardian endpoint does not know the AOS method" },
  InvalidParams: { code: -32602, http: [], message: "Invalid method parameters", meaning: "an AOS request to the guardian endpoint without the message to judge" },
  InternalError: { code: -32603, http: [], message: "Internal error", meaning: "the guardian endpoint cannot answer: its decision log cannot be written, or a bug" },
  ServerError: {
    code: -32000,
    http: [400, 401, 403, 404, 405, 406, 409, 415, 503],
    message: "Bad Request",
    meaning: "a refusal of MCP's HTTP transport (headers, method, protocol version, a full route), as the MCP SDK answers it; the message names the HTTP status",
  },
  SessionNotFound: { code: -32001, http: [404], message: "Session not found", meaning: "an unknown, expired or foreign Mcp-Session-Id" },
  DeniedByPolicy: { code: -32050, http: [403], message: "Denied by policy", meaning: "a rule (or an operator, an approver) denied the message; data holds the reason codes" },
  GuardianUnavailable: {
    code: -32051,
    http: [503],
    message: "Guardian unavailable",
    meaning: "the message could not be judged (guardian timed out or failed, the log or the shared store is away): failing closed",
  },
  UpstreamUnavailable: {
    code: -32052,
    http: [502],
    message: "Upstream unavailable",
    meaning: "the server could not be reached, answered with an error status, or ended before answering",
  },
  UpstreamUnauthorized: {
    code: -32053,
    http: [],
    message: "Upstream requires authorization",
    meaning: "the server answered 401/403 where that status cannot reach the agent (legacy SSE, WebSocket, a stream already open)",
  },
  Cancelled: { code: -32054, http: [], message: "Request cancelled by the client", meaning: "a batch member the agent cancelled: its place in the joined batch reply" },
} as const satisfies Record<string, WireErrorEntry>;

type WireName = keyof typeof WIRE_ERRORS;

/** The JSON-RPC code of each wire error, by name: `ErrorCode.DeniedByPolicy` is -32050. */
export const ErrorCode = Object.freeze(Object.fromEntries(Object.entries(WIRE_ERRORS).map(([name, e]) => [name, e.code]))) as {
  readonly [K in WireName]: (typeof WIRE_ERRORS)[K]["code"];
};

export interface AdminErrorEntry {
  status: number;
  meaning: string;
}

/** Errors of the admin API (`{error: {code, message}}`) and of the approval links, with their HTTP status. */
export const ADMIN_ERRORS = {
  UNAUTHORIZED: { status: 401, meaning: "no valid bearer token" },
  NOT_FOUND: { status: 404, meaning: "no such endpoint, held approval, remembered approval or live session" },
  METHOD_NOT_ALLOWED: { status: 405, meaning: "the endpoint exists, not with this HTTP method" },
  BAD_REQUEST: { status: 400, meaning: "the body or query is not what the endpoint takes (422 when new rules do not load)" },
  BAD_SCOPE: { status: 400, meaning: "the rule does not allow remembering the approval that long" },
  TOO_LARGE: { status: 413, meaning: "a body, form or log over the endpoint's limit" },
  TOO_MANY_STREAMS: { status: 503, meaning: "the event streams open at once are at their cap" },
  CONFLICT: { status: 409, meaning: "the state does not allow it now: no log file, a verify already running, an approval already decided" },
  FORBIDDEN: { status: 403, meaning: "a Host or Origin the admin API does not accept" },
  UNAVAILABLE: { status: 503, meaning: "the shared store or the replica that holds the session or approval cannot be reached, or a cap is reached" },
  LINK_INVALID: { status: 403, meaning: "an approval link that was changed or comes from another guardwire" },
  LINK_EXPIRED: { status: 410, meaning: "an approval link whose approval's time ran out" },
  LINK_USED: { status: 409, meaning: "an approval link already used (each works once)" },
  APPROVAL_GONE: { status: 409, meaning: "the approval a link is for is no longer waiting" },
} as const satisfies Record<string, AdminErrorEntry>;

export type AdminErrorCode = keyof typeof ADMIN_ERRORS;
