import { describe, expect, it } from "vitest";
import { AlwaysOffSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { SpanKind } from "@opentelemetry/api";
import { MessageTracing, SpanIds } from "../../src/observe/tracing.js";
import type { SessionUpstream } from "../../src/proxy/hops.js";
import type { JsonObject } from "../../src/protocol/json-rpc.js";
import type { SendInfo } from "../../src/transports/types.js";
import type { JudgedMessage } from "../../src/proxy/pipeline.js";
import type { Verdict } from "../../src/guardian/verdict.js";

const allow: Verdict = { action: "forward", decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "" };

function tracing(sampled = true) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })], ...(sampled ? {} : { sampler: new AlwaysOffSampler() }) });
  return { exporter, tracer: new MessageTracing(provider.getTracer("test")) };
}

function judged(over: Partial<JudgedMessage> & Pick<JudgedMessage, "message">): JudgedMessage {
  const m = over.message;
  return {
    session: "s-1",
    route: "r",
    transport: "stdio",
    protocol: "mcp",
    direction: "outbound",
    kind: "request",
    id: (m.id as number | undefined) ?? null,
    method: (m.method as string | undefined) ?? null,
    tool: null,
    sent: m,
    verdict: allow,
    evalUs: 20,
    clientSession: null,
    carry: undefined,
    ...over,
  };
}

