import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GuardwireError } from "../errors.js";
import { formatProblem, loadRules, readRuleSources, type RuleProblem } from "../guardian/rules/load.js";
import type { CompiledRuleSet } from "../guardian/rules/compile.js";

/** The shipped packs, next to dist/ in the installed package. */
export const PACKS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "rules");
export const DEFAULT_PACK = join(PACKS_DIR, "balanced.yaml");

/** Loads a rule file or directory, or the default pack; refuses with every problem listed. */
export function loadRulesOrThrow(path: string | undefined): CompiledRuleSet {
  const target = path ?? DEFAULT_PACK;
  let sources;
  try {
    sources = readRuleSources(target);
  } catch (e) {
    throw new GuardwireError("RULES_INVALID", `Cannot read rules at ${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { ruleSet, problems } = loadRules(sources);
  if (!ruleSet) throw new GuardwireError("RULES_INVALID", describeProblems(problems));
  return ruleSet;
}

export function describeProblems(problems: RuleProblem[]): string {
  const n = problems.length;
  return `${n} problem${n === 1 ? "" : "s"} in the rules:\n` + problems.map((p) => "  " + formatProblem(p)).join("\n");
}
