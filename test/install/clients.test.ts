import { mkdirSync, readFileSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseToml } from "smol-toml";
import { clientConfigLocations, ConfigSyntaxError, findClientConfigs, listServers, type ClientConfig } from "../../src/install/clients.js";
import { editJsonc } from "../../src/install/jsonc-edit.js";
import { editToml } from "../../src/install/toml-edit.js";
import { atomicWrite } from "../../src/fs-atomic.js";
import { unwrap, wrapFlags } from "../../src/install/wrap-entry.js";
import { tempDir } from "../helpers.js";

function touch(path: string, text = "{}\n") {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe("findClientConfigs: each client's documented locations, per OS", () => {
  it.each([
    ["darwin", (h: string) => join(h, "Library", "Application Support"), () => ({})],
    ["linux", (h: string) => join(h, ".config"), () => ({})],
    ["linux with XDG_CONFIG_HOME", (h: string) => join(h, "xdg"), (h: string) => ({ XDG_CONFIG_HOME: join(h, "xdg") })],
  ] as const)("%s: every config that exists, in order, with its client, scope, format and servers key", (name, appData, env) => {
    const home = tempDir("guardwire-home-");
    const platform = name.split(" ")[0] as string;
    const project = join(home, "proj");
    const roaming = appData(home);
    const files = [
      join(roaming, "Claude", "claude_desktop_config.json"),
      join(home, ".claude.json"),
      join(project, ".mcp.json"),
      join(home, ".cursor", "mcp.json"),
      join(project, ".cursor", "mcp.json"),
      join(roaming, "Code", "User", "mcp.json"),
      join(roaming, "Code", "User", "settings.json"),
      join(roaming, "Code - Insiders", "User", "mcp.json"),
      join(project, ".vscode", "mcp.json"),
      join(home, ".codeium", "windsurf", "mcp_config.json"),
      join(home, ".gemini", "settings.json"),
      join(project, ".gemini", "settings.json"),
      join(home, ".codex", "config.toml"),
    ];
    for (const f of files) touch(f);
    const found = findClientConfigs({ home, platform, env: env(home), cwd: project });
    expect(found.map((c) => c.path)).toEqual(files);
    expect(found.map((c) => `${c.client}:${c.scope}:${c.format}:${c.serversPath.join(".")}`)).toEqual([
      "claude-desktop:user:json:mcpServers",
      "claude-code:user:json:mcpServers",
      "claude-code:project:json:mcpServers",
      "cursor:user:json:mcpServers",
      "cursor:project:json:mcpServers",
      "vscode:user:jsonc:servers",
      "vscode:user:jsonc:mcp.servers",
      "vscode:user:jsonc:servers",
      "vscode:project:jsonc:servers",
      "windsurf:user:json:mcpServers",
      "gemini:user:jsonc:mcpServers",
      "gemini:project:jsonc:mcpServers",
      "codex:user:toml:mcp_servers",
    ]);
  });

  it("Windows paths come from %APPDATA% (default: AppData\\Roaming) and the user's home, with backslashes", () => {
    const where = { home: "C:\\Users\\ada", platform: "win32", cwd: "C:\\src\\app" };
    const paths = clientConfigLocations({ ...where, env: { APPDATA: "D:\\Roaming" } }).map((c) => c.path);
    expect(paths).toEqual([
      "D:\\Roaming\\Claude\\claude_desktop_config.json",
      "C:\\Users\\ada\\.claude.json",
      "C:\\src\\app\\.mcp.json",
      "C:\\Users\\ada\\.cursor\\mcp.json",
      "C:\\src\\app\\.cursor\\mcp.json",
      "D:\\Roaming\\Code\\User\\mcp.json",
      "D:\\Roaming\\Code\\User\\settings.json",
      "D:\\Roaming\\Code - Insiders\\User\\mcp.json",
      "D:\\Roaming\\Code - Insiders\\User\\settings.json",
      "C:\\src\\app\\.vscode\\mcp.json",
      "C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json",
      "C:\\Users\\ada\\.gemini\\settings.json",
      "C:\\src\\app\\.gemini\\settings.json",
      "C:\\Users\\ada\\.codex\\config.toml",
    ]);
    expect(clientConfigLocations({ ...where, env: {} })[0]?.path).toBe("C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json");
  });

  it("CODEX_HOME moves Codex's config; --client narrows the search", () => {
    const home = tempDir("guardwire-home-");
    touch(join(home, "codex-home", "config.toml"), "");
    touch(join(home, ".cursor", "mcp.json"));
    const all = findClientConfigs({ home, platform: "linux", env: { CODEX_HOME: join(home, "codex-home") }, cwd: home });
    expect(all.map((c) => c.client)).toEqual(["cursor", "codex"]);
    expect(findClientConfigs({ home, platform: "linux", env: {}, cwd: home, clients: ["codex"] })).toEqual([]);
  });

  it("~/.claude.json: the user scope and one config per project that has servers", () => {
    const home = tempDir("guardwire-home-");
    touch(join(home, ".claude.json"), JSON.stringify({ mcpServers: {}, projects: { "/a": { mcpServers: { x: { command: "x" } } }, "/b": { allowedTools: [] } } }));
    const found = findClientConfigs({ home, platform: "linux", env: {}, cwd: home });
    expect(found.map((c) => [c.scope, c.project, c.serversPath])).toEqual([
      ["user", undefined, ["mcpServers"]],
      ["project", "/a", ["projects", "/a", "mcpServers"]],
    ]);
    expect(listServers(found[1] as ClientConfig).map((s) => s.name)).toEqual(["x"]);
  });
});

describe("listServers: what each entry is", () => {
  const config = (text: string, format: ClientConfig["format"] = "jsonc"): [ClientConfig, string] => [{ client: "cursor", path: "/x/mcp.json", format, scope: "user", serversPath: format === "toml" ? ["mcp_servers"] : ["mcpServers"] }, text];

  it("stdio, remote (url, serverUrl, httpUrl, type http/sse) and unknown entries, every field read", () => {
    const [c, text] = config(`{ "mcpServers": {
      "a": { "command": "npx", "args": ["-y", "s"], "env": { "K": "v" }, "cwd": "/w", "type": "stdio" },
      "b": { "url": "https://h/mcp", "headers": { "Authorization": "Bearer t" } },
      "c": { "serverUrl": "https://h/ws" }, "d": { "httpUrl": "https://h/http" },
      "e": { "type": "sse", "url": "https://h/sse" }, "f": { "disabled": true } } }`);
    const s = listServers(c, text);
    expect(s.map((e) => [e.name, e.kind])).toEqual([["a", "stdio"], ["b", "remote"], ["c", "remote"], ["d", "remote"], ["e", "remote"], ["f", "unknown"]]);
    expect(s[0]).toMatchObject({ command: "npx", args: ["-y", "s"], env: { K: "v" }, cwd: "/w", type: "stdio" });
    expect(s[1]).toMatchObject({ url: "https://h/mcp", headers: { Authorization: "Bearer t" } });
  });

  it("a syntax error is a ConfigSyntaxError with line and column (JSONC and TOML)", () => {
    expect(() => listServers(...config('{\n  "mcpServers": {\n    "a": 1,,\n  }\n}'))).toThrow(ConfigSyntaxError);
    const caught = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(caught(() => listServers(...config('{\n  "mcpServers": { "a": } }')))).toMatchObject({ path: "/x/mcp.json", line: 2, column: 24, reason: "ValueExpected" });
    // The header that never closes: line 1, at its end.
    expect(caught(() => listServers(...config("[mcp_servers.a\ncommand='x'\n", "toml")))).toMatchObject({ line: 1, column: 15, message: "/x/mcp.json:1:15: illegal character in key" });
  });
});

describe("editing: only the values asked for change", () => {
  it("TOML: strings, one-line and multi-line arrays, a new key, a removed key; everything else byte for byte", () => {
    const text = `# top
[mcp_servers."my server"]  # quoted name
command = 'npx' # literal string
args = [
  "-y",  # a comment with ] and "quotes"
  "pkg[1]",
]
env = { A = "]" }

[mcp_servers.other]
command = "x"
`;
    const path = ["mcp_servers", "my server"];
    const out = editToml("/c.toml", text, [
      { path: [...path, "command"], value: "guardwire" },
      { path: [...path, "args"], value: ["wrap", "--", "npx", 'a "q" \\ ]'] },
    ]);
    expect(out).toBe(text.replace("'npx'", '"guardwire"').replace(/\[\n[\s\S]*?,\n\]/, '["wrap", "--", "npx", "a \\"q\\" \\\\ ]"]'));
    const back = editToml("/c.toml", out, [{ path: [...path, "args"], value: undefined }, { path: ["mcp_servers", "other", "args"], value: ["y"] }]);
    expect(parseToml(back)).toEqual({ mcp_servers: { "my server": { command: "guardwire", env: { A: "]" } }, other: { command: "x", args: ["y"] } } });
    expect(back).toContain('[mcp_servers.other]\ncommand = "x"\nargs = ["y"]\n');
  });

  it("TOML: a layout it does not edit (inline tables) is refused, not mangled", () => {
    expect(() => editToml("/c.toml", 'mcp_servers = { a = { command = "x" } }\n', [{ path: ["mcp_servers", "a", "command"], value: "y" }])).toThrow(/no \[mcp_servers\.a\] table/);
  });

  it("JSONC: a one-line entry that gets or loses args stays one line; a BOM and CRLF stay; an empty file has no servers", () => {
    const text = '\uFEFF{\r\n  "s": { "a": { "command": "x" }, "b": { "command": "y", "args": ["1"] } }\r\n}\r\n';
    const added = editJsonc(text, [{ path: ["s", "a", "args"], value: ["2"] }, { path: ["s", "b", "args"], value: undefined }]);
    expect(added).toBe('\uFEFF{\r\n  "s": { "a": { "command": "x", "args": ["2"] }, "b": { "command": "y" } }\r\n}\r\n');
    expect(listServers({ client: "cursor", path: "/e.json", format: "json", scope: "user", serversPath: ["mcpServers"] }, "")).toEqual([]);
  });

  it("JSONC: a one-line entry stays on one line; a multi-line one keeps the file's indentation", () => {
    const one = '{\n\t"s": { "a": { "command": "x", "args": ["1","2"] } } // c\n}\n';
    expect(editJsonc(one, [{ path: ["s", "a", "args"], value: ["3", "4"] }])).toBe('{\n\t"s": { "a": { "command": "x", "args": ["3","4"] } } // c\n}\n');
    const multi = '{\n    "s": {\n        "a": {\n            "command": "x"\n        }\n    }\n}\n';
    expect(editJsonc(multi, [{ path: ["s", "a", "args"], value: ["y"] }])).toBe('{\n    "s": {\n        "a": {\n            "command": "x",\n            "args": [\n                "y"\n            ]\n        }\n    }\n}\n');
  });
});

describe("unwrap: entries wrapped by install or by hand", () => {
  it.each([
    [["guardwire", "wrap", "--", "npx", "-y", "s"]],
    [["guardwire.cmd", "wrap", "--log", "l", "--", "npx", "-y", "s"]],
    [["npx", "-y", "guardwire", "wrap", "--", "npx", "-y", "s"]],
    [["node", "/opt/gw/dist/cli/main.js", "wrap", "--name", "n", "--", "npx", "-y", "s"]],
  ])("%j", (tokens) => {
    expect(unwrap({ command: tokens[0] as string, args: tokens.slice(1) })).toEqual({ command: "npx", args: ["-y", "s"] });
  });

  it("other commands that mention wrap are not guardwire", () => {
    expect(unwrap({ command: "npx", args: ["some-wrap-tool", "wrap", "--", "x"] })).toBeUndefined();
    expect(unwrap({ command: "guardwire", args: ["wrap"] })).toBeUndefined();
  });

  it("wrapFlags reads --name, --log and every --rules, with or without =, only before --", () => {
    const tokens = ["node", "/opt/gw/dist/cli/main.js", "wrap", "--name=fs", "--log", "/l/fs.ndjson", "--rules", "strict", "--rules=extra.yaml", "--", "server", "--log", "x", "--name", "y"];
    expect(wrapFlags(tokens)).toEqual({ name: "fs", log: "/l/fs.ndjson", rules: ["strict", "extra.yaml"] });
    expect(wrapFlags(["npx", "server", "--log", "x"])).toEqual({ rules: [] });
  });
});

describe("atomicWrite", () => {
  it("keeps the mode, and a symlink stays a symlink", () => {
    const dir = tempDir();
    const target = join(dir, "real.json");
    writeFileSync(target, "{}", { mode: 0o600 });
    symlinkSync(target, join(dir, "link.json"));
    atomicWrite(join(dir, "link.json"), '{"a":1}');
    expect(lstatSync(join(dir, "link.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe('{"a":1}');
    expect(lstatSync(target).mode & 0o777).toBe(0o600);
  });
});
