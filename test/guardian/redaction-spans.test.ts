import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDetector, MessageScan } from "../../src/guardian/detectors/index.js";
import { findAll, type Detection } from "../../src/guardian/detectors/scan.js";
import { applyRedactions } from "../../src/guardian/edits.js";
import { evaluate } from "../../src/guardian/evaluate.js";
import { loadRules } from "../../src/guardian/rules/load.js";

/*
 * Redaction cuts exactly the span a detector found, never the first occurrence of the same text: in
 * `postgres://Xk9q2LmP7rT:Xk9q2LmP7rT@db/x` the password is the second copy, and the first (the user name) stays.
 */

const { ruleSet } = loadRules([{ file: "r.yaml", text: "name: r\nrules:\n  - { id: r, detect: [secrets], decision: modify, modify: [{ redact: detections, with: \"[R]\" }] }\n" }]);
const secrets = compileDetector("secrets");
if (typeof secrets === "string" || !ruleSet) throw new Error("setup");

const call = (value: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { a: value } } });
const redacted = (value: string) => {
  const params = evaluate("mcp", call(value), { direction: "outbound" }, ruleSet).modified?.params as { arguments: { a: string } } | undefined;
  return params?.arguments.a ?? value;
};

describe("redaction cuts the exact span", () => {
  it("the password of a URL whose user name is the same text", () => {
    expect(redacted("postgres://Xk9q2LmP7rT:Xk9q2LmP7rT@db/x")).toBe("postgres://Xk9q2LmP7rT:[R]@db/x");
    expect(redacted("mysql://r00tPw9x:r00tPw9x@localhost:3306/app")).toBe("mysql://r00tPw9x:[R]@localhost:3306/app");
    expect(redacted("amqp://gu3stQ7z:gu3stQ7z@rabbit:5672/")).toBe("amqp://gu3stQ7z:[R]@rabbit:5672/");
  });

  it("a group's span from findAll is where the group matched", () => {
    const [d] = findAll([{ path: ["x"], value: "ab=ab" }], /(ab)=(ab)/g, "t", 2);
    expect(d).toMatchObject({ start: 3, end: 5 });
  });

  // Random texts where the password also appears as the user name, in the host, before and after the URL.
  const word = fc.stringMatching(/^[A-Za-z0-9]{6,14}$/);
  const filler = fc.array(fc.constantFrom(" ", "\n", "x", "=", "db", ":", "@"), { maxLength: 6 }).map((xs) => xs.join(""));
  it("property: with repeated substrings, every detection's span holds exactly the secret placed there, and only spans are cut", () => {
    let judged = 0;
    fc.assert(
      fc.property(word, filler, filler, fc.boolean(), fc.constantFrom("postgres", "mysql", "amqp", "redis", "mongodb+srv"), (pw, before, after, sameUser, scheme) => {
        const user = sameUser ? pw : pw.slice(0, 3) + pw;
        const head = `${before}${pw} ${scheme}://${user}:`;
        const value = `${head}${pw}@${pw.toLowerCase()}.db.internal:5432/${pw}${after}`;
        const found = new MessageScan(call(value), "s", null).run(secrets).filter((d) => d.type === "secrets.connection_string");
        if (found.length === 0) return; // a value the detector does not take as a password (its own business)
        expect(found).toHaveLength(1);
        judged++;
        const d = found[0] as Detection;
        expect({ start: d.start, end: d.end }).toEqual({ start: head.length, end: head.length + pw.length });
        expect(redacted(value)).toBe(value.slice(0, d.start) + "[R]" + value.slice(d.end));
      }),
      { numRuns: 300 },
    );
    expect(judged).toBeGreaterThan(150);
  });

  it("property: applying redactions replaces exactly the given spans, whatever the text repeats", () => {
    const text = fc.array(fc.constantFrom("ab", "abab", "b", "a", "secret", "=", " "), { minLength: 1, maxLength: 30 }).map((xs) => xs.join(""));
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(8)), { maxLength: 5 }), (value, raw) => {
        // Non-overlapping spans, in order.
        const spans: { start: number; end: number }[] = [];
        let floor = 0;
        for (const [a, len] of raw.map(([a, l]) => [a % (value.length + 1), l] as const).sort((x, y) => x[0] - y[0])) {
          const start = Math.max(a, floor);
          const end = Math.min(value.length, start + len);
          if (start >= end) continue;
          spans.push({ start, end });
          floor = end;
        }
        const doc = applyRedactions({ params: { v: value } }, spans.map((s) => ({ type: "t", path: ["params", "v"], ...s, with: "<{type}>" })));
        let expected = value;
        for (const s of [...spans].reverse()) expected = expected.slice(0, s.start) + "<t>" + expected.slice(s.end);
        expect((doc.params as { v: string }).v).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
