import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decide, findMissing, TOOLS, type Missing } from "../../scripts/test-setup.mjs";
import { ROOT, tempDir } from "../helpers.js";

/*
 * `npm test` sets itself up (scripts/test-setup.mjs): what it decides is tested with fake PATHs and facts; apt-get
 * itself cannot be run from a test (it would change the machine), so the install path is run with --dry-run, and
 * the script is run for real as root and as an unprivileged user.
 */

const SCRIPT = join(ROOT, "scripts", "test-setup.mjs");
const tool = (name: string): Missing => TOOLS.find((t) => t.name === name) as Missing;

/** A folder holding fake executables with these names. */
function binDir(...names: string[]): string {
  const dir = tempDir("guardwire-fakebin-");
  chmodSync(dir, 0o755); // the unprivileged run must see into it
  for (const n of names) {
    writeFileSync(join(dir, n), "#!/bin/sh\nexit 0\n");
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
}

describe("npm test's setup: what it decides", () => {
  it("runs the tests when nothing is missing, whoever and wherever", () => {
    for (const facts of [{ uid: 0, debian: true, aptGet: true }, { uid: 501, debian: false, aptGet: false }]) expect(decide({ missing: [], ...facts })).toEqual({ action: "run" });
  });

  it("installs with apt-get on Debian as root, every missing package at once", () => {
    expect(decide({ missing: [tool("haproxy"), tool("chromium")], uid: 0, debian: true, aptGet: true })).toEqual({ action: "install", packages: ["haproxy", "chromium"] });
  });

  it("elsewhere stops with one line per missing tool and the commands that install it (Debian and macOS)", () => {
    const cases = [
      { facts: { uid: 1000, debian: true, aptGet: true }, sudo: "sudo " }, // Debian, not root
      { facts: { uid: 501, debian: false, aptGet: false }, sudo: "sudo " }, // macOS
      { facts: { uid: 0, debian: false, aptGet: false }, sudo: "" }, // root, not Debian
    ];
    for (const { facts, sudo } of cases) {
      const plan = decide({ missing: [tool("redis-server"), tool("chromium")], ...facts });
      expect(plan.action).toBe("stop");
      const lines = plan.action === "stop" ? plan.lines : [];
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^npm test needs tools that are not here/);
      expect(lines[1]).toMatch(new RegExp(`^ {2}redis-server {2}Debian: ${sudo}apt-get install -y redis-server {4}macOS: brew install redis {4}\\(`));
      expect(lines[2]).toMatch(new RegExp(`^ {2}chromium {6}Debian: ${sudo}apt-get install -y chromium {4}macOS: brew install --cask chromium {4}\\(`));
    }
  });

  it("a tool installed in an sbin folder that is not on PATH is named with the PATH fix, and nothing is installed", () => {
    const plan = decide({ missing: [{ ...tool("haproxy"), sbin: "/usr/sbin" }], uid: 0, debian: true, aptGet: true });
    expect(plan).toEqual({ action: "stop", lines: [expect.any(String), '  haproxy  installed at /usr/sbin/haproxy, but /usr/sbin is not on PATH: export PATH="$PATH:/usr/sbin"'] });
  });

  it("finds tools on PATH, and Chromium where the browser tests look for it", () => {
    const bin = binDir("redis-server", "haproxy");
    const chromium = join(binDir("chromium"), "chromium");
    expect(findMissing({ env: { PATH: bin, GUARDWIRE_CHROMIUM: chromium }, platform: "linux" })).toEqual([]);
    const missing = findMissing({ env: { PATH: binDir("haproxy"), GUARDWIRE_CHROMIUM: join(bin, "nope") }, platform: "linux" });
    expect(missing.map((t) => [t.name, t.where])).toEqual([["redis-server", undefined], ["chromium", join(bin, "nope")]]);
    // Not executable is not there.
    const dir = binDir();
    writeFileSync(join(dir, "redis-server"), "");
    expect(findMissing({ env: { PATH: `${dir}:${bin}`, GUARDWIRE_CHROMIUM: chromium } }).map((t) => t.name)).toEqual([]);
    expect(findMissing({ env: { PATH: dir, GUARDWIRE_CHROMIUM: chromium } }).map((t) => t.name)).toContain("redis-server");
    // macOS: the app bundle's binary.
    expect(findMissing({ env: { PATH: bin }, platform: "darwin", executable: (p) => p === "/Applications/Chromium.app/Contents/MacOS/Chromium" || p.startsWith(bin) })).toEqual([]);
  });
});

describe("npm test's setup, run for real", () => {
  // Run as another user, the script is a copy in a folder that user can read: a checkout may sit in a private folder
  // (a fresh clone under `mktemp -d` is 0700), which the unprivileged run could not enter.
  const readableCopy = (): string => {
    const dir = binDir();
    copyFileSync(SCRIPT, join(dir, "test-setup.mjs"));
    chmodSync(join(dir, "test-setup.mjs"), 0o644);
    return join(dir, "test-setup.mjs");
  };
  const run = (env: NodeJS.ProcessEnv, args: string[] = [], uid?: number) =>
    spawnSync(process.execPath, [uid === undefined ? SCRIPT : readableCopy(), ...args], { env, encoding: "utf8", uid, timeout: 60_000 });

  it("on this machine (everything installed): says nothing, installs nothing, exits 0", () => {
    const r = run(process.env);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("as an unprivileged user with tools missing: one line each with the commands, exit 1, nothing run", () => {
    const r = run({ PATH: binDir("haproxy"), GUARDWIRE_CHROMIUM: "/nonexistent/chromium" }, [], 65534);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^ {2}redis-server {2}Debian: sudo apt-get install -y redis-server {4}macOS: brew install redis /m);
    expect(r.stderr).toMatch(/^ {2}chromium {6}Debian: sudo apt-get install -y chromium {4}macOS: brew install --cask chromium /m);
    expect(r.stderr).not.toMatch(/haproxy|installing/);
  });

  it("as root on Debian with tools missing: apt-get update, then one install of every missing package (--dry-run)", () => {
    const r = run({ PATH: binDir("haproxy"), GUARDWIRE_CHROMIUM: "/nonexistent/chromium" }, ["--dry-run"]);
    expect(r.stderr).toBe("npm test: installing what the tests need with apt-get (as root): redis-server chromium\n");
    expect(r.stdout).toBe("would run: apt-get update\nwould run: apt-get install -y redis-server chromium\n");
    expect(r.status).toBe(0);
  });

  it("npm test runs it before anything else, and .ci/run runs exactly the README's test command", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toMatch(/^node scripts\/test-setup\.mjs && /);
    // The demo needs no service: it does not run the setup.
    expect(pkg.scripts.demo).not.toContain("test-setup");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim().split("\n") ?? [];
    expect(first).toEqual(["npm install && npm run demo", "npm test"]);
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8").trim().split("\n").filter((l) => !l.startsWith("#") && l.trim() !== "");
    expect(ci.at(-1)).toBe("npm test");
  });
});
