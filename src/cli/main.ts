#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { GuardwireError } from "../errors.js";
import { rulesJsonSchema } from "../guardian/rules/schema.js";
import { configJsonSchema } from "../config/schema.js";
import { describeProblems, PACKS_DIR, readAndLoadRules, rulesOrDefault } from "./rules.js";
import { printTestSummary, runTestFiles } from "./test-rules.js";
import { runTail } from "./tail.js";
import { runVerify } from "./verify.js";
import { runWrap, type WrapOptions } from "./wrap.js";
import { runServe, type ServeOptions } from "./serve.js";
import { DEFAULT_PINS } from "./guardians.js";
import { runGuardian, KEYS_ENV, type GuardianCommandOptions } from "./guardian.js";
import { wholeNumber } from "./startup.js";
import { PinFile } from "../guardian/state.js";
import { runScan, type ScanOptions } from "./scan.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const collect = (v: string, prev: string[] = []) => [...prev, ...v.split(",")];
const repeat = (v: string, prev: string[] = []) => [...prev, v];

// Every numeric option goes through one parser, with its range.
const port = wholeNumber("a port (0 picks a free one)", 0, 65535);
const frameBytes = wholeNumber("a size in bytes (1 KiB to 256 MiB)", 1024, 256 * 1024 * 1024);
const timeoutMs = wholeNumber("milliseconds (at most 10 minutes)", 1, 600_000);
const logBytes = wholeNumber("a size in bytes", 4096);

const program = new Command()
  .name("guardwire")
  .description("Guards AI-agent traffic: every MCP and A2A message judged, blocked or rewritten, and logged in a hash chain.")
  .version(pkg.version)
  .enablePositionalOptions()
  .exitOverride();

