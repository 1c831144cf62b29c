import { spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { once } from "node:events";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers.js";

/** A real CLI process; its failure must be one line on stderr, no stack, and the right exit code. */
function run(args: string[], opts: SpawnSyncOptions = {}, prefix: string[] = []) {
  const [cmd, ...rest] = [...prefix, process.execPath, CLI, ...args] as [string, ...string[]];
  const r = spawnSync(cmd, rest, { encoding: "utf8", timeout: 30_000, ...opts });
  return { status: r.status, stderr: String(r.stderr), lines: String(r.stderr).split("\n").filter((l) => l !== "") };
}

function expectOneLine(r: ReturnType<typeof run>, status: number, pattern: RegExp) {
  expect(r.lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.lines[0]).toMatch(/^guardwire: /);
  expect(r.lines[0]).toMatch(pattern);
  expect(r.status).toBe(status);
}

const pins = () => ["--pins", join(tempDir(), "pins.json")];

describe("numeric options: one shared parser, a clear refusal", () => {
  const cases: [string, string[]][] = [
    ["wrap --max-frame-bytes -5", ["wrap", "--max-frame-bytes", "-5", "--", "true"]],
    ["wrap --max-frame-bytes abc", ["wrap", "--max-frame-bytes", "abc", "--", "true"]],
    ["wrap --max-frame-bytes 1.5", ["wrap", "--max-frame-bytes", "1.5", "--", "true"]],
    ["wrap --max-frame-bytes 10k", ["wrap", "--max-frame-bytes", "10k", "--", "true"]],
    ["wrap --guardian-timeout-ms 0", ["wrap", "--guardian-timeout-ms", "0", "--", "true"]],
    ["wrap --log-max-bytes 10", ["wrap", "--log-max-bytes", "10", "--", "true"]],
    ["guardian --port abc", ["guardian", "--port", "abc"]],
    ["guardian --port 70000", ["guardian", "--port", "70000"]],
    ["guardian --max-frame-bytes -1", ["guardian", "--stdio", "--max-frame-bytes", "-1"]],
  ];
  it.each(cases)("%s", (_name, args) => {
    const option = args.find((a) => a.startsWith("--") && a !== "--stdio") as string;
    expectOneLine(run(args), 2, new RegExp(`option '${option} <n>' argument '.*' is invalid\\. expected .*a whole number .*\\(see guardwire \\w+ --help\\)$`));
  });

  it("accepts a valid number", () => {
    // Reaches the server command (which does not exist), so the number itself was accepted.
    const r = run(["wrap", "--log", "-", "--max-frame-bytes", "65536", ...pins(), "--", "/definitely/not/a/server"]);
    expect(r.stderr).not.toMatch(/is invalid/);
    expect(r.status).toBe(127);
  });

  it("an unknown option is one line too", () => {
    expectOneLine(run(["wrap", "--bogus", "--", "true"]), 2, /unknown option '--bogus'/);
  });
});

describe("start-up failures: one line with the fix, never a stack trace", () => {
  it("an unwritable decision log", () => {
    const dir = tempDir();
    const ro = join(dir, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    chmodSync(dir, 0o755);
    // root writes anywhere: without its override of file permissions then (setpriv, util-linux), as a user would hit
    // it. (Running as another user instead would need the checkout readable by that user, which a clone under
    // `mktemp -d` is not.)
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : [];
    const r = run(["wrap", "--pins", join(ro, "pins.json"), "--", "true"], { cwd: ro }, asUser);
    expectOneLine(r, 2, /^guardwire: cannot write the decision log \.\/guardwire-decisions\.true\.ndjson: permission denied \(EACCES\); choose another path with --log$/);
  });

  it("a log under a directory that cannot hold one (/proc) is refused at once, not a process spinning", () => {
    // Node 20's recursive mkdir loops forever on such a path; the timeout turns a regression into a failure.
    const r = run(["wrap", "--log", "/proc/guardwire-nope/d.ndjson", ...pins(), "--", "true"], { timeout: 15_000 });
    expectOneLine(r, 2, /^guardwire: cannot write the decision log \/proc\/guardwire-nope\/d\.ndjson: no such file or directory \(ENOENT\); choose another path with --log$/);
  });

  it("a log path that is a directory", () => {
    const dir = tempDir();
    expectOneLine(run(["guardian", "--stdio", "--log", dir, ...pins()], { input: "" }), 2, /cannot write the decision log .*: it is a directory \(EISDIR\); choose another path with --log$/);
  });

  it("guardian --port on a port in use", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    const { port } = taken.address() as { port: number };
    try {
      const child = spawn(process.execPath, [CLI, "guardian", "--port", String(port), ...pins()], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const [code] = (await once(child, "exit")) as [number];
      expectOneLine({ status: code, stderr, lines: stderr.split("\n").filter((l) => l !== "") }, 2, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use \\(EADDRINUSE\\); choose another --port`));
    } finally {
      taken.close();
    }
  }, 30_000);

  it("serve: a log that is a directory, and a port in use, name the config key to change", async () => {
    const dir = tempDir();
    const config = join(dir, "guardwire.yaml");
    const write = (listenPort: number, log: string) =>
      writeFileSync(config, [`listen: { host: 127.0.0.1, port: ${listenPort} }`, `log: ${log}`, "routes:", `  - { name: a, path: /a, mcp: { command: node } }`].join("\n"));
    write(0, ".");
    expectOneLine(run(["serve", "--config", config, ...pins()]), 2, new RegExp(`cannot write the decision log ${dir}: it is a directory \\(EISDIR\\); choose another path with log: in ${config}$`));
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      write((taken.address() as { port: number }).port, "./d.ndjson");
      const child = spawn(process.execPath, [CLI, "serve", "--config", config, ...pins()], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const [code] = (await once(child, "exit")) as [number];
      expectOneLine({ status: code, stderr, lines: stderr.split("\n").filter((l) => l !== "") }, 2, /the address is already in use \(EADDRINUSE\); choose another listen\.port in /);
    } finally {
      taken.close();
    }
  }, 30_000);

  it("guardian needs exactly one of --port and --stdio", () => {
    expectOneLine(run(["guardian", ...pins()]), 2, /give exactly one of --port <n> or --stdio/);
  });
});

describe("serve: a replica id names a log file", () => {
  it("an id that could leave the log's folder is refused at start, in one line", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "c.yaml"), 'listen: {host: 127.0.0.1, port: 0}\nroutes:\n  - name: a\n    path: /a\n    mcp: {command: "true"}\n');
    const r = run(["serve", "--config", join(dir, "c.yaml")], { env: { ...process.env, GUARDWIRE_REPLICA: "../evil" } });
    expectOneLine(r, 2, /replica id "\.\.\/evil" .* set replica\.id$/);
  });
});
