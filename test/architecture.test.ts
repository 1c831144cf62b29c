import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;
const all = files(SRC).map((path) => {
  const text = readFileSync(path, "utf8");
  const imports = [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
  return { path: relative(SRC, path), text, imports };
});
const layer = (p: string) => p.split("/")[0] ?? "";
const resolvesTo = (from: string, spec: string) => (spec.startsWith(".") ? join(from, "..", spec) : spec);

/**
 * The floors, in the order the data flows (docs/architecture.md#floors). A file may import its own floor or a lower
 * one, never a higher one. `base` is the files directly in src/ (errors, the vocabulary, defaults, fs-*, agent keys,
 * YAML with positions); `index.ts`, the package's entry, sits with cli/ on top.
 */
const FLOORS: Record<string, number> = {
  base: 0,
  protocol: 1,
  transports: 2,
  "decision-log": 2,
  guardian: 3,
  actions: 4,
  store: 4,
  proxy: 5,
  alerts: 6,
  approvals: 6,
  control: 6,
  observe: 6,
  admin: 7,
  install: 7,
  scan: 7,
  config: 8,
  cli: 9,
  entry: 9,
};

/**
 * Imports from the pipeline up into the features it calls by hand today. Temporary: each becomes a stage the pipeline
 * composes (issue 25, item 2), and its line goes. Nothing may be added here.
 */
const TEMPORARY_EXCEPTIONS: readonly (readonly [from: string, to: string])[] = [];

/**
 * Inside guardian/, the rule compiler (rules/) uses three pieces of the rule language that sit one folder up (the
 * RE2 wrapper, alert severities, ask prompts) while guardian/ uses the compiler: a loop between the two folders. The
 * pieces belong in rules/; they move once the evaluator's split (issue 25, item 6) has landed, and these lines go.
 */
const SUBFOLDER_EXCEPTIONS: readonly (readonly [from: string, to: string])[] = [
  ["guardian/rules/compile.ts", "guardian/alert.ts"],
  ["guardian/rules/compile.ts", "guardian/ask.ts"],
  ["guardian/rules/compile.ts", "guardian/regex.ts"],
  ["guardian/rules/schema.ts", "guardian/alert.ts"],
  ["guardian/rules/specialise.ts", "guardian/regex.ts"],
];

/** The part a file belongs to: its top folder under src/, `base` for a file directly in src/, `entry` for index.ts. */
const part = (p: string) => (p === "index.ts" ? "entry" : p.includes("/") ? layer(p) : "base");

/** Every import of a file in src/ of another file in src/, as the two parts and the two paths. */
const edges = all.flatMap((f) =>
  f.imports
    .filter((spec) => spec.startsWith("."))
    .map((spec) => {
      const to = resolvesTo(f.path, spec).replace(/\.js$/, ".ts");
      return { from: f.path, to, a: part(f.path), b: part(to) };
    })
    .filter((e) => e.a !== e.b),
);
const excepted = (e: { from: string; to: string }) => TEMPORARY_EXCEPTIONS.some(([from, to]) => e.from === from && e.to === to);

/** A loop in a graph of parts, as `a -> b -> a`; none is []. */
function loopsOf(links: { a: string; b: string }[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const e of links) next.set(e.a, (next.get(e.a) ?? new Set()).add(e.b));
  const loops: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (p: string, path: string[]): void => {
    if (state.get(p) === "done") return;
    if (state.get(p) === "open") return void loops.push([...path.slice(path.indexOf(p)), p].join(" -> "));
    state.set(p, "open");
    for (const q of next.get(p) ?? []) visit(q, [...path, p]);
    state.set(p, "done");
  };
  for (const p of next.keys()) visit(p, []);
  return loops;
}

describe("architecture: the layers stay honest", () => {
  it("protocol/ and guardian/ import no transport, proxy or cli code", () => {
    for (const f of all.filter((f) => ["protocol", "guardian"].includes(layer(f.path)))) {
      for (const spec of f.imports) {
        const target = resolvesTo(f.path, spec);
        expect(["transports", "proxy", "cli", "actions"], `${f.path} imports ${spec}`).not.toContain(layer(target));
      }
    }
  });

  it("protocol/ is pure: no node:* imports", () => {
    for (const f of all.filter((f) => layer(f.path) === "protocol")) {
      expect(f.imports.filter((s) => s.startsWith("node:")), f.path).toEqual([]);
    }
  });

  it("transports never import the guardian", () => {
    for (const f of all.filter((f) => layer(f.path) === "transports")) {
      for (const spec of f.imports) expect(layer(resolvesTo(f.path, spec)), `${f.path} imports ${spec}`).not.toBe("guardian");
    }
  });

  it("the evaluator is pure: no node:* imports and no I/O in guardian/evaluate and its helpers", () => {
    for (const name of [
      "guardian/evaluate.ts",
      "guardian/evaluate-types.ts",
      "guardian/evaluate-facts.ts",
      "guardian/evaluate-combine.ts",
      "guardian/evaluate-embedded.ts",
      "guardian/edits.ts",
      "guardian/detectors/scan.ts",
      "guardian/detectors/patterns.ts",
    ]) {
      const f = all.find((x) => x.path === name);
      expect(f, name).toBeDefined();
      expect(f?.imports.filter((s) => s.startsWith("node:"))).toEqual([]);
    }
  });

  it("only cli/ touches process", () => {
    for (const f of all.filter((f) => layer(f.path) !== "cli")) {
      const code = f.text.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
      expect(code, f.path).not.toMatch(/\bprocess\.(?!hrtime)/);
      expect(f.imports, f.path).not.toContain("node:process");
    }
  });

  it("src/index.ts exports by name (no export *)", () => {
    const index = all.find((f) => f.path === "index.ts");
    expect(index).toBeDefined();
    expect(index?.text).not.toMatch(/export\s*\*/);
  });

  it("every folder in src/ has a floor", () => {
    const parts = new Set(all.map((f) => part(f.path)));
    expect([...parts].filter((p) => FLOORS[p] === undefined), "add the folder to FLOORS (and docs/architecture.md#floors)").toEqual([]);
  });

  it("no file imports a higher floor (but for the temporary exceptions)", () => {
    const up = edges.filter((e) => (FLOORS[e.b] ?? Infinity) > (FLOORS[e.a] ?? -Infinity) && !excepted(e));
    expect(up.map((e) => `${e.from} (${e.a}, floor ${FLOORS[e.a]}) imports ${e.to} (${e.b}, floor ${FLOORS[e.b]})`)).toEqual([]);
  });

  it("each temporary exception is still needed (remove the ones that are not)", () => {
    const stale = TEMPORARY_EXCEPTIONS.filter(([from, to]) => !edges.some((e) => e.from === from && e.to === to));
    expect(stale).toEqual([]);
  });

  it("no loop between folders (but for the temporary exceptions)", () => {
    expect(loopsOf(edges.filter((e) => !excepted(e)))).toEqual([]);
  });

  it("no loop between subfolders either (but for the listed ones)", () => {
    const folder = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : part(p));
    const listed = (e: { from: string; to: string }) => excepted(e) || SUBFOLDER_EXCEPTIONS.some(([from, to]) => e.from === from && e.to === to);
    const links = all.flatMap((f) =>
      f.imports.filter((spec) => spec.startsWith(".")).map((spec) => ({ from: f.path, to: resolvesTo(f.path, spec).replace(/\.js$/, ".ts") })),
    );
    const between = links.map((e) => ({ ...e, a: folder(e.from), b: folder(e.to) })).filter((e) => e.a !== e.b && !listed(e));
    expect(loopsOf(between)).toEqual([]);
    expect(SUBFOLDER_EXCEPTIONS.filter(([from, to]) => !links.some((e) => e.from === from && e.to === to)), "remove the lines no longer needed").toEqual([]);
  });
});
