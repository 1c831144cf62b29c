import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type TextMapGetter, type TextMapSetter, type Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { JsonObject } from "../protocol/json-rpc.js";
import type { JudgedMessage, MessageTracer } from "../proxy/session.js";
import { networkTransport, refusalErrorType } from "./conventions.js";

/** Requests whose span a response is linked to, and sessions whose protocol version is known: bounded, oldest out. */
const MAX_REMEMBERED = 10_000;
/** How long an exit waits for the last spans to be exported (the OTLP exporter retries for longer). */
const SHUTDOWN_MS = 1000;
const propagator = new W3CTraceContextPropagator();
type Meta = Record<string, unknown>;
const getter: TextMapGetter<Meta> = {
  keys: (c) => Object.keys(c),
  get: (c, k) => (typeof c[k] === "string" ? c[k] : undefined),
};
const setter: TextMapSetter<Meta> = { set: (c, k, v) => void (c[k] = v) };

export interface TracingOptions {
  /** Record tool arguments and results (`gen_ai.tool.call.arguments`/`.result`); off by default: they may hold secrets. */
  captureContent?: boolean;
}

/**
 * One span per judged message, after the OpenTelemetry MCP semantic conventions: named `{mcp.method.name} {target}`,
 * parented on the trace context the sender put in `params._meta`, and a request that goes on carries guardwire's
 * span there in turn, so one trace runs agent → guardwire → server. A response's span is a child of its request's.
 * The span covers the judgement: it starts when the message was received and ends with the verdict.
 */
export class MessageTracing implements MessageTracer {
  private readonly requests = new Map<string, Context>();
  private readonly versions = new Map<string, string>();
  private readonly heldSince = new Map<string, number>();

  constructor(
    private readonly tracer: Tracer,
    private readonly opts: TracingOptions = {},
  ) {}

  judged(m: JudgedMessage): JsonObject | undefined {
    const key = m.id === null ? null : `${m.session}\u0000${typeof m.id}:${m.id}`;
    const now = Date.now();
    if (m.verdict.action === "hold" && key) {
      // The span of a held message covers the wait: it is made once the person (or the timeout) decided.
      remember(this.heldSince, `${m.direction}\u0000${key}`, now - m.evalUs / 1000);
      return undefined;
    }
    const since = key ? take(this.heldSince, `${m.direction}\u0000${key}`) : undefined;
    const params = objectOf(m.message.params);
    const meta = objectOf(params?._meta);
    const answer = m.kind === "response" || m.kind === "event";
    const requestKey = key && `${m.direction === "inbound" ? "outbound" : "inbound"}\u0000${key}`;
    let parent = ROOT_CONTEXT;
    if (answer && requestKey) parent = (m.kind === "response" ? take(this.requests, requestKey) : this.requests.get(requestKey)) ?? ROOT_CONTEXT;
    else if (meta) parent = propagator.extract(ROOT_CONTEXT, meta, getter);

    const span = this.tracer.startSpan(spanName(m), { kind: answer ? SpanKind.INTERNAL : SpanKind.SERVER, startTime: since ?? now - m.evalUs / 1000 }, parent);
    if (span.isRecording()) {
      // Attributes only for spans that are kept: a message the sampler leaves out costs no more than its context.
      span.setAttributes(this.attributes(m, params));
      const errorType = errorTypeOf(m);
      if (errorType) {
        span.setAttribute(ATTR_ERROR_TYPE, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: m.sent ? errorMessage(m.sent) : m.verdict.message });
      }
    } else if (m.method === "initialize") {
      this.protocolVersion(m, params);
    }
    span.end(now);
    if (!m.sent || answer) return undefined;
    const context = trace.setSpan(ROOT_CONTEXT, span);
    if (m.kind === "request" && key) remember(this.requests, `${m.direction}\u0000${key}`, context);
    if (m.protocol !== "mcp") return undefined;
    return withTraceContext(m.sent, context);
  }

  private attributes(m: JudgedMessage, params: Meta | undefined): Attributes {
    const a: Attributes = {
      "guardwire.decision": m.verdict.decision,
      "guardwire.mode": m.verdict.mode,
      "guardwire.rules": m.verdict.rules,
      "guardwire.reason_codes": m.verdict.reasonCode,
      "guardwire.route": m.route,
      "guardwire.direction": m.direction,
      "guardwire.kind": m.kind,
      "mcp.session.id": m.session,
      "network.transport": networkTransport(m.transport),
    };
    if (m.transport !== "stdio") a["network.protocol.name"] = m.transport === "websocket" ? "websocket" : "http";
    if (m.id !== null) a["jsonrpc.request.id"] = String(m.id);
    if (m.protocol === "a2a") {
      a["rpc.method"] = m.method ?? "";
      return a;
    }
    if (m.method) a["mcp.method.name"] = m.method;
    if (m.tool) a["gen_ai.tool.name"] = m.tool;
    if (m.method === "tools/call") a["gen_ai.operation.name"] = "execute_tool";
    if (m.method === "prompts/get" && typeof params?.name === "string") a["gen_ai.prompt.name"] = params.name;
    const version = this.protocolVersion(m, params);
    if (version) a["mcp.protocol.version"] = version;
    if (this.opts.captureContent && m.method === "tools/call" && m.sent) {
      if (m.kind === "request" && params) a["gen_ai.tool.call.arguments"] = JSON.stringify(objectOf(m.sent.params)?.arguments ?? {});
      if (m.kind === "response" && m.sent.result !== undefined) a["gen_ai.tool.call.result"] = JSON.stringify(m.sent.result);
    }
    return a;
  }

  /** From `initialize` (what the agent asked for, then what the server agreed to), per session. */
  private protocolVersion(m: JudgedMessage, params: Meta | undefined): string | undefined {
    if (m.method === "initialize") {
      const asked = m.kind === "request" ? params?.protocolVersion : objectOf(m.message.result)?.protocolVersion;
      if (typeof asked === "string") remember(this.versions, m.session, asked);
    }
    return this.versions.get(m.session);
  }
}

