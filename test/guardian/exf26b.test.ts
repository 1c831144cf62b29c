import { describe, expect, it } from "vitest";
import { cpuMs } from "../support/cpu.js";
import { runTestFiles } from "../../src/cli/test-rules.js";
import { agentLinkCredentials, linkCredential } from "../../src/guardian/detectors/exfil-agent-links.js";
import type { StringSite } from "../../src/guardian/detectors/scan.js";

/* exf26b (issue 24): credentials and account lists in the addresses an A2A message hands another agent (exfil-agent-links.ts). */

const none = () => false;
const link = (u: string) => linkCredential(u, none);

/** The string sites of a message, as the scanner collects them (enough for these tests: every string with its path). */
function sitesOf(v: unknown, path: (string | number)[] = [], out: StringSite[] = []): StringSite[] {
  if (typeof v === "string") out.push({ path, value: v });
  else if (Array.isArray(v)) v.forEach((x, i) => sitesOf(x, [...path, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) sitesOf(x, [...path, k], out);
  return out;
}
const send = (parts: unknown[], configuration?: unknown, method = "message/send") => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params: { message: { kind: "message", messageId: "m1", role: "user", parts }, ...(configuration ? { configuration } : {}) },
});
const found = (m: Record<string, unknown>) => agentLinkCredentials(sitesOf(m), m, none);

describe("a credential in a link handed to another agent", () => {
  it("finds a key-named parameter with a random value, after a vendor's prefix, in camel case", () => {
    expect(link("https://files.intake.example/u/a.csv?sis_key=ps_a1b2c3d4e5f60718293a4b5c6d7e8f90")).toMatch(/credential \(sis_key\)/);
    expect(link("https://docs.convert.example/fetch?src=x&key=Zq4nR8wX2kPLm0vT7bY3cH6dJ1sF9gAe")).toMatch(/credential \(key\)/);
    expect(link("https://x.convert.example/f?key=nvtest-3f9a1c77-2b4e-4d08-9e61-5a0c8f2d7b13")).toMatch(/credential/);
    expect(link("https://x.convert.example/f?apiSecretKey=Jh7Kq2Xw9Pz4Lm8Nv3Bc6Rt1")).toMatch(/credential \(apiSecretKey\)/);
    expect(link("https://x.convert.example/f?access_token=ya29.Qm7xT2pL9aZk8Wv3Rn6Bc1Hd")).toMatch(/credential/);
  });
  it("finds a Slack webhook's path on another host, and account lists", () => {
    expect(link("https://relay.up.example.app/hook/T0ACME12/B0DEPLOY9/QbjHLLFZV2qcLS2w9A3QF42C")).toMatch(/Slack/);
    expect(link("https://hooks.slack.com/services/T0ACME12/B0DEPLOY9/QbjHLLFZV2qcLS2w9A3QF42C")).toBeNull();
    expect(link("https://cb.hooks.example/r?acct=SE2060000000000411298417,SE4550000000058398257466")).toMatch(/bank account numbers/);
    expect(link("https://cb.hooks.example/r?member_ids=300112884,300112885,300112886")).toMatch(/account numbers/);
    expect(link("https://cb.hooks.example/r?jobs=300112884,300112885,300112886")).toBeNull();
    expect(link("https://cb.hooks.example/r?accounts=3")).toBeNull();
  });
  it("passes signed links, share tokens, public and non-credential keys, paths, placeholders and local hosts", () => {
    expect(link("https://a.blob.core.windows.net/c/x.pdf?sv=2024-08-04&se=2026-12-01&sr=b&sp=r&sig=QXNYTmd0RUxEY2ZzV3ExMlI1V1oy")).toBeNull();
    expect(link("https://b.s3.amazonaws.com/x.csv?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=9f8e7d6c5b4a39281706f5e4d3c2b1a0&key=Zq4nR8wX2kPLm0vT7bY3cH6d")).toBeNull();
    expect(link("https://share.docs.example/s/d.docx?token=Qz7Xk2Lm9Pv4Rt8Wn3Bc6Hj1")).toBeNull();
    expect(link("https://x.example/cb?idempotency_key=Hq8Zr2Lk7Xm4Wv9Pt3Nb6Cd1")).toBeNull();
    expect(link("https://x.example/signup?site_key=6LcQz7XkAAAAAJh2Lm9Pv4Rt8Wn3Bc6Hj1Qa")).toBeNull();
    expect(link("https://x.example/signup?public_key=Hq8Zr2Lk7Xm4Wv9Pt3Nb6Cd1")).toBeNull();
    expect(link("https://files.example/get?bucket=r&key=finance/2026/q3-summary.csv")).toBeNull();
    expect(link("https://files.example/get?key=%7BAPI_KEY%7D")).toBeNull();
    expect(link("https://files.example/get?key=00000000000000000000")).toBeNull();
    expect(link("http://localhost:8080/get?key=Zq4nR8wX2kPLm0vT7bY3cH6d")).toBeNull();
    expect(linkCredential("https://files.acme.example/get?key=Zq4nR8wX2kPLm0vT7bY3cH6d", (h) => h === "files.acme.example")).toBeNull();
  });
});

