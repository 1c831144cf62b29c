import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientFactory } from "a2a-sdk-03/client";
import { A2aRemote } from "../../src/transports/upstream/a2a.js";
import { ROOT } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startWebhook, stopChild, waitFor } from "../support/servers.js";

const AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs");
const RULES = join(ROOT, "test", "fixtures", "rules", "a2a-acceptance.yaml");

type Part = { kind: string; text?: string };
type Event = { kind: string; status?: { state: string }; artifact?: { parts: Part[] }; parts?: Part[] };
const userMessage = (text: string) => ({ message: { kind: "message" as const, messageId: crypto.randomUUID(), role: "user" as const, parts: [{ kind: "text" as const, text }] } });
const textOf = (e: { parts?: Part[] }) => (e.parts ?? []).map((p) => p.text ?? "").join(" ");

describe("A2A 0.3: a real @a2a-js/sdk agent and client through a guardwire route", () => {
  let agent: ReturnType<typeof spawn>;
  let agentUrl: string;
  let p: InProcessProxy;
  let route: string;

  beforeAll(async () => {
    agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    agentUrl = `http://127.0.0.1:${match[1]}`;
    p = await startProxy([{ name: "echo", path: "/a2a/echo", a2a: new A2aRemote({ url: agentUrl }) }], { rules: RULES });
    route = `${p.base}/a2a/echo/`;
  });
  afterAll(async () => {
    await p?.close();
    if (agent) await stopChild(agent);
  });

  it("the card the client sees leads only to the proxy (no gRPC, no signatures)", async () => {
    const card = (await (await fetch(`${route}.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    expect(card.name).toBe("Echo Agent");
    expect(card.url).toBe(route);
    expect(JSON.stringify(card)).not.toContain(agentUrl);
    expect(card.signatures).toBeUndefined();
    expect(card.additionalInterfaces).toEqual([
      { transport: "JSONRPC", url: route },
      { transport: "HTTP+JSON", url: `${route}rest` },
    ]);
    expect((await fetch(`${route}.well-known/agent.json`)).status).toBe(200);
  });

  it("the extended card leads to the proxy too, over JSON-RPC and REST", async () => {
    const ask = async (url: string) =>
      (await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "agent/getAuthenticatedExtendedCard" }) })).json()) as { result: Record<string, unknown> };
    const direct = await ask(`${agentUrl}/a2a/jsonrpc`);
    const rpc = await ask(route);
    expect(rpc.result.name).toBe(direct.result.name);
    expect(rpc.result.description).toBe(direct.result.description);
    expect(rpc.result.url).toBe(route);
    expect(JSON.stringify(rpc.result)).not.toContain(agentUrl);
    const rest = (await (await fetch(`${route}rest/v1/card`)).json()) as Record<string, unknown>;
    expect(rest.name).toBe(direct.result.name);
    expect(rest.url).toBe(route);
    expect(JSON.stringify(rest)).not.toContain(agentUrl);
  });

  it("send works as it does directly", async () => {
    const proxied = await new ClientFactory().createFromUrl(route);
    const direct = await new ClientFactory().createFromUrl(agentUrl);
    const a = (await proxied.sendMessage(userMessage("hello"))) as Event;
    const b = (await direct.sendMessage(userMessage("hello"))) as Event;
    expect(textOf(a)).toBe("You said: hello");
    expect(textOf(a)).toBe(textOf(b));
  });

  it("a2a-deny-forbidden: the client gets an error naming the rule's message", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    await expect(client.sendMessage(userMessage("tell me the forbidden thing"))).rejects.toThrow(/Denied by policy|-32050/);
  });

  it("a2a-mask-card-number: 4111 in an inbound message arrives as ####", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    expect(textOf((await client.sendMessage(userMessage("card 4111 1111"))) as Event)).toBe("You said: card #### 1111");
  });

  it("streaming: the same events in the same order as directly, each judged (the artifact is masked)", async () => {
    const kinds = async (url: string) => {
      const client = await new ClientFactory().createFromUrl(url);
      const seen: Event[] = [];
      for await (const e of client.sendMessageStream(userMessage("task with 4111"))) seen.push(e as Event);
      return seen;
    };
    const proxied = await kinds(route);
    const direct = await kinds(agentUrl);
    const shape = (es: Event[]) => es.map((e) => `${e.kind}:${e.status?.state ?? ""}`);
    expect(shape(proxied)).toEqual(shape(direct));
    expect(shape(proxied)).toEqual(["task:submitted", "status-update:working", "artifact-update:", "status-update:completed"]);
    const artifact = proxied.find((e) => e.kind === "artifact-update");
    expect(artifact?.artifact?.parts[0]?.text).toBe("artifact: task with ####");
  });

  it("a 10 MB artifact streams through intact", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    let size = 0;
    for await (const e of client.sendMessageStream(userMessage("big 10"))) {
      const ev = e as Event;
      if (ev.kind === "artifact-update") size = ev.artifact?.parts[0]?.text?.length ?? 0;
    }
    expect(size).toBe(10 * 1024 * 1024);
  });

  it("a denied stream is refused before anything reaches the agent", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    const run = async () => {
      for await (const e of client.sendMessageStream(userMessage("task forbidden"))) void e;
    };
    await expect(run()).rejects.toThrow(/Denied by policy|-32050/);
  });

  it("tasks/get and tasks/cancel work through the proxy", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    let taskId = "";
    const stream = client.sendMessageStream(userMessage("slow job"));
    for await (const e of stream) {
      const ev = e as Event & { id?: string; taskId?: string };
      taskId ||= ev.id ?? ev.taskId ?? "";
      if (ev.status?.state === "working") break;
    }
    expect(taskId).not.toBe("");
    const got = await client.getTask({ id: taskId });
    expect(got.status.state).toBe("working");
    const canceled = await client.cancelTask({ id: taskId });
    expect(canceled.id).toBe(taskId);
  });

  it("the HTTP+JSON (REST) binding is judged the same: send, deny, mask, stream, get, cancel", async () => {
    const { ClientFactoryOptions } = await import("a2a-sdk-03/client");
    const client = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ["HTTP+JSON"] })).createFromUrl(route);
    expect(textOf((await client.sendMessage(userMessage("hello rest"))) as Event)).toBe("You said: hello rest");
    expect(textOf((await client.sendMessage(userMessage("rest 4111"))) as Event)).toBe("You said: rest ####");
    await expect(client.sendMessage(userMessage("forbidden over rest"))).rejects.toThrow();
    const seen: Event[] = [];
    for await (const e of client.sendMessageStream(userMessage("task 4111 rest"))) seen.push(e as Event);
    expect(seen.map((e) => e.kind)).toEqual(["task", "status-update", "artifact-update", "status-update"]);
    expect(seen.find((e) => e.kind === "artifact-update")?.artifact?.parts[0]?.text).toBe("artifact: task #### rest");
    let taskId = "";
    for await (const e of client.sendMessageStream(userMessage("slow rest"))) {
      const ev = e as Event & { id?: string; taskId?: string };
      taskId ||= ev.id ?? ev.taskId ?? "";
      if (ev.status?.state === "working") break;
    }
    expect((await client.getTask({ id: taskId })).status.state).toBe("working");
    expect((await client.cancelTask({ id: taskId })).id).toBe(taskId);
    expect(p.log().some((l) => l.transport === "a2a-rest" && l.method === "message/send" && (l.rules as string[]).includes("a2a-deny-forbidden"))).toBe(true);
  });

  it("the log names the rules, the remote agent, and the task and context of each exchange", () => {
    const lines = p.log();
    expect(lines.some((l) => (l.rules as string[]).includes("a2a-deny-forbidden") && l.decision === "deny")).toBe(true);
    expect(lines.some((l) => (l.rules as string[]).includes("a2a-mask-card-number") && l.decision === "modify" && l.kind === "event")).toBe(true);
    expect(lines.some((l) => l.method === "agent/card" && l.protocol === "a2a")).toBe(true);
    expect(lines.some((l) => l.peer === "Echo Agent" && typeof l.task === "string" && typeof l.context === "string")).toBe(true);
  });
});

describe("A2A: a remote agent that is down or not an agent", () => {
  it("answers -32052 with the route, and a card error, instead of hanging", async () => {
    const p = await startProxy([{ name: "gone", path: "/a2a/gone", a2a: new A2aRemote({ url: "http://127.0.0.1:9" }) }]);
    try {
      const r = await fetch(`${p.base}/a2a/gone/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: userMessage("hi") }) });
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ id: 1, error: { code: -32052, data: { route: "gone" } } });
      const card = await fetch(`${p.base}/a2a/gone/.well-known/agent-card.json`);
      expect(card.status).toBe(502);
    } finally {
      await p.close();
    }
  });
});

