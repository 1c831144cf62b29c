import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "a2a-sdk-03/client";
import { join } from "node:path";
import { CLI, EVERYTHING, ROOT } from "../helpers.js";

/** A free loopback port (the OS picks one; it is released before the caller binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface Running {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Waits until a child prints a line matching `ready` on stdout or stderr; fails if it exits first. */
export function waitFor(child: ChildProcess, ready: RegExp, timeoutMs = 20_000): Promise<{ match: RegExpExecArray; output: () => string }> {
  let out = "";
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const on = (b: Buffer) => {
      out += b.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(t);
        resolve({ match: m, output: () => out });
      }
    };
    child.stdout?.on("data", on);
    child.stderr?.on("data", on);
    child.once("exit", (code) => {
      clearTimeout(t);
      reject(new Error(`exited with ${code} before ready:\n${out}`));
    });
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(t);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * `guardwire serve` as a child (port 0); by default with one route, `everything` at /mcp/everything: server-everything
 * over stdio.
 */
export async function startServeCli(dir: string, opts: { rules: string; log: string; extra?: string[]; routes?: string[]; env?: NodeJS.ProcessEnv }): Promise<{ child: ChildProcess; base: string }> {
  const config = join(dir, "guardwire.yaml");
  const lines = ["listen: { host: 127.0.0.1, port: 0 }", `rules: ${opts.rules}`, `log: ${opts.log}`, ...(opts.extra ?? [])];
  const routes = opts.routes ?? ["  - name: everything", "    path: /mcp/everything", `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`];
  writeFileSync(config, [...lines, "routes:", ...routes].join("\n"));
  const child = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"], env: opts.env ?? process.env });
  // One that does not come up is stopped, not left behind.
  const { match } = await waitFor(child, /serving (http:\/\/\S+)/).catch(async (e: unknown) => {
    await stopChild(child);
    throw e;
  });
  return { child, base: match[1] as string };
}

/** server-everything over Streamable HTTP (`/mcp`) or legacy SSE (`/sse`), on a free port (or `port`: a restart). */
export async function startEverything(mode: "streamableHttp" | "sse", port?: number): Promise<Running> {
  port ??= await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  const { output } = await waitFor(child, /listening on port|running on port/i);
  const path = mode === "sse" ? "/sse" : "/mcp";
  return { url: `http://127.0.0.1:${port}${path}`, child, output, stop: () => stopChild(child) };
}

/** A caller's webhook on loopback: every post it receives, with its headers and parsed body. */
export async function startWebhook<B>(): Promise<{ url: string; received: { headers: IncomingHttpHeaders; body: B }[]; close: () => void }> {
  const received: { headers: IncomingHttpHeaders; body: B }[] = [];
  const server = createHttpServer((req, res) => {
    let b = "";
    req.on("data", (c: Buffer) => (b += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(b) as B });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received, close: () => server.close() };
}

/**
 * The A2A fixture agent (a2a-sdk 0.3) behind `guardwire serve` at /a2a/echo, with the admin API on loopback; its URL
 * and token go to `adminFile`. Both children are returned for stopChild.
 */
export async function startA2aServeWithAdmin(dir: string, opts: { rules: string; log: string; adminFile: string }): Promise<{ agent: ChildProcess; serve: ChildProcess; base: string }> {
  const agent = spawn(process.execPath, [join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs")], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  const port = (await waitFor(agent, /listening (\d+)/)).match[1];
  const routes = ["  - name: echo", "    path: /a2a/echo", `    a2a: { url: "http://127.0.0.1:${port}" }`];
  const env = { ...process.env, GUARDWIRE_ADMIN_FILE: opts.adminFile };
  const { child: serve, base } = await startServeCli(dir, { rules: opts.rules, log: opts.log, routes, extra: ["admin: { listen: 127.0.0.1:0 }"], env });
  return { agent, serve, base };
}

/** An A2A 0.3 SDK client of the agent card at `url`: sends one text message per call. */
export async function a2aSender(url: string): Promise<(text: string) => ReturnType<Awaited<ReturnType<ClientFactory["createFromUrl"]>>["sendMessage"]>> {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({})], cardResolver: new DefaultAgentCardResolver({}) }));
  const client = await factory.createFromUrl(url);
  return (t) => client.sendMessage({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: t }] } });
}

/** Calls the admin API a running guardwire wrote to `adminFile`; resolves with the JSON answer. */
export function adminJson(adminFile: string): (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>> {
  const a = JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
  return async (method, path, body) =>
    (await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}` }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
}
