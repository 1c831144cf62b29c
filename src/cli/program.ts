import { setFlagsFromString } from "node:v8";
import { PACKAGE_VERSION, packageFile } from "../package-files.js";
import { Command, CommanderError, Option } from "commander";
import { DEFAULT_GUARDIAN_TIMEOUT_MS } from "../defaults.js";
import { GuardwireError, LOCAL_ERRORS } from "../errors.js";
import { CLIENTS } from "../install/client-names.js";
import { DEFAULT_PINS, hostAndPort, KEYS_ENV, wholeNumber } from "./options.js";
import type { WrapOptions } from "./wrap.js";
import type { ApprovalsOptions } from "./approvals.js";
import type { ConsoleOptions } from "./console.js";
import type { SessionsOptions } from "./sessions.js";
import type { ServeOptions } from "./serve.js";
import type { GuardianCommandOptions } from "./guardian.js";
import type { InstallCommandOptions } from "./install.js";
import type { ScanOptions } from "./scan.js";
import type { DecisionFilter } from "../observe/filter.js";

type TailCommandOptions = DecisionFilter & { pending: boolean; follow: boolean; json: boolean; color: boolean };

// The command line, loaded by main.ts for everything but `--version`. Each command loads its own code when it runs
// (`await import`), so `sessions` and `approvals` start in a fraction of the time the rules, the proxy and the
// transports take to load (test/cli/lazy-imports.test.ts holds every command to what it uses).
const PACKS_DIR = packageFile("rules");
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
  .version(PACKAGE_VERSION)
  .enablePositionalOptions()
  .exitOverride();

program
  .command("wrap")
  .description("launch a stdio MCP server behind the guardian (use in a client's MCP config)")
  .option("--rules <file|dir|pack>", "rule file, directory or shipped pack; repeatable, loaded in order as one set (default: balanced)", repeat)
  .option("--log <file>", "decision log file, or - for stderr (default: ./guardwire-decisions.<name>.ndjson, a file per server)")
  .option("--name <route>", "route name for the log and rules (default: derived from the server command)")
  .addOption(new Option("--fail-mode <mode>", "what to do when the guardian cannot judge").choices(["closed", "open"]).default("closed"))
  .option("--max-frame-bytes <n>", "largest message accepted", frameBytes)
  .option("--pins <file>", "where tool_changed keeps tool fingerprints", DEFAULT_PINS)
  .option("--guardian <url>", "also ask this remote AOS guardian (repeatable; a chain: most restrictive wins)", collect)
  .option("--guardian-timeout-ms <n>", "timeout for a remote guardian", timeoutMs, DEFAULT_GUARDIAN_TIMEOUT_MS)
  .option("--guardian-header <header>", "header sent to remote guardians, 'Name: value' (repeatable)", repeat)
  .option("--no-watch", "do not reload the rules when they change")
  .option("--log-preview", "add a redacted, truncated preview of each message to the log (off: only digests)", false)
  .option("--log-max-bytes <n>", "rotate the log at this size (the chain continues across files)", logBytes)
  .addOption(new Option("--log-sync <when>", "always: forward a message only once its decision line is fsynced (group commit)").choices(["interval", "always"]).default("interval"))
  // Alerts (docs/alerts.md): rules with `alert:` post to these webhooks.
  .option("--alert-webhook <url>", "post an alert here when a rule with alert: fires (repeatable)", repeat)
  .addOption(new Option("--alert-format <format>", "alert body: generic JSON or a Slack-compatible { text }").choices(["json", "slack"]))
  .addOption(new Option("--alert-min-severity <severity>", "only alerts this severe or more").choices(["low", "medium", "high", "critical"]))
  .option("--alert-header <header>", "header sent with each alert, 'Name: value' (repeatable)", repeat)
  .option("--alert-queue <n>", "alerts held per webhook before new ones are dropped (default 1000)", wholeNumber("a count (1 to 1,000,000)", 1, 1_000_000))
  .option("--alert-dedupe-seconds <n>", "post repeats of an alert (same rules, session, reason) once per this many seconds", wholeNumber("seconds", 0, 86_400))
  .option("--admin <host:port>", "serve the admin API (approvals, sessions, metrics) here, e.g. 127.0.0.1:7071 or unix:/path/admin.sock (see docs/approvals.md)")
  .option("--admin-token <token>", "the admin API's bearer token (or GUARDWIRE_ADMIN_TOKEN; on loopback one is made up, a Unix socket needs none)")
  .option("--admin-public-url <url>", "the admin API's root as approvers reach it (a reverse proxy): the approval links point there")
  .option("--approval-webhook <url>", "post each held message here as an approval request with signed approve/deny links (repeatable; needs --admin)", repeat)
  .option("--approval-webhook-header <header>", "header sent with each approval request, 'Name: value' (repeatable)", repeat)
  .option("--approvals-file <file>", "where remember: always approvals are kept across restarts, or none (default ~/.guardwire/approvals.json)")
  .argument("<command...>", "the server command, after --")
  .passThroughOptions()
  .action(async (command: string[], o: WrapOptions) => {
    const { runWrap } = await import("./wrap.js");
    process.exitCode = await runWrap(command, { ...o, version: PACKAGE_VERSION });
  });

