import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectAllPatterns } from "../../src/guardian/detectors/content.js";
import { judgeText, THRESHOLDS } from "../../src/guardian/detectors/injection.js";
import { pieces } from "../../src/guardian/detectors/injection-gate.js";
import { wordsOf } from "../../src/guardian/detectors/injection-lexicon.js";
import { hasEncodedRun } from "../../src/guardian/detectors/normalize-decode.js";
import { PII_GROUP } from "../../src/guardian/detectors/pii.js";

/*
 * The scanners' shortcuts for long strings (docs/detection.md, "What detection costs") only skip what cannot match:
 * a pattern's hint matches inside every match of the pattern; the encoded-run check that reads a run once answers as
 * the plain definition does; the injection gate, which hashes a word's stem and the part after an elision at the
 * word's end, still never clears a sentence the scorer would cut.
 */

const runs = { numRuns: 300 };

describe("pattern hints (patterns.ts): a simpler regex that every match holds", () => {
  const hinted = PII_GROUP.patterns.filter((p) => p.hint !== null);
  // Digits, every separator the patterns know, capitals for IBANs, and characters that end or break a match.
  const alphabet = fc.constantFrom(..."0123456789012345678901234567890123456789 -.()+ABDEGRXZ\n\t_:/x".split(""));
  const text = fc.array(alphabet, { maxLength: 80 }).map((cs) => cs.join(""));
  const known = ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "123-45-6789", "(555) 123-4567", "+1 555.123.4567", "555-123-4567", "8.8.8.8", "93.184.216.34", "1.2.3.4"];

  it("covers the digit patterns", () => {
    expect(hinted.map((p) => p.type).sort()).toEqual(["pii.credit_card", "pii.ip", "pii.phone", "pii.ssn"]);
  });

  it("every match of a pattern holds a match of its hint (random digit text, and the known shapes)", () => {
    const check = (s: string) => {
      for (const p of hinted) {
        for (const m of s.matchAll(new RegExp(p.re.source, p.re.flags.includes("g") ? p.re.flags : p.re.flags + "g"))) {
          expect((p.hint as RegExp).test(m[0]), `${p.type}: ${JSON.stringify(m[0])}`).toBe(true);
        }
      }
    };
    for (const k of known) check(`see ${k} here`);
    fc.assert(fc.property(text, (s) => check(s)), { numRuns: 2000 });
  });

  it("a long string finds exactly what a full scan finds, with and without a hint's match in it", () => {
    const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(50);
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.constantFrom(...known)), { maxLength: 6 }), fc.nat(filler.length), (parts, at) => {
        const value = filler.slice(0, at) + parts.join(" ") + filler.slice(at);
        const sites = [{ path: ["result", "text"], value }];
        expect(detectAllPatterns(sites, true)).toEqual(detectAllPatterns(sites, false));
      }),
      runs,
    );
  });

  it("the comparison is not between two empty lists", () => {
    const sites = [{ path: ["t"], value: "x ".repeat(3000) + "card 4111 1111 1111 1111, ssn 123-45-6789, call (555) 123-4567 from 93.184.216.34" }];
    expect(detectAllPatterns(sites, true).map((d) => d.type).sort()).toEqual(["pii.credit_card", "pii.ip", "pii.phone", "pii.ssn"]);
  });
});