describe("MessageTracing", () => {
  it("a notification without params goes on with params._meta naming its span; positional params are left alone", () => {
    const { exporter, tracer } = tracing();
    const out = tracer.judged(judged({ kind: "notification", message: { jsonrpc: "2.0", method: "notifications/initialized" } }));
    const span = exporter.getFinishedSpans()[0];
    expect(out).toEqual({ jsonrpc: "2.0", method: "notifications/initialized", params: { _meta: { traceparent: `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01` } } });
    expect(tracer.judged(judged({ message: { jsonrpc: "2.0", id: 1, method: "x/y", params: [1, 2] } }))).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(2); // the span is made all the same
  });

  it("an unreadable traceparent starts a new trace, and the agent's tracestate does not go on with it", () => {
    const { exporter, tracer } = tracing();
    const out = tracer.judged(judged({ message: { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { traceparent: "00-zz-not-a-context", tracestate: "a=b", other: 1 } } } }));
    const span = exporter.getFinishedSpans()[0];
    expect(span?.parentSpanContext).toBeUndefined();
    const meta = (out?.params as { _meta: Record<string, unknown> })._meta;
    expect(meta).toEqual({ other: 1, traceparent: `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01` });
  });

  it("a held message gets one span, from its arrival to the person's decision", () => {
    const { exporter, tracer } = tracing();
    const message = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: {} } };
    expect(tracer.judged(judged({ message, tool: "echo", sent: null, verdict: { ...allow, action: "hold", decision: "ask" } }))).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    const heldAt = Date.now();
    const out = tracer.judged(judged({ message, tool: "echo", verdict: { ...allow, rules: ["ask-echo"] }, evalUs: 0 }));
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("tools/call echo");
    expect(span?.attributes["guardwire.rules"]).toEqual(["ask-echo"]);
    const startMs = (span?.startTime[0] ?? 0) * 1000 + (span?.startTime[1] ?? 0) / 1e6;
    expect(startMs).toBeLessThanOrEqual(heldAt);
    expect(out).toBeDefined();
  });

  it("an error response is an error span, child of its request's", () => {
    const { exporter, tracer } = tracing();
    tracer.judged(judged({ message: { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "file:///x" } } }));
    const error = { jsonrpc: "2.0", id: 4, error: { code: -32602, message: "no such resource" } };
    tracer.judged(judged({ direction: "inbound", kind: "response", method: "resources/read", message: error }));
    const [request, response] = exporter.getFinishedSpans();
    expect(response?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    expect(response?.attributes["error.type"]).toBe("-32602");
    expect(response?.status).toEqual({ code: 2, message: "no such resource" });
  });

  it("a message the sampler leaves out exports nothing but still passes a (not sampled) context on", () => {
    const { exporter, tracer } = tracing(false);
    const out = tracer.judged(judged({ message: { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" } } } }));
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    expect((out?.params as { _meta: { traceparent: string } })._meta.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
  });
});

describe("MessageTracing: the upstream hop", () => {
  function hopTracing(sampled = true) {
    const exporter = new InMemorySpanExporter();
    const ids = new SpanIds();
    const provider = new TracerProvider({ idGenerator: ids, spanProcessors: [new SimpleSpanProcessor({ exporter })], ...(sampled ? {} : { sampler: new AlwaysOffSampler() }) });
    const tracer = new MessageTracing(provider.getTracer("test"), { ids });
    const sent: { text: string; info?: SendInfo }[] = [];
    const hops = tracer.hops(() => "s-1", "stdio");
    if (!hops) throw new Error("hops need span ids");
    const upstream = hops.wrap({ send: (text, info) => void sent.push({ text, info }) });
    const finished = (kind: SpanKind) => exporter.getFinishedSpans().filter((s) => s.kind === kind);
    return { exporter, tracer, hops, upstream, sent, finished };
  }
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {} } });
  const send = (upstream: SessionUpstream, out: JsonObject | undefined, id: number) => upstream.send(JSON.stringify(out), { stream: `n:${id}`, requests: [`n:${id}`] });

  it("the request carries the hop's span id; the hop starts when it is sent, under the judgement, and ends when the answer arrives", () => {
    const { tracer, upstream, sent, finished } = hopTracing();
    const out = tracer.judged(judged({ message: call(1), tool: "echo" }));
    expect(finished(SpanKind.CLIENT)).toHaveLength(0);
    send(upstream, out, 1);
    expect(sent).toHaveLength(1);
    tracer.judged(judged({ direction: "inbound", kind: "response", method: "tools/call", tool: "echo", message: { jsonrpc: "2.0", id: 1, result: { content: [] } }, evalUs: 0 }));
    const [judgement] = finished(SpanKind.SERVER);
    const [hop] = finished(SpanKind.CLIENT);
    const carried = (JSON.parse(sent[0]?.text ?? "{}") as { params: { _meta: { traceparent: string } } }).params._meta.traceparent;
    expect(carried).toBe(`00-${hop?.spanContext().traceId}-${hop?.spanContext().spanId}-01`);
    expect(hop?.parentSpanContext?.spanId).toBe(judgement?.spanContext().spanId);
    expect(hop?.name).toBe("tools/call echo");
    expect(hop?.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "network.transport": "pipe", "jsonrpc.request.id": "1" });
    // It ended at the answer's arrival, where the answer's judgement began.
    const [response] = finished(SpanKind.INTERNAL);
    const millis = (t: [number, number] | undefined) => (t ? t[0] * 1000 + t[1] / 1e6 : 0);
    expect(millis(hop?.endTime)).toBeLessThanOrEqual(millis(response?.startTime) + 1);
  });

  it("an error answer, an HTTP refusal, a lost upstream and a cancellation end the hop as failed", () => {
    const { tracer, hops, upstream, finished } = hopTracing();
    for (const id of [1, 2, 3, 4]) send(upstream, tracer.judged(judged({ message: call(id), tool: "echo" })), id);
    tracer.judged(judged({ direction: "inbound", kind: "response", method: "tools/call", message: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad arguments" } } }));
    hops.failed(["n:2"], "HTTP 503 from the server", 503);
    tracer.judged(judged({ kind: "notification", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } } }));
    hops.closed("server exited (code 1)");
    const byId = new Map(finished(SpanKind.CLIENT).map((s) => [s.attributes["jsonrpc.request.id"], s]));
    expect(byId.get("1")?.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
    expect(byId.get("1")?.status).toEqual({ code: 2, message: "bad arguments" });
    expect(byId.get("2")?.attributes["error.type"]).toBe("503");
    expect(byId.get("3")?.attributes["error.type"]).toBe("cancelled");
    expect(byId.get("4")?.attributes["error.type"]).toBe("unanswered");
    expect(byId.get("4")?.status.message).toBe("server exited (code 1)");
  });

  it("a request judged but never sent has no hop; a denied one none either", () => {
    const { tracer, hops, finished } = hopTracing();
    tracer.judged(judged({ message: call(1), tool: "echo" }));
    tracer.judged(judged({ message: call(2), tool: "echo", sent: null, verdict: { ...allow, action: "block", decision: "deny" } }));
    hops.closed("gone");
    expect(finished(SpanKind.CLIENT)).toHaveLength(0);
  });

  it("sampled out: nothing is exported, and the request still carries the hop's (not sampled) context", () => {
    const { tracer, upstream, sent, exporter } = hopTracing(false);
    send(upstream, tracer.judged(judged({ message: call(1), tool: "echo" })), 1);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    expect(sent[0]?.text).toMatch(/"traceparent":"00-[0-9a-f]{32}-[0-9a-f]{16}-00"/);
  });

  it("an HTTP request's traceparent is the parent when params._meta has none", () => {
    const { tracer, finished } = hopTracing();
    const carry = { headers: {}, trace: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } };
    tracer.judged(judged({ message: call(1), tool: "echo", carry, clientSession: "mcp-session-1" }));
    const [span] = finished(SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(span?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(span?.attributes["mcp.session.id"]).toBe("mcp-session-1");
    tracer.judged(judged({ message: call(2), tool: "echo", carry: { headers: {}, trace: { traceparent: "garbage" } } }));
    expect(finished(SpanKind.SERVER)[1]?.parentSpanContext).toBeUndefined();
  });
});
