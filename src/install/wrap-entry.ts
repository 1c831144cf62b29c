import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import type { ClientConfig, ServerEntry } from "./clients.js";

/** How install writes `guardwire wrap` into an entry. */
export interface WrapSettings {
  /** The command that runs guardwire, then its leading arguments: `[node, /abs/dist/cli/main.js]` or `["guardwire"]`. */
  guardwire: string[];
  /** Each server logs to its own file here (a log file has one writer). */
  logDir: string;
  /** `--rules` values, in order (absolute paths or shipped pack names). */
  rules: string[];
}

export interface Launch {
  command: string;
  /** Absent when the entry has no `args` key. */
  args?: string[];
}

/** `guardwire wrap --name <server> --log <file> [--rules …] -- <command> <args…>`, as the entry's new command and args. */
export function wrapLaunch(server: ServerEntry, log: string, s: WrapSettings): Required<Launch> {
  const [command, ...lead] = s.guardwire as [string, ...string[]];
  const rules = s.rules.flatMap((r) => ["--rules", r]);
  const inner = [server.command as string, ...(server.args ?? [])];
  return { command, args: [...lead, "wrap", "--name", server.name, "--log", log, ...rules, "--", ...inner] };
}

/**
 * `~/.guardwire/logs/cursor-memory.ndjson`; a project's entries carry the project's folder name and a short hash of
 * its path, so that two projects' servers of one name never share a log. A name already `taken` (VS Code and VS
 * Code Insiders both have a "fetch") gets `-2`, `-3`…: a log has one writer, and clients start servers together.
 */
export function logFile(config: ClientConfig, server: string, dir: string, taken: ReadonlySet<string>): string {
  const project = config.project;
  const where = project ? `-${basename(project)}-${createHash("sha256").update(project).digest("hex").slice(0, 6)}` : "";
  const stem = join(dir, `${config.client}${where}-${server}`.replace(/[^A-Za-z0-9._-]+/g, "_"));
  let file = `${stem}.ndjson`;
  for (let n = 2; taken.has(file); n++) file = `${stem}-${n}.ndjson`;
  return file;
}

/** The options of a `guardwire wrap … --` launch that install, doctor and scan read (`--flag value` or `--flag=value`). */
export interface WrapFlags {
  name?: string;
  log?: string;
  rules: string[];
}

/** The flags between `wrap` and `--` of a launch (all tokens, command first); the last `--name`/`--log` wins. */
export function wrapFlags(tokens: string[]): WrapFlags {
  const at = tokens.indexOf("wrap");
  if (at < 0) return { rules: [] };
  const end = tokens.indexOf("--", at);
  const options = tokens.slice(at + 1, end < 0 ? tokens.length : end);
  const o: WrapFlags = { rules: [] };
  for (let i = 0; i < options.length; i++) {
    const [flag, inline] = (options[i] as string).split(/=(.*)/s) as [string, string | undefined];
    if (flag !== "--log" && flag !== "--rules" && flag !== "--name") continue;
    const value = inline ?? options[++i];
    if (value === undefined) continue;
    if (flag === "--rules") o.rules.push(value);
    else o[flag === "--log" ? "log" : "name"] = value;
  }
  return o;
}

/** The `--log` of a `guardwire wrap … --` launch, if it has one. */
export function logOf(launch: Launch): string | undefined {
  return wrapFlags([launch.command, ...(launch.args ?? [])]).log;
}

/**
 * An entry already launched through `guardwire wrap … --`: by install, or by hand (`guardwire wrap`, `npx guardwire
 * wrap`, `node …/dist/cli/main.js wrap`, `guardwire.cmd wrap`). The wrapped command follows the first `--`.
 */
export function unwrap(launch: Launch, ours: string[] = []): Launch | undefined {
  const tokens = [launch.command, ...(launch.args ?? [])];
  const at = tokens.indexOf("wrap");
  if (at < 1) return undefined;
  const isGuardwire = (t: string) => /guardwire/i.test(t) || /dist[\\/]cli[\\/]main\.js$/.test(t) || ours.includes(t);
  if (!tokens.slice(0, at).some(isGuardwire)) return undefined;
  const dashes = tokens.indexOf("--", at);
  const inner = tokens.slice(dashes + 1);
  if (dashes < 0 || inner.length === 0) return undefined;
  return { command: inner[0] as string, args: inner.slice(1) };
}

/** The key-path changes that put `launch` into entry `name` (an absent `args` removes the key). */
export function launchChanges(serversPath: string[], name: string, launch: Launch): { path: string[]; value: unknown }[] {
  const at = [...serversPath, name];
  return [
    { path: [...at, "command"], value: launch.command },
    { path: [...at, "args"], value: launch.args },
  ];
}

const LAUNCHERS = new Set(["node", "npx", "npm", "pnpm", "yarn", "bunx", "bun", "deno", "python", "python3", "uv", "uvx", "pipx", "docker", "podman", "sh", "bash"]);

/** `npx -y @modelcontextprotocol/server-filesystem /tmp` → "server-filesystem"; `./my-server` → "my-server". */
export function routeName(cmd: string, args: string[]): string {
  const base = (s: string) => (s.split(/[\\/]/).pop() ?? s).replace(/\.(m?js|cjs|ts|py|exe)$/, "");
  if (!LAUNCHERS.has(base(cmd))) return base(cmd);
  const target = args.find((a) => !a.startsWith("-") && !["run", "exec", "x", "dlx"].includes(a));
  if (!target) return base(cmd);
  // node …/server-everything/dist/index.js → "server-everything": generic file and folder names say nothing.
  const parts = target.replace(/@[^/@]+$/, "").split(/[\\/]/).map(base).filter(Boolean);
  const generic = new Set(["index", "main", "server", "cli", "dist", "build", "src", "lib", "bin", "out"]);
  for (let i = parts.length - 1; i >= 0; i--) if (!generic.has(parts[i] as string)) return parts[i] as string;
  return base(target);
}

/**
 * Where `wrap` logs without `--log`: a file per server name in the working folder, since a log has one writer and a
 * client starts its servers together (`guardwire tail` with no file reads them all).
 */
export function defaultWrapLog(name: string): string {
  return `./guardwire-decisions.${name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[.-]+/, "") || "server"}.ndjson`;
}
