import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, ROOT, tempDir } from "../helpers.js";
import { startOtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver.js";
import { ClientFactory } from "a2a-sdk-03/client";
import { startServeCli, stopChild, waitFor } from "../support/servers.js";

const TRACE_SERVER = join(ROOT, "test", "fixtures", "servers", "trace-server.mjs");
const RULES = join(ROOT, "test", "fixtures", "rules", "metrics.yaml");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
/** What the server saw in `params._meta` of the tools/call it was sent. */
const seen = (r: unknown) => JSON.parse((r as TextResult).content[0]?.text ?? "{}") as { traceparent: string | null; tracestate: string | null };
const parts = (traceparent: string) => {
  const [version, traceId, spanId, flags] = traceparent.split("-");
  return { version, traceId, spanId, flags };
};

const otelEnv = (endpoint: string) => ({
  OTEL_TRACES_EXPORTER: "otlp",
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "50",
  OTEL_SERVICE_NAME: "guardwire-under-test",
});

function spanOf(spans: ReceivedSpan[], name: string, kind: string): ReceivedSpan {
  const s = spans.find((x) => x.name === name && x.attributes["guardwire.kind"] === kind);
  if (!s) throw new Error(`no ${kind} span ${name} among ${spans.map((x) => `${x.name}/${String(x.attributes["guardwire.kind"])}`).join(", ")}`);
  return s;
}

const CLIENT = 3;
/** The CLIENT span of a request's trip to the server: child of the request's judgement span. */
function hopOf(spans: ReceivedSpan[], request: ReceivedSpan): ReceivedSpan {
  const s = spans.find((x) => x.kind === CLIENT && x.parentSpanId === request.spanId);
  if (!s) throw new Error(`no CLIENT span under ${request.name}`);
  return s;
}

const ms = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;

describe("traces: SDK client → guardwire wrap → SDK server (stdio)", () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("one span per judged message and a CLIENT span for the trip to the server, which the server is handed as parent", async () => {
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "wrap", "--pins", join(dir, "pins.json"), "--rules", RULES, "--log", join(dir, "decisions.ndjson"), "--", process.execPath, TRACE_SERVER],
      stderr: "pipe",
      env: { ...process.env, ...otelEnv(receiver.endpoint), OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" } as Record<string, string>,
    });
    const client = new Client({ name: "trace-test", version: "1" });
    await client.connect(transport);
    const result = await client.callTool({ name: "traceparent", arguments: { note: "hello" } });
    await client.close(); // wrap exits, flushing its spans

    const spans = await receiver.until((s) => s.some((x) => x.name === "tools/call traceparent" && x.attributes["guardwire.kind"] === "response") && s.some((x) => x.kind === CLIENT));
    const request = spanOf(spans, "tools/call traceparent", "request");
    const response = spanOf(spans, "tools/call traceparent", "response");
    const hop = hopOf(spans, request);
    expect(request.service).toBe("guardwire-under-test");

    // The server was handed the hop's span (guardwire as the server's client) as its parent.
    const sent = seen(result);
    expect(sent.traceparent).not.toBeNull();
    const tp = parts(sent.traceparent as string);
    expect(tp.traceId).toBe(request.traceId);
    expect(tp.spanId).toBe(hop.spanId);
    expect(tp.flags).toBe("01");
    expect(hop).toMatchObject({ name: "tools/call traceparent", traceId: request.traceId });
    expect(hop.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "traceparent", "network.transport": "pipe", "guardwire.route": expect.any(String) });
    expect(hop.attributes["mcp.session.id"]).toBeUndefined();
    // No trace context from the agent: guardwire's span starts the trace; the response's span is its child.
    expect(request.parentSpanId).toBe("");
    expect(response.traceId).toBe(request.traceId);
    expect(response.parentSpanId).toBe(request.spanId);

    expect(request.kind).toBe(2); // SERVER
    expect(request.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "traceparent",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": expect.any(String),
      "guardwire.session": expect.stringMatching(/^s-/),
      "network.transport": "pipe",
      "guardwire.decision": "allow",
      "guardwire.rules": [],
      "guardwire.reason_codes": [],
      "guardwire.direction": "outbound",
      "gen_ai.tool.call.arguments": JSON.stringify({ note: "hello" }),
    });
    expect(request.attributes["mcp.protocol.version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // stdio gives the agent no session id: the conventions' mcp.session.id is left out (guardwire's own is guardwire.session).
    expect(request.attributes["mcp.session.id"]).toBeUndefined();
    expect(request.attributes["network.protocol.name"]).toBeUndefined();
    expect(request.attributes["error.type"]).toBeUndefined();
    expect(response.attributes["gen_ai.tool.call.result"]).toContain("traceparent");
    // The handshake has spans too.
    expect(spans.some((s) => s.name === "initialize" && s.attributes["guardwire.kind"] === "request")).toBe(true);
    expect(spans.some((s) => s.name === "notifications/initialized")).toBe(true);
  }, 60_000);
});

