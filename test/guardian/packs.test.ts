import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";

describe("the shipped packs", () => {
  it("pass their own tests (guardwire test rules)", () => {
    const s = runTestFiles("rules");
    expect(s.files.map((f) => f.file).sort()).toEqual(["rules/audit-only.test.yaml", "rules/balanced.test.yaml", "rules/strict.test.yaml"]);
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${f.file}: ${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThan(15);
  });
});

describe("the default pack on the labelled corpus", () => {
  const s = runTestFiles("test/fixtures/corpus");
  const all = s.files.flatMap((f) => f.results);
  const attacks = all.filter((r) => r.label === "attack");
  const benign = all.filter((r) => r.label === "benign");

  it("has a corpus of real size", () => {
    expect(attacks.length).toBeGreaterThanOrEqual(60);
    expect(benign.length).toBeGreaterThanOrEqual(45);
  });

  it("catches at least 97 % of the attacks (denied or neutralized)", () => {
    const caught = attacks.filter((r) => r.mode === "enforce" && r.decision !== "allow");
    const missed = attacks.filter((r) => !caught.includes(r)).map((r) => r.name);
    expect(missed).toEqual([]);
    expect(caught.length / attacks.length).toBeGreaterThanOrEqual(0.97);
  });

  it("blocks or changes none of the benign developer traffic", () => {
    const fp = benign.filter((r) => r.mode === "enforce" && r.decision !== "allow").map((r) => r.name);
    expect(fp).toEqual([]);
  });

  it("every case passes exactly as labelled", () => {
    expect(all.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`)).toEqual([]);
  });

  it("leaves the tool lists of real servers (server-everything, server-filesystem) untouched", () => {
    const { ruleSet } = loadRules(readRuleSources("rules/balanced.yaml"));
    const lists = JSON.parse(readFileSync("test/fixtures/corpus/real-tool-lists.json", "utf8")) as Record<string, unknown[]>;
    for (const [server, tools] of Object.entries(lists)) {
      const g = new EmbeddedGuardian(ruleSet!);
      const msg = { jsonrpc: "2.0", id: 1, result: { tools } };
      const ctx = { direction: "inbound" as const, session: "s", server: { name: server }, request: { jsonrpc: "2.0", id: 1, method: "tools/list" } };
      for (let i = 0; i < 2; i++) {
        const req = buildAosRequest("protocols/MCP", msg, ctx);
        const v = readVerdict(req, g.call(req), msg);
        expect({ server, decision: v.decision, rules: v.rules }).toEqual({ server, decision: "allow", rules: [] });
      }
    }
  });
});
