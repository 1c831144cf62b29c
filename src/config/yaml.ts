import { LineCounter, isNode, isScalar, parseDocument, visit, type Document } from "yaml";

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

/**
 * Parses YAML keeping positions, so every later validation error can name file, line, column and key path.
 * With `env`, `${NAME}` in string values is replaced from it (for secrets); an unset variable is a problem.
 */
export function parseYaml(file: string, text: string, env?: Record<string, string | undefined>): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = locator(doc, lineCounter);
  const problems: FileProblem[] = doc.errors.map((err) => {
    const pos = lineCounter.linePos(err.pos[0]);
    return { file, line: pos.line, column: pos.col, path: "", message: err.message.split("\n")[0] ?? "YAML error" };
  });
  if (problems.length > 0) return { value: undefined, problems, locate };
  if (env) {
    visit(doc, {
      Scalar(_key, node) {
        if (!isScalar(node) || typeof node.value !== "string" || !node.value.includes("${")) return;
        node.value = node.value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
          const v = env[name];
          if (v === undefined) {
            const pos = lineCounter.linePos(node.range?.[0] ?? 0);
            problems.push({ file, line: pos.line, column: pos.col, path: "", message: `environment variable ${name} is not set (used as ${whole})` });
            return whole;
          }
          return v;
        });
      },
    });
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), problems, locate };
}

function locator(doc: Document, lc: LineCounter) {
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
  return `${p.file}:${p.line}:${p.column}: ${p.path ? p.path + ": " : ""}${p.message}`;
}
