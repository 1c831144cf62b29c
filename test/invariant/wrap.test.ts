import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers.js";
import { stopChild } from "../support/servers.js";
import { answerMismatch, cancelledIn, frameArb, materialize, mcpElementArb } from "../support/witness-frames.js";
import { MAX_FRAME_BYTES, Records, replayOf, WITNESS, WITNESS_RULES } from "../support/witness.js";

/*
 * Invariant, over `guardwire wrap` around a stdio witness: generated frames (garbage, batches, duplicate ids, oversize
 * and too-deep lines, blank lines, CRLF) written as a byte stream cut at generated points (partial lines). Checked:
 * (a) every line the server's stdin received pairs with an allow/modify line of the log; (b) every request line got
 * exactly one response line per id (batch replies counted element by element).
 */

const ANSWER_MS = 6000;

describe("invariant: guardwire wrap", () => {
  let wrap: ChildProcessWithoutNullStreams;
  let records: Records;
  const answers: unknown[] = [];
  const stdoutGarbage: string[] = [];

  const waitFor = async (ids: (string | number)[], from: number, cancelled: (string | number)[] = [], ms = ANSWER_MS): Promise<void> => {
    const until = Date.now() + ms;
    while (answerMismatch(ids, answers.slice(from), "missing", cancelled).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    const dir = tempDir("guardwire-invariant-wrap-");
    const witnessFile = join(dir, "witness-stdio.jsonl");
    const log = join(dir, "decisions.ndjson");
    records = new Records([witnessFile], log);
    const args = [CLI, "wrap", "--rules", WITNESS_RULES, "--log", log, "--max-frame-bytes", String(MAX_FRAME_BYTES), "--pins", join(dir, "pins.json"), "--no-watch", "--", process.execPath, WITNESS, "stdio"];
    wrap = spawn(process.execPath, args, { env: { ...process.env, WITNESS_FILE: witnessFile }, stdio: "pipe" });
    createInterface({ input: wrap.stdout }).on("line", (line) => {
      try {
        const v: unknown = JSON.parse(line);
        answers.push(...(Array.isArray(v) ? (v as unknown[]) : [v]));
      } catch {
        stdoutGarbage.push(line);
      }
    });
    wrap.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "agent", version: "1" } } }) + "\n");
    // The first answer also waits for wrap and its server to start: slow on a loaded machine (6 s were not enough).
    await waitFor(["init"], 0, [], 45_000);
    expect(answers.length).toBe(1);
    wrap.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  }, 60_000);
  afterAll(async () => {
    if (wrap) await stopChild(wrap);
  });

  it("every line the server received is in the log, and every request line got exactly one answer", async () => {
    const replay = replayOf("wrap");
    await fc.assert(
      fc.asyncProperty(
        fc.array(frameArb(mcpElementArb), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom("\n", "\r\n"),
        async (templates, cuts, eol) => {
          const frames = templates.map((t) => materialize(t, MAX_FRAME_BYTES));
          const bytes = Buffer.from(frames.map((f) => f.text + eol).join(""), "utf8");
          const expected = frames.flatMap((f) => f.expect);
          const from = answers.length;
          // The stream cut at generated points, so lines arrive in pieces (the server must see whole lines only).
          const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
          let prev = 0;
          for (const c of [...at, bytes.length]) {
            if (c > prev && !wrap.stdin.write(bytes.subarray(prev, c))) await new Promise((r) => wrap.stdin.once("drain", r));
            prev = Math.max(prev, c);
          }
          const cancelled = cancelledIn(frames);
          await waitFor(expected, from, cancelled);
          if (cancelled.length > 0) {
            // An answer the cancellation came too late to stop may still be on its way: let it land in this run.
            for (let seen = -1; answers.length !== seen; ) {
              seen = answers.length;
              await new Promise((r) => setTimeout(r, 300));
            }
          }
          expect(await records.settle(), "reached the server without an allow in the log").toEqual([]);
          expect(answerMismatch(expected, answers.slice(from), "any", cancelled), `answers to ${frames.map((f) => f.text.slice(0, 200)).join(" ⏎ ")}`).toEqual([]);
          expect(stdoutGarbage).toEqual([]);
        },
      ),
      { ...replay, numRuns: 100, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false },
    );
    expect(records.deliveries).toBeGreaterThan(1);
  }, 120_000);
});
