/** Why an agent's notification or response did not reach the server: the HTTP status its POST gets, and why. */
export interface Undelivered {
  /** 404: the server no longer knows the session (the agent must start a new one); 502: not delivered. */
  status: 404 | 502;
  reason: string;
}

/**
 * An agent's POST of notifications or responses is acknowledged (202) only once the server has what went on
 * (docs/scale.md, "Order"): a session's messages then reach the server in the order the agent sent them, whichever
 * replicas they cross, because the agent sends its next message after the acknowledgement.
 *
 * Whoever still has work to do on the frame holds the receipt: the session until every message of the frame is
 * decided and what goes on is handed to the upstream; an HTTP upstream until the server answered the POST that carried
 * it. It settles when the last hold is released, with the first problem reported.
 */
export class Receipt {
  private holds = 0;
  private problem: Undelivered | null = null;
  private settle: ((problem: Undelivered | null) => void) | null = null;
  private finished = false;
  /** Settles with null once the server has every message that went on, or with why one did not reach it. */
  readonly settled: Promise<Undelivered | null> = new Promise((resolve) => (this.settle = resolve));

  /** One more thing to wait for; the function releases it (once), with a problem if delivery failed. */
  hold(): (problem?: Undelivered) => void {
    // Held after it settled (a message an operator's suspension held and let go later): the agent was answered.
    if (this.finished) return () => {};
    this.holds++;
    let released = false;
    return (problem) => {
      if (released) return;
      released = true;
      if (problem && !this.problem) this.problem = problem;
      if (--this.holds === 0) this.finish();
    };
  }

  /** Called by the downstream once the frame was handed to the session: with no hold taken, it settles at once. */
  close(): void {
    if (this.holds === 0) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.settle?.(this.problem);
  }
}

/** The receipt an agent frame's `carry` holds, if its downstream waits for one. */
export function receiptOf(carry: unknown): Receipt | undefined {
  const r = (carry as { receipt?: unknown } | null | undefined)?.receipt;
  return r instanceof Receipt ? r : undefined;
}
