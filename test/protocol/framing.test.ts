import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, notificationSchema, requestSchema, responseSchema } from "../../src/protocol/json-rpc.js";
import { decodeUtf8, LineFramer } from "../../src/protocol/ndjson.js";
import { maxDepthOf, parseJson, peekId } from "../../src/protocol/safe-json.js";
import { canonicalize } from "../../src/protocol/canonical.js";

function frames(max: number, chunks: (string | Uint8Array)[]) {
  const seen: (string | { oversize: string; bytes: number })[] = [];
  const f = new LineFramer(max, {
    onLine: (l) => seen.push(decodeUtf8(l)),
    onOversize: (h, bytes) => seen.push({ oversize: decodeUtf8(h).slice(0, 20), bytes }),
  });
  for (const c of chunks) f.push(typeof c === "string" ? new TextEncoder().encode(c) : c);
  f.end();
  return seen;
}

describe("NDJSON framing", () => {
  it("splits lines across arbitrary chunk boundaries, drops blank lines and CR", () => {
    expect(frames(100, ['{"a"', ':1}\n\n{"b":2}\r', "\n", '{"c":3}'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("refuses an over-limit line without buffering it, keeping its start, and goes on", () => {
    const big = '{"jsonrpc":"2.0","id":77,"method":"x","params":"' + "a".repeat(500) + '"}';
    const out = frames(100, [big.slice(0, 60), big.slice(60), '\n{"ok":1}\n']);
    expect(out).toEqual([{ oversize: '{"jsonrpc":"2.0","id', bytes: big.length }, '{"ok":1}']);
  });

  it("is linear on a 40 MB line arriving in 64 KiB chunks", () => {
    const chunk = new Uint8Array(65536).fill(0x61);
    const f = new LineFramer(16 * 1024 * 1024, { onLine: () => {}, onOversize: () => {} });
    const t = performance.now();
    for (let i = 0; i < 640; i++) f.push(chunk);
    f.push(new Uint8Array([0x0a]));
    // Quadratic rescanning of 40 MB would take minutes; this is a sanity bound, not a speed target.
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it("keeps multi-byte characters split across chunks intact", () => {
    const bytes = new TextEncoder().encode('"é😀"\n');
    expect(frames(100, [bytes.subarray(0, 3), bytes.subarray(3)])).toEqual(['"é😀"']);
  });
});

describe("safe JSON", () => {
  it("refuses 200k-deep nesting without recursion, reading the id when it can", () => {
    const deep = '{"jsonrpc":"2.0","id":5,"method":"m","params":' + "[".repeat(200_000) + "]".repeat(200_000) + "}";
    const r = parseJson(deep, { maxDepth: 128 });
    expect(r).toMatchObject({ ok: false, code: "TOO_DEEP", id: 5 });
  });

  it("ignores brackets inside strings when measuring depth", () => {
    expect(maxDepthOf('{"a":"[[[[{{{\\"]]]"}', 10)).toBe(1);
  });

  it("parses __proto__ and constructor as plain own keys, polluting nothing", () => {
    const r = parseJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', { maxDepth: 10 });
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (r.ok) expect(Object.keys(r.value as object)).toEqual(["__proto__", "constructor"]);
  });

  it("reports unparsable text as a parse error with id null", () => {
    expect(parseJson("{nope", { maxDepth: 10 })).toMatchObject({ ok: false, code: "PARSE_ERROR", id: null });
  });

  it("peeks ids of either type", () => {
    expect(peekId('{"jsonrpc":"2.0","id":"abc","method"')).toBe("abc");
    expect(peekId('{"id": -12, ')).toBe(-12);
    expect(peekId('{"method":"x"')).toBeNull();
  });
});

describe("JSON-RPC envelope", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "a" }, "request"],
    [{ jsonrpc: "2.0", id: "x", method: "a", params: [1] }, "request"],
    [{ jsonrpc: "2.0", method: "a" }, "notification"],
    [{ jsonrpc: "2.0", id: 1, result: null }, "response"],
    [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } }, "response"],
  ])("%j is a %s", (msg, kind) => {
    expect(classify(msg)).toMatchObject({ ok: true, kind });
  });

  it.each([
    [{ jsonrpc: "1.0", id: 1, method: "a" }, 1],
    [{ jsonrpc: "2.0", id: 1, method: 5 }, 1],
    [{ jsonrpc: "2.0", id: 1, method: "a", params: "s" }, 1],
    [{ jsonrpc: "2.0", id: { x: 1 }, method: "a" }, null],
    [{ jsonrpc: "2.0", id: 2, result: 1, error: { code: 1, message: "" } }, 2],
    [{ jsonrpc: "2.0", id: 2, error: { code: "x", message: "" } }, 2],
    ["a string", null],
    [[1], null],
  ])("%j is invalid (id %s)", (msg, id) => {
    expect(classify(msg)).toMatchObject({ ok: false, id });
  });
});

