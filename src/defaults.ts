/*
 * The defaults several parts share, defined once. Each can be changed where the docs say (a flag, a config key); the
 * config schema and the flags take their defaults from here.
 */

/** The largest frame read: an NDJSON line, an HTTP body, an SSE event (`--max-frame-bytes`, `maxFrameBytes`). */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The deepest nesting of a JSON message parsed; deeper is refused (`TOO_DEEP`). */
export const DEFAULT_MAX_DEPTH = 128;

/** Requests pending per direction per session; past it a request is refused (`TOO_MANY_PENDING`). */
export const DEFAULT_MAX_PENDING = 4096;

/** Live sessions per route (`maxSessionsPerRoute`); a new one past it is refused with 503. */
export const DEFAULT_MAX_SESSIONS_PER_ROUTE = 10_000;

/** How long a `session` approval lasts in a caller's shared session (A2A, stateless exchanges), which never ends (docs/approvals.md). */
export const SHARED_SESSION_REMEMBER_MS = 60 * 60 * 1000;

/** How long a remote guardian has to answer (`--guardian-timeout-ms`, `guardian.timeoutMs`). */
export const DEFAULT_GUARDIAN_TIMEOUT_MS = 2000;

/** The HTTP front's timeouts and caps (`serve`'s `http:`, docs/serve.md "Limits"). */
export const FRONT_DEFAULTS = {
  bodyBudgetBytes: 64 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  maxConnections: 4096,
  maxConnectionsPerAddress: 2048,
} as const;
