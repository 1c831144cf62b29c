import { hash } from "node:crypto";
import { canonicalize } from "../protocol/canonical.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import { ErrorCode } from "../protocol/json-rpc.js";
import { AOS_VERSION, STEP_METHODS, type AosRequest, type AosResponse, type AosResult } from "./aos.js";
import { evaluate, factsOf, limitKey, matchesStatically, type Decision, type Limiter, type MessageContext, type SessionView } from "./evaluate.js";
import type { Guardian } from "./guardian.js";
import type { JudgeContext } from "./judge.js";
import { readContext } from "./context.js";
import { invariantBroken, storeUnavailable, unavailable, type ApprovalAsk, type Verdict } from "./verdict.js";
import type { CompiledRuleSet, Protocol } from "./rules/compile.js";
import { a2aApprovalArgs } from "../protocol/a2a.js";
import { MCP_PLUMBING } from "../protocol/mcp.js";
import { InputRequestStore, MemoryPinStore, PrefetchedLimiter, SessionStore, SlidingWindowLimiter, type SharedState, type WindowHit } from "./state.js";

const STEPS = new Set(STEP_METHODS);
/** Requests whose count alone never makes a message need the store: the handshake goes on while Redis is away. */
const HANDSHAKE: ReadonlySet<string> = new Set([...MCP_PLUMBING, "server/discover"]);
/** Steps that bring content into the agent, judged as inbound. */
export const INBOUND_STEPS: ReadonlySet<string> = new Set(["steps/toolCallResult", "steps/knowledgeRetrieval", "steps/memoryContextRetrieval"]);

export interface EmbeddedGuardianOptions {
  failOpen?: boolean;
  now?: () => Date;
  /** Where tool_changed keeps its pins (default: in memory only). */
  pins?: MemoryPinStore;
}

/** An embedded guardian with or without a store (what the console and the commands hold). */
export type AnyEmbeddedGuardian = EmbeddedGuardian<AosResponse | Promise<AosResponse>>;

type StoreError = ReturnType<SharedState["unavailable"]>;
/** A decision, or the store's error when the message needs shared state that cannot be reached. */
type Judged = Decision | { refused: StoreError };

/** What judging one message will read and write of the shared state, known from the rules before evaluation. */
interface Needs {
  session: boolean;
  windows: { key: string; windowMs: number }[];
  pins: boolean;
  /** Labels or counts this message adds, read by some rule of the set. */
  writes: boolean;
}

/**
 * The rule engine as a complete AOS guardian: `protocols/MCP`, `protocols/A2A` (wrapped `{message, context}` or flat
 * params), `ping` and `steps/*`. In process: no serialization, answers synchronously — with a shared store
 * (`withStore`), a promise when the message's rules need state from it first.
 */
export class EmbeddedGuardian<Answer extends AosResponse | Promise<AosResponse> = AosResponse> implements Guardian {
  private readonly sessions = new SessionStore();
  private readonly limiter = new SlidingWindowLimiter();
  private readonly inputs = new InputRequestStore();
  private readonly pins: MemoryPinStore | SharedState["pins"];
  /** Whether any rule of the set reads `session` (then labels and counts are state worth keeping shared). */
  private sessionRead: boolean;

  constructor(
    private ruleSet: CompiledRuleSet,
    private readonly opts: EmbeddedGuardianOptions = {},
    /** Labels, counts, limit windows and pins shared with other replicas (docs/scale.md): see `withStore`. */
    private readonly shared: SharedState | null = null,
  ) {
    this.pins = shared?.pins ?? opts.pins ?? new MemoryPinStore();
    this.sessionRead = ruleSet.rules.some((r) => r.readsSession);
  }

  /** A guardian whose state is shared with other replicas: it answers with a promise when it waited for the store. */
  static withStore(ruleSet: CompiledRuleSet, shared: SharedState, opts: Omit<EmbeddedGuardianOptions, "pins"> = {}): AnyEmbeddedGuardian {
    return new EmbeddedGuardian<AosResponse | Promise<AosResponse>>(ruleSet, opts, shared);
  }

