import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CLI, ROOT, tempDir } from "../helpers.js";

export const RAW_SERVER = join(ROOT, "test", "fixtures", "servers", "raw-server.mjs");

/** `guardwire wrap` driven line by line, the way a client's stdio transport drives it. */
export class RawWrap {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: unknown[] = [];
  stderr = "";
  private waiters: { pred: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(wrapArgs: string[], server: string[] = [process.execPath, RAW_SERVER], env: Record<string, string> = {}) {
    const pins = join(tempDir(), "pins.json");
    this.proc = spawn(process.execPath, [CLI, "wrap", "--pins", pins, ...wrapArgs, "--", ...server], { env: { ...process.env, ...env }, stdio: "pipe" });
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const msg: unknown = JSON.parse(line);
      this.lines.push(msg);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(msg)) return true;
        w.resolve(msg);
        return false;
      });
    });
    this.exited = new Promise((resolve) => this.proc.on("exit", (code, signal) => resolve({ code, signal })));
  }

  write(text: string | Buffer): void {
    this.proc.stdin.write(text);
  }

  send(msg: unknown): void {
    this.write(JSON.stringify(msg) + "\n");
  }

  /** Where the next reply will land, for `next(…, from)`: ignores earlier lines that would also match. */
  mark(): number {
    return this.lines.length;
  }

  next(pred: (m: unknown) => boolean, timeoutMs = 10_000, from = 0): Promise<unknown> {
    const found = this.lines.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(this.lines)}; stderr ${this.stderr}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (m) => (clearTimeout(t), resolve(m)) });
    });
  }

  reply(id: unknown, timeoutMs?: number, from = 0): Promise<Record<string, unknown>> {
    return this.next((m) => !Array.isArray(m) && (m as { id?: unknown }).id === id && !("method" in (m as object)), timeoutMs, from) as Promise<Record<string, unknown>>;
  }

  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.proc.stdin.end();
    return this.exited;
  }
}
