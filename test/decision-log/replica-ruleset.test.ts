import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { verifyFiles } from "../../src/decision-log/verify.js";
import { DecisionLog, noteOf } from "../../src/decision-log/writer.js";
import { tempDir } from "../helpers.js";

const input = (i: number, over: Partial<DecisionInput> = {}): DecisionInput => ({
  session: "s-1", route: "r", transport: "streamable-http", protocol: "mcp", direction: "outbound", kind: "request", id: i,
  method: "tools/call", tool: "echo", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 3, digest: null, ...over,
});

const lines = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("every decision line names its replica and the rules in force", () => {
  it("stamps replica and ruleset on every line, notes included, right after digest; the rules that decided win over the ones in force", async () => {
    const file = join(tempDir(), "decisions.r1.ndjson");
    let hash = "aaaaaaaaaaaaaaaa";
    const log = DecisionLog.open({ dest: file, replica: "r1", ruleset: () => hash });
    log.write(input(1));
    log.write(input(2, { ruleset: "0123456789abcdef" })); // decided under rules since replaced
    hash = "bbbbbbbbbbbbbbbb"; // a hot reload
    log.write(input(3));
    log.write(noteOf("ALERTS_DROPPED", "a note about the log"));
    await log.close();
    const got = lines(file);
    expect(got.map((r) => [r.replica, r.ruleset])).toEqual([
      ["r1", "aaaaaaaaaaaaaaaa"],
      ["r1", "0123456789abcdef"],
      ["r1", "bbbbbbbbbbbbbbbb"],
      ["r1", "bbbbbbbbbbbbbbbb"],
    ]);
    const keys = Object.keys(got[0] as object);
    expect(keys.slice(keys.indexOf("digest"), keys.indexOf("digest") + 3)).toEqual(["digest", "ruleset", "replica"]);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 4 });
  });

  it("without a replica (wrap, guardian without $GUARDWIRE_REPLICA) the field is left out, and fields unknown to the writer keep the stamps", async () => {
    const file = join(tempDir(), "d.ndjson");
    const log = DecisionLog.open({ dest: file, ruleset: () => "cccccccccccccccc" });
    log.write(input(1));
    log.write({ ...input(2), extra: "x" } as DecisionInput);
    await log.close();
    const got = lines(file);
    expect(got[0]).not.toHaveProperty("replica");
    expect(got.map((r) => r.ruleset)).toEqual(["cccccccccccccccc", "cccccccccccccccc"]);
    expect(got[1]).toMatchObject({ extra: "x", ruleset: "cccccccccccccccc" });
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 2 });
  });

  it("a log written before these fields, continued by a writer that stamps them, verifies as one chain; an edited replica is caught", async () => {
    const file = join(tempDir(), "d.ndjson");
    const old = DecisionLog.open({ dest: file });
    for (let i = 0; i < 3; i++) old.write(input(i));
    await old.close();
    const now = DecisionLog.open({ dest: file, replica: "r2", ruleset: () => "dddddddddddddddd" });
    for (let i = 3; i < 6; i++) now.write(input(i));
    await now.close();
    const got = lines(file);
    expect(got.map((r) => r.replica ?? null)).toEqual([null, null, null, "r2", "r2", "r2"]);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 6 });
    writeFileSync(file, readFileSync(file, "utf8").replace('"replica":"r2"', '"replica":"r3"'));
    expect(await verifyFiles([file])).toMatchObject({ ok: false, line: 4 });
  });
});
