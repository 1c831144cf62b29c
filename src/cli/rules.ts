import { join } from "node:path";
import { GuardwireError } from "../errors.js";
import type { CompiledRuleSet } from "../guardian/rules/compile.js";
import { formatProblem, loadRules, PACKS_DIR, readRuleSources, type LoadedRules, type RuleProblem } from "../guardian/rules/load.js";

export { PACKS_DIR };
export const DEFAULT_PACK = join(PACKS_DIR, "balanced.yaml");

/** Reads and loads rule files, directories or shipped packs, in the order given, as one set; an unreadable path is a GuardwireError saying which. */
export function readAndLoadRules(paths: string | string[]): LoadedRules {
  const sources = [paths].flat().flatMap((path) => {
    try {
      return readRuleSources(path);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new GuardwireError("RULES_INVALID", `Cannot read rules at ${path}: ${why} (a file, a directory, or a shipped pack: balanced, strict, audit-only)`);
    }
  });
  return loadRules(sources);
}

/** Loads the rules named, or the default pack; refuses with every problem listed. */
export function loadRulesOrThrow(paths: string | string[] | undefined): CompiledRuleSet {
  return loadRulesAndFiles(paths).ruleSet;
}

/** As loadRulesOrThrow, with the files read (for the watcher). */
export function loadRulesAndFiles(paths: string | string[] | undefined): { ruleSet: CompiledRuleSet; files: string[] } {
  const { ruleSet, problems, files } = readAndLoadRules(rulesOrDefault(paths));
  if (!ruleSet) throw new GuardwireError("RULES_INVALID", describeProblems(problems));
  return { ruleSet, files };
}

/** The paths given, or the default pack when none. */
export function rulesOrDefault(paths: string | string[] | undefined): string[] {
  const list = paths === undefined ? [] : [paths].flat();
  return list.length > 0 ? list : [DEFAULT_PACK];
}

export function describeProblems(problems: RuleProblem[]): string {
  const n = problems.length;
  return `${n} problem${n === 1 ? "" : "s"} in the rules:\n` + problems.map((p) => "  " + formatProblem(p)).join("\n");
}
