import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectWrapped, EVERYTHING, readLog, tempDir } from "../helpers.js";

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

describe("limit through wrap, with a real server", () => {
  it("count: 3 allows exactly three calls and every one of their results comes back; the fourth call is refused", async () => {
    const dir = tempDir();
    const rules = join(dir, "rules.yaml");
    const log = join(dir, "decisions.ndjson");
    // The example of docs/rules.md: no direction, no kind — so it counts the calls.
    writeFileSync(rules, "name: rate\nrules:\n  - id: tool-rate\n    match: { method: tools/call, tool: echo }\n    limit: { count: 3, per: 1m, key: session }\n    decision: deny\n    reasonCode: RATE_LIMITED\n");
    const w = await connectWrapped(["--rules", rules, "--log", log], [process.execPath, EVERYTHING, "stdio"]);
    try {
      const results: TextResult[] = [];
      for (const n of [1, 2, 3, 4]) results.push((await w.client.callTool({ name: "echo", arguments: { message: `call ${n}` } })) as TextResult);
      expect(results.slice(0, 3).map((r) => [r.isError ?? false, r.content[0]?.text])).toEqual([
        [false, "Echo: call 1"],
        [false, "Echo: call 2"],
        [false, "Echo: call 3"],
      ]);
      expect(results[3]?.isError).toBe(true);
    } finally {
      await w.client.close();
    }
    const echo = () => readLog(log).filter((l) => l.tool === "echo");
    await expect.poll(() => echo().length, { timeout: 10_000 }).toBe(7);
    expect(echo().map((l) => [l.direction, l.kind, l.decision])).toEqual([
      ["outbound", "request", "allow"],
      ["inbound", "response", "allow"],
      ["outbound", "request", "allow"],
      ["inbound", "response", "allow"],
      ["outbound", "request", "allow"],
      ["inbound", "response", "allow"],
      ["outbound", "request", "deny"],
    ]);
    expect(echo()[6]).toMatchObject({ rules: ["tool-rate"], reasonCode: ["RATE_LIMITED"] });
  }, 60_000);
});
