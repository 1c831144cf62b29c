import { readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPins } from "../../src/cli/pins.js";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { toolFingerprint, type NewPin, type Pin } from "../../src/guardian/detectors/pins.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { loadRules, readRuleSources } from "../../src/guardian/rules/load.js";
import { PinFile, type PinFileOptions } from "../../src/guardian/state.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import { tempDir } from "../helpers.js";

/*
 * The pins file shared by several processes: each PinFile here is what one process holds (the e2e tests run real
 * `wrap` processes, test/e2e/pins-shared.test.ts). A process's copy is never written over the file: its changes are
 * applied to the file as it is, under the lock.
 */

const owner = { pid: process.pid, alive: () => true };
const { ruleSet } = loadRules(readRuleSources("rules/balanced.yaml"));
const open = (file: string, o: Partial<PinFileOptions> = {}) => new PinFile(file, { owner, ...o });
const onDisk = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, Record<string, Pin>> }).servers;
const fp = (description: string) => toolFingerprint({ name: "t", description });
const seen = (server: string, tool: string, description: string, kind: NewPin["kind"] = "new"): NewPin => ({
  server,
  tool,
  fingerprint: toolFingerprint({ name: tool, description }),
  definition: { name: tool, description },
  kind,
});

let id = 0;
function list(g: EmbeddedGuardian, route: string, tools: unknown[], reported = "srv") {
  const msg = { jsonrpc: "2.0", id: ++id, result: { tools } };
  const req = buildAosRequest("protocols/MCP", msg, { direction: "inbound", session: "s", route, server: { name: reported }, request: { jsonrpc: "2.0", id, method: "tools/list" } });
  return readVerdict(req, g.call(req), msg);
}
function call(g: EmbeddedGuardian, route: string, name: string) {
  const msg = { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: {} } };
  const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound", session: "s", route, server: { name: "srv" } });
  return readVerdict(req, g.call(req), msg);
}
const tool = (description: string) => ({ name: "t", description, inputSchema: { type: "object" } });