describe("traces: SDK client → guardwire serve (Streamable HTTP) → SDK server", () => {
  const dir = tempDir();
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let serve: ChildProcess;
  let route: URL;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const clients: Client[] = [];

  /** Another SDK client of the route, every HTTP request of which carries these headers. */
  async function connect(headers: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const t = new StreamableHTTPClientTransport(route, { requestInit: { headers } });
    const c = new Client({ name: "trace-test-header", version: "1" });
    await c.connect(t);
    clients.push(c);
    return { client: c, transport: t };
  }

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const started = await startServeCli(dir, {
      rules: RULES,
      log: join(dir, "decisions.ndjson"),
      routes: ["  - name: traced", "    path: /mcp/traced", `    mcp: { command: "${process.execPath}", args: ["${TRACE_SERVER}"] }`],
      env: { ...process.env, ...otelEnv(receiver.endpoint) },
    });
    serve = started.child;
    route = new URL(`${started.base}/mcp/traced`);
    ({ client, transport } = await connect({}));
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    if (serve) await stopChild(serve);
    await receiver?.close();
  });

  it("the agent's traceparent in _meta is the parent of guardwire's span; the server is handed guardwire's CLIENT span", async () => {
    const agentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const agentSpan = "00f067aa0ba902b7";
    const result = await client.callTool({ name: "traceparent", arguments: {}, _meta: { traceparent: `00-${agentTrace}-${agentSpan}-01`, tracestate: "rojo=00f067aa0ba902b7" } });
    const spans = await receiver.until((s) => s.some((x) => x.name === "tools/call traceparent" && x.attributes["guardwire.kind"] === "response") && s.some((x) => x.kind === CLIENT && x.traceId === agentTrace));
    const request = spanOf(spans, "tools/call traceparent", "request");
    const hop = hopOf(spans, request);

    expect(request.traceId).toBe(agentTrace);
    expect(request.parentSpanId).toBe(agentSpan);
    const sent = seen(result);
    const tp = parts(sent.traceparent as string);
    expect(tp.traceId).toBe(agentTrace);
    expect(tp.spanId).toBe(hop.spanId);
    expect(sent.tracestate).toBe("rojo=00f067aa0ba902b7");
    // The agent-facing side is HTTP; the route's server is a stdio child: its hop is a pipe.
    expect(request.attributes).toMatchObject({ "network.transport": "tcp", "network.protocol.name": "http", "guardwire.route": "traced", "mcp.method.name": "tools/call" });
    expect(hop.attributes).toMatchObject({ "network.transport": "pipe", "mcp.method.name": "tools/call", "gen_ai.tool.name": "traceparent", "guardwire.route": "traced" });
    expect(hop.attributes["network.protocol.name"]).toBeUndefined();
    expect(request.attributes["gen_ai.tool.call.arguments"]).toBeUndefined(); // content only when opted in
    expect(spanOf(spans, "tools/call traceparent", "response").parentSpanId).toBe(request.spanId);
  });

  it("mcp.session.id is the Mcp-Session-Id the client holds", async () => {
    await client.callTool({ name: "traceparent", arguments: { note: "session" } });
    const sessionId = transport.sessionId as string;
    expect(sessionId).toEqual(expect.any(String));
    const spans = await receiver.until((s) => s.filter((x) => x.name === "tools/call traceparent" && x.attributes["guardwire.kind"] === "response").length >= 2);
    const mine = spans.filter((x) => x.name === "tools/call traceparent" && x.kind !== CLIENT);
    expect(mine.length).toBeGreaterThanOrEqual(4);
    for (const span of mine) expect(span.attributes["mcp.session.id"]).toBe(sessionId);
    // guardwire's own session id (the decision log's `session`) is another attribute, and another value.
    expect(mine[0]?.attributes["guardwire.session"]).toEqual(expect.any(String));
    expect(mine[0]?.attributes["guardwire.session"]).not.toBe(sessionId);
  });

  it("a traceparent HTTP header is continued: every span of a client that sends one is in its trace", async () => {
    const headerTrace = "0af7651916cd43dd8448eb211c80319c";
    const headerSpan = "b9c7c989f97918e1";
    const { client: c } = await connect({ traceparent: `00-${headerTrace}-${headerSpan}-01` });
    const result = await c.callTool({ name: "traceparent", arguments: { note: "header" } });
    const spans = await receiver.until((s) => s.some((x) => x.traceId === headerTrace && x.name === "tools/call traceparent" && x.attributes["guardwire.kind"] === "response"));
    const inTrace = spans.filter((x) => x.traceId === headerTrace);
    const request = inTrace.find((x) => x.name === "tools/call traceparent" && x.attributes["guardwire.kind"] === "request") as ReceivedSpan;
    expect(request.parentSpanId).toBe(headerSpan);
    expect(inTrace.find((x) => x.name === "initialize" && x.attributes["guardwire.kind"] === "request")?.parentSpanId).toBe(headerSpan);
    // The server was handed a span of that trace: the hop's.
    const tp = parts(seen(result).traceparent as string);
    expect(tp.traceId).toBe(headerTrace);
    expect(tp.spanId).toBe(hopOf(spans, request).spanId);
  });

  it("with both, params._meta is the parent and the HTTP request's context a link", async () => {
    const headerTrace = "11111111111111111111111111111111";
    const metaTrace = "22222222222222222222222222222222";
    const { client: c } = await connect({ traceparent: `00-${headerTrace}-1111111111111111-01` });
    await c.callTool({ name: "traceparent", arguments: { note: "both" }, _meta: { traceparent: `00-${metaTrace}-2222222222222222-01` } });
    const spans = await receiver.until((s) => s.some((x) => x.traceId === metaTrace && x.attributes["guardwire.kind"] === "request"));
    const request = spans.find((x) => x.traceId === metaTrace && x.attributes["guardwire.kind"] === "request") as ReceivedSpan;
    expect(request.parentSpanId).toBe("2222222222222222");
    expect(request.links).toEqual([{ traceId: headerTrace, spanId: "1111111111111111", attributes: { "guardwire.link": "http.traceparent" } }]);
  });

  it("the CLIENT span covers the server's time, apart from the judgement", async () => {
    const trace = "33333333333333333333333333333333";
    const answer = (await client.callTool({ name: "sleep", arguments: { ms: 400 }, _meta: { traceparent: `00-${trace}-3333333333333333-01` } })) as TextResult;
    expect(answer.content[0]?.text).toBe("slept 400 ms");
    const spans = await receiver.until((s) => s.some((x) => x.traceId === trace && x.attributes["guardwire.kind"] === "response") && s.some((x) => x.traceId === trace && x.kind === CLIENT));
    const request = spans.find((x) => x.traceId === trace && x.attributes["guardwire.kind"] === "request") as ReceivedSpan;
    const response = spans.find((x) => x.traceId === trace && x.attributes["guardwire.kind"] === "response") as ReceivedSpan;
    const hop = hopOf(spans, request);
    expect(hop.name).toBe("tools/call sleep");
    // The hop starts once the judgement is over, and ends when the answer arrives, before the answer's judgement ends.
    expect(ms(hop.startTimeUnixNano)).toBeGreaterThanOrEqual(ms(request.endTimeUnixNano));
    expect(ms(hop.endTimeUnixNano)).toBeLessThanOrEqual(ms(response.endTimeUnixNano));
    expect(ms(hop.endTimeUnixNano) - ms(hop.startTimeUnixNano)).toBeGreaterThanOrEqual(399);
    expect(hop.status.code ?? 0).toBe(0);
  });

  it("a denied call's span says so: decision, rules, reason codes and error.type; it has no trip to the server", async () => {
    const agentTrace = "0af7651916cd43dd8448eb211c80319d";
    const denied = (await client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 }, _meta: { traceparent: `00-${agentTrace}-b7ad6b7169203331-01` } })) as TextResult;
    expect(denied.isError).toBe(true);
    const spans = await receiver.until((s) => s.some((x) => x.name === "tools/call get-sum"));
    const span = spanOf(spans, "tools/call get-sum", "request");
    expect(span.traceId).toBe(agentTrace);
    expect(span.attributes).toMatchObject({ "guardwire.decision": "deny", "guardwire.rules": ["deny-big-sum"], "guardwire.reason_codes": ["TOO_BIG"], "error.type": "tool_error" });
    expect(span.status.code).toBe(2); // ERROR
    expect(spans.some((x) => x.kind === CLIENT && x.parentSpanId === span.spanId)).toBe(false);
  });
});

