import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, modulesInFile, ROOT, tempDir } from "../helpers.js";
import { startRedis, type RunningRedis } from "../support/redis.js";
import { stopChild, waitFor } from "../support/servers.js";
import { DecisionLog } from "../../dist/decision-log/writer.js";
import type { DecisionInput } from "../../dist/decision-log/record.js";

/*
 * What a new user trips over in the first hour with the CLI (issue 26), each through the built CLI in a real process.
 */

const gw = (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: opts.cwd, env: { ...process.env, NO_COLOR: "1", ...opts.env }, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const decision = (o: Partial<DecisionInput>): DecisionInput => ({
  session: "s-00000001",
  route: "fs",
  transport: "stdio",
  protocol: "mcp",
  direction: "outbound",
  kind: "request",
  id: 1,
  method: "tools/call",
  tool: "read_file",
  agent: null,
  decision: "allow",
  mode: "enforce",
  rules: [],
  reasonCode: [],
  message: "",
  evalUs: 10,
  digest: null,
  ...o,
});

/** A real decision log (the writer wrap and serve use), with these decisions in it. */
async function writeLog(file: string, inputs: DecisionInput[]): Promise<string> {
  const log = DecisionLog.open({ dest: file });
  for (const i of inputs) log.write(i);
  await log.close();
  return file;
}

describe("tail: --route, --agent and --rule", () => {
  let log: string;
  beforeAll(async () => {
    log = await writeLog(join(tempDir(), "decisions.ndjson"), [
      decision({ id: 1, route: "fs", agent: "ci-bot", decision: "deny", rules: ["no-credential-files"] }),
      decision({ id: 2, route: "fs", agent: "alice", decision: "allow", rules: [] }),
      decision({ id: 3, route: "github", agent: "ci-bot", decision: "modify", rules: ["redact-secrets-inbound", "log-pii"], direction: "inbound", kind: "response" }),
      decision({ id: 4, route: "github", agent: null, decision: "deny", rules: ["no-secrets-out"] }),
    ]);
  });
  const ids = (args: string[]) => {
    const r = gw(["tail", log, "--json", ...args]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    return r.out.trim().split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);
  };

  it("each filter alone, with globs, repeatable and comma-separated", () => {
    expect(ids(["--route", "fs"])).toEqual([1, 2]);
    expect(ids(["--route", "git*"])).toEqual([3, 4]);
    expect(ids(["--agent", "ci-bot"])).toEqual([1, 3]);
    expect(ids(["--agent", "alice,ci-*"])).toEqual([1, 2, 3]);
    expect(ids(["--rule", "no-*"])).toEqual([1, 4]);
    expect(ids(["--rule", "log-pii"])).toEqual([3]);
    expect(ids(["--rule", "no-secrets-out", "--rule", "no-credential-files"])).toEqual([1, 4]);
    // A comma inside {a,b} belongs to the glob, as in the console's filters.
    expect(ids(["--route", "{fs,github}"])).toEqual([1, 2, 3, 4]);
    expect(ids(["--rule", "{log-pii,no-secrets-out},no-credential-files"])).toEqual([1, 3, 4]);
  });

  it("filters combine with AND; a decision without the field (no agent, no rule) does not match a filter on it", () => {
    expect(ids(["--route", "github", "--agent", "*"])).toEqual([3]);
    expect(ids(["--agent", "*", "--rule", "*"])).toEqual([1, 3]);
    expect(ids(["--route", "fs", "--decision", "deny", "--rule", "no-credential-files", "--agent", "ci-bot"])).toEqual([1]);
    expect(ids(["--route", "nope"])).toEqual([]);
  });

  it("the readable lines are filtered the same way", () => {
    const r = gw(["tail", log, "--rule", "no-secrets-out"]);
    expect(r.out.trim().split("\n")).toHaveLength(1);
    expect(r.out).toMatch(/DENY .*\[no-secrets-out\]/);
  });
});

describe("a closed pipe ends a command quietly, with 0", () => {
  it("tail LOG | head -1 and schema admin | head -1", async () => {
    // More than a pipe holds, so tail is still writing when head has gone.
    const big = await writeLog(join(tempDir(), "big.ndjson"), Array.from({ length: 3000 }, (_, i) => decision({ id: i, message: "x".repeat(100) })));
    for (const cmd of [`"${process.execPath}" "${CLI}" tail "${big}" | head -1`, `"${process.execPath}" "${CLI}" schema admin | head -1`, `"${process.execPath}" "${CLI}" tail --json "${big}" | head -c 10`]) {
      const r = spawnSync("bash", ["-c", `set -o pipefail; ${cmd}`], { encoding: "utf8", timeout: 60_000 });
      expect(r.stderr, cmd).toBe("");
      expect(r.status, cmd).toBe(0);
      expect(r.stdout.length, cmd).toBeGreaterThan(0);
    }
  });
});

describe("tail with no log", () => {
  it("says it found none, where it looked and how to name one, and exits 1", () => {
    const dir = tempDir();
    const r = gw(["tail"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(`guardwire: no decision log found: looked for guardwire-decisions*.ndjson in ${dir}; name a log or a folder of logs: guardwire tail <file|folder> (install's servers log to ~/.guardwire/logs/)\n`);
    const named = gw(["tail", "gone.ndjson"], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.err).toBe(`guardwire: no decision log at ${join(dir, "gone.ndjson")}\n`);
  });
});

describe("serve's config: what it says and what it reads", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const KEY = Buffer.alloc(32, 7).toString("base64");
  const route = ["routes:", "  - { name: a, path: /mcp/a, mcp: { url: \"http://127.0.0.1:9/mcp\" } }"];

  it("a config that is not there: 'cannot read nope.yaml: no such file', exit 2", () => {
    const dir = tempDir();
    const r = gw(["serve", "--config", "nope.yaml"], { cwd: dir });
    expect(r.err).toBe("guardwire: cannot read nope.yaml: no such file\n");
    expect(r.code).toBe(2);
    mkdirSync(join(dir, "adir"));
    expect(gw(["serve", "--config", "adir"], { cwd: dir }).err).toBe("guardwire: cannot read adir: it is a directory\n");
  });

  it("a YAML syntax error is one problem, with its line", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.yaml"), ["listen: { host: 127.0.0.1, port: ${GW_PORT} }", "log: ./d.ndjson", ...route].join("\n"));
    const r = gw(["serve", "--config", "bad.yaml"], { cwd: dir, env: { GW_PORT: "0" } });
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toEqual(["guardwire: bad.yaml is not a valid configuration:", expect.stringMatching(/^ {2}bad\.yaml:1:\d+: .+ \(inside \{ \} or \[ \], quote a variable: "\$\{NAME\}"\)$/)]);
    writeFileSync(join(dir, "worse.yaml"), ["routes:", "  - name: a", "    path: /a", "    mcp: { command: [x", "  - b: c", "log: [", "x: }"].join("\n"));
    const w = gw(["serve", "--config", "worse.yaml"], { cwd: dir });
    expect(w.err.trim().split("\n")).toEqual(["guardwire: worse.yaml is not a valid configuration:", expect.stringMatching(/^ {2}worse\.yaml:\d+:\d+: /)]);
  });

  it("${ENV} gives numbers and booleans where the config wants them (listen.port, logPreview), quoted or not", async () => {
    const dir = tempDir();
    const config = join(dir, "guardwire.yaml");
    writeFileSync(config, ["listen:", "  host: 127.0.0.1", "  port: ${GW_PORT}", 'logPreview: "${GW_PREVIEW}"', "log: ./d.ndjson", ...route].join("\n"));
    const child = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { env: { ...process.env, GW_PORT: "0", GW_PREVIEW: "true" }, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const { match } = await waitFor(child, /serving (http:\/\/\S+)/);
      expect((await fetch(`${match[1]}/healthz`)).status).toBe(200);
    } finally {
      await stopChild(child);
    }
    const bad = gw(["serve", "--config", config], { env: { GW_PORT: "seventy", GW_PREVIEW: "maybe" } });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('guardwire.yaml:3:9: environment variable GW_PORT is "seventy", not a number (used as ${GW_PORT})');
    expect(bad.err).toContain('guardwire.yaml:4:13: environment variable GW_PREVIEW is "maybe", not true or false (used as ${GW_PREVIEW})');
    // Reported once: not again as the schema's "expected number".
    expect(bad.err.trim().split("\n")).toHaveLength(3);
  });

  it("serve --listen HOST:PORT overrides the config's: two replicas on one host from one config", async () => {
    const dir = tempDir();
    const config = join(dir, "guardwire.yaml");
    writeFileSync(config, ["listen: { host: 127.0.0.1, port: 1 }", `store: { redis: "${redis.url}" }`, 'sessions: { keys: ["${GUARDWIRE_SESSION_KEY}"] }', "log: ./logs/decisions.ndjson", ...route].join("\n"));
    const start = (replica: string) => spawn(process.execPath, [CLI, "serve", "--config", config, "--listen", "127.0.0.1:0", "--pins", join(dir, `pins-${replica}.json`)], { env: { ...process.env, GUARDWIRE_REPLICA: replica, GUARDWIRE_SESSION_KEY: KEY }, stdio: ["ignore", "pipe", "pipe"] });
    const replicas = [start("r1"), start("r2")];
    try {
      const bases = await Promise.all(replicas.map(async (c) => (await waitFor(c, /serving (http:\/\/\S+)/)).match[1] as string));
      expect(new Set(bases).size).toBe(2);
      for (const [i, base] of bases.entries()) {
        const health = (await (await fetch(`${base}/healthz`)).json()) as { replica?: string };
        expect(health.replica).toBe(`r${i + 1}`);
      }
    } finally {
      await Promise.all(replicas.map(stopChild));
    }
    expect(readdirSync(join(dir, "logs")).filter((f) => f.endsWith(".ndjson")).sort()).toEqual(["decisions.r1.ndjson", "decisions.r2.ndjson"]);
    // The refusals still apply to what --listen sets: a public address without agent keys.
    const open = gw(["serve", "--config", config, "--listen", "0.0.0.0:0"], { env: { GUARDWIRE_SESSION_KEY: KEY } });
    expect(open.code).toBe(2);
    expect(open.err).toContain("listening on 0.0.0.0 without agent keys is refused");
    const malformed = gw(["serve", "--config", config, "--listen", "7070"], { env: { GUARDWIRE_SESSION_KEY: KEY } });
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain("expected HOST:PORT");
  });
});

describe("rule files name a misspelt key's nearest known key", () => {
  it("check and wrap: `decison:` → did you mean \"decision\"?, reported once", () => {
    const dir = tempDir();
    const rules = join(dir, "rules.yaml");
    writeFileSync(rules, ["name: mine", "rules:", "  - id: no-rm", "    match: { tool: run_command }", "    decison: deny", "    mesage: no"].join("\n"));
    const check = gw(["check", rules]);
    expect(check.code).toBe(1);
    expect(check.err).toContain(`${rules}:3:5: rules[0]: unknown keys "decison" (did you mean "decision"?), "mesage" (did you mean "message"?); expected keys: id,`);
    expect(check.err).not.toContain("Invalid option");
    const wrap = gw(["wrap", "--rules", rules, "--log", join(dir, "d.ndjson"), "--", process.execPath, "-e", "0"]);
    expect(wrap.code).toBe(2);
    expect(wrap.err).toContain('(did you mean "decision"?)');
  });
});

describe("the demo and the repository root", () => {
  it("npm run demo's script removes its temporary folder; no stray log is committed at the root", () => {
    const tmp = tempDir("guardwire-demo-tmp-");
    const r = spawnSync(process.execPath, [join(ROOT, "examples", "demo.mjs")], { encoding: "utf8", env: { ...process.env, TMPDIR: tmp }, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok: \d+ lines, chain intact/);
    expect(r.stdout).toMatch(/The demo's folder .* is removed/);
    expect(readdirSync(tmp)).toEqual([]);
    const tracked = spawnSync("git", ["ls-files", "*.log"], { cwd: ROOT, encoding: "utf8" });
    expect(tracked.stdout).toBe("");
    expect(existsSync(join(ROOT, "gw.log"))).toBe(false);
  });
});

describe("each command loads only what it uses", () => {
  /** The modules a CLI run loads (guardwire's own, relative to dist/, and the packages), recorded by a resolve hook. */
  function modulesOf(args: string[]): { own: string[]; packages: string[] } {
    const dir = tempDir();
    const list = join(dir, "modules.txt");
    writeFileSync(join(dir, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(list)}, r.url + "\\n"); return r; }\n`);
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`);
    writeFileSync(list, "");
    spawnSync(process.execPath, ["--import", join(dir, "register.mjs"), CLI, ...args], { encoding: "utf8", timeout: 60_000 });
    const urls = [...new Set(spawnSync("cat", [list], { encoding: "utf8" }).stdout.trim().split("\n"))];
    // A file of the command line's bundle stands for the modules bundled into it.
    const paths = [...new Set(urls.filter((u) => u.startsWith("file:")).flatMap((u) => modulesInFile(fileURLToPath(u))))];
    const dist = `${join(ROOT, "dist")}/`;
    return {
      own: paths.filter((p) => p.startsWith(dist)).map((p) => p.slice(dist.length)).sort(),
      packages: [...new Set(paths.filter((p) => p.includes("/node_modules/")).map((p) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1]))].sort() as string[],
    };
  }

  it("--version: answered before the command line is even loaded", () => {
    const m = modulesOf(["--version"]);
    expect(m.own).toEqual(["cli/main.js"]);
    expect(m.packages).toEqual([]);
  });

  it("sessions and approvals: the admin client, no rules, proxy, transports, undici, zod or yaml", () => {
    for (const command of ["sessions", "approvals"]) {
      const m = modulesOf([command, "--admin", "http://127.0.0.1:1"]);
      expect(m.own).toContain(`cli/${command}.js`);
      expect(m.own).toContain("cli/admin-client.js");
      expect(m.own.filter((f) => /^(guardian|proxy|transports|config|admin|store|decision-log)\//.test(f))).toEqual([]);
      expect(m.packages).toEqual(["commander"]);
    }
  });
});
