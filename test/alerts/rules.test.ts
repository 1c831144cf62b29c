import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import { CLI, tempDir } from "../helpers.js";

const dir = tempDir();
const file = join(dir, "alerting.yaml");
writeFileSync(
  file,
  `name: alerting
rules:
  - id: deny-rm
    match: { method: tools/call, tool: rm }
    decision: deny
    reasonCode: NO_RM
    alert: { severity: critical }
  - id: note-tools
    match: { method: tools/call }
    decision: allow
    alert: { severity: low }
  - id: quiet
    match: { method: tools/call, tool: ls }
    decision: allow
  - id: would-deny-read
    match: { method: resources/read }
    decision: deny
    mode: audit
    alert: { severity: medium }
`,
);
const { ruleSet, problems } = loadRules(readRuleSources(file));
if (!ruleSet) throw new Error(JSON.stringify(problems));
const guardian = new EmbeddedGuardian(ruleSet);
const call = (tool: string, method = "tools/call") => ({ jsonrpc: "2.0", id: 1, method, params: { name: tool, arguments: {} } });
const judge = (message: Record<string, unknown>) => {
  const req = buildAosRequest("protocols/MCP", message, { direction: "outbound" });
  const res = guardian.call(req);
  return { res, verdict: readVerdict(req, res, message) };
};

describe("alert: on rules, through the AOS answer to the verdict", () => {
  it("every decision whose fired rules include alerting ones carries their highest severity and their ids", () => {
    const { res, verdict } = judge(call("rm"));
    expect(res).toMatchObject({ result: { decision: "deny", data: { alert: { severity: "critical", rules: ["deny-rm", "note-tools"] } } } });
    expect(verdict).toMatchObject({ action: "block", alert: { severity: "critical", rules: ["deny-rm", "note-tools"] } });
  });

  it("an allow rule alerts too; a decision with no alerting rule fired carries none", () => {
    expect(judge(call("ls")).verdict.alert).toEqual({ severity: "low", rules: ["note-tools"] });
    const none = judge({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(none.verdict.alert).toBeUndefined();
    expect((none.res as { result: { data: Record<string, unknown> } }).result.data).not.toHaveProperty("alert");
  });

  it("an audit-mode rule alerts with the would-be decision", () => {
    const read = { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "file:///etc/passwd" } };
    expect(judge(read).verdict).toMatchObject({ action: "forward", decision: "deny", mode: "audit", alert: { severity: "medium", rules: ["would-deny-read"] } });
  });

  it("a remote guardian's data.alert is read; a malformed one is ignored, the decision still stands", () => {
    const message = call("x");
    const req = buildAosRequest("protocols/MCP", message, { direction: "outbound" });
    const answer = (alert: unknown) => ({ jsonrpc: "2.0" as const, id: req.id, result: { decision: "deny" as const, message: "no", data: { rules: ["r"], alert } } });
    expect(readVerdict(req, answer({ severity: "high", rules: ["r", 7] }), message)).toMatchObject({ action: "block", alert: { severity: "high", rules: ["r"] } });
    const bad = readVerdict(req, answer({ severity: "urgent" }), message);
    expect(bad).toMatchObject({ action: "block", decision: "deny" });
    expect(bad.alert).toBeUndefined();
    expect(bad.unavailable).toBeUndefined();
  });

  it("guardwire check refuses an unknown severity, naming the key; guardwire schema rules documents alert", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "name: bad\nrules:\n  - id: r\n    decision: deny\n    alert: { severity: urgent }\n");
    const r = spawnSync(process.execPath, [CLI, "check", bad], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.yaml:5:\d+: rules\[0\]\.alert\.severity/);
    const ok = spawnSync(process.execPath, [CLI, "check", file], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    const schema = JSON.parse(spawnSync(process.execPath, [CLI, "schema", "rules"], { encoding: "utf8" }).stdout) as Record<string, unknown>;
    expect(JSON.stringify(schema)).toContain('"enum":["low","medium","high","critical"]');
    const config = spawnSync(process.execPath, [CLI, "schema", "config"], { encoding: "utf8" }).stdout;
    expect(config).toContain('"minSeverity"');
  });
});