program
  .command("approvals")
  .description("list the messages held for approval, approve / deny one, list or forget remembered approvals (through a running guardwire's admin API)")
  .argument("[action]", "list | approve | deny | remembered | forget", "list")
  .argument("[id]", "the approval id, with approve, deny or forget")
  .option("--admin <url>", "the admin API, http://HOST:PORT or unix:/path (default: GUARDWIRE_ADMIN_URL, or the one a running guardwire wrote down)")
  .option("--token <token>", "its bearer token (default: GUARDWIRE_ADMIN_TOKEN, or the one written down)")
  .addOption(new Option("--remember <scope>", "approve: also approve the same arguments again (up to the rule's remember)").choices(["once", "session", "always"]))
  .option("--reason <text>", "why: logged, and shown to the agent on a deny")
  .option("--json", "list as JSON", false)
  .option("--all", "forget: every remembered approval", false)
  .action(async (action: string, id: string | undefined, o: ApprovalsOptions) => {
    const { runApprovals } = await import("./approvals.js");
    process.exitCode = await runApprovals(id ? [action, id] : [action], o, process.stdout);
  });

program
  .command("sessions")
  .description("list the live sessions, or suspend / resume / kill one (through a running guardwire's admin API)")
  .argument("[action]", "list | suspend | resume | kill", "list")
  .argument("[id]", "the session id, with suspend, resume or kill")
  .option("--admin <url>", "the admin API (default: GUARDWIRE_ADMIN_URL, or the one a running guardwire wrote down)")
  .option("--token <token>", "its bearer token (default: GUARDWIRE_ADMIN_TOKEN, or the one written down)")
  .addOption(new Option("--mode <mode>", "suspend: hold new requests until resumed (default), or refuse them").choices(["hold", "refuse"]))
  .option("--reason <text>", "suspend, kill: why; logged and shown to the agent")
  .option("--json", "print JSON", false)
  .action(async (action: string, id: string | undefined, o: SessionsOptions) => {
    const { runSessions } = await import("./sessions.js");
    process.exitCode = await runSessions(id ? [action, id] : [action], o, process.stdout);
  });

program
  .command("console")
  .description("print the browser console's link (with its token) for a running guardwire's admin API; --open opens it")
  .option("--admin <url>", "the admin API (default: GUARDWIRE_ADMIN_URL, or the one a running guardwire wrote down)")
  .option("--token <token>", "its bearer token (default: GUARDWIRE_ADMIN_TOKEN, or the one written down)")
  .option("--open", "open the link in the default browser", false)
  .action(async (o: ConsoleOptions) => {
    const { runConsole } = await import("./console.js");
    process.exitCode = runConsole(o, process.stdout, process.stderr);
  });

program
  .command("serve")
  .description("serve MCP routes (Streamable HTTP, legacy SSE, WebSocket) and A2A routes over HTTP, each message judged by the guardian")
  .requiredOption("--config <file>", "the serve configuration (YAML or JSON; `guardwire schema config` prints its JSON Schema)")
  .option("--listen <host:port>", "listen here instead of the config's listen: (replicas on one host share one config)", hostAndPort)
  .option("--pins <file>", "where tool_changed keeps tool fingerprints", DEFAULT_PINS)
  .option("--no-watch", "do not reload the rules when they change")
  .action(async (o: ServeOptions) => {
    const { runServe } = await import("./serve.js");
    await runServe({ ...o, version: PACKAGE_VERSION });
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
    const { runGuardian } = await import("./guardian.js");
    await runGuardian(o, PACKAGE_VERSION, process.env);
  });

program
  .command("scan")
  .description("start each configured MCP server, list what it offers, and report poisoned tools, injection, secrets and changed pins")
  .option("--client <name>", `scan this client's servers: ${CLIENTS.join(", ")} (repeatable)`, repeat)
  .option("--config <file>", "scan the servers of this client config file (JSON/JSONC with mcpServers or servers; repeatable)", repeat)
  .option("--json", "print the report as JSON (docs/scan.md)", false)
  .option("--timeout-ms <n>", "time each server has to start and list everything", timeoutMs, 15_000)
  .option("--pins <file>", "compare tools with these pins (read only)", DEFAULT_PINS)
  .action(async (o: ScanOptions) => {
    const { runScan } = await import("./scan.js");
    process.exitCode = await runScan(o, process.stdout);
  });