/** `{mcp.method.name} {target}`: the tool or prompt name when there is one. */
function spanName(m: JudgedMessage): string {
  const method = m.method ?? "(unknown)";
  const target = m.tool ?? (m.method === "prompts/get" ? (objectOf(m.message.params)?.name as string | undefined) : undefined);
  return typeof target === "string" && target ? `${method} ${target}` : method;
}

/** A refusal by guardwire, an error answer, or a tool's `isError` result (`tool_error`), as the conventions spell them. */
function errorTypeOf(m: JudgedMessage): string | undefined {
  if (!m.sent) return m.kind === "request" || m.kind === "response" ? refusalErrorType(m.verdict.reasonCode, m.method) : undefined;
  const error = objectOf(m.sent.error);
  if (error) return String(error.code);
  if (m.method === "tools/call" && objectOf(m.sent.result)?.isError === true) return "tool_error";
  return undefined;
}

function errorMessage(sent: JsonObject): string | undefined {
  const message = objectOf(sent.error)?.message;
  return typeof message === "string" ? message : undefined;
}

/** The message with `params._meta.traceparent` (and `tracestate`) naming the span: a new object, the original untouched. */
function withTraceContext(sent: JsonObject, context: Context): JsonObject | undefined {
  if (sent.params !== undefined && !objectOf(sent.params)) return undefined; // positional params: nowhere to put it
  const params = objectOf(sent.params) ?? {};
  const meta: Meta = { ...(objectOf(params._meta) ?? {}) };
  delete meta.traceparent;
  delete meta.tracestate;
  propagator.inject(context, meta, setter);
  return { ...sent, params: { ...params, _meta: meta } };
}

function objectOf(v: unknown): Meta | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Meta) : undefined;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
}

function take<V>(map: Map<string, V>, key: string): V | undefined {
  const v = map.get(key);
  map.delete(key);
  return v;
}

export interface StartedTracing {
  tracer: MessageTracing;
  /** Exports what is still queued, then stops: within `SHUTDOWN_MS`, so an unreachable collector cannot hold up an exit. */
  shutdown(): Promise<void>;
}

/**
 * Tracing configured by the standard OTEL_* variables (whether it is on at all is the caller's to decide: cli/observe.ts):
 * spans go out as OTLP/HTTP JSON, batched, to `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`.
 */
export function startTracing(env: Record<string, string | undefined>, version: string, warn: (line: string) => void, exporter?: SpanExporter): StartedTracing {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== "http/json") warn(`guardwire: traces are exported as OTLP http/json; OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported (collectors take http/json on the same endpoint)`);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "guardwire", [ATTR_SERVICE_VERSION]: version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const num = (name: string) => {
    const n = Number(env[name]);
    return env[name] && Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const processor = new BatchSpanProcessor({
    exporter: exporter ?? new OTLPTraceExporter(),
    scheduledDelayMillis: num("OTEL_BSP_SCHEDULE_DELAY"),
    exportTimeoutMillis: num("OTEL_BSP_EXPORT_TIMEOUT"),
    maxQueueSize: num("OTEL_BSP_MAX_QUEUE_SIZE"),
    maxExportBatchSize: num("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
  });
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(env, warn),
    spanLimits: { attributeValueLengthLimit: num("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT") ?? 16_384 },
    spanProcessors: [processor],
  });
  const captureContent = env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT === "true";
  const shutdown = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SHUTDOWN_MS);
      provider.shutdown().then(
        () => (clearTimeout(timer), resolve()),
        () => (clearTimeout(timer), resolve()),
      );
    });
  return { tracer: new MessageTracing(provider.getTracer("guardwire", version), { captureContent }), shutdown };
}

/** `OTEL_TRACES_SAMPLER` (+ `_ARG`), default `parentbased_always_on`. */
function samplerOf(env: Record<string, string | undefined>, warn: (line: string) => void): Sampler {
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? "1");
  const ratio = Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1;
  switch (env.OTEL_TRACES_SAMPLER ?? "parentbased_always_on") {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio);
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      warn(`guardwire: OTEL_TRACES_SAMPLER=${env.OTEL_TRACES_SAMPLER} is not known; using parentbased_always_on`);
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
