import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redactedPreview } from "../../src/decision-log/preview.js";
import { connectWrapped, EVERYTHING, readLog, tempDir } from "../helpers.js";

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("audit mode end to end", () => {
  it("logs what would have been blocked or rewritten, and forwards the original", async () => {
    const dir = tempDir();
    const rules = join(dir, "audit.yaml");
    writeFileSync(
      rules,
      `name: audit-acceptance
mode: audit
rules:
  - id: would-deny-big-sum
    match: { direction: outbound, method: tools/call, tool: get-sum }
    when: 'args.a > 100'
    decision: deny
    reasonCode: TOO_BIG
  - id: would-hide-secret
    match: { direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("secret")'
    decision: modify
    modify: [{ replace: "$.params.arguments.message", pattern: "secret", with: "[hidden]" }]
`,
    );
    const log = join(dir, "d.ndjson");
    const w = await connectWrapped(["--rules", rules, "--log", log], [process.execPath, EVERYTHING, "stdio"]);
    const sum = await w.client.callTool({ name: "get-sum", arguments: { a: 150, b: 1 } });
    expect(sum.isError).toBeFalsy();
    expect(text(sum)).toContain("151");
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "a secret" } }))).toBe("Echo: a secret");
    await w.client.close();
    await expect.poll(() => readLog(log).filter((l) => l.mode === "audit").length, { timeout: 3000 }).toBe(2);
    const audited = readLog(log).filter((l) => l.mode === "audit");
    expect(audited[0]).toMatchObject({ decision: "deny", rules: ["would-deny-big-sum"], reasonCode: ["TOO_BIG"], tool: "get-sum" });
    expect(audited[1]).toMatchObject({ decision: "modify", rules: ["would-hide-secret"], tool: "echo" });
  });
});

describe("log previews", () => {
  it("are off by default, and redacted when turned on", async () => {
    const dir = tempDir();
    for (const preview of [false, true]) {
      const log = join(dir, `d-${preview}.ndjson`);
      const w = await connectWrapped(["--log", log, ...(preview ? ["--log-preview"] : [])], [process.execPath, EVERYTHING, "stdio"]);
      await w.client.callTool({ name: "echo", arguments: { message: "key AKIA4QWERTYUIOP2ZXCV", apiKey: "hunter2" } }).catch(() => undefined);
      await w.client.close();
      await expect.poll(() => readLog(log).some((l) => l.tool === "echo"), { timeout: 3000 }).toBe(true);
      const line = readLog(log).find((l) => l.tool === "echo" && l.kind === "request");
      if (!preview) expect(line).not.toHaveProperty("preview");
      else {
        expect(line?.preview).toContain("echo");
        expect(line?.preview).not.toContain("AKIA4QWERTYUIOP2ZXCV");
        expect(line?.preview).not.toContain("hunter2");
      }
    }
  });

  it("redacts secret-looking keys and credential-shaped values, and truncates", () => {
    const p = redactedPreview({ jsonrpc: "2.0", id: 1, method: "x", params: { password: "p4ss", note: "token ghp_" + "a".repeat(36), long: "z".repeat(1000) } }, 120);
    expect(p).toContain('"password":"[redacted]"');
    expect(p).toContain("token [redacted]");
    expect(p.length).toBeLessThanOrEqual(121);
  });
});

describe("fail closed on a throwing rule, end to end", () => {
  it("denies with RULE_ERROR naming the rule; --fail-mode open lets it through and logs it", async () => {
    const dir = tempDir();
    const rules = join(dir, "throwing.yaml");
    writeFileSync(rules, "name: throwing\nrules:\n  - id: reads-a-missing-key\n    match: { direction: outbound, tool: echo }\n    when: 'args.nope.deeper == 1'\n    decision: deny\n");
    for (const mode of ["closed", "open"]) {
      const log = join(dir, `${mode}.ndjson`);
      const w = await connectWrapped(["--rules", rules, "--log", log, "--fail-mode", mode], [process.execPath, EVERYTHING, "stdio"]);
      const r = await w.client.callTool({ name: "echo", arguments: { message: "hi" } });
      await w.client.close();
      if (mode === "closed") {
        expect(r.isError).toBe(true);
        expect(text(r)).toMatch(/Blocked by guardwire: Rule reads-a-missing-key failed to evaluate/);
      } else expect(text(r)).toBe("Echo: hi");
      await expect.poll(() => readLog(log).some((l) => l.tool === "echo"), { timeout: 3000 }).toBe(true);
      const line = readLog(log).find((l) => l.tool === "echo" && l.kind === "request");
      expect(line).toMatchObject(mode === "closed" ? { decision: "deny", reasonCode: ["RULE_ERROR"], rules: ["reads-a-missing-key"] } : { decision: "allow", reasonCode: ["RULE_ERROR"] });
    }
  });
});
