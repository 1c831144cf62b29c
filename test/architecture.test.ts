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

const all = files(SRC).map((path) => {
  const text = readFileSync(path, "utf8");
  const imports = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1] as string);
  return { path: relative(SRC, path), text, imports };
});
const layer = (p: string) => p.split("/")[0] ?? "";
const resolvesTo = (from: string, spec: string) => (spec.startsWith(".") ? join(from, "..", spec) : spec);

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
});
