import { z } from "zod";
import { isDeepStrictEqual } from "node:util";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { AgentProtocol, Direction } from "../vocabulary.js";
import { buildAosRequest, type AosContext, type AosResult } from "./aos.js";
import { EmbeddedGuardian } from "./embedded.js";
import type { CompiledRuleSet } from "./rules/compile.js";
import { readVerdict, unavailable, type Verdict } from "./verdict.js";

/*
 * Rule tests (`*.test.yaml`), run by `guardwire test`: each case is a message (or a sequence of steps, for flow rules
 * and rug pulls) with the decision expected. Shorthands keep them readable:
 *   call:   { tool, args }           → an outbound tools/call request
 *   result: { tool, args?, text }    → an inbound tools/call result (the request it answers is built too)
 *   tools:  [ { name, description, inputSchema? } ] → an inbound tools/list result
 *   message (+ request)              → any JSON-RPC message, as is
 *   protocol: aos + message          → an AOS step: `message` is `{ method: "steps/…", params }`, sent as the AOS call
 */
const expectSchema = z.strictObject({
  /** What is enforced: an audit-mode decision forwards the message, so it is `allow` here. */
  decision: z.enum(["allow", "deny", "modify", "ask"]),
  /** What audit-mode rules would have done, when that is what the case checks. */
  audit: z.enum(["allow", "deny", "modify"]).optional(),
  rules: z.array(z.string()).optional(),
  reasonCode: z.array(z.string()).optional(),
  mode: z.enum(["enforce", "audit"]).optional(),
  message: z.record(z.string(), z.unknown()).optional(),
});

const stepSchema = z.strictObject({
  name: z.string().optional(),
  protocol: z.enum(["mcp", "a2a", "aos"]).default("mcp"),
  direction: z.enum(["outbound", "inbound"]).optional(),
  call: z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) }).optional(),
  result: z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}), text: z.string() }).optional(),
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
  message: z.record(z.string(), z.unknown()).optional(),
  request: z.record(z.string(), z.unknown()).optional(),
  server: z.string().optional(),
  route: z.string().optional(),
  agent: z.string().optional(),
  label: z.enum(["attack", "benign"]).optional(),
  /** The attack class a corpus case belongs to (or, for a benign case, the class it looks like), for per-class figures. */
  class: z.string().optional(),
  expect: expectSchema,
});

export const ruleTestFileSchema = z.strictObject({
  rules: z.union([z.string(), z.array(z.string())]).optional(),
  cases: z.array(
    z.union([
      stepSchema.extend({ name: z.string() }),
      z.strictObject({ name: z.string(), label: z.enum(["attack", "benign"]).optional(), class: z.string().optional(), steps: z.array(stepSchema).min(1) }),
    ]),
  ),
});
export type RuleTestFile = z.infer<typeof ruleTestFileSchema>;
type Step = z.infer<typeof stepSchema>;

export interface CaseResult {
  name: string;
  label?: "attack" | "benign";
  class?: string;
  ok: boolean;
  /** The decision of the last step (what a corpus counts), and whether it was enforced or only audited. */
  decision: string;
  mode: "enforce" | "audit";
  failures: string[];
}

let ids = 0;

function toMessage(step: Step): { message: JsonObject; request: JsonObject | null; direction: Direction } {
  if (step.call) {
    return { message: { jsonrpc: "2.0", id: ++ids, method: "tools/call", params: { name: step.call.tool, arguments: step.call.args } }, request: null, direction: step.direction ?? "outbound" };
  }
  if (step.result) {
    const id = ++ids;
    return {
      message: { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: step.result.text }] } },
      request: { jsonrpc: "2.0", id, method: "tools/call", params: { name: step.result.tool, arguments: step.result.args } },
      direction: step.direction ?? "inbound",
    };
  }
  if (step.tools) {
    const id = ++ids;
    return {
      message: { jsonrpc: "2.0", id, result: { tools: step.tools } },
      request: { jsonrpc: "2.0", id, method: "tools/list", params: {} },
      direction: step.direction ?? "inbound",
    };
  }
  if (step.message) {
    const isResponse = !("method" in step.message);
    return { message: step.message, request: step.request ?? null, direction: step.direction ?? (isResponse ? "inbound" : "outbound") };
  }
  throw new Error("a case needs one of call, result, tools or message");
}

