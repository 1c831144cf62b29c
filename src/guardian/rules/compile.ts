import { Environment, serialize } from "@marcbachmann/cel-js";
import parseJsonPath from "jsonpath-rfc9535/parser";
import { compileDetector, type CompiledDetector } from "../detectors/index.js";
import { globSource } from "../../protocol/glob.js";
import { regexProblem, safeRegex, type SafeRegex } from "../regex.js";
import type { Severity } from "../alert.js";
import { ASK_DEFAULT_TIMEOUT_MS, ASK_MAX_TIMEOUT_MS, compilePrompt, type CompiledAsk } from "../ask.js";
import type { Ask, Edit, Rule } from "./schema.js";
import { BAIL, specialiseWhen } from "./specialise.js";
import type { Direction, Protocol } from "../../vocabulary.js";

export type { Direction, Protocol };

/** The variables a `when` expression can use (RULES.md). Every one is always bound, to null when absent. */
export const CEL_VARIABLES = [
  "message", "method", "operation", "params", "result", "error", "tool", "args", "text", "direction", "kind",
  "protocol", "route", "server", "agent", "request", "session", "detections",
] as const;

/**
 * The variables whose type is always the same (evaluate.ts binds them), declared so the checker catches misuse at
 * load (`text > 5`, `text.contains(1)`). The others can be null or of any JSON type and stay `dyn`.
 */
const CEL_TYPES: Partial<Record<(typeof CEL_VARIABLES)[number], string>> = {
  text: "string",
  direction: "string",
  kind: "string",
  protocol: "string",
  session: "map<string, dyn>",
  detections: "list<dyn>",
};

