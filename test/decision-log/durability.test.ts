import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runTail } from "../../src/cli/tail.js";
import { lockPath } from "../../src/decision-log/lock.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { verifyChain, verifyFiles } from "../../src/decision-log/verify.js";
import { hashHex } from "../../src/decision-log/line.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { tempDir } from "../helpers.js";

const input = (i: number): DecisionInput => ({
  session: "s-1", route: "r", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: i,
  method: "tools/call", tool: "echo", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "m",
  evalUs: 3, digest: "ab".repeat(32),
});

/** A log whose directory is, for now, a file: opening it fails with ENOTDIR until `fix()`. */
function blockedLog() {
  const dir = tempDir();
  const blocker = join(dir, "logs");
  writeFileSync(blocker, "in the way");
  const file = join(blocker, "d.ndjson");
  return { file, fix: () => (rmSync(blocker), mkdirSync(blocker)) };
}

describe("a log that cannot be written", () => {
  it("says why in `failure`, holds the lines in order, and writes them when it can again", async () => {
    const { file, fix } = blockedLog();
    const problems: string[] = [];
    const log = DecisionLog.open({ dest: file, retryMs: 20, onProblem: (t) => problems.push(t) });
    expect(log.failure).toMatchObject({ file, code: "ENOTDIR" });
    for (let i = 0; i < 5; i++) log.write(input(i));
    fix();
    for (let i = 0; i < 100 && log.failure; i++) await new Promise((r) => setTimeout(r, 20));
    expect(log.failure).toBeUndefined();
    log.write(input(5));
    await log.close();
    expect(problems[0]).toContain(`cannot write the decision log ${file} (ENOTDIR)`);
    expect(problems[1]).toContain("writable again");
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 6 });
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 6 });
  });

  it("keeps at most maxHeldBytes, counts the rest, and says so in the chain once it recovers", async () => {
    const { file, fix } = blockedLog();
    const log = DecisionLog.open({ dest: file, retryMs: 20, maxHeldBytes: 1500 });
    for (let i = 0; i < 20; i++) log.write(input(i));
    fix();
    for (let i = 0; i < 100 && log.failure; i++) await new Promise((r) => setTimeout(r, 20));
    await log.close();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const note = lines.at(-1) as Record<string, unknown>;
    expect(note).toMatchObject({ kind: "log", reasonCode: ["LOG_LINES_DROPPED"] });
    expect(note.message).toMatch(/^\d+ decision line\(s\) were not kept/);
    expect(lines.length - 1 + Number.parseInt(note.message as string, 10)).toBe(20);
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true });
  });

  it("always: a barrier passes once the lines before it are synced, fails while the log cannot be written, and barriers pass in order", async () => {
    const { file, fix } = blockedLog();
    const log = DecisionLog.open({ dest: file, sync: "always", retryMs: 20 });
    const barrier = () => new Promise<string>((resolve) => log.barrier(() => resolve("written"), () => resolve("failed")));
    log.write(input(0));
    expect(await barrier()).toBe("failed");
    expect(log.failure).toMatchObject({ code: "ENOTDIR" });
    fix();
    for (let i = 0; i < 100 && log.failure; i++) await new Promise((r) => setTimeout(r, 20));
    log.write(input(1));
    expect(await barrier()).toBe("written");
    // Both lines are in the file now: the one held while failing, then the new one.
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 2 });
    // Turns one after another, while earlier fsyncs are still running: they pass in the order they were made.
    const order: number[] = [];
    const all: Promise<void>[] = [];
    for (let t = 0; t < 20; t++) {
      log.write(input(2 + t));
      all.push(new Promise((resolve) => log.barrier(() => (order.push(t), resolve()), () => resolve())));
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(all);
    expect(order).toEqual([...Array(20).keys()]);
    await log.close();
  });

  it("interval: a barrier passes once the lines before it are in the file, one write for the whole turn", async () => {
    const file = join(tempDir(), "d.ndjson");
    const log = DecisionLog.open({ dest: file, flushEveryMs: 60_000 });
    const passed: number[] = [];
    for (let i = 0; i < 3; i++) {
      log.write(input(i));
      log.barrier(() => passed.push(i), () => passed.push(-1));
    }
    // Nothing is written until the turn's commit, a microtask later; then all three lines at once.
    expect(readFileSync(file, "utf8")).toBe("");
    await Promise.resolve();
    expect(passed).toEqual([0, 1, 2]);
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 3 });
    await log.close();
  });
});

