import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MAX_FIELD_CHARS, MAX_TOKEN_CHARS, SessionTokens, type SessionTicket } from "../../src/store/session-token.js";

const key = () => randomBytes(32).toString("base64");
const ticket: SessionTicket = {
  route: "fs",
  agent: "ci-bot",
  session: "0b6c1a4e-7f7e-4d55-9a43-3c3a2f0f6d11",
  upstream: "4f7e2a0c8d6b4e1f9a3c5d7e9b1a2c3d",
  protocol: "2025-06-18",
  server: { name: "everything", version: "1.0.0" },
  owner: null,
  issued: 1_790_000_000,
};

describe("session tokens", () => {
  it("round-trips every field, and two seals of one ticket differ (random IV)", () => {
    const t = new SessionTokens([key()]);
    const a = t.seal(ticket);
    expect(t.open(a)).toEqual(ticket);
    expect(t.seal(ticket)).not.toBe(a);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(t.open(t.seal({ ...ticket, agent: null, upstream: null, protocol: null, server: null, owner: "r2" }))).toEqual({ ...ticket, agent: null, upstream: null, protocol: null, server: null, owner: "r2" });
  });

  it("rotation: the new first key seals, the old key still opens, a token of a dropped key does not", () => {
    const [oldKey, newKey] = [key(), key()];
    const before = new SessionTokens([oldKey]);
    const during = new SessionTokens([newKey, oldKey]);
    const after = new SessionTokens([newKey]);
    const oldToken = before.seal(ticket);
    expect(during.open(oldToken)).toEqual(ticket);
    const newToken = during.seal(ticket);
    expect(before.open(newToken)).toBeNull();
    expect(after.open(newToken)).toEqual(ticket);
    expect(after.open(oldToken)).toBeNull();
  });

  it("refuses a token with any one byte changed, and every truncation", () => {
    const t = new SessionTokens([key()]);
    const raw = Buffer.from(t.seal(ticket), "base64url");
    for (let i = 0; i < raw.length; i++) {
      const bad = Buffer.from(raw);
      bad[i] = (bad[i] as number) ^ 0x01;
      expect(t.open(bad.toString("base64url")), `byte ${i}`).toBeNull();
    }
    for (let n = 0; n < raw.length; n++) expect(t.open(raw.subarray(0, n).toString("base64url")), `first ${n} bytes`).toBeNull();
  });

  it("refuses a foreign key's token, a per-process key's token elsewhere, and text that is no token", () => {
    const mine = new SessionTokens([key()]);
    expect(mine.open(new SessionTokens([key()]).seal(ticket))).toBeNull();
    expect(new SessionTokens().open(new SessionTokens().seal(ticket))).toBeNull();
    for (const junk of ["", "a", "not a token!", "0b6c1a4e-7f7e-4d55-9a43-3c3a2f0f6d11", "A".repeat(MAX_TOKEN_CHARS + 1)]) expect(mine.open(junk)).toBeNull();
  });

  it("stays bounded: long server fields are cut, and a ticket that cannot fit is refused at sealing", () => {
    const t = new SessionTokens([key()]);
    const long = t.seal({ ...ticket, server: { name: "n".repeat(5000), version: "v".repeat(5000) } });
    expect(long.length).toBeLessThanOrEqual(MAX_TOKEN_CHARS);
    expect(t.open(long)?.server).toEqual({ name: "n".repeat(MAX_FIELD_CHARS), version: "v".repeat(MAX_FIELD_CHARS) });
    expect(() => t.seal({ ...ticket, upstream: "u".repeat(2000) })).toThrow(/over 1024/);
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => new SessionTokens([randomBytes(16).toString("base64")])).toThrow(/16 bytes, not 32/);
  });

  it("hop MACs verify under any listed key and not with another text", () => {
    const [a, b] = [key(), key()];
    const mac = new SessionTokens([a]).hopMac("POST /fs 123");
    expect(new SessionTokens([b, a]).hopValid("POST /fs 123", mac)).toBe(true);
    expect(new SessionTokens([a]).hopValid("POST /fs 124", mac)).toBe(false);
    expect(new SessionTokens([b]).hopValid("POST /fs 123", mac)).toBe(false);
    expect(new SessionTokens([a]).hopValid("POST /fs 123", "short")).toBe(false);
  });
});
