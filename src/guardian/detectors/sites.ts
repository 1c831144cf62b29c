import type { JsonPath, StringSite } from "./scan.js";

/*
 * Where a string sits in a message, as far as judging it goes (docs/detection.md, "Where each detector looks"):
 *
 * - `path`: an argument a tool opens, lists, writes or moves (a file or directory name);
 * - `command`: an argument a tool runs as a shell command line;
 * - `url`: an address a tool fetches, or the URI `resources/read` reads;
 * - `content`: text carried, not acted on: a file's contents being written, a commit message, a memory
 *   observation, a thought, an e-mail body, every result, every A2A reply;
 * - `request`: the text of a message sent to another agent, which acts on it: the command lines it hands over to be
 *   run are judged as commands (requests.ts), the rest is content. The fields of a data part sent to an agent are
 *   roled like a tool's arguments (`{"command": …}`, `{"files": [...]}`);
 * - `other`: anything else (ids, flags, branch names, unknown arguments).
 *
 * Roles come from the argument's name, the tool's name, and — when the guardian has seen the tool's input schema
 * (the pinned definition of the tool, `tool_changed`) — the schema's formats and descriptions. The schema only ever
 * adds a path role to an argument whose name says nothing; an argument named as content stays content.
 */
export type SiteRole = "path" | "command" | "url" | "content" | "request" | "other";

export interface RoledSite extends StringSite {
  role: SiteRole;
  /** The tool whose argument this is (a tools/call, an AOS tool call step). */
  tool?: string;
}

/** A tool's input schema, where known: its properties by name. */
export type SchemaOf = (tool: string) => unknown;

/** Lower case, without `_`, `-`, `.` and spaces: `file_path`, `filePath` and `file-path` are one name. */
export const key = (name: string) => name.toLowerCase().replace(/[-_. ]/g, "");

const PATH_NAMES = new Set(["path", "paths", "file", "files", "filename", "filenames", "filepath", "filepaths", "source", "sources", "src", "destination", "dest", "dst", "dir", "dirs", "directory", "directories", "folder", "folders", "cwd", "workdir", "workingdirectory", "root", "roots", "socket", "location", "target", "targetpath", "newpath", "oldpath", "output", "repo", "repository", "includepath", "configfile", "keyfile", "identityfile"]);
/** Name endings that make an argument a path: `repo_path`, `output_file`, `working_dir`, `config_dir`. */
const PATH_ENDINGS = ["path", "paths", "file", "files", "filename", "dir", "directory", "folder"];
const URL_NAMES = new Set(["url", "urls", "uri", "uris", "href", "link", "endpoint", "webhook", "webhookurl", "address", "resource", "resourceuri"]);
const URL_ENDINGS = ["url", "uri", "urls", "uris"];
/** Arguments that hold what is carried, never acted on as a name. */
const CONTENT_NAMES = new Set([
  "content", "contents", "text", "body", "message", "messages", "msg", "description", "title", "summary", "note", "notes", "comment",
  "comments", "observation", "observations", "thought", "thoughts", "reasoning", "data", "payload", "html", "markdown", "md", "prompt",
  "query", "question", "answer", "patch", "diff", "oldtext", "newtext", "old", "new", "edits", "replacement", "snippet", "entities",
  "relations", "contentsbase64", "subject", "caption", "code", "template", "instructions", "pattern", "patterns", "search",
  "excludepatterns", "grep", "regex",
]);
/** The "tool" a data part's fields are arguments of: the agent (a name no tool's words match). */
const AGENT = "";
/** Fields of a data part sent to an agent that name a run: `{"run": "…"}`, `{"exec": "…"}`. */
const AGENT_COMMAND_ARGS = new Set(["run", "exec", "execute", "runcommand", "execcommand", "oncommand",
  // (Sixth round) a job's procedure: what an agent that builds, deploys or schedules performs, step by step.
  "steps", "step", "beforescript", "afterscript", "prescript", "postscript", "setup", "install", "entrypoint", "hooks", "prerun", "postrun", "cron", "cronjob"]);
const COMMAND_NAMES = new Set(["command", "commands", "cmd", "cmdline", "commandline", "shellcommand", "bashcommand", "script", "shell", "bash", "sh", "powershell", "pwsh"]);
/** In a tool that runs commands, these are command lines too (`terminal(input)`, `exec(args: [...])`). */
const COMMAND_TOOL_ARGS = new Set(["input", "args", "argv", "arguments", "code", "line", "lines", "run", "exec", "execute", "statement", "keys", "stdin"]);

