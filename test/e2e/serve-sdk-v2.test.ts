import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ROOT, tempDir } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, stopChild, waitFor } from "../support/servers.js";

const SERVER = join(ROOT, "test", "fixtures", "servers", "mcp-v2-server.mjs");

/**
 * The v2 MCP SDK (client 2.4.0, server 2.4.0) through a route: the 2025 revisions (a v2 client's default), and the
 * stateless 2026-07-28 revision on a route whose upstream takes it (every Streamable HTTP route of `serve`).
 */
describe("serve: the v2 MCP SDK, client and server, through a route", () => {
  let server: ReturnType<typeof spawn>;
  let upstream: string;
  let p: InProcessProxy;
  let route: string;

  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    upstream = (await waitFor(server, /listening (\S+)/)).match[1] as string;
    const rules = join(tempDir(), "v2.yaml");
    writeFileSync(
      rules,
      [
        "name: v2",
        "default: allow",
        "rules:",
        "  - id: no-forbidden-echo",
        "    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }",
        "    when: 'args.message.contains(\"forbidden\")'",
        "    decision: deny",
        "    message: not that word",
        "  - id: hide-secret",
        "    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }",
        "    when: 'args.message.contains(\"secret\")'",
        "    decision: modify",
        "    modify: [{ replace: \"$.params.arguments.message\", pattern: \"secret\", with: \"[hidden]\" }]",
        "  - id: no-forbidden-sampling",
        "    match: { protocol: mcp, direction: inbound, method: sampling/createMessage }",
        "    when: 'text.contains(\"forbidden\")'",
        "    decision: deny",
        "    message: the model may not be asked that",
        "  - id: no-leaky-answers",
        "    match: { protocol: mcp, direction: outbound, kind: response, method: sampling/createMessage }",
        "    when: 'text.contains(\"leak\")'",
        "    decision: deny",
        "    message: that answer may not go back",
        "  - id: mask-sampling",
        "    match: { protocol: mcp, direction: inbound, method: sampling/createMessage }",
        "    when: 'text.contains(\"secret\")'",
        "    decision: modify",
        "    modify: [{ replace: \"$..text\", pattern: \"secret\", with: \"[hidden]\" }]",
      ].join("\n"),
    );
    p = await startProxy(
      [
        { name: "v2", path: "/mcp/v2", upstream: streamableHttpUpstream({ url: upstream }) },
        { name: "v2s", path: "/mcp/v2s", upstream: streamableHttpUpstream({ url: upstream }), stateless: true },
      ],
      { rules },
    );
    route = `${p.base}/mcp/v2`;
  });
  afterAll(async () => {
    await p?.close();
    if (server) await stopChild(server);
  });

  it("a client pinned to 2026-07-28 works statelessly through the route: every request judged, the rules act, nothing held", async () => {
    const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/v2s`)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "ask", "steps"]);
    expect(await client.callTool({ name: "echo", arguments: { message: "stateless" } })).toMatchObject({ content: [{ type: "text", text: "Echo: stateless" }] });
    const blocked = await client.callTool({ name: "echo", arguments: { message: "forbidden, statelessly" } });
    expect(blocked).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("not that word") }] });
    // Progress before the answer: the upstream's answer is a stream, and so is the one the client gets.
    const progress: number[] = [];
    expect(await client.callTool({ name: "steps", arguments: {} }, { onprogress: (x) => progress.push(x.progress) })).toMatchObject({ content: [{ text: "three steps done" }] });
    expect(progress).toEqual([1, 2, 3]);
    // A rewritten request still agrees with its headers (the server checks Mcp-Method and Mcp-Name against the body).
    expect(await client.callTool({ name: "echo", arguments: { message: "my secret" } })).toMatchObject({ content: [{ type: "text", text: "Echo: my [hidden]" }] });
    await client.close();
    const lines = p.log().filter((l) => l.route === "v2s");
    expect(lines.map((l) => `${l.direction} ${l.method}`)).toEqual(expect.arrayContaining(["outbound server/discover", "inbound server/discover", "outbound tools/list", "outbound tools/call"]));
    expect(lines.some((l) => l.method === "tools/call" && l.decision === "deny")).toBe(true);
    // No session on either side: the proxy keeps none either.
    expect(p.proxy.sessionCount()).toBe(0);
  });

  it("2026-07-28 sampling (an input_required result) is judged by the same rules as a sampling/createMessage request", async () => {
    const client = new Client({ name: "v2-agent", version: "1" }, { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const asked: string[] = [];
    client.setRequestHandler("sampling/createMessage", async (req) => {
      const first = req.params.messages[0]?.content;
      const text = first && !Array.isArray(first) && first.type === "text" ? first.text : "";
      asked.push(text);
      return { role: "assistant", model: "test", content: { type: "text", text: `answer to ${text}` } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/v2s`)));
    expect(await client.callTool({ name: "ask", arguments: { question: "why?" } })).toMatchObject({ content: [{ type: "text", text: "The model said: answer to why?" }] });
    // Rewritten before the client's model sees it.
    expect(await client.callTool({ name: "ask", arguments: { question: "my secret plan" } })).toMatchObject({ content: [{ type: "text", text: "The model said: answer to my [hidden] plan" }] });
    // Denied: the model is never asked, the tool call ends blocked.
    const blocked = await client.callTool({ name: "ask", arguments: { question: "the forbidden plan" } });
    expect(blocked).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("the model may not be asked that") }] });
    expect(asked).toEqual(["why?", "my [hidden] plan"]);
    // The client's answer travels in the retry's inputResponses: judged as the sampling response it is.
    const leaky = await client.callTool({ name: "ask", arguments: { question: "a leak" } });
    expect(leaky).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("that answer may not go back") }] });
    expect(asked).toEqual(["why?", "my [hidden] plan", "a leak"]);
    expect(p.log().some((l) => l.direction === "outbound" && l.method === "tools/call" && l.decision === "deny" && (l.rules as string[]).includes("no-leaky-answers"))).toBe(true);
    await client.close();
    const denied = p.log().find((l) => l.route === "v2s" && l.method === "tools/call" && l.direction === "inbound" && l.decision === "deny");
    expect(denied?.rules).toContain("no-forbidden-sampling");
  });

  it("a stateless request on a route that cannot carry it is refused with 400, and an auto client falls back", async () => {
    const res = await fetch(route, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }),
    });
    expect(res.status).toBe(400);
  });

  for (const mode of ["legacy", "auto"] as const) {
    it(`a v2 client (versionNegotiation: ${mode}) works through the route, and the rules act`, async () => {
      const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(route)));
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "ask", "steps"]);
      expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
      const blocked = await client.callTool({ name: "echo", arguments: { message: "a forbidden word" } });
      expect(blocked).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("not that word") }] });
      await client.close();
    });
  }

  it("the same auto client reaches 2026-07-28 directly: what the proxy changes is the era, not whether it works", async () => {
    const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(upstream)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await client.close();
    expect(p.log().filter((l) => l.method === "tools/call" && l.decision === "deny").length).toBeGreaterThanOrEqual(2);
  });
});