  /** Hot reload: the next call sees the new rules; a call in progress keeps the ones it started with. */
  setRules(ruleSet: CompiledRuleSet): void {
    this.ruleSet = ruleSet;
    this.sessionRead = ruleSet.rules.some((r) => r.readsSession);
  }

  get rules(): CompiledRuleSet {
    return this.ruleSet;
  }

  /**
   * A decision for a message that is not traffic (the console's playground): the rules in force and the pins are
   * read, nothing is kept — no labels, no counts, no limit window, no new pin, no held input request.
   */
  trial(protocol: Protocol, message: JsonObject, ctx: MessageContext): Decision {
    return evaluate(protocol, message, ctx, this.ruleSet, { id: ctx.session ?? "", labels: [], counts: {} }, {
      failOpen: this.opts.failOpen,
      pins: this.pins,
      limiter: new SlidingWindowLimiter(),
      now: this.opts.now ? this.opts.now().getTime() : Date.now(),
    });
  }

  call(req: AosRequest): Answer {
    return this.answer(req) as Answer;
  }

  /** The session ended for good: its labels, counts and held input requests go (`Guardian.endSession`). */
  endSession(session: string): void {
    this.sessions.forget(session);
    this.inputs.forget(session);
  }

  /** How many sessions' labels and counts this guardian holds in memory (bounded: 10,000). */
  get sessionsHeld(): number {
    return this.sessions.size;
  }

  /**
   * The proxy's way in (`judgeOf`): the decision becomes a verdict directly — the verdict `readVerdict` reads from
   * what `call` answers for the same message, without building the AOS request and reading it back.
   */
  judge(message: JsonObject, ctx: JudgeContext): Verdict | Promise<Verdict> {
    const judged = this.settle(ctx.protocol, message, ctx);
    if (judged instanceof Promise) return judged.then((j) => this.verdictOf(j, message));
    return this.verdictOf(judged, message);
  }

  private verdictOf(j: Judged, message: JsonObject): Verdict {
    if (isRefusal(j)) return storeUnavailable(j.refused) ?? unavailable(`guardian error ${j.refused.code}: ${j.refused.message}`);
    return verdictOfDecision(j, message, this.ruleSet.hash);
  }

  private answer(req: AosRequest): AosResponse | Promise<AosResponse> {
    const id = typeof req?.id === "string" || typeof req?.id === "number" ? req.id : null;
    if (req === null || typeof req !== "object" || req.jsonrpc !== "2.0" || typeof req.method !== "string" || id === null) {
      return fail(id, ErrorCode.InvalidRequest, "Invalid JSON-RPC Request");
    }
    const params = req.params;
    if (req.method === "ping") {
      const now = (this.opts.now ?? (() => new Date()))();
      return { jsonrpc: "2.0", id, result: { status: "connected", version: AOS_VERSION, timestamp: now.toISOString() } };
    }
    if (params === null || typeof params !== "object" || Array.isArray(params)) {
      return fail(id, ErrorCode.InvalidParams, "Invalid method parameters: params must be an object");
    }
    if (req.method === "protocols/MCP" || req.method === "protocols/A2A") {
      const protocol: Protocol = req.method === "protocols/MCP" ? "mcp" : "a2a";
      const flat = params.jsonrpc === "2.0";
      const message = flat ? params : params.message;
      if (message === null || typeof message !== "object" || Array.isArray(message)) {
        return fail(id, ErrorCode.InvalidParams, "Invalid method parameters: params.message must be a JSON-RPC message object");
      }
      const msg = message as JsonObject;
      const ctx = readContext(flat ? undefined : params.context, msg);
      const judged = this.settle(protocol, msg, ctx);
      if (judged instanceof Promise) return judged.then((j) => this.protocolAnswer(id, j, req, flat, msg));
      return this.protocolAnswer(id, judged, req, flat, msg);
    }
    if (STEPS.has(req.method)) {
      const ctx: MessageContext = { direction: INBOUND_STEPS.has(req.method) ? "inbound" : "outbound", kind: "request" };
      const asMessage: JsonObject = { jsonrpc: "2.0", id, method: req.method, params: stepParams(req.method, params) };
      const judged = this.settle("aos", asMessage, ctx);
      if (judged instanceof Promise) return judged.then((j) => this.stepAnswer(id, j, req));
      return this.stepAnswer(id, judged, req);
    }
    return fail(id, ErrorCode.MethodNotFound, `Method not found: ${req.method}`);
  }

