import type { GuardwireMetrics, MetricsOptions } from "../observe/metrics.js";
import type { StartedTracing } from "../observe/tracing.js";

/**
 * Traces when the environment asks for them (`OTEL_TRACES_EXPORTER=otlp`, docs/observability.md); null otherwise.
 * The OpenTelemetry packages are loaded only then: with tracing off, `wrap` starts and runs as if they were not there.
 */
export async function openTracing(version: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<StartedTracing | null> {
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((s) => s.trim());
  if (!exporters.includes("otlp") || env.OTEL_SDK_DISABLED === "true") return null;
  const { startTracing } = await import("../observe/tracing.js");
  return startTracing(env, version ?? "", (line) => process.stderr.write(line + "\n"));
}

/** The metrics the admin listener serves; prom-client is loaded only when there is an admin listener to serve them. */
export async function openMetrics(o: MetricsOptions): Promise<GuardwireMetrics> {
  const { GuardwireMetrics } = await import("../observe/metrics.js");
  return new GuardwireMetrics(o);
}
