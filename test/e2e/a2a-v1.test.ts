import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "a2a-sdk-10";
import { ClientFactory } from "a2a-sdk-10/client";
import { A2aRemote } from "../../src/transports/upstream/a2a.js";
import { ROOT } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { stopChild, waitFor } from "../support/servers.js";

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

  it("the log shows 1.0 methods under the same rules", () => {
    const lines = p.log();
    expect(lines.some((l) => l.method === "SendMessage" && (l.rules as string[]).includes("a2a-deny-forbidden"))).toBe(true);
    expect(lines.some((l) => l.method === "SendStreamingMessage" && l.kind === "event" && (l.rules as string[]).includes("a2a-mask-card-number"))).toBe(true);
  });
});
