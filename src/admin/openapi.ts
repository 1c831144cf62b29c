import { z } from "zod";
import * as s from "./api-schema.js";
import type { AdminRoute } from "./server.js";

/** Every schema the document names, by its component name. */
export const COMPONENTS = {
  Error: s.apiError,
  LinkError: s.linkError,
  Index: s.apiIndex,
  OpenApiDocument: s.openApiDocument,
  HeldApproval: s.heldApproval,
  ShownApproval: s.shownApproval,
  ApprovalOutcome: s.approvalOutcome,
  Remembered: s.remembered,
  SessionInfo: s.sessionInfo,
  DecisionEvent: s.decisionEvent,
  ApprovalList: s.approvalsList,
  ApprovalOne: s.approvalOne,
  ApprovalDecided: s.approvalDecided,
  RememberedList: s.rememberedList,
  Forgotten: s.forgotten,
  SessionList: s.sessionsList,
  SessionOne: s.sessionOne,
  SessionKilled: s.sessionKilled,
  RecentDecisions: s.recentDecisions,
  Stats: s.statsAnswer,
  RulesReload: s.rulesReload,
  Rules: s.rulesAnswer,
  RulesReloaded: s.rulesReloaded,
  RulesReloadFailed: s.rulesReloadFailed,
  PlaygroundAnswer: s.playgroundAnswer,
  LogHead: s.logHead,
  LogVerify: s.logVerified,
  DecideBody: s.decideBody,
  SuspendBody: s.suspendBody,
  ResumeBody: s.resumeBody,
  KillBody: s.killBody,
  PlaygroundBody: s.playgroundBody,
  ApprovalRequestedEvent: s.approvalRequestedEvent,
  ApprovalDecidedEvent: s.approvalDecidedEvent,
  SessionEvent: s.sessionEvent,
} as const;
type Component = keyof typeof COMPONENTS;

export const EVENT_COMPONENTS: Record<s.EventName, Component> = {
  "approval.requested": "ApprovalRequestedEvent",
  "approval.decided": "ApprovalDecidedEvent",
  decision: "DecisionEvent",
  "session.opened": "SessionEvent",
  "session.updated": "SessionEvent",
  "session.closed": "SessionEvent",
};

interface Operation {
  summary: string;
  body?: Component;
  /** status → a component (JSON), or [media type, description] for what is not JSON. */
  answers: Record<number, Component | [string, string]>;
  public?: true;
  query?: { name: string; description: string }[];
}

const HELD = { 404: "Error" } as const;
const BAD = { 400: "Error" } as const;

/**
 * The operations, keyed by the routes' `doc` ("GET /api/approvals/:id"; `a|b` is one path per choice). The signed
 * links have no `doc` (they are not listed by `GET /api`) and are keyed here the same way.
 */
const OPERATIONS: Record<string, Operation> = {
  "GET /api": { summary: "guardwire's version and the endpoints this listener serves", answers: { 200: "Index" } },
  "GET /api/openapi.json": { summary: "this document", answers: { 200: "OpenApiDocument" } },
  "GET /api/approvals": { summary: "the held approvals", answers: { 200: "ApprovalList" } },
  "GET /api/approvals/:id": { summary: "one held approval", answers: { 200: "ApprovalOne", ...HELD } },
  "POST /api/approvals/:id/approve|deny": { summary: "approve or refuse a held approval", body: "DecideBody", answers: { 200: "ApprovalDecided", ...BAD, ...HELD } },
  "GET /api/approvals/remembered": { summary: "the remembered approvals (scope session and always)", answers: { 200: "RememberedList" } },
  "DELETE /api/approvals/remembered": { summary: "forget every remembered approval", answers: { 200: "Forgotten" } },
  "DELETE /api/approvals/remembered/:id": { summary: "forget the approval an approval id granted", answers: { 200: "Forgotten", ...HELD } },
  "GET /approvals/link/:id/approve|deny": {
    summary: "a signed link's confirmation page (query exp and sig); it decides nothing",
    public: true,
    answers: { 200: ["text/html", "the confirmation page"], 403: "LinkError", 409: "LinkError", 410: "LinkError" },
  },
  "POST /approvals/link/:id/approve|deny": {
    summary: "decide through a signed link (form field reason); JSON with Accept: application/json, else a page",
    public: true,
    answers: { 200: "ApprovalDecided", 403: "LinkError", 409: "LinkError", 410: "LinkError", 413: "LinkError" },
  },
  "GET /api/sessions": { summary: "the live sessions", answers: { 200: "SessionList" } },
  "GET /api/sessions/:id": { summary: "one live session", answers: { 200: "SessionOne", ...HELD } },
  "POST /api/sessions/:id/suspend": { summary: "hold or refuse the session's new requests", body: "SuspendBody", answers: { 200: "SessionOne", ...BAD, ...HELD } },
  "POST /api/sessions/:id/resume": { summary: "resume a suspended session (held requests go on)", body: "ResumeBody", answers: { 200: "SessionOne", ...BAD, ...HELD } },
  "POST /api/sessions/:id/kill": { summary: "close both ends; pending requests are answered", body: "KillBody", answers: { 200: "SessionKilled", ...BAD, ...HELD } },
  "GET /api/events": {
    summary: "server-sent events as they happen; each event's data is the component named in x-guardwire-events",
    query: [{ name: "only", description: "comma-separated event names to keep" }],
    answers: { 200: ["text/event-stream", "events: " + Object.keys(s.EVENTS).join(", ")], 503: "Error" },
  },
  "GET /api/stats": { summary: "decisions over time, by decision and by rule", answers: { 200: "Stats" } },
  "GET /api/decisions/recent": { summary: "the last decisions, oldest first", answers: { 200: "RecentDecisions" } },
  "GET /api/decisions/export": {
    summary: "the decision log's lines (rotated files first) in a time range, filtered as tail filters, streamed as NDJSON or CSV",
    query: [
      { name: "format", description: "ndjson (the log's own lines, the default) or csv" },
      { name: "from", description: "ISO 8601 time, inclusive" },
      { name: "to", description: "ISO 8601 time, exclusive" },
      ...["session", "route", "agent", "rule", "decision", "direction", "method", "tool"].map((name) => ({ name, description: "globs (repeatable or comma-separated); any may match" })),
    ],
    answers: { 200: ["application/x-ndjson", "the log's lines (format=ndjson), or text/csv (format=csv)"], 400: "Error", 409: "Error", 503: "Error" },
  },
  "GET /api/rules": { summary: "the rules in force, their packs and how often each fired", answers: { 200: "Rules" } },
  "POST /api/rules/reload": { summary: "reload the rules; a bad set leaves the rules in force", answers: { 200: "RulesReloaded", 422: "RulesReloadFailed" } },
  "POST /api/playground": { summary: "what the rules in force decide about a message (nothing sent, nothing logged)", body: "PlaygroundBody", answers: { 200: "PlaygroundAnswer", ...BAD } },
  "GET /api/log/head": { summary: "the decision log's file and chain head", answers: { 200: "LogHead" } },
  "POST /api/log/verify": { summary: "verify the decision log's whole chain", answers: { 200: "LogVerify", 409: "Error", 413: "Error" } },
  "GET /console/": { summary: "the browser console's page", public: true, answers: { 200: ["text/html", "the console"] } },
  "GET /metrics": { summary: "Prometheus metrics", answers: { 200: ["text/plain", "Prometheus text exposition"] } },
};

