import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type IdGenerator,
  type Sampler,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { idKey, type JsonObject } from "../protocol/json-rpc.js";
import type { SessionUpstream, UpstreamHops } from "../proxy/hops.js";
import type { JudgedMessage, MessageTracer, StageFactory } from "../proxy/pipeline.js";
import type { HttpCarry } from "../transports/types.js";
import { networkProtocol, networkTransport, refusalErrorType } from "./conventions.js";

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
  /**
   * The id generator of the tracer's provider. Given, each request that goes upstream gets a CLIENT span for its trip
   * to the server, whose id the request carries to the server before the span starts (every session must then be
   * wired through `hops`, as link.ts and stdio-launcher.ts do); absent, requests carry their judgement's span.
   */
  ids?: SpanIds;
}

/**
 * Span ids drawn ahead of their span: a request leaves with its upstream hop's span id in `params._meta.traceparent`,
 * and the hop's span starts only when the request is actually sent (after its decision is recorded).
 */
export class SpanIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next: string | null = null;

  generateTraceId(): string {
    return this.random.generateTraceId();
  }

  generateSpanId(): string {
    const id = this.next;
    this.next = null;
    return id ?? this.random.generateSpanId();
  }

  /** A span id for a span started later with `startWith`. */
  draw(): string {
    return this.random.generateSpanId();
  }

  /** Runs `start`, which starts one span (the SDK draws its span id first), so that the span gets `id`. */
  startWith<T>(id: string, start: () => T): T {
    this.next = id;
    try {
      return start();
    } finally {
      this.next = null;
    }
  }
}

/** A request that is to go upstream: its hop's span, to start when it is sent. */
interface PlannedHop {
  name: string;
  parent: Context;
  /** Drawn ahead (MCP: the request carries it to the server); null: any (A2A carries no trace context). */
  spanId: string | null;
  attributes: Attributes | null;
}

/** A request on its way to the server (since `started`, in ms); `owner`: the open hops of its session. */
interface OpenHop {
  span: Span;
  started: number;
  owner: Set<string>;
}

/**
 * One span per judged message, after the OpenTelemetry MCP semantic conventions: named `{mcp.method.name} {target}`,
 * parented on the trace context the sender put in `params._meta` (or, failing that, in its HTTP request's
 * `traceparent` header), and a request that goes on carries guardwire's span there in turn, so one trace runs
 * agent → guardwire → server. The span covers the judgement: it starts when the message was received and ends with the
 * verdict. A request sent to the server also gets a CLIENT span for the trip (its "hop"), child of the judgement's,
 * from its sending until the server's answer arrives or it fails; that span is the one the server is handed as parent.
 * A response's span is a child of its request's.
 */
export class MessageTracing implements MessageTracer {
  private readonly requests = new Map<string, Context>();
  private readonly versions = new Map<string, string>();
  private readonly heldSince = new Map<string, number>();
  /** Upstream hops by session and request id key: planned when judged, open once sent. */
  private readonly planned = new Map<string, PlannedHop>();
  private readonly open = new Map<string, OpenHop>();

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
    let links: Link[] | undefined;
    if (answer && requestKey) {
      parent = (m.kind === "response" ? take(this.requests, requestKey) : this.requests.get(requestKey)) ?? ROOT_CONTEXT;
      if (m.direction === "inbound" && m.id !== null) this.hopAnswered(m, now);
    } else {
      // `params._meta` is the message's own context (the conventions' parent); the HTTP request's is the transport's,
      // the parent only when the message has none, else a link.
      const fromMeta = meta ? remoteContext(propagator.extract(ROOT_CONTEXT, meta, getter)) : undefined;
      const fromHeader = headerContext(m.carry);
      parent = fromMeta ?? fromHeader ?? ROOT_CONTEXT;
      const linked = fromMeta && fromHeader ? trace.getSpanContext(fromHeader) : undefined;
      if (linked && linked.spanId !== trace.getSpanContext(fromMeta as Context)?.spanId) links = [{ context: linked, attributes: { "guardwire.link": "http.traceparent" } }];
    }