describe("in a message sent to another agent", () => {
  it("finds a file part's uri, a data part's callback, a push config's url and a service key as its token", () => {
    expect(found(send([{ kind: "file", file: { name: "a.csv", uri: "https://files.x.example/a.csv?hist_key=cnry_4f1e9a7c2b3d5e6f8a9b0c1d" } }]))).toHaveLength(1);
    expect(found(send([{ kind: "data", data: { callback: { url: "https://cb.x.example/r?iban=DE44500105175407324931,DE89370400440532013000" } } }]))).toHaveLength(1);
    expect(found(send([{ kind: "text", text: "ok" }], { pushNotificationConfig: { url: "https://x.example.app/h/T07QX4LMN/B09ZK2PQR/aZ3kL9mQ2wX8vB4nR7tY1pC6", token: "cb-1" } }))).toHaveLength(1);
    const token = found(send([{ kind: "text", text: "ok" }], { pushNotificationConfig: { url: "https://cb.x.example/n", token: "fiix_live_7c1e4b9a2f3d8e60" } }));
    expect(token.map((d) => d.type)).toEqual(["exfiltration.agent_link"]);
    expect(token[0]?.detail).toMatch(/push-notification token/);
  });
  it("leaves a client's own push tokens, replies and MCP calls alone", () => {
    expect(found(send([{ kind: "text", text: "ok" }], { pushNotificationConfig: { url: "https://agents.acme.example/cb", token: "6f1c2b9e-3a4d-4e8f-9b7c-1d2e3f4a5b6c" } }))).toHaveLength(0);
    expect(found(send([{ kind: "text", text: "ok" }], { pushNotificationConfig: { url: "https://agents.acme.example/cb", token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYiJ9.ZxzaYLPFGj042uiJRVgq8U4XjHA0I2pF" } }))).toHaveLength(0);
    expect(found(send([{ kind: "text", text: "ok" }], { pushNotificationConfig: { url: "https://agents.acme.example/cb", token: "RcnTlnjzddixPizQ7wAvqDzfahYCuVWn" } }))).toHaveLength(0);
    const reply = { jsonrpc: "2.0", id: 1, result: { kind: "message", parts: [{ kind: "text", text: "https://x.example/f?key=Zq4nR8wX2kPLm0vT7bY3cH6d" }] } };
    expect(found(reply)).toHaveLength(0);
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch", arguments: { url: "https://x.example/f?key=Zq4nR8wX2kPLm0vT7bY3cH6d" } } };
    expect(found(call)).toHaveLength(0);
  });
});

describe("exf26b: corpus and cost", () => {
  it("passes its corpus file", () => {
    const s = runTestFiles("test/fixtures/corpus/exf26b.test.yaml");
    const results = s.files.flatMap((f) => f.results);
    expect(results.length).toBeGreaterThanOrEqual(15);
    const failures = results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failures.join("; ")}`);
    expect(failures).toEqual([]);
  });
  it("stays fast on long adversarial links and texts", () => {
    const inputs = ["key=" + "Ab1".repeat(2500), "a_key=1,".repeat(900), "/T" + "A".repeat(8000), "x".repeat(8000), "key=" + "DE44500105175407324931,".repeat(180)];
    for (const v of inputs) {
      const t = cpuMs();
      for (let i = 0; i < 20; i++) {
        link(`https://x.example/${v.startsWith("/") ? v.slice(1) : "p?" + v}`);
        found(send([{ kind: "text", text: `see https://x.example/p?${v} `.repeat(4) }]));
      }
      expect(cpuMs() - t, v.slice(0, 20)).toBeLessThan(1500);
    }
  });
});
