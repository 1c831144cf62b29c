import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { CLI, EVERYTHING, ROOT, tempDir } from "../helpers.js";
import { startAlertReceiver } from "../support/alert-receiver.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { until } from "../support/poll.js";
import { a2aSender, stopChild, waitFor } from "../support/servers.js";

const run = promisify(execFile);
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");
type Held = { id: string; replica?: string; tool: string | null };
type Info = { id: string; replicas?: string[]; client: { name: string } | null };

const RULES = `name: operator-cluster
default: allow
rules:
  - id: ask-echo
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("needs-approval")'
    decision: ask
    message: echo with an approval marker
    ask: { timeout: 60s, onTimeout: deny, remember: once, prompt: "Allow echo of {args.message}?" }
  - id: a2a-deny-forbidden
    match: { protocol: a2a, direction: outbound, operation: [send, stream] }
    when: 'text.contains("forbidden")'
    decision: deny
    reasonCode: FORBIDDEN_TOPIC
    message: that topic is not allowed
    alert: { severity: high }
`;

/** Polls until `get` gives something `ok` accepts (the admin APIs are the source of truth; no fixed sleeps). */
describe("the operator side across three replicas behind HAProxy (real Redis)", () => {
  const dir = tempDir();
  let cluster: Cluster;
  let agent: ChildProcess;
  let hook: Awaited<ReturnType<typeof startAlertReceiver>>;
  let approvalHook: Awaited<ReturnType<typeof startAlertReceiver>>;
  let redis: Redis;
  const clients: Client[] = [];

  beforeAll(async () => {
    hook = await startAlertReceiver();
    approvalHook = await startAlertReceiver();
    agent = spawn(process.execPath, [join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs")], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = (await waitFor(agent, /listening (\d+)/)).match[1];
    const rules = join(dir, "rules.yaml");
    writeFileSync(rules, RULES);
    cluster = await startCluster(dir, {
      rules,
      admin: true,
      extra: [`alerts: { webhooks: [{ url: "${hook.url}" }], dedupeSeconds: 600 }`, `approvals: { webhooks: [{ url: "${approvalHook.url}" }] }`],
      routes: [
        "  - name: everything",
        "    path: /mcp/everything",
        `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`,
        "  - name: echo",
        "    path: /a2a/echo",
        `    a2a: { url: "http://127.0.0.1:${port}" }`,
      ],
    });
    redis = new Redis(cluster.redis.url);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    redis?.disconnect();
    await cluster?.stop();
    if (agent) await stopChild(agent);
    await hook?.close();
    await approvalHook?.close();
  });

  /** The admin API of replica i (0-based), with the status of each answer. */
  function admin(i: number) {
    const a = JSON.parse(readFileSync(cluster.replicas[i]!.adminFile, "utf8")) as { url: string; token: string };
    return async (method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> => {
      const res = await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, data: (await res.json()) as Record<string, unknown> };
    };
  }

  /** An MCP SDK client connected straight to replica i (not through HAProxy): its session lives there. */
  async function connectTo(i: number, name: string): Promise<Client> {
    const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${cluster.replicas[i]!.base}/mcp/everything`)));
    clients.push(client);
    return client;
  }

  const heldOn = (i: number, n: number) =>
    until(
      async () => ((await admin(i)("GET", "/api/approvals")).data.approvals as Held[]) ?? [],
      (l) => l.length >= n,
      `${n} held approval(s) listed on r${i + 1}`,
    );

  /** The admin event stream of replica i: resolves with the first event named `name` whose data `ok` accepts. */
  async function nextEvent(i: number, name: string, ok: (data: Record<string, unknown>) => boolean): Promise<{ event: Promise<Record<string, unknown>> }> {
    const a = JSON.parse(readFileSync(cluster.replicas[i]!.adminFile, "utf8")) as { url: string; token: string };
    const ac = new AbortController();
    const res = await fetch(`${a.url}/api/events?only=${name}`, { headers: { authorization: `Bearer ${a.token}`, accept: "text/event-stream" }, signal: ac.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const event = (async () => {
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the event stream of r${i + 1} ended before ${name}`);
        buffer += new TextDecoder().decode(value);
        let at: number;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: (.*)$/m.exec(block)?.[1] !== name || !data) continue;
          const parsed = JSON.parse(data) as Record<string, unknown>;
          if (ok(parsed)) {
            ac.abort();
            return parsed;
          }
        }
      }
    })();
    return { event };
  }

  it("an approval held on r1 is listed and approved through r2; a second decision through r3 gets 409; a deny through r3 denies", async () => {
    const client = await connectTo(0, "approver-test");
    // A console on r3 sees r1's approval held, then decided, over the operator channel.
    const requested = await nextEvent(2, "approval.requested", (d) => (d.approval as Held).replica === "r1");
    const decided = await nextEvent(2, "approval.decided", (d) => (d.outcome as { outcome: string }).outcome === "approved");
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval across replicas" } }, undefined, { timeout: 60_000 });
    const [held] = await heldOn(1, 1);
    expect(((await requested.event).approval as Held).id).toBe(held!.id);
    expect(held).toMatchObject({ replica: "r1", tool: "echo" });
    expect((await admin(2)("GET", `/api/approvals/${held!.id}`)).data.approval).toMatchObject({ id: held!.id, replica: "r1" });

    const approved = await admin(1)("POST", `/api/approvals/${held!.id}/approve`, { by: "alice" });
    expect(approved).toMatchObject({ status: 200, data: { decision: "approved", approval: { id: held!.id, replica: "r1" } } });
    expect(text(await call)).toBe("Echo: needs-approval across replicas");
    expect(await decided.event).toMatchObject({ approval: { id: held!.id, replica: "r1" }, outcome: { outcome: "approved", channel: "api", by: "alice" } });

    const again = await admin(2)("POST", `/api/approvals/${held!.id}/deny`, {});
    expect(again.status).toBe(409);
    expect(again.data).toMatchObject({ error: { code: "CONFLICT" } });
    expect((again.data.error as { message: string }).message).toMatch(/approved already \(through api by alice, on replica r1\)/);

    const denied = client.callTool({ name: "echo", arguments: { message: "needs-approval deny me" } }, undefined, { timeout: 60_000 });
    const [second] = await heldOn(2, 1);
    // Through the CLI, as an operator would: `guardwire approvals deny` against r3's admin API.
    await run(process.execPath, [CLI, "approvals", "deny", second!.id, "--reason", "not today"], { env: { ...process.env, GUARDWIRE_ADMIN_FILE: cluster.replicas[2]!.adminFile } });
    const r = (await denied) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("not today");
    expect(((await admin(0)("GET", "/api/approvals")).data.approvals as Held[]).length).toBe(0);
  }, 90_000);

  it("a signed link of an approval held on r1 works through r2, once, cluster-wide", async () => {
    const client = await connectTo(0, "link-test");
    const before = approvalHook.received.length;
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval by link" } }, undefined, { timeout: 60_000 });
    await approvalHook.count(before + 1);
    const { links } = approvalHook.received[before]!.body as { links: { approve: string; deny: string } };
    // The links point at r1's admin listener; behind a shared public URL they may land on any replica.
    const on = (i: number, link: string) => {
      const a = JSON.parse(readFileSync(cluster.replicas[i]!.adminFile, "utf8")) as { url: string };
      const u = new URL(link);
      return `${a.url}${u.pathname}${u.search}`;
    };
    const post = async (url: string) => {
      const res = await fetch(url, { method: "POST", headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body: "reason=ok" });
      return { status: res.status, data: (await res.json()) as Record<string, unknown> };
    };
    expect((await fetch(on(1, links.approve))).status).toBe(200);
    expect(await post(on(1, links.approve))).toMatchObject({ status: 200, data: { decision: "approved" } });
    expect(text(await call)).toBe("Echo: needs-approval by link");
    expect(await post(on(2, links.deny))).toMatchObject({ status: 409, data: { error: { code: "LINK_USED" } } });
    expect(await post(on(0, links.approve))).toMatchObject({ status: 409, data: { error: { code: "LINK_USED" } } });
    const forged = on(1, links.approve).replace(/sig=[^&]+/, "sig=AAAA");
    expect(await post(forged)).toMatchObject({ status: 403, data: { error: { code: "LINK_INVALID" } } });
  }, 90_000);

  it("sessions listed through any replica include the others'; a kill through r3 ends a session held on r1 and sticks in Redis", async () => {
    const client = await connectTo(0, "kill-me");
    expect(text(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    const sessions = (i: number) => async () => ((await admin(i)("GET", "/api/sessions")).data.sessions as Info[]) ?? [];
    const mine = (l: Info[]) => l.find((s) => s.client?.name === "kill-me");
    for (const i of [1, 2]) await until(sessions(i), (l) => mine(l)?.replicas?.join() === "r1", `r${i + 1} lists the session of r1`);
    const s = mine(await sessions(2)()) as Info;

    let progress: () => void = () => {};
    const started = new Promise<void>((r) => (progress = r));
    const long = client
      .callTool({ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }, undefined, { onprogress: () => progress(), timeout: 60_000 })
      .catch((e: unknown) => e);
    await started;
    const killed = await admin(2)("POST", `/api/sessions/${encodeURIComponent(s.id)}/kill`, { reason: "rogue" });
    expect(killed).toMatchObject({ status: 200, data: { killed: true, session: { id: s.id, replicas: ["r1"] } } });
    const e = await long;
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).message).toContain("session killed by an operator: rogue");
    const next = await client.callTool({ name: "echo", arguments: { message: "after" } }).catch((err: unknown) => err);
    expect(String(next)).toMatch(/Session not found/);

    const ttl = await redis.pttl(`guardwire:session:${s.id}:killed`);
    expect(ttl).toBeGreaterThan(23 * 3_600_000);
    for (const i of [0, 1, 2]) await until(sessions(i), (l) => mine(l) === undefined, `r${i + 1} no longer lists the killed session`);
    expect(await admin(1)("POST", `/api/sessions/${encodeURIComponent(s.id)}/kill`, {})).toMatchObject({ status: 404 });
  }, 90_000);

  it("an alert raised on two replicas within its window is posted once", async () => {
    const metric = (i: number) => async () => {
      const a = JSON.parse(readFileSync(cluster.replicas[i]!.adminFile, "utf8")) as { url: string; token: string };
      const body = await (await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${a.token}` } })).text();
      const m = /^guardwire_alerts_total\{outcome="(\w+)"\} (\d+)$/gm;
      return Object.fromEntries([...body.matchAll(m)].map((x) => [x[1], Number(x[2])])) as Record<string, number>;
    };
    // The same caller (a2a:127.0.0.1) on r1, then r2: the same alert (rule, session, reason, decision).
    for (const i of [0, 1]) {
      const send = await a2aSender(`${cluster.replicas[i]!.base}/a2a/echo/`);
      await expect(send("something forbidden")).rejects.toThrow(/not allowed/);
    }
    await until(metric(0), (s) => s.delivered === 1, "r1 delivered its alert");
    const r2 = await until(metric(1), (s) => s.raised === 1 && s.suppressed === 1, "r2 held its repeat back");
    expect(r2.delivered).toBe(0);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.body).toMatchObject({ rules: ["a2a-deny-forbidden"] });
  }, 90_000);
});
