import { z } from "zod";
import { alertsSchema } from "../alerts/config.js";
import { isLoopbackHost } from "../agent-keys.js";
import { DEFAULT_GUARDIAN_TIMEOUT_MS, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_SESSIONS_PER_ROUTE, FRONT_DEFAULTS } from "../defaults.js";
import { approvalsSchema } from "../approvals/config.js";

/*
 * The `guardwire serve` configuration (ARCHITECTURE.md, "Configuration"): one zod schema, the single source for the
 * TypeScript types and for the JSON Schema editors use (`guardwire schema config`).
 */

const headers = z.record(z.string(), z.string());

/** A replica id names a log file: letters, digits, `_ . -`, no leading dot. */
export const REPLICA_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export type GuardianConfig =
  | { kind: "embedded" }
  | { kind: "remote"; url: string; timeoutMs: number; headers?: Record<string, string> }
  | { kind: "chain"; guardians: GuardianConfig[] };

export const guardianSchema: z.ZodType<GuardianConfig> = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("embedded") }),
    z.strictObject({ kind: z.literal("remote"), url: z.url({ protocol: /^https?$/ }), timeoutMs: z.number().int().positive().default(DEFAULT_GUARDIAN_TIMEOUT_MS), headers: headers.optional() }),
    z.strictObject({ kind: z.literal("chain"), guardians: z.array(guardianSchema).min(1) }),
  ]),
) as z.ZodType<GuardianConfig>;

const mcpUpstream = z.union([
  z.strictObject({ url: z.url({ protocol: /^https?$/ }), headers: headers.optional(), timeoutMs: z.number().int().positive().default(60_000) }),
  z.strictObject({ sse: z.url({ protocol: /^https?$/ }), headers: headers.optional() }),
  z.strictObject({ ws: z.url({ protocol: /^wss?$/ }), headers: headers.optional() }),
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
]);

const routeSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "name may use letters, digits, _ . -"),
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9/_.-]*$/, "path starts with / and uses letters, digits, / _ . -")
      .refine((p) => !p.includes("//") && !p.split("/").some((s) => s === "." || s === ".."), "path has no empty (//) or dot (. ..) segments: requests with them are refused"),
    mcp: mcpUpstream.optional(),
    a2a: z
      .strictObject({ url: z.url({ protocol: /^https?$/ }), headers: headers.optional(), passAuthorization: z.boolean().default(false), timeoutMs: z.number().int().positive().default(60_000) })
      .optional(),
  })
  .refine((r) => (r.mcp === undefined) !== (r.a2a === undefined), { message: "a route has exactly one upstream: mcp or a2a" });

