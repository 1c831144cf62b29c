import type { Verdict } from "../guardian/verdict.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { Batch } from "./batch.js";
import type { Pending } from "./correlation.js";
import type { LineBase } from "./decision-line.js";
import type { JudgedMessage, MessageFacts } from "./pipeline.js";

/** One message, classified once: its facts travel with it from the frame to the log line. */
export interface Plan extends MessageFacts {
  message: JsonObject;
  request: Pending | undefined;
  verdict: Verdict;
  evalUs: number;
  raw?: string;
  batch?: Batch;
  /** Inbound: the agent request stream the frame came on. Outbound: the downstream's context for the upstream. */
  stream: string | null;
  carry: unknown;
}

/** An element of a batch that goes on: its text, and its request's id key (null for notifications and responses). */
export interface Forward {
  text: string;
  key: string | null;
}

/** What the `judged` stages see of a plan and the verdict applied to it. */
export function judgedMessage(base: LineBase, p: Plan, v: Verdict, clientSession: string | null): JudgedMessage {
  const goesOn = v.action === "forward" || v.action === "rewrite";
  const sent = goesOn ? (v.action === "rewrite" && v.modified ? v.modified : p.message) : null;
  const { direction, kind, id, method, tool, message, evalUs, carry } = p;
  return { session: base.session, route: base.route, transport: base.transport, protocol: base.protocol, direction, kind, id, method, tool, message, sent, verdict: v, evalUs, clientSession, carry };
}