/** A small deterministic generator, so a failing seed can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

describe("a pins file shared by several processes: merged under a lock, never overwritten by a stale copy", () => {
  it("copies that pin different servers at once both end up in the file", async () => {
    const file = join(tempDir(), "pins.json");
    const a = open(file);
    const b = open(file);
    a.add([seen("alpha", "t", "a")]);
    b.add([seen("beta", "t", "b")]);
    await Promise.all([a.flush(), b.flush()]);
    expect(Object.keys(onDisk(file)).sort()).toEqual(["alpha", "beta"]);
    // Each copy holds what the other wrote once it saved (it read the file under the lock).
    expect(a.has("beta") || b.has("alpha")).toBe(true);
    a.close();
    b.close();
  });

  it("any interleaving of sightings by several copies keeps every pin; a tool two copies saw differently is pinned as one saw it, the other's pending (40 seeds)", async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = random(seed);
      const file = join(tempDir(), "pins.json");
      const copies = Array.from({ length: 2 + r(4) }, () => open(file));
      const sightings = new Map<string, Set<string>>();
      const saves: Promise<void>[] = [];
      for (let step = 0; step < 30; step++) {
        const c = copies[r(copies.length)] as PinFile;
        const server = `s${r(4)}`;
        const name = `t${r(3)}`;
        const description = `v${r(2)}`;
        // A copy pins what it has not seen pinned; what it has, it compares (as evaluation does).
        const mine = c.get(server, name);
        const f = toolFingerprint({ name, description });
        const kind = mine === undefined ? "new" : mine.fingerprint === f ? "settled" : "changed";
        c.add([seen(server, name, description, kind)]);
        const key = `${server}/${name}`;
        sightings.set(key, (sightings.get(key) ?? new Set()).add(f));
        if (r(3) === 0) saves.push(c.flush());
        if (r(4) === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(saves);
      await Promise.all(copies.map((c) => c.flush()));
      const disk = onDisk(file);
      for (const [key, prints] of sightings) {
        const [server, name] = key.split("/") as [string, string];
        const pin = disk[server]?.[name];
        expect(pin, `seed ${seed}: ${key} lost`).toBeDefined();
        expect(prints.has(pin?.fingerprint as string), `seed ${seed}: ${key}`).toBe(true);
        // Seen two ways: the one that is not the pin is waiting for approval (unless the last sighting matched it again).
        if (pin?.pending) expect(prints.has(pin.pending.fingerprint)).toBe(true);
      }
      expect(readdirSync(join(file, "..")).sort(), `seed ${seed}`).toEqual(["pins.json"]);
      for (const c of copies) c.close();
    }
  }, 60_000);

  it("an approval made by the pins command stays: a copy that still holds the change pending does not revert it, nor bring back pins that were reset", async () => {
    const file = join(tempDir(), "pins.json");
    const wrap = open(file);
    wrap.add([seen("fs", "read", "v1"), seen("gone", "x", "v1")]);
    wrap.add([seen("fs", "read", "v2", "changed")]);
    await wrap.flush();
    expect(onDisk(file).fs?.read?.pending?.fingerprint).toBe(toolFingerprint({ name: "read", description: "v2" }));
    const out = { text: "", write: (s: string) => (out.text += s) };
    await runPins("approve", ["fs", "read"], file, out, out);
    await runPins("reset", ["gone"], file, out, out);
    // The wrap's copy is stale (its poll has not run): it pins something else, and that save merges.
    expect(wrap.get("fs", "read")?.pending).toBeDefined();
    wrap.add([seen("other", "y", "v1")]);
    await wrap.flush();
    const disk = onDisk(file);
    expect(disk.fs?.read).toEqual({ fingerprint: toolFingerprint({ name: "read", description: "v2" }), definition: { name: "read", description: "v2" } });
    expect(disk.gone).toBeUndefined();
    expect(Object.keys(disk).sort()).toEqual(["fs", "other"]);
    // And its copy now holds the approval.
    expect(wrap.get("fs", "read")?.pending).toBeUndefined();
    wrap.close();
  });

  it("a rug pull is caught against a pin another process wrote, at once (the file is re-read before a tool list is judged)", async () => {
    const file = join(tempDir(), "pins.json");
    const early = open(file); // started before anything was pinned
    const g = new EmbeddedGuardian(ruleSet!, { pins: early });
    const other = open(file);
    const og = new EmbeddedGuardian(ruleSet!, { pins: other });
    expect(list(og, "shared", [tool("Returns the time")]).decision).toBe("allow");
    await other.flush();
    const v = list(g, "shared", [tool("Returns the time in UTC")]);
    expect(v).toMatchObject({ decision: "modify", reasonCode: ["TOOL_CHANGED"] });
    expect(v.message).toContain(`tool "t" of server "shared" changed (description)`);
    expect(call(g, "shared", "t").decision).toBe("deny");
    early.close();
    other.close();
  });

  it("a tool another process pinned first, seen differently here before this copy knew of it, is a change waiting for approval: calls are refused", async () => {
    const file = join(tempDir(), "pins.json");
    const a = open(file);
    const b = open(file);
    a.add([seen("shared", "t", "first")]);
    b.add([seen("shared", "t", "second")]); // b did not know a's pin
    await a.flush();
    await b.flush();
    const pin = onDisk(file).shared?.t;
    expect(pin?.fingerprint).toBe(fp("first"));
    expect(pin?.pending?.fingerprint).toBe(fp("second"));
    expect(call(new EmbeddedGuardian(ruleSet!, { pins: b }), "shared", "t").decision).toBe("deny");
    a.close();
    b.close();
  });

  it("while the lock cannot be had, pins stay in force, the failure is said once, and they are saved once it can", async () => {
    const file = join(tempDir(), "pins.json");
    writeFileSync(`${file}.lock`, `${process.ppid} held\n`);
    const said: string[] = [];
    const pins = open(file, { onError: (m) => said.push(m), lock: { timeoutMs: 100 } });
    pins.add([seen("fs", "t", "v1")]);
    await pins.flush();
    expect(said).toEqual([expect.stringMatching(/^pins could not be saved to .*pins\.json \(.*held by process \d+.*\); they stay in force here/)]);
    expect(pins.get("fs", "t")).toBeDefined();
    expect(readdirSync(join(file, ".."))).toEqual(["pins.json.lock"]);
    // The holder lets go: the retry saves.
    unlinkSync(`${file}.lock`);
    await expect.poll(() => (readdirSync(join(file, "..")).includes("pins.json") ? onDisk(file).fs?.t?.fingerprint : undefined), { timeout: 10_000, interval: 100 }).toBe(toolFingerprint({ name: "t", description: "v1" }));
    await expect.poll(() => said.at(-1), { timeout: 5000 }).toMatch(/saved to .* again/);
    pins.close();
  });

  it("a file made corrupt while a process runs is moved aside and rewritten from what that process holds", async () => {
    const dir = tempDir();
    const file = join(dir, "pins.json");
    const said: string[] = [];
    const pins = open(file, { onError: (m) => said.push(m) });
    pins.add([seen("fs", "a", "v1")]);
    await pins.flush();
    writeFileSync(file, "{ not json");
    pins.add([seen("fs", "b", "v1")]);
    await pins.flush();
    expect(Object.keys(onDisk(file).fs ?? {}).sort()).toEqual(["a", "b"]);
    expect(said).toEqual([expect.stringMatching(/corrupt.*moved to .*pins\.json\.corrupt-/)]);
    expect(readdirSync(dir).filter((f) => f.startsWith("pins.json.corrupt-"))).toHaveLength(1);
    pins.close();
  });
});

describe("pins keyed by route; pins files keyed by the server's reported name still count", () => {
  it("a pins file of an older guardwire (keyed by serverInfo.name): a change is caught against it, and its pins are copied under the route", async () => {
    const file = join(tempDir(), "pins.json");
    writeFileSync(file, JSON.stringify({ version: 2, servers: { "mcp-servers/everything": { t: { fingerprint: toolFingerprint(tool("v1")), definition: tool("v1") } } } }));
    const pins = open(file);
    const g = new EmbeddedGuardian(ruleSet!, { pins });
    const v = list(g, "everything", [tool("v2")], "mcp-servers/everything");
    expect(v).toMatchObject({ decision: "modify", reasonCode: ["TOOL_CHANGED"] });
    expect(v.message).toContain(`tool "t" of server "everything" changed`);
    await pins.flush();
    const disk = onDisk(file);
    expect(disk.everything?.t).toMatchObject({ fingerprint: toolFingerprint(tool("v1")), pending: { fingerprint: toolFingerprint(tool("v2")) } });
    // Kept for any other route that runs the same server and has not been used since.
    expect(disk["mcp-servers/everything"]?.t?.pending).toBeUndefined();
    pins.close();
  });

  it("an unchanged listing copies them too; a route that has pins of its own never looks at another name's", async () => {
    const file = join(tempDir(), "pins.json");
    writeFileSync(file, JSON.stringify({ version: 2, servers: { srv: { t: { fingerprint: toolFingerprint(tool("v1")) } } } }));
    const pins = open(file);
    const g = new EmbeddedGuardian(ruleSet!, { pins });
    expect(list(g, "a", [tool("v1")]).decision).toBe("allow");
    await pins.flush();
    expect(onDisk(file).a?.t?.fingerprint).toBe(toolFingerprint(tool("v1")));
    // Route b has its own pins: the server reporting "srv" changes nothing there.
    pins.add([{ server: "b", tool: "t", fingerprint: toolFingerprint(tool("own")), kind: "new" }]);
    expect(list(g, "b", [tool("own")]).decision).toBe("allow");
    pins.close();
  });

  it("two routes running the same server keep pins of their own", async () => {
    const file = join(tempDir(), "pins.json");
    const pins = open(file);
    const g = new EmbeddedGuardian(ruleSet!, { pins });
    expect(list(g, "docs-a", [tool("reads /a")]).decision).toBe("allow");
    expect(list(g, "docs-b", [tool("reads /b")]).decision).toBe("allow");
    expect(list(g, "docs-a", [tool("reads /a")]).decision).toBe("allow");
    await pins.flush();
    expect(Object.keys(onDisk(file)).sort()).toEqual(["docs-a", "docs-b"]);
    pins.close();
  });
});
