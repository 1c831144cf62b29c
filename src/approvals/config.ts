import { z } from "zod";
import { alertsSchema, type AlertsConfig } from "../alerts/config.js";

/**
 * `approvals:` in the serve configuration; `wrap --approval-webhook …` builds the same (docs/approvals.md). Delivery
 * (queue, retries, timeouts) has the same keys and defaults as `alerts:`, and goes through the same dispatcher.
 */
export const approvalsSchema = z.strictObject({
  /** Each held message is POSTed here as a JSON approval request with signed approve and deny links. */
  webhooks: z
    .array(
      z.strictObject({
        url: z.url({ protocol: /^https?$/ }),
        format: z.enum(["json"]).default("json"),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .default([]),
  /** The admin listener's root as the approver reaches it (a reverse proxy); default: the admin listener's own URL. */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Where `remember: always` approvals are kept across restarts; null: in memory only. Default ~/.guardwire/approvals.json. */
  rememberFile: z.string().min(1).nullable().optional(),
  ...alertsSchema.pick({ queue: true, concurrency: true, timeoutMs: true, maxAttempts: true, backoffMs: true, maxBackoffMs: true, flushMs: true }).shape,
});

export type ApprovalsConfig = z.infer<typeof approvalsSchema>;

/** The alerts dispatcher's configuration for the approval webhooks. */
export function deliveryConfig(cfg: ApprovalsConfig): AlertsConfig {
  const { webhooks, publicUrl: _url, rememberFile: _file, ...delivery } = cfg;
  return { ...delivery, webhooks: webhooks.map((w) => ({ ...w, minSeverity: "low" })), dedupeSeconds: 0 };
}
