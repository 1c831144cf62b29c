import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { keyWords, rootCredential } from "../../src/guardian/detectors/exfil-root-keys.js";
import { cpuMs } from "../support/cpu.js";

/* Nineteenth round (issue 24, "exf19"): a password, or an account's own key, under a query key that qualifies or
 * translates the word. The corpus cases are in test/fixtures/corpus/exf19.test.yaml; docs/detection.md, "Nineteenth
 * round: exfiltration by an account's own credential (exf19)". */

describe("an account's own credential under a qualified or translated key", () => {
  it("splits keys into words", () => {
    expect(keyWords("adminHaslo")).toEqual(["admin", "haslo"]);
    expect(keyWords("smtp.secret")).toEqual(["smtp", "secret"]);
    expect(keyWords("mot_de_passe")).toEqual(["mot", "de", "passe"]);
  });
  it("finds passwords and account keys in any language", () => {
    expect(rootCredential("db_pass", "Kl4ss!Buch2026")).toBe("password");
    expect(rootCredential("senha", "Clinica@2026x")).toBe("password");
    expect(rootCredential("contraseña", "Hacienda_77x")).toBe("password");
    expect(rootCredential("mot_de_passe", "Bibli0thèque!")).toBe("password");
    expect(rootCredential("geraetPasswort", "Fritz+2026box")).toBe("password");
    expect(rootCredential("masterKey", "ZmFrZU1hc3RlcktleUZvclRlc3RpbmdPbmx5MTIz")).toBe("an account key");
    expect(rootCredential("signing_key", "q9Zt4LmX2pVw7Rk3Nb8Hc1Df6Gy0Js5A")).toBe("an account key");
  });
  it("passes flags, tickets and keys of other things", () => {
    expect(rootCredential("reset_password", "1")).toBeNull();
    expect(rootCredential("show_password", "false")).toBeNull();
    expect(rootCredential("boarding_pass", "LH4471ABC")).toBeNull();
    expect(rootCredential("season_pass", "SP2026-88421")).toBeNull();
    expect(rootCredential("cacheKey", "home-v2-2026-11")).toBeNull();
    expect(rootCredential("idempotencyKey", "3f2c9a1e-7b4d-4c8e-9f1a-2b3c4d5e6f70")).toBeNull();
    expect(rootCredential("bypass", "Abc123!x")).toBeNull();
    expect(rootCredential("haslo_min", "12")).toBeNull();
    expect(rootCredential("api_secret", "ttq8eKF1HgE934wDD8McgO")).toBeNull();
  });
});

describe("exf19: corpus and cost", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/exf19.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
  });
  it("stays fast on long adversarial keys and values", () => {
    const inputs = ["aA1!".repeat(200), "a".repeat(100_000), "Pass".repeat(30_000), "_".repeat(60) + "x", "aB".repeat(5000)];
    for (const v of inputs) {
      const t = cpuMs();
      for (let i = 0; i < 200; i++) {
        rootCredential("admin_password", v);
        rootCredential(v, "Abc123!x");
        rootCredential("bank_pass", v);
        rootCredential("accountKey", v);
      }
      expect(cpuMs() - t, v.slice(0, 20)).toBeLessThan(1500);
    }
  });
});
