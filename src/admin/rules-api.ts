import type { CompiledRuleSet } from "../guardian/rules/compile.js";
import type { DecisionStats } from "./stats.js";
import type { AdminRoute } from "./server.js";

/** The last time the rules were (re)loaded, and how it went. */
export type RulesReload =
  | { at: string; by: "start" | "watch" | "console"; ok: true; rules: number; hash: string }
  | { at: string; by: "start" | "watch" | "console"; ok: false; problems: string[] };

/** The embedded guardian's rules as the console sees them: what is in force, and a reload that keeps them when the new set is bad. */
export interface RulesControl {
  /** The rule files, directories or packs the rules are read from. */
  paths: string[];
  current(): CompiledRuleSet;
  last(): RulesReload;
  reload(): RulesReload;
}

/** `GET /api/rules` (packs, rules, how often each fired) and `POST /api/rules/reload`. */
export function rulesRoutes(rules: RulesControl, stats: DecisionStats): AdminRoute[] {
  return [
    { method: "GET", pattern: /^\/api\/rules$/, doc: "GET /api/rules", run: () => [200, describeRules(rules, stats)] },
    {
      method: "POST",
      pattern: /^\/api\/rules\/reload$/,
      doc: "POST /api/rules/reload",
      run: async (_m, r) => {
        await r.body();
        const reload = rules.reload();
        // 422: the request was fine, the rules on disk are not; the rules in force are unchanged.
        if (!reload.ok) return [422, { error: { code: "BAD_REQUEST", message: "the rules did not load; the previous rules stay in force" }, reload, ...describeRules(rules, stats) }];
        return [200, { reload, ...describeRules(rules, stats) }];
      },
    },
  ];
}

function describeRules(control: RulesControl, stats: DecisionStats) {
  const set = control.current();
  const fired = stats.firedByRule();
  const packs = new Map<string, number>();
  for (const r of set.rules) packs.set(r.file, (packs.get(r.file) ?? 0) + 1);
  return {
    ruleset: { name: set.name, hash: set.hash, default: set.default, defaultMode: set.defaultMode },
    paths: control.paths,
    last: control.last(),
    packs: [...packs].map(([file, rules]) => ({ file, rules })),
    rules: set.rules.map((r) => ({
      id: r.id,
      file: r.file,
      description: r.description ?? null,
      decision: r.decision,
      mode: r.mode,
      reasonCode: r.reasonCode ?? null,
      alert: r.alert ?? null,
      fired: fired.get(r.id) ?? 0,
    })),
  };
}
