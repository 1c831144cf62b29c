import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.js";

/**
 * A real ext4 filesystem in an image file, mounted through a loop device: what a machine crash leaves of a file is
 * what the filesystem had sent to its device, and a copy of the image file taken while the filesystem is mounted
 * (without sync) is exactly that. Mounting the copy replays its journal, as booting after a power cut would.
 *
 * Needs root, a loop device and mkfs.ext4 (e2fsprogs) and mount (util-linux); anything missing is an error naming the
 * fix, never a skipped test.
 */
export interface LoopFs {
  /** Where the filesystem is mounted. */
  dir: string;
  /** A crash image: a copy of the device as it is now, with nothing flushed first. */
  snapshot(): string;
  unmount(): void;
}

export function requireLoopFs(): void {
  if (process.getuid?.() !== 0) throw new Error("this test mounts an ext4 image on a loop device and needs root: run `sudo npm test`");
  for (const tool of ["mkfs.ext4", "mount", "umount", "losetup"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is missing: apt-get install -y e2fsprogs mount util-linux`);
  }
}

export function mountImage(sizeMb = 256): LoopFs {
  requireLoopFs();
  const base = tempDir("guardwire-loopfs-");
  const image = join(base, "fs.img");
  const dir = join(base, "mnt");
  mkdirSync(dir);
  execFileSync("truncate", ["-s", `${sizeMb}M`, image]);
  execFileSync("mkfs.ext4", ["-q", "-F", image]);
  mount(image, dir);
  let n = 0;
  return {
    dir,
    snapshot() {
      const copy = join(base, `crash-${++n}.img`);
      execFileSync("cp", ["--sparse=always", image, copy]);
      return copy;
    },
    unmount: () => umount(dir),
  };
}

/** Mounts a crash image (its journal is replayed, as at boot) and returns where; `umount` it when done. */
export function mountCopy(image: string): string {
  const dir = join(tempDir("guardwire-crash-"), "mnt");
  mkdirSync(dir);
  mount(image, dir);
  return dir;
}

function mount(image: string, dir: string): void {
  const r = spawnSync("mount", ["-o", "loop", image, dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cannot mount an ext4 image on a loop device (${r.stderr.trim()}): this test needs root and a kernel with loop devices (modprobe loop)`);
}

export function umount(dir: string): void {
  spawnSync("umount", [dir]);
}
