import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { getEventListeners } from "node:events";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runTail } from "../../src/cli/tail.js";
import { runVerify } from "../../src/cli/verify.js";
import { followFile } from "../../src/decision-log/reader.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { GENESIS } from "../../src/decision-log/record.js";
import { canonicalize } from "../../src/protocol/canonical.js";
import { verifyChain, verifyFiles } from "../../src/decision-log/verify.js";
import { hashHex } from "../../src/decision-log/line.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { tempDir } from "../helpers.js";

const input = (i: number, over: Partial<DecisionInput> = {}): DecisionInput => ({
  session: "s-1", route: "r", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: i,
  method: "tools/call", tool: i % 2 ? "echo" : "get-sum", agent: null, decision: i % 3 === 0 ? "deny" : "allow", mode: "enforce",
  rules: i % 3 === 0 ? ["r1"] : [], reasonCode: [], message: "m", evalUs: 3, digest: "ab".repeat(32), ...over,
});

const sink = () => {
  const s = new PassThrough();
  let text = "";
  s.on("data", (d: Buffer) => (text += d.toString()));
  return { s, text: () => text };
};

async function writeLog(file: string, n: number, opts: { maxBytes?: number } = {}) {
  const log = DecisionLog.open({ dest: file, ...opts, clock: () => new Date("2026-11-22T12:00:00Z") });
  for (let i = 0; i < n; i++) log.write(input(i));
  await log.close();
  return readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).slice(-n);
}

describe("the decision log writer", () => {
  it("writes exactly the record's fields, in order, one line each, chained from genesis", async () => {
    const file = join(tempDir(), "d.ndjson");
    const records = await writeLog(file, 3);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const first = JSON.parse(lines[0] as string);
    expect(Object.keys(first)).toEqual(["v", "time", "seq", "session", "route", "transport", "protocol", "direction", "kind", "id", "method", "tool", "agent", "decision", "mode", "rules", "reasonCode", "message", "evalUs", "digest", "prev", "hash"]);
    expect(first).toEqual(records[0]);
    expect(first).toMatchObject({ ...input(0), v: 2, time: "2026-11-22T12:00:00.000Z", seq: 0 });
    // Version 2: the hash covers the line's exact bytes before it.
    const line = lines[0] as string;
    expect(line.endsWith(`,"hash":"${first.hash}"}`)).toBe(true);
    expect(first.hash).toBe(hashHex(line.slice(0, line.lastIndexOf(',"hash":'))));
    expect(first.prev).toBe(GENESIS);
    expect(JSON.parse(lines[1] as string).prev).toBe(first.hash);
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 3 });
  });

  it("continues an existing log's chain when reopened", async () => {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, 2);
    const more = await writeLog(file, 2);
    expect(more[0]?.seq).toBe(2);
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 4, lastSeq: 3 });
  });

  it("rotates by size and keeps the chain across files", async () => {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, 20, { maxBytes: 4000 });
    expect(existsSync(`${file}.2`)).toBe(true);
    const files = [5, 4, 3, 2, 1].map((i) => `${file}.${i}`).filter(existsSync).concat(file);
    expect(await verifyFiles(files)).toMatchObject({ ok: true, lines: 20 });
    // The newest file alone does not start at genesis: verify says so instead of passing it…
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: 1 });
    // …unless told the older files are gone, and then the rest of the chain is still checked.
    expect(await verifyFiles([file], { partial: true })).toMatchObject({ ok: true });
    // Files given out of order break the chain.
    expect((await verifyFiles([...files].reverse())).ok).toBe(false);
  });

  it("guardwire verify checks every chain in the files or directory it is given, each named; the worst result decides", async () => {
    const dir = tempDir();
    const rotated = join(dir, "replica-a.ndjson");
    await writeLog(rotated, 20, { maxBytes: 4000 });
    await writeLog(join(dir, "replica-b.ndjson"), 3);
    const oldest = [5, 4, 3, 2, 1].map((i) => `${rotated}.${i}`).find(existsSync) as string;
    rmSync(oldest); // rotated away
    const out = sink();
    const err = sink();
    expect(await runVerify([dir], out.s, err.s)).toBe(1); // replica-a's oldest files were rotated away
    expect(err.text()).toMatch(/replica-a\.ndjson\.\d:1: tampered/);
    expect(out.text()).toMatch(/replica-b\.ndjson: ok: 3 lines/);
    const partial = sink();
    expect(await runVerify([dir], partial.s, sink().s, { partial: true })).toBe(0);
    expect(partial.text().trimEnd().split("\n")).toEqual([expect.stringMatching(/^.*replica-a\.ndjson: ok: \d+ lines/), expect.stringMatching(/^.*replica-b\.ndjson: ok: 3 lines/)]);
    // Files given in any order: a log's rotated files are put oldest first.
    const files = [1, 2, 3, 4, 5].map((i) => `${rotated}.${i}`).filter(existsSync);
    expect(await runVerify([rotated, ...files], sink().s, sink().s, { partial: true })).toBe(0);
    // One changed line in one chain: that chain is named, the other still reported ok.
    const b = join(dir, "replica-b.ndjson");
    writeFileSync(b, readFileSync(b, "utf8").replace('"message":"m"', '"message":"M"'));
    const bad = sink();
    expect(await runVerify([dir], sink().s, bad.s, { partial: true })).toBe(1);
    expect(bad.text()).toMatch(/replica-b\.ndjson:1: tampered/);
    expect(await runVerify([tempDir()], sink().s, sink().s)).toBe(2);
  });

  it("flushSync puts every line on disk at once and refreshes the chain head", () => {
    const file = join(tempDir(), "d.ndjson");
    const log = DecisionLog.open({ dest: file });
    for (const i of [0, 1, 2]) log.write(input(i));
    log.flushSync();
    const last = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n")[2] as string);
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(3);
    expect(JSON.parse(readFileSync(`${file}.head`, "utf8"))).toMatchObject({ seq: 2, hash: last?.hash });
  });
});

