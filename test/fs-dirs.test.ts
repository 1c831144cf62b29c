import { spawnSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirs } from "../src/fs-dirs.js";
import { tempDir } from "./helpers.js";

describe("makeDirs: mkdir -p without Node 20's endless loop", () => {
  it("makes every missing directory with the mode given, and again is a no-op", () => {
    const root = tempDir();
    const deep = join(root, "a", "b", "c");
    makeDirs(deep, 0o700);
    for (const d of [join(root, "a"), join(root, "a", "b"), deep]) expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(() => makeDirs(deep, 0o700)).not.toThrow();
    expect(() => makeDirs(root)).not.toThrow();
  });

  it("a file in the way is the error a plain mkdir gives", () => {
    const root = tempDir();
    writeFileSync(join(root, "f"), "x");
    expect(() => makeDirs(join(root, "f", "sub"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
  });

  it("a parent that refuses new entries (/proc) fails at once with ENOENT, in a child so a regression cannot hang the run", () => {
    const code = `import("${join(import.meta.dirname, "..", "dist", "fs-dirs.js")}").then((m) => { try { m.makeDirs("/proc/guardwire-nope/x"); console.log("made"); } catch (e) { console.log(e.code); } })`;
    const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 10_000 });
    expect(r.signal, "makeDirs spun until the timeout").toBeNull();
    expect(r.stdout.trim()).toBe("ENOENT");
  });
});
