import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bindingKey, RememberedApprovals, type Remembered } from "../../src/approvals/remembered.js";
import { tempDir } from "../helpers.js";

const T0 = Date.parse("2026-11-23T12:00:00.000Z");
const entry = (over: Partial<Remembered> = {}): Remembered => ({
  id: "ap-000000000001", scope: "always", session: null, route: "r", agent: null, server: "srv", method: "tools/call", tool: "echo",
  rule: "ask-echo", argsDigest: "a".repeat(64), ruleset: "h1", grantedAt: new Date(T0).toISOString(), expiresAt: new Date(T0 + 1000).toISOString(), ...over,
});

describe("remembered approvals kept in a file", () => {
  it("writes always ones (mode 0600), never session ones; two processes sharing the file see each other's", () => {
    const file = join(tempDir(), "sub", "approvals.json");
    const warnings: string[] = [];
    const a = new RememberedApprovals(file, 100, () => T0, (m) => warnings.push(m));
    const b = new RememberedApprovals(file, 100, () => T0, (m) => warnings.push(m));
    a.add(entry({ id: "ap-session", scope: "session", session: "s1", expiresAt: null }));
    expect(statSync(file, { throwIfNoEntry: false })).toBeUndefined();
    a.add(entry());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(b.find(bindingKey(entry(), null))?.id).toBe("ap-000000000001");
    b.add(entry({ id: "ap-000000000002", argsDigest: "b".repeat(64) }));
    expect(a.list().map((r) => r.id).sort()).toEqual(["ap-000000000001", "ap-000000000002", "ap-session"]);
    expect(b.remove((r) => r.id === "ap-000000000001")).toBe(1);
    expect(a.find(bindingKey(entry(), null))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("drops expired ones at load and on use", () => {
    const file = join(tempDir(), "approvals.json");
    let now = T0;
    new RememberedApprovals(file, 100, () => now, () => {}).add(entry());
    now = T0 + 1000;
    const later = new RememberedApprovals(file, 100, () => now, () => {});
    expect(later.list()).toEqual([]);
    expect(later.find(bindingKey(entry(), null))).toBeUndefined();
  });

  it("a bad file stops the start with a clear error; written badly later, what is in memory stays", () => {
    const file = join(tempDir(), "approvals.json");
    writeFileSync(file, JSON.stringify({ version: 1, approvals: [{ ...entry(), argsDigest: "nope" }] }));
    expect(() => new RememberedApprovals(file, 100, () => T0, () => {})).toThrow(/approvals\.0\.argsDigest/);
    writeFileSync(file, "");
    const r = new RememberedApprovals(file, 100, () => T0, () => {});
    r.add(entry());
    writeFileSync(file, "garbage");
    expect(r.find(bindingKey(entry(), null))?.id).toBe("ap-000000000001");
    expect(readFileSync(file, "utf8")).toBe("garbage");
  });

  it("an unwritable file is a warning: the approval is still remembered in memory", () => {
    const file = join(tempDir(), "approvals.json");
    const warnings: string[] = [];
    const r = new RememberedApprovals(file, 100, () => T0, (m) => warnings.push(m));
    // A directory where the file should be: every write fails.
    mkdirSync(file);
    r.add(entry());
    expect(r.find(bindingKey(entry(), null))?.id).toBe("ap-000000000001");
    expect(warnings[0]).toMatch(/cannot write the remembered approvals file .* remembered in memory only/);
  });
});
