import type { AgentProtocol, Direction } from "../vocabulary.js";
import type { DecisionInput } from "../decision-log/record.js";
import type { ApprovalAsk, Verdict } from "../guardian/verdict.js";
import type { JsonObject, JsonRpcId } from "../protocol/json-rpc.js";
import type { Frame, Peer } from "../transports/types.js";
export type { Frame, Peer } from "../transports/types.js";
import type { UpstreamHops } from "./hops.js";

/**
 * The message pipeline (docs/architecture.md). Every message goes through the same fixed lifecycle:
 *
 *   classify → admit → judge → hold → apply → record
 *
 * The session (`session.ts`) owns classify, judge and apply; features plug in as stages at the other points,
 * composed once per session (`Stages`), never as branches in the session:
 * - admit: live control's gate (src/control) — an agent message passes, waits, or is refused before it is judged;
 * - claim: a message that is the pipeline's own business (approvals: the client's answers to guardwire's forms);
 * - hold: a verdict `hold` (approvals: a person is asked; the final verdict is applied later);
 * - judged: every judged message after its verdict, which may hand back the message to send (tracing's `_meta`);
 * - recorded: every decision line as it is written (alerts).
 */


export type { Direction } from "../vocabulary.js";
export type MessageKind = "request" | "response" | "notification" | "event";
export type PeerInfo = { name: string; version: string };

export interface DecisionSink {
  write(input: DecisionInput): unknown;
  /**
   * The commit point: `then` runs once every line written so far is committed (in the file, and with `--log-sync
   * always` fsynced), `failed` if it cannot be. A session forwards what a turn decided only from `then`
   * (decision-log.md). A sink without it is taken as committed at once.
   */
  barrier?(then: () => void, failed: () => void): void;
  /** Set while the log cannot be written: every message is refused meanwhile (-32051), nothing goes through unlogged. */
  readonly failure?: { file: string; code: string } | undefined;
}

/**
 * Admission (live control): what an operator's suspension makes of a message from the agent. `pass` goes on; a
 * refusal is answered (requests; `answer: false`: withdrawn, nothing owed) or dropped (notifications), and logged; a
 * promise holds the message until it settles (resume: `pass`; kill, shutdown: a refusal).
 */
export type GateRefusal = { message: string; reasonCode: string; answer?: boolean };
export type GateResult = "pass" | GateRefusal | Promise<"pass" | GateRefusal>;

/** What a message is, read once from its frame; these facts travel with it to its log line. */
export interface MessageFacts {
  direction: Direction;
  kind: MessageKind;
  id: JsonRpcId;
  method: string | null;
  tool: string | null;
}

/** One judged message and its verdict, as the `judged` stages see it. */
export interface JudgedMessage extends MessageFacts {
  session: string;
  route: string;
  transport: string;
  protocol: AgentProtocol;
  /** As received; `sent` is what goes on (rewritten or as received), null when the message stops here. */
  message: JsonObject;
  sent: JsonObject | null;
  verdict: Verdict;
  evalUs: number;
  /** The session id the agent holds (`Mcp-Session-Id`), once it has one; null otherwise. */
  clientSession: string | null;
  /** The downstream's context of the frame (over HTTP, `HttpCarry`: the request's trace headers among it). */
  carry: unknown;
}

/** Traces (docs/observability.md): the `judged` stage of tracing, and the upstream hop each session wraps its upstream in. */
export interface MessageTracer {
  /** Records the message's span; for a request or notification that goes on, may return it with its `params._meta` carrying the span. */
  judged(m: JudgedMessage): JsonObject | undefined;
  /** The upstream hop of a new session (`upstream`: the server's transport, `stdio`, `streamable-http`, …, when known). */
  hops?(session: () => string, upstream: string | null): UpstreamHops | null;
}

/** What a `hold` stage is asked to hold: a single agent request whose verdict asks a person. */
export interface HoldRequest {
  ctx: { session: string; route: string; transport: string; agent: string | null; server: string | null; method: string | null; tool: string | null };
  key: string;
  message: JsonObject;
  verdict: Verdict & { ask: ApprovalAsk };
  /** Logs the held message itself (step requested). */
  logHeld(step: NonNullable<Verdict["approval"]>): void;
}

