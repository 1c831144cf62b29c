import { createRequire } from "node:module";
import type { Document, LineCounter } from "yaml";

/*
 * The YAML library is loaded when a file is first parsed, not when this module is: a command that reads no YAML (wrap
 * with the shipped rules, whose parse is built in: guardian/rules/load.ts) does not pay for it.
 */
let lib: typeof import("yaml") | undefined;
const yaml = (): typeof import("yaml") => (lib ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/** A problem in a YAML (or JSON) file, located for a human. */
export interface FileProblem {
  file: string;
  line: number;
  column: number;
  path: string;
  message: string;
}

export interface ParsedYaml {
  value: unknown;
  problems: FileProblem[];
  /** Line and column of the node at a key path (or of its nearest existing parent). */
  locate(path: (string | number)[]): { line: number; column: number };
}

/** The type a key path's value must have, where it is not a string: `${ENV}` there becomes that type. */
export type TypeAt = (path: (string | number)[]) => "number" | "boolean" | undefined;

/**
 * Parses YAML keeping positions, so every later validation error can name file, line, column and key path.
 * With `env`, `${NAME}` in string values is replaced from it (for secrets); an unset variable is a problem. A value
 * that is only `${NAME}` where `typeAt` says a number or a boolean is read as one (`port: ${GW_PORT}`).
 * A syntax error is reported once, where it starts: the parser's follow-on errors only repeat it.
 */
export function parseYaml(file: string, text: string, env?: Record<string, string | undefined>, typeAt?: TypeAt): ParsedYaml {
  const { LineCounter, isScalar, parseDocument, visit } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = locator(doc, lineCounter);
  const first = doc.errors[0];
  if (first) {
    const pos = lineCounter.linePos(first.pos[0]);
    // `{ port: ${GW_PORT} }`: in a flow map or list, `{` opens a map, so a variable there must be quoted.
    const near = text.slice(Math.max(0, first.pos[0] - 2), first.pos[0] + 2);
    const hint = env && near.includes("${") ? ' (inside { } or [ ], quote a variable: "${NAME}")' : "";
    return { value: undefined, problems: [{ file, line: pos.line, column: pos.col, path: "", message: (first.message.split("\n")[0] ?? "YAML error") + hint }], locate };
  }
  const problems: FileProblem[] = [];
  if (env) {
    visit(doc, {
      Scalar(_key, node, ancestors) {
        if (!isScalar(node) || typeof node.value !== "string" || !node.value.includes("${")) return;
        const at = () => lineCounter.linePos(node.range?.[0] ?? 0);
        const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(node.value);
        const path = whole && typeAt ? keyPath(ancestors, node) : null;
        const type = path ? typeAt?.(path) : undefined;
        if (whole && type) {
          const name = whole[1] as string;
          const v = env[name];
          const typed = v === undefined ? undefined : type === "number" ? asNumber(v) : asBoolean(v);
          if (v === undefined) problems.push({ file, ...lc(at()), path: "", message: `environment variable ${name} is not set (used as ${whole[0]})` });
          else if (typed === undefined) problems.push({ file, ...lc(at()), path: "", message: `environment variable ${name} is ${JSON.stringify(v)}, not ${type === "number" ? "a number" : "true or false"} (used as ${whole[0]})` });
          else node.value = typed;
          return;
        }
        node.value = node.value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
          const v = env[name];
          if (v === undefined) {
            problems.push({ file, ...lc(at()), path: "", message: `environment variable ${name} is not set (used as ${whole})` });
            return whole;
          }
          return v;
        });
      },
    });
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), problems, locate };
}

const lc = (pos: { line: number; col: number }) => ({ line: pos.line, column: pos.col });

function asNumber(v: string): number | undefined {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
}

function asBoolean(v: string): boolean | undefined {
  const t = v.trim().toLowerCase();
  return t === "true" ? true : t === "false" ? false : undefined;
}

/** The key path of a value node from its ancestors (a map's key itself has none: null). */
function keyPath(ancestors: readonly unknown[], node: unknown): (string | number)[] | null {
  const { isPair, isScalar, isSeq } = yaml();
  const chain = [...ancestors, node];
  const path: (string | number)[] = [];
  for (let i = 0; i < chain.length - 1; i++) {
    const a = chain[i];
    const child = chain[i + 1];
    if (isPair(a)) {
      if (child === a.key) return null;
      path.push(isScalar(a.key) ? String(a.key.value) : String(a.key));
    } else if (isSeq(a)) path.push(a.items.indexOf(child as never));
  }
  return path;
}

function locator(doc: Document, lc: LineCounter) {
  const { isNode } = yaml();
  return (path: (string | number)[]): { line: number; column: number } => {
    // Walk up the path until a node exists (a missing key is reported where its parent is).
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) {
        const pos = lc.linePos(node.range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return { line: 1, column: 1 };
  };
}

export function formatPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

export function formatFileProblem(p: FileProblem): string {
  // Line 0: about the file (or folder) as a whole, so no position.
  if (p.line === 0) return `${p.file}: ${p.message}`;
  return `${p.file}:${p.line}:${p.column}: ${p.path ? p.path + ": " : ""}${p.message}`;
}
