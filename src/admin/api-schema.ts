import { z } from "zod";
import type { AdminErrorCode } from "../errors.js";
import type { ApiError } from "./server.js";
import type { ApprovalOutcome, HeldApproval } from "../approvals/broker.js";
import type { Binding, Remembered } from "../approvals/remembered.js";
import type { SessionInfo } from "../control/registry.js";
import type { ApprovalStep, DecisionInput } from "../decision-log/record.js";
import type { ChainHead } from "../decision-log/head.js";
import type { FilesResult } from "../decision-log/verify.js";
import type { Decision } from "../guardian/evaluate.js";
import type { RulesReload } from "./rules-api.js";
import type { DecisionStats } from "./stats.js";
import { bindingFields } from "../approvals/remembered.js";

/**
 * The JSON bodies of the admin API (docs/approvals.md "Schema"): what each route answers and accepts. Where a
 * TypeScript type already says it (HeldApproval, SessionInfo, DecisionInput, …), that type stays the source of truth
 * and `agree` below makes the build fail if schema and type drift apart. Answers are strict objects (a new field must
 * be added here); request bodies are open (the server ignores fields it does not know).
 */

const iso = z.iso.datetime();

export const API_ERROR_CODES = ["UNAUTHORIZED", "NOT_FOUND", "METHOD_NOT_ALLOWED", "BAD_REQUEST", "BAD_SCOPE", "TOO_LARGE", "TOO_MANY_STREAMS", "CONFLICT", "FORBIDDEN", "UNAVAILABLE"] as const satisfies readonly AdminErrorCode[];
/** The signed approval links' own refusals (their JSON answer, for a caller that sends `Accept: application/json`). */
export const LINK_ERROR_CODES = ["LINK_INVALID", "LINK_EXPIRED", "LINK_USED", "APPROVAL_GONE", "TOO_LARGE", "UNAVAILABLE"] as const satisfies readonly AdminErrorCode[];

export const apiError = z.strictObject({ error: z.strictObject({ code: z.enum(API_ERROR_CODES), message: z.string() }) });
export const linkError = z.strictObject({ error: z.strictObject({ code: z.enum(LINK_ERROR_CODES), message: z.string() }) });

export const apiIndex = z.strictObject({ version: z.string(), endpoints: z.array(z.string()) });
/** `GET /api/openapi.json`, in outline (its own content is OpenAPI's). */
export const openApiDocument = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
});

const scope = z.enum(["once", "session", "always"]);

/** What an approval is bound to (the Binding of src/approvals/remembered.ts), shared by held and remembered approvals. */
const binding = bindingFields;

export const heldApproval = z.strictObject({
  id: z.string(),
  replica: z.string().optional().describe("with a shared store: the replica holding it"),
  session: z.string(),
  transport: z.string(),
  ...binding,
  prompt: z.string(),
  remember: scope.describe("the widest scope an approver may give"),
  onTimeout: z.enum(["deny", "allow"]),
  requestedAt: iso,
  expiresAt: iso,
  channels: z.array(z.string()),
});

/** A held approval as the API shows it: with its call's redacted arguments where this process holds it. */
export const shownApproval = heldApproval.extend({
  arguments: z.string().optional().describe("the call's arguments, redacted as the log's preview (at most 2000 characters); absent for another replica's approval"),
});

export const approvalOutcome = z
  .discriminatedUnion("outcome", [
    z.strictObject({ outcome: z.literal("approved"), channel: z.string(), by: z.string().optional(), reason: z.string().optional(), remember: scope, afterMs: z.number() }),
    z.strictObject({ outcome: z.literal("refused"), channel: z.string(), by: z.string().optional(), reason: z.string().optional(), afterMs: z.number() }),
    z.strictObject({ outcome: z.literal("timeout"), afterMs: z.number() }),
    z.strictObject({ outcome: z.literal("cancelled"), reason: z.string(), afterMs: z.number() }),
    z.strictObject({ outcome: z.literal("shutdown"), afterMs: z.number() }),
  ]);

export const remembered = z.strictObject({
  id: z.string().describe("the approval that granted it"),
  scope: z.enum(["session", "always"]),
  session: z.string().nullable(),
  ...binding,
  grantedAt: iso,
  expiresAt: iso.nullable().describe("null: until the session ends"),
});

const peer = z.strictObject({ name: z.string(), version: z.string() });

export const sessionInfo = z
  .strictObject({
    id: z.string(),
    replicas: z.array(z.string()).optional().describe("with a shared store: the replicas it went through (their counts are summed)"),
    route: z.string(),
    transport: z.string(),
    protocol: z.enum(["mcp", "a2a"]),
    agent: z.string().nullable(),
    client: peer.nullable(),
    server: peer.nullable(),
    started: iso,
    lastActivity: iso,
    messages: z.strictObject({ outbound: z.number().int(), inbound: z.number().int() }),
    denies: z.number().int(),
    held: z.number().int().describe("approvals waiting in this session, and requests held by a suspension"),
    state: z.enum(["active", "suspended"]),
    suspend: z.strictObject({ mode: z.enum(["hold", "refuse"]), reason: z.string().optional(), since: iso }).optional(),
    idle: z.strictObject({ since: iso, ends: iso }).optional().describe("Streamable HTTP: no stream open and no request in flight since `since`; the session ends at `ends` unless the agent comes back"),
  });

