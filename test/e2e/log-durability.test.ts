import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runVerify } from "../../src/cli/verify.js";
import { CLI, EVERYTHING, tempDir } from "../helpers.js";
import { waitFor } from "../support/servers.js";
import { RAW_SERVER } from "./raw-wrap.js";
import { Records, WITNESS } from "../support/witness.js";

/** `guardwire wrap` around the raw test server, driven line by line; every reply is timed as it arrives. */
class Driver {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly replies = new Map<number | string, { at: number; msg: Record<string, unknown> }>();
  stderr = "";
  private waiters = new Map<number | string, (m: Record<string, unknown>) => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextId = 1;

  constructor(wrapArgs: string[], shell?: string, env: Record<string, string> = {}) {
    const args = [CLI, "wrap", "--pins", join(tempDir(), "pins.json"), ...wrapArgs, "--", process.execPath, RAW_SERVER];
    // `shell`: a bash prefix (e.g. `ulimit -f 8;`) for limits that only a parent can set.
    const options = { stdio: "pipe" as const, env: { ...process.env, ...env } };
    this.proc = shell ? spawn("bash", ["-c", `${shell} exec "$0" "$@"`, process.execPath, ...args], options) : spawn(process.execPath, args, options);
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.proc.stdin.on("error", () => undefined);
    createInterface({ input: this.proc.stdout }).on("line", (line) => {
      const msg = JSON.parse(line) as Record<string, unknown>;
      const id = msg.id as number | string;
      this.replies.set(id, { at: performance.now(), msg });
      this.waiters.get(id)?.(msg);
      this.waiters.delete(id);
    });
    this.exited = new Promise((resolve) => this.proc.on("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Sends `n` requests in one write; resolves with the last one's reply. */
  burst(n: number, method = "work"): Promise<Record<string, unknown>> {
    let text = "";
    let last = 0;
    for (let i = 0; i < n; i++) {
      last = this.nextId++;
      text += JSON.stringify({ jsonrpc: "2.0", id: last, method, params: { n: last } }) + "\n";
    }
    this.proc.stdin.write(text);
    return this.reply(last);
  }

  call(method = "work"): Promise<Record<string, unknown>> {
    return this.burst(1, method);
  }

  /** Calls, 25 ms apart, until a reply passes `done` (the writer retries every second); undefined after 200 calls. */
  async callUntil(done: (reply: Record<string, unknown>) => boolean): Promise<Record<string, unknown> | undefined> {
    for (let i = 0; i < 200; i++) {
      const r = await this.call();
      if (done(r)) return r;
      await new Promise((res) => setTimeout(res, 25));
    }
    return undefined;
  }

  reply(id: number | string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const seen = this.replies.get(id);
    if (seen) return Promise.resolve(seen.msg);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no reply to ${id}; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.set(id, (m) => (clearTimeout(t), resolve(m)));
    });
  }

  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.proc.stdin.end();
    return this.exited;
  }
}

/**
 * `guardwire serve` with one route to a server over stdio (server-everything, or with `witness`, the invariant suite's
 * recording MCP server, which appends every line it receives to that file), logging to a fresh file.
 */
async function startServe(opts: { witness?: string; config?: string[] } = {}) {
  const dir = tempDir();
  const log = join(dir, "d.ndjson");
  const file = join(dir, "guardwire.yaml");
  const config = opts.config ?? [];
  const route = opts.witness
    ? `    mcp: { command: "${process.execPath}", args: ["${WITNESS}", stdio], env: { WITNESS_FILE: "${opts.witness}" } }`
    : `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`;
  writeFileSync(file, ["listen: { host: 127.0.0.1, port: 0 }", `log: ${log}`, ...config, "routes:", "  - name: everything", "    path: /mcp", route].join("\n"));
  const serve = spawn(process.execPath, [CLI, "serve", "--config", file, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
  const { match } = await waitFor(serve, /serving (http:\/\/\S+)/);
  return { serve, url: `${match[1]}/mcp`, log };
}

const verify = (...files: string[]) => spawnSync(process.execPath, [CLI, "verify", ...files], { encoding: "utf8" });

function logLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** Ids in `seen` (a multiset) that no log line of this direction and kind accounts for, one line each. */
function unlogged(seen: (string | number)[], file: string, direction: string, kind: string): (string | number)[] {
  const lines = new Map<string, number>();
  for (const r of logLines(file)) {
    if (r.direction !== direction || r.kind !== kind) continue;
    const k = JSON.stringify(r.id);
    lines.set(k, (lines.get(k) ?? 0) + 1);
  }
  return seen.filter((id) => {
    const k = JSON.stringify(id);
    const n = lines.get(k) ?? 0;
    lines.set(k, n - 1);
    return n <= 0;
  });
}

const until = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (done() ? resolve() : setImmediate(check));
    check();
  });

