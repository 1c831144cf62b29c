import { safeRegex } from "../regex.js";

type Node = { op: string; args: unknown };
type Test = (vars: Record<string, unknown>) => boolean;

/** The variables bound to a string whenever a rule runs (evaluate.ts), so string methods on them cannot fail. */
const STRING_VARS = new Set(["text", "direction", "kind", "protocol"]);
const METHODS: Record<string, (s: string, literal: string) => boolean> = {
  contains: (s, l) => s.includes(l),
  startsWith: (s, l) => s.startsWith(l),
  endsWith: (s, l) => s.endsWith(l),
};
const SURROGATE = /[\uD800-\uDFFF]/;
const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
  "==": (a, b) => a === b,
  "!=": (a, b) => a !== b,
};

/**
 * A `when` (as compileWhen rewrote it) as a plain function, specialised at load, for the expressions rule packs are
 * mostly made of: `matches`, `contains`, `startsWith`, `endsWith` on a string variable with a literal argument,
 * `size(…)` of one compared with an integer literal, and `!`, `&&`, `||`, `==`/`!=` of those. Each of these is
 * total on strings (it cannot fail), so CEL's error-absorbing `&&`/`||` are JavaScript's here; the patterns are the
 * same RE2 programs, bound now instead of looked up per call. Anything else: null, and the CEL program runs.
 * The caller checks that the variables are strings at run time, and runs the CEL program when one is not.
 */
export function specialiseWhen(ast: unknown): { test: Test; vars: string[] } | null {
  const vars = new Set<string>();
  const test = bool(ast as Node, vars);
  return test ? { test, vars: [...vars] } : null;
}

function bool(n: Node, vars: Set<string>): Test | null {
  if (n === null || typeof n !== "object") return null;
  const args = n.args;
  switch (n.op) {
    case "value":
      return typeof args === "boolean" ? () => args : null;
    case "||":
    case "&&": {
      const [a, b] = args as [Node, Node];
      const x = bool(a, vars);
      const y = x && bool(b, vars);
      if (!x || !y) return null;
      return n.op === "||" ? (v) => x(v) || y(v) : (v) => x(v) && y(v);
    }
    case "!_": {
      const x = bool(args as Node, vars);
      return x ? (v) => !x(v) : null;
    }
    case "rcall": {
      const [name, target, callArgs] = args as [string, Node, Node[]];
      const on = stringVar(target, vars);
      const literal = callArgs?.length === 1 && callArgs[0]?.op === "value" && typeof callArgs[0].args === "string" ? callArgs[0].args : null;
      if (on === null || literal === null) return null;
      if (name === "re2Matches") {
        const re = safeRegex(literal);
        return (v) => re.test(v[on] as string);
      }
      const method = METHODS[name];
      return method ? (v) => method(v[on] as string, literal) : null;
    }
    case "==":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const [a, b] = args as [Node, Node];
      const cmp = COMPARE[n.op] as (a: number, b: number) => boolean;
      const sa = sizeOf(a, vars);
      const sb = sizeOf(b, vars);
      const ia = intLiteral(a);
      const ib = intLiteral(b);
      if (sa && ib !== null) return (v) => cmp(sa(v), ib);
      if (ia !== null && sb) return (v) => cmp(ia, sb(v));
      if (n.op !== "==" && n.op !== "!=") return null;
      const x = bool(a, vars);
      const y = x && bool(b, vars);
      if (!x || !y) return null;
      return n.op === "==" ? (v) => x(v) === y(v) : (v) => x(v) !== y(v);
    }
    default:
      return null;
  }
}

function stringVar(n: Node | undefined, vars: Set<string>): string | null {
  if (n?.op !== "id" || typeof n.args !== "string" || !STRING_VARS.has(n.args)) return null;
  vars.add(n.args);
  return n.args;
}

/** `size(s)` / `s.size()` of a string variable (rewritten to fastSize): its length in code points, as CEL counts. */
function sizeOf(n: Node, vars: Set<string>): ((v: Record<string, unknown>) => number) | null {
  let target: Node | undefined;
  if (n.op === "call") {
    const [name, callArgs] = n.args as [string, Node[]];
    if (name === "fastSize" && callArgs?.length === 1) target = callArgs[0];
  } else if (n.op === "rcall") {
    const [name, on, callArgs] = n.args as [string, Node, Node[]];
    if (name === "fastSize" && (callArgs?.length ?? 0) === 0) target = on;
  }
  const on = stringVar(target, vars);
  if (on === null) return null;
  return (v) => {
    const s = v[on] as string;
    return SURROGATE.test(s) ? [...s].length : s.length;
  };
}

function intLiteral(n: Node): number | null {
  if (n.op !== "value" || typeof n.args !== "bigint") return null;
  const x = Number(n.args);
  return Number.isSafeInteger(x) ? x : null;
}
