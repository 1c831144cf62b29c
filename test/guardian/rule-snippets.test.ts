import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatProblem, loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { ROOT } from "../helpers.js";

/** Every rule the project ships or shows must load cleanly under the load-time CEL check (issue 17, item 6). */

const problemsOf = (sources: { file: string; text: string }[]) => loadRules(sources).problems.map(formatProblem);
const ruleFiles = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f) && !/\.test\.ya?ml$/.test(f))
    .map((f) => join(dir, f));

describe("shipped rule files", () => {
  const files = [...ruleFiles("rules"), ...ruleFiles("examples"), ...ruleFiles("test/fixtures/rules")];

  it("finds the packs and examples", () => {
    expect(files).toEqual(expect.arrayContaining(["rules/balanced.yaml", "rules/strict.yaml", "rules/audit-only.yaml", "examples/rules-example.yaml"]));
  });

  it.each(files)("%s loads on its own without a problem", (file) => {
    expect(problemsOf(readRuleSources(join(ROOT, file)))).toEqual([]);
  });

  it.each(readdirSync(join(ROOT, "examples", "serve")).filter((f) => f.endsWith(".yaml")))("examples/serve/%s: its rules load (paths relative to the config file)", (f) => {
    const config = parse(readFileSync(join(ROOT, "examples", "serve", f), "utf8")) as { rules?: string | string[] };
    const named = config.rules === undefined ? [] : [config.rules].flat();
    const sources = named.flatMap((r) => readRuleSources(r.startsWith(".") ? join(ROOT, "examples", "serve", r) : r));
    expect(problemsOf(sources)).toEqual([]);
  });
});

/** The ```yaml blocks of a Markdown file that hold rules: whole rule files, or fragments of a `rules:` list. */
function ruleBlocks(md: string): { file: string; text: string }[] {
  const text = readFileSync(join(ROOT, md), "utf8");
  const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  return blocks.flatMap((block, i) => {
    const file = join(ROOT, `${md}#${i}`);
    if (/^(routes|cases|listen):/m.test(block) || !/-\s+\{?\s*id:/.test(block)) return [];
    return [{ file, text: /^name:/m.test(block) ? block : `name: snippet\nrules:\n${block}` }];
  });
}

describe("rules shown in README.md and docs/", () => {
  const docs = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const blocks = docs.flatMap((md) => ruleBlocks(md).map((b) => [b.file.slice(ROOT.length + 1), b] as const));

  it("finds the snippets", () => {
    // README: the first rules, detectors, layering; docs/rules.md: the file reference, flow rules, layering; docs/a2a.md.
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  it.each(blocks)("%s loads without a problem", (_name, block) => {
    expect(problemsOf([block])).toEqual([]);
  });

  it("every inline CEL example in docs/rules.md compiles", () => {
    const doc = readFileSync(join(ROOT, "docs", "rules.md"), "utf8");
    const paragraph = /^Examples: ([\s\S]*?)\n\n/m.exec(doc)?.[1] ?? "";
    const examples = [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const when of examples) {
      const text = `name: inline\nrules:\n  - { id: r, when: ${JSON.stringify(when)}, decision: deny }\n`;
      expect(problemsOf([{ file: "rules.md", text }]), when).toEqual([]);
    }
  });
});
