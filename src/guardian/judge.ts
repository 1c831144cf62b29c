import type { AgentProtocol } from "../vocabulary.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import { buildAosRequest, type AosContext, type AosResponse } from "./aos.js";
import { judgementDeadlineMs, type Guardian } from "./guardian.js";
import { readVerdict, unavailable, type Verdict } from "./verdict.js";

/**
 * What the proxy knows of a message besides its body: where it goes, in which session, on which route, and — for a
 * response — the request it answers. `kind` is the proxy's own reading of the message (computed once, never again).
 */
export interface JudgeContext extends AosContext {
  protocol: AgentProtocol;
}

/** A verdict now (the embedded guardian without a store), or later (a remote guardian, a store round trip). */
export type Judgement = Verdict | Promise<Verdict>;

/** The one judging interface the proxy uses: `judge(message, context) → Verdict`, never throwing. */
export type Judge = (message: JsonObject, ctx: JudgeContext) => Judgement;

export interface JudgeOptions {
  /** How long a verdict is waited for at most; default: the guardian's own timeout and a margin (`judgementDeadlineMs`). */
  deadlineMs?: number;
}

/**
 * The proxy's judge for a guardian. A guardian that judges in process (`Guardian.judge`: the embedded one, a chain)
 * is called directly, with no AOS request built and read back; one that speaks only AOS (a remote guardian, or any
 * other implementation) is wrapped here: the request is encoded, the answer read strictly (`readVerdict`). Either
 * way a failure is a verdict (GUARDIAN_UNAVAILABLE), and an answer that does not come within the deadline too.
 */
export function judgeOf(guardian: Guardian, opts: JudgeOptions = {}): Judge {
  const deadlineMs = opts.deadlineMs ?? judgementDeadlineMs(guardian);
  const direct = guardian.judge?.bind(guardian);
  if (direct) {
    return (message, ctx) => {
      let v: Judgement;
      try {
        v = direct(message, ctx);
      } catch (e) {
        return unavailable(`guardian threw: ${(e as Error).message}`);
      }
      return v instanceof Promise ? withDeadline(v, deadlineMs).catch((e: Error) => unavailable(e.message)) : v;
    };
  }
  return (message, ctx) => {
    const { protocol, ...context } = ctx;
    const req = buildAosRequest(protocol === "a2a" ? "protocols/A2A" : "protocols/MCP", message, context);
    let answer: AosResponse | Promise<AosResponse>;
    try {
      answer = guardian.call(req);
    } catch (e) {
      return unavailable(`guardian threw: ${(e as Error).message}`);
    }
    const read = (res: AosResponse): Verdict => {
      try {
        return readVerdict(req, res, message);
      } catch (e) {
        return unavailable(`unreadable guardian answer: ${(e as Error).message}`);
      }
    };
    if (!(answer instanceof Promise)) return read(answer);
    return withDeadline(answer, deadlineMs).then(read, (e: Error) => unavailable(e.message));
  };
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`guardian timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
