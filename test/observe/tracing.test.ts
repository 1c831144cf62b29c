import { describe, expect, it } from "vitest";
import { AlwaysOffSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { MessageTracing } from "../../src/observe/tracing.js";
import type { JudgedMessage } from "../../src/proxy/session.js";
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
