import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { LineCounter, isNode, parseDocument, type Document } from "yaml";
import { compileRuleSet, type CompiledRuleSet, type CompileProblem } from "./compile.js";
import { ruleFileSchema, ruleSchema, type RuleFile } from "./schema.js";

/** One problem in a rule file, located for a human: file, line, column and key path. */
export interface RuleProblem {
  file: string;
  line: number;
  column: number;
  path: string;
  message: string;
}

export interface RuleSource {
  file: string;
  text: string;
}

export interface LoadedRules {
  ruleSet?: CompiledRuleSet;
  problems: RuleProblem[];
}

/** Rule files in a directory (sorted, so load order is stable) or the single file named. Test files are skipped. */
export function readRuleSources(path: string): RuleSource[] {
  const st = statSync(path);
  const files = st.isDirectory()
    ? readdirSync(path)
        .filter((f) => /\.(ya?ml|json)$/.test(f) && !/\.test\.(ya?ml|json)$/.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  return files.map((file) => ({ file, text: readFileSync(file, "utf8") }));
}

/** Parse, validate and compile rule sources as a whole; every problem is reported, and no rule set is returned if any. */
export function loadRules(sources: RuleSource[]): LoadedRules {
  const problems: RuleProblem[] = [];
  const parsed: { file: string; rules: RuleFile; positions?: number[]; locate: (path: (string | number)[]) => { line: number; column: number } }[] = [];
  for (const src of sources) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(src.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    const locate = locator(doc, lineCounter);
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const pos = lineCounter.linePos(err.pos[0]);
        problems.push({ file: src.file, line: pos.line, column: pos.col, path: "", message: err.message.split("\n")[0] ?? "YAML error" });
      }
      continue;
    }
    const raw: unknown = doc.toJS({ maxAliasCount: 100 });
    const result = ruleFileSchema.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
        const where = locate(path);
        problems.push({ file: src.file, ...where, path: formatPath(path), message: issue.message });
      }
      // Rules that are valid on their own are still compiled, so their CEL and JSONPath problems show up too.
      const rawRules = (raw as { rules?: unknown } | null)?.rules;
      if (Array.isArray(rawRules)) {
        const rules: RuleFile["rules"] = [];
        const positions: number[] = [];
        rawRules.forEach((r, i) => {
          const ok = ruleSchema.safeParse(r);
          if (ok.success) {
            rules.push(ok.data);
            positions.push(i);
          }
        });
        parsed.push({ file: src.file, rules: { name: "invalid", mode: "enforce", default: "allow", rules }, positions, locate });
      }
      continue;
    }
    parsed.push({ file: src.file, rules: result.data, locate });
  }
  const hash = createHash("sha256");
  for (const src of sources) hash.update(src.file).update("\0").update(src.text).update("\0");
  const compiled = compileRuleSet(
    parsed.map((p) => ({ file: p.file, rules: p.rules, positions: p.positions })),
    hash.digest("hex").slice(0, 16),
  );
  problems.push(...compiled.problems.map((p) => located(p, parsed)));
  if (problems.length > 0) {
    // Every problem, in file and line order.
    problems.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : 0));
    return { problems };
  }
  return { ruleSet: compiled.ruleSet, problems: [] };
}

function located(
  p: CompileProblem,
  parsed: { file: string; locate: (path: (string | number)[]) => { line: number; column: number } }[],
): RuleProblem {
  const src = parsed.find((x) => x.file === p.file);
  const where = src ? src.locate(p.path) : { line: 1, column: 1 };
  return { file: p.file, ...where, path: formatPath(p.path), message: p.message };
}

function locator(doc: Document, lc: LineCounter) {
  return (path: (string | number)[]): { line: number; column: number } => {
    // Walk up the path until a node exists (a missing key is reported where its parent is).
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) {
        const pos = lc.linePos(node.range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return { line: 1, column: 1 };
  };
}

export function formatPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

export function formatProblem(p: RuleProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.path ? p.path + ": " : ""}${p.message}`;
}