/** Runs every case against a fresh guardian (so sessions, limits and pins start empty for each). */
export function runRuleTests(ruleSet: CompiledRuleSet, file: RuleTestFile, now: () => Date = () => new Date()): CaseResult[] {
  return file.cases.map((c) => {
    const guardian = new EmbeddedGuardian(ruleSet, { now });
    const steps = "steps" in c ? c.steps : [c];
    const session = `test-${++ids}`;
    const failures: string[] = [];
    let last = "allow";
    let lastMode: "enforce" | "audit" = "enforce";
    steps.forEach((step, i) => {
      const where = steps.length > 1 ? `step ${i + 1}${step.name ? ` (${step.name})` : ""}: ` : "";
      let built;
      try {
        built = toMessage(step);
      } catch (e) {
        failures.push(where + (e as Error).message);
        return;
      }
      const ctx: AosContext = {
        direction: built.direction,
        session,
        route: step.route ?? "test",
        transport: "test",
        agent: step.agent ? { id: step.agent } : null,
        server: step.server ? { name: step.server } : { name: "test-server" },
        request: built.request,
      };
      let v: Verdict;
      try {
        v = step.protocol === "aos" ? judgeStep(guardian, built.message) : judgeMessage(guardian, step.protocol, built.message, ctx);
      } catch (e) {
        failures.push(where + (e as Error).message);
        return;
      }
      const enforced = v.mode === "audit" ? "allow" : v.decision;
      last = enforced;
      lastMode = v.mode;
      const want = step.expect;
      if (enforced !== want.decision) failures.push(`${where}decision ${enforced}, expected ${want.decision} (rules: ${v.rules.join(", ") || "none"}; ${v.message})`);
      if (want.audit && (v.mode !== "audit" || v.decision !== want.audit)) failures.push(`${where}audit decision ${v.mode === "audit" ? v.decision : "none"}, expected ${want.audit}`);
      if (want.rules && !isDeepStrictEqual(v.rules, want.rules)) failures.push(`${where}rules ${JSON.stringify(v.rules)}, expected ${JSON.stringify(want.rules)}`);
      if (want.reasonCode && !isDeepStrictEqual(v.reasonCode, want.reasonCode)) failures.push(`${where}reasonCode ${JSON.stringify(v.reasonCode)}, expected ${JSON.stringify(want.reasonCode)}`);
      if (want.mode && v.mode !== want.mode) failures.push(`${where}mode ${v.mode}, expected ${want.mode}`);
      if (want.message) {
        const got = v.mode === "audit" ? built.message : (v.modified ?? built.message);
        if (!isDeepStrictEqual(got, want.message)) failures.push(`${where}message differs:\n    got      ${JSON.stringify(got)}\n    expected ${JSON.stringify(want.message)}`);
      }
    });
    return { name: c.name, label: c.label, class: c.class, ok: failures.length === 0, decision: last, mode: lastMode, failures };
  });
}

function judgeMessage(guardian: EmbeddedGuardian, protocol: AgentProtocol, message: JsonObject, ctx: AosContext): Verdict {
  const req = buildAosRequest(protocol === "a2a" ? "protocols/A2A" : "protocols/MCP", message, ctx);
  return readVerdict(req, guardian.call(req), message);
}

/**
 * An AOS step is its own AOS call (`steps/toolCallRequest`…), answered with the step's params as they should be
 * when modified; the verdict's message is the step as `{ method, params }` again, so cases compare it as written.
 */
function judgeStep(guardian: EmbeddedGuardian, step: JsonObject): Verdict {
  if (typeof step.method !== "string" || !step.method.startsWith("steps/")) throw new Error("an aos case needs message: { method: steps/…, params }");
  const res = guardian.call({ jsonrpc: "2.0", id: ++ids, method: step.method, params: (step.params ?? {}) as JsonObject });
  if ("error" in res) return unavailable(`guardian error ${res.error.code}: ${res.error.message}`);
  const r = res.result as AosResult;
  const data = (r.data ?? {}) as { rules?: string[]; mode?: "enforce" | "audit"; wouldBe?: Verdict["decision"]; audit?: { rules?: string[] } };
  const audit = data.mode === "audit";
  const params = r.modifiedRequest?.params;
  return {
    action: r.decision === "allow" ? "forward" : r.decision === "deny" ? "block" : "rewrite",
    decision: audit ? (data.wouldBe ?? r.decision) : r.decision,
    mode: audit ? "audit" : "enforce",
    rules: [...(data.rules ?? []), ...(audit ? (data.audit?.rules ?? []) : [])],
    reasonCode: r.reasonCode ?? [],
    message: r.message,
    modified: params ? { ...step, params } : undefined,
  };
}