describe("canonical JSON", () => {
  it("sorts keys at every level and has no whitespace", () => {
    expect(canonicalize({ b: 1, a: [{ d: 1, c: "é" }], "": null })).toBe('{"":null,"a":[{"c":"é","d":1}],"b":1}');
  });

  it("is JSON.stringify's text with every object's keys in the built-in sort's order, few keys or many", () => {
    // The reference: keys sorted by Array.prototype.sort (UTF-16 code units), everything else as JSON.stringify writes it
    // (not through an object: JS would put integer-like keys such as "10" first again).
    const reference = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(reference).join(",")}]`
        : v !== null && typeof v === "object"
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`)
              .join(",")}}`
          : JSON.stringify(v);
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 3 }), fc.constantFrom("a", "B", "_meta", "é", "\ud83d\ude00", "\ud800", "10", "9", ""));
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string({ unit: "binary", maxLength: 6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: "small" }, tie("leaf"), fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(key, tie("node"), { maxKeys: 40 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        // Through the wire form, as guardwire sees messages (JSON.parse makes "__proto__" an own key, numbers normal).
        const parsed: unknown = JSON.parse(JSON.stringify(v));
        expect(canonicalize(parsed)).toBe(reference(parsed));
      }),
      { numRuns: 500 },
    );
  });
});

describe("classify: the fast path agrees with the zod schemas", () => {
  const cases: unknown[] = [
    { jsonrpc: "2.0", id: 1, method: "m" },
    { jsonrpc: "2.0", id: "a", method: "m", params: [] },
    { jsonrpc: "2.0", id: 1, method: "m", params: null },
    { jsonrpc: "2.0", id: 1, method: "m", params: 3 },
    { jsonrpc: "2.0", id: null, method: "m" },
    { jsonrpc: "2.0", id: true, method: "m" },
    { jsonrpc: "1.0", id: 1, method: "m" },
    { jsonrpc: "2.0", method: "n", params: {} },
    { jsonrpc: "2.0", method: 5 },
    { jsonrpc: "2.0", id: 1, result: null },
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } },
    { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } },
    { jsonrpc: "2.0", id: 1, error: { code: 1 } },
    { jsonrpc: "2.0", result: 1 },
    { jsonrpc: "2.0", id: {}, result: 1 },
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c]))("%s", (_, c) => {
    const o = c as Record<string, unknown>;
    const schemaOk =
      "method" in o
        ? !("result" in o || "error" in o) && ("id" in o ? requestSchema : notificationSchema).safeParse(o).success
        : "result" in o !== "error" in o && responseSchema.safeParse(o).success;
    expect(classify(c).ok).toBe(schemaOk);
  });
});

describe("writeCanonical: the same text as canonicalize, in pieces", () => {
  it("agrees on a large message with surrogate pairs across slice boundaries and escapes", async () => {
    const { writeCanonical } = await import("../../src/protocol/canonical.js");
    const big = ("a\u{1F600}\"\\\n".repeat(70_000) + "é").repeat(2);
    const value = { z: [1, { big, y: null }], a: "x", "\u00e9": big.slice(0, 300_001) };
    const pieces: string[] = [];
    writeCanonical(value, (p) => void pieces.push(p));
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe(canonicalize(value));
  });
});
