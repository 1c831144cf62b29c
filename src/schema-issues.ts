import type { z } from "zod";

/*
 * zod's issues as messages a person can act on. zod says `Invalid input` for a union that nothing matched and
 * `Unrecognized key: "comand"` for a typo; here both name the unknown key, the nearest known one, and the keys each
 * form accepts, read from the schema itself so the message never drifts from it.
 */

type Path = (string | number)[];
interface Def {
  type: string;
  innerType?: z.ZodType;
  getter?: () => z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Through optional, default, lazy and the like, to the schema that says what the value is. */
function unwrap(s: z.ZodType): z.ZodType {
  for (;;) {
    const d = defOf(s);
    const next = d.type === "lazy" ? d.getter?.() : d.type === "pipe" ? d.in : d.innerType;
    if (!next) return s;
    s = next;
  }
}

/** The schema at a key path, or undefined where the path leaves the schema. */
function schemaAt(schema: z.ZodType, path: Path): z.ZodType | undefined {
  let s: z.ZodType | undefined = unwrap(schema);
  for (const seg of path) {
    if (!s) return undefined;
    const d = defOf(s);
    const shapes = d.type === "union" ? (d.options ?? []).map((o) => defOf(unwrap(o)).shape) : [d.shape];
    const next: z.ZodType | undefined =
      typeof seg === "number" ? d.element : (shapes.find((sh) => sh && seg in sh)?.[seg] ?? d.valueType);
    s = next && unwrap(next);
  }
  return s;
}

/** `number` or `boolean` where the schema wants one at this key path (for `${ENV}` values); otherwise undefined. */
export function scalarTypeAt(schema: z.ZodType, path: Path): "number" | "boolean" | undefined {
  const s = schemaAt(schema, path);
  const type = s && defOf(s).type;
  return type === "number" || type === "int" ? "number" : type === "boolean" ? "boolean" : undefined;
}

/** The object forms a schema accepts: one for an object, several for a union of objects. */
function forms(s: z.ZodType | undefined): string[][] {
  if (!s) return [];
  const d = defOf(s);
  if (d.type === "object" && d.shape) return [Object.keys(d.shape)];
  if (d.type === "union") return (d.options ?? []).flatMap((o) => forms(unwrap(o)));
  return [];
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined), value);
}

/** Edit distance, for "did you mean": keys are short, so the quadratic table is nothing. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}

/** The known key a given one most likely meant: a near miss (a typo) or a known key it begins (a shortening). */
function nearest(k: string, known: string[]): string | undefined {
  const near = (k: string, n: string) => distance(k, n) <= Math.max(1, Math.floor(k.length / 3)) || (k.length >= 3 && n.startsWith(k));
  return known.filter((n) => near(k.toLowerCase(), n.toLowerCase())).sort((a, b) => distance(k, a) - distance(k, b))[0];
}

function unknownKeys(keys: string[], all: string[][]): string {
  const known = [...new Set(all.flat())];
  const hints = keys.map((k) => nearest(k, known));
  const named = keys.map((k, i) => `"${k}"${hints[i] ? ` (did you mean "${hints[i]}"?)` : ""}`).join(", ");
  return `unknown key${keys.length === 1 ? "" : "s"} ${named}; expected ${expected(all)}`;
}

function expected(all: string[][]): string {
  return all.length === 1 ? `keys: ${(all[0] as string[]).join(", ")}` : `one of: ${all.map((f) => f.join(", ")).join(" | ")}`;
}

/** One zod issue as the problems to report: path and message. */
export function explainIssue(issue: z.core.$ZodIssue, schema: z.ZodType, value: unknown): { path: Path; message: string }[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  if (issue.code === "unrecognized_keys") {
    const all = forms(schemaAt(schema, path));
    return [{ path, message: all.length > 0 ? unknownKeys(issue.keys, all) : issue.message }];
  }
  if (issue.code !== "invalid_union") return [{ path, message: issue.message }];
  const all = forms(schemaAt(schema, path));
  const here = valueAt(value, path);
  if (all.length === 0) return [{ path, message: issue.message }];
  if (here === null || typeof here !== "object" || Array.isArray(here)) return [{ path, message: `expected an object with ${expected(all)}` }];
  const given = Object.keys(here);
  const strangers = given.filter((k) => !all.some((f) => f.includes(k)));
  if (strangers.length > 0) return [{ path, message: unknownKeys(strangers, all) }];
  // Every key is known somewhere: the form that holds the most of them is the one meant; report what it lacks.
  const best = all.map((f, i) => ({ i, n: given.filter((k) => f.includes(k)).length })).sort((a, b) => b.n - a.n)[0];
  const branch = best && best.n > 0 ? issue.errors[best.i] : undefined;
  if (!best || !branch) return [{ path, message: `expected ${expected(all)}` }];
  const mixed = given.filter((k) => !(all[best.i] as string[]).includes(k));
  if (mixed.length > 0) return [{ path, message: `keys of different forms (${given.join(", ")}); expected ${expected(all)}` }];
  return branch.flatMap((inner) => explainIssue({ ...inner, path: [...path, ...inner.path] } as z.core.$ZodIssue, schema, value));
}

/**
 * Every issue explained. A key missing only because it was misspelt (`decison:`) is reported once, as the typo: the
 * "expected one of …" about the missing `decision` would only repeat it.
 */
export function explainIssues(issues: readonly z.core.$ZodIssue[], schema: z.ZodType, value: unknown): { path: Path; message: string }[] {
  const meant = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const known = [...new Set(forms(schemaAt(schema, path)).flat())];
    for (const k of issue.keys) {
      const hint = nearest(k, known);
      if (hint !== undefined && valueAt(value, [...path, hint]) === undefined) meant.add(JSON.stringify([...path, hint]));
    }
  }
  return issues
    .filter((i) => i.code === "unrecognized_keys" || !meant.has(JSON.stringify(i.path.filter((p) => typeof p !== "symbol"))))
    .flatMap((i) => explainIssue(i, schema, value));
}
