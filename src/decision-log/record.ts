import type { Direction, Protocol } from "../vocabulary.js";

/**
 * One decision, as written to the log. Field names are stable and documented in docs/decision-log.md.
 * `v`, `time`, `seq`, `prev` and `hash` are added by the writer: hash = sha256 of the line's bytes before `,"hash"`.
 */
export interface DecisionInput {
  session: string;
  route: string;
  transport: string;
  protocol: Protocol;
  direction: Direction;
  /**
   * `log`: a line about the log itself (a crash recovered, lines dropped while it was unwritable), not a message.
   * `refused`: a request the HTTP front refused before any message reached the guardian (bad path, key, Host, size, caps).
   * `control`: an operator's action on a live session (method `guardwire/suspend`, `guardwire/resume`, `guardwire/kill`).
   */
  kind: "request" | "response" | "notification" | "event" | "log" | "refused" | "control";
  id: string | number | null;
  method: string | null;
  tool: string | null;
  agent: string | null;
  decision: "allow" | "deny" | "modify" | "ask";
  mode: "enforce" | "audit";
  rules: string[];
  reasonCode: string[];
  message: string;
  evalUs: number;
  /** SHA-256 (hex) of the canonical JSON of the message as received; null when the frame could not be parsed. */
  digest: string | null;
  /** Hash of the rule set that decided (so a line can be tied to the rules in force); the writer adds the one in force when absent. */
  ruleset?: string;
  /** The replica that wrote the line (`serve`; `wrap` and `guardian` only with $GUARDWIRE_REPLICA); added by the writer. */
  replica?: string;
  /** Set when failMode: open let a message through that the guardian could not judge. */
  failOpen?: boolean;
  /** Redacted preview of the message, only when explicitly enabled. */
  preview?: string;
  /** A2A: the remote agent (its card's name), and the task and context the message is about. Kind `refused`: the caller's address. */
  peer?: string;
  task?: string;
  context?: string;
  /** On a `LOG_RECOVERED` line: sha256 of the torn line just before it, which that line closes. */
  torn?: string;
  /** Approvals: one step of a held message, linked by the approval id (docs/approvals.md). */
  approval?: ApprovalStep;
}

export interface ApprovalStep {
  id: string;
  step: "requested" | "elicitation" | "decided" | "remembered";
  /** requested: where the person is asked. decided: where the answer came from. */
  channels?: string[];
  channel?: string;
  outcome?: "approved" | "refused" | "timeout" | "cancelled" | "shutdown";
  by?: string;
  afterMs?: number;
  reason?: string;
  remember?: "once" | "session" | "always";
  argsDigest?: string;
  expires?: string;
}

export interface DecisionRecord extends DecisionInput {
  /** The record version: 2 (absent on version-1 lines, whose hash covered their canonical JSON). */
  v?: number;
  time: string;
  seq: number;
  prev: string;
  hash: string;
}

/**
 * The record version the writer writes. 1 (no `v` field): hash = sha256(prev + canonical JSON of the line without
 * hash). 2: hash = sha256 of the line's exact bytes from `{` up to the `,"hash":` that ends it (`prev` is among them).
 */
export const RECORD_VERSION = 2;

/** The `prev` of the first line of a new chain. */
export const GENESIS = "0".repeat(64);

/** A line about the log itself (kind `log`), not about a message. */
export function noteOf(reasonCode: string, message: string): DecisionInput {
  return {
    session: "-", route: "-", transport: "-", protocol: "mcp", direction: "inbound", kind: "log", id: null, method: null, tool: null,
    agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [reasonCode], message, evalUs: 0, digest: null,
  };
}