const celEnv = (() => {
  const env = new Environment({ unlistedVariablesAreDyn: false, enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  for (const v of CEL_VARIABLES) env.registerVariable(v, CEL_TYPES[v] ?? "dyn");
  // matches() on RE2, as CEL specifies: linear time whatever the pattern (see regex.ts).
  env.registerFunction("string.re2Matches(string): bool", (s: string, p: string) => safeRegex(p).test(s));
  env.registerFunction("re2Matches(string, string): bool", (s: string, p: string) => safeRegex(p).test(s));
  // size() as CEL defines it (code points for a string), without walking a string that has no surrogate pair.
  const sizeOf: Record<string, (v: never) => bigint> = {
    string: (v: string) => BigInt(SURROGATE.test(v) ? [...v].length : v.length),
    bytes: (v: Uint8Array) => BigInt(v.length),
    list: (v: unknown[]) => BigInt(v.length),
    map: (v: object) => BigInt(v instanceof Map ? v.size : Object.keys(v).length),
  };
  for (const [type, fn] of Object.entries(sizeOf)) {
    env.registerFunction(`fastSize(${type}): int`, fn);
    env.registerFunction(`${type}.fastSize(): int`, fn);
  }
  return env;
})();

const SURROGATE = /[\uD800-\uDFFF]/;

/** What a `limit` may count: a response or event is never counted nor withheld for a limit (docs/rules.md). */
const LIMITED_KINDS: readonly string[] = ["request", "notification"];
const LIMIT_DEFAULT_KINDS: ReadonlySet<string> = new Set(["request"]);

type CelNode = { op: string; args: unknown };

/**
 * Compiles a `when` expression with every `matches()` call routed to RE2, and every literal pattern checked now,
 * so a bad or unsupported regex is a load error, not a runtime deny. `size()` is routed to the same function
 * without the library's code-point walk of every string. Type errors are reported against the expression as written.
 * Common shapes run as plain functions specialised at load (specialise.ts); `specialise: false` is for tests.
 */
export function compileWhen(expression: string, opts: { specialise?: boolean } = {}): (vars: Record<string, unknown>) => unknown {
  const { run, ast } = parseWhen(expression);
  const fast = opts.specialise === false ? null : specialiseWhen(ast);
  if (!fast) return run;
  const { test, vars: strings } = fast;
  // A variable that is not a string after all (never, as evaluate.ts binds them), or a value the test was not made
  // for (BAIL): the CEL program decides.
  return (vars) => {
    if (!strings.every((k) => typeof vars[k] === "string")) return run(vars);
    try {
      return test(vars);
    } catch (e) {
      if (e === BAIL) return run(vars);
      throw e;
    }
  };
}

/** The checked CEL program of a `when`, and its AST as rewritten (matches → RE2, size → fastSize). */
export function parseWhen(expression: string): { run: (vars: Record<string, unknown>) => unknown; ast: unknown } {
  const first = celEnv.parse(expression);
  const asWritten = first.check();
  if (!asWritten.valid) throw asWritten.error ?? new Error("invalid expression");
  const patterns: string[] = [];
  let rewritten = false;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const n = node as CelNode;
    if ((n.op === "rcall" || n.op === "call") && Array.isArray(n.args) && n.args[0] === "size") {
      n.args[0] = "fastSize";
      rewritten = true;
    }
    if ((n.op === "rcall" || n.op === "call") && Array.isArray(n.args) && n.args[0] === "matches") {
      n.args[0] = "re2Matches";
      rewritten = true;
      const callArgs = n.op === "rcall" ? n.args[2] : n.args[1];
      const pattern = Array.isArray(callArgs) ? (callArgs[callArgs.length - 1] as CelNode | undefined) : undefined;
      if (pattern?.op === "value" && typeof pattern.args === "string") patterns.push(pattern.args);
    }
    if (Array.isArray(n.args)) n.args.forEach(walk);
    else walk(n.args);
  };
  walk(first.ast);
  for (const p of patterns) {
    const problem = regexProblem(p);
    if (problem) throw new Error(problem);
  }
  const program = rewritten ? celEnv.parse(serialize(first.ast as never)) : first;
  const checked = program.check();
  if (!checked.valid) throw checked.error ?? new Error("invalid expression");
  const problem = whenProblem(first.ast, String(checked.type));
  if (problem) throw new Error(problem);
  return { run: program as (vars: Record<string, unknown>) => unknown, ast: first.ast };
}

/**
 * What the checker cannot see through `dyn` but a rule almost never means: a `when` that is not a condition, and an
 * ordering against a number written as a string (JSON numbers are doubles, so `args.a > "100"` has no overload and
 * denies every call; on strings it would compare "9" above "100").
 */
function whenProblem(ast: unknown, type: string): string | null {
  if (type !== "bool") {
    const hint = type === "dyn" ? ` — its type is only known at run time; compare it (for example \`== true\`)` : "";
    return `when must be a condition (bool), but this expression is ${type}${hint}`;
  }
  let problem: string | null = null;
  const walk = (node: unknown): void => {
    if (problem !== null || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as CelNode;
    if (ORDERING.has(n.op) && Array.isArray(n.args)) {
      const literal = (n.args as CelNode[]).find((a) => a?.op === "value" && typeof a.args === "string" && NUMERIC.test(a.args));
      if (literal) problem = `"${String(literal.args)}" is a string: \`${n.op}\` with it fails on numbers (a rule error, so a deny); write the number ${String(literal.args)}`;
    }
    walk(n.args);
  };
  walk(ast);
  return problem;
}

const ORDERING = new Set(["<", "<=", ">", ">="]);
const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

export type Matcher = (value: string) => boolean;

export type CompiledEdit =
  | { op: "redact"; with: string }
  | { op: "set"; path: string; singular: (string | number)[] | null; value: unknown }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; pattern: SafeRegex; with: string };

export interface CompiledRule {
  id: string;
  order: number;
  file: string;
  description?: string;
  decision: "allow" | "deny" | "modify" | "ask";
  mode: "enforce" | "audit";
  reasonCode?: string;
  /**
   * A second opinion (the text model's rule in the packs): it counts only when no other enforced rule denied, asked
   * about or modified the message — where the rules already cut or refused, their answer stands.
   */
  secondOpinion?: boolean;
  /** decision: ask — what is asked, for how long, and what an approval covers. */
  ask: CompiledAsk | null;
  message?: string;
  protocols: ReadonlySet<Protocol> | null;
  direction: Direction | null;
  kinds: ReadonlySet<string> | null;
  /** Literal methods, when the rule names only literal methods (used by the index). */
  methodLiterals: string[] | null;
  method: Matcher | null;
  tool: Matcher | null;
  operation: Matcher | null;
  route: Matcher | null;
  server: Matcher | null;
  agent: Matcher | null;
  when: ((vars: Record<string, unknown>) => unknown) | null;
  needsText: boolean;
  /** Its `when` reads `session` (labels, counts): with a shared store, judging it needs them fetched first. */
  readsSession: boolean;
  detectors: CompiledDetector[];
  limit: { count: number; perMs: number; key: "session" | "agent" | "route" | "tool" } | null;
  labels: string[];
  edits: CompiledEdit[];
  /** No condition beyond `match`: the rule decides whenever it matches. */
  unconditional: boolean;
  /** `alert:` — every decision this rule fires in raises an alert of this severity. */
  alert: { severity: Severity } | null;
}

export interface CompiledRuleSet {
  name: string;
  hash: string;
  default: "allow" | "deny";
  /** A `default: deny` from an audit-mode file only logs what it would have blocked. */
  defaultMode: "enforce" | "audit";
  rules: CompiledRule[];
  /** Candidate rules for a (protocol, direction, method), in load order. */
  candidates(protocol: Protocol, direction: Direction, method: string | null): readonly CompiledRule[];
}

export interface CompileProblem {
  file: string;
  path: (string | number)[];
  message: string;
}

/** One rule file's rules as the loader resolved them: its mode in force (see docs/rules.md, Layering) and its `disable`. */
export interface RuleLayer {
  file: string;
  rules: Rule[];
  /** The mode of the rules that set none: this file's, or the one imposed by a file that extends it. */
  mode: "enforce" | "audit";
  disable: string[];
  /** The index in the file of each rule, when invalid rules were left out. */
  positions?: number[];
}

/**
 * Compiles the layers in load order. `disable` drops rules of earlier layers, whose ids may then be defined again;
 * any other id defined twice is a problem naming the file that defined it first.
 */
export function compileRuleSet(
  layers: RuleLayer[],
  settings: { name: string; hash: string; default: "allow" | "deny"; defaultMode: "enforce" | "audit" },
): { ruleSet: CompiledRuleSet; problems: CompileProblem[] } {
  const problems: CompileProblem[] = [];
  let rules: CompiledRule[] = [];
  const seen = new Map<string, string>();
  for (const { file, rules: list, mode, disable, positions } of layers) {
    disable.forEach((id, i) => {
      if (!seen.has(id)) problems.push({ file, path: ["disable", i], message: `disable: no rule "${id}" is loaded before this file` });
      seen.delete(id);
    });
    if (disable.length > 0) rules = rules.filter((r) => !disable.includes(r.id));
    list.forEach((rule, i) => {
      const at = (...rest: (string | number)[]) => ["rules", positions?.[i] ?? i, ...rest];
      const prior = seen.get(rule.id);
      if (prior === undefined) seen.set(rule.id, file);
      else problems.push({ file, path: at("id"), message: `duplicate rule id "${rule.id}" (first defined in ${prior})` });
      const m = rule.match ?? {};
      let when: CompiledRule["when"] = null;
      if (rule.when !== undefined) {
        try {
          when = compileWhen(rule.when);
        } catch (e) {
          problems.push({ file, path: at("when"), message: `invalid CEL expression: ${firstLine((e as Error).message)}` });
        }
      }
      const edits: CompiledEdit[] = [];
      (rule.modify ?? []).forEach((edit, j) => {
        const compiled = compileEdit(edit);
        if (typeof compiled === "string") problems.push({ file, path: at("modify", j), message: compiled });
        else edits.push(compiled);
      });
      const detectors: CompiledDetector[] = [];
      (rule.detect ?? []).forEach((spec, j) => {
        const d = compileDetector(spec);
        if (typeof d === "string") problems.push({ file, path: at("detect", j), message: d });
        else detectors.push(d);
      });
      if (rule.modify?.some((e) => "redact" in e) && detectors.length === 0 && !rule.detect) {
        problems.push({ file, path: at("modify"), message: "redact: detections needs detect: on the same rule" });
      }
      let ask: CompiledAsk | null = null;
      if (rule.decision === "ask") {
        const compiled = compileAsk(rule.ask ?? {}, rule.message);
        if (typeof compiled === "string") problems.push({ file, path: at("ask"), message: compiled });
        else ask = compiled;
        if (m.kind !== undefined && toList(m.kind).some((k) => k !== "request")) {
          problems.push({ file, path: at("match", "kind"), message: "decision: ask only holds requests; match.kind can only be request" });
        }
      }
      if (rule.limit && m.kind !== undefined && toList(m.kind).some((k) => !LIMITED_KINDS.includes(k))) {
        problems.push({ file, path: at("match", "kind"), message: "a limit counts requests (and notifications, with kind: notification), never responses or events: their request already went on, and its answer is never withheld for a limit — count the request instead" });
      }
      const methods = m.method === undefined ? null : toList(m.method);
      rules.push({
        id: rule.id,
        order: 0,
        file,
        description: rule.description,
        decision: rule.decision,
        mode: rule.mode ?? mode,
        reasonCode: rule.reasonCode,
        message: rule.message,
        ...(rule.secondOpinion ? { secondOpinion: true } : {}),
        ask,
        protocols: m.protocol === undefined ? null : new Set(toList(m.protocol)),
        direction: m.direction ?? null,
        // A limit counts requests unless its match names other kinds (notifications): never the answers coming back.
        kinds: m.kind === undefined ? (rule.limit ? LIMIT_DEFAULT_KINDS : null) : new Set(toList(m.kind)),
        methodLiterals: methods && methods.every((x) => !isGlob(x)) ? methods : null,
        method: methods ? globMatcher(methods) : null,
        tool: m.tool === undefined ? null : globMatcher(toList(m.tool)),
        operation: m.operation === undefined ? null : globMatcher(toList(m.operation)),
        route: m.route === undefined ? null : globMatcher(toList(m.route)),
        server: m.server === undefined ? null : globMatcher(toList(m.server)),
        agent: m.agent === undefined ? null : globMatcher(toList(m.agent)),
        when,
        needsText: rule.when !== undefined && /\btext\b/.test(rule.when),
        readsSession: rule.when !== undefined && /\bsession\b/.test(rule.when),
        detectors,
        limit: rule.limit ? { count: rule.limit.count, perMs: durationMs(rule.limit.per), key: rule.limit.key } : null,
        labels: rule.label === undefined ? [] : toList(rule.label),
        edits,
        unconditional: rule.when === undefined && rule.detect === undefined && rule.limit === undefined,
        alert: rule.alert ?? null,
      });
    });
  }
  rules.forEach((r, i) => (r.order = i));
  const defaultMode = settings.default === "deny" ? settings.defaultMode : "enforce";
  return { ruleSet: { name: settings.name, hash: settings.hash, default: settings.default, defaultMode, rules, candidates: buildIndex(rules) }, problems };
}

function compileEdit(edit: Edit): CompiledEdit | string {
  if ("redact" in edit) return { op: "redact", with: edit.with ?? "[REDACTED:{type}]" };
  if ("set" in edit) {
    const singular = checkPath(edit.set);
    if (typeof singular === "string") return singular;
    return { op: "set", path: edit.set, singular, value: edit.value };
  }
  if ("remove" in edit) {
    const r = checkPath(edit.remove);
    return typeof r === "string" ? r : { op: "remove", path: edit.remove };
  }
  const r = checkPath(edit.replace);
  if (typeof r === "string") return r;
  const problem = regexProblem(edit.pattern, edit.flags ?? "");
  if (problem) return problem;
  return { op: "replace", path: edit.replace, pattern: safeRegex(edit.pattern, edit.flags ?? ""), with: edit.with };
}

function compileAsk(spec: Ask, message: string | undefined): CompiledAsk | string {
  const timeoutMs = spec.timeout === undefined ? ASK_DEFAULT_TIMEOUT_MS : durationMs(spec.timeout);
  if (timeoutMs <= 0 || timeoutMs > ASK_MAX_TIMEOUT_MS) return `ask.timeout must be above 0 and at most 1h (got ${spec.timeout})`;
  const prompt = compilePrompt(spec.prompt ?? message ?? "Approve {method} {tool}?");
  if (typeof prompt === "string") return `ask.prompt: ${prompt}`;
  return { timeoutMs, onTimeout: spec.onTimeout ?? "deny", remember: spec.remember ?? "once", prompt };
}

function durationMs(per: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(per);
  const n = Number(m?.[1] ?? 0);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m?.[2] ?? "s") as "ms" | "s" | "m" | "h" | "d"];
  return n * unit;
}

