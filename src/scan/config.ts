import { readFileSync } from "node:fs";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { GuardwireError } from "../errors.js";
import { clientConfigLocations, CLIENTS, findClientConfigs, listServers, parseDocument, type ClientName, type Where } from "../install/clients.js";
import { ConfigSyntaxError } from "../install/config-error.js";
import { routeName, unwrap, wrapFlags } from "../install/wrap-entry.js";

/** One server as a client config describes it, ready to be started the way that client starts it. */
export type ServerEntry =
  | { name: string; kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string; pinName: string }
  | { name: string; kind: "http"; url: string; headers: Record<string, string>; transport: "auto" | "sse"; pinName: string }
  | { name: string; kind: "invalid"; problem: string; pinName: string };

const record = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const strings = (v: unknown): Record<string, string> =>
  record(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/**
 * The servers of a client config file: JSON or JSONC (comments, trailing commas) with `mcpServers` (Claude Desktop,
 * Claude Code, Cursor, Windsurf, Gemini CLI), `servers` (VS Code's mcp.json) or `mcp.servers` (VS Code settings);
 * or, for a file named `*.toml`, Codex's `[mcp_servers.NAME]` tables.
 * Disabled entries (`disabled: true`) are left out, as their client leaves them.
 */
export function parseClientConfig(text: string, path: string): ServerEntry[] {
  if (path.toLowerCase().endsWith(".toml")) return parseCodexConfig(text, path);
  const errors: ParseError[] = [];
  const doc: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0] as ParseError;
    const before = text.slice(0, e.offset).split("\n");
    throw new GuardwireError("CONFIG_INVALID", `${path}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}: ${printParseErrorCode(e.error)}`);
  }
  if (!record(doc)) throw new GuardwireError("CONFIG_INVALID", `${path}: not a JSON object`);
  const servers = doc.mcpServers ?? doc.servers ?? (record(doc.mcp) ? doc.mcp.servers : undefined);
  if (!record(servers)) throw new GuardwireError("CONFIG_INVALID", `${path}: no "mcpServers" (or VS Code "servers") object`);
  return entriesOf(servers);
}

function parseCodexConfig(text: string, path: string): ServerEntry[] {
  let doc: unknown;
  try {
    doc = parseDocument({ path, format: "toml" }, text);
  } catch (e) {
    throw new GuardwireError("CONFIG_INVALID", (e as Error).message);
  }
  const servers = record(doc) ? doc.mcp_servers : undefined;
  if (!record(servers)) throw new GuardwireError("CONFIG_INVALID", `${path}: no [mcp_servers.NAME] table`);
  return entriesOf(servers);
}

function entriesOf(servers: Record<string, unknown>): ServerEntry[] {
  return Object.entries(servers)
    .filter(([, v]) => !(record(v) && v.disabled === true))
    .map(([name, v]) => toEntry(name, v));
}

function toEntry(name: string, v: unknown): ServerEntry {
  if (!record(v)) return { name, kind: "invalid", problem: "the entry is not an object", pinName: name };
  // Windsurf writes `serverUrl`, Gemini CLI `httpUrl`; the others `url`.
  const url = [v.url, v.serverUrl, v.httpUrl].find((u): u is string => typeof u === "string");
  if (typeof v.command === "string" && v.command.length > 0) {
    const args = Array.isArray(v.args) ? v.args.filter((a): a is string => typeof a === "string") : [];
    return unwrapGuardwire({ name, kind: "stdio", command: v.command, args, env: strings(v.env), cwd: typeof v.cwd === "string" ? v.cwd : undefined, pinName: name });
  }
  if (url !== undefined) return { name, kind: "http", url, headers: strings(v.headers), transport: v.type === "sse" ? "sse" : "auto", pinName: name };
  return { name, kind: "invalid", problem: 'the entry has neither "command" nor "url"', pinName: name };
}

/**
 * An entry already wrapped (`guardwire wrap [--name N] … -- cmd args`) is scanned as the server inside it: the
 * wrapper would redact what the scan is looking for, and pin tools. Its pins are where that wrap keeps them: under
 * `--name` (which install writes), else under the name wrap derives from the command.
 */
function unwrapGuardwire(e: Extract<ServerEntry, { kind: "stdio" }>): ServerEntry {
  const inner = unwrap({ command: e.command, args: e.args });
  if (!inner) return e;
  const args = inner.args ?? [];
  return { ...e, command: inner.command, args, pinName: wrapFlags([e.command, ...e.args]).name ?? routeName(inner.command, args) };
}

/**
 * The servers a client has configured, from every config file of it that exists (found the way `install` finds them,
 * src/install/clients.ts); none: an error naming where it looked.
 */
export function serversOfClient(name: string, where: Omit<Where, "clients">): ServerEntry[] {
  if (!(CLIENTS as readonly string[]).includes(name)) throw new GuardwireError("USAGE", `unknown client "${name}" (known: ${CLIENTS.join(", ")})`);
  const client = name as ClientName;
  const configs = findClientConfigs({ ...where, clients: [client] });
  if (configs.length === 0) {
    const looked = clientConfigLocations({ ...where, clients: [client] }).filter((c) => c.client === client).map((c) => c.path);
    throw new GuardwireError("CONFIG_INVALID", `no ${name} config found (looked at ${[...new Set(looked)].join(", ")})`);
  }
  return configs.flatMap((config) => {
    let listed;
    try {
      listed = listServers(config);
    } catch (e) {
      throw new GuardwireError("CONFIG_INVALID", e instanceof ConfigSyntaxError ? e.message : `cannot read ${config.path}: ${(e as Error).message}`);
    }
    return listed.filter((e) => e.raw.disabled !== true).map((e) => toEntry(e.name, e.kind === "remote" && e.url ? { ...e.raw, url: e.url } : e.raw));
  });
}

export function serversOfFile(path: string): ServerEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new GuardwireError("CONFIG_INVALID", `cannot read ${path}: ${(e as Error).message}`);
  }
  return parseClientConfig(text, path);
}
