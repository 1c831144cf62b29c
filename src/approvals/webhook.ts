import { AlertDispatcher, type DispatcherDeps } from "../alerts/dispatcher.js";
import type { ApprovalBroker, HeldApproval } from "./broker.js";
import { deliveryConfig, type ApprovalsConfig } from "./config.js";

export interface ApprovalLinkPair {
  approve: string;
  deny: string;
}

/** Which link of an approval was used, remembered across replicas with a shared store (docs/scale.md). */
export interface LinkUses {
  used(id: string): Promise<"approve" | "deny" | undefined>;
  use(id: string, action: "approve" | "deny", ttlMs: number): void;
}

/** The JSON approval request a webhook is posted (docs/approvals.md, "The approval webhook"). */
export function approvalRequest(held: HeldApproval, args: string | null, links: ApprovalLinkPair): Record<string, unknown> {
  return {
    type: "guardwire.approval.requested",
    version: 1,
    id: held.id,
    summary: summary(held),
    prompt: held.prompt,
    rule: held.rule,
    route: held.route,
    session: held.session,
    transport: held.transport,
    agent: held.agent,
    server: held.server,
    method: held.method,
    tool: held.tool,
    arguments: args,
    argsDigest: held.argsDigest,
    requestedAt: held.requestedAt,
    expiresAt: held.expiresAt,
    links,
  };
}

export function summary(held: HeldApproval): string {
  const what = held.tool ? `${held.method ?? "call"} ${held.tool}` : (held.method ?? "a message");
  return `${what} on route ${held.route}${held.agent ? ` by agent ${held.agent}` : ""}, held by rule ${held.rule}`;
}

/**
 * The webhook channel: every held message is posted to the configured webhooks with signed, single-use links, through
 * the alerts' dispatcher (bounded queue, retries with backoff, drops counted and noted). Returns how to stop it.
 */
export function startApprovalWebhooks(
  cfg: ApprovalsConfig,
  broker: ApprovalBroker,
  linksFor: (held: HeldApproval) => ApprovalLinkPair,
  deps: DispatcherDeps,
): { dispatcher: AlertDispatcher; close(): Promise<void> } {
  const dispatcher = new AlertDispatcher(deliveryConfig(cfg), { ...deps, noun: "approval request" });
  broker.channels.add("webhook");
  const requested = (held: HeldApproval, args?: () => string) => {
    const body = JSON.stringify(approvalRequest(held, args ? args() : null, linksFor(held)));
    dispatcher.deliver({ id: held.id, idHeader: "x-guardwire-approval-id", body: () => body });
  };
  broker.on("requested", requested);
  return {
    dispatcher,
    close: async () => {
      broker.off("requested", requested);
      broker.channels.delete("webhook");
      await dispatcher.close();
    },
  };
}
