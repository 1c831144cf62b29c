import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasEncodedRun } from "../../src/guardian/detectors/normalize-decode.js";
import { corpusStrings } from "../support/corpus-strings.js";

/*
 * Normalisation's fast path asks whether a string holds an encoded run worth decoding (normalize-decode.ts), and the
 * decoder asks again before it looks for runs. The answer now comes from a skipping scan that reads each window from
 * its end backwards; it must be exactly the answer of the scan it replaced (kept here as the reference), so no
 * detector can find anything different for it.
 */

const B64 = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") B64[c.charCodeAt(0)] = 1;
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** The scan as it was when the normalisation pass merged: every maximal run through a probe, read once. */
function referenceHasEncodedRun(s: string): boolean {
  const n = s.length;
  let i = 0;
  while (i + 16 <= n) {
    const probe = i + 15;
    const p = s.charCodeAt(probe);
    if (p >= 128 || B64[p] === 0) {
      i = probe + 1;
      continue;
    }
    let k = probe;
    while (k > i) {
      const c = s.charCodeAt(k - 1);
      if (c >= 128 || B64[c] === 0) break;
      k--;
    }
    let e = probe + 1;
    while (e < n) {
      const c = s.charCodeAt(e);
      if (c >= 128 || B64[c] === 0) break;
      e++;
    }
    if (e - k >= 16) {
      let hex = true;
      for (let j = k; j < e; j++) {
        const c = s.charCodeAt(j);
        if (c >= 0x41 && c <= 0x5a) return true;
        if (hex && !isHex(c)) hex = false;
      }
      if (hex) return true;
    }
    i = e + 1;
  }
  return false;
}

/** Runs of every kind near the threshold: lower-case, hex, with one capital, broken by separators and non-ASCII. */
const piece = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z0-9+/_-]{1,20}$/), weight: 4 },
  { arbitrary: fc.stringMatching(/^[0-9a-f]{1,20}$/), weight: 3 },
  { arbitrary: fc.stringMatching(/^[0-9A-F]{1,20}$/), weight: 1 },
  { arbitrary: fc.constantFrom("A", "Z", "=", " ", ".", "\n", "é", "Ａ", "😀", ":", "%", "/", "_"), weight: 4 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);
const text = fc.array(piece, { maxLength: 12 }).map((ps) => ps.join(""));

describe("the encoded-run check answers as before", () => {
  it("the skipping scan, on random strings built around the threshold", () => {
    let yes = 0;
    fc.assert(
      fc.property(text, (s) => {
        const want = referenceHasEncodedRun(s);
        expect(hasEncodedRun(s), JSON.stringify(s)).toBe(want);
        if (want) yes++;
      }),
      { numRuns: 5000 },
    );
    // Both answers occur often.
    expect(yes).toBeGreaterThan(500);
    expect(yes).toBeLessThan(4500);
  });

  it("the skipping scan, on long strings and on the corpus (each string, upper and lower case)", () => {
    // Prose and paths, now and then a piece near the threshold: long strings with and without a run.
    const word = fc.oneof(
      { arbitrary: fc.stringMatching(/^[a-z]{1,12}$/), weight: 12 },
      { arbitrary: fc.stringMatching(/^[A-Z][a-z]{0,8}$/), weight: 2 },
      { arbitrary: fc.stringMatching(/^[a-z/]{10,30}$/), weight: 1 },
      { arbitrary: piece, weight: 1 },
    );
    const prose = fc.array(fc.tuple(word, fc.constantFrom(" ", " ", ", ", ". ", "\n")), { minLength: 50, maxLength: 400 }).map((ps) => ps.flat().join(""));
    // Most of them with a run-like token put somewhere (a key, a hash, a lower-case slug: some qualify, some do not).
    const token = fc.stringMatching(/^(?:[A-Za-z0-9+/]{12,24}|[0-9a-f]{14,20}|[a-z0-9_-]{14,24})$/);
    const long = fc
      .tuple(prose, fc.option(fc.tuple(fc.nat(), token), { freq: 4 }))
      .map(([text, put]) => (put === null ? text : text.slice(0, put[0] % text.length) + " " + put[1] + " " + text.slice(put[0] % text.length)));
    let yes = 0;
    fc.assert(
      fc.property(long, (s) => {
        const want = referenceHasEncodedRun(s);
        expect(hasEncodedRun(s)).toBe(want);
        if (want) yes++;
      }),
      { numRuns: 400 },
    );
    expect(yes).toBeGreaterThan(40);
    expect(yes).toBeLessThan(360);
    const strings = corpusStrings(["attacks", "benign", "exfiltration", "hidden", "secret-assignments", "secrets-exfil-pii"]);
    expect(strings.length).toBeGreaterThan(100);
    for (const s of strings) for (const v of [s, s.toUpperCase(), s.toLowerCase()]) expect(hasEncodedRun(v), v.slice(0, 80)).toBe(referenceHasEncodedRun(v));
  });
});
