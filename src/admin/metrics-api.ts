import type { GuardwireMetrics } from "../observe/metrics.js";
import type { AdminRoute } from "./server.js";

/** `GET /metrics`: Prometheus text, behind the admin token like every route (docs/observability.md has a scrape config). */
export function metricsRoutes(metrics: GuardwireMetrics): AdminRoute[] {
  return [
    {
      method: "GET",
      pattern: /^\/metrics$/,
      doc: "GET /metrics",
      run: async (_m, { req, res }) => {
        const text = await metrics.text();
        res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
        res.end(req.method === "HEAD" ? undefined : text);
      },
    },
  ];
}
