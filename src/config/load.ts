import { existsSync, readFileSync } from "node:fs";
import { PACK_NAME } from "../guardian/rules/load.js";
import { dirname, isAbsolute, resolve } from "node:path";
import { explainIssues, scalarTypeAt } from "../schema-issues.js";
import { configSchema, type Config } from "./schema.js";
import { formatPath, parseYaml, type FileProblem } from "../yaml.js";

/**
 * Reads a YAML or JSON config, interpolates `${ENV}` from `env`, validates it with the zod schema, and reports every
 * problem at once with file, line, column and key path. Relative paths in it are made absolute against the config
 * file's folder. The config returned is frozen: read once, never changed.
 */
export function loadConfig(
  file: string,
  env: Record<string, string | undefined>,
  read: (f: string) => string = (f) => readFileSync(f, "utf8"),
  overrides: ConfigOverrides = {},
): { config?: Readonly<Config>; problems: FileProblem[]; unreadable?: boolean } {
  let text: string;
  try {
    text = read(file);
  } catch (e) {
    return { problems: [{ file, line: 0, column: 0, path: "", message: `cannot read ${file}: ${unreadable(e)}` }], unreadable: true };
  }
  const yaml = parseYaml(file, text, env, (path) => scalarTypeAt(configSchema, path));
  const problems = [...yaml.problems];
  if (yaml.value === undefined && problems.length > 0) return { problems };
  const result = configSchema.safeParse(withOverrides(yaml.value ?? {}, overrides));
  if (!result.success) {
    // A value already reported (an environment variable that is not a number) is not reported again by the schema.
    const reported = new Set(problems.map((p) => `${p.line}:${p.column}`));
    for (const { path, message } of explainIssues(result.error.issues, configSchema, yaml.value)) {
      const at = yaml.locate(path);
      if (!reported.has(`${at.line}:${at.column}`)) problems.push({ file, ...at, path: formatPath(path), message });
    }
  }
  if (problems.length > 0 || !result.success) return { problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
  return { config: deepFreeze(resolvePaths(result.data, dirname(resolve(file)))), problems: [] };
}

/** What the command line sets over the file: `serve --listen HOST:PORT` (so replicas on one host share a config). */
export interface ConfigOverrides {
  listen?: { host: string; port: number };
}

/** The overrides over the file's values, before validation: a refusal (a public host without keys) still applies. */
function withOverrides(value: unknown, o: ConfigOverrides): unknown {
  if (!o.listen || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const listen = (value as { listen?: unknown }).listen;
  return { ...value, listen: { ...(listen && typeof listen === "object" ? listen : {}), ...o.listen } };
}

const ERRNO: Record<string, string> = { ENOENT: "no such file", EACCES: "permission denied", EISDIR: "it is a directory", ENOTDIR: "a parent is not a directory" };

/** `no such file`: why a config cannot be read, in words. */
function unreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code ? (ERRNO[code] ?? code) : (e as Error).message;
}

/**
 * A path in a config means the same wherever guardwire is started from: relative to the config file. A stdio route's
 * server runs in the config's folder unless its `cwd` says otherwise, so its relative arguments resolve the same way.
 */
function resolvePaths(c: Config, base: string): Config {
  const at = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  return {
    ...c,
    // A bare pack name ("balanced") stays a pack name unless a file of that name sits beside the config.
    rules: c.rules === undefined ? undefined : mapRules(c.rules, (p) => (PACK_NAME.test(p) && !existsSync(at(p)) ? p : at(p))),
    log: c.log === "-" ? c.log : at(c.log),
    routes: c.routes.map((r) => (r.mcp && "command" in r.mcp ? { ...r, mcp: { ...r.mcp, cwd: at(r.mcp.cwd ?? ".") } } : r)),
  };
}

function mapRules(rules: string | string[], f: (p: string) => string): string | string[] {
  return Array.isArray(rules) ? rules.map(f) : f(rules);
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}
