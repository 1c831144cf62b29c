import { readFileSync } from "node:fs";
import { configSchema, type Config } from "./schema.js";
import { formatPath, parseYaml, type FileProblem } from "./yaml.js";

/**
 * Reads a YAML or JSON config, interpolates `${ENV}` from `env`, validates it with the zod schema, and reports every
 * problem at once with file, line, column and key path. The config returned is frozen: read once, never changed.
 */
export function loadConfig(file: string, env: Record<string, string | undefined>, read: (f: string) => string = (f) => readFileSync(f, "utf8")): { config?: Readonly<Config>; problems: FileProblem[] } {
  let text: string;
  try {
    text = read(file);
  } catch (e) {
    return { problems: [{ file, line: 0, column: 0, path: "", message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }] };
  }
  const yaml = parseYaml(file, text, env);
  const problems = [...yaml.problems];
  if (yaml.value === undefined && problems.length > 0) return { problems };
  const result = configSchema.safeParse(yaml.value ?? {});
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
      problems.push({ file, ...yaml.locate(path), path: formatPath(path), message: issue.message });
    }
  }
  if (problems.length > 0 || !result.success) return { problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
  return { config: deepFreeze(result.data), problems: [] };
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}