describe("the chain head while lines keep coming", () => {
  it("follows the lines on its own cadence, never names a line that is not in the file, and catches up when writes stop", async () => {
    const file = join(tempDir(), "d.ndjson");
    const log = DecisionLog.open({ dest: file, flushEveryMs: 10, headEveryMs: 150 });
    const head = () => JSON.parse(readFileSync(`${file}.head`, "utf8")) as { seq: number };
    const linesOnDisk = () => readFileSync(file, "utf8").trimEnd().split("\n").length;
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      log.write(input(i));
      await new Promise((r) => setTimeout(r, 10));
      try {
        const h = head().seq;
        expect(h).toBeLessThan(linesOnDisk());
        seen.push(h);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
    }
    // About 400 ms of writes with a head every 150 ms: a few distinct heads, not one per flush.
    const distinct = new Set(seen).size;
    expect(distinct).toBeGreaterThanOrEqual(1);
    expect(distinct).toBeLessThan(10);
    await new Promise((r) => setTimeout(r, 300));
    expect(head().seq).toBe(39);
    await log.close();
  });
});

describe("the writer never throws at the proxy", () => {
  it("ignores maxBytes when logging to stderr", () => {
    let text = "";
    const stderr = new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) });
    const log = DecisionLog.open({ dest: "-", stderr, maxBytes: 500 });
    for (let i = 0; i < 10; i++) log.write(input(i));
    log.flushSync();
    expect(verifyChain(text)).toMatchObject({ ok: true, lines: 10 });
    expect(log.error).toBeUndefined();
  });

  it("remembers a broken stderr pipe instead of crashing", async () => {
    const stderr = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error("write EPIPE"), { code: "EPIPE" })) });
    const log = DecisionLog.open({ dest: "-", stderr });
    log.write(input(0));
    log.flushSync();
    await new Promise((r) => setImmediate(r));
    log.write(input(1));
    log.flushSync();
    expect((log.error as NodeJS.ErrnoException | undefined)?.code).toBe("EPIPE");
  });

  it("keeps appending to the current file when rotation fails", async () => {
    const file = join(tempDir(), "d.ndjson");
    mkdirSync(`${file}.1`);
    writeFileSync(`${file}.1/x`, "in the way");
    const log = DecisionLog.open({ dest: file, maxBytes: 600, keep: 1 });
    for (let i = 0; i < 6; i++) log.write(input(i));
    await log.close();
    expect(log.error).toBeDefined();
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 6 });
  });

  it("starts a new line after a torn last line, continuing from the last complete record", async () => {
    const file = join(tempDir(), "d.ndjson");
    const [first, second] = readFileSync((await writeLog(file, 2), file), "utf8").split("\n") as [string, string];
    writeFileSync(file, first + "\n" + second.slice(0, 40));
    const log = DecisionLog.open({ dest: file });
    log.write(input(2));
    await log.close();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    // The torn line stays as it was; a chained note names it, and the chain goes on from the line before it.
    expect(lines[1]).toBe(second.slice(0, 40));
    expect(JSON.parse(lines[2] as string)).toMatchObject({ seq: 1, kind: "log", reasonCode: ["LOG_RECOVERED"], torn: hashHex(second.slice(0, 40)), prev: JSON.parse(first).hash });
    expect(JSON.parse(lines[3] as string)).toMatchObject({ seq: 2 });
    expect(verifyChain(readFileSync(file, "utf8"))).toMatchObject({ ok: true, lines: 3, recovered: 1 });
  });
});

