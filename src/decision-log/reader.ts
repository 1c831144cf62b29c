import { open, stat, type FileHandle } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import type { DecisionRecord } from "./record.js";

export function parseLine(line: string): DecisionRecord | undefined {
  try {
    const r = JSON.parse(line) as DecisionRecord;
    return r !== null && typeof r === "object" && typeof r.seq === "number" && typeof r.decision === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

export interface FollowOptions {
  follow: boolean;
  pollMs?: number;
  signal?: AbortSignal;
  onLine(line: string): void;
  /** Called once if the file does not exist yet (follow mode waits for it). */
  onMissing?(): void;
  /** Called once, when the lines the file held at start have all been passed to onLine (or it was found missing). */
  onCaughtUp?(): void;
}

/**
 * Reads a log's complete lines and, when following, keeps reading as it grows, like `tail -f`. Survives rotation
 * and truncation: a new inode or a file shorter than what was read means start again from the top of the new file.
 */
export async function followFile(path: string, opts: FollowOptions): Promise<void> {
  const pollMs = opts.pollMs ?? 200;
  let fh: FileHandle | undefined;
  let ino = -1;
  let offset = 0;
  let partial = "";
  let warnedMissing = false;
  let caughtUp = false;
  const reached = () => {
    if (!caughtUp) opts.onCaughtUp?.();
    caughtUp = true;
  };
  // timers/promises removes its abort listener when the timer fires: a listener per poll would pile up for as long as tail runs.
  const sleep = () => delay(pollMs, undefined, { signal: opts.signal }).catch(() => undefined);
  try {
    while (!opts.signal?.aborted) {
      let st;
      try {
        st = await stat(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        if (!warnedMissing) opts.onMissing?.();
        warnedMissing = true;
        reached();
        if (!opts.follow) return;
        await sleep();
        continue;
      }
      if (!fh || st.ino !== ino || st.size < offset) {
        // Before switching to the rotated-in file, drain what was appended to the old one.
        if (fh) offset = await drain(fh, offset);
        await fh?.close();
        fh = await open(path, "r");
        ino = (await fh.stat()).ino;
        offset = 0;
        partial = "";
      }
      offset = await drain(fh, offset);
      reached();
      if (!opts.follow) return;
      await sleep();
    }
  } finally {
    await fh?.close();
  }

  async function drain(handle: FileHandle, from: number): Promise<number> {
    const buf = Buffer.alloc(64 * 1024);
    let pos = from;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return pos;
      pos += bytesRead;
      const text = partial + buf.toString("utf8", 0, bytesRead);
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      for (const l of lines) if (l.length > 0) opts.onLine(l);
    }
  }
}
