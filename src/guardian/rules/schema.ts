import { z } from "zod";
import { SEVERITIES } from "../alert.js";

const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const reasonCode = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "reasonCode must be UPPER_SNAKE_CASE");

export const editSchema = z.union([
  z.strictObject({ redact: z.literal("detections"), with: z.string().optional() }),
  z.strictObject({ set: z.string().startsWith("$"), value: z.unknown() }),
  z.strictObject({ remove: z.string().startsWith("$") }),
  z.strictObject({
    replace: z.string().startsWith("$"),
    pattern: z.string().min(1),
    with: z.string(),
    flags: z.string().regex(/^[imsu]*$/, "flags may only use i, m, s, u").optional(),
  }),
]);

export const matchSchema = z.strictObject({
  protocol: z.union([z.enum(["mcp", "a2a", "aos"]), z.array(z.enum(["mcp", "a2a", "aos"])).min(1)]).optional(),
  direction: z.enum(["outbound", "inbound"]).optional(),
  kind: z
    .union([
      z.enum(["request", "response", "notification", "event"]),
      z.array(z.enum(["request", "response", "notification", "event"])).min(1),
    ])
    .optional(),
  method: globs.optional(),
  tool: globs.optional(),
  /** A2A: the normalised operation (send, stream, get, list, cancel, subscribe, push-config, card), for 0.3 and 1.0 alike. */
  operation: globs.optional(),
  route: globs.optional(),
  server: globs.optional(),
  agent: globs.optional(),
});

const duration = z.string().regex(/^\d+(ms|s|m|h|d)$/, "a duration such as 500ms, 30s, 5m, 1h, 1d");

export const askSchema = z.strictObject({
  /** How long the message is held before onTimeout applies (default 30s, at most 1h). */
  timeout: duration.optional(),
  onTimeout: z.enum(["deny", "allow"]).optional(),
  /** once: this message only; session: the same arguments in this session; always: the same arguments from now on. */
  remember: z.enum(["once", "session", "always"]).optional(),
  /** Shown to the approver; {args.x}, {tool}, {method}, {route}, {server}, {agent} are filled in. */
  prompt: z.string().min(1).optional(),
});

const ruleId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "id may use letters, digits, _ . : -");

/** The injection scorer's settings (docs/detection.md, "How injection is judged"). */
const injectionParams = z.strictObject({ threshold: z.number().min(1).max(12).optional(), quoted: z.enum(["pass", "cut"]).optional(), budget: z.number().int().min(1024).max(1_000_000_000).optional(), relayed: z.boolean().optional() });

export const ruleSchema = z
  .strictObject({
    id: ruleId,
    description: z.string().optional(),
    match: matchSchema.optional(),
    when: z.string().min(1).optional(),
    detect: z
      .array(
        z.union([
          z.string().min(1),
          z.strictObject({ url: z.strictObject({ allow: z.array(z.string().min(1)).optional(), deny: z.array(z.string().min(1)).optional() }) }),
          z.strictObject({ exfiltration: z.strictObject({ allow: z.array(z.string().min(1)).optional(), collectors: z.array(z.string().min(1)).optional(), tunnels: z.array(z.string().min(1)).optional() }) }),
          z.strictObject({ url_data: z.strictObject({ allow: z.array(z.string().min(1)).optional(), collectors: z.array(z.string().min(1)).optional(), tunnels: z.array(z.string().min(1)).optional() }) }),
          z.strictObject({ prompt_injection: injectionParams }),
          z.strictObject({ tool_poisoning: injectionParams }),
          z.strictObject({ text_model: z.strictObject({ threshold: z.number().gt(0).lt(1).optional() }) }),
        ]),
      )
      .min(1)
      .optional(),
    limit: z
      .strictObject({
        count: z.number().int().positive(),
        per: z.string().regex(/^\d+(ms|s|m|h|d)$/, "per is a duration such as 30s, 1m, 1h, 1d"),
        key: z.enum(["session", "agent", "route", "tool"]).default("session"),
      })
      .optional(),
    label: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    decision: z.enum(["allow", "deny", "modify", "ask"]),
    modify: z.array(editSchema).min(1).optional(),
    /** decision: ask — a person approves or refuses the held message (docs/approvals.md). */
    ask: askSchema.optional(),
    reasonCode: reasonCode.optional(),
    /** Fires only when no other enforced rule denied, asked about or modified the message (docs/rules.md). */
    secondOpinion: z.boolean().optional(),
    message: z.string().optional(),
    mode: z.enum(["enforce", "audit"]).optional(),
    /** Raise an alert whenever this rule fires (docs/alerts.md). */
    alert: z.strictObject({ severity: z.enum(SEVERITIES).describe("low, medium, high or critical") }).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.decision === "modify" && !rule.modify) {
      ctx.addIssue({ code: "custom", path: ["modify"], message: "a modify rule needs a modify: list of edits" });
    }
    if (rule.decision !== "modify" && rule.modify) {
      ctx.addIssue({ code: "custom", path: ["modify"], message: `modify: edits only apply to decision: modify` });
    }
    if (rule.decision !== "ask" && rule.ask) {
      ctx.addIssue({ code: "custom", path: ["ask"], message: "ask: settings only apply to decision: ask" });
    }
  });

/** `mode` and `default` stay undefined when not written: a file that extends another inherits them (docs/rules.md). */
export const ruleFileSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  /** Shipped pack names (`balanced`) or paths relative to this file, loaded before it. */
  extends: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** Rule ids loaded before this file (by `extends` or an earlier `--rules`) that are dropped. */
  disable: z.array(ruleId).min(1).optional(),
  mode: z.enum(["enforce", "audit"]).optional().describe("enforce (the default) or audit"),
  default: z.enum(["allow", "deny"]).optional().describe("allow (the default) or deny"),
  rules: z.array(ruleSchema).default([]),
});

export type RuleFile = z.infer<typeof ruleFileSchema>;
export type Rule = z.infer<typeof ruleSchema>;
export type Edit = z.infer<typeof editSchema>;
export type Ask = z.infer<typeof askSchema>;

/** The JSON Schema of a rule file, generated from the zod schema (the single source), for editors. */
export function rulesJsonSchema(): Record<string, unknown> {
  return {
    title: "guardwire rule file",
    ...z.toJSONSchema(ruleFileSchema, { io: "input", unrepresentable: "any" }),
  };
}