export const configSchema = z
  .strictObject({
    listen: z.strictObject({ host: z.string().default("127.0.0.1"), port: z.number().int().min(0).max(65535).default(7070) }).default({ host: "127.0.0.1", port: 7070 }),
    /** Listening beyond loopback without agent keys is refused unless this is set. */
    allowUnauthenticatedRemote: z.boolean().default(false),
    allowedHosts: z.array(z.string()).optional(),
    allowedOrigins: z.array(z.string()).optional(),
    agents: z.array(z.strictObject({ id: z.string().min(1), key: z.string().min(16, "an agent key needs at least 16 characters") })).default([]),
    /** Rule files, directories or shipped packs, loaded in this order as one set (docs/rules.md, Layering). */
    rules: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    log: z.string().default("./guardwire-decisions.ndjson"),
    /** `always`: a message is forwarded only once its decision line is written and fsynced (docs/decision-log.md). */
    logSync: z.enum(["interval", "always"]).default("interval"),
    guardian: guardianSchema.default({ kind: "embedded" }),
    failMode: z.enum(["closed", "open"]).default("closed"),
    maxFrameBytes: z.number().int().positive().default(DEFAULT_MAX_FRAME_BYTES),
    /** A downstream session with no open stream and no request for this long is ended and its upstream released. */
    sessionIdleSeconds: z.number().int().positive().default(1800),
    /** Live MCP sessions per route; a new one past this is refused with 503 (stdio routes: one child each). */
    maxSessionsPerRoute: z.number().int().positive().default(DEFAULT_MAX_SESSIONS_PER_ROUTE),
    /** The HTTP front's timeouts and caps (docs/serve.md, "Limits"). */
    http: z
      .strictObject({
        /** The whole header block of a request must arrive within this. */
        headersTimeoutSeconds: z.number().positive().default(FRONT_DEFAULTS.headersTimeoutMs / 1000),
        /** The whole request, headers and body, must arrive within this; the response (a stream, a long call) is not bounded by it. */
        requestTimeoutSeconds: z.number().positive().default(FRONT_DEFAULTS.requestTimeoutMs / 1000),
        /** An idle keep-alive connection is closed after this. */
        keepAliveTimeoutSeconds: z.number().positive().default(FRONT_DEFAULTS.keepAliveTimeoutMs / 1000),
        /** A connection that sends nothing for this long while its request is still arriving is closed. */
        idleTimeoutSeconds: z.number().positive().default(FRONT_DEFAULTS.idleTimeoutMs / 1000),
        maxConnections: z.number().int().positive().default(FRONT_DEFAULTS.maxConnections),
        maxConnectionsPerAddress: z.number().int().positive().default(FRONT_DEFAULTS.maxConnectionsPerAddress),
        /** Memory for request bodies in flight across the process (each byte counts 4 times); past it: 503 with Retry-After. */
        bodyBudgetBytes: z.number().int().positive().default(FRONT_DEFAULTS.bodyBudgetBytes),
      })
      .prefault({}),
    /** Add a redacted preview of each message to the log (off: only digests). */
    logPreview: z.boolean().default(false),
    routes: z.array(routeSchema).min(1, "at least one route is needed"),
    /** Webhooks that decisions of rules with `alert:` are posted to (docs/alerts.md). */
    alerts: alertsSchema.optional(),
    /** Approval webhooks, their links' public URL, and where remember: always is kept (docs/approvals.md). */
    approvals: approvalsSchema.optional(),
    /**
     * Shared state for several replicas (docs/scale.md): labels, counts, limit windows, pins, held approvals, the
     * session registry and alert de-duplication live in Redis. Without it, all of that stays in this process.
     */
    store: z
      .strictObject({
        /** redis://[user:password@]host:port[/db] or rediss:// (TLS). */
        redis: z.string().regex(/^rediss?:\/\/.+/, "redis is a redis:// or rediss:// URL"),
        /** Every key guardwire writes starts with this (several deployments may share one Redis). */
        keyPrefix: z.string().default("guardwire:"),
        /** While Redis cannot be reached: `closed` refuses every judged message with -32051; `local` judges with this replica's memory only. */
        onUnavailable: z.enum(["closed", "local"]).default("closed"),
        /** A Redis command slower than this counts as Redis unavailable (a frozen Redis is found by it too). */
        timeoutMs: z.number().int().positive().default(500),
        /**
         * After Redis lost guardwire's data (restarted empty, flushed): `window` holds each limit rule closed for one
         * of its own windows; a number of seconds holds every limit rule that long; 0 lets limits count afresh at once.
         */
        limitsAfterReset: z.union([z.literal("window"), z.number().int().nonnegative()]).default("window"),
      })
      .optional(),
    /** This process among several (docs/scale.md). */
    replica: z
      .strictObject({
        /** Names this replica in every log record and log file name; default $GUARDWIRE_REPLICA, else the host name. */
        id: z.string().regex(REPLICA_ID, "a replica id uses letters, digits, _ . - (at most 63)").optional(),
        /** The URL other replicas reach this one at, for sessions that live here (stdio and WebSocket upstreams). */
        advertise: z.url({ protocol: /^https?$/ }).optional(),
      })
      .prefault({}),
    /** Keys sealing guardwire's Mcp-Session-Id (AES-256-GCM): the first seals, every one opens (rotation). */
    sessions: z
      .strictObject({
        keys: z.array(z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "a session key is 32 bytes in base64 (openssl rand -base64 32)")).min(1),
        /**
         * How long after its session began a token can be continued by a replica that does not hold it (a replica that
         * does goes on); an ended session's mark in Redis lives as long, so no replica ever continues it.
         */
        maxAgeSeconds: z.number().int().min(60).default(86_400),
      })
      .optional(),
    /** The admin API (approvals; docs/approvals.md): its own listener, loopback by default, bearer token. */
    admin: z
      .strictObject({
        listen: z
          .string()
          .regex(/^(?:(?:(\[[^\]]+\]|[^:]+):)?\d{1,5}|unix:\/.+)$/, "listen is HOST:PORT (e.g. 127.0.0.1:7071) or unix:/path/admin.sock")
          .default("127.0.0.1:7071"),
        token: z.string().min(16, "an admin token needs at least 16 characters").optional(),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const seen = new Map<string, number>();
    c.routes.forEach((r, i) => {
      for (const key of [`name:${r.name}`, `path:${r.path}`]) {
        const prior = seen.get(key);
        if (prior !== undefined) ctx.addIssue({ code: "custom", path: ["routes", i, key.split(":")[0] as string], message: `duplicate route ${key.replace(":", " ")} (also routes[${prior}])` });
        seen.set(key, i);
      }
    });
    // Each body byte counts 4 times against the budget (src/proxy/server.ts, BODY_COST): a largest body must fit.
    if (c.http.bodyBudgetBytes < 4 * c.maxFrameBytes) {
      ctx.addIssue({ code: "custom", path: ["http", "bodyBudgetBytes"], message: `bodyBudgetBytes (${c.http.bodyBudgetBytes}) must be at least 4 × maxFrameBytes (${4 * c.maxFrameBytes}): each body byte counts 4 times, and a largest body must fit` });
    }
    if (c.http.headersTimeoutSeconds > c.http.requestTimeoutSeconds) {
      ctx.addIssue({ code: "custom", path: ["http", "headersTimeoutSeconds"], message: "headersTimeoutSeconds must not exceed requestTimeoutSeconds" });
    }
    if (c.store && !c.sessions) {
      ctx.addIssue({ code: "custom", path: ["store"], message: "store: needs sessions.keys too, so that every replica can open the session tokens of the others (openssl rand -base64 32)" });
    }
    const loopback = isLoopbackHost(c.listen.host);
    if (!loopback && c.agents.length === 0 && !c.allowUnauthenticatedRemote) {
      ctx.addIssue({ code: "custom", path: ["listen", "host"], message: `listening on ${c.listen.host} without agent keys is refused; add agents: [{id, key}] or set allowUnauthenticatedRemote: true` });
    }
  });

export type Config = z.infer<typeof configSchema>;

export function configJsonSchema(): Record<string, unknown> {
  return { title: "guardwire serve configuration", ...z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }) };
}
