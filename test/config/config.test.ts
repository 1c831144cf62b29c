import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { configJsonSchema } from "../../src/config/schema.js";

const load = (text: string, env: Record<string, string> = {}) => loadConfig("g.yaml", env, () => text);

describe("the serve configuration", () => {
  it("loads the documented shape, with defaults, frozen", () => {
    const { config, problems } = load(`
listen: { host: 127.0.0.1, port: 7070 }
rules: ./rules
guardian: { kind: chain, guardians: [{ kind: embedded }, { kind: remote, url: "https://g.example/aos", headers: { Authorization: "Bearer \${TOKEN}" } }] }
routes:
  - { name: everything, path: /mcp/everything, mcp: { url: "http://127.0.0.1:3001/mcp" } }
  - { name: files, path: /mcp/files, mcp: { command: npx, args: [-y, "@modelcontextprotocol/server-filesystem", /tmp] } }
  - { name: travel, path: /a2a/travel, a2a: { url: "http://127.0.0.1:4000" } }
`, { TOKEN: "s3cret" });
    expect(problems).toEqual([]);
    expect(config?.failMode).toBe("closed");
    // The default log, like every relative path, is next to the config file (here g.yaml in the working directory).
    expect(config?.log).toBe(resolve("guardwire-decisions.ndjson"));
    expect(config?.rules).toBe(resolve("rules"));
    expect(config?.guardian).toEqual({ kind: "chain", guardians: [{ kind: "embedded" }, { kind: "remote", url: "https://g.example/aos", timeoutMs: 2000, headers: { Authorization: "Bearer s3cret" } }] });
    expect(config?.routes[1]).toMatchObject({ mcp: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } });
    expect(Object.isFrozen(config?.routes[0])).toBe(true);
  });

  it("reports every problem at once, with line, column and key path", () => {
    const { config, problems } = load(`
listen: { host: 0.0.0.0, port: 99999 }
failMode: sometimes
routes:
  - { name: a, path: /mcp/a, mcp: { url: "http://x/mcp" }, a2a: { url: "http://y" } }
  - { name: a, path: mcp/b, mcp: { url: "ftp://x" } }
  - { name: c, path: /c, mcp: { command: srv }, colour: red }
`);
    expect(config).toBeUndefined();
    const at = problems.map((p) => `${p.line}:${p.path}`);
    expect(at).toEqual(expect.arrayContaining(["2:listen.port", "3:failMode", "5:routes[0]", "6:routes[1].path", "6:routes[1].mcp.url", "7:routes[2]"]));
    expect(problems.every((p) => p.file === "g.yaml" && p.column > 0)).toBe(true);
  });

  it("refuses a non-loopback listen without agent keys, unless explicitly allowed", () => {
    const base = `listen: { host: 0.0.0.0, port: 7070 }\nroutes: [{ name: a, path: /a, mcp: { url: "http://x/mcp" } }]\n`;
    expect(load(base).problems.map((p) => p.path)).toEqual(["listen.host"]);
    expect(load(base + "allowUnauthenticatedRemote: true\n").problems).toEqual([]);
    expect(load(base + "agents: [{ id: claude, key: abcdefghijklmnopqrstuvwx }]\n").problems).toEqual([]);
  });

  it("names an unset environment variable where it is used", () => {
    const { problems } = load(`routes: [{ name: a, path: /a, mcp: { url: "http://x/mcp", headers: { Authorization: "\${NOPE}" } } }]\n`);
    expect(problems[0]).toMatchObject({ line: 1, message: expect.stringContaining("NOPE is not set") });
  });

  it("store: timeoutMs 500 and limitsAfterReset window by default; limitsAfterReset takes seconds (0: none), nothing else", () => {
    const base = `sessions: { keys: ["${Buffer.alloc(32, 7).toString("base64")}"] }\nroutes: [{ name: a, path: /a, mcp: { url: "http://x/mcp" } }]\n`;
    expect(load(base + `store: { redis: "redis://r:6379" }\n`).config?.store).toEqual({ redis: "redis://r:6379", keyPrefix: "guardwire:", onUnavailable: "closed", timeoutMs: 500, limitsAfterReset: "window" });
    expect(load(base + `store: { redis: "redis://r:6379", limitsAfterReset: 600 }\n`).config?.store?.limitsAfterReset).toBe(600);
    expect(load(base + `store: { redis: "redis://r:6379", limitsAfterReset: 0 }\n`).config?.store?.limitsAfterReset).toBe(0);
    for (const bad of ["forever", "-1", "1.5"]) {
      expect(load(base + `store: { redis: "redis://r:6379", limitsAfterReset: ${bad} }\n`).problems.map((p) => p.path)).toEqual(["store.limitsAfterReset"]);
    }
  });

  it("publishes a JSON Schema generated from the same zod schema", () => {
    const schema = configJsonSchema();
    expect(schema).toMatchObject({ type: "object", required: ["routes"] });
    expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(["listen", "routes", "guardian", "failMode", "agents"]));
  });
});

describe("examples/serve: every shipped config is valid", () => {
  it("loads each example with its ${ENV} set", async () => {
    const { readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { loadConfig } = await import("../../src/config/load.js");
    const dir = join(import.meta.dirname, "..", "..", "examples", "serve");
    const env = { UPSTREAM_KEY: "x", GUARDWIRE_KEY_CLAUDE: "0123456789abcdef0", GUARDWIRE_KEY_CI: "0123456789abcdef1" };
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) expect(loadConfig(join(dir, f), env).problems, f).toEqual([]);
  });
});
