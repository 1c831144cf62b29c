import { readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headPath, writeHead } from "../../src/decision-log/head.js";
import type { ApprovalStep, DecisionInput } from "../../src/decision-log/record.js";
import { verifyChain, verifyFiles } from "../../src/decision-log/verify.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { tempDir } from "../helpers.js";

/**
 * The line format's invariants (line.ts), over arbitrary records: whatever the writer writes verifies and says what it
 * was given; any one byte changed in a written log is caught by verify; a log cut anywhere in its last line (a crash
 * mid-write) is never read as tampered, and a restart on it continues a chain that verifies whole.
 */

const dir = tempDir("guardwire-line-props-");
let n = 0;
const freshFile = () => join(dir, `p${n++}.ndjson`);

/** Text as records carry it: ASCII, JSON's escapes, control characters, multi-byte UTF-8, emoji, lone surrogates. */
const special = fc.constantFrom('"', "\\", "\n", "\r", "\t", "\u0000", "\u001f", "\u007f", "\u2028", "ü", "✓", "😀", "\ud800", "\udfff", "/", "<", "é");
const text = (maxLength = 12) => fc.string({ unit: fc.oneof({ arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 4 }, { arbitrary: special, weight: 1 }, { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 1 }), maxLength });
const maybe = <T,>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const hex64 = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 });
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)));

const approval: fc.Arbitrary<ApprovalStep> = fc.record(
  {
    id: text(8), step: fc.constantFrom("requested", "elicitation", "decided", "remembered"), channels: fc.array(text(6), { maxLength: 3 }),
    channel: text(6), outcome: fc.constantFrom("approved", "refused", "timeout", "cancelled", "shutdown"), by: text(6), afterMs: fc.nat(),
    reason: text(), remember: fc.constantFrom("once", "session", "always"), argsDigest: hex64, expires: text(24),
  },
  { requiredKeys: ["id", "step"] },
);

const input: fc.Arbitrary<DecisionInput> = fc
  .record({
    session: text(), route: text(), transport: fc.oneof(fc.constantFrom("stdio", "streamable-http", "a2a-jsonrpc"), text()), protocol: fc.constantFrom("mcp", "a2a", "aos"),
    direction: fc.constantFrom("outbound", "inbound"), kind: fc.constantFrom("request", "response", "notification", "event", "log", "refused", "control"),
    id: fc.oneof(fc.constant(null), fc.integer(), text()), method: fc.option(text()), tool: fc.option(text()), agent: fc.option(text()),
    decision: fc.constantFrom("allow", "deny", "modify", "ask"), mode: fc.constantFrom("enforce", "audit"), rules: fc.array(text(), { maxLength: 3 }),
    reasonCode: fc.array(text(), { maxLength: 3 }), message: text(40), evalUs: number, digest: fc.oneof(fc.constant(null), hex64, text(64)),
    ruleset: maybe(fc.oneof(hex64, text())), replica: maybe(text()), failOpen: maybe(fc.constant(true)), preview: maybe(text(40)), peer: maybe(text()),
    task: maybe(text()), context: maybe(text()), torn: maybe(hex64), approval: maybe(approval),
    // A field the writer does not know (its generic path).
    extra: maybe(fc.oneof(text(), fc.dictionary(text(4), fc.oneof(text(), number, fc.boolean(), fc.constant(null)), { maxKeys: 3 }))),
  })
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as DecisionInput);

const writerOptions = fc.record({ replica: maybe(text()), ruleset: maybe(fc.oneof(hex64, text())), clock: fc.boolean() });

async function writeLog(file: string, inputs: DecisionInput[], o: { replica?: string; ruleset?: string; clock: boolean }): Promise<void> {
  let ms = Date.UTC(2026, 10, 26, 3, 59, 59, 990);
  const log = DecisionLog.open({ dest: file, replica: o.replica, ruleset: o.ruleset === undefined ? undefined : () => o.ruleset as string, clock: o.clock ? () => new Date(ms++) : undefined });
  for (const i of inputs) log.write(i);
  await log.close();
}

