import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLog, tempDir } from "../helpers.js";
import { RawWrap } from "./raw-wrap.js";

describe("guardwire wrap under hostile input", () => {
  const dir = tempDir();
  const log = join(dir, "d.ndjson");
  const w = new RawWrap(["--log", log, "--rules", join(import.meta.dirname, "..", "fixtures", "rules", "acceptance.yaml")]);
  afterAll(() => w.close());

  it("garbage → -32700 with id null, and the proxy keeps serving", async () => {
    w.write("this is not json\n");
    expect(await w.reply(null)).toMatchObject({ error: { code: -32700 } });
    w.send({ jsonrpc: "2.0", id: 1, method: "hello" });
    expect(await w.reply(1)).toMatchObject({ result: { method: "hello" } });
  });

  it("invalid JSON-RPC → -32600 with the id when readable", async () => {
    w.send({ jsonrpc: "1.0", id: 2, method: "x" });
    expect(await w.reply(2)).toMatchObject({ error: { code: -32600 } });
    w.send({ jsonrpc: "2.0", id: 3, method: 42 });
    expect(await w.reply(3)).toMatchObject({ error: { code: -32600 } });
  });

  it("200k-deep nesting → -32600 carrying the id, no crash", async () => {
    w.write('{"jsonrpc":"2.0","id":4,"method":"deep","params":' + "[".repeat(200_000) + "]".repeat(200_000) + "}\n");
    expect(await w.reply(4)).toMatchObject({ error: { code: -32600 } });
  });

  it("a 40 MB line is refused with an error carrying the id read from its start", async () => {
    const head = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"blob":"';
    w.write(head);
    const chunk = "a".repeat(1024 * 1024);
    for (let i = 0; i < 40; i++) w.write(chunk);
    w.write('"}}}\n');
    const r = await w.reply(5, 20_000);
    expect(r).toMatchObject({ error: { code: -32600 } });
    expect(String((r.error as { message: string }).message)).toMatch(/too large/);
    w.send({ jsonrpc: "2.0", id: 6, method: "still-alive" });
    expect(await w.reply(6)).toMatchObject({ result: { method: "still-alive" } });
  });

  it("__proto__ and constructor keys pass through as plain data", async () => {
    w.write('{"jsonrpc":"2.0","id":7,"method":"p","params":{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}}\n');
    const r = await w.reply(7);
    expect(JSON.stringify(r.result)).toContain('"__proto__":{"admin":true}');
  });

  it("lone surrogates do not break the session", async () => {
    w.write('{"jsonrpc":"2.0","id":8,"method":"s","params":{"t":"\\ud800 and \\udfff"}}\n');
    const r = await w.reply(8);
    expect((r.result as { echo: { t: string } }).echo.t).toBe("\ud800 and \udfff");
    w.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":9,"method":"s","params":{"t":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}\n')]));
    expect(await w.reply(9)).toHaveProperty("result");
  });

  it("a server that prints non-JSON to stdout does not break the session", async () => {
    w.send({ jsonrpc: "2.0", id: 10, method: "garbage" });
    expect(await w.reply(10)).toMatchObject({ result: { after: "garbage" } });
  });

  it("batches are split, each element judged, replies re-joined in one array", async () => {
    w.send([
      { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "get-sum", arguments: { a: 500, b: 1 } } },
      { jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "echo", arguments: { message: "a secret" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "1.0", id: 13 },
    ]);
    const batch = (await w.next((m) => Array.isArray(m))) as { id: number; result?: { isError?: boolean; echo?: unknown }; error?: { code: number } }[];
    const byId = new Map(batch.map((r) => [r.id, r]));
    expect(batch).toHaveLength(3);
    expect(byId.get(11)?.result?.isError).toBe(true);
    expect(byId.get(12)?.result?.echo).toEqual({ name: "echo", arguments: { message: "a [hidden]" } });
    expect(byId.get(13)?.error?.code).toBe(-32600);
    const from = w.mark();
    w.send([]);
    expect(await w.reply(null, undefined, from)).toMatchObject({ error: { code: -32600 } });
  });

  it("a server→client request is judged; a denied one is answered to the server and never reaches the client", async () => {
    w.send({ jsonrpc: "2.0", id: 14, method: "ask-client", params: { text: "something forbidden" } });
    const answer = await w.reply(14);
    expect(answer).toMatchObject({ result: { clientSaid: { code: -32050, message: "Denied by policy" } } });
    expect(w.lines.some((m) => (m as { method?: string }).method === "sampling/createMessage")).toBe(false);

    w.send({ jsonrpc: "2.0", id: 15, method: "ask-client", params: { text: "fine" } });
    const req = (await w.next((m) => (m as { method?: string }).method === "sampling/createMessage")) as { id: string };
    w.send({ jsonrpc: "2.0", id: req.id, result: { role: "assistant", content: { type: "text", text: "ok" }, model: "m" } });
    expect(await w.reply(15)).toMatchObject({ result: { clientSaid: { model: "m" } } });
  });

  it("every one of those was logged", async () => {
    // The log is flushed every 100 ms while running.
    const expected = ["PARSE_ERROR", "INVALID_REQUEST", "TOO_DEEP", "FRAME_TOO_LARGE", "TOO_BIG", "SAMPLING_FORBIDDEN"];
    await expect.poll(() => readLog(log).flatMap((l) => l.reasonCode as string[]), { timeout: 3000 }).toEqual(expect.arrayContaining(expected));
  });
});