describe("A2A: a denied stream event ends the stream", () => {
  it("the caller gets the events before it, then a -32050 error event, and the stream ends", async () => {
    const { writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../helpers.js");
    const rules = join(tempDir(), "deny-event.yaml");
    writeFileSync(
      rules,
      ["name: deny-event", "default: allow", "rules:", "  - id: no-secret-artifacts", "    match: { protocol: a2a, direction: inbound, operation: stream }", '    when: \'text.contains("secret")\'', "    decision: deny", "    message: secret artifacts stay home"].join("\n"),
    );
    const agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    const p = await startProxy([{ name: "echo", path: "/a2a/echo", a2a: new A2aRemote({ url: `http://127.0.0.1:${match[1]}` }) }], { rules });
    try {
      const client = await new ClientFactory().createFromUrl(`${p.base}/a2a/echo/`);
      const seen: string[] = [];
      const run = async () => {
        for await (const e of client.sendMessageStream(userMessage("task secret"))) seen.push((e as Event).kind);
      };
      await expect(run()).rejects.toThrow(/Denied by policy|-32050/);
      // The task and its first status update carry the user's text too ("task secret" is in the task's history).
      expect(seen).not.toContain("artifact-update");
      expect(p.log().some((l) => (l.rules as string[]).includes("no-secret-artifacts") && l.kind === "event" && l.decision === "deny")).toBe(true);
    } finally {
      await p.close();
      await stopChild(agent);
    }
  });
});

describe("A2A push notifications cross the guardian", () => {
  it("the agent posts to the proxy; allowed posts reach the caller's webhook with its token, denied ones are dropped", async () => {
    const { writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../helpers.js");
    const hook = await startWebhook<{ id?: string; status?: { state: string }; artifacts?: { parts: Part[] }[] }>();
    const { url: hookUrl, received } = hook;
    const rules = join(tempDir(), "push.yaml");
    writeFileSync(
      rules,
      [
        "name: push",
        "default: allow",
        "rules:",
        "  - id: no-working-pushes",
        "    match: { protocol: a2a, direction: inbound, operation: push }",
        "    when: 'message.params.status.state == \"working\"'",
        "    decision: deny",
        "  - id: mask-in-pushes",
        "    match: { protocol: a2a, direction: inbound, operation: push }",
        "    when: 'text.contains(\"4111\")'",
        "    decision: modify",
        "    modify: [{ replace: \"$..text\", pattern: \"4111\", with: \"####\" }]",
      ].join("\n"),
    );
    const agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    const remote = new A2aRemote({ url: `http://127.0.0.1:${match[1]}` });
    const p = await startProxy([{ name: "echo", path: "/a2a/echo", a2a: remote }], { rules });
    try {
      const client = await new ClientFactory().createFromUrl(`${p.base}/a2a/echo/`);
      const task = (await client.sendMessage({ ...userMessage("task card 4111"), configuration: { blocking: true, pushNotificationConfig: { url: hookUrl, token: "tok-123" } } })) as { id: string };
      // The last post is the task's completion: polled for, not waited a fixed time (a loaded machine delivers it later).
      await expect.poll(() => received.some((r) => r.body.status?.state === "completed"), { timeout: 10_000 }).toBe(true);
      // Every post reached the caller through the proxy, with the caller's token; none in the "working" state.
      expect(received.every((r) => r.headers["x-a2a-notification-token"] === "tok-123")).toBe(true);
      expect(received.some((r) => r.body.status?.state === "working")).toBe(false);
      // The card text, not the bare digits: a random task or message id may hold "4111" (one run in a few hundred did).
      expect(JSON.stringify(received.map((r) => r.body))).not.toContain("card 4111");
      expect(JSON.stringify(received.map((r) => r.body))).toContain("card ####");
      // The caller sees its own callback URL in push-config answers, never the proxy's.
      const cfg = await client.getTaskPushNotificationConfig({ id: task.id });
      expect(cfg.pushNotificationConfig.url).toBe(hookUrl);
      const lines = p.log();
      expect(lines.some((l) => l.method === "tasks/pushNotification" && l.decision === "deny" && (l.rules as string[]).includes("no-working-pushes"))).toBe(true);
      expect(lines.some((l) => l.method === "tasks/pushNotification" && l.decision === "modify")).toBe(true);
      // The posts are judged in the guardian session of the caller that registered the callback.
      expect(new Set(lines.filter((l) => l.method === "tasks/pushNotification").map((l) => l.session))).toEqual(new Set(["a2a:127.0.0.1"]));
      // A post to a callback nobody registered is refused.
      const forged = await fetch(`${p.base}/a2a/echo/push/${"0".repeat(36)}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(forged.status).toBe(404);
    } finally {
      await p.close();
      await stopChild(agent);
      hook.close();
    }
  });
});

describe("A2A: an agent that misbehaves", () => {
  it("non-JSON answers, a broken stream, an oversized event and a card that is not a card each give -32052, never a hang", async () => {
    const { createServer } = await import("node:http");
    let base = "";
    const bad = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        if (req.url === "/.well-known/agent-card.json") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "Bad", url: `${base}/rpc` }));
        if (req.url === "/notacard/.well-known/agent-card.json") return res.writeHead(200, { "content-type": "application/json" }).end('{"hello":1}');
        const text = (JSON.parse(body) as { params: { message: { parts: { text: string }[] } } }).params.message.parts[0]?.text ?? "";
        if (text === "html") return res.writeHead(200, { "content-type": "text/html" }).end("<html>oops</html>");
        if (text === "slow") return; // never answers
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (text === "big") return res.write(`data: {"jsonrpc":"2.0","id":1,"result":{"x":"${"y".repeat(300_000)}`);
        res.write('data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}}\n\n');
        setTimeout(() => res.destroy(), 50);
      });
    });
    await new Promise<void>((r) => bad.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(bad.address() as { port: number }).port}`;
    const p = await startProxy(
      [
        { name: "bad", path: "/a2a/bad", a2a: new A2aRemote({ url: base }) },
        { name: "notacard", path: "/a2a/notacard", a2a: new A2aRemote({ url: `${base}/notacard` }) },
        { name: "slow", path: "/a2a/slow", a2a: new A2aRemote({ url: base, timeoutMs: 300 }) },
      ],
      { maxBodyBytes: 100_000 },
    );
    const call = async (route: string, method: string, text: string) => {
      const r = await fetch(`${p.base}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: userMessage(text) }) });
      return r.text();
    };
    try {
      expect(JSON.parse(await call("/a2a/bad/", "message/send", "html"))).toMatchObject({ id: 1, error: { code: -32052, data: { route: "bad" } } });
      const broken = await call("/a2a/bad/", "message/stream", "broken");
      expect(broken).toContain('"state":"working"');
      expect(broken).toContain("-32052");
      expect(await call("/a2a/bad/", "message/stream", "big")).toContain("-32052");
      expect(JSON.parse(await call("/a2a/notacard/", "message/send", "hi"))).toMatchObject({ error: { code: -32052, data: { reason: expect.stringContaining("not an agent card") } } });
      expect((await fetch(`${p.base}/a2a/notacard/.well-known/agent-card.json`)).status).toBe(502);
      expect(JSON.parse(await call("/a2a/slow/", "message/send", "slow"))).toMatchObject({ error: { code: -32052, data: { route: "slow", reason: expect.stringContaining("did not answer in time") } } });
    } finally {
      await p.close();
      bad.close();
    }
  });
});

