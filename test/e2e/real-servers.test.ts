import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, readLog, ROOT, tempDir } from "../helpers.js";
import { until } from "../support/poll.js";
import { stopChild, waitFor } from "../support/servers.js";

/*
 * Real servers' ordinary traffic (issue 24): unmodified server-filesystem, server-memory, server-sequential-thinking
 * and a git server (@cyanheads/git-mcp-server, which runs git locally and needs no network), each driven by a real MCP
 * SDK client through `guardwire wrap` and through `guardwire serve`, with the default rules. About twenty ordinary
 * operations each — the ones that were blocked or changed before sites had roles: a .gitignore listing .env, a test
 * importing ../../src, a Dockerfile with NodeSource's `curl … | bash -` line, memory observations and thoughts about
 * .env and ~/.aws/credentials, a commit "Ignore local .env files". Every one must pass byte for byte: a transparent pipe
 * (support/tee-stdio.mjs) records what the server received and sent, and the client's side is recorded as it left and
 * arrived (a second pipe in front of wrap; the HTTP bodies for serve). The decision log must hold no deny or modify.
 */

const TEE = join(ROOT, "test", "support", "tee-stdio.mjs");
const pkg = (...p: string[]) => join(ROOT, "node_modules", ...p);

interface Line {
  dir: "in" | "out";
  line: string;
}
const readRecord = (file: string): Line[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line)
    : [];

type Call = { name: string; arguments: Record<string, unknown> };

interface ServerCase {
  name: string;
  /** The server's command line, and what it needs around it. */
  command: (dir: string) => { argv: string[]; env: Record<string, string> };
  prepare?: (dir: string) => void;
  calls: (dir: string) => Call[];
}

const NODESOURCE = "RUN curl -fsSL https://deb.nodesource.com/setup_20.x | bash -";

