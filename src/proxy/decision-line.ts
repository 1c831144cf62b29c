import type { AgentProtocol } from "../vocabulary.js";
import { createHash, hash } from "node:crypto";
import type { DecisionInput } from "../decision-log/record.js";
import { redactedPreview } from "../decision-log/preview.js";
import { unavailable, type Verdict } from "../guardian/verdict.js";
import { a2aIdsOf } from "../protocol/a2a.js";
import { canonicalize, writeCanonical } from "../protocol/canonical.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { MessageFacts, PeerInfo } from "./pipeline.js";

const LARGE_MESSAGE = 1 << 20;

/** The session's part of every line it writes. */
export interface LineBase {
  session: string;
  route: string;
  transport: string;
  protocol: AgentProtocol;
  agent: string | null;
}

/** The facts of one judged message the line records. */
export interface LineFacts extends MessageFacts {
  message: JsonObject;
  /** For a response: the request it answers (A2A task and context ids are read from it when the response has none). */
  request?: JsonObject | null;
  evalUs: number;
  raw?: string;
}

/** The decision line of a judged message. */
export function decisionLine(base: LineBase, f: LineFacts, v: Verdict, o: { failOpen: boolean; preview: boolean; server: PeerInfo | null }): DecisionInput {
  const input: DecisionInput = {
    session: base.session,
    route: base.route,
    transport: base.transport,
    protocol: base.protocol,
    direction: f.direction,
    kind: f.kind,
    id: f.id,
    method: f.method,
    tool: f.tool,
    agent: base.agent,
    decision: v.decision,
    mode: v.mode,
    rules: v.rules,
    reasonCode: v.reasonCode,
    message: v.message,
    evalUs: f.evalUs,
    digest: digest(f.message, f.raw?.length ?? 0),
  };
  if (v.ruleset) input.ruleset = v.ruleset;
  if (v.approval) input.approval = v.approval;
  if (o.failOpen) input.failOpen = true;
  if (o.preview) input.preview = redactedPreview(f.message);
  if (base.protocol === "a2a") {
    // The multi-agent view: which remote agent, which task and context, so delegation chains can be followed.
    if (o.server) input.peer = o.server.name;
    const m = f.message;
    const ids = a2aIdsOf(m.result !== undefined || m.params !== undefined ? m : (f.request ?? m));
    if (ids.taskId) input.task = ids.taskId;
    if (ids.contextId) input.context = ids.contextId;
  }
  return input;
}

/** A line for a message refused before any judgement (unparsable, invalid, a duplicate id, a gate's refusal). */
export function refusalLine(base: LineBase, f: MessageFacts, reasonCode: string[], message: string): DecisionInput {
  const { session, route, transport, protocol, agent } = base;
  return { session, route, transport, protocol, direction: f.direction, kind: f.kind, id: f.id, method: f.method, tool: f.tool, agent, decision: "deny", mode: "enforce", rules: [], reasonCode, message, evalUs: 0, digest: null };
}

/** While the decision log cannot be written, every message is refused: -32051, naming the file and the errno. */
export function logUnavailable(failure: { file: string; code: string }): Verdict {
  const why = `the decision log ${failure.file} cannot be written (${failure.code}): nothing is forwarded until it can be`;
  return { ...unavailable(why), reasonCode: ["LOG_UNAVAILABLE"] };
}

/** SHA-256 of the canonical JSON of a message; a large one (by its wire size) is hashed piece by piece. */
export function digest(message: unknown, size = 0): string {
  if (size < LARGE_MESSAGE) return hash("sha256", canonicalize(message), "hex");
  const h = createHash("sha256");
  writeCanonical(message, (piece) => h.update(piece));
  return h.digest("hex");
}
