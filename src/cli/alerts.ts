import { alertsSchema, type AlertsConfig } from "../alerts/config.js";
import { AlertDispatcher } from "../alerts/dispatcher.js";
import { noteOf } from "../decision-log/writer.js";
import type { DecisionSink } from "../proxy/session.js";
import { GuardwireError } from "../errors.js";
import type { Severity } from "../guardian/alert.js";
import { headerOptions } from "./guardians.js";
import type { OpsBus } from "../store/ops-bus.js";
import { SharedDeduper } from "../alerts/shared-deduper.js";

/** `wrap`'s alert options (docs/alerts.md). */
export interface AlertFlags {
  alertWebhook?: string[];
  alertFormat?: "json" | "slack";
  alertMinSeverity?: Severity;
  alertHeader?: string[];
  alertQueue?: number;
  alertDedupeSeconds?: number;
}

/** The `alerts:` block the flags stand for, with the same defaults and checks as a serve config's. */
export function alertsFromFlags(f: AlertFlags): AlertsConfig | undefined {
  if (!f.alertWebhook || f.alertWebhook.length === 0) {
    if (f.alertFormat !== undefined || f.alertMinSeverity !== undefined || f.alertHeader || f.alertQueue !== undefined || f.alertDedupeSeconds !== undefined) {
      throw new GuardwireError("USAGE", "--alert-format, --alert-min-severity, --alert-header, --alert-queue and --alert-dedupe-seconds need --alert-webhook <url>");
    }
    return undefined;
  }
  const headers = f.alertHeader ? headerOptions(f.alertHeader) : undefined;
  const parsed = alertsSchema.safeParse({
    webhooks: f.alertWebhook.map((url) => ({ url, format: f.alertFormat, minSeverity: f.alertMinSeverity, headers })),
    queue: f.alertQueue,
    dedupeSeconds: f.alertDedupeSeconds,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const what = issue?.path[0] === "webhooks" && issue.path[2] === "url" ? `--alert-webhook ${String(f.alertWebhook[Number(issue.path[1])])}` : "--alert-*";
    throw new GuardwireError("USAGE", `${what}: ${issue?.message ?? "invalid"} (an http or https URL)`);
  }
  return parsed.data;
}

/**
 * Starts alert delivery; dropped and undelivered alerts are noted in the decision log (kind `log`) and on stderr.
 * With a shared store, repeats are held back across replicas (docs/scale.md).
 */
export function openAlerts(cfg: AlertsConfig | undefined, log: DecisionSink, stderr: NodeJS.WritableStream, bus?: OpsBus | null): AlertDispatcher | null {
  if (!cfg) return null;
  const deduper = bus && cfg.dedupeSeconds > 0 ? new SharedDeduper(bus.store, bus.replica, cfg.dedupeSeconds * 1000) : undefined;
  return new AlertDispatcher(cfg, { note: noteTo(log, stderr), deduper });
}

/** Says something on stderr and notes it in the decision log (kind `log`, the code as its reasonCode). */
export function noteTo(log: DecisionSink, stderr: NodeJS.WritableStream): (code: string, message: string) => void {
  return (code, message) => {
    stderr.write(`guardwire: ${message}\n`);
    void Promise.resolve(log.write(noteOf(code, message))).catch(() => undefined);
  };
}

/** Flushes briefly (the config's `flushMs`) and says what became of the alerts raised. */
export async function closeAlerts(alerts: AlertDispatcher | null, stderr: NodeJS.WritableStream): Promise<void> {
  if (!alerts) return;
  const s = await alerts.close();
  if (s.raised > 0) {
    stderr.write(`guardwire: alerts: ${s.raised} raised, ${s.delivered} delivered, ${s.suppressed} held back as repeats, ${s.dropped} dropped, ${s.undelivered} not delivered\n`);
  }
}
