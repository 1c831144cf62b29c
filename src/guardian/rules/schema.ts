import { z } from "zod";

const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const reasonCode = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "reasonCode must be UPPER_SNAKE_CASE");

export const editSchema = z.union([
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
  route: globs.optional(),
  server: globs.optional(),
  agent: globs.optional(),
});

export const ruleSchema = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "id may use letters, digits, _ . : -"),
    description: z.string().optional(),
    match: matchSchema.optional(),
    when: z.string().min(1).optional(),
    decision: z.enum(["allow", "deny", "modify"]),
    modify: z.array(editSchema).min(1).optional(),
    reasonCode: reasonCode.optional(),
    message: z.string().optional(),
    mode: z.enum(["enforce", "audit"]).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.decision === "modify" && !rule.modify) {
      ctx.addIssue({ code: "custom", path: ["modify"], message: "a modify rule needs a modify: list of edits" });
    }
    if (rule.decision !== "modify" && rule.modify) {
      ctx.addIssue({ code: "custom", path: ["modify"], message: `modify: edits only apply to decision: modify` });
    }
  });

export const ruleFileSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  mode: z.enum(["enforce", "audit"]).default("enforce"),
  default: z.enum(["allow", "deny"]).default("allow"),
  rules: z.array(ruleSchema).default([]),
});

export type RuleFile = z.infer<typeof ruleFileSchema>;
export type Rule = z.infer<typeof ruleSchema>;
export type Edit = z.infer<typeof editSchema>;