describe("verify and crashes", () => {
  it("accepts a torn line inside the log only when the next line is the writer's note naming it", async () => {
    const file = join(tempDir(), "d.ndjson");
    const log = DecisionLog.open({ dest: file });
    for (let i = 0; i < 3; i++) log.write(input(i));
    await log.close();
    const [a, b] = readFileSync(file, "utf8").split("\n") as [string, string];
    writeFileSync(file, `${a}\n${b.slice(0, 33)}`);
    const again = DecisionLog.open({ dest: file });
    again.write(input(9));
    await again.close();
    const text = readFileSync(file, "utf8");
    expect(verifyChain(text)).toMatchObject({ ok: true, lines: 3, recovered: 1 });
    // A note that names some other text does not excuse the broken line.
    const forged = text.replace(hashHex(b.slice(0, 33)), hashHex("something else"));
    expect(verifyChain(forged)).toMatchObject({ ok: false, line: 2 });
  });

  it("a torn line at the end of a rotated file, with the chain going on in the next, is not a crash", async () => {
    const dir = tempDir();
    const older = join(dir, "d.ndjson.1");
    const newer = join(dir, "d.ndjson");
    const log = DecisionLog.open({ dest: older });
    log.write(input(0));
    await log.close();
    writeFileSync(older, readFileSync(older, "utf8") + "{\"torn");
    const next = DecisionLog.open({ dest: newer });
    await next.close();
    writeFileSync(newer, "");
    expect(await verifyFiles([older, newer])).toMatchObject({ ok: false, file: older });
  });

  it("a restart reads the last line as verify does: one that is JSON with a hash and seq but no prev is a tear it closes, not a record it continues", async () => {
    // Before line.ts the writer had its own test of a record (hash and seq) and continued the chain from such a line,
    // which verify then reported as tampered (line 2: not a decision record).
    const file = join(tempDir(), "d.ndjson");
    let log = DecisionLog.open({ dest: file });
    log.write(input(0));
    await log.close();
    writeFileSync(file, readFileSync(file, "utf8") + '{"seq":7,"hash":"abc"}\n');
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 1, torn: { line: 2 } });
    log = DecisionLog.open({ dest: file });
    log.write(input(1));
    await log.close();
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 3, recovered: 1 });
  });
});

describe("one writer per log", () => {
  const owner = (pid: number, live: number[]) => ({ pid, alive: (p: number) => live.includes(p) });

  it("refuses a log a live process holds, takes over a stale lock, and lets go on close", async () => {
    const file = join(tempDir(), "d.ndjson");
    const first = DecisionLog.open({ dest: file, lock: owner(101, [101, 202]) });
    expect(readFileSync(lockPath(file), "utf8")).toBe("101\n");
    expect(() => DecisionLog.open({ dest: file, lock: owner(202, [101, 202]) })).toThrow(/already written by process 101/);
    // 101 is gone (killed): its lock is stale.
    const second = DecisionLog.open({ dest: file, lock: owner(202, [202]) });
    expect(readFileSync(lockPath(file), "utf8")).toBe("202\n");
    // The old holder closing late does not remove the new holder's lock.
    await first.close();
    expect(readFileSync(lockPath(file), "utf8")).toBe("202\n");
    await second.close();
    expect(existsSync(lockPath(file))).toBe(false);
  });
});

describe("tail of several logs", () => {
  it("prints the decisions of every file given", async () => {
    const dir = tempDir();
    const files = ["a.ndjson", "b.ndjson"].map((f) => join(dir, f));
    for (const [n, f] of files.entries()) {
      const log = DecisionLog.open({ dest: f });
      log.write({ ...input(n), route: `route-${n}` });
      await log.close();
    }
    const out = new PassThrough();
    let text = "";
    out.on("data", (d: Buffer) => (text += d.toString()));
    expect(await runTail({ file: files, follow: false, json: true, color: false }, out, new PassThrough())).toBe(0);
    expect(text.trimEnd().split("\n").map((l) => (JSON.parse(l) as { route: string }).route).sort()).toEqual(["route-0", "route-1"]);
  });
});
