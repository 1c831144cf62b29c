import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { MetricValueWithName } from "prom-client";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { DecisionFeed } from "../../src/observe/feed.js";
import { GuardwireMetrics, LabelCap, type ListedSession } from "../../src/observe/metrics.js";

const base: DecisionInput = { session: "s-1", route: "r", transport: "streamable-http", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "echo", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [], message: "", evalUs: 10, digest: null };

function setup(upstreamTransport?: (route: string) => string | undefined) {
  let now = 0;
  const feed = new DecisionFeed();
  const written: DecisionInput[] = [];
  const sink = feed.tap({ write: (d) => void written.push(d) });
  const metrics = new GuardwireMetrics({ version: "t", feed, sessionIdleMs: 1000, now: () => now, upstreamTransport });
  /** The value of `name` (a histogram's `_sum`) summed over the series whose labels include `labels`. */
  const value = async (name: string, labels: Record<string, string> = {}) => {
    const m = (await metrics.registry.getSingleMetric(name)?.get()) ?? { type: "counter", values: [] };
    const series = m.type === "histogram" ? `${name}_sum` : name;
    return (m.values as MetricValueWithName<string>[]).filter((v) => (v.metricName ?? name) === series && Object.entries(labels).every(([k, x]) => String((v.labels as Record<string, unknown>)[k]) === x)).reduce((a, v) => a + v.value, 0);
  };
  return { sink, metrics, value, advance: (ms: number) => (now += ms) };
}

describe("GuardwireMetrics", () => {
  it("LabelCap keeps the first values and folds the rest into other", () => {
    const cap = new LabelCap(2);
    expect(["a", "b", "c", "a", "d", null].map((v) => cap.value("tool", v))).toEqual(["a", "b", "other", "a", "other", ""]);
    expect(cap.value("method", "c")).toBe("c"); // one budget per label
  });

  it("the decision counter names method and tool as the histograms do: mcp_method_name (A2A: rpc_method) and gen_ai_tool_name", async () => {
    const { sink, metrics } = setup();
    sink.write(base);
    sink.write({ ...base, protocol: "a2a", id: 2, method: "message/send", tool: null, transport: "a2a-jsonrpc" });
    const values = ((await metrics.registry.getSingleMetric("guardwire_decisions_total")?.get())?.values ?? []).map((v) => v.labels);
    expect(values).toEqual([
      { route: "r", protocol: "mcp", direction: "outbound", kind: "request", mcp_method_name: "tools/call", rpc_method: "", gen_ai_tool_name: "echo", decision: "allow", mode: "enforce", rule: "" },
      { route: "r", protocol: "a2a", direction: "outbound", kind: "request", mcp_method_name: "", rpc_method: "message/send", gen_ai_tool_name: "", decision: "allow", mode: "enforce", rule: "" },
    ]);
  });

  it("upstream time carries the server's transport (pipe for a stdio server), agent-facing time the agent's", async () => {
    const { sink, value, advance } = setup((route) => (route === "r" ? "stdio" : undefined));
    sink.write(base); // the agent came over Streamable HTTP
    advance(200);
    sink.write({ ...base, direction: "inbound", kind: "response", evalUs: 0 });
    expect(await value("mcp_client_operation_duration_seconds", { network_transport: "pipe" })).toBeCloseTo(0.2, 5);
    expect(await value("mcp_client_operation_duration_seconds", { network_transport: "tcp" })).toBe(0);
    expect(await value("mcp_server_operation_duration_seconds", { network_transport: "tcp" })).toBeCloseTo(0.2, 4);
    expect(await value("mcp_server_operation_duration_seconds", { network_transport: "pipe" })).toBe(0);
  });

  it("an audit-mode deny went on: it is paired with its response, not counted as answered here", async () => {
    const { sink, value, advance } = setup();
    sink.write({ ...base, decision: "deny", mode: "audit", rules: ["r1"] });
    advance(250);
    sink.write({ ...base, direction: "inbound", kind: "response", evalUs: 0 });
    expect(await value("mcp_client_operation_duration_seconds", { gen_ai_tool_name: "echo", error_type: "" })).toBeCloseTo(0.25, 5);
    expect(await value("mcp_server_operation_duration_seconds", { error_type: "tool_error" })).toBe(0);
  });

  it("an enforced deny is answered here, with the code the caller got", async () => {
    const { sink, value } = setup();
    sink.write({ ...base, id: 2, method: "resources/read", tool: null, decision: "deny", reasonCode: ["GUARDIAN_UNAVAILABLE"] });
    expect(await value("mcp_server_operation_duration_seconds", { mcp_method_name: "resources/read", error_type: "-32051" })).toBeCloseTo(10e-6, 9);
    expect(await value("guardwire_guardian_errors_total", { reason: "GUARDIAN_UNAVAILABLE" })).toBe(1);
  });

  it("sessions seen in the feed are active until idle; then their duration is recorded", async () => {
    const { sink, metrics, value, advance } = setup();
    sink.write(base);
    advance(600);
    sink.write({ ...base, session: "s-2" });
    advance(300);
    sink.write({ ...base, id: 9 }); // s-1 active again at 900
    expect(await value("guardwire_sessions_active", { route: "r" })).toBe(2);
    advance(1050); // at 1950 both have been idle over 1000 ms: s-1 lived 0.9 s, s-2 0 s
    expect(await value("guardwire_sessions_active", { route: "r" })).toBe(0);
    const durations = (await metrics.registry.getSingleMetric("mcp_server_session_duration_seconds")?.get())?.values ?? [];
    expect((durations as MetricValueWithName<string>[]).find((v) => v.metricName === "mcp_server_session_duration_seconds_sum")?.value).toBeCloseTo(0.9, 5);
  });

  it("with a session registry, its live sessions are counted and a closed one's duration recorded", async () => {
    const { sink, metrics, value } = setup();
    // The registry's shape (src/control): its list and its `closed` events.
    const live: ListedSession[] = [
      { route: "r", transport: "stdio", started: new Date(Date.now() - 5000).toISOString() },
      { route: "r2", transport: "websocket", started: new Date().toISOString() },
    ];
    const registry = Object.assign(new EventEmitter<{ closed: [ListedSession] }>(), { list: () => live });
    metrics.followSessions(registry);
    sink.write({ ...base, session: "s-9", route: "feed-only" });
    expect(await value("guardwire_sessions_active", { route: "r" })).toBe(1);
    expect(await value("guardwire_sessions_active", { route: "feed-only" })).toBe(0);
    const [gone] = live.splice(0, 1);
    registry.emit("closed", gone as ListedSession);
    expect(await value("guardwire_sessions_active", { route: "r" })).toBe(0);
    expect(await value("mcp_server_session_duration_seconds", { route: "r", network_transport: "pipe" })).toBeGreaterThanOrEqual(5);
    metrics.close();
    expect(registry.listenerCount("closed")).toBe(0);
  });
});