    const span = this.tracer.startSpan(spanName(m), { kind: answer ? SpanKind.INTERNAL : SpanKind.SERVER, startTime: since ?? now - m.evalUs / 1000, links }, parent);
    const recording = span.isRecording();
    if (recording) {
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
    if (m.method === "notifications/cancelled" && m.direction === "outbound") this.hopCancelled(m, params, now);
    const context = trace.setSpan(ROOT_CONTEXT, span);
    if (m.kind === "request" && key) remember(this.requests, `${m.direction}\u0000${key}`, context);
    const hop = m.kind === "request" && m.direction === "outbound" && m.id !== null ? this.planHop(m, span, context, params, recording) : null;
    if (m.protocol !== "mcp") return undefined;
    return withTraceContext(m.sent, hop ?? context);
  }

  /**
   * The upstream hop of a new session: the peer the session sends to the server through is wrapped, so each request's
   * hop starts when it actually leaves; failures the upstream reports end them. Null without span ids (see `ids`).
   */
  hops(session: () => string, upstream: string | null): UpstreamHops | null {
    if (!this.opts.ids) return null;
    const mine = new Set<string>();
    const network: Attributes = {};
    if (upstream !== null) {
      network["network.transport"] = networkTransport(upstream);
      const protocol = networkProtocol(upstream);
      if (protocol) network["network.protocol.name"] = protocol;
    }
    const start = (requests: readonly string[]) => {
      const id = session();
      for (const request of requests) this.hopStarted(`${id}\u0000${request}`, network, mine);
    };
    const end = (requests: readonly string[], failure?: { type: string; message: string }) => {
      const id = session();
      for (const request of requests) this.hopEnded(`${id}\u0000${request}`, Date.now(), failure);
    };
    return {
      wrap: (peer: SessionUpstream): SessionUpstream => {
        const wrapped: SessionUpstream = {
          send: (text, info) => {
            if (info?.requests && info.requests.length > 0) start(info.requests);
            peer.send(text, info);
          },
        };
        if (peer.end) wrapped.end = (stream) => peer.end?.(stream);
        if (peer.abandon) wrapped.abandon = (request) => peer.abandon?.(request);
        return wrapped;
      },
      failed: (requests, reason, status) => end(requests, { type: status === undefined ? UNANSWERED : String(status), message: reason }),
      ended: (requests) => end(requests),
      closed: (reason) => {
        const at = Date.now();
        for (const key of [...mine]) this.hopEnded(key, at, { type: UNANSWERED, message: reason });
      },
    };
  }

  /** A request that goes upstream: its hop is planned, with a span id drawn now for MCP (the request carries it). */
  private planHop(m: JudgedMessage, judgement: Span, context: Context, params: Meta | undefined, recording: boolean): Context | null {
    const ids = this.opts.ids;
    if (!ids || m.id === null) return null;
    const own = judgement.spanContext();
    const spanId = m.protocol === "mcp" ? ids.draw() : null;
    // Attributes only for a hop that is kept (its judgement's span was: the sampler follows the parent).
    const attributes = recording ? this.hopAttributes(m, params) : null;
    remember(this.planned, `${m.session}\u0000${idKey(m.id)}`, { name: spanName(m), parent: context, spanId, attributes });
    if (spanId === null) return null;
    const hop: SpanContext = { traceId: own.traceId, spanId, traceFlags: own.traceFlags, traceState: own.traceState };
    return trace.setSpanContext(ROOT_CONTEXT, hop);
  }

  private hopStarted(key: string, network: Attributes, owner: Set<string>): void {
    const plan = take(this.planned, key);
    if (!plan) return;
    const ids = this.opts.ids;
    // Date.now(), as every span of a message is timed: the hop's times compare with its judgement's.
    const started = Date.now();
    const start = () => this.tracer.startSpan(plan.name, { kind: SpanKind.CLIENT, startTime: started }, plan.parent);
    const span = plan.spanId && ids ? ids.startWith(plan.spanId, start) : start();
    if (plan.attributes && span.isRecording()) span.setAttributes({ ...plan.attributes, ...network });
    remember(this.open, key, { span, started, owner });
    owner.add(key);
    if (owner.size > MAX_REMEMBERED) owner.delete(owner.values().next().value as string);
  }

