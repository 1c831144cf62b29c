import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers.js";
import { until } from "../support/poll.js";
import { mountCopy, mountImage, umount, type LoopFs } from "../support/loop-fs.js";
import { RAW_SERVER } from "./raw-wrap.js";

/*
 * A machine crash (power cut, kernel panic): what survives of the decision log is what the filesystem had sent to its
 * device. The log sits on a real ext4 filesystem in an image file on a loop device; while `wrap` runs under steady
 * traffic, the image is copied as it is — nothing flushed first — which is the disk a crash at that moment leaves.
 * The copy is mounted (its journal replayed, as at boot) and `guardwire verify` must find an intact chain, or one that
 * ends in a torn line: never "tampered". The moments straddle ext4's 5 s journal commit, which is what made the old
 * writer's chain head reach the disk ahead of the lines it named.
 *
 * `wrap` is paused (SIGSTOP) while the image is copied, and for 300 ms before, so the copy is one moment of the disk and
 * not a blend of several (the copy takes tens of milliseconds; writes landing in the middle would tear it in ways no
 * crash can). The kernel's own writeback goes on meanwhile, as it would.
 */

const mounted: string[] = [];
let fs: LoopFs | undefined;
afterAll(() => {
  for (const dir of mounted) umount(dir);
  fs?.unmount();
});

const verify = (file: string) => spawnSync(process.execPath, [CLI, "verify", file], { encoding: "utf8" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lastSeq(file: string): number {
  if (!existsSync(file)) return -1;
  let seq = -1;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    try {
      seq = (JSON.parse(line) as { seq: number }).seq;
    } catch {
      // a torn or zeroed tail
    }
  }
  return seq;
}

describe("decision log: a machine crash", () => {
  it("a crash image of the disk, taken mid-traffic at several moments, verifies as intact or torn, never tampered; wrap goes on from it", async () => {
    fs = mountImage();
    const log = join(fs.dir, "d.ndjson");
    const wrap = spawn(process.execPath, [CLI, "wrap", "--log", log, "--pins", join(tempDir(), "pins.json"), "--", process.execPath, RAW_SERVER], { stdio: "pipe" });
    let stderr = "";
    wrap.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let replies = 0;
    const waiting = new Map<number, () => void>();
    createInterface({ input: wrap.stdout }).on("line", (line) => {
      replies++;
      const id = (JSON.parse(line) as { id: number }).id;
      waiting.get(id)?.();
      waiting.delete(id);
    });
    let stop = false;
    let next = 1;
    // Steady traffic: bursts of 50 requests, each burst once the last one's reply is back.
    const traffic = (async () => {
      while (!stop) {
        let text = "";
        for (let i = 0; i < 50; i++) text += JSON.stringify({ jsonrpc: "2.0", id: next++, method: "work", params: { n: next } }) + "\n";
        const last = next - 1;
        const answered = new Promise<void>((resolve) => waiting.set(last, resolve));
        wrap.stdin.write(text);
        await Promise.race([answered, sleep(2000)]);
      }
    })();

    const figures: string[] = [];
    const images: { image: string; live: number }[] = [];
    // The moments count from the first reply (wrap takes a while to start on a loaded machine): the log exists by then,
    // and its name is durable from its creation on.
    await until(() => replies, (n) => n > 0, "the first reply", 60_000);
    const started = Date.now();
    for (const at of [2500, 6000, 9500]) {
      await sleep(Math.max(0, started + at - Date.now()));
      wrap.kill("SIGSTOP");
      await sleep(300);
      const live = lastSeq(log); // the page cache: what the process had written
      images.push({ image: fs.snapshot(), live });
      wrap.kill("SIGCONT");
    }
    stop = true;
    await traffic;
    wrap.stdin.end();
    await new Promise((resolve) => wrap.once("exit", resolve));
    expect(replies, stderr).toBeGreaterThan(200);

    let onDisk = 0;
    for (const [i, { image, live }] of images.entries()) {
      const dir = mountCopy(image);
      mounted.push(dir);
      const crashed = join(dir, "d.ndjson");
      const v = verify(crashed);
      const head = existsSync(`${crashed}.head`) ? (JSON.parse(readFileSync(`${crashed}.head`, "utf8")) as { seq: number }).seq : -1;
      const seq = lastSeq(crashed);
      figures.push(`moment ${i + 1}: the process had written up to seq ${live}, the disk held up to ${seq}, its head named ${head}; verify exit ${v.status}`);
      expect([0, 3], `${v.stdout}${v.stderr}`).toContain(v.status);
      expect(v.stderr).not.toMatch(/tampered/);
      expect(head).toBeLessThanOrEqual(seq);
      onDisk = Math.max(onDisk, seq);
    }
    console.log(`machine crash, ${figures.join("; ")}`);
    // The head is written once a second, each time after an fsync of the log: the disk holds recent lines.
    expect(onDisk).toBeGreaterThan(0);

    // Booted again: wrap continues the chain on the crashed disk (closing a torn line, if any), and it verifies.
    const dir = mounted.at(-1) as string;
    const again = spawn(process.execPath, [CLI, "wrap", "--log", join(dir, "d.ndjson"), "--pins", join(tempDir(), "pins.json"), "--", process.execPath, RAW_SERVER], { stdio: "pipe" });
    const reply = new Promise<string>((resolve) => createInterface({ input: again.stdout }).once("line", resolve));
    again.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "work" }) + "\n");
    expect(JSON.parse(await reply)).toMatchObject({ id: 1, result: {} });
    again.stdin.end();
    await new Promise((resolve) => again.once("exit", resolve));
    const after = verify(join(dir, "d.ndjson"));
    expect(after.status, after.stdout + after.stderr).toBe(0);
  }, 150_000);
});