describe("decision log durability: kill -9 under load", () => {
  it("wrap, killed three times mid-burst: every request the server received and every reply the client received has its decision line; verify never says tampered", async () => {
    const figures: string[] = [];
    let log = "";
    let lastStatus = 0;
    for (let round = 0; round < 3; round++) {
      const dir = tempDir();
      log = join(dir, "d.ndjson");
      const received = join(dir, "server-received.ndjson");
      const d = new Driver(["--log", log], undefined, { RAW_RECORD: received });
      await d.call();
      // Load: bursts of 200 requests back to back; the kill lands while the next burst is in flight.
      const started = performance.now();
      while (performance.now() - started < 700) await d.burst(200);
      const before = d.replies.size;
      void d.burst(2000).catch(() => undefined);
      await until(() => d.replies.size > before + 50);
      d.proc.kill("SIGKILL");
      expect((await d.exited).signal).toBe("SIGKILL");

      const v = verify(log);
      lastStatus = v.status ?? -1;
      expect([0, 3], v.stdout + v.stderr).toContain(v.status);
      expect(v.stderr).not.toMatch(/tampered/);
      if (v.status === 3) expect(v.stdout + v.stderr).toMatch(/torn last line \(crash\)/);
      // What reached the server: the raw server appended each line it read before handling it.
      const atServer = readFileSync(received, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as { id: number }).id);
      const atClient = [...d.replies.keys()];
      const serverUnlogged = unlogged(atServer, log, "outbound", "request");
      const clientUnlogged = unlogged(atClient, log, "inbound", "response");
      figures.push(`${atServer.length} at the server (${serverUnlogged.length} without a line), ${atClient.length} at the client (${clientUnlogged.length} without a line), verify exit ${v.status}`);
      expect(serverUnlogged, "requests the server received with no decision line").toEqual([]);
      expect(clientUnlogged, "replies the client received with no decision line").toEqual([]);
    }
    console.log(`wrap kill -9, three rounds: ${figures.join("; ")}`);

    // The stale lock of the killed process does not stand in the way; the chain continues past any torn line.
    const again = new Driver(["--log", log]);
    expect((await again.call()).result).toBeDefined();
    expect((await again.close()).code).toBe(0);
    const after = verify(log);
    expect(after.status, after.stdout + after.stderr).toBe(0);
    if (lastStatus === 3) expect(after.stdout).toMatch(/1 torn line from earlier crashes closed on restart/);
  }, 90_000);

  it("serve, killed three times under 32 calls in flight: every message the server received and every result a client received has its decision line", async () => {
    const figures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const witness = join(tempDir(), "witness.jsonl");
      const { serve, url, log } = await startServe({ witness });
      // The id of every tool result a client received (ids repeat across clients: counted as a multiset).
      const results: (string | number)[] = [];
      const clients = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const c = new Client({ name: "load", version: "1" });
          const t = new StreamableHTTPClientTransport(new URL(url));
          await c.connect(t);
          const deliver = t.onmessage;
          t.onmessage = (m) => {
            if ("result" in m && "id" in m) results.push(m.id);
            deliver?.(m);
          };
          return c;
        }),
      );
      let stop = false;
      const loops = clients.flatMap((c) =>
        Array.from({ length: 8 }, async () => {
          while (!stop) {
            try {
              await c.callTool({ name: "echo", arguments: { message: "load" } });
            } catch {
              return;
            }
          }
        }),
      );
      const started = results.length;
      await until(() => results.length >= started + 100);
      const exited = new Promise<void>((resolve) => serve.once("exit", () => resolve()));
      serve.kill("SIGKILL");
      await exited;
      stop = true;
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await Promise.all(loops);

      const v = verify(log);
      expect([0, 3], v.stdout + v.stderr).toContain(v.status);
      expect(v.stderr).not.toMatch(/tampered/);
      // What reached the server (the witness appends each line before its SDK reads it), paired with `allow` lines by
      // the message's digest; what reached the clients, with the response lines.
      const records = new Records([witness], log);
      const serverUnlogged = records.account();
      const clientUnlogged = unlogged(results, log, "inbound", "response");
      figures.push(`${records.deliveries} at the server (${serverUnlogged.length} without a line), ${results.length} results at the clients (${clientUnlogged.length} without a line), verify exit ${v.status}`);
      expect(records.deliveries).toBeGreaterThan(100);
      expect(serverUnlogged, "messages the server received with no decision line").toEqual([]);
      expect(clientUnlogged, "results the clients received with no decision line").toEqual([]);
    }
    console.log(`serve kill -9, three rounds: ${figures.join("; ")}`);
  }, 120_000);

  it("a tampered log is reported as tampering (exit 1), a torn one as a crash (exit 3)", async () => {
    const dir = tempDir();
    const log = join(dir, "d.ndjson");
    const d = new Driver(["--log", log]);
    await d.burst(20);
    expect((await d.close()).code).toBe(0);
    expect(verify(log).status).toBe(0);
    const text = readFileSync(log, "utf8");
    const lines = text.trimEnd().split("\n");

    const torn = join(dir, "torn.ndjson");
    writeFileSync(torn, text + (lines[0] as string).slice(0, 50));
    const t = verify(torn);
    expect(t.status).toBe(3);
    expect(t.stderr).toMatch(/torn\.ndjson:\d+: torn last line \(crash\)/);

    const cases: Record<string, string[]> = {
      changed: lines.map((l, i) => (i === 5 ? l.replace('"decision":"allow"', '"decision":"deny"') : l)),
      removed: lines.filter((_l, i) => i !== 5),
      reordered: [...lines.slice(0, 5), lines[6] as string, lines[5] as string, ...lines.slice(7)],
      inserted: [...lines.slice(0, 5), lines[2] as string, ...lines.slice(5)],
      "a broken line inside": [...lines.slice(0, 5), (lines[5] as string).slice(0, 30), ...lines.slice(6)],
    };
    // The last line cut short while the head names it: a written line was damaged, not torn by a crash.
    cases.cut = [...lines.slice(0, -1), (lines.at(-1) as string).slice(0, 40)];
    for (const [what, content] of Object.entries(cases)) {
      const f = join(dir, `${what}.ndjson`);
      writeFileSync(f, content.join("\n") + (what === "cut" ? "" : "\n"));
      copyFileSync(`${log}.head`, `${f}.head`);
      // The CLI once (a process per case is slow on a busy machine); its code path, in-process, for the others.
      if (what === "changed") {
        const r = verify(f);
        expect(r.status, what).toBe(1);
        expect(r.stderr, what).toMatch(/changed\.ndjson:6: tampered: /);
        continue;
      }
      let err = "";
      const sink = new Writable({ write: (chunk: Buffer, _e, done) => ((err += chunk.toString()), done()) });
      expect(await runVerify([f], new Writable({ write: (_c, _e, done) => done() }), sink), what).toBe(1);
      expect(err, what).toMatch(/:\d+: tampered: /);
    }
  }, 120_000);
});

