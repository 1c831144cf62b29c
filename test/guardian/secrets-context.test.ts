import { describe, expect, it } from "vitest";
import { credentialShaped } from "../../src/guardian/detectors/secrets-context.js";
import { detectSecrets } from "../../src/guardian/detectors/secrets.js";
import { cpuMs } from "../support/cpu.js";

/*
 * Credentials without a published format (secrets-context.ts): named in prose, in a name or a JSON field, passed to a
 * client call, or self-describing. The corpus (test/fixtures/corpus/secrets.test.yaml) holds them through the pack;
 * this holds the detector's spans, its guards, and its cost on adversarial text.
 */
const found = (value: string, path: (string | number)[] = ["result", "text"]) => detectSecrets([{ path, value }]).map((d) => `${d.type} ${value.slice(d.start, d.end)}`);

describe("secrets named in prose, names and fields", () => {
  it.each([
    ["the deploy token for staging is qdt_uIZPXKhuR2Gh084zOMj63ff9miTlcR today", "qdt_uIZPXKhuR2Gh084zOMj63ff9miTlcR"],
    ["my api key qewy0vneaibnopi0mu7yfb8u038835k5wt3684y8iqd8vyhg stopped working", "qewy0vneaibnopi0mu7yfb8u038835k5wt3684y8iqd8vyhg"],
    ["boot auth_token=wrk-b84fad7a-cc9b-491d-81d4-ee71accb4b3b pid=1", "wrk-b84fad7a-cc9b-491d-81d4-ee71accb4b3b"],
    ["{\"serverTokens\":[\"b84fad7a-cc9b-491d-81d4-ee71accb4b3b\"]}", "b84fad7a-cc9b-491d-81d4-ee71accb4b3b"],
    ["client.authenticate('sZd5E9TiWfQl59tR4B1I6Mup4elwZRLcd9ZRni6G')", "sZd5E9TiWfQl59tR4B1I6Mup4elwZRLcd9ZRni6G"],
    ["the webhook secret is 58db2bcb7f6b430a0e8539546321ef3cbb936dae", "58db2bcb7f6b430a0e8539546321ef3cbb936dae"],
    ["Passphrase: Harbor-Violet-5521 — delete this", "Harbor-Violet-5521"],
  ])("%s", (text, secret) => {
    expect(found(text)).toContain(`secrets.credential ${secret}`);
  });

  it("a JSON field named for a secret holds one; a field naming an id, a public key or a page does not", () => {
    expect(found("10ceddc9-6005-447a-9237-60c45fd0f93e", ["params", "arguments", "payload", "client_secret"])).toEqual(["secrets.credential 10ceddc9-6005-447a-9237-60c45fd0f93e"]);
    expect(found("fw_rOFnbxhtyRR0L545KHW53x9t", ["params", "api_key"])).toHaveLength(1);
    for (const key of ["request_id", "keyId", "publishableKey", "nextPageToken", "deviceToken", "key", "idempotencyKey", "access_key"]) {
      expect(found("Xk9q2LmP7rT4vB8nW1zA5cD3fG6hJ0kL", ["params", key]), key).toEqual([]);
    }
  });

  it.each([
    "Fixed the token refresh race in 58db2bcb7f6b430a0e8539546321ef3cbb936dae",
    "Our WireGuard public key is Fwqc4WZmfjCuGq4zrVqX+zj+7+6PJP18HZZ/diKhbNU=",
    "the session token is 123e4567-e89b-12d3-a456-426614174000",
    "The idempotency key 10ceddc9-6005-447a-9237-60c45fd0f93e was reused",
    "the old API key ID 58db2bcb7f6b430a0e85 is revoked",
    "const token = getAccessTokenForUser2FA(session); const key = makeKey(userId)",
    "the key is stored in secrets/prod/api-key.enc",
    "Token usage: prompt_tokens=1534 completion_tokens=201",
    "Set API_TOKEN to your token, e.g. tok_xxxxxxxxxxxxxxxxxxxx",
    "integrity sha512-RdJUflcE3cUzKiMqQgsCu06FPu9UdIJO0beYbPhHN4k6apgJtifcoCtT9bcxOpYBtpD2kCM6Sbzg4CausW/PKQ==",
    "https://app.example/reset?token=Q7xZ2k9LmP4vR8tW1yB5nC3dF6gH0jK2",
    "posthog.init(\"phc_jb3KAr57NTTUHI5ppA5tne7xrKqEcg6UvyhpBevsglA\")",
    "My key: 0x1b8627b9b06b279eed2962f90a6ea9de12ae969e",
    "new ObjectId('507f1f77bcf86cd799439011'); new Date('2026-11-26T10:00:00Z')",
    "-ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJx7Lm2Rq9Tb4Wn8Hs1YcJ5uGd3eFa6oQiKpXrZk3qP9 in keys/deploy.pub",
  ])("not a secret: %s", (text) => {
    expect(found(text)).toEqual([]);
  });

  it("the value's shape: random, not words, hex and UUIDs only when the name says secret", () => {
    expect(credentialShaped("cioRwKZvU0wu0QK0yASb90aEp5VPUU9eN6k", false)).toBe(true);
    expect(credentialShaped("preview-environment-main-2024", true)).toBe(false);
    expect(credentialShaped("getUserAccessTokenForSession2", true)).toBe(false);
    expect(credentialShaped("9aa6473a48dc39198a4070185ab833cc", false)).toBe(false);
    expect(credentialShaped("9aa6473a48dc39198a4070185ab833cc", true)).toBe(true);
    expect(credentialShaped("4111111111111111", true)).toBe(false);
  });
});