const approvalStep = z.strictObject({
  id: z.string(),
  step: z.enum(["requested", "elicitation", "decided", "remembered"]),
  channels: z.array(z.string()).optional(),
  channel: z.string().optional(),
  outcome: z.enum(["approved", "refused", "timeout", "cancelled", "shutdown"]).optional(),
  by: z.string().optional(),
  afterMs: z.number().optional(),
  reason: z.string().optional(),
  remember: scope.optional(),
  argsDigest: z.string().optional(),
  expires: z.string().optional(),
});

const decisionName = z.enum(["allow", "deny", "modify", "ask"]);
const mode = z.enum(["enforce", "audit"]);

const decisionInput = z.strictObject({
  session: z.string(),
  route: z.string(),
  transport: z.string(),
  protocol: z.enum(["mcp", "a2a", "aos"]),
  direction: z.enum(["outbound", "inbound"]),
  kind: z.enum(["request", "response", "notification", "event", "log", "refused", "control"]),
  id: z.union([z.string(), z.number(), z.null()]),
  method: z.string().nullable(),
  tool: z.string().nullable(),
  agent: z.string().nullable(),
  decision: decisionName,
  mode,
  rules: z.array(z.string()),
  reasonCode: z.array(z.string()),
  message: z.string(),
  evalUs: z.number(),
  digest: z.string().nullable(),
  ruleset: z.string().optional(),
  replica: z.string().optional(),
  failOpen: z.boolean().optional(),
  preview: z.string().optional(),
  peer: z.string().optional(),
  task: z.string().optional(),
  context: z.string().optional(),
  torn: z.string().optional(),
  approval: approvalStep.optional(),
});

/** One decision as the event stream and `GET /api/decisions/recent` show it: the log line's fields, with its time. */
export const decisionEvent = decisionInput.extend({ time: iso });

// ---- answers, by route

/** With a shared store that cannot be reached: only this replica's are listed, and this says so. */
const incomplete = z.string().optional().describe("with a shared store: why other replicas' entries are missing");
export const approvalsList = z.strictObject({ approvals: z.array(shownApproval), incomplete });
export const approvalOne = z.strictObject({ approval: shownApproval });
export const approvalDecided = z.strictObject({ approval: heldApproval, decision: z.enum(["approved", "refused"]) });
export const rememberedList = z.strictObject({ remembered: z.array(remembered) });
export const forgotten = z.strictObject({ forgotten: z.number().int() });

export const sessionsList = z.strictObject({ sessions: z.array(sessionInfo), incomplete });
export const sessionOne = z.strictObject({ session: sessionInfo });
export const sessionKilled = z.strictObject({ session: sessionInfo, killed: z.literal(true) });

export const recentDecisions = z.strictObject({ decisions: z.array(decisionEvent) });

const byDecision = z.strictObject({ allow: z.number().int(), deny: z.number().int(), modify: z.number().int(), ask: z.number().int() });
export const statsAnswer = z
  .strictObject({
    now: iso,
    since: iso,
    bucketMs: z.number().int(),
    totals: byDecision,
    buckets: z.array(z.strictObject({ t: iso, decisions: byDecision, rules: z.record(z.string(), z.number().int()) })),
  });

const reloadBy = z.enum(["start", "watch", "console"]);
export const rulesReload = z
  .discriminatedUnion("ok", [
    z.strictObject({ at: iso, by: reloadBy, ok: z.literal(true), rules: z.number().int(), hash: z.string() }),
    z.strictObject({ at: iso, by: reloadBy, ok: z.literal(false), problems: z.array(z.string()) }),
  ]);

const rulesShape = {
  ruleset: z.strictObject({ name: z.string(), hash: z.string(), default: z.enum(["allow", "deny"]), defaultMode: mode }),
  paths: z.array(z.string()),
  last: rulesReload,
  packs: z.array(z.strictObject({ file: z.string(), rules: z.number().int() })),
  rules: z.array(
    z.strictObject({
      id: z.string(),
      file: z.string(),
      description: z.string().nullable(),
      decision: decisionName,
      mode,
      reasonCode: z.string().nullable(),
      alert: z.strictObject({ severity: z.enum(["low", "medium", "high", "critical"]) }).nullable(),
      fired: z.number().int().describe("decisions it fired in since start"),
    }),
  ),
};
export const rulesAnswer = z.strictObject(rulesShape);
export const rulesReloaded = z.strictObject({ reload: rulesReload, ...rulesShape });
/** 422: the rules on disk did not load; the rules in force are unchanged. */
export const rulesReloadFailed = z.strictObject({ error: apiError.shape.error, reload: rulesReload, ...rulesShape });