/** Words of a tool's name: `run_command`, `runCommand`, `shell.exec` → run, command / shell, exec. */
function nameWords(tool: string): string[] {
  return tool
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const COMMAND_TOOL_WORDS = new Set(["run", "exec", "execute", "shell", "bash", "sh", "zsh", "terminal", "cmd", "command", "commands", "console", "powershell", "pwsh", "process", "spawn", "script", "ssh", "repl", "tmux", "subprocess", "cli"]);
const FILE_TOOL_WORDS = new Set(["file", "files", "read", "write", "open", "edit", "cat", "view", "dir", "directory", "ls", "list", "fs", "path", "upload", "download", "copy", "move", "rename", "delete", "remove", "create", "append", "save", "load", "tree", "stat", "tail", "head", "glob", "search", "find", "grep", "mkdir", "touch", "resource", "resources", "document", "attachment"]);

/** What a tool's name says it does, remembered per name (a bounded table: names come from the wire). */
const toolKinds = new Map<string, { command: boolean; file: boolean }>();
function toolKind(tool: string): { command: boolean; file: boolean } {
  let k = toolKinds.get(tool);
  if (!k) {
    const words = nameWords(tool);
    k = { command: words.some((w) => COMMAND_TOOL_WORDS.has(w)), file: words.some((w) => FILE_TOOL_WORDS.has(w)) };
    if (toolKinds.size >= 1024) toolKinds.clear();
    toolKinds.set(tool, k);
  }
  return k;
}

export function isCommandTool(tool: string): boolean {
  return toolKind(tool).command;
}

function isFileTool(tool: string): boolean {
  return toolKind(tool).file;
}

/** Roles by tool and argument name, remembered (bounded, like the tool names). */
const argRoles = new Map<string, Map<string, SiteRole>>();

/** The role of an argument by its name (the nearest named key), in a call to `tool`. */
export function argumentRole(name: string, tool: string): SiteRole {
  let byName = argRoles.get(tool);
  if (!byName) {
    if (argRoles.size >= 1024) argRoles.clear();
    byName = new Map();
    argRoles.set(tool, byName);
  }
  let role = byName.get(name);
  if (role === undefined) {
    role = roleByName(name, tool);
    if (byName.size >= 1024) byName.clear();
    byName.set(name, role);
  }
  return role;
}

function roleByName(name: string, tool: string): SiteRole {
  const k = key(name);
  if (COMMAND_NAMES.has(k)) return "command";
  // A data field sent to an agent, named for running something: the agent is the one that runs it.
  if (tool === AGENT && AGENT_COMMAND_ARGS.has(k)) return "command";
  if (isCommandTool(tool) && COMMAND_TOOL_ARGS.has(k)) return "command";
  if (CONTENT_NAMES.has(k)) return "content";
  if (URL_NAMES.has(k) || URL_ENDINGS.some((e) => k.endsWith(e))) return "url";
  if (PATH_NAMES.has(k) || PATH_ENDINGS.some((e) => k.endsWith(e))) return "path";
  return "other";
}

/**
 * A value that is nothing but a path: one token, starting as a path does (`/`, `~`, `./`, `../`, a drive, `file:`).
 * An argument whose name says nothing is read as a path when its value is one (`{"socket": "/var/run/docker.sock"}`).
 */
export function looksLikePath(value: string): boolean {
  if (value.length < 2 || value.length > 4096 || !PATH_START.test(value)) return false;
  const v = value.trim();
  // (Eleventh round) A drive or home path keeps its spaces (`C:/Program Files (x86)/Steam/…`, `~/Library/Application
  // Support/…`): one line, no quotes or shell punctuation, and a separator after the first space.
  if (SPACED_PATH.test(v)) return !/[\n"'<>|;`]/.test(v) && /[/\\]/.test(v.slice(v.indexOf(" ")));
  return !/[\s"'<>|;`]/.test(v);
}

const SPACED_PATH = /^(?:[A-Za-z]:[/\\]|~[/\\]|\$HOME\/|%USERPROFILE%\\|\/Users\/|\/home\/)[^ ]{0,400} /;

const CLIMBS = /(?:^|[/\\])(?:\.\.|%2e%2e)[/\\](?:[^\s]{0,256}?[/\\])?(?:\.\.|%2e%2e)(?:[/\\]|$)/i;

const PATH_START = /^\s*(?:~|\$HOME\b|\$\{HOME\}|%USERPROFILE%|\.{1,2}[/\\]|\/|[A-Za-z]:[/\\]|\\\\|file:|\.[A-Za-z0-9_-]+(?:[/\\]|\s*$))/i;

/** What a schema says of one property: a URI format, or a description that calls it a path or a file. */
function schemaRole(schema: unknown, name: string): SiteRole | null {
  if (schema === null || typeof schema !== "object") return null;
  const props = (schema as { properties?: unknown }).properties;
  if (props === null || typeof props !== "object") return null;
  const p = (props as Record<string, unknown>)[name];
  if (p === null || typeof p !== "object") return null;
  const prop = p as { format?: unknown; description?: unknown; items?: { format?: unknown; description?: unknown } };
  const format = typeof prop.format === "string" ? prop.format : typeof prop.items?.format === "string" ? prop.items.format : "";
  if (/^(?:uri|uri-reference|iri|iri-reference)$/.test(format)) return "url";
  const desc = typeof prop.description === "string" ? prop.description : typeof prop.items?.description === "string" ? prop.items.description : "";
  if (/\b(?:path|paths|file|files|file ?name|directory|folder)\b/i.test(desc.slice(0, 300))) return "path";
  return null;
}

/** Methods that send a message to another agent (A2A 0.3 and 1.0 names). */
const A2A_SENDS = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);


/** The nearest string key of a path below `from` (array indexes skipped): the argument's name. */
function nearestName(path: JsonPath, from: number): string | null {
  for (let i = path.length - 1; i >= from; i--) if (typeof path[i] === "string") return path[i] as string;
  return null;
}

/** A site with its role, built field by field (an object spread here costs microseconds per string). */
const roled = (site: StringSite, role: SiteRole): RoledSite => ({ path: site.path, value: site.value, role });

/** (fp26) A key that is a file's name (`.gitignore`, `README.md`, `src/app.ts`) and a value of several lines under it. */
const FILE_NAME_KEY = /^(?:[\w.-]{1,64}[/\\]){0,8}[\w.-]{0,64}\.[A-Za-z0-9_-]{1,16}$/;
function fileContentUnder(name: string, value: string): boolean {
  return value.includes("\n") && name.length <= 512 && FILE_NAME_KEY.test(name);
}

function callArg(site: StringSite, tool: string, top: string | null, name: string | null, schemaOf: SchemaOf | undefined): RoledSite {
  let role: SiteRole = name === null ? "other" : argumentRole(name, tool);
  if (role === "other" && top !== null && schemaOf) role = schemaRole(schemaOf(tool), top) ?? "other";
  // (fp26) A map of file names to contents in one argument (`files: {".gitignore": "…", "src/app.ts": "…"}`): a value
  // of several lines under a file's name is that file's content, as `content` is beside `path`, not a path opened.
  if (role !== "command" && role !== "content" && name !== null && name !== top && fileContentUnder(name, site.value)) role = "content";
  // A value that is itself a path is one; so is a one-token value of a tool that works on files.
  if (role === "other" && (looksLikePath(site.value) || (isFileTool(tool) && site.value.length <= 4096 && /^\S+$/.test(site.value)))) role = "path";
  // A one-token value that climbs out of its folder (`guides/../../../../home/runner/.ssh/id_rsa` as a `page`): a path,
  // whatever the argument is called — nothing else is written with `../` twice.
  if (role === "other" && site.value.length <= 4096 && CLIMBS.test(site.value) && /^\S+$/.test(site.value)) role = "path";
  return { path: site.path, value: site.value, role, tool };
}

/**
 * The role of every string of a message (in the order given). Tool calls (MCP `tools/call`, AOS
 * `steps/toolCallRequest`) by argument; `resources/read`'s `uri`; A2A file parts' `uri`; the text a message carries
 * (results, parts, messages, history) is content; the rest is other.
 */
export function siteRoles(message: Record<string, unknown>, sites: readonly StringSite[], schemaOf?: SchemaOf): RoledSite[] {
  const method = typeof message.method === "string" ? message.method : null;
  const params = message.params !== null && typeof message.params === "object" ? (message.params as Record<string, unknown>) : null;
  const steps = method === "steps/toolCallRequest";
  const call = steps ? (params?.toolCallRequest as { toolId?: unknown; inputs?: unknown } | undefined) : undefined;
  const tool = params && typeof params.name === "string" ? params.name : typeof call?.toolId === "string" ? call.toolId : null;
  const inputs = call && Array.isArray(call.inputs) ? call.inputs.map((i: unknown) => (i !== null && typeof i === "object" && typeof (i as { name?: unknown }).name === "string" ? (i as { name: string }).name : null)) : null;
  return sites.map((site): RoledSite => {
    const p = site.path;
    if (p[0] !== "params") return roled(site, "content");
    if ((method === "tools/call" || steps) && tool !== null) {
      if (p[1] === "arguments") return callArg(site, tool, typeof p[2] === "string" ? p[2] : null, nearestName(p, 2), schemaOf);
      if (inputs && p[1] === "toolCallRequest" && p[2] === "inputs" && typeof p[3] === "number" && p[4] === "value") {
        const name = inputs[p[3]] ?? null;
        return callArg(site, tool, name, p.length > 5 ? (nearestName(p, 5) ?? name) : name, schemaOf);
      }
      if (p.length === 2 && p[1] === "name") return roled(site, "other");
    }
    if (method === "resources/read" && p[1] === "uri") return roled(site, "url");
    // What is sent to another agent (A2A 0.3 and 1.0 part shapes): a request it acts on.
    if (method !== null && A2A_SENDS.has(method) && p[1] === "message" && p[2] === "parts" && typeof p[3] === "number") {
      if (p[4] === "text" && p.length === 5) return roled(site, "request");
      if (p[4] === "data") return callArg(site, AGENT, null, nearestName(p, 5), undefined);
      if ((p[4] === "url" && p.length === 5) || (p[4] === "file" && (p[5] === "uri" || p[5] === "url") && p.length === 6)) return roled(site, "url");
    }
    const last = nearestName(p, 1);
    // An A2A file part: `{ kind: "file", file: { uri, name, mimeType } }`.
    if (last === "uri" && p.includes("file")) return roled(site, "url");
    if (p.includes("parts") || p.includes("messages") || p.includes("history") || p.includes("artifacts")) return roled(site, "content");
    return roled(site, last !== null && CONTENT_NAMES.has(key(last)) ? "content" : "other");
  });
}
