import { globRegExp } from "../protocol/glob.js";

/*
 * Which decisions a person asked to see: `guardwire tail`'s filters, and the console's (docs/decision-log.md,
 * "Filters"). Pure: no I/O, so the CLI, the admin API and the browser apply the same test to the same record.
 *
 * - Each filter is a list of globs (`*` any run of characters, `?` one, `[abc]`, `{a,b}`), matched against the whole
 *   field, case-sensitively. A list matches when any of its globs does (`--tool 'read_*' --tool write_file`).
 * - Filters combine with AND: a decision is shown when every filter given matches it. An absent or empty list
 *   matches everything.
 * - A filter on a field the decision lacks (no tool, no agent: `null`) does not match it.
 * - `rule` matches when any rule id the decision names does; a decision naming no rule does not match.
 * - `task` matches the A2A task id or its context id.
 */
export interface DecisionFilter {
  decision?: string[];
  method?: string[];
  tool?: string[];
  session?: string[];
  /** The route (serve's `routes[].name`, wrap's `--name`). */
  route?: string[];
  /** The caller (serve's agent id; null for wrap and unauthenticated callers). */
  agent?: string[];
  /** Any of the ids in the decision's `rules`. */
  rule?: string[];
  /** `outbound` or `inbound` (the console's direction choice; the export's `direction=`). */
  direction?: string[];
  /** A2A: only the exchanges about this task or context. */
  task?: string[];
}

/** The fields of a decision the filters read (a decision log record has them all). */
export interface FilterableDecision {
  decision: string;
  method?: string | null;
  tool?: string | null;
  session?: string | null;
  route?: string | null;
  agent?: string | null;
  rules?: readonly string[] | null;
  direction?: string | null;
  task?: string | null;
  context?: string | null;
}

export function matchesFilter(r: FilterableDecision, f: DecisionFilter): boolean {
  const task = none(f.task) || any(f.task, r.task) || any(f.task, r.context);
  const rule = none(f.rule) || (r.rules ?? []).some((id) => any(f.rule, id));
  return (
    (none(f.decision) || any(f.decision, r.decision)) &&
    (none(f.method) || any(f.method, r.method)) &&
    (none(f.tool) || any(f.tool, r.tool)) &&
    (none(f.session) || any(f.session, r.session)) &&
    (none(f.route) || any(f.route, r.route)) &&
    (none(f.agent) || any(f.agent, r.agent)) &&
    (none(f.direction) || any(f.direction, r.direction)) &&
    rule &&
    task
  );
}

/** A filter's text as a list of globs: split at commas, except inside `{a,b}` alternatives; blanks dropped. */
export function splitPatterns(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if ((c === "," && depth === 0) || c === undefined) {
      const p = text.slice(start, i).trim();
      if (p !== "") out.push(p);
      start = i + 1;
    }
  }
  return out;
}

const none = (patterns: string[] | undefined): boolean => !patterns || patterns.length === 0;

function any(patterns: string[] | undefined, value: string | null | undefined): boolean {
  return value !== null && value !== undefined && (patterns ?? []).some((p) => compiled(p).test(value));
}

// Bounded: a console typing filters one key at a time would otherwise keep every prefix it ever typed.
const cache = new Map<string, RegExp>();
function compiled(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    if (cache.size >= 256) cache.clear();
    re = globRegExp(glob);
    cache.set(glob, re);
  }
  return re;
}
