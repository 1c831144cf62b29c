import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionTokens } from "../../src/store/session-token.js";
import { promisify } from "node:util";
import { ACCEPTANCE_RULES, CLI, EVERYTHING, readLog, tempDir } from "../helpers.js";
import { startCluster, type Cluster, type Replica } from "../support/cluster.js";
import { startEverything, startServeCli, stopChild, type Running } from "../support/servers.js";
import { until } from "../support/poll.js";
import { openStream } from "../support/sse-stream.js";

const run = promisify(execFile);

/** A rule on the server's name: it holds on a replica only if the session's server info came along with its token. */
const RULES = `name: scale-sessions
default: allow
rules:
  - id: everything-no-echo-of-x
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo, server: "mcp-servers/everything" }
    when: 'args.message == "x"'
    decision: deny
    reasonCode: NO_X
    message: the everything server may not echo x
`;

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

/** What reached the upstream: every request the recorder passed on to server-everything. */
interface Seen {
  method: string;
  session: string | undefined;
  body: string;
}

/**
 * A pass-through in front of server-everything that records every request as it passes it on (what reaches the
 * upstream, in the order it does). `holdMs` keeps a request back that long first: a slow network or a busy replica.
 */
async function startRecorder(target: string, holdMs: (body: string) => number = () => 0): Promise<{ url: string; seen: Seen[]; close: () => void }> {
  const seen: Seen[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const pass = () => {
        seen.push({ method: req.method ?? "", session: req.headers["mcp-session-id"] as string | undefined, body });
        const out = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        out.on("error", () => res.destroy());
        res.on("close", () => out.destroy());
        out.end(body);
      };
      const ms = holdMs(body);
      if (ms > 0) setTimeout(pass, ms);
      else pass();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`, seen, close: () => (server.closeAllConnections(), server.close()) };
}

/** The cluster's session key, read from a replica's config: the test opens tokens to see which replica owns a session. */
function clusterTokens(r: Replica): SessionTokens {
  const key = /sessions: \{ keys: \["([^"]+)"\] \}/.exec(readFileSync(r.config, "utf8"))?.[1] as string;
  return new SessionTokens([key]);
}

/** Each replica's decision log records (one file per replica), by replica id. */
function logsByReplica(c: Cluster): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const f of readdirSync(c.logDir)) {
    const m = /^decisions\.(r\d)\.ndjson$/.exec(f);
    if (m) out.set(m[1] as string, readLog(join(c.logDir, f)));
  }
  return out;
}

/** Polls until `check` passes (log lines reach the file a moment after the answer). */
async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function sdkClient<T extends Transport = StreamableHTTPClientTransport>(url: string, transport: T = new StreamableHTTPClientTransport(new URL(url)) as unknown as T): Promise<{ client: Client; transport: T }> {
  const client = new Client({ name: "scale-test", version: "1" }, { capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: "m", role: "assistant", content: { type: "text", text: "sampled-ok" } }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
  await client.connect(transport);
  return { client, transport };
}

const sum = async (client: Client, a: number) => {
  const r = await client.callTool({ name: "get-sum", arguments: { a, b: 1 } });
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  return JSON.stringify(r.content);
};

/** The JSON-RPC answer of a POST, whether it came as JSON or as an SSE event (after any notifications on its stream). */
async function answerOf(res: Response): Promise<{ id?: unknown; result?: unknown; error?: { message: string } }> {
  const text = await res.text();
  if (text.startsWith("{")) return JSON.parse(text);
  type Message = { id?: unknown; method?: unknown; result?: unknown; error?: { message: string } };
  const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] as string) as Message);
  return events.find((e) => e.method === undefined) ?? events[0] ?? {};
}

/** `initialize` (with the sampling capability, for which server-everything adds tools once initialized) and the notification. */
async function initialize(url: string, notifyAt = url): Promise<string> {
  const r = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: { sampling: {} }, clientInfo: { name: "raw", version: "1" } } }) });
  expect(r.status).toBe(200);
  await r.text();
  const sid = r.headers.get("mcp-session-id") as string;
  const n = await fetch(notifyAt, { method: "POST", headers: { ...HEADERS, "mcp-session-id": sid }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  expect(n.status).toBe(202);
  return sid;
}

/** The names of the tools a `tools/list` through `url` answers. */
async function toolNames(url: string, sid: string, id: number | string): Promise<string[]> {
  const answer = (await answerOf(await post(url, sid, { jsonrpc: "2.0", id, method: "tools/list" }))) as { result?: { tools: { name: string }[] } };
  return (answer.result?.tools ?? []).map((t) => t.name);
}

/** Replica r's admin API (the cluster runs one on each). */
function adminOf(r: Replica): (method: string, path: string) => Promise<{ status: number; data: Record<string, unknown> }> {
  return async (method, path) => {
    const a = JSON.parse(readFileSync(r.adminFile, "utf8")) as { url: string; token: string };
    const res = await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}` } });
    return { status: res.status, data: (await res.json()) as Record<string, unknown> };
  };
}

