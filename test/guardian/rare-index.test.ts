import { describe, expect, it } from "vitest";
import { includesRare, indexOfRare } from "../../src/guardian/detectors/rare-index.js";

/** A deterministic generator, so a failure is reproducible. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("indexOfRare: indexOf at the literal's rarest character", () => {
  it("answers exactly as indexOf, from any place, on long texts of few characters (many near misses)", () => {
    const r = random(22);
    for (let k = 0; k < 300; k++) {
      const alphabet = k % 2 ? "eyJab:otpauth" : "eyJJJJ";
      const n = 4096 + Math.floor(r() * 3000);
      let s = "";
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
      for (const literal of ["eyJ", "otpauth:", "th:", "JJ", "ab", "== ed25519v1-secret: type0 =="]) {
        const from = Math.floor(r() * n);
        expect(indexOfRare(s, literal, from)).toBe(s.indexOf(literal, from));
        expect(indexOfRare(s, literal)).toBe(s.indexOf(literal));
        expect(includesRare(s, literal)).toBe(s.includes(literal));
      }
    }
  });

  it("finds a literal at the start, at the end, past the end and in a short text", () => {
    const long = "x".repeat(5000);
    expect(indexOfRare(`eyJ${long}`, "eyJ")).toBe(0);
    expect(indexOfRare(`${long}eyJ`, "eyJ")).toBe(5000);
    expect(indexOfRare(`${long}ey`, "eyJ")).toBe(-1);
    expect(indexOfRare(`${long}otpauth:`, "otpauth:", 4999)).toBe(5000);
    expect(indexOfRare(`${long}otpauth:`, "otpauth:", 5001)).toBe(-1);
    expect(indexOfRare(`${long}otpauth:`, "otpauth:", 99_999)).toBe(-1);
    expect(indexOfRare("a eyJ b", "eyJ")).toBe(2);
  });
});