export const playgroundAnswer = z
  .strictObject({
    decision: decisionName,
    mode,
    rules: z.array(z.string()),
    rule: z.string().nullable(),
    reasonCode: z.array(z.string()),
    message: z.string(),
    audit: z.strictObject({ decision: decisionName, rules: z.array(z.string()), reasonCode: z.array(z.string()) }).nullable(),
    errors: z.array(z.strictObject({ rule: z.string(), error: z.string() })),
    detected: z.array(z.string()),
    labels: z.array(z.string()),
    ask: z.strictObject({ rule: z.string(), prompt: z.string(), timeoutMs: z.number(), onTimeout: z.enum(["deny", "allow"]), remember: scope }).nullable(),
    modified: z.record(z.string(), z.unknown()).nullable(),
    diff: z.array(z.strictObject({ added: z.boolean(), removed: z.boolean(), value: z.string() })).nullable(),
    ruleset: z.string(),
    evalUs: z.number().int(),
  });

const chainHead = z.strictObject({ seq: z.number().int(), hash: z.string(), time: iso });
export const logHead = z
  .union([
    z.strictObject({ file: z.null(), head: z.null(), bytes: z.null() }).describe("the log goes to stderr"),
    z.strictObject({ file: z.string(), head: chainHead.nullable(), bytes: z.number().int(), rotated: z.number().int() }),
  ]);

const filesResult = z.discriminatedUnion("ok", [
  z.strictObject({
    ok: z.literal(true),
    lines: z.number().int(),
    lastHash: z.string(),
    lastSeq: z.number().int(),
    note: z.string().optional(),
    torn: z.strictObject({ file: z.string(), line: z.number().int() }).optional(),
    recovered: z.number().int(),
  }),
  z.strictObject({ ok: z.literal(false), file: z.string(), line: z.number().int(), reason: z.string() }),
]);
export const logVerified = z.strictObject({ files: z.array(z.string()), result: filesResult, ms: z.number(), at: iso });

// ---- request bodies (open: unknown fields are ignored)

const reason = z.string().max(500);
const by = z.string().max(100).describe("who acted (the CLI sends the user's login name)");
export const decideBody = z
  .object({
    reason: reason.optional(),
    by: by.optional(),
    remember: scope.optional().describe("approve only; at most the approval's own remember"),
    channel: z.string().optional().describe('"cli" is logged as the CLI; anything else as "api"'),
  });
export const suspendBody = z.object({ mode: z.enum(["hold", "refuse"]).optional().describe("default hold"), reason: reason.optional(), by: by.optional() });
export const resumeBody = z.object({ by: by.optional() });
export const killBody = z.object({ reason: reason.optional(), by: by.optional() });
const label = z.string().describe("at most 200 characters are used");
export const playgroundBody = z
  .object({
    message: z.union([z.record(z.string(), z.unknown()), z.string()]).describe("one JSON-RPC message, as an object or as JSON text"),
    direction: z.enum(["outbound", "inbound"]).optional(),
    protocol: z.enum(["mcp", "a2a"]).optional(),
    route: label.optional(),
    agent: label.optional(),
    server: label.optional(),
  });

// ---- the event stream (`GET /api/events`): each event's name and its data

export const approvalRequestedEvent = z.strictObject({ approval: shownApproval });
export const approvalDecidedEvent = z.strictObject({ approval: heldApproval, outcome: approvalOutcome });
export const sessionEvent = z.strictObject({ session: sessionInfo });

export const EVENTS = {
  "approval.requested": approvalRequestedEvent,
  "approval.decided": approvalDecidedEvent,
  decision: decisionEvent,
  "session.opened": sessionEvent,
  "session.updated": sessionEvent,
  "session.closed": sessionEvent,
} as const;
export type EventName = keyof typeof EVENTS;

// ---- the TypeScript types stay the source of truth: these fail to compile when a schema drifts from its type

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(_proof?: T) => {};
agree<Same<z.infer<typeof heldApproval>, HeldApproval>>();
agree<Same<z.infer<typeof approvalOutcome>, ApprovalOutcome>>();
agree<Same<z.infer<typeof remembered>, Remembered>>();
agree<Same<z.infer<z.ZodObject<typeof binding>>, Binding>>();
agree<Same<z.infer<typeof sessionInfo>, SessionInfo>>();
agree<Same<z.infer<typeof approvalStep>, ApprovalStep>>();
agree<Same<z.infer<typeof decisionInput>, DecisionInput>>();
agree<Same<z.infer<typeof apiError>["error"]["code"], ApiError>>();
agree<Same<z.infer<typeof rulesReload>, RulesReload>>();
agree<Same<z.infer<typeof chainHead>, ChainHead>>();
agree<Same<z.infer<typeof filesResult>, FilesResult>>();
agree<Same<z.infer<typeof statsAnswer>, ReturnType<DecisionStats["snapshot"]>>>();
agree<Same<NonNullable<z.infer<typeof playgroundAnswer>["audit"]>, NonNullable<Decision["audit"]>>>();
agree<Same<NonNullable<z.infer<typeof playgroundAnswer>["ask"]>, NonNullable<Decision["ask"]>>>();