program
  .command("pins")
  .description("the tools pinned by tool_changed: list, reset [server], show SERVER TOOL (what changed), approve SERVER TOOL")
  .argument("[action]", "list | reset | show | approve", "list")
  .argument("[args...]", "reset: [server]; show and approve: SERVER TOOL")
  .option("--pins <file>", "the pins file", DEFAULT_PINS)
  .option("--config <file>", "a serve config with store: the pins its replicas share in Redis")
  .action(async (action: string, args: string[], o: { pins: string; config?: string }) => {
    const { runPins, runSharedPins } = await import("./pins.js");
    await (o.config ? runSharedPins(action, args, o.config, process.stdout, process.stderr) : runPins(action, args, o.pins, process.stdout, process.stderr));
  });

program
  .command("check")
  .description("validate rule files; prints every problem with file, line, column and key path")
  .argument("[paths...]", "rule files, directories or shipped packs, loaded in order as one set (default: balanced)")
  .action(async (paths: string[]) => {
    const { describeProblems, readAndLoadRules, rulesOrDefault } = await import("./rules.js");
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
  .action(async (path: string, o: { rules?: string[] }) => {
    const { printTestSummary, runTestFiles } = await import("./test-rules.js");
    const summary = runTestFiles(path, o.rules);
    printTestSummary(summary, process.stdout, Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);
    process.exitCode = summary.failed > 0 || summary.passed === 0 ? 1 : 0;
  });

program
  .command("schema")
  .description("print the JSON Schema of rule files or of the serve configuration (for editor completion), or the admin API's OpenAPI document")
  .argument("<what>", "rules | config | admin")
  .action(async (what: string) => {
    const schemas: Record<string, () => Record<string, unknown> | Promise<Record<string, unknown>>> = {
      rules: async () => (await import("../guardian/rules/schema.js")).rulesJsonSchema(),
      config: async () => (await import("../config/schema.js")).configJsonSchema(),
      // Loaded only here and when the listener is asked for it: wrap and serve start without it.
      admin: async () => (await import("../admin/openapi.js")).adminOpenApi(PACKAGE_VERSION),
    };
    const make = schemas[what];
    if (!make) throw new GuardwireError("USAGE", `unknown schema "${what}" (known: rules, config, admin)`);
    process.stdout.write(JSON.stringify(await make(), null, 2) + "\n");
  });

program
  .command("tail")
  .description("show decisions as readable lines, optionally following the log")
  .argument("[files...]", "decision logs or directories of them (several: merged by time); default: every guardwire-decisions*.ndjson here")
  .option("-f, --follow", "keep reading as decisions are written (survives rotation)", false)
  .option("--decision <d>", "only these decisions (allow, deny, modify, ask); repeatable or comma-separated", collect)
  .option("--method <m>", "only these methods (globs)", repeat)
  .option("--tool <t>", "only these tools (globs)", repeat)
  .option("--session <s>", "only these sessions", repeat)
  .option("--route <r>", "only these routes (serve's route names, wrap's --name; globs)", repeat)
  .option("--agent <a>", "only these callers (serve's agent ids; globs)", repeat)
  .option("--rule <id>", "only decisions naming one of these rules (globs)", repeat)
  .option("--task <id>", "A2A: only exchanges about this task or context id (globs)", collect)
  .option("--json", "print the raw NDJSON lines", false)
  .option("--pending", "only approvals still held (requested, not yet decided)", false)
  .option("--no-color", "no ANSI colours")
  .action(async (files: string[], o: TailCommandOptions) => {
    const [{ runTail }, { defaultLogs }, { splitPatterns }] = await Promise.all([import("./tail.js"), import("./log-files.js"), import("../observe/filter.js")]);
    const ac = new AbortController();
    process.once("SIGINT", () => ac.abort());
    process.once("SIGTERM", () => ac.abort());
    const { color, ...given } = o;
    // Glob filters are split here, at commas outside `{a,b}`, as the console's are (src/observe/filter.ts).
    const rest = { ...given };
    for (const k of ["method", "tool", "session", "route", "agent", "rule"] as const) if (rest[k]) rest[k] = rest[k].flatMap(splitPatterns);
    process.exitCode = await runTail(
      { ...rest, file: files.length > 0 ? files : defaultLogs(), defaulted: files.length === 0, color: color && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, signal: ac.signal },
      process.stdout,
      process.stderr,
    );
  });

program
  .command("verify")
  .description("check the hash chain of every decision log given (a log with its rotated files is one chain); names the first bad line")
  .argument("<files...>", "decision log files, or directories of them")
  .option("--partial", "the oldest files were rotated away: start from the first line's prev instead of genesis", false)
  .action(async (files: string[], o: { partial: boolean }) => {
    const { runVerify } = await import("./verify.js");
    process.exitCode = await runVerify(files, process.stdout, process.stderr, o);
  });

const clientList = `client to change (${CLIENTS.join(", ")}); repeatable or comma-separated (default: all)`;

program
  .command("install")
  .description("guard every stdio MCP server of the clients installed here: each entry becomes `guardwire wrap … -- <its command>` (docs/install.md)")
  .option("--client <name>", clientList, collect)
  .option("--all", "every client found (the default)", false)
  .option("--rules <file|dir|pack>", "the rules each wrapped server uses; repeatable, in order (default: balanced)", repeat)
  .option("--log <dir>", "folder for the decision logs, one file per server (default: ~/.guardwire/logs)")
  .option("--on-path", "run `guardwire` from PATH instead of this Node and this guardwire by absolute path", false)
  .option("--dry-run", "change nothing; print a unified diff of each file that would change", false)
  .action(async (o: InstallCommandOptions) => {
    const { runInstall } = await import("./install.js");
    process.exitCode = runInstall(o);
  });

program
  .command("uninstall")
  .description("put back every entry install changed: byte for byte when the file is as install left it, otherwise only guardwire's entries")
  .option("--client <name>", clientList, collect)
  .option("--dry-run", "change nothing; print a unified diff of each file that would change", false)
  .action(async (o: { client?: string[]; dryRun: boolean }) => {
    const { runUninstall } = await import("./install.js");
    process.exitCode = runUninstall(o);
  });

program
  .command("doctor")
  .description("check that every server is guarded, the logs are writable, the rules load and the pins file reads; a fix for each problem")
  .option("--client <name>", clientList, collect)
  .option("--pins <file>", "the pins file", DEFAULT_PINS)
  .action(async (o: { client?: string[]; pins: string }) => {
    const { runDoctor } = await import("./install.js");
    process.exitCode = runDoctor(o);
  });

// The detectors load the shell grammar (WebAssembly) asynchronously: every command that judges or loads rules waits
// for it, so that nothing is judged before it is there. Loaded here, not at the top, so that --version and --help do
// not pay for it, nor the commands that never judge (they talk to a running guardwire, or read a log or a file).
// `wrap` waits for it itself, after starting its server (wrap.ts), so that the two load at once.
const JUDGES_NOTHING = new Set(["approvals", "sessions", "console", "tail", "verify", "schema", "pins", "uninstall"]);
program.hook("preAction", async (_program, command) => {
  if (JUDGES_NOTHING.has(command.name())) return;
  // A command that judges compiles each regular expression made from here on (the detectors') to machine code on its
  // first use, instead of interpreting it once first (V8's default: one "tick" before tier-up). The detectors' large
  // case-insensitive expressions cost 2-3 times more the default way: a process's first judgement of
  // server-everything's `initialize` result took ~220 ms against ~85 ms (docs/benchmarks.md). Only the tick count
  // changes, so every expression still takes V8's ordinary tier-up path (`--no-regexp-tier-up` set at run time
  // crashed 1 start in 60 and is not used; this one, 0 in 440: `node bench/starts.mjs`). Commands that judge nothing
  // keep the default, cheaper for expressions run once.
  setFlagsFromString("--regexp-tier-up-ticks=0");
  if (command.name() === "wrap") return;
  const { detectorsReady } = await import("../guardian/detectors/index.js");
  await detectorsReady().catch((e: unknown) => {
    throw new GuardwireError("RULES_INVALID", `the detectors could not be loaded (reinstall guardwire): ${(e as Error).message}`);
  });
});

// Usage errors are one line, like every other error: what was wrong, and where to read more.
for (const command of [program, ...program.commands]) {
  const help = command === program ? "guardwire --help" : `guardwire ${command.name()} --help`;
  command.configureOutput({ outputError: (text, write) => write(`guardwire: ${text.trim().replace(/^error: /, "")} (see ${help})\n`) });
}

// A closed pipe (`guardwire tail LOG | head -1`) ends a command quietly, with 0: the reader has what it wanted.
// wrap and guardian speak a protocol on stdout and handle its end themselves.
program.hook("preAction", (_program, command) => {
  if (command.name() === "wrap" || command.name() === "guardian") return;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(0);
  });
});

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof CommanderError) {
    // Already written by outputError; --help and --version end here too, with code 0.
    process.exitCode = e.exitCode === 0 ? 0 : 2;
    return;
  }
  // A command that failed may have opened things that keep the process alive (a Redis link, timers): it ends here.
  if (e instanceof GuardwireError) {
    process.stderr.write(`guardwire: ${e.message}\n`);
    process.exit(LOCAL_ERRORS[e.code].exit);
  }
  process.stderr.write(`guardwire: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(70);
});
