import { Environment } from "@marcbachmann/cel-js";
import parseJsonPath from "jsonpath-rfc9535/parser";
import picomatch from "picomatch";
import type { Edit, RuleFile } from "./schema.js";

/** The variables a `when` expression can use (RULES.md). Every one is always bound, to null when absent. */
export const CEL_VARIABLES = [
  "message", "method", "params", "result", "error", "tool", "args", "text", "direction", "kind",
  "protocol", "route", "server", "agent", "request", "session", "detections",
] as const;

const celEnv = (() => {
  const env = new Environment({ unlistedVariablesAreDyn: false, enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  for (const v of CEL_VARIABLES) env.registerVariable(v, "dyn");
  return env;
})();

export type Matcher = (value: string) => boolean;
export type Protocol = "mcp" | "a2a" | "aos";
export type Direction = "outbound" | "inbound";

export type CompiledEdit =
  | { op: "set"; path: string; singular: (string | number)[] | null; value: unknown }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; pattern: RegExp; with: string };

export interface CompiledRule {
  id: string;
  order: number;
  file: string;
  description?: string;
  decision: "allow" | "deny" | "modify";
  mode: "enforce" | "audit";
  reasonCode?: string;
  message?: string;
  protocols: ReadonlySet<Protocol> | null;
  direction: Direction | null;
  kinds: ReadonlySet<string> | null;
  /** Literal methods, when the rule names only literal methods (used by the index). */
  methodLiterals: string[] | null;
  method: Matcher | null;
  tool: Matcher | null;
  route: Matcher | null;
  server: Matcher | null;
  agent: Matcher | null;
  when: ((vars: Record<string, unknown>) => unknown) | null;
  needsText: boolean;
  edits: CompiledEdit[];
  /** No condition beyond `match`: the rule decides whenever it matches. */
  unconditional: boolean;
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

export function compileRuleSet(
  files: { file: string; rules: RuleFile; positions?: number[] }[],
  hash: string,
): { ruleSet: CompiledRuleSet; problems: CompileProblem[] } {
  const problems: CompileProblem[] = [];
  const rules: CompiledRule[] = [];
  const seen = new Map<string, string>();
  let defaultDecision: "allow" | "deny" = "allow";
  let defaultMode: "enforce" | "audit" = "audit";
  for (const { file, rules: rf, positions } of files) {
    if (rf.default === "deny") {
      defaultDecision = "deny";
      if (rf.mode === "enforce") defaultMode = "enforce";
    }
    rf.rules.forEach((rule, i) => {
      const at = (...rest: (string | number)[]) => ["rules", positions?.[i] ?? i, ...rest];
      const prior = seen.get(rule.id);
      if (prior !== undefined) {
        problems.push({ file, path: at("id"), message: `duplicate rule id "${rule.id}" (first defined in ${prior})` });
      }
      seen.set(rule.id, file);
      const m = rule.match ?? {};
      let when: CompiledRule["when"] = null;
      if (rule.when !== undefined) {
        try {
          const program = celEnv.parse(rule.when);
          const checked = program.check();
          if (!checked.valid) throw checked.error ?? new Error("invalid expression");
          when = program as (vars: Record<string, unknown>) => unknown;
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
      const methods = m.method === undefined ? null : toList(m.method);
      rules.push({
        id: rule.id,
        order: rules.length,
        file,
        description: rule.description,
        decision: rule.decision,
        mode: rule.mode ?? rf.mode,
        reasonCode: rule.reasonCode,
        message: rule.message,
        protocols: m.protocol === undefined ? null : new Set(toList(m.protocol)),
        direction: m.direction ?? null,
        kinds: m.kind === undefined ? null : new Set(toList(m.kind)),
        methodLiterals: methods && methods.every((x) => !isGlob(x)) ? methods : null,
        method: methods ? globMatcher(methods) : null,
        tool: m.tool === undefined ? null : globMatcher(toList(m.tool)),
        route: m.route === undefined ? null : globMatcher(toList(m.route)),
        server: m.server === undefined ? null : globMatcher(toList(m.server)),
        agent: m.agent === undefined ? null : globMatcher(toList(m.agent)),
        when,
        needsText: rule.when !== undefined && /\btext\b/.test(rule.when),
        edits,
        unconditional: rule.when === undefined,
      });
    });
  }
  const name = files.map((f) => f.rules.name).join("+") || "empty";
  return { ruleSet: { name, hash, default: defaultDecision, defaultMode: defaultDecision === "deny" ? defaultMode : "enforce", rules, candidates: buildIndex(rules) }, problems };
}

function compileEdit(edit: Edit): CompiledEdit | string {
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
  try {
    return { op: "replace", path: edit.replace, pattern: new RegExp(edit.pattern, "g" + (edit.flags ?? "")), with: edit.with };
  } catch (e) {
    return `invalid pattern: ${(e as Error).message}`;
  }
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

function globMatcher(patterns: string[]): Matcher {
  if (patterns.every((p) => !isGlob(p))) {
    const set = new Set(patterns);
    return (v) => set.has(v);
  }
  // bash mode: `*` also crosses `/`, so `tools/*` and `*` both read the way people expect for method names.
  const m = picomatch(patterns, { bash: true, dot: true, nobrace: false });
  return (v) => m(v);
}

function toList<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