describe("traces: A2A SDK client → guardwire serve → A2A SDK agent", () => {
  const dir = tempDir();
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let agent: ChildProcess;
  let serve: ChildProcess;
  let route: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    agent = spawn(process.execPath, [join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs")], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(agent, /listening (\d+)/);
    const started = await startServeCli(dir, {
      rules: RULES,
      log: join(dir, "decisions.ndjson"),
      routes: ["  - name: echo-agent", "    path: /a2a/echo", `    a2a: { url: "http://127.0.0.1:${match[1]}" }`],
      env: { ...process.env, ...otelEnv(receiver.endpoint) },
    });
    serve = started.child;
    route = `${started.base}/a2a/echo/`;
  }, 60_000);
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
    await receiver?.close();
  });

  it("a message/send and its answer get spans, linked, with the decision", async () => {
    const client = await new ClientFactory().createFromUrl(route);
    const answer = (await client.sendMessage({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: "hello" }] } })) as { parts?: { text?: string }[] };
    expect(answer.parts?.[0]?.text).toBe("You said: hello");
    const spans = await receiver.until((s) => s.some((x) => x.name === "message/send" && x.attributes["guardwire.kind"] === "response"));
    const request = spanOf(spans, "message/send", "request");
    const response = spanOf(spans, "message/send", "response");
    expect(request.attributes).toMatchObject({ "rpc.method": "message/send", "guardwire.decision": "allow", "guardwire.route": "echo-agent", "network.transport": "tcp" });
    expect(request.attributes["mcp.method.name"]).toBeUndefined();
    expect(request.attributes["mcp.session.id"]).toBeUndefined(); // A2A gives the caller no session id
    expect(response.parentSpanId).toBe(request.spanId);
    // The call's trip to the agent: a CLIENT span under the judgement's.
    const hop = (await receiver.until((s) => s.some((x) => x.kind === CLIENT && x.parentSpanId === request.spanId))).find((x) => x.kind === CLIENT && x.parentSpanId === request.spanId);
    expect(hop?.attributes).toMatchObject({ "rpc.method": "message/send", "network.transport": "tcp", "network.protocol.name": "http" });
  });
});
