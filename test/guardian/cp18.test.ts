import { describe, expect, it } from "vitest";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { storedSecrets } from "../../src/guardian/detectors/secrets-stores.js";
import { plainCredentialConfigWrite } from "../../src/guardian/detectors/paths-benign.js";
import type { Detection, StringSite } from "../../src/guardian/detectors/scan.js";
import { cpuMs } from "../support/cpu.js";

/* Issue 24, eighteenth round ("cp18"): docs/detection.md, "Eighteenth round: secrets where they are kept ("cp18")". */

const KEY = "sk_live_" + "Qz7Lm2Vx9Rt4Kp8Wn3Yb6Hc1";
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const at = (key: string, v: string): Detection => ({ type: "secrets.stripe_key", path: ["params", "arguments", key], start: 0, end: v.length });
const write = (path: string, content: string) => {
  const sites: StringSite[] = [
    { path: ["params", "arguments", "path"], value: path },
    { path: ["params", "arguments", "content"], value: content },
  ];
  return plainCredentialConfigWrite(path, sites[0] as StringSite, sites);
};

describe("cp18: a secret handed to the store named for keeping it", () => {
  it("drops a credential stored whole in a vault, key vault, keychain or secrets manager", () => {
    expect(storedSecrets(call("vault_kv_put", { path: "kv/shop/payments", value: KEY }), [at("value", KEY)])).toEqual([]);
    expect(storedSecrets(call("keychain_add_item", { name: "shop", value: KEY }), [at("value", KEY)])).toEqual([]);
    expect(storedSecrets(call("secretsmanager_put", { secret_id: "prod/shop", secret_string: KEY }), [at("secret_string", KEY)])).toEqual([]);
    expect(storedSecrets(call("akv_secret_set", { name: "shop", value: KEY }), [at("value", KEY)])).toEqual([]);
  });
  it("keeps it in another argument, in a tool that is not a store, or without a name", () => {
    expect(storedSecrets(call("vault_put", { path: "kv/a", value: "x", note: KEY }), [at("note", KEY)])).toHaveLength(1);
    expect(storedSecrets(call("paste_create", { path: "snips/a", value: KEY }), [at("value", KEY)])).toHaveLength(1);
    expect(storedSecrets(call("upload_file", { path: "a/b", value: KEY }), [at("value", KEY)])).toHaveLength(1);
    expect(storedSecrets(call("vault_put", { value: KEY }), [at("value", KEY)])).toHaveLength(1);
  });
});

describe("cp18: a secrets file in the tree holding the addresses of secrets", () => {
  it("passes references into a store", () => {
    expect(write("config/secrets.yaml", "db:\n  password: vault:secret/data/app/db#password\n")).toBe(true);
    expect(write("deploy/secrets.yml", "mail:\n  smtp_password: op://Ops/Mailer/password\n")).toBe(true);
    expect(write("svc/credentials.json", '{"db_password": "arn:aws:secretsmanager:eu-west-1:1:secret:db-AbC"}\n')).toBe(true);
  });
  it("keeps literal values, web addresses and writes outside the tree", () => {
    expect(write("config/secrets.yaml", "db:\n  password: Tr0ub4dor-Quartz-91x\n")).toBe(false);
    expect(write("config/secrets.yaml", "alerts:\n  token: https://hooks.example.net/services/T1/B2/abc\n")).toBe(false);
    expect(write("/etc/app/secrets.yaml", "db:\n  password: vault:secret/data/app#db\n")).toBe(false);
    expect(write("../../secrets.yaml", "db:\n  password: vault:secret/data/app#db\n")).toBe(false);
  });
});

describe("cp18: corpus and cost", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/cp18.test.yaml");
    const failures = s.files.flatMap((f) => f.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`));
    expect(failures).toEqual([]);
    expect(s.passed).toBeGreaterThanOrEqual(15);
  });
  it("stays linear on long adversarial input", () => {
    const long = "password: a:" + "b/".repeat(20_000);
    const t0 = cpuMs();
    write("config/secrets.yaml", long);
    write("config/secrets.yaml", ("token: x:" + "/a".repeat(13) + "\n").repeat(120));
    storedSecrets(call("vault_" + "kv_".repeat(40) + "put", { path: "a", value: KEY }), [at("value", KEY)]);
    expect(cpuMs() - t0).toBeLessThan(1500);
  });
});
