import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isoAt } from "../../src/decision-log/stamp.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { verifyFiles } from "../../src/decision-log/verify.js";

const dir = mkdtempSync(join(tmpdir(), "guardwire-line-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the log line's cached parts", () => {
  it("the time is toISOString's, whatever millisecond, second or order they come in", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 253402300799999 }), { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
        // Neighbouring milliseconds share the cached second, and crossing it changes it.
        const t = times[0] as number;
        for (const ms of [t, t + 1, t + 999, t + 1000, t - 1]) if (ms >= 0 && ms <= 253402300799999) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 300 },
    );
  });

  it("lines of interleaved sessions each carry their own session, route, transport and protocol, and chain", async () => {
    const file = join(dir, "interleaved.ndjson");
    const log = DecisionLog.open({ dest: file });
    const base: DecisionInput = { session: "", route: "", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "echo", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 1, digest: null };
    const order = [
      { session: "s-1", route: "a", transport: "stdio", protocol: "mcp" },
      { session: "s-1", route: "a", transport: "stdio", protocol: "mcp" },
      { session: "s-2", route: "a", transport: "stdio", protocol: "mcp" },
      { session: "s-2", route: "b", transport: "stdio", protocol: "mcp" },
      { session: "s-2", route: "b", transport: "websocket", protocol: "mcp" },
      { session: "s-2", route: "b", transport: "websocket", protocol: "a2a" },
      { session: "s-1", route: "a", transport: "stdio", protocol: "mcp" },
      { session: 'quote"d', route: "a\\b", transport: "stdio", protocol: "mcp" },
    ] as const;
    for (const o of order) log.write({ ...base, ...o });
    await log.close();
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => ({ session: l.session, route: l.route, transport: l.transport, protocol: l.protocol }))).toEqual(order);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: order.length });
  });

  it("digests and the writer's own hashes and times are quoted as they are; a clock's time, other digests and a damaged file's last hash are escaped", async () => {
    const file = join(dir, "quoting.ndjson");
    const base: DecisionInput = { session: "s", route: "r", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "echo", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 1, digest: null };
    const hex = "ab".repeat(32);
    const odd = ['x"y', "AB".repeat(32), "ab".repeat(31), "a\\b\n", `${hex}"`];
    // A file whose last line's hash is not hex (damaged by hand): the writer continues from it, and its lines stay JSON.
    writeFileSync(file, JSON.stringify({ v: 2, time: "2026-01-01T00:00:00.000Z", seq: 0, prev: "0".repeat(64), hash: 'not"hex' }) + "\n");
    let t = 0;
    const times = ["2026-11-24T01:02:03.004Z", 'odd"time', "+020000-01-01T00:00:00.000Z"];
    const log = DecisionLog.open({ dest: file, clock: () => ({ toISOString: () => times[t++ % times.length] }) as Date });
    for (const digest of [hex, null, ...odd]) log.write({ ...base, digest });
    await log.close();
    const lines = readFileSync(file, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.digest)).toEqual([hex, null, ...odd]);
    expect(lines[0]?.prev).toBe('not"hex');
    expect(lines.map((l) => l.time)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => times[i % times.length]));
    // Every new line's hash covers its exact bytes, chained to the one before it.
    const raw = readFileSync(file, "utf8").trim().split("\n").slice(1);
    let prev = 'not"hex';
    for (const line of raw) {
      const r = JSON.parse(line) as { prev: string; hash: string };
      expect(r.prev).toBe(prev);
      expect(createHash("sha256").update(line.slice(0, line.lastIndexOf(',"hash":'))).digest("hex")).toBe(r.hash);
      prev = r.hash;
    }
  });
});