/** A feature at its points of the lifecycle. Every hook is optional; a throwing `judged`/`recorded` never touches traffic. */
export interface Stage {
  readonly name: string;
  admit?(value: unknown, frame: Frame): GateResult;
  /** True: the agent message is consumed by the stage (never judged, never forwarded). */
  claim?(value: unknown): boolean;
  /** Resolves with the verdict to apply, or null when nothing is owed. */
  hold?(req: HoldRequest): Promise<Verdict | null>;
  /** A request id the stage holds (still in use by the agent). */
  holding?(key: string): boolean;
  /** May return the message to send instead (for a request or notification that goes on). */
  judged?(m: JudgedMessage): JsonObject | undefined;
  recorded?(line: DecisionInput, verdict: Verdict): void;
  /** The session ends: what the stage holds is answered. */
  close?(): void;
}

/** What a stage factory may use of the session it is built for. */
export interface SessionHandle {
  readonly id: string;
  readonly route: string;
  readonly transport: string;
  readonly protocol: AgentProtocol;
  readonly agent: { id: string } | null;
  /** A caller's session shared by its calls (A2A, stateless exchanges): what is kept for `id` outlives this one. */
  readonly shared: boolean;
  /** The agent's side: messages of the stage's own (forms, heartbeats) go straight to it. */
  readonly downstream: Peer;
  serverInfo(): PeerInfo | null;
  /** Writes a decision line of the stage's own with the turn (committed before what the turn sends). */
  record(make: () => DecisionInput): void;
  /** The session id the agent holds (`Mcp-Session-Id`), for traces; null for stdio, WebSocket and A2A. */
  clientSession(): string | null;
}

/** Builds a session's stage (null: nothing to do for this session). Composed at start-up, called once per session. */
export type StageFactory = (session: SessionHandle) => Stage | null;

/** The stages of one session, sorted by hook once (the hot path loops only over stages that have the hook). */
export class Stages {
  private admits: Stage[] = [];
  private claims: Stage[] = [];
  private holders: Stage[] = [];
  private observers: Stage[] = [];
  private recorders: Stage[] = [];
  private all: Stage[] = [];

  add(stage: Stage): () => void {
    this.all.push(stage);
    this.sort();
    return () => {
      this.all = this.all.filter((s) => s !== stage);
      this.sort();
    };
  }

  private sort(): void {
    this.admits = this.all.filter((s) => s.admit);
    this.claims = this.all.filter((s) => s.claim);
    this.holders = this.all.filter((s) => s.hold);
    this.observers = this.all.filter((s) => s.judged);
    this.recorders = this.all.filter((s) => s.recorded);
  }

  get recording(): boolean {
    return this.recorders.length > 0;
  }

  get observing(): boolean {
    return this.observers.length > 0;
  }

  /** The first answer that is not `pass` (stages are asked in order; a pending one is awaited by the session). */
  admit(value: unknown, frame: Frame): GateResult {
    for (const s of this.admits) {
      const r = s.admit?.(value, frame);
      if (r !== undefined && r !== "pass") return r;
    }
    return "pass";
  }

  claim(value: unknown): boolean {
    for (const s of this.claims) if (s.claim?.(value)) return true;
    return false;
  }

  /** The stage that holds for approval, if any. */
  get holder(): Stage | null {
    return this.holders[0] ?? null;
  }

  holding(key: string): boolean {
    for (const s of this.all) if (s.holding?.(key)) return true;
    return false;
  }

  judged(m: JudgedMessage): JsonObject | undefined {
    let out: JsonObject | undefined;
    for (const s of this.observers) {
      try {
        out = s.judged?.(out && m.sent ? { ...m, sent: out } : m) ?? out;
      } catch {
        // an observer's failure never touches the traffic
      }
    }
    return out;
  }

  recorded(line: DecisionInput, verdict: Verdict): void {
    for (const s of this.recorders) {
      try {
        s.recorded?.(line, verdict);
      } catch {
        // a side channel: whatever befalls it, the decision line is written
      }
    }
  }

  close(): void {
    for (const s of this.all) s.close?.();
  }
}
