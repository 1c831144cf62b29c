import { copyFileSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateMessageRequestSchema, type CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import { ACCEPTANCE_RULES, CLI, connectDirect, connectWrapped, EVERYTHING, readLog, tempDir, type Wrapped } from "../helpers.js";

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("acceptance: a real SDK client drives server-everything through guardwire wrap", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const sampled: string[] = [];
  let w: Wrapped;

  beforeAll(async () => {
    w = await connectWrapped(["--rules", ACCEPTANCE_RULES, "--log", log], [process.execPath, EVERYTHING, "stdio"]);
    w.client.setRequestHandler(CreateMessageRequestSchema, async (req: CreateMessageRequest) => {
      const t = JSON.stringify(req.params.messages);
      sampled.push(t);
      return { model: "test-model", role: "assistant", content: { type: "text", text: `sampled: ${t}` } };
    });
  });
  afterAll(async () => {
    await w?.client.close();
  });

  it("tools/list passes unchanged (same as a direct connection)", async () => {
    const proxied = await w.client.listTools();
    const direct = await connectDirect([process.execPath, EVERYTHING, "stdio"]);
    try {
      expect(proxied).toEqual(await direct.client.listTools());
    } finally {
      await direct.client.close();
    }
    expect(proxied.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["get-sum", "echo", "trigger-sampling-request"]));
  });

  it("deny-big-sum: get-sum with a > 100 is an isError result carrying the rule's message", async () => {
    const r = await w.client.callTool({ name: "get-sum", arguments: { a: 150, b: 1 } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("sums over 100 are not allowed");
    expect(text(r)).toContain("[rule deny-big-sum]");
  });

  it("get-sum with small numbers passes", async () => {
    const r = await w.client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain("5");
  });

  it("hide-secret-word: the server receives the modified message", async () => {
    const r = await w.client.callTool({ name: "echo", arguments: { message: "my secret plan" } });
    expect(text(r)).toBe("Echo: my [hidden] plan");
    const plain = await w.client.callTool({ name: "echo", arguments: { message: "my plan" } });
    expect(text(plain)).toBe("Echo: my plan");
  });

  it("deny-forbidden-sampling: the sampling request never reaches the client; others do", async () => {
    const blocked = await w.client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "something forbidden" } }).catch((e: Error) => e);
    expect(sampled.some((s) => s.includes("forbidden"))).toBe(false);
    // The server got -32050 for its sampling request and reports a failed tool call.
    expect(blocked instanceof Error ? blocked.message : text(blocked)).toMatch(/Denied by policy|-32050/);
    const ok = await w.client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hello there" } });
    expect(sampled.some((s) => s.includes("hello there"))).toBe(true);
    expect(text(ok)).toContain("sampled:");
  });

  it("progress notifications of a long-running operation pass", async () => {
    const progress: number[] = [];
    const r = await w.client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    // The last progress and the result leave the server back to back; the SDK client may retire the progress handler
    // first (it does so on a direct connection too), so the log is the witness that all three passed.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([1, 2, 3].slice(0, progress.length));
    expect(text(r)).toContain("completed");
  });

  it("the log names the rules, verifies, and fails on any edited or deleted line", async () => {
    await w.client.close();
    await new Promise((r) => setTimeout(r, 300));
    const lines = readLog(log);
    const byRule = (id: string) => lines.filter((l) => (l.rules as string[]).includes(id));
    expect(byRule("deny-big-sum")[0]).toMatchObject({ decision: "deny", method: "tools/call", tool: "get-sum", reasonCode: ["TOO_BIG"], direction: "outbound" });
    expect(byRule("hide-secret-word")[0]).toMatchObject({ decision: "modify", tool: "echo" });
    expect(byRule("deny-forbidden-sampling")[0]).toMatchObject({ decision: "deny", method: "sampling/createMessage", direction: "inbound", kind: "request" });
    expect(lines.filter((l) => l.method === "notifications/progress" && l.decision === "allow")).toHaveLength(3);
    // A result knows its tool.
    expect(lines.some((l) => l.kind === "response" && l.tool === "get-sum" && l.direction === "inbound")).toBe(true);
    // Raw arguments are not logged.
    expect(readFileSync(log, "utf8")).not.toContain("my secret plan");

    const verify = (file: string) => spawnSync(process.execPath, [CLI, "verify", file], { encoding: "utf8" });
    const ok = verify(log);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/ok/);

    const original = readFileSync(log, "utf8").split("\n");
    const n = original.filter(Boolean).length;
    for (const target of [1, Math.floor(n / 2), n]) {
      const edited = [...original];
      edited[target - 1] = (edited[target - 1] as string).replace(/"decision":"(allow|deny|modify)"/, (_m, d) => `"decision":"${d === "deny" ? "allow" : "deny"}"`);
      // Tampering in place: the chain head kept beside the log stays where it was.
      const f = join(tempDir(), "edited.ndjson");
      writeFileSync(f, edited.join("\n"));
      copyFileSync(`${log}.head`, `${f}.head`);
      const r = verify(f);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`:${target}:`);

      const deleted = original.filter((_l, i) => i !== target - 1);
      const g = join(tempDir(), "deleted.ndjson");
      writeFileSync(g, deleted.join("\n"));
      copyFileSync(`${log}.head`, `${g}.head`);
      const d = verify(g);
      expect(d.status).not.toBe(0);
      expect(d.stderr).toContain(`:${target}:`);
    }
    expect(execFileSync(process.execPath, [CLI, "tail", log, "--no-color", "--decision", "deny"], { encoding: "utf8" })).toContain("deny-big-sum");
  });
});
