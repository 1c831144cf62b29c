import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GuardwireError } from "../errors.js";
import { formatProblem, loadRules, readRuleSources, type LoadedRules, type RuleProblem } from "../guardian/rules/load.js";
import type { CompiledRuleSet } from "../guardian/rules/compile.js";

/** The shipped packs, next to dist/ in the installed package. */
export const PACKS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "rules");
export const DEFAULT_PACK = join(PACKS_DIR, "balanced.yaml");

/** Reads and loads a rule file or directory; an unreadable path is a GuardwireError saying which. */
export function readAndLoadRules(path: string): LoadedRules {
  let sources;
  try {
    sources = readRuleSources(path);
  } catch (e) {
    throw new GuardwireError("RULES_INVALID", `Cannot read rules at ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return loadRules(sources);
}

/** Loads a rule file or directory, or the default pack; refuses with every problem listed. */
export function loadRulesOrThrow(path: string | undefined): CompiledRuleSet {
  const { ruleSet, problems } = readAndLoadRules(path ?? DEFAULT_PACK);
  if (!ruleSet) throw new GuardwireError("RULES_INVALID", describeProblems(problems));
  return ruleSet;
}

export function describeProblems(problems: RuleProblem[]): string {
  const n = problems.length;
  return `${n} problem${n === 1 ? "" : "s"} in the rules:\n` + problems.map((p) => "  " + formatProblem(p)).join("\n");
}
