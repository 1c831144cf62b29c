import type { AlertsConfig } from "../alerts/config.js";
import type { AlertDispatcher } from "../alerts/dispatcher.js";
import { alertStage } from "../alerts/stage.js";
import type { ApprovalsConfig } from "../approvals/config.js";
import { approvalStage } from "../approvals/hold.js";
import type { DecisionLog, DecisionLogOptions } from "../decision-log/writer.js";
import type { AnyEmbeddedGuardian } from "../guardian/embedded.js";
import type { Guardian } from "../guardian/guardian.js";
import { judgeOf, type Judge } from "../guardian/judge.js";
import { asksOnlyTheModel, joinStreamEvents } from "../guardian/stream-join.js";
import type { StartedTracing } from "../observe/tracing.js";
import type { StageFactory } from "../proxy/pipeline.js";
import type { OpsBus } from "../store/ops-bus.js";
import type { RulesControl } from "../admin/rules-api.js";
import { openOperator, type Operator } from "./admin.js";
import type { SharedSessionsOptions } from "../control/shared-sessions.js";
import { closeAlerts, openAlerts } from "./alerts.js";
import { openApprovalChannels, type ApprovalChannels } from "./approval-channels.js";
import { buildGuardian, type GuardianOptions } from "./guardians.js";
import { openTracing } from "./observe.js";
import { openDecisionLog } from "./startup.js";

/**
 * The composition root's life cycle: every part is registered as it is opened, and closed in the reverse order
 * (Fastify's `onClose`), each awaited; a part that fails to close is reported and the others still close.
 */
export class Runtime {
  private readonly parts: { name: string; close: () => unknown }[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly stderr: NodeJS.WritableStream) {}

  /** Registers a part just opened (and returns it): it is closed before everything opened before it. */
  onClose<T>(name: string, part: T, close: (part: T) => unknown): T {
    this.parts.push({ name, close: () => close(part) });
    return part;
  }

  /** Closes every part, last opened first; once (a second call waits for the first). */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      for (const part of this.parts.reverse()) {
        try {
          await part.close();
        } catch (e) {
          this.stderr.write(`guardwire: closing ${part.name} failed: ${(e as Error).message}\n`);
        }
      }
    })());
  }
}

export interface CoreOptions {
  guardian: GuardianOptions;
  log: Omit<DecisionLogOptions, "lock" | "onProblem" | "stderr" | "ruleset">;
  /** How to fix an unwritable log, in the command's own words. */
  logFix: string;
  alerts?: AlertsConfig;
  approvals?: ApprovalsConfig;
  /** The admin listener's address, when there is one (approval links, live sessions). */
  admin?: string;
  /** Several replicas (serve with `store:`): approvals, sessions and alert de-duplication over one operator channel. */
  cluster?: { bus: OpsBus; keys: string[]; sessions?: SharedSessionsOptions } | null;
  version?: string;
  stderr: NodeJS.WritableStream;
}

/** What `wrap`, `serve` and `guardian` share, built once: sessions hold it by reference. */
export interface Core {
  runtime: Runtime;
  guardian: Guardian;
  embedded: AnyEmbeddedGuardian;
  rules: RulesControl;
  judge: Judge;
  /** The decision log itself, and the sink sessions write to (the log, tapped by the operator's feed). */
  log: DecisionLog;
  operator: Operator;
  alerts: AlertDispatcher | null;
  channels: ApprovalChannels;
  tracing: StartedTracing | null;
  /** The features every session runs, in the pipeline's order (docs/architecture.md). */
  stages: StageFactory[];
}

/**
 * Opens the shared parts in order — guardian (and its rule watch), decision log, alerts, approval channels, tracing,
 * the operator's feed and live sessions — each registered with the runtime to close in reverse.
 */
export async function openCore(o: CoreOptions, runtime = new Runtime(o.stderr)): Promise<Core> {
  const built = buildGuardian(o.guardian, o.stderr);
  runtime.onClose("rules watch", built, (b) => b.close());
  const { guardian, embedded, rules } = built;
  const log = runtime.onClose("decision log", openDecisionLog({ ...o.log, stderr: o.stderr, ruleset: () => embedded.rules.hash }, o.logFix), (l) => l.close());
  const alerts = runtime.onClose("alerts", openAlerts(o.alerts, log, o.stderr, o.cluster?.bus), (a) => closeAlerts(a, o.stderr));
  const cluster = o.cluster ? { bus: o.cluster.bus, keys: o.cluster.keys } : null;
  const channels = runtime.onClose("approval channels", openApprovalChannels(o.approvals, o.admin, log, o.stderr, cluster), (c) => c.close());
  const tracing = runtime.onClose("tracing", await openTracing(o.version), (t) => t?.shutdown());
  const operator = openOperator(log, channels.broker, Boolean(o.admin), o.cluster?.bus, o.cluster?.sessions);
  runtime.onClose("shared sessions", operator, (op) => op.shared?.close());
  const stages: StageFactory[] = [approvalStage(channels.broker)];
  if (alerts) stages.push(alertStage(alerts));
  if (tracing) stages.push((await import("../observe/tracing.js")).tracingStage(tracing.tracer));
  return { runtime, guardian, embedded, rules, judge: joinStreamEvents(judgeOf(guardian), { modelOnly: (id) => asksOnlyTheModel(embedded.rules, id) }), log, operator, alerts, channels, tracing, stages };
}

/** Registers, last, what a stop does first: every held request is answered (a deny) before anything closes. */
export function answerHeldFirst(core: Core): void {
  core.runtime.onClose("held requests", core, (c) => {
    c.channels.broker.shutdown();
    c.operator.sessions?.shutdown();
    return new Promise((resolve) => setImmediate(resolve));
  });
}
