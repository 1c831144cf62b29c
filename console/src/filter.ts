/**
 * The live view's filters, with `guardwire tail`'s meaning (src/observe/filter.ts, `matchesFilter`): each field
 * is a list of globs (a text box takes them comma-separated, as `tail --tool a,b` does; `{a,b}` stays one glob) and a value matches when any
 * glob matches it; a decision matches when every field given matches. An empty field matches everything; a field
 * given never matches a missing value (a filter on agent hides lines without one). `rule` matches when any of the
 * decision's rules does. Pure: no DOM, so the tests hold it against tail's own filter.
 */
export const FILTER_FIELDS = ["session", "route", "agent", "rule", "decision", "direction", "method", "tool"] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type DecisionFilter = Partial<Record<FilterField, string[]>>;

/** What a filter reads of a decision (the log line's fields). */
export interface Filterable {
  session: string;
  route: string;
  agent: string | null;
  rules: string[];
  decision: string;
  direction: string;
  method: string | null;
  tool: string | null;
}

/** A text box's value as a list of globs (`splitPatterns` of src/observe/filter.ts): split at commas outside `{a,b}`, blanks dropped. */
export function patterns(text: string): string[] {
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

export function matcher(f: DecisionFilter): (d: Filterable) => boolean {
  const of = (field: FilterField) => {
    const res = (f[field] ?? []).map(globRegExp);
    return (v: string | null | undefined) => res.length === 0 || (v !== null && v !== undefined && res.some((re) => re.test(v)));
  };
  const session = of("session");
  const route = of("route");
  const agent = of("agent");
  const decision = of("decision");
  const direction = of("direction");
  const method = of("method");
  const tool = of("tool");
  const rule = of("rule");
  const anyRule = (f.rule ?? []).length > 0;
  return (d) =>
    session(d.session) && route(d.route) && agent(d.agent) && decision(d.decision) && direction(d.direction) && method(d.method) && tool(d.tool) && (!anyRule || d.rules.some((r) => rule(r)));
}

/** The query string of `GET /api/decisions/export` for this filter (each glob as its own parameter). */
export function filterQuery(f: DecisionFilter): URLSearchParams {
  const q = new URLSearchParams();
  for (const field of FILTER_FIELDS) for (const p of f[field] ?? []) q.append(field, p);
  return q;
}

/**
 * The globs of src/protocol/glob.ts, which tail uses: `*` any run of characters, `?` one, `[abc]`/`[!abc]` a class,
 * `{a,b}` alternatives; everything else literal.
 */
export function globRegExp(glob: string): RegExp {
  return new RegExp(`^(?:${globSource(glob)})$`);
}

function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += "[" + body.replace(/\\/g, "\\\\") + "]";
      i = close;
    } else if (c === "{") {
      const close = glob.indexOf("}", i);
      if (close < 0) {
        out += "\\{";
        continue;
      }
      out += "(?:" + glob.slice(i + 1, close).split(",").map(globSource).join("|") + ")";
      i = close;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return out;
}