describe("verify", () => {
  async function fixture(n = 6) {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, n);
    return { file, lines: readFileSync(file, "utf8").trimEnd().split("\n") };
  }
  const write = (file: string, lines: string[]) => writeFileSync(file, lines.join("\n") + "\n");

  it("passes an untouched log", async () => {
    const { file } = await fixture();
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 6 });
  });

  it.each([1, 3, 6])("names line %i when it is edited", async (n) => {
    const { file, lines } = await fixture();
    lines[n - 1] = (lines[n - 1] as string).replace('"evalUs":3', '"evalUs":4');
    write(file, lines);
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: n });
  });

  it.each([1, 3, 6])("names line %i when that line is deleted", async (n) => {
    const { file, lines } = await fixture();
    write(file, lines.filter((_l, i) => i !== n - 1));
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: n });
  });

  it("catches reordered lines and appended garbage", async () => {
    const { file, lines } = await fixture();
    write(file, [lines[0], lines[2], lines[1], ...lines.slice(3)] as string[]);
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: 2 });
    write(file, lines);
    // Garbage as the last line reads as a torn line (a crash); anywhere else it is tampering.
    appendFileSync(file, "garbage\n");
    expect(await verifyFiles([file])).toMatchObject({ ok: true, torn: { line: 7 } });
    appendFileSync(file, (lines[5] as string) + "\n");
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: 7 });
  });
});

describe("verify, across record versions", () => {
  /** Version-1 lines, as guardwire wrote them before record version 2: hash = sha256(prev + canonical JSON without hash). */
  function v1Lines(n: number, from: { prev: string; seq: number } = { prev: GENESIS, seq: 0 }): string[] {
    const out: string[] = [];
    let prev = from.prev;
    for (let i = 0; i < n; i++) {
      const rec = { time: "2026-11-20T12:00:00.000Z", seq: from.seq + i, ...input(i), prev };
      const hash = hashHex(prev + canonicalize(rec));
      out.push(JSON.stringify({ ...rec, hash }));
      prev = hash;
    }
    return out;
  }
  const write = (file: string, lines: string[]) => writeFileSync(file, lines.join("\n") + "\n");

  it("verifies a version-1 log, and one a newer writer continued in version 2", async () => {
    const file = join(tempDir(), "d.ndjson");
    const old = v1Lines(4);
    write(file, old);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 4 });
    // Reopened by this writer: it continues the old chain with version-2 lines.
    const more = await writeLog(file, 3);
    expect(more.map((r) => [r.v, r.seq])).toEqual([[2, 4], [2, 5], [2, 6]]);
    expect(more[0]?.prev).toBe(JSON.parse(old[3] as string).hash);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 7 });
  });

  it.each([2, 6])("names line %i of a mixed log when it is edited, deleted or moved", async (n) => {
    const file = join(tempDir(), "d.ndjson");
    write(file, v1Lines(4));
    await writeLog(file, 3);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    write(file, lines.map((l, i) => (i === n - 1 ? l.replace('"evalUs":3', '"evalUs":4') : l)));
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: n });
    write(file, lines.filter((_l, i) => i !== n - 1));
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: n });
    write(file, lines.map((l, i) => (i === n - 1 ? (lines[n] as string) : i === n ? (lines[n - 1] as string) : l)));
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: n });
  });

  it("catches a version-2 line changed in ways its parsed fields do not show, or passed off as another version", async () => {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, 3);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const edits: ((l: string) => string)[] = [
      (l) => l.replace('"seq":1,', '"seq": 1,'), // whitespace: the same record, other bytes
      (l) => l.replace('"digest":', '"route":"r","digest":'), // a duplicate key with the same value
      (l) => l.replace('"v":2,', ""), // dropped to version 1 (its hash was not made that way)
      (l) => l.replace('"v":2,', '"v":3,'),
      (l) => l.replace(/"}$/, '" }'),
    ];
    for (const edit of edits) {
      const changed = edit(lines[1] as string);
      expect(changed).not.toBe(lines[1]);
      write(file, [lines[0], changed, lines[2]] as string[]);
      expect(await verifyFiles([file])).toMatchObject({ ok: false, line: 2 });
    }
  });
});