const FILESYSTEM: ServerCase = {
  name: "server-filesystem",
  command: (dir) => ({ argv: [process.execPath, pkg("@modelcontextprotocol", "server-filesystem", "dist", "index.js"), join(dir, "project")], env: {} }),
  prepare: (dir) => {
    const p = join(dir, "project");
    mkdirSync(join(p, "src", "lib"), { recursive: true });
    mkdirSync(join(p, "docs"), { recursive: true });
    writeFileSync(join(p, "README.md"), "# shop\n\nSet DATABASE_URL in your .env (see .env.example).\n");
    writeFileSync(join(p, "package.json"), '{ "name": "shop", "type": "module", "dependencies": { "dotenv": "^16.4.5" } }\n');
    writeFileSync(join(p, "src", "index.ts"), 'import "dotenv/config";\nexport const url = process.env.DATABASE_URL;\n');
    writeFileSync(join(p, "src", "lib", "retry.ts"), "export async function retry<T>(f: () => Promise<T>): Promise<T> { return f(); }\n");
    writeFileSync(join(p, "docs", "old-notes.md"), "Notes: keep secrets out of git; ~/.aws/credentials stays on the laptop.\n");
  },
  calls: (dir) => {
    const p = (...x: string[]) => join(dir, "project", ...x);
    return [
      { name: "list_allowed_directories", arguments: {} },
      { name: "create_directory", arguments: { path: p("test", "unit") } },
      { name: "create_directory", arguments: { path: p("scripts") } },
      { name: "write_file", arguments: { path: p(".gitignore"), content: "node_modules/\ndist/\n.env\n.env.local\n*.log\n" } },
      { name: "write_file", arguments: { path: p("test", "unit", "retry.test.ts"), content: 'import { retry } from "../../src/lib/retry.js";\nimport { expect, it } from "vitest";\n\nit("retries", async () => expect(await retry(async () => 1)).toBe(1));\n' } },
      { name: "write_file", arguments: { path: p("Dockerfile"), content: `FROM debian:12-slim\nRUN apt-get update && apt-get install -y curl ca-certificates\n${NODESOURCE}\nRUN apt-get install -y nodejs\nCOPY . /app\nWORKDIR /app\nCMD ["node", "dist/index.js"]\n` } },
      { name: "write_file", arguments: { path: p("scripts", "setup.sh"), content: "#!/bin/sh\n# installs pnpm the documented way\ncurl -fsSL https://get.pnpm.io/install.sh | sh -\ncp .env.example .env\n" } },
      { name: "write_file", arguments: { path: p(".env.example"), content: "DATABASE_URL=\nREDIS_URL=\n" } },
      { name: "edit_file", arguments: { path: p(".gitignore"), edits: [{ oldText: "*.log\n", newText: "*.log\n.env.*.local\n" }] } },
      { name: "read_text_file", arguments: { path: p("README.md") } },
      { name: "read_text_file", arguments: { path: p("Dockerfile"), head: 3 } },
      { name: "read_multiple_files", arguments: { paths: [p("package.json"), p("src", "index.ts")] } },
      { name: "list_directory", arguments: { path: p() } },
      { name: "list_directory_with_sizes", arguments: { path: p("src"), sortBy: "name" } },
      { name: "directory_tree", arguments: { path: p("src") } },
      { name: "search_files", arguments: { path: p(), pattern: "**/*.ts" } },
      { name: "search_files", arguments: { path: p(), pattern: "**/.env*", excludePatterns: ["node_modules"] } },
      { name: "get_file_info", arguments: { path: p("package.json") } },
      { name: "create_directory", arguments: { path: p("docs", "adr") } },
      { name: "move_file", arguments: { source: p("docs", "old-notes.md"), destination: p("docs", "adr", "0001-secrets.md") } },
      { name: "read_text_file", arguments: { path: p("docs", "adr", "0001-secrets.md") } },
      { name: "read_text_file", arguments: { path: p("scripts", "setup.sh") } },
      { name: "write_file", arguments: { path: p("src", "config.ts"), content: 'import { readFileSync } from "node:fs";\nconst env = readFileSync(new URL("../../.env", import.meta.url), "utf8");\nexport default env;\n' } },
    ];
  },
};

const MEMORY: ServerCase = {
  name: "server-memory",
  command: (dir) => ({ argv: [process.execPath, pkg("@modelcontextprotocol", "server-memory", "dist", "index.js")], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } }),
  calls: () => [
    { name: "create_entities", arguments: { entities: [{ name: "Ana", entityType: "person", observations: ["keeps her local settings in .env", "works on the payments service"] }] } },
    { name: "create_entities", arguments: { entities: [{ name: "payments-service", entityType: "project", observations: ["reads DATABASE_URL from .env at start", "deployed with the Dockerfile's NodeSource line"] }] } },
    { name: "create_relations", arguments: { relations: [{ from: "Ana", to: "payments-service", relationType: "maintains" }] } },
    { name: "add_observations", arguments: { observations: [{ entityName: "Ana", contents: ["rotates the keys in ~/.aws/credentials every month", "prefers ../../shared/config for common settings"] }] } },
    { name: "add_observations", arguments: { observations: [{ entityName: "payments-service", contents: ["its tests import ../../src/lib/retry.js", "setup runs curl -fsSL https://get.pnpm.io/install.sh | sh -"] }] } },
    { name: "read_graph", arguments: {} },
    { name: "search_nodes", arguments: { query: ".env" } },
    { name: "search_nodes", arguments: { query: "credentials" } },
    { name: "open_nodes", arguments: { names: ["Ana"] } },
    { name: "open_nodes", arguments: { names: ["Ana", "payments-service"] } },
    { name: "create_entities", arguments: { entities: [{ name: "ops-runbook", entityType: "document", observations: ["never cat ~/.ssh/id_rsa into a ticket", "ssh keys live in ~/.ssh with mode 600"] }] } },
    { name: "create_relations", arguments: { relations: [{ from: "payments-service", to: "ops-runbook", relationType: "documented_in" }] } },
    { name: "delete_observations", arguments: { deletions: [{ entityName: "Ana", observations: ["prefers ../../shared/config for common settings"] }] } },
    { name: "search_nodes", arguments: { query: "runbook" } },
    { name: "delete_relations", arguments: { relations: [{ from: "payments-service", to: "ops-runbook", relationType: "documented_in" }] } },
    { name: "read_graph", arguments: {} },
    { name: "add_observations", arguments: { observations: [{ entityName: "ops-runbook", contents: ["rm -rf ./build before a release build", "docker run --rm -v $PWD:/app node:20 npm test"] }] } },
    { name: "delete_entities", arguments: { entityNames: ["ops-runbook"] } },
    { name: "open_nodes", arguments: { names: ["payments-service"] } },
    { name: "read_graph", arguments: {} },
  ],
};

