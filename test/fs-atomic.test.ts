import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic, writeFileAtomicSync } from "../src/fs-atomic.js";
import { withFileLock } from "../src/fs-lock.js";
import { ROOT, tempDir } from "./helpers.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};
const owner = { pid: process.pid, alive };

describe("writeFileAtomicSync / writeFileAtomic: a file replaced whole", () => {
  it("writes, replaces, keeps no temporary file, and gives the mode asked for exactly", async () => {
    const dir = tempDir();
    const file = join(dir, "state.json");
    writeFileAtomicSync(file, "one\n");
    expect(readFileSync(file, "utf8")).toBe("one\n");
    await writeFileAtomic(file, Buffer.from("two\n"), { mode: 0o600 });
    expect(readFileSync(file, "utf8")).toBe("two\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomicSync(file, "three\n", { mode: 0o640 });
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("writers at once each use a temporary file of their own: the file is always one of theirs, whole", async () => {
    const dir = tempDir();
    const file = join(dir, "f");
    const texts = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(50_000)}\n`);
    await Promise.all(texts.map((t) => writeFileAtomic(file, t)));
    expect(texts).toContain(readFileSync(file, "utf8"));
    expect(readdirSync(dir)).toEqual(["f"]);
  });

  it("a directory that is missing is the error, and nothing is left behind", () => {
    const dir = tempDir();
    expect(() => writeFileAtomicSync(join(dir, "no", "f"), "x")).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("withFileLock: one read-change-write at a time, across processes", () => {
  it("processes that each add 1 to a counter 40 times under the lock lose no increment", async () => {
    const dir = tempDir();
    const counter = join(dir, "counter");
    writeFileSync(counter, "0");
    // Each child reads, yields to the event loop (so that without the lock the others would read the same value), writes.
    const code = `
      const { withFileLock } = await import(${JSON.stringify(join(ROOT, "dist", "fs-lock.js"))});
      const { readFileSync, writeFileSync } = await import("node:fs");
      const owner = { pid: process.pid, alive: (p) => { try { process.kill(p, 0); return true; } catch (e) { return e.code === "EPERM"; } } };
      for (let i = 0; i < 40; i++) {
        await withFileLock(${JSON.stringify(counter + ".lock")}, owner, async () => {
          const n = Number(readFileSync(${JSON.stringify(counter)}, "utf8"));
          await new Promise((r) => setTimeout(r, 1));
          writeFileSync(${JSON.stringify(counter)}, String(n + 1));
        }, { timeoutMs: 60_000 });
      }`;
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "ignore", "pipe"] }));
    const exits = await Promise.all(
      children.map(
        (c) =>
          new Promise<{ code: number | null; err: string }>((resolve) => {
            let err = "";
            c.stderr.on("data", (d: Buffer) => (err += d.toString()));
            c.on("exit", (code) => resolve({ code, err }));
          }),
      ),
    );
    for (const e of exits) expect(e.code, e.err).toBe(0);
    expect(readFileSync(counter, "utf8")).toBe("160");
    expect(readdirSync(dir)).toEqual(["counter"]);
  }, 60_000);

  it("a lock left by a process that is gone is taken over at once", async () => {
    const dir = tempDir();
    const lock = join(dir, "f.lock");
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.on("exit", r));
    writeFileSync(lock, `${dead.pid} abc\n`);
    expect(await withFileLock(lock, owner, async () => "ran", { timeoutMs: 50 })).toBe("ran");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a live holder makes the wait end with FILE_LOCKED naming it, after the time allowed; an old lock is taken over", async () => {
    const dir = tempDir();
    const lock = join(dir, "f.lock");
    writeFileSync(lock, `${process.ppid} someone-else\n`);
    await expect(withFileLock(lock, owner, async () => "ran", { timeoutMs: 200 })).rejects.toMatchObject({ code: "FILE_LOCKED", message: expect.stringContaining(`process ${process.ppid}`) });
    expect(readFileSync(lock, "utf8")).toBe(`${process.ppid} someone-else\n`);
    // The same lock, once older than staleMs: its pid may have been reused, or its holder hangs.
    await new Promise((r) => setTimeout(r, 120));
    expect(await withFileLock(lock, owner, async () => "ran", { timeoutMs: 200, staleMs: 100 })).toBe("ran");
  });

  it("work that throws still releases the lock", async () => {
    const dir = tempDir();
    const lock = join(dir, "f.lock");
    await expect(withFileLock(lock, owner, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(readdirSync(dir)).toEqual([]);
  });
});
