import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { packageFile } from "../../package-files.js";
import { explainIssues } from "../../schema-issues.js";
import { formatFileProblem, formatPath, parseYaml, type FileProblem } from "../../yaml.js";
import { compileRuleSet, type CompiledRuleSet, type RuleLayer } from "./compile.js";
import { ruleFileSchema, ruleSchema, type Rule } from "./schema.js";

/** One problem in a rule file, located for a human: file, line, column and key path. */
export type RuleProblem = FileProblem;

export interface RuleSource {
  file: string;
  text: string;
  /** The directory it was found in, when a directory was named: the files of one directory must agree on `default`. */
  dir?: string;
}

export interface LoadedRules {
  ruleSet?: CompiledRuleSet;
  problems: RuleProblem[];
  /** Every rule file read, extended ones included, in load order: what hot reload watches. */
  files: string[];
}

/** The shipped packs (`rules/` of the package), from src/ and dist/ alike; `extends: balanced` names one of them. */
export const PACKS_DIR = packageFile("rules");
/** The shipped packs already parsed and validated by the build (scripts/build-packs.mjs): `dist/packs/<name>.json`. */
export const PACK_PARSES_DIR = packageFile("dist", "packs");

/** A shipped pack is named by a bare word (`balanced`); anything else is a path. */
export const PACK_NAME = /^[a-z0-9][a-z0-9-]*$/;
const RULE_FILE = /\.(ya?ml|json)$/;
const TEST_FILE = /\.test\.(ya?ml|json)$/;

type Mode = "enforce" | "audit";
type Default = { default: "allow" | "deny"; mode: Mode };
type Locate = (path: (string | number)[]) => { line: number; column: number };

/**
 * Rule files in a directory (sorted, so load order is stable), the single file named, or a shipped pack by name
 * (`balanced`) when no such file exists. Test files are skipped.
 */
export function readRuleSources(path: string): RuleSource[] {
  const pack = join(PACKS_DIR, `${path}.yaml`);
  if (!existsSync(path) && PACK_NAME.test(path) && existsSync(pack)) path = pack;
  if (!statSync(path).isDirectory()) return [{ file: path, text: readFileSync(path, "utf8") }];
  return readdirSync(path)
    .filter((f) => RULE_FILE.test(f) && !TEST_FILE.test(f))
    .sort()
    .map((f) => ({ file: join(path, f), text: readFileSync(join(path, f), "utf8"), dir: path }));
}

/** The shipped pack names, for error messages. */
function packNames(): string {
  try {
    return readdirSync(PACKS_DIR).filter((f) => f.endsWith(".yaml") && !TEST_FILE.test(f)).map((f) => basename(f, ".yaml")).join(", ");
  } catch {
    return "none found";
  }
}

interface ParsedFile {
  file: string;
  name: string;
  extends: string[];
  disable: string[];
  mode?: Mode;
  default?: "allow" | "deny";
  rules: Rule[];
  positions?: number[];
  locate: Locate;
}

/** What the build keeps of a shipped pack: its text's digest and its file parsed and validated. */
export interface PackParse {
  sha256: string;
  parsed: Omit<ParsedFile, "file" | "locate" | "positions">;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A shipped pack's text parsed and validated as every rule file is, for the build to keep; null if it has problems. */
export function packParse(file: string, text: string): PackParse | null {
  const problems: RuleProblem[] = [];
  const p = parseText(file, text, problems);
  if (!p || problems.length > 0 || p.positions) return null;
  const { file: _file, locate: _locate, positions: _positions, ...parsed } = p;
  return { sha256: sha256(text), parsed };
}

/**
 * A shipped pack as the build parsed it, when its text is the one built: the YAML parser and the schema stay unloaded
 * for the default rules (a third of `wrap`'s start). Lines and columns, needed only for a problem, are found by
 * parsing the text when asked.
 */
function builtParse(file: string, text: string): ParsedFile | null {
  if (resolve(dirname(file)) !== PACKS_DIR) return null;
  let kept: PackParse;
  try {
    kept = JSON.parse(readFileSync(join(PACK_PARSES_DIR, `${basename(file).replace(/\.ya?ml$/, "")}.json`), "utf8")) as PackParse;
  } catch {
    return null; // not built (running from src/): parsed as any file
  }
  if (kept.sha256 !== sha256(text)) return null;
  let locate: Locate | undefined;
  return { file, ...kept.parsed, locate: (path) => (locate ??= parseYaml(file, text).locate)(path) };
}

/** One file: a shipped pack as the build parsed it, anything else from its text. */
function parseFile(file: string, text: string, problems: RuleProblem[]): ParsedFile | null {
  return builtParse(file, text) ?? parseText(file, text, problems);
}

/** Parses and validates one file's text; rules that are valid on their own are kept even when the file is not, so their CEL and JSONPath problems show up too. */
function parseText(file: string, text: string, problems: RuleProblem[]): ParsedFile | null {
  const yaml = parseYaml(file, text);
  if (yaml.problems.length > 0) {
    problems.push(...yaml.problems);
    return null;
  }
  const raw: unknown = yaml.value;
  const result = ruleFileSchema.safeParse(raw);
  if (result.success) {
    const d = result.data;
    const ext = d.extends === undefined ? [] : [d.extends].flat();
    return { file, name: d.name, extends: ext, disable: d.disable ?? [], mode: d.mode, default: d.default, rules: d.rules, locate: yaml.locate };
  }
  // A typo in a key is named with the nearest known key, as in the serve config (`decison` → did you mean `decision`?).
  for (const { path, message } of explainIssues(result.error.issues, ruleFileSchema, raw)) problems.push({ file, ...yaml.locate(path), path: formatPath(path), message });
  const rawRules = (raw as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rawRules)) return null;
  const rules: Rule[] = [];
  const positions: number[] = [];
  rawRules.forEach((r, i) => {
    const ok = ruleSchema.safeParse(r);
    if (ok.success) {
      rules.push(ok.data);
      positions.push(i);
    }
  });
  return { file, name: "invalid", extends: [], disable: [], rules, positions, locate: yaml.locate };
}

