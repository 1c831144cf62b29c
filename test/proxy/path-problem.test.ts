import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pathProblem } from "../../src/proxy/server.js";

/** The checks one by one, as they read in the docs: the fast path must refuse exactly what these refuse. */
function byTheRules(path: string): boolean {
  if (!path.startsWith("/")) return true;
  if (/%(2e|2f|5c)/i.test(path)) return true;
  if (path.includes("\\")) return true;
  if (path.includes("//")) return true;
  return path.split("/").some((s) => s === "." || s === "..");
}

describe("pathProblem", () => {
  it("refuses exactly the paths with an escape, a backslash, an empty segment or a dot segment", () => {
    const segment = fc.constantFrom("mcp", "a", ".", "..", "...", ".a", "a.", "..a", "a..", "%2e", "%2E%2e", "%2f", "%5C", "%25", "\\", "", "x.y", "well-known");
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), (segments, leading) => {
        const path = (leading ? "/" : "") + segments.join("/");
        expect(pathProblem(path) !== null).toBe(byTheRules(path));
      }),
      { numRuns: 2000 },
    );
    for (const p of ["/mcp/everything", "/.well-known/oauth-protected-resource/mcp", "/a/..b/c.", "/"]) expect(pathProblem(p)).toBeNull();
    for (const p of ["/a/../b", "/a/./b", "/a/..", "/a//b", "/a\\b", "/%2E%2E/x", "mcp"]) expect(pathProblem(p)).not.toBeNull();
  });
});