/** What JSON makes of a value written and read back (undefined fields dropped; numbers as JSON writes them). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

const runs = { numRuns: 120 };

describe("the line format's invariants, for any record", () => {
  it("every line the writer writes verifies, and reads back as what it was given", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 6 }), writerOptions, async (inputs, o) => {
        const file = freshFile();
        await writeLog(file, inputs, o);
        const text = readFileSync(file, "utf8");
        expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: inputs.length, torn: undefined, recovered: 0 });
        const lines = text.split("\n");
        expect(lines.pop()).toBe("");
        lines.forEach((line, seq) => {
          const { v, time, prev, hash, ...rest } = JSON.parse(line) as Record<string, unknown>;
          expect([v, typeof time, typeof prev, typeof hash, rest.seq]).toEqual([2, "string", "string", "string", seq]);
          const given = inputs[seq] as DecisionInput;
          const stamped = { ...given, ruleset: given.ruleset ?? o.ruleset, replica: given.replica ?? o.replica, seq };
          expect(rest).toEqual(asJson(stamped));
        });
      }),
      runs,
    );
  }, 120_000);

  it("any single byte changed anywhere in a written log is caught: tampered with the chain head beside it, never intact without it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 4 }), writerOptions, fc.nat(), fc.integer({ min: 1, max: 255 }), async (inputs, o, at, delta) => {
        const file = freshFile();
        await writeLog(file, inputs, o);
        const bytes = readFileSync(file);
        const pos = at % bytes.length;
        bytes[pos] = ((bytes[pos] as number) + delta) % 256;
        writeFileSync(file, bytes);
        const withHead = await verifyFiles([file]);
        expect(withHead.ok, `byte ${pos} changed: ${JSON.stringify(withHead)}`).toBe(false);
        rmSync(headPath(file));
        const alone = await verifyFiles([file]);
        // Without its head a log's last line cut or changed into something unreadable is indistinguishable from a tear
        // (exit 3): never intact.
        expect(alone.ok && alone.torn === undefined, `byte ${pos} changed, no head: ${JSON.stringify(alone)}`).toBe(false);
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it("a log cut anywhere in its last line by a crash reads as torn, never tampered, and a restart continues a chain that verifies whole", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(input, { minLength: 1, maxLength: 4 }), fc.array(input, { minLength: 1, maxLength: 2 }), writerOptions, fc.nat(), fc.nat(), fc.boolean(),
        async (inputs, after, o, cutAt, headAt, keepHead) => {
          const file = freshFile();
          await writeLog(file, inputs, o);
          const text = readFileSync(file);
          // The last line as the crash left it: any prefix of it, from nothing to the whole line with its newline.
          const lastStart = text.lastIndexOf(0x0a, text.length - 2) + 1;
          const cut = lastStart + (cutAt % (text.length - lastStart + 1));
          truncateSync(file, cut);
          const whole = inputs.length - 1 + (cut >= text.length - 1 ? 1 : 0);
          // The head the crash left: one naming a line on disk (it may lag the log), or none yet.
          rmSync(headPath(file));
          const records = readFileSync(file, "utf8").split("\n").slice(0, whole).map((l) => JSON.parse(l) as { seq: number; hash: string; time: string });
          const named = records[headAt % Math.max(1, records.length)];
          if (keepHead && named) writeHead(file, { seq: named.seq, hash: named.hash, time: named.time });

          const crashed = await verifyFiles([file]);
          expect(crashed, `cut at ${cut} of ${text.length}`).toMatchObject({ ok: true, lines: whole });
          const torn = cut > lastStart && cut < text.length - 1;
          expect(crashed.ok && crashed.torn !== undefined).toBe(torn);

          await writeLog(file, after, o);
          const restarted = await verifyFiles([file]);
          expect(restarted, `cut at ${cut} of ${text.length}`).toMatchObject({ ok: true, lines: whole + (torn ? 1 : 0) + after.length, torn: undefined, recovered: torn ? 1 : 0 });
          const chain = verifyChain(readFileSync(file, "utf8"));
          expect(chain.ok && chain.torn).toBe(undefined);
        },
      ),
      runs,
    );
  }, 120_000);

  it("every cut of a line of multi-byte characters, mid-character included, is a tear a restart closes", async () => {
    const rec = { session: "s", route: "r", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "ü", agent: null, decision: "deny", mode: "enforce", rules: [], reasonCode: [], message: "ü✓😀\ud800é", evalUs: 1, digest: null } as DecisionInput;
    const file = freshFile();
    await writeLog(file, [rec, rec], { clock: true });
    const text = readFileSync(file);
    const lastStart = text.lastIndexOf(0x0a, text.length - 2) + 1;
    for (let cut = lastStart + 1; cut < text.length - 1; cut++) {
      // Every cut in or next to a multi-byte character, and one in 16 elsewhere.
      if ((text[cut] as number) < 0x80 && (text[cut - 1] as number) < 0x80 && cut % 16 !== 0) continue;
      writeFileSync(file, text.subarray(0, cut));
      rmSync(headPath(file), { force: true });
      expect(await verifyFiles([file]), `cut at ${cut}`).toMatchObject({ ok: true, lines: 1, torn: { line: 2 } });
      await writeLog(file, [rec], { clock: true });
      expect(await verifyFiles([file]), `cut at ${cut}`).toMatchObject({ ok: true, lines: 3, torn: undefined, recovered: 1 });
    }
  });
});