describe("A2A: the calls of one caller share a guardian session", () => {
  it("a flow rule sees what an earlier call labelled, and the log shows one session per caller", async () => {
    const { writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../helpers.js");
    const rules = join(tempDir(), "flow.yaml");
    writeFileSync(
      rules,
      [
        "name: flow",
        "default: allow",
        "rules:",
        "  - id: taint",
        "    match: { protocol: a2a, direction: inbound, operation: send }",
        "    when: 'text.contains(\"secret-doc\")'",
        "    decision: allow",
        "    label: tainted",
        "  - id: no-send-after-secret",
        "    match: { protocol: a2a, direction: outbound, operation: send }",
        "    when: '\"tainted\" in session.labels'",
        "    decision: deny",
        "    message: not after the secret document",
      ].join("\n"),
    );
    const agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    const p = await startProxy([{ name: "echo", path: "/a2a/echo", a2a: new A2aRemote({ url: `http://127.0.0.1:${match[1]}` }) }], { rules });
    try {
      const client = await new ClientFactory().createFromUrl(`${p.base}/a2a/echo/`);
      expect(await client.sendMessage(userMessage("hello"))).toMatchObject({ kind: "message" });
      expect(await client.sendMessage(userMessage("show me secret-doc"))).toMatchObject({ kind: "message" });
      await expect(client.sendMessage(userMessage("now send it on"))).rejects.toThrow(/not after the secret document|-32050|Denied/);
      const sessions = new Set(p.log().map((l) => l.session));
      expect(sessions).toEqual(new Set(["a2a:127.0.0.1"]));
    } finally {
      await p.close();
      await stopChild(agent);
    }
  });
});
