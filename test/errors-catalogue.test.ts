import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_ERROR_CODES, LINK_ERROR_CODES } from "../src/admin/api-schema.js";
import * as defaults from "../src/defaults.js";
import { ADMIN_ERRORS, ErrorCode, LOCAL_ERRORS, WIRE_ERRORS } from "../src/errors.js";
import { Reason, REASONS } from "../src/reasons.js";

/*
 * docs/errors.md holds the catalogue as tables generated from src/errors.ts, src/reasons.ts and src/defaults.ts; this
 * test fails when they drift apart. To regenerate the tables: GUARDWIRE_WRITE_DOCS=1 npx vitest run test/errors-catalogue.test.ts
 */

const ROOT = join(import.meta.dirname, "..");
const DOC = join(ROOT, "docs", "errors.md");

const cell = (s: string) => s.replace(/\|/g, "\\|");
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");

/** The jsdoc line above each `export const NAME` in src/defaults.ts. */
function defaultsDocs(): Map<string, string> {
  const text = readFileSync(join(ROOT, "src", "defaults.ts"), "utf8");
  return new Map([...text.matchAll(/\/\*\* (.+?) \*\/\nexport const (\w+) =/g)].map((m) => [m[2] as string, m[1] as string]));
}

const sections: Record<string, () => string> = {
  "local-errors": () =>
    table(
      ["code", "exit", "meaning"],
      Object.entries(LOCAL_ERRORS).map(([code, e]) => [`\`${code}\``, String(e.exit), e.meaning]),
    ),
  "wire-errors": () =>
    table(
      ["JSON-RPC code", "name", "message", "HTTP", "meaning"],
      Object.entries(WIRE_ERRORS).map(([name, e]) => [`\`${e.code}\``, name, `\`${e.message}\``, e.http.length ? e.http.join(", ") : "—", e.meaning]),
    ),
  "admin-errors": () =>
    table(
      ["code", "HTTP", "meaning"],
      Object.entries(ADMIN_ERRORS).map(([code, e]) => [`\`${code}\``, String(e.status), e.meaning]),
    ),
  "reason-codes": () =>
    table(
      ["code", "line", "meaning"],
      Object.entries(REASONS).map(([code, r]) => [`\`${code}\``, r.line, r.meaning]),
    ),
  defaults: () => {
    const docs = defaultsDocs();
    return table(
      ["constant", "value", "what"],
      Object.entries(defaults).map(([name, value]) => [`\`${name}\``, typeof value === "number" ? String(value) : `\`${JSON.stringify(value)}\``, docs.get(name) ?? ""]),
    );
  },
};

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));

const marker = (name: string) => new RegExp(`(<!-- generated: ${name} -->)([\\s\\S]*?)(<!-- end: ${name} -->)`);

describe("the error catalogue (docs/errors.md)", () => {
  it("docs/errors.md shows every table as the code defines it", () => {
    let doc = readFileSync(DOC, "utf8");
    if (process.env.GUARDWIRE_WRITE_DOCS) {
      for (const [name, render] of Object.entries(sections)) doc = doc.replace(marker(name), (_m, a: string, _b, c: string) => `${a}\n${render()}\n${c}`);
      writeFileSync(DOC, doc);
    }
    for (const [name, render] of Object.entries(sections)) {
      const m = marker(name).exec(doc);
      expect(m, `docs/errors.md has no <!-- generated: ${name} --> section`).not.toBeNull();
      expect(m?.[2], `docs/errors.md, section ${name} (regenerate: GUARDWIRE_WRITE_DOCS=1 npx vitest run test/errors-catalogue.test.ts)`).toBe(`\n${render()}\n`);
    }
  });

  it("wire codes are unique, and guardwire's own sit in -32050..-32054", () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect([ErrorCode.DeniedByPolicy, ErrorCode.GuardianUnavailable, ErrorCode.UpstreamUnavailable, ErrorCode.UpstreamUnauthorized, ErrorCode.Cancelled]).toEqual([
      -32050, -32051, -32052, -32053, -32054,
    ]);
  });

  it("the admin API's schema names exactly the catalogue's admin codes", () => {
    expect(new Set([...API_ERROR_CODES, ...LINK_ERROR_CODES])).toEqual(new Set(Object.keys(ADMIN_ERRORS)));
  });

  it("Reason's constants are their own codes", () => {
    for (const [k, v] of Object.entries(Reason)) expect(v).toBe(k);
    expect(Object.keys(Reason)).toEqual(Object.keys(REASONS));
  });

  it("every code in the catalogue is still written somewhere in src/ (no stale entries)", () => {
    const text = walk(join(ROOT, "src"))
      .filter((f) => !/src\/(errors|reasons)\.ts$/.test(f))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const codes = [...Object.keys(REASONS), ...Object.keys(LOCAL_ERRORS), ...Object.keys(ADMIN_ERRORS)];
    expect(codes.filter((c) => !text.includes(`"${c}"`))).toEqual([]);
  });

  it("every UPPER_SNAKE code written in src/ is in the catalogue (or a name guardwire does not own)", () => {
    // Names of others: environment variables, Node's and undici's error codes.
    const foreign = /^(OTEL_|AWS_|GUARDWIRE_|UND_ERR_|HPE_|ERR_|EAI_)/;
    const known = new Set<string>([...Object.keys(REASONS), ...Object.keys(LOCAL_ERRORS), ...Object.keys(ADMIN_ERRORS)]);
    const missing = new Set<string>();
    for (const file of walk(join(ROOT, "src"))) {
      const code = readFileSync(file, "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
      for (const m of code.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"/g)) {
        const name = m[1] as string;
        if (!known.has(name) && !foreign.test(name)) missing.add(`${name} (${file.slice(ROOT.length + 1)})`);
      }
    }
    expect([...missing], "add the code to src/reasons.ts or src/errors.ts (and regenerate docs/errors.md)").toEqual([]);
  });
});
