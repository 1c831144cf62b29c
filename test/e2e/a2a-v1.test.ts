import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "a2a-sdk-10";
import { ClientFactory } from "a2a-sdk-10/client";
import { A2aRemote } from "../../src/transports/upstream/a2a.js";
import { ROOT } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startWebhook, stopChild, waitFor } from "../support/servers.js";

const AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-10.mjs");
const RULES = join(ROOT, "test", "fixtures", "rules", "a2a-acceptance.yaml");

type Part = { content?: { $case: string; value: unknown } };
const request = (text: string) => ({
  tenant: "",
  message: { messageId: crypto.randomUUID(), contextId: "", taskId: "", role: Role.ROLE_USER, parts: [{ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "" }], metadata: undefined, extensions: [], referenceTaskIds: [] },
  configuration: undefined,
  metadata: undefined,
});
const textOf = (parts: Part[] | undefined) => (parts ?? []).map((p) => (p.content?.$case === "text" ? String(p.content.value) : "")).join(" ");

describe("A2A 1.0: a real @a2a-js/sdk 1.3.0 agent and client through a guardwire route (same rules as 0.3)", () => {
  let agent: ReturnType<typeof spawn>;
  let agentUrl: string;
  let p: InProcessProxy;
  let route: string;

  beforeAll(async () => {
    agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    agentUrl = `http://127.0.0.1:${match[1]}`;
    p = await startProxy([{ name: "echo1", path: "/a2a/echo1", a2a: new A2aRemote({ url: agentUrl }) }], { rules: RULES });
    route = `${p.base}/a2a/echo1/`;
  });
  afterAll(async () => {
    await p?.close();
    if (agent) await stopChild(agent);
  });

  it("the card's supportedInterfaces lead only to the proxy (gRPC removed, REST kept behind the proxy)", async () => {
    const card = (await (await fetch(`${route}.well-known/agent-card.json`)).json()) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
    expect(card.supportedInterfaces).toEqual([expect.objectContaining({ url: route, protocolBinding: "JSONRPC" }), expect.objectContaining({ url: `${route}rest`, protocolBinding: "HTTP+JSON" })]);
  });

  it("SendMessage works, deny and mask act as with 0.3", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    const hello = (await client.sendMessage(request("hello"))) as { parts?: Part[] };
    expect(textOf(hello.parts)).toBe("You said: hello");
    expect(textOf(((await client.sendMessage(request("card 4111"))) as { parts?: Part[] }).parts)).toBe("You said: card ####");
    await expect(client.sendMessage(request("the forbidden plan"))).rejects.toThrow();
  });

  it("SendStreamingMessage: the same events in the same order as directly, the artifact masked", async () => {
    const events = async (url: string) => {
      const client = await new ClientFactory().createFromUrl(url);
      const out: { kind: string; text: string }[] = [];
      for await (const e of client.sendMessageStream(request("task 4111"))) {
        const payload = e.payload;
        if (!payload) continue;
        const v = payload.value as { artifact?: { parts: Part[] } };
        out.push({ kind: payload.$case, text: textOf(v.artifact?.parts) });
      }
      return out;
    };
    const proxied = await events(route);
    const direct = await events(agentUrl);
    expect(proxied.map((e) => e.kind)).toEqual(direct.map((e) => e.kind));
    expect(proxied.map((e) => e.kind)).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(proxied.find((e) => e.kind === "artifactUpdate")?.text).toBe("artifact: task ####");
  });

  it("GetTask and CancelTask work through the proxy", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    let taskId = "";
    for await (const e of client.sendMessageStream(request("slow job"))) {
      if (e.payload?.$case === "task") taskId = e.payload.value.id;
      if (e.payload?.$case === "statusUpdate") break;
    }
    expect(taskId).not.toBe("");
    expect((await client.getTask({ tenant: "", id: taskId, historyLength: undefined })).id).toBe(taskId);
    expect((await client.cancelTask({ tenant: "", id: taskId, metadata: undefined })).id).toBe(taskId);
  });

  it("the 1.0 HTTP+JSON binding (no /v1, application/a2a+json) is judged the same", async () => {
    const { ClientFactoryOptions } = await import("a2a-sdk-10/client");
    const client = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ["HTTP+JSON"] })).createFromUrl(route);
    expect(textOf(((await client.sendMessage(request("rest 4111"))) as { parts?: Part[] }).parts)).toBe("You said: rest ####");
    await expect(client.sendMessage(request("forbidden rest"))).rejects.toThrow();
    const kinds: string[] = [];
    for await (const e of client.sendMessageStream(request("task rest"))) if (e.payload) kinds.push(e.payload.$case);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(p.log().some((l) => l.transport === "a2a-rest" && l.method === "SendMessage" && l.decision === "deny")).toBe(true);
  });

  it("an agent's HTTP error on the REST binding keeps its status and body for the caller; the judged answer carries it in data, not as a JSON-RPC code", async () => {
    const direct = await fetch(`${agentUrl}/a2a/rest/tasks/no-such-task`, { headers: { accept: "application/json" } });
    const res = await fetch(`${route}rest/tasks/no-such-task`, { headers: { accept: "application/json" } });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBe(direct.status);
    expect(JSON.parse(await res.text())).toEqual(JSON.parse(await direct.text()));
    expect(p.log().some((l) => l.transport === "a2a-rest" && l.method === "GetTask" && l.kind === "response")).toBe(true);
  });

  it("the log shows 1.0 methods under the same rules", () => {
    const lines = p.log();
    expect(lines.some((l) => l.method === "SendMessage" && (l.rules as string[]).includes("a2a-deny-forbidden"))).toBe(true);
    expect(lines.some((l) => l.method === "SendStreamingMessage" && l.kind === "event" && (l.rules as string[]).includes("a2a-mask-card-number"))).toBe(true);
  });
});

