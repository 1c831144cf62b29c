import { z } from "zod";
import { SEVERITIES } from "../guardian/alert.js";

/** `alerts:` in the serve configuration; `wrap --alert-*` builds the same (docs/alerts.md). */
export const alertsSchema = z.strictObject({
  webhooks: z
    .array(
      z.strictObject({
        url: z.url({ protocol: /^https?$/ }),
        format: z.enum(["json", "slack"]).default("json"),
        /** Only alerts of this severity or higher go to this webhook. */
        minSeverity: z.enum(SEVERITIES).default("low"),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .min(1, "alerts need at least one webhook"),
  /** Alerts held per webhook (waiting, being sent, waiting to retry); past it a new alert is dropped and counted. */
  queue: z.number().int().positive().max(1_000_000).default(1000),
  /** Posts in flight per webhook. */
  concurrency: z.number().int().positive().max(64).default(4),
  /** Per attempt: connect, send, answer. */
  timeoutMs: z.number().int().positive().max(600_000).default(5000),
  /** Attempts per alert, the first included. */
  maxAttempts: z.number().int().positive().max(100).default(5),
  /** Delay before the first retry; doubled for each next one, with jitter. */
  backoffMs: z.number().int().positive().default(500),
  /** Longest delay between attempts (a longer Retry-After is shortened to it). */
  maxBackoffMs: z.number().int().positive().default(30_000),
  /** At shutdown, how long to keep delivering what is queued. */
  flushMs: z.number().int().min(0).max(60_000).default(2000),
  /** Alerts with the same rules, session, reason codes and decision within this many seconds are posted once (0: off). */
  dedupeSeconds: z.number().int().min(0).default(0),
});

export type AlertsConfig = z.infer<typeof alertsSchema>;
export type WebhookConfig = AlertsConfig["webhooks"][number];
