import { GuardwireMetrics, type MetricsOptions } from "../observe/metrics.js";
import { startTracing, type StartedTracing } from "../observe/tracing.js";

/** Traces when the OTEL_* environment asks for them (docs/observability.md); null otherwise. */
export function openTracing(version: string | undefined): StartedTracing | null {
  return startTracing(process.env, version ?? "", (line) => process.stderr.write(line + "\n"));
}

/** The metrics the admin listener serves; made only when there is an admin listener to serve them. */
export function openMetrics(admin: unknown, o: MetricsOptions): GuardwireMetrics | undefined {
  return admin ? new GuardwireMetrics(o) : undefined;
}