describe("guardwire wrap lifecycle", () => {
  it("passes stderr through and exits with the server's exit code", async () => {
    const w = new RawWrap(["--log", join(tempDir(), "l.ndjson")], undefined, { EXIT_CODE: "7" });
    w.send({ jsonrpc: "2.0", id: 1, method: "stderr" });
    await w.reply(1);
    const exit = await w.close();
    expect(exit.code).toBe(7);
    expect(w.stderr).toContain("raw-server: hello on stderr");
  });

  it("answers every pending request with -32052 when the server crashes, and exits with its code", async () => {
    const log = join(tempDir(), "l.ndjson");
    const w = new RawWrap(["--log", log]);
    w.send({ jsonrpc: "2.0", id: "a", method: "hang" });
    w.send({ jsonrpc: "2.0", id: "b", method: "crash" });
    const [a, b] = await Promise.all([w.reply("a"), w.reply("b")]);
    for (const r of [a, b]) expect(r).toMatchObject({ error: { code: -32052, message: "Upstream unavailable", data: { reason: expect.stringContaining("code 3") } } });
    expect((await w.exited).code).toBe(3);
    expect(readLog(log).filter((l) => (l.reasonCode as string[]).includes("UPSTREAM_UNAVAILABLE"))).toHaveLength(2);
  });

  it("forwards SIGTERM to the server and exits with its code", async () => {
    const w = new RawWrap(["--log", join(tempDir(), "l.ndjson")], undefined, { EXIT_ON_TERM: "42" });
    w.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await w.reply(1);
    w.proc.kill("SIGTERM");
    expect((await w.exited).code).toBe(42);
    expect(w.stderr).toContain("got SIGTERM");
  });

  it("says clearly when the command cannot be started", async () => {
    const w = new RawWrap(["--log", join(tempDir(), "l.ndjson")], ["definitely-not-a-command-xyz"]);
    const exit = await w.exited;
    expect(exit.code).toBe(127);
    expect(w.stderr).toContain('Cannot start upstream "definitely-not-a-command-xyz": command not found (check PATH)');
  });

  it("refuses to start on a broken rule file, naming file, line and key", async () => {
    const dir = tempDir();
    const rules = join(dir, "bad.yaml");
    (await import("node:fs")).writeFileSync(rules, "name: bad\nrules:\n  - id: x\n    decision: nope\n");
    const w = new RawWrap(["--rules", rules, "--log", join(dir, "l.ndjson")]);
    const exit = await w.exited;
    expect(exit.code).toBe(2);
    expect(w.stderr).toContain(`${rules}:4:`);
    expect(w.stderr).toContain("rules[0].decision");
  });

  // The server starts while guardwire loads (docs/benchmarks.md, start-up): when guardwire then cannot start, the
  // server is stopped, and nothing it said reaches the client or stderr.
  it("a server started before a broken rule file is found is stopped, unheard", async () => {
    const fs = await import("node:fs");
    const dir = tempDir();
    const rules = join(dir, "bad.yaml");
    fs.writeFileSync(rules, "name: bad\nrules:\n  - id: x\n    decision: nope\n");
    const pidFile = join(dir, "server.pid");
    const server = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stderr.write("early server talking\\n"); process.stdout.write("{}\\n"); setInterval(() => {}, 1000);`;
    const w = new RawWrap(["--rules", rules, "--log", join(dir, "l.ndjson")], [process.execPath, "-e", server]);
    const exit = await w.exited;
    expect(exit.code).toBe(2);
    expect(w.stderr).toContain(`${rules}:4:`);
    expect(w.stderr).not.toContain("early server talking");
    expect(w.lines).toEqual([]);
    // It did start (before the rules were read), and it is gone.
    const started = Date.now();
    while (!fs.existsSync(pidFile) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    // Gone, or dead and waiting to be reaped (a zombie: its parent, guardwire, has exited).
    const alive = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      try {
        return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
      } catch {
        return true;
      }
    };
    while (alive() && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("a signal while guardwire starts ends it by that signal, and stops the server it started", async () => {
    const fs = await import("node:fs");
    const dir = tempDir();
    const pidFile = join(dir, "server.pid");
    const server = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const w = new RawWrap(["--log", join(dir, "l.ndjson")], [process.execPath, "-e", server]);
    const started = Date.now();
    while (!fs.existsSync(pidFile) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 10));
    w.proc.kill("SIGTERM");
    const exit = await w.exited;
    // Most likely still loading (killed by the signal, as before); if it had just finished, it forwards the signal to
    // the server and exits with the server's 128+15. Either way the server is gone.
    expect(exit.signal === "SIGTERM" || exit.code === 143).toBe(true);
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    const dead = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      try {
        return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] === "Z";
      } catch {
        return false;
      }
    };
    while (!dead() && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    expect(dead()).toBe(true);
  });

  it("the first message, sent before guardwire has loaded, is judged like any other", async () => {
    const dir = tempDir();
    const rules = join(dir, "deny-ping.yaml");
    (await import("node:fs")).writeFileSync(rules, "name: t\nrules:\n  - id: no-ping\n    match: { method: ping }\n    decision: deny\n    message: no ping\n");
    const log = join(dir, "l.ndjson");
    const record = join(dir, "server-saw.ndjson");
    const w = new RawWrap(["--rules", rules, "--log", log], undefined, { RAW_RECORD: record });
    // Written at once: guardwire reads it only once its session exists.
    w.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    const reply = await w.reply(1, 30_000);
    expect((reply.error as { code: number }).code).toBe(-32050);
    await w.close();
    const lines = readLog(log);
    expect(lines.find((l) => l.id === 1 && l.method === "ping")?.decision).toBe("deny");
    const fs = await import("node:fs");
    expect(fs.existsSync(record) ? fs.readFileSync(record, "utf8") : "").not.toContain('"ping"');
  });
});
