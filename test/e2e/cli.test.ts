import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers.js";

const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });

describe("guardwire check", () => {
  it("accepts the shipped pack and the default", () => {
    expect(run("check", "rules/balanced.yaml").status).toBe(0);
    const r = run("check");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ok: \d+ rules in balanced/);
  });

  it("prints every problem with file, line, column and key path, and exits 1", () => {
    const file = join(tempDir(), "bad.yaml");
    writeFileSync(file, "name: bad\nrules:\n  - id: a\n    decision: nope\n  - id: b\n    when: 'args.x >'\n    decision: deny\n");
    const r = run("check", file);
    expect(r.status).toBe(1);
    // Both problems at once: the schema error, and the CEL error in a rule that is otherwise valid.
    expect(r.stderr).toContain("2 problems in the rules");
    expect(r.stderr).toContain(`${file}:4:15: rules[0].decision:`);
    expect(r.stderr).toContain(`${file}:6:11: rules[1].when: invalid CEL expression`);
    const again = join(tempDir(), "bad2.yaml");
    writeFileSync(again, "name: bad\nrules:\n  - id: b\n    when: 'args.x >'\n    decision: deny\n");
    expect(run("check", again).stderr).toContain(`${again}:4:11: rules[0].when: invalid CEL expression`);
  });

  it("says clearly when the path cannot be read", () => {
    const r = run("check", "/definitely/not/here.yaml");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Cannot read rules at /definitely/not/here.yaml: ENOENT");
  });
});

describe("guardwire wrap usage", () => {
  it("refuses stdout as the log destination in wrap mode", () => {
    const r = run("wrap", "--log", "stdout", "--", "true");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("cannot go to stdout");
  });
});
