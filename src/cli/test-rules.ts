import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import { GuardwireError } from "../errors.js";
import { PACK_NAME } from "../guardian/rules/load.js";
import { ruleTestFileSchema, runRuleTests, type CaseResult } from "../guardian/rule-tests.js";
import { describeProblems, readAndLoadRules } from "./rules.js";

/** The `*.test.yaml` files under a path (a file, or a directory searched recursively). */
function testFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? testFiles(join(path, e.name)) : /\.test\.ya?ml$/.test(e.name) ? [join(path, e.name)] : []))
    .sort();
}

export interface TestSummary {
  passed: number;
  failed: number;
  files: { file: string; results: CaseResult[] }[];
}

/**
 * Runs rule tests: each file against `rules` when given (`guardwire test --rules`), else the rules it names (`rules:`),
 * else the rule files in its own directory.
 */
export function runTestFiles(path: string, rules?: string[]): TestSummary {
  const summary: TestSummary = { passed: 0, failed: 0, files: [] };
  let files: string[];
  try {
    files = testFiles(path);
  } catch (e) {
    throw new GuardwireError("USAGE", `Cannot read tests at ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  for (const file of files) {
    const parsed = ruleTestFileSchema.safeParse(parse(readFileSync(file, "utf8")));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new GuardwireError("RULES_INVALID", `${file}: ${issue?.path.join(".")}: ${issue?.message}`);
    }
    const { ruleSet, problems } = readAndLoadRules(rules ?? rulesOf(file, parsed.data.rules));
    if (!ruleSet) throw new GuardwireError("RULES_INVALID", describeProblems(problems));
    const results = runRuleTests(ruleSet, parsed.data);
    for (const r of results) {
      if (r.ok) summary.passed++;
      else summary.failed++;
    }
    summary.files.push({ file, results });
  }
  return summary;
}

/** A test file's `rules:`: paths relative to it, or shipped pack names. */
function rulesOf(file: string, named: string | string[] | undefined): string[] {
  if (named === undefined) return [dirname(file)];
  return [named].flat().map((r) => {
    const path = resolve(dirname(file), r);
    return existsSync(path) || !PACK_NAME.test(r) ? path : r;
  });
}

export function printTestSummary(s: TestSummary, out: NodeJS.WritableStream, color: boolean): void {
  const paint = (c: string, t: string) => (color ? `\x1b[${c}m${t}\x1b[0m` : t);
  for (const f of s.files) {
    out.write(`${f.file}\n`);
    for (const r of f.results) {
      out.write(`  ${r.ok ? paint("32", "✓") : paint("31", "✗")} ${r.name}\n`);
      for (const fail of r.failures) out.write(`      ${paint("31", fail)}\n`);
    }
  }
  out.write(`\n${s.passed} passed, ${s.failed} failed\n`);
}