describe("self-describing secrets", () => {
  it("a WIF key only with a valid base58check checksum", () => {
    expect(found("sweep KwL14DYUFLDBQgL9cRJsA2Zs31fwCGrnBWTQC9LNbi5dTGBFA7rT now")).toEqual(["secrets.private_key KwL14DYUFLDBQgL9cRJsA2Zs31fwCGrnBWTQC9LNbi5dTGBFA7rT"]);
    expect(found("artifact KwL14DYUFLDBQgL9cRJsA2Zs31fwCGrnBWTQC9LNbi5dTGBFA7ra uploaded")).toEqual([]);
  });

  it("an otpauth secret, but not the documented example", () => {
    expect(found("otpauth://hotp/Gitea:ops?secret=6PU4SAGEYNNDDQX7QISMZBH6ZBADD5RL&counter=1")).toContain("secrets.otp_secret 6PU4SAGEYNNDDQX7QISMZBH6ZBADD5RL");
    expect(found("otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example")).toEqual([]);
  });

  it("a PuTTY key file's private lines, not its public lines", () => {
    const ppk = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: a@b\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAIE9L\nPrivate-Lines: 1\nAAAAIJr+FIqrG88vNZG8a0JHfiqZWMPyhy0cTzL7MrJXvU3i\nPrivate-MAC: 96b49dc1";
    expect(found(ppk)).toEqual(["secrets.private_key Private-Lines: 1\nAAAAIJr+FIqrG88vNZG8a0JHfiqZWMPyhy0cTzL7MrJXvU3i"]);
  });
});

describe("cost: linear on adversarial text", () => {
  const time = (v: string) => {
    const t = cpuMs();
    detectSecrets([{ path: ["result", "text"], value: v }]);
    return cpuMs() - t;
  };
  it.each([
    ["nouns before long runs", (n: number) => ("token " + "A".repeat(1000) + " ").repeat(n / 1007)],
    ["nouns only", (n: number) => "key ".repeat(n / 4)],
    ["separators after nouns", (n: number) => "secret_key=".repeat(n / 11)],
    ["client calls", (n: number) => ".login('".repeat(n / 8)],
    ["otpauth and key-file headers", (n: number) => "otpauth://totp/x?RWRTY3J5cHQPuTTY-User-Key-File-2: ".repeat(n / 50)],
    ["base58 runs just short of a key", (n: number) => ("K".repeat(50) + " ").repeat(n / 51)],
    ["base58 runs of a key's length", (n: number) => ("K".repeat(51) + " ").repeat(n / 52)],
  ])("%s", (_name, make) => {
    time(make(50_000));
    const small = Math.min(time(make(250_000)), time(make(250_000)));
    const large = Math.min(time(make(1_000_000)), time(make(1_000_000)));
    expect(large).toBeLessThan(2_000);
    // Four times the text, at most about four times the time (with room for noise).
    expect(large).toBeLessThan(8 * small + 50);
  });
});