/** deny over allow, for files side by side; an enforced deny over an audited one. */
function mostRestrictive(settings: (Default | undefined)[]): Default | undefined {
  const denies = settings.filter((s) => s?.default === "deny");
  if (denies.length > 0) return { default: "deny", mode: denies.some((s) => s?.mode === "enforce") ? "enforce" : "audit" };
  return settings.some((s) => s !== undefined) ? { default: "allow", mode: "enforce" } : undefined;
}

/**
 * Parse, validate and compile rule sources as a whole, each after the files it extends (depth first, each file once,
 * at its first place); every problem is reported, and no rule set is returned if any. How `default`, `mode`,
 * `disable` and several sources combine is in docs/rules.md ("Layering"). Extended files are read with `read`.
 */
export function loadRules(sources: RuleSource[], read: (file: string) => string = (f) => readFileSync(f, "utf8")): LoadedRules {
  const problems: RuleProblem[] = [];
  const layers: (RuleLayer & { name: string; text: string })[] = [];
  const locators = new Map<string, Locate>();
  const settled = new Map<string, Default | undefined>();
  const stack: string[] = [];
  const files: string[] = [];

  const visit = (file: string, text: string, imposed: Mode | undefined): Default | undefined => {
    const key = resolve(file);
    if (settled.has(key)) return settled.get(key);
    settled.set(key, undefined);
    files.push(file);
    const p = parseFile(file, text, problems);
    if (!p) return undefined;
    locators.set(file, p.locate);
    const mode = imposed ?? p.mode;
    stack.push(key);
    const bases = p.extends.map((ref, i) => {
      const at = () => ({ file, ...p.locate(["extends", i]), path: formatPath(p.extends.length > 1 ? ["extends", i] : ["extends"]) });
      const target = PACK_NAME.test(ref) ? join(PACKS_DIR, `${ref}.yaml`) : join(dirname(file), ref);
      const cycle = stack.indexOf(resolve(target));
      if (cycle >= 0) {
        const names = [...stack.slice(cycle), resolve(target)].map((f) => basename(f));
        problems.push({ ...at(), message: `extends cycle: ${names.join(" → ")}` });
        return undefined;
      }
      let baseText: string;
      try {
        baseText = read(target);
      } catch (e) {
        files.push(target);
        const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        const why = PACK_NAME.test(ref) ? `no shipped pack "${ref}" (shipped: ${packNames()}; a file is written as a path, ./${ref}.yaml)` : `cannot read ${target}: ${code}`;
        problems.push({ ...at(), message: `extends: ${why}` });
        return undefined;
      }
      return visit(target, baseText, mode);
    });
    stack.pop();
    layers.push({ file, name: p.name, text, rules: p.rules, positions: p.positions, mode: mode ?? "enforce", disable: p.disable });
    const own: Default | undefined = p.default === undefined ? mostRestrictive(bases) : { default: p.default, mode: mode ?? "enforce" };
    settled.set(key, own);
    return own;
  };

  const roots = sources.map((src) => ({ src, setting: visit(src.file, src.text, undefined) ?? { default: "allow" as const, mode: "enforce" as const } }));
  problems.push(...directoryConflicts(roots));
  const hash = createHash("sha256");
  // The text of every file in load order, not where it lies: the same rules have the same hash on every machine.
  for (const l of layers) hash.update(l.text).update("\0");
  const settings = mostRestrictive(roots.map((r) => r.setting)) ?? { default: "allow", mode: "enforce" };
  const compiled = compileRuleSet(layers, {
    name: layers.map((l) => l.name).join("+") || "empty",
    hash: hash.digest("hex").slice(0, 16),
    default: settings.default,
    defaultMode: settings.mode,
  });
  for (const c of compiled.problems) {
    const where = locators.get(c.file)?.(c.path) ?? { line: 1, column: 1 };
    problems.push({ file: c.file, ...where, path: formatPath(c.path), message: c.message });
  }
  if (problems.length > 0) {
    // Every problem, in file and line order.
    problems.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : 0));
    return { problems, files };
  }
  return { ruleSet: compiled.ruleSet, problems: [], files };
}

/**
 * The files of one directory are one rule set; if they disagree on `default`, merging them would turn every allow
 * pack into an allowlist (the shipped `rules/` holds balanced, strict and audit-only). Refused, with the way out.
 */
function directoryConflicts(roots: { src: RuleSource; setting: Default }[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const dir of new Set(roots.map((r) => r.src.dir).filter((d) => d !== undefined))) {
    const inDir = roots.filter((r) => r.src.dir === dir);
    const deny = inDir.filter((r) => r.setting.default === "deny");
    const allow = inDir.filter((r) => r.setting.default === "allow");
    if (deny.length === 0 || allow.length === 0) continue;
    const names = (rs: typeof inDir) => rs.map((r) => basename(r.src.file)).join(", ");
    problems.push({
      file: dir,
      line: 0,
      column: 0,
      path: "",
      message:
        `the files in this directory disagree on default (deny: ${names(deny)}; allow: ${names(allow)}), ` +
        `and a directory is loaded as one rule set: name one of its files instead, or layer packs with extends: in a file of your own`,
    });
  }
  return problems;
}

export { formatPath };

export const formatProblem = formatFileProblem;