describe("tail", () => {

  it("prints readable lines, filtered, or the raw JSON", async () => {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, 6);
    const out = sink();
    expect(await runTail({ file, follow: false, json: false, color: false, decision: ["deny"] }, out.s, sink().s)).toBe(0);
    const lines = out.text().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/DENY\s+outbound request\s+tools\/call get-sum #0\s+\[r1\]/);
    const json = sink();
    await runTail({ file, follow: false, json: true, color: false, tool: ["ec*"] }, json.s, sink().s);
    expect(json.text().trimEnd().split("\n").map((l) => JSON.parse(l).tool)).toEqual(["echo", "echo", "echo"]);
  });

  it("a missing file is an error without -f", async () => {
    const err = sink();
    expect(await runTail({ file: join(tempDir(), "none.ndjson"), follow: false, json: false, color: false }, sink().s, err.s)).toBe(1);
    expect(err.text()).toContain("no decision log");
  });

  it("-f follows new lines and survives rotation until aborted", async () => {
    const file = join(tempDir(), "d.ndjson");
    await writeLog(file, 1);
    const out = sink();
    const ac = new AbortController();
    const done = runTail({ file, follow: true, json: true, color: false, signal: ac.signal, pollMs: 20 }, out.s, sink().s);
    const waitFor = async (n: number) => {
      for (let i = 0; i < 200 && out.text().split("\n").filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await waitFor(1);
    const log = DecisionLog.open({ dest: file });
    log.write(input(1));
    log.flushSync();
    await waitFor(2);
    renameSync(file, `${file}.1`);
    log.write(input(2));
    await log.close();
    const fresh = DecisionLog.open({ dest: file });
    fresh.write(input(3));
    await fresh.close();
    await waitFor(4);
    ac.abort();
    expect(await done).toBe(0);
    expect(out.text().trimEnd().split("\n").map((l) => JSON.parse(l).id)).toEqual([0, 1, 2, 3]);
  });

  it("several logs (a directory of them) are merged by time, at start and with -f", async () => {
    const dir = tempDir();
    const at = (iso: string) => () => new Date(iso);
    const a = DecisionLog.open({ dest: join(dir, "replica-a.ndjson"), clock: at("2026-11-22T12:00:01Z") });
    a.write(input(1));
    await a.close();
    const b = DecisionLog.open({ dest: join(dir, "replica-b.ndjson"), clock: at("2026-11-22T12:00:00Z") });
    b.write(input(0));
    await b.close();
    const a2 = DecisionLog.open({ dest: join(dir, "replica-a.ndjson"), clock: at("2026-11-22T12:00:02Z") });
    a2.write(input(2));
    await a2.close();
    writeFileSync(join(dir, "notes.txt"), "not a log\n");
    const out = sink();
    expect(await runTail({ file: dir, follow: false, json: true, color: false }, out.s, sink().s)).toBe(0);
    expect(out.text().trimEnd().split("\n").map((l) => JSON.parse(l).id)).toEqual([0, 1, 2]);

    const live = sink();
    const ac = new AbortController();
    const done = runTail({ file: [join(dir, "replica-a.ndjson"), join(dir, "replica-b.ndjson")], follow: true, json: true, color: false, signal: ac.signal, pollMs: 20 }, live.s, sink().s);
    const count = () => live.text().split("\n").filter(Boolean).length;
    for (let i = 0; i < 300 && count() < 3; i++) await new Promise((r) => setTimeout(r, 10));
    const b2 = DecisionLog.open({ dest: join(dir, "replica-b.ndjson"), clock: at("2026-11-22T12:00:03Z") });
    b2.write(input(3));
    await b2.close();
    for (let i = 0; i < 300 && count() < 4; i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    expect(await done).toBe(0);
    expect(live.text().trimEnd().split("\n").map((l) => JSON.parse(l).id)).toEqual([0, 1, 2, 3]);
    const err = sink();
    expect(await runTail({ file: tempDir(), follow: false, json: true, color: false }, sink().s, err.s)).toBe(1);
    expect(err.text()).toMatch(/no decision logs/);
  });

  it("-f does not pile up abort listeners while it polls", async () => {
    const file = join(tempDir(), "d.ndjson");
    writeFileSync(file, "");
    const ac = new AbortController();
    const done = followFile(file, { follow: true, pollMs: 1, signal: ac.signal, onLine: () => undefined });
    await new Promise((r) => setTimeout(r, 100));
    expect(getEventListeners(ac.signal, "abort").length).toBeLessThanOrEqual(1);
    ac.abort();
    await done;
  });
});