program
  .command("wrap")
  .description("launch a stdio MCP server behind the guardian (use in a client's MCP config)")
  .option("--rules <file|dir|pack>", "rule file, directory or shipped pack; repeatable, loaded in order as one set (default: balanced)", repeat)
  .option("--log <file>", "decision log file, or - for stderr", "./guardwire-decisions.ndjson")
  .option("--name <route>", "route name for the log and rules (default: derived from the server command)")
  .addOption(new Option("--fail-mode <mode>", "what to do when the guardian cannot judge").choices(["closed", "open"]).default("closed"))
  .option("--max-frame-bytes <n>", "largest message accepted", frameBytes)
  .option("--pins <file>", "where tool_changed keeps tool fingerprints", DEFAULT_PINS)
  .option("--guardian <url>", "also ask this remote AOS guardian (repeatable; a chain: most restrictive wins)", collect)
  .option("--guardian-timeout-ms <n>", "timeout for a remote guardian", timeoutMs, 2000)
  .option("--guardian-header <header>", "header sent to remote guardians, 'Name: value' (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
  .option("--no-watch", "do not reload the rules when they change")
  .option("--log-preview", "add a redacted, truncated preview of each message to the log (off: only digests)", false)
  .option("--log-max-bytes <n>", "rotate the log at this size (the chain continues across files)", logBytes)
  .addOption(new Option("--log-sync <when>", "always: forward a message only once its decision line is fsynced (group commit)").choices(["interval", "always"]).default("interval"))
  .argument("<command...>", "the server command, after --")
  .passThroughOptions()
  .action(async (command: string[], o: WrapOptions) => {
    process.exitCode = await runWrap(command, o);
  });

program
  .command("serve")
  .description("serve MCP routes (Streamable HTTP, legacy SSE, WebSocket) and A2A routes over HTTP, each message judged by the guardian")
  .requiredOption("--config <file>", "the serve configuration (YAML or JSON; `guardwire schema config` prints its JSON Schema)")
  .option("--pins <file>", "where tool_changed keeps tool fingerprints", DEFAULT_PINS)
  .option("--no-watch", "do not reload the rules when they change")
  .action(async (o: ServeOptions) => {
    await runServe(o);
  });

program
  .command("guardian")
  .description("serve the embedded guardian to other agents: AOS over HTTP (--port) or NDJSON on stdin/stdout (--stdio)")
  .option("--port <n>", "listen for AOS JSON-RPC over HTTP POST", port)
  .option("--host <host>", "address to listen on (beyond loopback, keys are required)", "127.0.0.1")
  .option("--key-file <file>", `callers must present one of these keys as Authorization: Bearer (one per line, "<key>" or "<id> <key>"; also ${KEYS_ENV})`)
  .option("--allow-unauthenticated-remote", "listen beyond loopback without keys (refused otherwise)", false)
  .option("--stdio", "speak AOS as NDJSON on stdin/stdout (announces `ready` first)", false)
  .option("--log <file>", "write each decision to this hash-chained log, or - for stderr (default: no log)")
  .option("--max-frame-bytes <n>", "largest request body accepted", frameBytes)
  .option("--rules <file|dir|pack>", "rule file, directory or shipped pack; repeatable, loaded in order as one set (default: balanced)", repeat)
  .option("--pins <file>", "where tool_changed keeps tool fingerprints", DEFAULT_PINS)
  .addOption(new Option("--fail-mode <mode>", "rule errors deny (closed) or are skipped (open)").choices(["closed", "open"]).default("closed"))
  .option("--no-watch", "do not reload the rules when they change")
  .action(async (o: GuardianCommandOptions) => {
    await runGuardian(o, pkg.version, process.env);
  });

program
  .command("scan")
  .description("start each configured MCP server, list what it offers, and report poisoned tools, injection, secrets and changed pins")
  .option("--client <name>", "scan this client's servers: claude-desktop, cursor (repeatable)", repeat)
  .option("--config <file>", "scan the servers of this client config file (JSON/JSONC with mcpServers or servers; repeatable)", repeat)
  .option("--json", "print the report as JSON (docs/scan.md)", false)
  .option("--timeout-ms <n>", "time each server has to start and list everything", timeoutMs, 15_000)
  .option("--pins <file>", "compare tools with these pins (read only)", DEFAULT_PINS)
  .action(async (o: ScanOptions) => {
    process.exitCode = await runScan(o, process.stdout);
  });

program
  .command("pins")
  .description("list or reset the pinned tool fingerprints that tool_changed compares against")
  .argument("[action]", "list | reset", "list")
  .argument("[server]", "with reset: only this server's pins")
  .option("--pins <file>", "the pins file", DEFAULT_PINS)
  .action((action: string, server: string | undefined, o: { pins: string }) => {
    const pins = new PinFile(o.pins);
    if (pins.problem) process.stderr.write(`guardwire: ${pins.problem}\n`);
    if (action === "list") {
      for (const [srv, tools] of Object.entries(pins.all())) {
        for (const [tool, fp] of Object.entries(tools)) process.stdout.write(`${srv}\t${tool}\t${fp.slice(0, 16)}\n`);
      }
      return;
    }
    if (action !== "reset") throw new GuardwireError("USAGE", `unknown pins action "${action}" (list or reset)`);
    const n = pins.reset(server);
    process.stdout.write(`reset ${n} pin${n === 1 ? "" : "s"}${server ? ` of ${server}` : ""}; tools are pinned again when next listed\n`);
  });

program
  .command("check")
  .description("validate rule files; prints every problem with file, line, column and key path")
  .argument("[paths...]", "rule files, directories or shipped packs, loaded in order as one set (default: balanced)")
  .action((paths: string[]) => {
    const { ruleSet, problems } = readAndLoadRules(rulesOrDefault(paths));
    if (!ruleSet) {
      process.stderr.write(describeProblems(problems) + "\n");
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`ok: ${ruleSet.rules.length} rules in ${ruleSet.name} (default ${ruleSet.default}, hash ${ruleSet.hash})\n`);
  });

program
  .command("test")
  .description("run rule tests (*.test.yaml): each case's message against the rules, decision and message compared")
  .argument("[path]", "a test file or a directory searched for *.test.yaml", PACKS_DIR)
  .option("--rules <file|dir|pack>", "run against these rules (repeatable, in order) instead of each test file's rules:", repeat)
  .action((path: string, o: { rules?: string[] }) => {
    const summary = runTestFiles(path, o.rules);
    printTestSummary(summary, process.stdout, Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);
    process.exitCode = summary.failed > 0 || summary.passed === 0 ? 1 : 0;
  });

program
  .command("schema")
  .description("print the JSON Schema of rule files or of the serve configuration (for editor completion)")
  .argument("<what>", "rules | config")
  .action((what: string) => {
    const schemas: Record<string, () => Record<string, unknown>> = { rules: rulesJsonSchema, config: configJsonSchema };
    const make = schemas[what];
    if (!make) throw new GuardwireError("USAGE", `unknown schema "${what}" (known: rules, config)`);
    process.stdout.write(JSON.stringify(make(), null, 2) + "\n");
  });

program
  .command("tail")
  .description("show decisions as readable lines, optionally following the log")
  .argument("[files...]", "decision logs (several: one per server), default ./guardwire-decisions.ndjson")
  .option("-f, --follow", "keep reading as decisions are written (survives rotation)", false)
  .option("--decision <d>", "only these decisions (allow, deny, modify); repeatable or comma-separated", collect)
  .option("--method <m>", "only these methods (globs)", collect)
  .option("--tool <t>", "only these tools (globs)", collect)
  .option("--session <s>", "only these sessions", collect)
  .option("--task <id>", "A2A: only exchanges about this task or context id (globs)", collect)
  .option("--json", "print the raw NDJSON lines", false)
  .option("--no-color", "no ANSI colours")
  .action(async (files: string[], o: { follow: boolean; decision?: string[]; method?: string[]; tool?: string[]; session?: string[]; task?: string[]; json: boolean; color: boolean }) => {
    const ac = new AbortController();
    process.once("SIGINT", () => ac.abort());
    process.once("SIGTERM", () => ac.abort());
    process.exitCode = await runTail(
      { file: files.length > 0 ? files : "./guardwire-decisions.ndjson", follow: o.follow, json: o.json, color: o.color && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, decision: o.decision, method: o.method, tool: o.tool, session: o.session, task: o.task, signal: ac.signal },
      process.stdout,
      process.stderr,
    );
  });

program
  .command("verify")
  .description("check the hash chain of decision logs (oldest file first); names the first bad line")
  .argument("<files...>", "decision log files")
  .option("--partial", "the oldest files were rotated away: start from the first line's prev instead of genesis", false)
  .action(async (files: string[], o: { partial: boolean }) => {
    process.exitCode = await runVerify(files, process.stdout, process.stderr, o);
  });

// Usage errors are one line, like every other error: what was wrong, and where to read more.
for (const command of [program, ...program.commands]) {
  const help = command === program ? "guardwire --help" : `guardwire ${command.name()} --help`;
  command.configureOutput({ outputError: (text, write) => write(`guardwire: ${text.trim().replace(/^error: /, "")} (see ${help})\n`) });
}

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof CommanderError) {
    // Already written by outputError; --help and --version end here too, with code 0.
    process.exitCode = e.exitCode === 0 ? 0 : 2;
    return;
  }
  if (e instanceof GuardwireError) {
    process.stderr.write(`guardwire: ${e.message}\n`);
    process.exitCode = e.code === "UPSTREAM_SPAWN_FAILED" ? 127 : 2;
    return;
  }
  process.stderr.write(`guardwire: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 70;
});