  private protocolAnswer(id: string | number, judged: Judged, req: AosRequest, flat: boolean, msg: JsonObject): AosResponse {
    if (isRefusal(judged)) return { jsonrpc: "2.0", id, error: judged.refused };
    return { jsonrpc: "2.0", id, result: this.result(judged, req, flat, undefined, msg) };
  }

  private stepAnswer(id: string | number, judged: Judged, req: AosRequest): AosResponse {
    if (isRefusal(judged)) return { jsonrpc: "2.0", id, error: judged.refused };
    if (!judged.modified) return { jsonrpc: "2.0", id, result: this.result(judged, req, false) };
    const modifiedParams = (judged.modified.params ?? {}) as JsonObject;
    return { jsonrpc: "2.0", id, result: this.result({ ...judged, modified: undefined }, req, false, { ...req, params: modifiedParams }) };
  }

  /**
   * Evaluation is pure; the state it reads (labels, counts, windows, pins) is kept here and updated after. With a
   * shared store, a message whose rules read the session or count it in a limit window waits for one round trip.
   */
  private settle(protocol: Protocol, message: JsonObject, ctx: MessageContext): Judged | Promise<Judged> {
    // A tool list is compared with the pins as they are now, whichever process wrote them (one stat of a pins file).
    if (ctx.direction === "inbound" && isToolList(message)) this.pins.refresh?.();
    const shared = this.shared;
    if (!shared) return this.decide(protocol, message, ctx, null, this.limiter);
    const needs = this.needs(protocol, message, ctx);
    const needed = needs.session || needs.windows.length > 0 || needs.pins || needs.writes;
    if (!shared.available && needed) return this.withoutStore(shared, protocol, message, ctx, shared.unavailable());
    if (!needs.session && needs.windows.length === 0) return this.decide(protocol, message, ctx, shared, this.limiter);
    return shared.fetch(needs.session ? (ctx.session ?? "") : null, needs.windows).then(
      (reads) => {
        const limiter = new PrefetchedLimiter(reads.hits, this.limiter);
        return this.decide(protocol, message, ctx, shared, limiter, reads.session ?? undefined);
      },
      (e: Error) => this.withoutStore(shared, protocol, message, ctx, shared.unavailable(e.message)),
    );
  }

  /** Redis is away and the message needs it: refused (`closed`), or judged with this replica's memory (`local`). */
  private withoutStore(shared: SharedState, protocol: Protocol, message: JsonObject, ctx: MessageContext, error: StoreError): Judged {
    if (shared.onUnavailable === "closed") return { refused: error };
    shared.fellBack(error.message);
    return this.decide(protocol, message, ctx, null, this.limiter);
  }

  /** What the rules that may fire on this message read and write, before any of it is read (their `match` decides). */
  private needs(protocol: Protocol, message: JsonObject, ctx: MessageContext): Needs {
    const { kind, method, tool } = factsOf(message, ctx);
    const countsIt = kind === "request" && method !== null && !HANDSHAKE.has(method);
    const needs: Needs = { session: false, windows: [], pins: false, writes: this.sessionRead && countsIt };
    for (const rule of this.ruleSet.candidates(protocol, ctx.direction, method)) {
      if (!matchesStatically(rule, protocol, ctx, kind, method, tool)) continue;
      if (rule.readsSession) needs.session = true;
      if (rule.limit) needs.windows.push({ key: limitKey(rule, ctx, tool), windowMs: rule.limit.perMs });
      if (rule.labels.length > 0 && this.sessionRead) needs.writes = true;
      if (rule.detectors.some((d) => d.key === "tool_changed")) needs.pins = true;
    }
    return needs;
  }