type PathSegment = { type: string; node?: { type: string; value?: unknown } };

/** Validates a JSONPath; returns the segments when it is a singular path of names and indexes (so `set` can create it). */
function checkPath(path: string): (string | number)[] | null | string {
  let ast: { segments: PathSegment[] };
  try {
    ast = parseJsonPath(path) as { segments: PathSegment[] };
  } catch (e) {
    return `invalid JSONPath "${path}": ${firstLine((e as Error).message)}`;
  }
  const out: (string | number)[] = [];
  for (const seg of ast.segments) {
    const node = seg.node;
    if (seg.type !== "ChildSegment" || !node) return null;
    if ((node.type === "MemberNameShorthand" || node.type === "NameSelector") && typeof node.value === "string") out.push(node.value);
    else if (node.type === "IndexSelector" && typeof node.value === "number") out.push(node.value);
    else return null;
  }
  return out;
}

function buildIndex(rules: CompiledRule[]): CompiledRuleSet["candidates"] {
  const byKey = new Map<string, { literal: Map<string, CompiledRule[]>; any: CompiledRule[]; cache: Map<string, readonly CompiledRule[]> }>();
  const protocols: Protocol[] = ["mcp", "a2a", "aos"];
  const directions: Direction[] = ["outbound", "inbound"];
  for (const p of protocols) {
    for (const d of directions) {
      const literal = new Map<string, CompiledRule[]>();
      const any: CompiledRule[] = [];
      for (const r of rules) {
        if (r.protocols && !r.protocols.has(p)) continue;
        if (r.direction && r.direction !== d) continue;
        if (r.methodLiterals) {
          for (const meth of r.methodLiterals) {
            const list = literal.get(meth) ?? [];
            list.push(r);
            literal.set(meth, list);
          }
        } else any.push(r);
      }
      byKey.set(`${p}|${d}`, { literal, any, cache: new Map() });
    }
  }
  const MAX_CACHED_METHODS = 512;
  return (protocol, direction, method) => {
    const entry = byKey.get(`${protocol}|${direction}`);
    if (!entry) return [];
    const key = method ?? "";
    const hit = entry.cache.get(key);
    if (hit) return hit;
    const lits = method === null ? undefined : entry.literal.get(method);
    const merged = lits ? [...lits, ...entry.any].sort((a, b) => a.order - b.order) : entry.any;
    // Methods come from the wire; only cache the ones a rule names, plus a bounded number of others.
    if (lits || entry.cache.size < MAX_CACHED_METHODS) entry.cache.set(key, merged);
    return merged;
  };
}

const isGlob = (s: string): boolean => /[*?[\]{}!]/.test(s);

/**
 * One matcher per distinct pattern list, shared by the rules that use it, remembering its last answer: several
 * rules on the same tools ask the same question about the same message.
 */
const globMatchers = new Map<string, Matcher>();

function globMatcher(patterns: string[]): Matcher {
  const key = patterns.join("\u0000");
  let matcher = globMatchers.get(key);
  if (matcher) return matcher;
  if (patterns.every((p) => !isGlob(p))) {
    const set = new Set(patterns);
    matcher = (v) => set.has(v);
  } else {
    const re = new RegExp(`^(?:${patterns.map(globSource).join("|")})$`);
    let last: string | undefined;
    let answer = false;
    matcher = (v) => {
      if (v !== last) {
        answer = re.test(v);
        last = v;
      }
      return answer;
    };
  }
  if (globMatchers.size < 4096) globMatchers.set(key, matcher);
  return matcher;
}

function toList<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