/** `POST /api/approvals/:id/approve|deny` → its method and OpenAPI paths (`/api/approvals/{id}/approve`, `…/deny`). */
export function pathsOf(doc: string): { method: string; paths: string[] } {
  const [method = "", path = ""] = doc.split(" ");
  const open = path.replace(/:(\w+)/g, "{$1}");
  const m = /^(.*\/)([\w-]+(?:\|[\w-]+)+)$/.exec(open);
  return { method: method.toLowerCase(), paths: m ? (m[2] as string).split("|").map((x) => (m[1] as string) + x) : [open] };
}

/** Whether a route of the table serves this operation: a sample of its path (ids filled in) matches a route's pattern. */
function served(doc: string, routes: AdminRoute[]): boolean {
  if (doc === "GET /api") return true;
  const [method] = doc.split(" ");
  return pathsOf(doc).paths.some((p) => routes.some((r) => r.method === method && r.pattern.test(p.replace(/\{\w+\}/g, "ap-0"))));
}

let components: Record<string, unknown> | undefined;
function schemas(): Record<string, unknown> {
  if (components) return components;
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id: name });
  const all = z.toJSONSchema(registry, { io: "input", uri: (id) => `#/components/schemas/${id}` }).schemas;
  components = Object.fromEntries(Object.entries(all).map(([name, { $schema: _s, $id: _i, ...rest }]) => [name, rest]));
  return components;
}

const ref = (c: Component) => ({ $ref: `#/components/schemas/${c}` });

function operation(doc: string, op: Operation) {
  const params = [...doc.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
  const query = (op.query ?? []).map((q) => ({ name: q.name, in: "query", required: false, description: q.description, schema: { type: "string" } }));
  const responses: Record<string, unknown> = {};
  for (const [status, a] of Object.entries(op.answers)) {
    responses[status] = Array.isArray(a) ? { description: a[1], content: { [a[0]]: {} } } : { description: a, content: { "application/json": { schema: ref(a) } } };
  }
  const error = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
  if (!op.public) responses["401"] = error("no valid bearer token");
  responses.default = error("any other refusal (403 a cross-site browser request, 405, 413 a body over 64 KiB, 400 a body that is not a JSON object)");
  return {
    summary: op.summary,
    ...(op.public ? { security: [] } : {}),
    ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
    ...(op.body ? { requestBody: { required: false, content: { "application/json": { schema: ref(op.body) } } } } : {}),
    responses,
    ...(doc === "GET /api/events" ? { "x-guardwire-events": Object.fromEntries(Object.entries(EVENT_COMPONENTS).map(([e, c]) => [e, ref(c)])) } : {}),
  };
}

/**
 * The admin API as an OpenAPI 3.1 document. Given the listener's routes, only what it serves is in it (no signed
 * links without an approval webhook); without them, everything guardwire's admin listener can serve (`guardwire schema admin`).
 */
export function adminOpenApi(version: string, routes?: AdminRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [doc, op] of Object.entries(OPERATIONS)) {
    if (routes && !served(doc, routes)) continue;
    const { method, paths: ps } = pathsOf(doc);
    for (const p of ps) (paths[p] ??= {})[method] = operation(doc, op);
  }
  return {
    openapi: "3.1.0",
    info: { title: "guardwire admin API", version, description: "Approvals, sessions, the event stream and the console's APIs (docs/approvals.md). Every error is an Error." },
    security: [{ bearer: [] }],
    paths,
    components: { schemas: schemas(), securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  };
}
