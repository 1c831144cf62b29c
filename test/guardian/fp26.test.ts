import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { vendorDomain, vendorOf } from "../../src/guardian/detectors/secrets-vendor.js";
import { cpuMs } from "../support/cpu.js";

/* Twenty-sixth round (issue 24, "fp26"): a vendor's key in a header of a call to the vendor's own domain is used as
 * meant (secrets-vendor.ts, through audience.ts); a map of file names to contents holds text, not paths (sites.ts). The corpus cases are in test/fixtures/corpus/fp26.test.yaml;
 * docs/detection.md, "fp26". */

describe("a credential format's vendor and its domain", () => {
  it("reads the vendor from the finding code", () => {
    expect(vendorOf("secrets.shippo_token")).toBe("shippo");
    expect(vendorOf("secrets.posthog_personal_key")).toBe("posthog");
    expect(vendorOf("secrets.bitbucket_app_password")).toBe("bitbucket");
    expect(vendorOf("secrets.postman_key")).toBe("postman");
    expect(vendorOf("secrets.jwt")).toBeNull();
    expect(vendorOf("secrets.bearer_token")).toBeNull();
    expect(vendorOf("secrets.x_bearer_token")).toBeNull();
    expect(vendorOf("secrets.meta_access_token")).toBeNull();
    expect(vendorOf("pii.email")).toBeNull();
  });
  it("accepts the vendor's own domain, with the affixes SaaS domains take", () => {
    expect(vendorDomain("secrets.shippo_token", "api.goshippo.com")).toBe(true);
    expect(vendorDomain("secrets.postman_key", "api.getpostman.com")).toBe(true);
    expect(vendorDomain("secrets.square_token", "connect.squareup.com")).toBe(true);
    expect(vendorDomain("secrets.braintree_token", "payments.braintreegateway.com")).toBe(true);
    expect(vendorDomain("secrets.buildkite_token", "api.buildkite.com")).toBe(true);
    expect(vendorDomain("secrets.airtable_token", "api.airtable.co.uk")).toBe(true);
  });
  it("refuses hosts that only contain the name, and other vendors' domains", () => {
    expect(vendorDomain("secrets.shippo_token", "shippo.rates-compare.example")).toBe(false);
    expect(vendorDomain("secrets.shippo_token", "api.shippo-keys.example")).toBe(false);
    expect(vendorDomain("secrets.buildkite_token", "api.buildkitemirror.example")).toBe(false);
    expect(vendorDomain("secrets.postman_key", "api.postmanpostman.com")).toBe(false);
    expect(vendorDomain("secrets.square_token", "api.stripe.com")).toBe(false);
    expect(vendorDomain("secrets.jwt", "jwt.io")).toBe(false);
    expect(vendorDomain("secrets.shippo_token", "localhost")).toBe(false);
  });
});

describe("fp26: corpus and cost", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/fp26.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.files[0]?.results.length).toBe(18);
  });
  it("stays fast on long adversarial hosts", () => {
    const inputs = ["a.".repeat(50_000) + "com", "shippo".repeat(20_000) + ".com", "goshippo".repeat(10_000), "x".repeat(100_000)];
    for (const h of inputs) {
      const t = cpuMs();
      for (let i = 0; i < 200; i++) vendorDomain("secrets.shippo_token", h);
      expect(cpuMs() - t, h.slice(0, 20)).toBeLessThan(1500);
    }
  });
});