describe("serve: a v2 client negotiating (auto) through a stateless-capable route to a 2025-only server", () => {
  it("the probe reaches the server, which does not speak 2026-07-28, and the client falls back to initialize", async () => {
    const up = await startEverything("streamableHttp");
    const p = await startProxy([{ name: "e", path: "/mcp/e", upstream: streamableHttpUpstream({ url: up.url }), stateless: true }]);
    try {
      const client = new Client({ name: "v2-agent", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/e`)));
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
      await client.close();
      expect(p.log().some((l) => l.method === "server/discover")).toBe(true);
    } finally {
      await p.close();
      await up.stop();
    }
  });
});

describe("serve: stateless exchanges in flight are bounded like sessions", () => {
  it("past the route's limit a stateless request gets 503 with Retry-After, and the limit frees up as exchanges end", async () => {
    const { createServer } = await import("node:http");
    const held: import("node:http").ServerResponse[] = [];
    const stall = createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((r) => stall.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(stall.address() as { port: number }).port}/mcp`;
    const p = await startProxy([{ name: "s", path: "/mcp/s", upstream: streamableHttpUpstream({ url }), stateless: true }], { maxSessions: 1 });
    const call = (id: number) =>
      fetch(`${p.base}/mcp/s`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }),
      });
    try {
      const first = call(1);
      await expect.poll(() => held.length).toBe(1);
      const second = await call(2);
      expect(second.status).toBe(503);
      expect(second.headers.get("retry-after")).toBe("5");
      // The stalled upstream answers: the first exchange completes and its place is free again.
      const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [], resultType: "complete" } });
      held[0]?.writeHead(200, { "content-type": "application/json" }).end(answer);
      expect(await (await first).json()).toMatchObject({ id: 1, result: { tools: [] } });
      const third = call(3);
      await expect.poll(() => held.length).toBe(2);
      held[1]?.writeHead(200, { "content-type": "application/json" }).end(answer.replace('"id":1', '"id":3'));
      expect((await third).status).toBe(200);
    } finally {
      await p.close();
      stall.close();
    }
  });
});

describe("serve: stateless requests of one agent share a guardian session", () => {
  it("a flow rule sees what an earlier stateless request labelled (no session on the wire, none lost in the guardian)", async () => {
    const server = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const upstream = (await waitFor(server, /listening (\S+)/)).match[1] as string;
    const rules = join(tempDir(), "flow.yaml");
    writeFileSync(
      rules,
      [
        "name: flow",
        "default: allow",
        "rules:",
        "  - id: taint",
        "    match: { protocol: mcp, direction: inbound, kind: response, tool: echo }",
        "    decision: allow",
        "    label: tainted",
        "  - id: no-ask-after-echo",
        "    match: { protocol: mcp, direction: outbound, method: tools/call, tool: ask }",
        "    when: '\"tainted\" in session.labels'",
        "    decision: deny",
        "    message: not after echo",
      ].join("\n"),
    );
    const p = await startProxy([{ name: "v2s", path: "/mcp/v2s", upstream: streamableHttpUpstream({ url: upstream }), stateless: true }], { rules });
    try {
      const client = new Client({ name: "v2-agent", version: "1" }, { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", model: "test", content: { type: "text", text: "fine" } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${p.base}/mcp/v2s`)));
      expect(await client.callTool({ name: "ask", arguments: { question: "first" } })).toMatchObject({ content: [{ text: "The model said: fine" }] });
      await client.callTool({ name: "echo", arguments: { message: "taints the session" } });
      expect(await client.callTool({ name: "ask", arguments: { question: "second" } })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("not after echo") }] });
      await client.close();
      expect(new Set(p.log().map((l) => l.session))).toEqual(new Set(["stateless:127.0.0.1"]));
    } finally {
      await p.close();
      await stopChild(server);
    }
  });
});
