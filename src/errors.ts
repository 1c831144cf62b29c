/** Local failures carry a stable string code; wire errors (numeric JSON-RPC codes) live in protocol/json-rpc.ts. */
export type GuardwireErrorCode =
  | "UPSTREAM_SPAWN_FAILED"
  | "RULES_INVALID"
  | "CONFIG_INVALID"
  | "LOG_UNWRITABLE"
  | "STORE_UNAVAILABLE"
  | "FILE_LOCKED"
  | "USAGE";

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
