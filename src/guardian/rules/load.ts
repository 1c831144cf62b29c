import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatFileProblem, formatPath, parseYaml, type FileProblem } from "../../config/yaml.js";
import { compileRuleSet, type CompiledRuleSet, type CompileProblem } from "./compile.js";
import { ruleFileSchema, ruleSchema, type RuleFile } from "./schema.js";

/** One problem in a rule file, located for a human: file, line, column and key path. */
export type RuleProblem = FileProblem;

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
    const yaml = parseYaml(src.file, src.text);
    const locate = yaml.locate;
    if (yaml.problems.length > 0) {
      problems.push(...yaml.problems);
      continue;
    }
    const raw: unknown = yaml.value;
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

export { formatPath };

export const formatProblem = formatFileProblem;