const thought = (n: number, text: string, total = 20) => ({ name: "sequentialthinking", arguments: { thought: text, thoughtNumber: n, totalThoughts: total, nextThoughtNeeded: n < total } });
const THINKING: ServerCase = {
  name: "server-sequential-thinking",
  command: () => ({ argv: [process.execPath, pkg("@modelcontextprotocol", "server-sequential-thinking", "dist", "index.js")], env: { DISABLE_THOUGHT_LOGGING: "true" } }),
  calls: () =>
    [
      "The deploy fails with AccessDenied; the CLI reads ~/.aws/credentials, so the [prod] profile is probably missing.",
      "I should not open ~/.aws/credentials myself; I will ask the user to run `aws configure list --profile prod`.",
      "The app loads .env at start; the .gitignore must list .env and .env.local so they are never committed.",
      "The test file imports ../../src/lib/retry.js, which resolves from test/unit to the source tree.",
      "The Dockerfile uses NodeSource: RUN curl -fsSL https://deb.nodesource.com/setup_20.x | bash - then apt-get install nodejs.",
      "A compose file would set DATABASE_URL from .env rather than inline.",
      "ssh asks for chmod 600 ~/.ssh/id_ed25519 when the key's mode is too open; then ssh -T git@github.com checks it.",
      "Next: write the .gitignore, then commit it with the message 'Ignore local .env files'.",
      "If I need the user's id_rsa.pub I can ask for the public key only.",
      "rm -rf ./build clears stale output before the release build; never rm -rf / or ~.",
      "The CI log mentions /etc/hosts entries for the database container; nothing to change there.",
      "docker run --rm -v $PWD:/app node:20 npm test reproduces CI locally.",
      "Review: secrets stay in .env, ~/.ssh and ~/.aws; the repository holds only .env.example.",
      "The retry helper needs a max-attempts option; the test under test/unit covers it.",
      "I will update the README to say: copy .env.example to .env and fill in DATABASE_URL.",
      "Check: does any file import from ../../../outside the repository? No.",
      "The pnpm installer is `curl -fsSL https://get.pnpm.io/install.sh | sh -` according to its docs.",
      "Summary of the plan so far: gitignore, compose, README, commit.",
      "Revising thought 6: the compose file may keep a local-only postgres password of 'postgres' for development.",
      "Done: the plan is complete and nothing needs the user's credentials.",
    ].map((t, i) => thought(i + 1, t)),
};