describe("the encoded-run check (normalize-decode.ts) reads a run once and answers as its definition", () => {
  /** The definition: a maximal run of the base64 alphabet, 16 long or more, with a capital in it or hex digits alone. */
  const reference = (s: string) => [...s.matchAll(/[A-Za-z0-9+/_-]{16,}/g)].some((m) => /[A-Z]/.test(m[0]) || /^[0-9a-fA-F]+$/.test(m[0]));
  const alphabet = fc.constantFrom(..."aAbZ09f+/-_ .\u00e9\n:gF".split(""));

  it("on random text dense in the alphabet", () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }), (cs) => {
        const s = cs.join("");
        expect(hasEncodedRun(s)).toBe(reference(s));
      }),
      { numRuns: 5000 },
    );
  });

  it("on long strings (read from their code units), with the random text anywhere in them", () => {
    const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 1234 https://example.com/a?b=1 ~/notes.txt. ".repeat(45);
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }), fc.nat(filler.length), (cs, at) => {
        const s = filler.slice(0, at) + cs.join("") + filler.slice(at);
        expect(hasEncodedRun(s)).toBe(reference(s));
      }),
      runs,
    );
  });

  it("on a megabyte of each adversarial shape (windows that fail on their last character, one long run, runs of 15)", () => {
    for (const unit of ["a".repeat(15) + " ", "abcdef0123456789", "x/", "A", "0123456789abcde.", "\u00e9" + "a".repeat(15)]) {
      const s = unit.repeat(Math.ceil(1_048_576 / unit.length));
      expect(hasEncodedRun(s), JSON.stringify(unit)).toBe(reference(s));
      expect(hasEncodedRun(s.slice(0, 3000)), JSON.stringify(unit)).toBe(reference(s.slice(0, 3000)));
    }
  });

  it("on the shapes it is for", () => {
    for (const [s, want] of [
      ["/home/dev/project/src/components/nested/module/implementation.ts", false],
      ["see QUJDREVGR0hJSktMTU5PUA== here", true],
      ["x deadbeefdeadbeef y", true],
      ["x deadbeefdeadbeefg y", false],
      ["Refactor the session module so that request ids are correlated", false],
    ] as const) expect(hasEncodedRun(s), s).toBe(want);
  });
});

describe("the injection gate (injection-gate.ts): stems and elisions hashed at a word's end", () => {
  const ctx = { role: "content" as const, self: null, tools: new Set<string>() };
  // Words of the lexicon (some of 7 letters or more, so stems count), elided and hyphenated forms, and filler.
  const lexicon = [...wordsOf("override"), ...wordsOf("instr"), ...wordsOf("ai"), ...wordsOf("stealth"), ...wordsOf("comm")].slice(0, 400);
  const word = fc.oneof(
    fc.constantFrom(...lexicon),
    fc.constantFrom("l'assistente", "all'utente", "d'instructions", "qu'il", "l’IA", "self-hosted", "e-mail", "ignore-previous", "instrucciones", "iunstructions", "credentials", "passwords"),
    fc.constantFrom("the", "report", "quarterly", "revenue", "and", "you", "must", "not", "tell", "user", "send", "to", "keep", "secret", "now"),
  );
  const sep = fc.constantFrom(" ", " ", " ", ", ", ". ", "\n", "\n\n", "'", "-", ": ");
  const text = fc.array(fc.tuple(word, sep, fc.boolean()), { minLength: 1, maxLength: 60 }).map((ws) => ws.map(([w, s, up]) => (up ? w.toUpperCase() : w) + s).join(""));

  it("gated findings equal reading everything, on text dense in lexicon words", () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const threshold of [THRESHOLDS.balanced, THRESHOLDS.strict]) expect(judgeText(t, ctx, threshold)).toEqual(judgeText(t, ctx, threshold, {}, false));
      }),
      runs,
    );
  });

  it("elided words, stems and marker words are the events they were when hashed per character", () => {
    // Expected values from the gate before the change (the per-character hashes of the word, its stem and its elided part).
    const events = (t: string) => pieces(t).map((p) => [p.possible, p.hot]);
    const cases: [string, unknown][] = [
      ["l'assistente", [[true, [12]]]],
      ["l\u2019assistente", [[true, [12]]]],
      ["dell'assistente", [[true, [15]]]],
      ["d'l'assistente", [[true, [14]]]],
      ["all'assistente-bot", [[false, []]]],
      ["Credentials", [[true, [11]]]],
      ["cred-entials", [[false, []]]],
      ["<untrusted_content>", [[true, [18]]]],
      ["<retrieved-data>", [[true, [15]]]],
      ["see ~/.ssh/id_rsa", [[true, [10, 17]]]],
      ["Human: hi", [[true, [5]]]],
      ["SYSTEM NOTICE", [[true, [6]]]],
      ["END", [[true, [3]]]],
      ["ssh", [[false, []]]],
    ];
    for (const [t, want] of cases) expect(events(t), t).toEqual(want);
  });
});
