import { safeRegex } from "../regex.js";

type Node = { op: string; args: unknown };
type Test = (vars: Record<string, unknown>) => boolean;
type Value = (vars: Record<string, unknown>) => unknown;

/** The variables bound to a string whenever a rule runs (evaluate.ts), so string methods on them cannot fail. */
const STRING_VARS = new Set(["text", "direction", "kind", "protocol"]);
/** Variables holding JSON values (evaluate.ts binds them), read here through field paths. */
const JSON_VARS = new Set(["message", "params", "args", "result", "error", "request", "server"]);

/**
 * Thrown where a specialised test meets what it was not made for (a field path through something that is not a
 * JSON object, a missing key, a value of another type): the CEL program decides, with CEL's own answer or error.
 */
export const BAIL = Symbol("bail");
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
 * Field paths on the JSON variables (`has(args.path)`, `args.path.startsWith("/etc/")`, `size(args.message)`) are
 * read only through plain JSON objects and used only as the type the test expects; anything else throws BAIL.
 * The caller checks that the string variables are strings at run time, and runs the CEL program when one is not or
 * when the test throws BAIL.
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
      const on = stringOf(target, vars);
      const literal = callArgs?.length === 1 && callArgs[0]?.op === "value" && typeof callArgs[0].args === "string" ? callArgs[0].args : null;
      if (on === null || literal === null) return null;
      if (name === "re2Matches") {
        const re = safeRegex(literal);
        return (v) => re.test(on(v));
      }
      const method = METHODS[name];
      return method ? (v) => method(on(v), literal) : null;
    }
    case "call": {
      // has(x.a.b): the last key is present (and not undefined) in a JSON object reached through present keys.
      const [name, callArgs] = args as [string, Node[]];
      if (name !== "has" || callArgs?.length !== 1) return null;
      const path = jsonPath(callArgs[0] as Node);
      if (path === null || path.keys.length === 0) return null;
      const { root, keys } = path;
      const parent = keys.slice(0, -1);
      const last = keys[keys.length - 1] as string;
      return (v) => {
        const o = follow(v[root], parent);
        if (!isJsonObject(o)) throw BAIL;
        return Object.hasOwn(o, last) && o[last] !== undefined;
      };
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
  const on = target ? stringOf(target, vars) : null;
  if (on === null) return null;
  return (v) => {
    const s = on(v);
    return SURROGATE.test(s) ? [...s].length : s.length;
  };
}

/** A string variable, or a field path on a JSON variable that must hold a string (else BAIL). */
function stringOf(n: Node, vars: Set<string>): ((v: Record<string, unknown>) => string) | null {
  const name = stringVar(n, vars);
  if (name !== null) return (v) => v[name] as string;
  const path = jsonPath(n);
  if (path === null || path.keys.length === 0) return null;
  const value: Value = (v) => follow(v[path.root], path.keys);
  return (v) => {
    const s = value(v);
    if (typeof s !== "string") throw BAIL;
    return s;
  };
}

/** `x.a.b` on a JSON variable: its root variable and keys, or null for anything else (optional `.?`, indexes). */
function jsonPath(n: Node): { root: string; keys: string[] } | null {
  const keys: string[] = [];
  let at = n;
  while (at?.op === ".") {
    const [inner, key] = at.args as [Node, unknown];
    if (typeof key !== "string") return null;
    keys.unshift(key);
    at = inner;
  }
  if (at?.op !== "id" || typeof at.args !== "string" || !JSON_VARS.has(at.args)) return null;
  return { root: at.args, keys };
}

/** The value at `keys` from `value`, each step through a JSON object holding the key; BAIL where CEL would not. */
function follow(value: unknown, keys: readonly string[]): unknown {
  let at = value;
  for (const k of keys) {
    if (!isJsonObject(at) || !Object.hasOwn(at, k) || at[k] === undefined) throw BAIL;
    at = at[k];
  }
  return at;
}

function isJsonObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function intLiteral(n: Node): number | null {
  if (n.op !== "value" || typeof n.args !== "bigint") return null;
  const x = Number(n.args);
  return Number.isSafeInteger(x) ? x : null;
}
