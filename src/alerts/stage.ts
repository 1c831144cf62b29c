import type { StageFactory } from "../proxy/pipeline.js";
import { alertFromDecision, type AlertSink } from "./event.js";

/**
 * Alerts as a pipeline stage (docs/alerts.md): a decision of a rule with `alert:` is raised from its log line, once the
 * line is made, so the alert shares its digest and costs the message nothing.
 */
export function alertStage(sink: AlertSink): StageFactory {
  return (s) => ({
    name: "alerts",
    recorded: (line, verdict) => {
      if (verdict.alert) sink.raise(alertFromDecision(line, verdict.alert, s.serverInfo()));
    },
  });
}
