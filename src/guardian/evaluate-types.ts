import type { AlertInfo } from "./alert.js";
import type { NewPin, PinStore } from "./detectors/pins.js";
import type { Direction } from "./rules/compile.js";

/* The evaluator's vocabulary (evaluate.ts): what it is given about a message, and the decision it returns. */

export type Kind = "request" | "response" | "notification" | "event";
export type DecisionName = "allow" | "deny" | "modify" | "ask";

/** What the proxy knows about a message besides the message itself (AOS `params.context`). */
export interface MessageContext {
  direction: Direction;
  session?: string;
  route?: string;
  transport?: string;
  agent?: { id: string } | null;
  server?: { name: string; version?: string } | null;
  /** For a response: the request it answers. */
  request?: Record<string, unknown> | null;
  /** Set by the proxy when it already knows; derived from the message otherwise. */
  kind?: Kind;
}

export interface SessionView {
  id: string;
  labels: string[];
  counts: Record<string, number>;
}

export interface Decision {
  decision: DecisionName;
  mode: "enforce" | "audit";
  /** Ids of the rules that fired and decided (enforced). */
  rules: string[];
  /** The rule reported to the caller on a block: the first deny in load order. */
  rule?: string;
  reasonCode: string[];
  message: string;
  /** The message to send instead, for `modify` (and for `ask`, once approved, when modify rules also fired). */
  modified?: Record<string, unknown>;
  /** decision: ask — what the person is asked (the prompt filled in), and what an approval covers. */
  ask?: { rule: string; prompt: string; timeoutMs: number; onTimeout: "deny" | "allow"; remember: "once" | "session" | "always" };
  /** What audit-mode rules would have done, when any fired. */
  audit?: { decision: DecisionName; rules: string[]; reasonCode: string[] };
  /** Rules whose evaluation failed (each is a deny RULE_ERROR unless failing open). */
  errors?: { rule: string; error: string }[];
  /** Session labels added by the rules that fired. */
  labels?: string[];
  /** Detection types found by the rules that fired. */
  detected?: string[];
  /** Tools seen for the first time by tool_changed, for the guardian to pin. */
  newPins?: NewPin[];
  /** The requests an `input_required` result let through to the client, for the guardian to know the answers by. */
  inputRequests?: InputRequest[];
  /** Alerting rules among those that fired (enforced or audited), with their highest severity. */
  alert?: AlertInfo;
}

/** A request inside an MCP 2026-07-28 `input_required` result, by its key. */
export interface InputRequest {
  key: string;
  method: string;
  params?: unknown;
}

export interface EvaluateOptions {
  /** failMode: open — a rule that fails to evaluate is skipped instead of denying. */
  failOpen?: boolean;
  /** Pinned tool fingerprints, for the tool_changed detector. */
  pins?: PinStore | null;
  /** Sliding-window counters for `limit`. */
  limiter?: Limiter | null;
  /** Milliseconds, for `limit` windows. */
  now?: number;
  /** The request an `inputResponses` entry answers, as the session's earlier `input_required` result asked it. */
  inputRequest?: (key: string) => InputRequest | undefined;
}

/** Counts hits per key in a sliding window; returns the count including this hit. */
export interface Limiter {
  hit(key: string, windowMs: number, now: number): number;
}