type Listed = { id: string; replicas?: string[]; messages: { outbound: number; inbound: number }; denies: number };

const post = (url: string, sid: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": sid, ...headers }, body: JSON.stringify(body) });

async function kill(r: Replica): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return;
  const exited = new Promise((resolve) => r.child.once("exit", resolve));
  r.child.kill("SIGKILL");
  await exited;
}

describe("sessions across three replicas behind HAProxy (round-robin, no affinity)", () => {
  const dir = tempDir("guardwire-scale-sessions-");
  let everything: Running;
  let legacy: Running;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  /** In front of the same server, holding each `notifications/initialized` back for a while (a slow path to the server). */
  let slow: Awaited<ReturnType<typeof startRecorder>>;
  let cluster: Cluster;
  let tokens: SessionTokens;

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    legacy = await startEverything("sse");
    recorder = await startRecorder(everything.url);
    slow = await startRecorder(everything.url, (body) => (body.includes('"notifications/initialized"') ? 700 : 0));
    const rules = join(dir, "rules.yaml");
    writeFileSync(rules, RULES);
    cluster = await startCluster(dir, {
      rules,
      admin: true,
      routes: [
        "  - name: slow",
        "    path: /mcp/slow",
        `    mcp: { url: "${slow.url}" }`,
        "  - name: http",
        "    path: /mcp/http",
        `    mcp: { url: "${recorder.url}" }`,
        "  - name: stdio",
        "    path: /mcp/stdio",
        `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`,
        "  - name: legacy",
        "    path: /mcp/legacy",
        `    mcp: { sse: "${legacy.url}" }`,
      ],
    });
    tokens = clusterTokens(cluster.replicas[0] as Replica);
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
    recorder?.close();
    slow?.close();
    await everything?.stop();
    await legacy?.stop();
  });

  it("(a) an SDK client's session works through HAProxy, its calls are spread over the replicas, in one guardian session", async () => {
    const { client, transport } = await sdkClient(`${cluster.base}/mcp/http`);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("get-sum");
    for (let i = 1; i <= 9; i++) expect(await sum(client, i)).toContain(String(i + 1));
    const sid = transport.sessionId as string;
    const ticket = tokens.open(sid);
    expect(ticket).toMatchObject({ route: "http", owner: null, server: { name: expect.any(String) } });
    const guardianSession = ticket?.session as string;
    // Each replica's own log: tools/call requests of this one session are found in at least two of them.
    await eventually(() => {
      const calls = [...logsByReplica(cluster)].map(([id, lines]) => [id, lines.filter((l) => l.session === guardianSession && l.method === "tools/call" && l.direction === "outbound").length] as const);
      expect(calls.reduce((n, [, c]) => n + c, 0)).toBe(9);
      expect(calls.filter(([, c]) => c > 0).length).toBeGreaterThanOrEqual(2);
    });
    // The server's name came with the token: a rule on it holds on every replica that continues the session.
    for (let i = 0; i < 6; i++) {
      const r = await client.callTool({ name: "echo", arguments: { message: "x" } });
      expect(JSON.stringify(r.content)).toContain("may not echo x");
    }
    await eventually(() => {
      const denied = [...logsByReplica(cluster)].filter(([, lines]) => lines.some((l) => l.session === guardianSession && (l.reasonCode as string[] | undefined)?.includes("NO_X")));
      expect(denied.length).toBeGreaterThanOrEqual(2);
    });
    // One initialize reached the server for the whole session, whichever replicas continued it.
    const upstreamSession = ticket?.upstream as string;
    expect(recorder.seen.filter((s) => s.body.includes('"initialize"') && s.body.includes("scale-test")).length).toBe(1);
    expect(recorder.seen.filter((s) => s.session === upstreamSession && s.body.includes('"tools/call"')).length).toBe(9);
    await client.close();
  });

  it("(c) a tampered token is refused with 404 on every replica, and nothing reaches the upstream", async () => {
    const sid = await initialize(`${cluster.base}/mcp/http`);
    // Answered: the session's notification went on before it, so what the upstream saw is settled.
    expect((await post(`${cluster.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 0, method: "tools/list" })).status).toBe(200);
    const before = recorder.seen.length;
    const raw = Buffer.from(sid, "base64url");
    for (const at of [0, 3, 10, 30, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at] = (bad[at] as number) ^ 0x40;
      for (const r of cluster.replicas) {
        const res = await post(`${r.base}/mcp/http`, bad.toString("base64url"), { jsonrpc: "2.0", id: 1, method: "tools/list" });
        expect(res.status).toBe(404);
        expect((await answerOf(res)).error?.message).toBe("Session not found");
      }
    }
    // A token of another route, a truncated one, and a session id of another key: refused too.
    const other = await post(`${cluster.base}/mcp/stdio`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(other.status).toBe(404);
    expect((await post(`${cluster.base}/mcp/http`, sid.slice(0, -4), { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(404);
    expect((await post(`${cluster.base}/mcp/http`, new SessionTokens().seal(tokens.open(sid)!), { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(404);
    expect(recorder.seen.length).toBe(before);
    // The untampered token still works.
    expect(await answerOf(await post(`${cluster.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 2, method: "tools/list" }))).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
  });

  it("a session killed by an operator (recorded in Redis) is not continued by a replica that did not hold it", async () => {
    const [a, b] = cluster.replicas as [Replica, Replica];
    const sid = await initialize(`${a.base}/mcp/http`);
    const redis = new Redis(cluster.redis.url);
    try {
      await redis.set(`guardwire:session:${tokens.open(sid)?.session}:killed`, "1", "EX", 60);
      const before = recorder.seen.length;
      const res = await post(`${b.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(res.status).toBe(404);
      expect(recorder.seen.length).toBe(before);
    } finally {
      redis.disconnect();
    }
  });

  it("a DELETE ends the session upstream, and no replica continues it afterwards", async () => {
    const [a, b, c] = cluster.replicas as [Replica, Replica, Replica];
    const sid = await initialize(`${a.base}/mcp/http`);
    expect((await post(`${b.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);
    const del = await fetch(`${b.base}/mcp/http`, { method: "DELETE", headers: { "mcp-session-id": sid } });
    expect(del.status).toBe(200);
    const upstream = tokens.open(sid)?.upstream;
    expect(recorder.seen.some((s) => s.method === "DELETE" && s.session === upstream)).toBe(true);
    await eventually(async () => expect((await post(`${c.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(404));
  });

  it("a DELETE through HAProxy ends the session on every replica: while it lives it is one row with summed counts; afterwards 404 everywhere and listed nowhere", async () => {
    const { client, transport } = await sdkClient(`${cluster.base}/mcp/http`);
    for (let i = 1; i <= 9; i++) expect(await sum(client, i)).toContain(String(i + 1));
    const sid = transport.sessionId as string;
    const guardianSession = tokens.open(sid)?.session as string;
    // Every replica that judged a message of it holds a copy (continued from its token); the log lines reach each
    // replica's file a moment after the answers, so they are read again on every poll.
    const lines = () => [...logsByReplica(cluster)].map(([id, l]) => [id, l.filter((x) => x.session === guardianSession)] as const).filter(([, l]) => l.length > 0);
    const count = (dir: string) => lines().reduce((n, [, l]) => n + l.filter((x) => x.direction === dir).length, 0);
    const judgedOn = () => lines().map(([id]) => id);
    // Through any replica's admin API: one row, naming every replica it touched, with the counts of all of them.
    let holders: string[] = [];
    for (const r of cluster.replicas) {
      const rows = await until(
        async () => (((await adminOf(r)("GET", "/api/sessions")).data.sessions as Listed[]) ?? []).filter((s) => s.id === guardianSession),
        (l) => l.length === 1 && judgedOn().every((id) => l[0]?.replicas?.includes(id)) && l[0]?.messages.outbound === count("outbound") && l[0]?.messages.inbound === count("inbound"),
        `${r.id} lists one merged row with the summed counts of the replicas' logs`,
      );
      holders = rows[0]?.replicas ?? [];
      expect(holders.length).toBeGreaterThanOrEqual(2);
      expect(rows[0]?.denies).toBe(0);
      expect((await adminOf(r)("GET", `/api/sessions/${guardianSession}`)).data.session).toMatchObject({ id: guardianSession, replicas: holders });
    }
    // The CLI shows the same row: one line for the session, its replicas in one column.
    const listed = await run(process.execPath, [CLI, "sessions"], { env: { ...process.env, GUARDWIRE_ADMIN_FILE: cluster.replicas[1]!.adminFile } });
    expect(listed.stdout.split("\n").filter((l) => l.startsWith(guardianSession))).toEqual([expect.stringContaining(holders.join(","))]);

    await transport.terminateSession();
    // Answered once every replica ended its copy: at once, each answers 404 (not -32052 from a stale copy).
    for (const r of cluster.replicas) {
      const res = await post(`${r.base}/mcp/http`, sid, { jsonrpc: "2.0", id: `after-${r.id}`, method: "tools/list" });
      expect(res.status, `${r.id} after DELETE`).toBe(404);
      expect((await answerOf(res)).error?.message).toMatch(/^Session not found/);
      const g = await fetch(`${r.base}/mcp/http`, { headers: { accept: "text/event-stream", "mcp-session-id": sid } });
      expect(g.status).toBe(404);
      await g.body?.cancel();
      expect((await fetch(`${r.base}/mcp/http`, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(404);
    }
    for (const r of cluster.replicas) {
      await until(async () => ((await adminOf(r)("GET", "/api/sessions")).data.sessions as Listed[]).filter((s) => s.id === guardianSession), (l) => l.length === 0, `${r.id} no longer lists it`);
      expect((await adminOf(r)("GET", `/api/sessions/${guardianSession}`)).status).toBe(404);
    }
    // The end is marked in Redis for longer than a token lives (sessions.maxAgeSeconds, default a day).
    const redis = new Redis(cluster.redis.url);
    try {
      expect(await redis.ttl(`guardwire:session:${guardianSession}:ended`)).toBeGreaterThan(86_400);
    } finally {
      redis.disconnect();
    }
    await client.close();
  });

  it("order across replicas: a notification is acknowledged once the server has it, so the request sent next through another replica comes after it", async () => {
    const [a, b, c] = cluster.replicas as [Replica, Replica, Replica];
    // The notification goes through r2, whose way to the server is slow (700 ms); the next request through r3.
    const sid = await initialize(`${a.base}/mcp/slow`, `${b.base}/mcp/slow`);
    const names = await toolNames(`${c.base}/mcp/slow`, sid, "next");
    // server-everything adds its sampling tools when `notifications/initialized` arrives: they are there.
    expect(names).toContain("trigger-sampling-request");
    const upstream = tokens.open(sid)?.upstream;
    const order = slow.seen.filter((x) => x.session === upstream && x.method === "POST").map((x) => (JSON.parse(x.body) as { method?: string }).method);
    expect(order).toEqual(["notifications/initialized", "tools/list"]);
  });

  it("order across replicas, forwarded: a notification through one replica and a request through another reach the owner's server in order", async () => {
    const [a, b, c] = cluster.replicas as [Replica, Replica, Replica];
    for (let i = 0; i < 3; i++) {
      const sid = await initialize(`${a.base}/mcp/stdio`, `${b.base}/mcp/stdio`);
      expect(tokens.open(sid)?.owner).toBe(a.id);
      expect(await toolNames(`${c.base}/mcp/stdio`, sid, i)).toContain("trigger-sampling-request");
      expect((await fetch(`${c.base}/mcp/stdio`, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(200);
      expect((await post(`${b.base}/mcp/stdio`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(404);
    }
  });

  it("(e) a stdio-upstream session works across replicas: requests landing elsewhere are forwarded to its owner", async () => {
    const { client, transport } = await sdkClient(`${cluster.base}/mcp/stdio`);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    for (let i = 1; i <= 6; i++) expect(await sum(client, i)).toContain(String(i + 1));
    const sid = transport.sessionId as string;
    const owner = tokens.open(sid)?.owner;
    expect(owner).toMatch(/^r[123]$/);
    // Straight to each replica that does not own it (no HAProxy): the answer comes from the owner.
    for (const r of cluster.replicas.filter((r) => r.id !== owner)) {
      expect(await answerOf(await post(`${r.base}/mcp/stdio`, sid, { jsonrpc: "2.0", id: `via-${r.id}`, method: "tools/list" }))).toMatchObject({ id: `via-${r.id}`, result: { tools: expect.any(Array) } });
    }
    // Every judged message of the session is in the owner's log alone.
    const guardianSession = tokens.open(sid)?.session;
    await eventually(() => {
      const where = [...logsByReplica(cluster)].filter(([, lines]) => lines.some((l) => l.session === guardianSession)).map(([id]) => id);
      expect(where).toEqual([owner]);
    });
    // Only guardwire's replicas can mark a request as forwarded.
    const forged = await post(`${cluster.base}/mcp/stdio`, sid, { jsonrpc: "2.0", id: 9, method: "tools/list" }, { "x-guardwire-hop": `${Math.floor(Date.now() / 1000)}.AAAA` });
    expect(forged.status).toBe(403);
    await client.close();
  });

  it("sampling and elicitation across replicas: the agent's answer, wherever it lands, reaches the replica awaiting it", async () => {
    const { client } = await sdkClient(`${cluster.base}/mcp/http`);
    for (let i = 0; i < 4; i++) {
      const r = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: `hi ${i}`, maxTokens: 5 } });
      expect(JSON.stringify(r.content)).toContain("sampled-ok");
      const e = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      expect(JSON.stringify(e.content).toLowerCase()).toContain("decline");
    }
    const unsolicited = [...logsByReplica(cluster).values()].flat().filter((l) => (l.reasonCode as string[] | undefined)?.includes("UNSOLICITED_RESPONSE"));
    expect(unsolicited).toEqual([]);
    await client.close();
  });

  it("a legacy-SSE agent: its POSTs to messages?sessionId= land on any replica and are forwarded to the one holding its stream", async () => {
    const { client } = await sdkClient(`${cluster.base}/mcp/stdio/sse`, new SSEClientTransport(new URL(`${cluster.base}/mcp/stdio/sse`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    for (let i = 1; i <= 6; i++) expect(await sum(client, i)).toContain(String(i + 1));
    expect(JSON.stringify((await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } })).content)).toContain("sampled-ok");
    await client.close();
  });

  it("a legacy-SSE upstream lives in one replica: its session is forwarded there", async () => {
    const { client, transport } = await sdkClient(`${cluster.base}/mcp/legacy`);
    for (let i = 1; i <= 6; i++) expect(await sum(client, i)).toContain(String(i + 1));
    expect(tokens.open(transport.sessionId as string)?.owner).toMatch(/^r[123]$/);
    await client.close();
  });

  it("(d) a cut SSE stream resumes with Last-Event-ID on another replica: forwarded to the one keeping its replay log", async () => {
    const [a, b] = cluster.replicas as [Replica, Replica];
    const sid = await initialize(`${a.base}/mcp/http`);
    const x = await openStream(`${a.base}/mcp/http`, "POST", { ...HEADERS, "mcp-session-id": sid }, { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 5 }, _meta: { progressToken: "t8" } } });
    const first = await x.next();
    expect(first?.id).toMatch(new RegExp(`^${a.id}~p\\d+\\.1$`));
    x.close();
    const g = await openStream(`${b.base}/mcp/http`, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
    expect(g.res.statusCode).toBe(200);
    const seen: { id?: unknown; method?: string }[] = [];
    for (let e = await g.next(); e; e = await g.next()) {
      expect(e.id?.startsWith(`${a.id}~`)).toBe(true);
      seen.push(JSON.parse(e.data) as { id?: unknown; method?: string });
    }
    // The stream goes on from after the last event seen, to the request's one answer.
    expect(seen.at(-1)).toMatchObject({ id: 8 });
    expect(seen.filter((m) => m.id === 8).length).toBe(1);
    // A resumption naming a replica that is not there is refused as such.
    const lost = await fetch(`${b.base}/mcp/http`, { headers: { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": "r9~p1.1" } });
    expect(lost.status).toBe(404);
    expect((await answerOf(lost)).error?.message).toMatch(/replica holding this session \(r9\) is gone/);
  });

  it("the standalone GET stream opens on a replica that did not hold the session", async () => {
    const [a, , c] = cluster.replicas as [Replica, Replica, Replica];
    const sid = await initialize(`${a.base}/mcp/http`);
    const g = await openStream(`${c.base}/mcp/http`, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" });
    expect(g.res.statusCode).toBe(200);
    expect(g.res.headers["content-type"]).toBe("text/event-stream");
    g.close();
  });

  it("Redis stopped: a replica that must check the session first answers 503 naming Redis; once Redis is back it continues", async () => {
    const [a, b] = cluster.replicas as [Replica, Replica];
    const sid = await initialize(`${a.base}/mcp/http`);
    await cluster.redis.stop();
    try {
      const res = await post(`${b.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(res.status).toBe(503);
      const answer = await answerOf(res);
      expect(answer.error).toMatchObject({ code: -32051, message: expect.stringMatching(/Redis/) });
    } finally {
      await cluster.redis.start();
    }
    await eventually(async () => {
      const res = await post(`${b.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(res.status).toBe(200);
    }, 20_000);
  });

  it("(b) a replica killed mid-session: the HTTP-upstream session goes on elsewhere; the stdio one gets the documented 404, and a new session works", async () => {
    const http = await sdkClient(`${cluster.base}/mcp/http`);
    const stdio = await sdkClient(`${cluster.base}/mcp/stdio`);
    for (let i = 1; i <= 3; i++) {
      await sum(http.client, i);
      await sum(stdio.client, i);
    }
    // Kill the replica that owns the stdio session (its child goes with it).
    const owner = cluster.replicas.find((r) => r.id === tokens.open(stdio.transport.sessionId as string)?.owner) as Replica;
    const initializes = recorder.seen.filter((s) => s.body.includes('"initialize"')).length;
    await kill(owner);
    for (let i = 4; i <= 9; i++) expect(await sum(http.client, i)).toContain(String(i + 1));
    expect(recorder.seen.filter((s) => s.body.includes('"initialize"')).length).toBe(initializes);
    await expect(stdio.client.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } })).rejects.toThrow(new RegExp(`Session not found: the replica holding this session \\(${owner.id}\\) is gone`, "s"));
    await stdio.client.close();
    const again = await sdkClient(`${cluster.base}/mcp/stdio`);
    expect(await sum(again.client, 41)).toContain("42");
    await again.client.close();
    await http.client.close();
  });
});

describe("one replica, no store: tokens and restarts", () => {
  const dir = tempDir("guardwire-scale-one-");
  let everything: Running;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  const key = randomBytes(32).toString("base64");

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    recorder = await startRecorder(everything.url);
  });
  afterAll(async () => {
    recorder?.close();
    await everything?.stop();
  });

  const serve = (extra: string[]) => startServeCli(dir, { rules: ACCEPTANCE_RULES, log: join(dir, "decisions.ndjson"), extra, routes: ["  - name: http", "    path: /mcp/http", `    mcp: { url: "${recorder.url}" }`] });

  it("with sessions.keys, a restarted replica continues a session from its token (the server's session was let go of, not ended)", async () => {
    const first = await serve([`sessions: { keys: ["${key}"] }`]);
    const sid = await initialize(`${first.base}/mcp/http`);
    expect(await answerOf(await post(`${first.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" }))).toMatchObject({ id: 1, result: {} });
    await stopChild(first.child);
    expect(recorder.seen.filter((s) => s.method === "DELETE")).toEqual([]);
    const second = await serve([`sessions: { keys: ["${key}"] }`]);
    try {
      const initializes = recorder.seen.filter((s) => s.body.includes('"initialize"')).length;
      expect(await answerOf(await post(`${second.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 2, method: "tools/list" }))).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
      expect(recorder.seen.filter((s) => s.body.includes('"initialize"')).length).toBe(initializes);
      // DELETE ends it for good: its token is not continued again, even here.
      expect((await fetch(`${second.base}/mcp/http`, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(200);
      expect(recorder.seen.filter((s) => s.method === "DELETE").length).toBe(1);
      expect((await post(`${second.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 3, method: "tools/list" })).status).toBe(404);
    } finally {
      await stopChild(second.child);
    }
  });

  it("without sessions.keys, a token opens only in the process that sealed it (as before: a restart loses the session)", async () => {
    const first = await serve([]);
    const sid = await initialize(`${first.base}/mcp/http`);
    await stopChild(first.child);
    const second = await serve([]);
    try {
      const res = await post(`${second.base}/mcp/http`, sid, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(res.status).toBe(404);
    } finally {
      await stopChild(second.child);
    }
  });
});