  /**
   * Evaluates, then keeps what the decision changed: in the shared store when one is given, in memory otherwise. A
   * message counted by a limit window the store holds closed (it lost its data) is refused instead, and not counted.
   */
  private decide(protocol: Protocol, message: JsonObject, ctx: MessageContext, shared: SharedState | null, limiter: Limiter, fetched?: SessionView): Judged {
    const sessionId = ctx.session ?? "";
    const nowMs = this.opts.now ? this.opts.now().getTime() : Date.now();
    // With a store, rules that read the session made it be fetched; the others see none (they do not read it).
    const view = fetched ?? (shared ? { id: sessionId, labels: [], counts: {} } : () => this.sessions.view(sessionId));
    const decision = evaluate(protocol, message, ctx, this.ruleSet, view, {
      failOpen: this.opts.failOpen,
      pins: this.pins,
      limiter,
      now: nowMs,
      inputRequest: (key) => this.inputs.get(sessionId, key),
    });
    if (shared && limiter instanceof PrefetchedLimiter) {
      const held = shared.held(limiter.consulted());
      if (held) {
        shared.record(sessionId, [], [], [...limiter.consulted(), ...limiter.unused()]);
        return { refused: held };
      }
    }
    if (decision.inputRequests && decision.inputRequests.length > 0) this.inputs.remember(sessionId, decision.inputRequests);
    const method = typeof message.method === "string" ? message.method : null;
    const counted = method && "id" in message ? [method] : [];
    const tool = method === "tools/call" ? (message.params as { name?: unknown } | undefined)?.name : undefined;
    if (typeof tool === "string") counted.push(`tool:${tool}`);
    if (shared) {
      const released: WindowHit[] = limiter instanceof PrefetchedLimiter ? limiter.unused() : [];
      if (shared.available) shared.record(sessionId, decision.labels ?? [], counted, released);
    } else if (decision.labels || counted.length > 0) {
      this.sessions.update(sessionId, decision.labels, counted);
    }
    if (decision.newPins) this.pins.add(decision.newPins);
    return decision;
  }

  private result(d: Decision, req: AosRequest, flat: boolean, modifiedRequest?: AosRequest, message?: JsonObject): AosResult {
    const audit = d.mode === "audit";
    const data: JsonObject = { rules: d.rules, mode: d.mode, ruleset: this.ruleSet.hash };
    if (d.rule) data.rule = d.rule;
    if (d.audit) data.audit = d.audit;
    if (d.errors) data.errors = d.errors;
    if (d.detected) data.detected = d.detected;
    if (d.labels) data.labels = d.labels;
    if (d.alert) data.alert = d.alert as unknown as JsonObject;
    // In audit mode the guardian reports what it would have done, and tells the agent to go ahead.
    const result: AosResult = {
      decision: audit ? "allow" : d.decision === "ask" ? "deny" : d.decision,
      message: d.message,
      reasonCode: d.reasonCode,
      data,
    };
    if (audit) data.wouldBe = d.audit?.decision ?? d.decision;
    if (!audit && d.decision === "ask" && d.ask) {
      // AOS has no "ask": a deny that a consumer unaware of approvals enforces as is (fails closed).
      result.reasonCode = askCodes(d.reasonCode);
      data.approval = approvalAsk(d, message ?? {}, this.ruleSet.hash) as unknown as JsonObject;
      return result;
    }
    if (!audit && d.modified) {
      const params = flat ? d.modified : { ...(req.params ?? {}), message: d.modified };
      result.modifiedRequest = { jsonrpc: "2.0", id: req.id, method: req.method, params: params as { message: Record<string, unknown> } };
    } else if (!audit && modifiedRequest) {
      result.modifiedRequest = modifiedRequest as AosResult["modifiedRequest"];
    }
    return result;
  }
}

