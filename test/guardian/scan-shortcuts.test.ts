import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectSecretAssignments } from "../../src/guardian/detectors/assignments.js";
import { hasEncodedRun } from "../../src/guardian/detectors/normalize-decode.js";
import { corpusStrings } from "../support/corpus-strings.js";

/*
 * Shortcuts in scans over every string, each held to the scan it replaced (kept here as the reference, or selectable
 * by a parameter) so that no detector can find anything different for it:
 * - normalisation's question whether a string holds an encoded run worth decoding (normalize-decode.ts) reads each
 *   window from its end backwards;
 * - secret assignments in a long string look for their stems only in the name before each `:` or `=`.
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

/** Assignments and near-misses: names of every shape, blanks and quotes before the separator, separators alone. */
const ASSIGNMENT_PIECES = [
  "password = 'Zx9!kQ2#pL7v'", "client_secret: 8f7Hq2LmZx0Pk3Vw9Rt6", 'apiKey="A1b2C3d4E5f6G7h8"', "TOKEN=Qw8#Er7$Ty6^", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
  "DB_PASSWORD        =        hunter2Zx9kQ2pL", "db_password         :  Zx9kQ2pLqq", "X-Api-Key: 9f8e7d6c5b4a3f2e1d0c", "my.very.long.prefix.of.a.name.that.goes.on.and.on.secret_key_for_the_service_in_production = Zx9kQ2pLrT5vB8nM",
  '"passphrase": "correct-Horse-battery-9"', "auth_token => 'aB3dE5gH7jK9mN1p'", "credentials:=Zx9kQ2pLrT5v", "PWD=Zx9kQ2pLrT5v", "monkey=Zx9kQ2pLrT5v", "tokenizer: Zx9kQ2pLrT5v",
  "password\t\t= Zx9kQ2pLrT5v",
  // The farthest a word can be from its separator: ten letters, a plural, a 61-character rest, a quote, eight blanks.
  "credentials_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'        = Zx9kQ2pLrT5vB8nM", "prefix.secret_of_the_payments_service_in_the_production_environment_aa\"        = Zx9kQ2pLrT5vB8nM", "password '= Zx9kQ2pLrT5v", "key=Zx9kQ2pLrT5v", "_key=Zx9kQ2pLrT5v", "secret", "=", ":", " ", "\n", "'", '"', "\t", "https://example.com/a?b=1", "Lorem ipsum dolor sit amet, ",
];
const assignmentText = fc.array(fc.oneof({ arbitrary: fc.constantFrom(...ASSIGNMENT_PIECES), weight: 8 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 1 }), { maxLength: 60 }).map((ps) => ps.join(""));
const FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(42);

describe("secret assignments in a long string: the stems looked for before separators only", () => {
  it("find what a search of the whole string finds, on random text and the corpus", () => {
    let found = 0;
    const same = (value: string) => {
      const sites = [{ path: ["result", "text"], value }];
      const near = detectSecretAssignments(sites, false, true);
      expect(near, value.slice(0, 120)).toEqual(detectSecretAssignments(sites, false, false));
      found += near.length;
    };
    fc.assert(
      fc.property(assignmentText, assignmentText, (a, b) => {
        same(a + FILLER + b);
        same(FILLER + a + b);
        same(a + FILLER.slice(0, 4096 - Math.min(4096, a.length)) + b);
        // Separators too dense for the shortcut, from the start or only further on: the whole-string searches.
        same(":=".repeat(100) + a + FILLER + b);
        same(FILLER + a + ": ".repeat(200) + b);
      }),
      { numRuns: 300 },
    );
    const strings = corpusStrings(["attacks", "benign", "exfiltration", "hidden", "secret-assignments", "secrets-exfil-pii"]);
    for (let i = 0; i < strings.length; i += 20) {
      const joined = strings.slice(i, i + 20).join("\n");
      same(joined.length >= 4096 ? joined : joined + FILLER);
      same(FILLER + joined.toUpperCase());
    }
    // The comparison is not between empty lists.
    expect(found).toBeGreaterThan(300);
  });
});