const GIT: ServerCase = {
  name: "git-mcp-server",
  command: (dir) => ({
    argv: [process.execPath, pkg("@cyanheads", "git-mcp-server", "dist", "index.js")],
    env: { MCP_TRANSPORT_TYPE: "stdio", MCP_LOG_LEVEL: "error", GIT_BASE_DIR: join(dir, "repo"), LOGS_DIR: join(dir, "git-logs"), GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" },
  }),
  prepare: (dir) => {
    const repo = join(dir, "repo");
    mkdirSync(join(repo, "src", "lib"), { recursive: true });
    mkdirSync(join(repo, "test", "unit"), { recursive: true });
    const git = (...a: string[]) => spawnSync("git", ["-C", repo, ...a], { encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("config", "user.name", "Dev");
    git("config", "user.email", "dev@example.com");
    git("config", "commit.gpgsign", "false");
    writeFileSync(join(repo, "README.md"), "# shop\n");
    writeFileSync(join(repo, "src", "lib", "retry.ts"), "export const retry = 1;\n");
    git("add", ".");
    git("commit", "-q", "-m", "Initial commit");
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n.env\n.env.local\n");
    writeFileSync(join(repo, "test", "unit", "retry.test.ts"), 'import { retry } from "../../src/lib/retry.js";\n');
    writeFileSync(join(repo, "Dockerfile"), `FROM debian:12-slim\n${NODESOURCE}\n`);
  },
  calls: (dir) => {
    const repo = join(dir, "repo");
    return [
      { name: "git_set_working_dir", arguments: { path: repo } },
      { name: "git_status", arguments: { path: repo } },
      { name: "git_diff", arguments: { path: repo } },
      { name: "git_add", arguments: { path: repo, paths: [".gitignore"] } },
      { name: "git_commit", arguments: { path: repo, message: "Ignore local .env files" } },
      { name: "git_add", arguments: { path: repo, paths: ["test/unit/retry.test.ts"] } },
      { name: "git_commit", arguments: { path: repo, message: "Test retry (imports ../../src/lib/retry.js)" } },
      { name: "git_add", arguments: { path: repo, paths: ["Dockerfile"] } },
      { name: "git_diff", arguments: { path: repo, staged: true } },
      { name: "git_commit", arguments: { path: repo, message: "Dockerfile: install Node 20 from NodeSource (curl -fsSL https://deb.nodesource.com/setup_20.x | bash -)" } },
      { name: "git_log", arguments: { path: repo, maxCount: 5 } },
      { name: "git_show", arguments: { path: repo, object: "HEAD~2", filePath: ".gitignore" } },
      { name: "git_branch", arguments: { path: repo, mode: "create", branchName: "feature/env-docs" } },
      { name: "git_branch", arguments: { path: repo, mode: "list" } },
      { name: "git_checkout", arguments: { path: repo, target: "feature/env-docs" } },
      { name: "git_status", arguments: { path: repo } },
      { name: "git_tag", arguments: { path: repo, mode: "create", tagName: "v0.1.0", message: "First release: .env handled, Docker image builds" } },
      { name: "git_tag", arguments: { path: repo, mode: "list" } },
      { name: "git_checkout", arguments: { path: repo, target: "main" } },
      { name: "git_log", arguments: { path: repo, maxCount: 10, oneline: true } },
    ];
  },
};

const SERVERS = [FILESYSTEM, MEMORY, THINKING, GIT];

/** What crossed each end, as raw JSON-RPC texts: the client's side and the server's side. */
interface Wire {
  clientSent: string[];
  clientGot: string[];
  serverGot: string[];
  serverSent: string[];
}

const idOf = (text: string): string | null => {
  try {
    const m = JSON.parse(text) as { id?: unknown; method?: unknown };
    return m.id === undefined || m.id === null ? null : JSON.stringify(m.id);
  } catch {
    return null;
  }
};
const methodOf = (text: string): string | null => {
  try {
    const m = JSON.parse(text) as { method?: unknown };
    return typeof m.method === "string" ? m.method : null;
  } catch {
    return null;
  }
};

/** Every request recorded going in has its answer recorded coming out (the record is complete). */
function answered(record: Line[]): boolean {
  const out = new Set(record.filter((l) => l.dir === "out").map((l) => idOf(l.line)));
  return record.filter((l) => l.dir === "in" && methodOf(l.line) !== null && idOf(l.line) !== null).every((l) => out.has(idOf(l.line)));
}

/** Runs the calls through a client, returning each result and what crossed the wire. */
async function drive(client: Client, calls: Call[]): Promise<{ results: { isError?: boolean; text: string }[] }> {
  const results: { isError?: boolean; text: string }[] = [];
  for (const call of calls) {
    const r = (await client.callTool(call)) as { isError?: boolean; content?: { type: string; text?: string }[] };
    results.push({ isError: r.isError, text: (r.content ?? []).map((c) => c.text ?? "").join("\n") });
  }
  return { results };
}

/** Through `guardwire wrap` (default rules): a tee in front of wrap (the client's side) and one in front of the server. */
async function throughWrap(s: ServerCase, dir: string): Promise<{ results: { isError?: boolean; text: string }[]; wire: Wire; log: string }> {
  const outer = join(dir, "client.jsonl");
  const inner = join(dir, "server.jsonl");
  const log = join(dir, "wrap.ndjson");
  const { argv, env } = s.command(dir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TEE, outer, "--", process.execPath, CLI, "wrap", "--log", log, "--pins", join(dir, "pins.json"), "--", process.execPath, TEE, inner, "--", ...argv],
    env: { ...(process.env as Record<string, string>), ...env, NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "real-servers-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    await client.listTools();
    const { results } = await drive(client, s.calls(dir));
    await until(() => [readRecord(inner), readRecord(outer)], (rs) => rs.every(answered), "every request on both records answered", 10_000);
    const o = readRecord(outer);
    const i = readRecord(inner);
    return {
      results,
      log,
      wire: {
        clientSent: o.filter((l) => l.dir === "in").map((l) => l.line),
        clientGot: o.filter((l) => l.dir === "out").map((l) => l.line),
        serverGot: i.filter((l) => l.dir === "in").map((l) => l.line),
        serverSent: i.filter((l) => l.dir === "out").map((l) => l.line),
      },
    };
  } finally {
    await client.close();
  }
}

/** Through `guardwire serve` (default rules) on loopback: the HTTP bodies are the client's side. */
async function throughServe(s: ServerCase, dir: string): Promise<{ results: { isError?: boolean; text: string }[]; wire: Wire; log: string }> {
  const inner = join(dir, "server.jsonl");
  const log = join(dir, "serve.ndjson");
  const { argv, env } = s.command(dir);
  const config = join(dir, "guardwire.yaml");
  const q = JSON.stringify;
  writeFileSync(
    config,
    [
      "listen: { host: 127.0.0.1, port: 0 }",
      `log: ${q(log)}`,
      "routes:",
      "  - name: real",
      "    path: /mcp/real",
      `    mcp: { command: ${q(process.execPath)}, args: ${q([TEE, inner, "--", ...argv])}, env: ${q(env)} }`,
    ].join("\n"),
  );
  const serve: ChildProcess = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
  const { match } = await waitFor(serve, /serving (http:\/\/\S+)/);
  const sent: string[] = [];
  const got: string[] = [];
  const reading: Promise<void>[] = [];
  const recordingFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (init?.method === "POST" && typeof init.body === "string") sent.push(init.body);
    const res = await fetch(url, init);
    const copy = res.clone();
    reading.push(
      copy.text().then(
        (body) => {
          if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
            for (const line of body.split("\n")) if (line.startsWith("data:")) got.push(line.slice(5).trimStart());
          } else if (body.length > 0) got.push(body);
        },
        () => undefined,
      ),
    );
    return res;
  };
  const client = new Client({ name: "real-servers-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${match[1]}/mcp/real`), { fetch: recordingFetch }));
    await client.listTools();
    const { results } = await drive(client, s.calls(dir));
    await client.close();
    await Promise.all(reading);
    await until(() => readRecord(inner), answered, "every request the server received answered", 10_000);
    const i = readRecord(inner);
    return {
      results,
      log,
      wire: { clientSent: sent, clientGot: got, serverGot: i.filter((l) => l.dir === "in").map((l) => l.line), serverSent: i.filter((l) => l.dir === "out").map((l) => l.line) },
    };
  } finally {
    await stopChild(serve);
  }
}

/** Every tools/call the client sent reached the server as the same bytes, and every answer came back as the server's bytes. */
function expectByteForByte(wire: Wire, calls: Call[]): void {
  const sentCalls = wire.clientSent.filter((t) => methodOf(t) === "tools/call");
  const gotCalls = wire.serverGot.filter((t) => methodOf(t) === "tools/call");
  expect(sentCalls).toHaveLength(calls.length);
  expect(gotCalls).toEqual(sentCalls);
  const answers = (texts: string[], ids: Set<string>) => texts.filter((t) => methodOf(t) === null && ids.has(idOf(t) ?? ""));
  const ids = new Set(sentCalls.map((t) => idOf(t) as string));
  const fromServer = answers(wire.serverSent, ids);
  expect(fromServer).toHaveLength(calls.length);
  expect(answers(wire.clientGot, ids)).toEqual(fromServer);
}

/** The log holds no refusal and no rewrite: everything ordinary was allowed (PII is only ever audited). */
function expectAllAllowed(log: string): void {
  const lines = readLog(log);
  expect(lines.length).toBeGreaterThan(20);
  const touched = lines.filter((l) => l.mode !== "audit" && l.decision !== "allow").map((l) => `${String(l.method)} ${String(l.tool ?? "")}: ${String(l.decision)} ${JSON.stringify(l.rules)} ${String(l.message)}`);
  expect(touched).toEqual([]);
}

/** A docker-compose file for local development, with the database URL written out (the issue's own example). */
const COMPOSE: ServerCase = {
  ...FILESYSTEM,
  name: "server-filesystem (docker-compose with a development database URL)",
  calls: (dir) => [
    ...FILESYSTEM.calls(dir).slice(0, 20),
    {
      name: "write_file",
      arguments: {
        path: join(dir, "project", "docker-compose.yml"),
        content: "services:\n  app:\n    build: .\n    environment:\n      DATABASE_URL: postgres://postgres:postgres@db:5432/app\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: postgres\n",
      },
    },
    { name: "read_text_file", arguments: { path: join(dir, "project", "docker-compose.yml") } },
  ],
};

describe("real servers' ordinary traffic passes byte for byte, through wrap and serve, with the default rules", () => {
  for (const s of SERVERS) {
    for (const via of ["wrap", "serve"] as const) {
      it(`${s.name} through ${via}: ${s.calls("/x").length} ordinary operations`, { timeout: 120_000 }, async () => {
        const dir = tempDir(`gw-real-${via}-`);
        s.prepare?.(dir);
        const calls = s.calls(dir);
        expect(calls.length).toBeGreaterThanOrEqual(20);
        const run = via === "wrap" ? await throughWrap(s, dir) : await throughServe(s, dir);
        const failed = run.results.map((r, i) => ({ call: calls[i]?.name, ...r })).filter((r) => r.isError);
        expect(failed).toEqual([]);
        expectByteForByte(run.wire, calls);
        expectAllAllowed(run.log);
      });
    }
  }

  // A development database URL with the image's default password is not a secret (docs/detection.md, secrets):
  // the compose file is written and read back byte for byte.
  it(`${COMPOSE.name} through wrap`, { timeout: 120_000 }, async () => {
    const dir = tempDir("gw-real-compose-");
    COMPOSE.prepare?.(dir);
    const calls = COMPOSE.calls(dir);
    const run = await throughWrap(COMPOSE, dir);
    expect(run.results.filter((r) => r.isError)).toEqual([]);
    expectByteForByte(run.wire, calls);
    expectAllAllowed(run.log);
  });
});