  private hopEnded(key: string, at: number, failure?: { type: string; message: string; code?: string }): void {
    this.planned.delete(key);
    const hop = take(this.open, key);
    if (!hop) return;
    hop.owner.delete(key);
    if (failure && hop.span.isRecording()) {
      hop.span.setAttribute(ATTR_ERROR_TYPE, failure.type);
      if (failure.code) hop.span.setAttribute("rpc.response.status_code", failure.code);
      hop.span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    hop.span.end(Math.max(at, hop.started));
  }

  /** The server's answer arrived (its judgement started `evalUs` ago): the hop ends there, with the server's error if any. */
  private hopAnswered(m: JudgedMessage, now: number): void {
    const key = `${m.session}\u0000${idKey(m.id as string | number)}`;
    if (!this.open.has(key)) return void this.planned.delete(key);
    const error = objectOf(m.message.error);
    let failure: { type: string; message: string; code?: string } | undefined;
    if (error) failure = { type: String(error.code), message: typeof error.message === "string" ? error.message : "", code: String(error.code) };
    else if (m.method === "tools/call" && objectOf(m.message.result)?.isError === true) failure = { type: "tool_error", message: "the tool reported an error" };
    this.hopEnded(key, now - m.evalUs / 1000, failure);
  }

  /** The agent cancelled a request on its way to the server: its hop ends, as cancelled. */
  private hopCancelled(m: JudgedMessage, params: Meta | undefined, now: number): void {
    const rid = params?.requestId;
    if (typeof rid !== "string" && typeof rid !== "number") return;
    this.hopEnded(`${m.session}\u0000${idKey(rid)}`, now, { type: "cancelled", message: "cancelled by the agent" });
  }

  /** The conventions' CLIENT span attributes: what the request is, and guardwire's route; the network ones come at start. */
  private hopAttributes(m: JudgedMessage, params: Meta | undefined): Attributes {
    const a: Attributes = { "guardwire.route": m.route, "guardwire.session": m.session };
    if (m.id !== null) a["jsonrpc.request.id"] = String(m.id);
    if (m.protocol === "a2a") {
      a["rpc.method"] = m.method ?? "";
      return a;
    }
    if (m.method) a["mcp.method.name"] = m.method;
    if (m.tool) a["gen_ai.tool.name"] = m.tool;
    if (m.method === "tools/call") a["gen_ai.operation.name"] = "execute_tool";
    if (m.method === "prompts/get" && typeof params?.name === "string") a["gen_ai.prompt.name"] = params.name;
    const version = this.versions.get(m.session);
    if (version) a["mcp.protocol.version"] = version;
    return a;
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
      "guardwire.session": m.session,
      "network.transport": networkTransport(m.transport),
    };
    // The session id the agent holds (Mcp-Session-Id); stdio, WebSocket and A2A have none.
    if (m.clientSession) a["mcp.session.id"] = m.clientSession;
    const protocol = networkProtocol(m.transport);
    if (protocol) a["network.protocol.name"] = protocol;
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

/** A request that failed without an answer from the server (the send failed, the stream broke, the server went away). */
const UNANSWERED = "unanswered";

/** The context when it holds a valid remote span context (an unreadable `traceparent` extracts to nothing). */
function remoteContext(ctx: Context): Context | undefined {
  const sc = trace.getSpanContext(ctx);
  return sc && trace.isSpanContextValid(sc) ? ctx : undefined;
}

/** The trace context of the HTTP request a frame came in (its `traceparent`/`tracestate` headers), when readable. */
function headerContext(carry: unknown): Context | undefined {
  const headers = (carry as HttpCarry | undefined)?.trace;
  if (!headers) return undefined;
  return remoteContext(propagator.extract(ROOT_CONTEXT, headers as unknown as Meta, getter));
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
  const ids = new SpanIds();
  const provider = new TracerProvider({
    resource,
    idGenerator: ids,
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
  return { tracer: new MessageTracing(provider.getTracer("guardwire", version), { captureContent, ids }), shutdown };
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

/** Tracing as a pipeline stage (docs/observability.md): every judged message's span; what goes on carries it in `_meta`. */
export function tracingStage(tracer: MessageTracer): StageFactory {
  return () => ({ name: "tracing", judged: (m) => tracer.judged(m) });
}
