import { DEFAULT_GUARDIAN_TIMEOUT_MS } from "../defaults.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { AosRequest, AosResponse } from "./aos.js";
import type { JudgeContext } from "./judge.js";
import type { Verdict } from "./verdict.js";

/**
 * One interface for every guardian: embedded (in process), remote (AOS over HTTP), chain.
 * The embedded guardian answers synchronously (without a store, always), so the hot path pays for no promise when it
 * does not have to.
 */
export interface Guardian {
  /** The AOS edge: what `guardwire guardian` serves, what a remote guardian answers, what conformance tests check. */
  call(request: AosRequest): AosResponse | Promise<AosResponse>;
  /**
   * Judging in process, for the proxy (`judgeOf`): the decision mapped straight to a verdict, no AOS request built and
   * read back. Guardians that have it (embedded, chain) must give the verdict `readVerdict(req, call(req))` would.
   */
  judge?(message: JsonObject, ctx: JudgeContext): Verdict | Promise<Verdict>;
  close?(): Promise<void>;
  /**
   * A guarded session ended for good (closed, not let go for another replica to continue, and not one of the sessions
   * a caller's calls share: A2A, stateless exchanges): what the guardian kept for that session alone — its labels,
   * counts and held input requests — goes now rather than when newer sessions push it out of the bounded store. A
   * guardian with a shared store keeps the store's copy (other replicas may still read it until it expires).
   */
  endSession?(session: string): void;
  /**
   * How long one call may take before it fails on its own: a remote guardian's configured timeout; a chain's, the sum of
   * its members' (they are asked in turn). Absent for guardians that answer in process.
   */
  readonly timeoutMs?: number;
}

/** What a session waits for a verdict when nothing else is configured, and at least. */
export const DEFAULT_JUDGEMENT_MS = DEFAULT_GUARDIAN_TIMEOUT_MS;
/** Past a guardian's own timeout, so the guardian's failure (which names it) comes first. */
const JUDGEMENT_MARGIN_MS = 500;

/**
 * How long a session waits for a verdict from `guardian` before refusing the message (GUARDIAN_UNAVAILABLE): the
 * guardian's own timeout plus a margin, never less than the default. A remote guardian configured to wait 4 s is then
 * waited for, on every route and transport.
 */
export function judgementDeadlineMs(guardian: Guardian): number {
  return Math.max(DEFAULT_JUDGEMENT_MS, (guardian.timeoutMs ?? 0) + JUDGEMENT_MARGIN_MS);
}
