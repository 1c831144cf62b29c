import { existsSync, readFileSync } from "node:fs";
import { posix, win32 } from "node:path";
import { parseJsonc, valueAt } from "./jsonc-edit.js";
import { parseToml } from "./toml-edit.js";
import { CLIENTS, type ClientName } from "./client-names.js";

export { CLIENTS, type ClientName };

export { ConfigSyntaxError } from "./config-error.js";

/*
 * Where each MCP client keeps its servers, per OS, and how to read them. `install`, `uninstall`, `doctor` and `scan`
 * all start from findClientConfigs(); nothing here writes. docs/install.md has the table of locations.
 */

export interface Where {
  home: string;
  /** `process.platform`: "linux", "darwin", "win32" (anything else is treated as Linux). */
  platform: string;
  env: Record<string, string | undefined>;
  /** The project directory: its `.cursor/mcp.json`, `.vscode/mcp.json`, `.mcp.json` and `.gemini/settings.json` are found too. */
  cwd: string;
  /** Only these clients (default: all). */
  clients?: readonly ClientName[];
}

/** One place in one file that holds servers. A file can hold several (`~/.claude.json`: user scope and each project). */
export interface ClientConfig {
  client: ClientName;
  path: string;
  format: "json" | "jsonc" | "toml";
  scope: "user" | "project";
  /** Project scope: the project's folder (for `~/.claude.json`'s per-project entries, the key under `projects`). */
  project?: string;
  /** The key path of the servers object inside the file: ["mcpServers"], ["servers"], ["mcp", "servers"], ["projects", p, "mcpServers"], ["mcp_servers"]. */
  serversPath: string[];
}

export interface ServerEntry {
  name: string;
  /** stdio: launched with `command`; remote: reached at `url`; unknown: neither (reported, left alone). */
  kind: "stdio" | "remote" | "unknown";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** The entry's `type` as written (`stdio`, `http`, `sse`, `streamable-http`…), when it has one. */
  type?: string;
  /** The entry as written in the file, every key. */
  raw: Record<string, unknown>;
}

/** Every client config file that exists for this user and project, in the order of CLIENTS. */
export function findClientConfigs(where: Where): ClientConfig[] {
  const wanted = new Set(where.clients ?? CLIENTS);
  return clientConfigLocations(where).filter((c) => wanted.has(c.client) && existsSync(c.path)).flatMap((c) => (c.client === "claude-code" && c.scope === "user" ? withClaudeProjects(c) : [c]));
}

/** The servers a config lists, in file order; a file that does not parse is a ConfigSyntaxError. */
export function listServers(config: ClientConfig, text = readFileSync(config.path, "utf8")): ServerEntry[] {
  const servers = valueAt(parseDocument(config, text), config.serversPath);
  if (servers === null || typeof servers !== "object" || Array.isArray(servers)) return [];
  return Object.entries(servers as Record<string, unknown>)
    .filter((e): e is [string, Record<string, unknown>] => e[1] !== null && typeof e[1] === "object" && !Array.isArray(e[1]))
    .map(([name, raw]) => toEntry(name, raw));
}

/** The whole document as plain data (JSON, JSONC or TOML). */
export function parseDocument(config: Pick<ClientConfig, "path" | "format">, text: string): unknown {
  return config.format === "toml" ? parseToml(config.path, text) : parseJsonc(config.path, text);
}

function toEntry(name: string, raw: Record<string, unknown>): ServerEntry {
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const strings = (v: unknown) => (Array.isArray(v) && v.every((a) => typeof a === "string") ? (v as string[]) : undefined);
  const record = (v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, string>) : undefined);
  const type = str(raw.type);
  // Windsurf writes `serverUrl`, Gemini CLI `httpUrl` (Streamable HTTP) or `url` (SSE); the others `url`.
  const url = str(raw.url) ?? str(raw.serverUrl) ?? str(raw.httpUrl);
  const command = str(raw.command);
  const kind = command !== undefined && type !== "http" && type !== "sse" ? "stdio" : url !== undefined ? "remote" : "unknown";
  return { name, kind, command, args: strings(raw.args), env: record(raw.env), cwd: str(raw.cwd), url, headers: record(raw.headers), type, raw };
}

/** `~/.claude.json` also holds local-scope servers per project: one ClientConfig each. */
function withClaudeProjects(user: ClientConfig): ClientConfig[] {
  let doc: unknown;
  try {
    doc = parseJsonc(user.path, readFileSync(user.path, "utf8"));
  } catch {
    return [user]; // reported when its servers are listed
  }
  const projects = valueAt(doc, ["projects"]);
  if (projects === null || typeof projects !== "object") return [user];
  const perProject = Object.entries(projects as Record<string, unknown>)
    .filter(([, p]) => valueAt(p, ["mcpServers"]) !== undefined)
    .map(([project]): ClientConfig => ({ ...user, scope: "project", project, serversPath: ["projects", project, "mcpServers"] }));
  return [user, ...perProject];
}

/** Every place a config is looked for, whether it exists or not. */
export function clientConfigLocations(w: Where): ClientConfig[] {
  const path = w.platform === "win32" ? win32 : posix;
  const { home, env, cwd } = w;
  // Where desktop apps keep their settings: %APPDATA%, ~/Library/Application Support, $XDG_CONFIG_HOME.
  const appData =
    w.platform === "win32" ? (env.APPDATA ?? path.join(home, "AppData", "Roaming")) : w.platform === "darwin" ? path.join(home, "Library", "Application Support") : (env.XDG_CONFIG_HOME ?? path.join(home, ".config"));
  const user = (client: ClientName, file: string, format: ClientConfig["format"], serversPath = ["mcpServers"]): ClientConfig => ({ client, path: file, format, scope: "user", serversPath });
  const project = (client: ClientName, file: string, format: ClientConfig["format"], serversPath = ["mcpServers"]): ClientConfig => ({ client, path: path.join(cwd, file), format, scope: "project", project: cwd, serversPath });
  const vscode = (dir: string) => [user("vscode", path.join(appData, dir, "User", "mcp.json"), "jsonc", ["servers"]), user("vscode", path.join(appData, dir, "User", "settings.json"), "jsonc", ["mcp", "servers"])];
  return [
    user("claude-desktop", path.join(appData, "Claude", "claude_desktop_config.json"), "json"),
    user("claude-code", path.join(home, ".claude.json"), "json"),
    project("claude-code", ".mcp.json", "json"),
    user("cursor", path.join(home, ".cursor", "mcp.json"), "json"),
    project("cursor", path.join(".cursor", "mcp.json"), "json"),
    ...vscode("Code"),
    ...vscode("Code - Insiders"),
    project("vscode", path.join(".vscode", "mcp.json"), "jsonc", ["servers"]),
    user("windsurf", path.join(home, ".codeium", "windsurf", "mcp_config.json"), "json"),
    user("gemini", path.join(home, ".gemini", "settings.json"), "jsonc"),
    project("gemini", path.join(".gemini", "settings.json"), "jsonc"),
    user("codex", path.join(env.CODEX_HOME ?? path.join(home, ".codex"), "config.toml"), "toml", ["mcp_servers"]),
  ].filter((c, i, all) => all.findIndex((o) => o.path === c.path && o.serversPath.join("\0") === c.serversPath.join("\0")) === i);
}