/** `data.approval` of an APPROVAL_REQUIRED answer (docs/guardian.md), and a hold's `ask`: what to ask, and what an approval is bound to. */
function approvalAsk(d: Decision, message: JsonObject, ruleset: string): ApprovalAsk {
  const ask = d.ask as NonNullable<Decision["ask"]>;
  const params = message.params as { arguments?: unknown } | undefined;
  const method = typeof message.method === "string" ? message.method : "";
  const args = method === "tools/call" ? (params?.arguments ?? null) : a2aApprovalArgs(method, params);
  const approval: ApprovalAsk = {
    rule: ask.rule,
    prompt: ask.prompt,
    timeoutMs: ask.timeoutMs,
    onTimeout: ask.onTimeout,
    remember: ask.remember,
    argsDigest: hash("sha256", canonicalize(args), "hex"),
    ruleset,
  };
  if (d.modified) approval.modified = d.modified as JsonObject;
  return approval;
}

/**
 * A decision as the verdict the proxy applies: what `readVerdict` makes of the AOS answer `result()` gives for it —
 * audit forwards and logs the would-be decision, ask holds (APPROVAL_REQUIRED first), a modification that changes the
 * message's id, kind or method fails closed.
 */
function verdictOfDecision(d: Decision, message: JsonObject, ruleset: string): Verdict {
  const base = (action: Verdict["action"], decision: Verdict["decision"], mode: Verdict["mode"], reasonCode: string[], rules: string[], modified?: JsonObject): Verdict => ({
    action, decision, mode, rules, rule: d.rule, reasonCode, message: d.message, ruleset, modified, alert: d.alert,
  });
  if (d.mode === "audit") {
    const wouldBe = d.audit?.decision ?? d.decision;
    return base("forward", wouldBe, "audit", d.audit?.reasonCode ?? d.reasonCode, d.audit ? d.rules.concat(d.audit.rules) : d.rules);
  }
  if (d.decision === "allow") return base("forward", "allow", "enforce", d.reasonCode, d.rules);
  if (d.decision === "ask" && d.ask) {
    const ask = approvalAsk(d, message, ruleset);
    if (ask.modified && invariantBroken(message, ask.modified)) return base("block", "deny", "enforce", askCodes(d.reasonCode), d.rules);
    return { ...base("hold", "ask", "enforce", askCodes(d.reasonCode), d.rules), ask };
  }
  if (d.decision === "deny" || d.decision === "ask") return base("block", "deny", "enforce", d.reasonCode, d.rules);
  if (!d.modified) return unavailable("modify without a matching modifiedRequest");
  const modified = d.modified as JsonObject;
  const problem = invariantBroken(message, modified);
  if (problem) return unavailable(`modify rejected: ${problem}`);
  return base("rewrite", "modify", "enforce", d.reasonCode, d.rules, modified);
}

const askCodes = (codes: string[]): string[] => ["APPROVAL_REQUIRED", ...codes.filter((c) => c !== "APPROVAL_REQUIRED")];

/** A decision has a `decision`; the store's refusal has none. */
function isRefusal(j: Judged): j is { refused: StoreError } {
  return (j as Partial<Decision>).decision === undefined;
}

function fail(id: string | number | null, code: number, message: string): AosResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function isToolList(message: JsonObject): boolean {
  const result = message.result;
  return result !== null && typeof result === "object" && Array.isArray((result as { tools?: unknown }).tools);
}

/** A step's params as rules see them: `args` are the tool inputs by name, so `args.path` works for steps too. */
function stepParams(method: string, params: JsonObject): JsonObject {
  if (method !== "steps/toolCallRequest") return params;
  const call = params.toolCallRequest as { toolId?: unknown; inputs?: unknown } | undefined;
  if (!call || !Array.isArray(call.inputs)) return params;
  const args: JsonObject = {};
  for (const input of call.inputs as { name?: unknown; value?: unknown }[]) {
    if (input && typeof input.name === "string") Object.defineProperty(args, input.name, { value: input.value, enumerable: true, writable: true, configurable: true });
  }
  return { ...params, name: call.toolId, arguments: args };
}