describe("A2A 1.0 push notifications cross the guardian (authentication, a2a+json)", () => {
  it("the agent's posts are judged, relayed with the caller's Authorization, and refused without it", async () => {
    const { writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../helpers.js");
    const hook = await startWebhook<Record<string, { status?: { state?: string } }>>();
    const { url: hookUrl, received } = hook;
    const rules = join(tempDir(), "push10.yaml");
    writeFileSync(
      rules,
      [
        "name: push10",
        "default: allow",
        "rules:",
        "  - id: no-working-pushes",
        "    match: { protocol: a2a, direction: inbound, operation: push }",
        "    when: 'has(message.params.statusUpdate) && message.params.statusUpdate.status.state == \"TASK_STATE_WORKING\"'",
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
    const agentUrl = `http://127.0.0.1:${match[1]}`;
    const p = await startProxy([{ name: "echo1", path: "/a2a/echo1", a2a: new A2aRemote({ url: agentUrl }) }], { rules });
    try {
      const client = await new ClientFactory().createFromUrl(`${p.base}/a2a/echo1/`);
      const push = { tenant: "", id: "", taskId: "", url: hookUrl, token: "", authentication: { scheme: "Bearer", credentials: "cred-1" } };
      const task = (await client.sendMessage({ ...request("task card 4111"), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: push, historyLength: undefined, returnImmediately: false } })) as { id: string };
      await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      // Every post reached the caller through the proxy with the caller's credentials and the agent's content type.
      expect(received.every((r) => r.headers.authorization === "Bearer cred-1" && r.headers["content-type"] === "application/a2a+json")).toBe(true);
      expect(received.some((r) => r.body.statusUpdate?.status?.state === "TASK_STATE_WORKING")).toBe(false);
      expect(received.some((r) => r.body.statusUpdate?.status?.state === "TASK_STATE_COMPLETED" || r.body.task?.status?.state === "TASK_STATE_COMPLETED")).toBe(true);
      // The card text, not the bare digits: a random task or message id may hold "4111" (one run in a few hundred did).
      expect(JSON.stringify(received.map((r) => r.body))).not.toContain("card 4111");
      expect(JSON.stringify(received.map((r) => r.body))).toContain("card ####");
      // The caller sees its own URL; the agent holds the proxy's.
      const mine = await client.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" });
      expect(mine.configs.map((c) => c.url)).toEqual([hookUrl]);
      const direct = await new ClientFactory().createFromUrl(agentUrl);
      const theirs = (await direct.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" })).configs[0]?.url ?? "";
      expect(theirs.startsWith(`${p.base}/a2a/echo1/push/`)).toBe(true);
      // Posting to that callback without the caller's credentials is refused, and nothing reaches the caller.
      const before = received.length;
      const forged = await fetch(theirs, { method: "POST", headers: { "content-type": "application/a2a+json", authorization: "Bearer wrong" }, body: "{}" });
      expect(forged.status).toBe(401);
      expect((await fetch(theirs, { method: "POST", headers: { "content-type": "application/a2a+json" }, body: "{}" })).status).toBe(401);
      await new Promise((r) => setTimeout(r, 200));
      expect(received.length).toBe(before);
      const lines = p.log();
      expect(lines.some((l) => l.method === "tasks/pushNotification" && l.decision === "deny" && (l.rules as string[]).includes("no-working-pushes"))).toBe(true);
      expect(lines.some((l) => l.method === "tasks/pushNotification" && l.decision === "modify")).toBe(true);
    } finally {
      await p.close();
      await stopChild(agent);
      hook.close();
    }
  });
});
