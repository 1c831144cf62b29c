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

  // A class's recall may not fall below what it is now: a pack change that loses one attack of a class fails here by
  // name, even while the overall figure stays above 97 %. Every class also keeps enough cases to mean something.
  const CLASSES: Record<string, { recall: number; attacks: number; lookalikes?: number }> = {
    sensitive_path: { recall: 1, attacks: 66, lookalikes: 18 },
    dangerous_command: { recall: 1, attacks: 120, lookalikes: 87 },
    secrets_out: { recall: 1, attacks: 22 },
    secrets_in: { recall: 1, attacks: 10 },
    prompt_injection: { recall: 1, attacks: 22 },
    tool_poisoning_and_rug_pull: { recall: 1, attacks: 5 },
    toxic_flow: { recall: 1, attacks: 2 },
    exfiltration_link: { recall: 1, attacks: 31, lookalikes: 30 },
    secret_assignment: { recall: 1, attacks: 27, lookalikes: 27 },
    exfiltration_url: { recall: 1, attacks: 24, lookalikes: 31 },
    pii_bulk: { recall: 1, attacks: 52, lookalikes: 49 },
    injection_structure: { recall: 1, attacks: 90, lookalikes: 101 },
    poisoning_elsewhere: { recall: 1, attacks: 59, lookalikes: 56 },
    sampling: { recall: 1, attacks: 70, lookalikes: 76 },
  };
  const caughtCase = (r: (typeof all)[number]) => r.mode === "enforce" && r.decision !== "allow";

  it("every attack has a class, and every class keeps its recall and its size", () => {
    expect(attacks.filter((r) => !r.class).map((r) => r.name)).toEqual([]);
    const figures = Object.fromEntries(
      Object.keys(CLASSES).map((c) => {
        const of = attacks.filter((r) => r.class === c);
        return [c, { recall: of.filter(caughtCase).length / of.length, attacks: of.length, missed: of.filter((r) => !caughtCase(r)).map((r) => r.name) }];
      }),
    );
    for (const [c, floor] of Object.entries(CLASSES)) {
      const f = figures[c] as { recall: number; attacks: number; missed: string[] };
      expect({ c, missed: f.missed }).toEqual({ c, missed: [] });
      expect(f.recall, c).toBeGreaterThanOrEqual(floor.recall);
      expect(f.attacks, c).toBeGreaterThanOrEqual(floor.attacks);
    }
    expect(Object.keys(figures).sort()).toEqual([...new Set(attacks.map((r) => r.class))].sort());
  });

  it("the look-alikes of each new class pass untouched (precision 1)", () => {
    for (const [c, floor] of Object.entries(CLASSES)) {
      if (!floor.lookalikes) continue;
      const of = benign.filter((r) => r.class === c);
      expect(of.length, c).toBeGreaterThanOrEqual(floor.lookalikes);
      expect(of.filter(caughtCase).map((r) => r.name)).toEqual([]);
    }
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