describe("--log-sync always", () => {
  it("a reply reaches the client only once its decision line is in the file", async () => {
    const log = join(tempDir(), "d.ndjson");
    const d = new Driver(["--log", log, "--log-sync", "always"]);
    for (let i = 0; i < 20; i++) {
      const r = await d.call();
      const id = r.id;
      // Read right after the reply arrived: the writer wrote (and fsynced) before forwarding.
      const lines = logLines(log);
      expect(lines.some((l) => l.id === id && l.direction === "inbound" && l.kind === "response")).toBe(true);
      expect(lines.some((l) => l.id === id && l.direction === "outbound" && l.kind === "request")).toBe(true);
    }
    // Under concurrency too: every reply of a burst was logged before it was delivered.
    const last = await d.burst(300);
    const logged = new Set(logLines(log).filter((l) => l.direction === "inbound").map((l) => l.id));
    expect(logged.has(last.id)).toBe(true);
    expect((await d.close()).code).toBe(0);
    expect(verify(log).status).toBe(0);
  }, 30_000);
});

describe("logSync: always (serve)", () => {
  it("each tool result reaches the client only once its decision line is in the file", async () => {
    const { serve, url, log } = await startServe({ config: ["logSync: always"] });
    try {
      const client = new Client({ name: "sync", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      for (let i = 1; i <= 5; i++) {
        await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
        const results = logLines(log).filter((l) => l.direction === "inbound" && l.kind === "response" && l.method === "tools/call");
        expect(results).toHaveLength(i);
      }
      await client.close();
    } finally {
      const exited = new Promise((r) => serve.once("exit", r));
      serve.kill("SIGTERM");
      await exited;
    }
    expect(verify(log).status).toBe(0);
  }, 60_000);
});

/** A 64 KiB tmpfs (root mounts one); undefined where it cannot be mounted. */
function smallDisk(): string | undefined {
  const dir = tempDir();
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
  return r.status === 0 ? dir : undefined;
}

describe("an unwritable or full log: traffic is refused, nothing forwarded unlogged, and it recovers", () => {
  const mounted: string[] = [];
  afterAll(() => {
    for (const m of mounted) spawnSync("umount", [m]);
  });

  const expectRefused = (reply: Record<string, unknown>, file: string, code: string) => {
    const error = reply.error as { code: number; data: { reasonCode: string[]; message: string } };
    expect(error.code).toBe(-32051);
    expect(error.data.reasonCode).toEqual(["LOG_UNAVAILABLE"]);
    expect(error.data.message).toContain(file);
    expect(error.data.message).toContain(code);
  };

  it.each(["interval", "always"])("ENOSPC mid-run (--log-sync %s): -32051 naming the log, then recovery when space is freed", async (sync) => {
    const disk = smallDisk();
    // Never skipped: a full disk is what this test is about, and CI runs as root.
    if (!disk) throw new Error("cannot mount a 64 KiB tmpfs here: the ENOSPC test needs root (mount -t tmpfs)");
    mounted.push(disk);
    const log = join(disk, "d.ndjson");
    const d = new Driver(["--log", log, "--log-sync", sync]);
    expect((await d.call()).result).toBeDefined();
    // Fill the disk: the next lines cannot be written.
    const filler = join(disk, "filler");
    spawnSync("bash", ["-c", `cat /dev/zero > ${filler} 2>/dev/null; true`]);
    const refused = await d.callUntil((r) => r.error !== undefined);
    expect(refused, "a request was refused while the disk was full").toBeDefined();
    expectRefused(refused as Record<string, unknown>, log, "ENOSPC");
    expect(d.stderr).toMatch(/cannot write the decision log .*d\.ndjson \(ENOSPC\)/);
    // Requests the server saw all have their lines held; the refused ones never reached it.
    rmSync(filler);
    const ok = await d.callUntil((r) => r.result !== undefined);
    expect(ok, "traffic resumes once the log can be written").toBeDefined();
    expect(d.stderr).toMatch(/is writable again/);
    expect((await d.close()).code).toBe(0);
    const v = verify(log);
    expect(v.status, v.stdout + v.stderr).toBe(0);
    // Every reply the client got as a result has its decision line: nothing was forwarded unlogged.
    const logged = new Set(logLines(log).filter((l) => l.direction === "inbound" && l.decision === "allow").map((l) => l.id));
    for (const [id, { msg }] of d.replies) if (msg.result) expect(logged.has(id), `reply ${id} logged`).toBe(true);
  }, 60_000);

  it("EFBIG (a file-size limit) mid-run: refused with -32051 naming the log; a restart closes the line it cut", async () => {
    const log = join(tempDir(), "d.ndjson");
    const d = new Driver(["--log", log], "ulimit -f 16;");
    let refused: Record<string, unknown> | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const r = await d.burst(20);
      if (r.error) refused = r;
    }
    expect(refused).toBeDefined();
    expectRefused(refused as Record<string, unknown>, log, "EFBIG");
    expect((await d.close()).code).toBe(0);
    // The file ends mid-line where the limit cut it (unless the cut fell between lines): a torn last line, not tampering.
    const cutMidLine = !readFileSync(log, "utf8").endsWith("\n");
    const v = verify(log);
    expect(v.status, v.stdout + v.stderr).toBe(cutMidLine ? 3 : 0);
    if (cutMidLine) expect(v.stderr).toMatch(/torn last line \(crash\)/);
    // A restart without the limit closes the torn line with a chained note and goes on: the log verifies.
    const again = new Driver(["--log", log]);
    expect((await again.call()).result).toBeDefined();
    expect((await again.close()).code).toBe(0);
    const after = verify(log);
    expect(after.status, after.stdout + after.stderr).toBe(0);
    if (cutMidLine) expect(after.stdout).toMatch(/1 torn line from earlier crashes closed on restart/);
  }, 60_000);

  it("a log path that cannot be created at start: one line naming the log and the fix, exit 2; the server, started meanwhile, is stopped unheard", () => {
    const dir = tempDir();
    const blocker = join(dir, "logs");
    writeFileSync(blocker, "a file where the log's directory should be");
    const log = join(blocker, "d.ndjson");
    const r = spawnSync(process.execPath, [CLI, "wrap", "--log", log, "--", process.execPath, RAW_SERVER], { encoding: "utf8", input: "" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([`guardwire: cannot write the decision log ${log}: a parent is not a directory (ENOTDIR); choose another path with --log`]);
  });
});

describe("one log, one writer", () => {
  it("a second wrap on a log another live guardwire writes is refused clearly; the first's log verifies", async () => {
    const log = join(tempDir(), "d.ndjson");
    const first = new Driver(["--log", log]);
    await first.call();
    const load = (async () => {
      for (let i = 0; i < 20; i++) await first.burst(100);
    })();
    const second = spawnSync(process.execPath, [CLI, "wrap", "--log", log, "--", process.execPath, RAW_SERVER], { encoding: "utf8", input: "" });
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`the decision log ${log} is already written by process ${first.proc.pid}`);
    await load;
    expect((await first.close()).code).toBe(0);
    expect(existsSync(`${log}.lock`)).toBe(false);
    expect(verify(log).status).toBe(0);
  }, 60_000);
});
