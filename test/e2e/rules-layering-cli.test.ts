import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, connectWrapped, EVERYTHING, readLog, tempDir } from "../helpers.js";

const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

const MINE = `name: mine
rules:
  - id: no-blocked-word
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'has(args.message) && args.message.contains("blocked-word")'
    decision: deny
    reasonCode: BLOCKED_WORD
    message: that word is blocked
`;

describe("guardwire check with layered rules", () => {
  it("passes each shipped pack, by path and by name", () => {
    for (const [pack, arg] of [["balanced", "balanced"], ["strict", "rules/strict.yaml"], ["audit-only", "audit-only"]]) {
      const r = run("check", arg!);
      expect(r.status, `${arg}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^ok: \\d+ rules in ${pack} `));
    }
  }, 60_000);

  it("refuses the rules/ directory of three packs, saying why and what to do", () => {
    const r = run("check", "rules");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("disagree on default (deny: strict.yaml; allow: audit-only.yaml, balanced.yaml)");
    expect(r.stderr).toContain("name one of its files instead, or layer packs with extends:");
  });

  it("loads several paths in order as one set, and an extending file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mine.yaml"), MINE);
    writeFileSync(join(dir, "ext.yaml"), MINE.replace("name: mine\n", "name: ext\nextends: strict\ndisable: [allow-known-tools]\n"));
    const pack = Number(/^ok: (\d+) rules/.exec(run("check", "balanced").stdout)?.[1]);
    const mine = Number(/^ok: (\d+) rules/.exec(run("check", join(dir, "mine.yaml")).stdout)?.[1]);
    expect(pack).toBeGreaterThan(0);
    const two = run("check", "balanced", join(dir, "mine.yaml"));
    expect(two.status, two.stderr).toBe(0);
    expect(two.stdout).toMatch(new RegExp(`^ok: ${pack + mine} rules in balanced\\+mine \\(default allow, `));
    const ext = run("check", join(dir, "ext.yaml"));
    expect(ext.status, ext.stderr).toBe(0);
    expect(ext.stdout).toMatch(/ rules in strict\+ext \(default deny, /);
  });

  it("reports a CEL type problem as file:line:col", () => {
    const file = join(tempDir(), "bad.yaml");
    writeFileSync(file, "name: bad\nrules:\n  - id: a\n    when: 'args.a > \"100\"'\n    decision: deny\n");
    const r = run("check", file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${file}:4:11: rules[0].when: invalid CEL expression: "100" is a string`);
  });
});

describe("guardwire test with layered rules", () => {
  it("passes the shipped packs' own tests", () => {
    const r = run("test");
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/\d+ passed, 0 failed/);
  });

  it("runs a test file against rules: [pack, file], and against --rules given twice", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mine.yaml"), MINE);
    const cases = `cases:
  - { name: own rule, call: { tool: echo, args: { message: "a blocked-word" } }, expect: { decision: deny, rules: [no-blocked-word] } }
  - { name: pack rule, call: { tool: read_file, args: { path: "~/.ssh/id_rsa" } }, expect: { decision: deny, rules: [no-credential-files] } }
  - { name: plain, call: { tool: echo, args: { message: hi } }, expect: { decision: allow } }
`;
    const tests = join(dir, "tests");
    spawnSync("mkdir", [tests]);
    writeFileSync(join(tests, "layered.test.yaml"), `rules: [balanced, ../mine.yaml]\n${cases}`);
    const named = run("test", tests);
    expect(named.status, named.stdout + named.stderr).toBe(0);
    expect(named.stdout).toContain("3 passed, 0 failed");
    writeFileSync(join(tests, "layered.test.yaml"), cases);
    const flags = run("test", tests, "--rules", "balanced", "--rules", join(dir, "mine.yaml"));
    expect(flags.status, flags.stdout + flags.stderr).toBe(0);
    expect(flags.stdout).toContain("3 passed, 0 failed");
  });
});

describe("guardwire wrap --rules given twice", () => {
  it("judges with the pack and the user's own file together", async () => {
    const dir = tempDir();
    const log = join(dir, "decisions.ndjson");
    writeFileSync(join(dir, "mine.yaml"), MINE);
    const w = await connectWrapped(["--rules", "balanced", "--rules", join(dir, "mine.yaml"), "--log", log, "--no-watch"], [process.execPath, EVERYTHING, "stdio"]);
    try {
      const plain = await w.client.callTool({ name: "echo", arguments: { message: "hello" } });
      expect(text(plain)).toBe("Echo: hello");
      const own = await w.client.callTool({ name: "echo", arguments: { message: "a blocked-word" } });
      expect(own.isError).toBe(true);
      expect(text(own)).toContain("that word is blocked");
      const pack = await w.client.callTool({ name: "echo", arguments: { message: "key AKIA4QWERTYUIOP2ZXCV" } });
      expect(pack.isError).toBe(true);
      expect(text(pack)).toContain("[rule no-secrets-out]");
    } finally {
      await w.client.close();
    }
    const denied = readLog(log).filter((l) => l.decision === "deny").map((l) => l.rules);
    expect(denied).toEqual([["no-blocked-word"], ["no-secrets-out"]]);
  }, 60_000);
});

describe("guardwire wrap hot reload of an extended file", () => {
  it("reloads when the file a rule file extends changes", async () => {
    const dir = tempDir();
    const base = join(dir, "base.yaml");
    const cap = (limit: number) => `name: base\nrules:\n  - { id: cap, match: { direction: outbound, tool: get-sum }, when: 'has(args.a) && args.a > ${limit}', decision: deny }\n`;
    writeFileSync(base, cap(100));
    writeFileSync(join(dir, "mine.yaml"), "name: mine\nextends: ./base.yaml\n");
    const w = await connectWrapped(["--rules", join(dir, "mine.yaml"), "--log", join(dir, "d.ndjson")], [process.execPath, EVERYTHING, "stdio"]);
    try {
      const denied = async (a: number) => (await w.client.callTool({ name: "get-sum", arguments: { a, b: 0 } })).isError === true;
      expect(await denied(50)).toBe(false);
      writeFileSync(base, cap(10));
      await expect.poll(() => w.stderr(), { timeout: 15_000 }).toContain("rules reloaded");
      expect(await denied(50)).toBe(true);
    } finally {
      await w.client.close();
    }
  }, 60_000);
});
