import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AFTER_NAME, detectSecretAssignments, valueAfter, type ValueEnds } from "../../src/guardian/detectors/assignments.js";
import { entropy } from "../../src/guardian/detectors/entropy.js";
import { codeUnits, sharedUnits } from "../../src/guardian/detectors/units.js";

/*
 * Shortcuts taken for the detectors' cost (docs/detection.md, "What detection costs"), each held to what it replaced:
 * the same results on random text and on the floods that made the old code slow.
 */

/** Entropy as it was: a map of code points, summed in the order they first appear. */
function referenceEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

describe("entropy counted in a table", () => {
  it("is the map's result to the last bit, for ASCII and for any text", () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 300 });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: "binary", maxLength: 80 }), fc.string({ maxLength: 300 })), (s) => {
        expect(Object.is(entropy(s), referenceEntropy(s)), JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 600 },
    );
    // A non-ASCII character after ASCII ones leaves the table clean for the next call.
    expect(entropy("abcé")).toBe(referenceEntropy("abcé"));
    expect(entropy("aaaa")).toBe(0);
  });
});

const PIECES = [
  "token", "key", "auth", "secret", "password", ":", "=", ":=", "=>", " ", "\t", "'", '"', "`", ",", ";", "\n", "_", "-", ".", "S", "s", "Zx9kQ2pL", "rT5v", "abc", "\u00a0", "é",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 200 }).map((ps) => ps.join(""));

describe("secret assignments: a value's end remembered from one separator to the next", () => {
  it("gives AFTER_NAME's value at every position, visited in order or not", () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (v, jumps) => {
        const positions = [...Array(v.length + 1).keys()];
        // Mostly forward, as candidates come; a few positions again out of order.
        for (const j of jumps) positions.push(j % (v.length + 1));
        const ends: ValueEnds = { from: Infinity, at: -1, valueEnd: 0 };
        for (const at of positions) {
          AFTER_NAME.lastIndex = at;
          const m = AFTER_NAME.exec(v);
          const want = m ? (m[2] as string) : null;
          const wantEnd = AFTER_NAME.lastIndex;
          const got = valueAfter(v, at, ends);
          expect(got, `${JSON.stringify(v)} at ${at}`).toBe(want);
          if (want !== null) expect(ends.valueEnd).toBe(wantEnd);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a megabyte of assignments that run into each other is judged as before (nothing random in it)", () => {
    for (const unit of ["tokenkeyauth:", "password=", "api_key: x", '{"token":"abc","n":1},', "auth_token=Zx9kQ2pLrT5v;"]) {
      const value = unit.repeat(Math.ceil((1 << 20) / unit.length)).slice(0, 1 << 20);
      const found = detectSecretAssignments([{ path: ["result", "text"], value }]);
      // The last is a real secret each time: one finding per assignment.
      if (unit.startsWith("auth_token=")) expect(found.length).toBe(Math.floor(value.length / unit.length));
      else expect(found).toEqual([]);
    }
  });
});

describe("code units copied natively for the scanners that read every character", () => {
  it("are charCodeAt's, unit for unit, lone surrogates and all", () => {
    const any = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 5000 });
    fc.assert(
      fc.property(fc.oneof(any, fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 })), (s) => {
        const u = codeUnits(s);
        expect(u.length).toBe(s.length);
        for (let i = 0; i < s.length; i++) if (u[i] !== s.charCodeAt(i)) expect(u[i], `${i} of ${JSON.stringify(s)}`).toBe(s.charCodeAt(i));
      }),
      { numRuns: 300 },
    );
    const long = "é\ud800x".repeat(100_000);
    expect(Buffer.from(codeUnits(long).buffer, codeUnits(long).byteOffset, long.length * 2).toString("utf16le")).toBe(long);
  });

  it("shared by the scanners: the same string's copy is reused, another string's replaces it", () => {
    const text = (u: Uint16Array) => Buffer.from(u.buffer, u.byteOffset, u.length * 2).toString("utf16le");
    const a = "x".repeat(5000) + "a";
    const b = "y".repeat(3) + "\u00e9b";
    const first = sharedUnits(a);
    expect(sharedUnits(a)).toBe(first);
    expect(text(sharedUnits(b))).toBe(b);
    expect(text(sharedUnits(a))).toBe(a);
    // The same text in another string object: equal content, so the copy stands for it too.
    const again = ["x".repeat(5000), "a"].join("");
    expect(text(sharedUnits(again))).toBe(a);
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 50 }), { minLength: 1, maxLength: 8 }), (strings) => {
        for (const s of [...strings, ...strings.reverse()]) expect(text(sharedUnits(s))).toBe(s);
      }),
      { numRuns: 200 },
    );
  });

  it("a string over 4 MB is copied once for a judgement's scanners, short strings read in between included, and let go after it", async () => {
    const text = (u: Uint16Array) => Buffer.from(u.buffer, u.byteOffset, u.length * 2).toString("utf16le");
    const long = "ab".repeat((1 << 21) / 2 + 8);
    const first = sharedUnits(long);
    expect(text(sharedUnits("short"))).toBe("short");
    expect(sharedUnits(long)).toBe(first);
    // Once the judgement's turn is over (a microtask), the copy is no longer held: the next reading copies again.
    await Promise.resolve();
    const next = sharedUnits(long);
    expect(next).not.toBe(first);
    expect(next.length).toBe(long.length);
    expect(next[0]).toBe(97);
    expect(next[long.length - 1]).toBe(98);
  }, 120_000);
});
