import { execFile, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { CLI, connectWrapped, EVERYTHING, readLog, ROOT, tempDir, type Wrapped } from "../helpers.js";

const run = promisify(execFile);
const RULES = join(ROOT, "test", "fixtures", "rules", "sessions.yaml");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");
const dir = tempDir();
const log = join(dir, "decisions.ndjson");
process.env.GUARDWIRE_ADMIN_FILE = join(dir, "admin.json");

type Info = {
  id: string;
  transport: string;
  client: { name: string; version: string } | null;
  server: { name: string; version: string } | null;
  messages: { outbound: number; inbound: number };
  denies: number;
  held: number;
  state: string;
  suspend?: { mode: string; reason?: string };
};

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const a = JSON.parse(readFileSync(process.env.GUARDWIRE_ADMIN_FILE as string, "utf8")) as { url: string; token: string };
  const res = await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, data: (await res.json()) as Record<string, unknown> };
}

const sessions = async () => (await api("GET", "/api/sessions")).data.sessions as Info[];

/** Polls the admin API (the source of truth) until the session satisfies `ok`. */
async function until(ok: (s: Info) => boolean): Promise<Info> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [s] = await sessions();
    if (s && ok(s)) return s;
    if (Date.now() > deadline) throw new Error(`session never got there: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Settles with "pending" if `p` has not settled once the admin API has been asked once more (a real round trip). */
async function stillPending(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sessions();
  return !settled;
}

let w: Wrapped;
let id = "";
afterAll(async () => {
  await w?.client.close().catch(() => {});
});

describe("live sessions in wrap", () => {
  it("lists the stdio session: client and server, messages each way, denies", async () => {
    w = await connectWrapped(["--rules", RULES, "--log", log, "--admin", "127.0.0.1:0"], [process.execPath, EVERYTHING, "stdio"], new Client({ name: "sessions-test", version: "2.3.4" }));
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "hello" } }))).toBe("Echo: hello");
    const denied = (await w.client.callTool({ name: "echo", arguments: { message: "forbidden" } })) as TextResult;
    expect(denied.isError).toBe(true);
    // initialize, initialized, two calls out; in: the initialize answer, one call's answer (the denied one never left)
    // and whatever the server announces on its own.
    const s = await until((x) => x.messages.outbound === 4 && x.messages.inbound >= 2);
    id = s.id;
    expect(s).toMatchObject({ transport: "stdio", client: { name: "sessions-test", version: "2.3.4" }, denies: 1, held: 0, state: "active" });
    expect(s.server?.name).toBeTruthy();
    expect((await api("GET", `/api/sessions/${id}`)).data.session).toMatchObject({ id, state: "active" });

    const table = (await run(process.execPath, [CLI, "sessions"])).stdout;
    expect(table).toMatch(/^ID\s+ROUTE\s+TRANSPORT\s+AGENT\s+CLIENT\s+SERVER\s+STARTED\s+OUT\/IN\s+DENIES\s+HELD\s+LAST\s+STATE$/m);
    expect(table).toContain(id);
    expect(table).toContain("sessions-test 2.3.4");
    expect(table).toMatch(new RegExp(`4/${s.messages.inbound}\\s+1\\s+0\\s`));
    const json = JSON.parse((await run(process.execPath, [CLI, "sessions", "--json"])).stdout) as Info[];
    expect(json.map((x) => x.id)).toEqual([id]);
  });

  it("suspend (hold, through the CLI): calls wait, in order; resume: they complete", async () => {
    const out = (await run(process.execPath, [CLI, "sessions", "suspend", id, "--reason", "looking into it"])).stdout;
    expect(out).toBe(`suspended ${id} (stdio on server-everything): new requests held\n`);
    const one = w.client.callTool({ name: "echo", arguments: { message: "one" } });
    const two = w.client.callTool({ name: "echo", arguments: { message: "two" } });
    const s = await until((x) => x.held === 2);
    expect(s).toMatchObject({ state: "suspended", suspend: { mode: "hold", reason: "looking into it" } });
    expect(await stillPending(one)).toBe(true);
    expect((await run(process.execPath, [CLI, "sessions", "resume", id])).stdout).toBe(`resumed ${id} (stdio on server-everything)\n`);
    expect([text(await one), text(await two)]).toEqual(["Echo: one", "Echo: two"]);
    expect(await until((x) => x.held === 0)).toMatchObject({ state: "active" });
  });

  it("a held request with a progressToken gets heartbeats", async () => {
    await api("POST", `/api/sessions/${id}/suspend`, {});
    let beat: (p: { message?: string }) => void = () => {};
    const beaten = new Promise<{ message?: string }>((r) => (beat = r));
    const call = w.client.callTool({ name: "echo", arguments: { message: "beats" } }, undefined, { onprogress: (p) => beat(p) });
    expect((await beaten).message).toBe("session suspended by an operator: request held");
    await api("POST", `/api/sessions/${id}/resume`);
    expect(text(await call)).toBe("Echo: beats");
  }, 30_000);

  it("suspend (refuse, through the API): a clear error at once; resume: calls go through", async () => {
    const r = await api("POST", `/api/sessions/${id}/suspend`, { mode: "refuse", reason: "maintenance" });
    expect(r).toMatchObject({ status: 200, data: { session: { id, state: "suspended", suspend: { mode: "refuse", reason: "maintenance" } } } });
    const err = await w.client.callTool({ name: "echo", arguments: { message: "refused" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32050);
    expect((err as McpError).message).toContain("session suspended by an operator: maintenance");
    await api("POST", `/api/sessions/${id}/resume`);
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "back" } }))).toBe("Echo: back");
  });

  it("bad input and unknown ids are clear errors", async () => {
    expect(await api("POST", `/api/sessions/${id}/suspend`, { mode: "pause" })).toMatchObject({ status: 400, data: { error: { code: "BAD_REQUEST" } } });
    expect(await api("POST", "/api/sessions/s-nope/resume")).toMatchObject({ status: 404, data: { error: { code: "NOT_FOUND", message: "no live session s-nope" } } });
    const e = await run(process.execPath, [CLI, "sessions", "kill", "s-nope"]).catch((x: { code: number; stderr: string }) => x);
    expect(e).toMatchObject({ code: 2 });
    expect((e as { stderr: string }).stderr).toContain("no live session s-nope (NOT_FOUND)");
    const none = await run(process.execPath, [CLI, "sessions"], { env: { ...process.env, GUARDWIRE_ADMIN_FILE: join(dir, "none.json") } }).catch((x: { code: number; stderr: string }) => x);
    expect(none).toMatchObject({ code: 2 });
    expect((none as { stderr: string }).stderr).toMatch(/no admin API found: give --admin URL and --token, or run guardwire with --admin/);
  });

  it("kill: the call at the server and the held one are answered once each, the server stops, wrap exits 3", async () => {
    let started: () => void = () => {};
    const inFlight = new Promise<void>((r) => (started = r));
    const errors: unknown[] = [];
    const long = w.client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }, undefined, { onprogress: () => started(), timeout: 60_000 }).catch((e: unknown) => errors.push(e));
    await inFlight;
    await api("POST", `/api/sessions/${id}/suspend`, {});
    const held = w.client.callTool({ name: "echo", arguments: { message: "held at kill" } }).catch((e: unknown) => errors.push(e));
    await until((x) => x.held === 1);
    const closed = new Promise<void>((r) => (w.transport.onclose = r));
    const child = (w.transport as unknown as { _process: ChildProcess })._process;
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const out = (await run(process.execPath, [CLI, "sessions", "kill", id, "--reason", "runaway"])).stdout;
    expect(out).toBe(`killed ${id} (stdio on server-everything)\n`);
    await Promise.all([long, held]);
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).toBeInstanceOf(McpError);
      expect((e as McpError).message).toContain("session killed by an operator: runaway");
    }
    await closed;
    expect(await exited).toBe(3);
    expect(w.stderr()).toContain("guardwire: session killed by an operator: runaway; the server was stopped (exit 3)");
  }, 60_000);

  it("the log holds the refusals and the kill, and verifies", async () => {
    const lines = readLog(log);
    expect(lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_SUSPENDED"))).toHaveLength(1);
    const killed = lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_KILLED"));
    expect(killed.map((l) => l.tool).sort()).toEqual(["echo", "trigger-long-running-operation"]);
    expect(killed.every((l) => l.decision === "deny" && l.message === "session killed by an operator: runaway")).toBe(true);
    expect((await run(process.execPath, [CLI, "verify", log])).stdout).toMatch(/ok/i);
  });
});
