import { hkdfSync } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { ApprovalLinks } from "../admin/approval-links.js";
import { ApprovalBroker, type ApprovalDesk } from "../approvals/broker.js";
import type { OpsBus } from "../store/ops-bus.js";
import { SharedApprovals } from "../approvals/shared-approvals.js";
import { approvalsSchema, type ApprovalsConfig } from "../approvals/config.js";
import { startApprovalWebhooks } from "../approvals/webhook.js";
import type { DecisionSink } from "../proxy/session.js";
import { GuardwireError } from "../errors.js";
import { noteTo } from "./alerts.js";
import { headerOptions } from "./guardians.js";

/** `wrap`'s approval options (docs/approvals.md). */
export interface ApprovalFlags {
  approvalWebhook?: string[];
  approvalWebhookHeader?: string[];
  adminPublicUrl?: string;
  /** `none`: remember `always` in memory only. */
  approvalsFile?: string;
}

/** Where `remember: always` approvals are kept unless told otherwise. */
export function defaultApprovalsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.GUARDWIRE_APPROVALS_FILE ?? join(homedir(), ".guardwire", "approvals.json");
}

/** The `approvals:` block the flags stand for, with the same defaults and checks as a serve config's. */
export function approvalsFromFlags(f: ApprovalFlags): ApprovalsConfig {
  if (f.approvalWebhookHeader && !f.approvalWebhook) throw new GuardwireError("USAGE", "--approval-webhook-header needs --approval-webhook <url>");
  const parsed = approvalsSchema.safeParse({
    webhooks: (f.approvalWebhook ?? []).map((url) => ({ url, headers: f.approvalWebhookHeader ? headerOptions(f.approvalWebhookHeader) : undefined })),
    publicUrl: f.adminPublicUrl,
    rememberFile: f.approvalsFile === "none" ? null : f.approvalsFile,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0] === "publicUrl" ? `--admin-public-url ${f.adminPublicUrl}` : "--approval-webhook";
    throw new GuardwireError("USAGE", `${flag}: ${issue?.message ?? "invalid"} (an http or https URL)`);
  }
  return parsed.data;
}

export interface ApprovalChannels {
  broker: ApprovalBroker;
  /** With a shared store: every replica's held approvals, listed and decided through this one. */
  shared: SharedApprovals | undefined;
  /** The signed links' routes for the admin listener, when webhooks are configured. */
  links: ApprovalLinks | undefined;
  /** The admin listener is up at `url`: the links point there unless a public URL is configured. */
  listening(url: string | undefined): void;
  /** Stops the webhooks after a short flush (the config's `flushMs`). */
  close(): Promise<void>;
}

/**
 * The broker with its remembered approvals (loaded from the file: a bad file stops here) and the webhook channel.
 * Webhooks need the admin listener their links point to; on a Unix socket they also need a public URL.
 */
/** With a shared store (serve): the replicas' operator channel, and the session keys the links' key is derived from. */
export interface SharedChannels {
  bus: OpsBus;
  keys: string[];
}

export function openApprovalChannels(cfg: ApprovalsConfig | undefined, admin: string | undefined, log: DecisionSink, stderr: NodeJS.WritableStream, cluster?: SharedChannels | null): ApprovalChannels {
  const say = noteTo(log, stderr);
  const rememberFile = cfg?.rememberFile === null ? null : (cfg?.rememberFile ?? defaultApprovalsFile());
  const broker = new ApprovalBroker({ rememberFile, warn: (m) => say("APPROVALS_FILE_UNWRITABLE", m) });
  const shared = cluster ? new SharedApprovals(cluster.bus, broker) : undefined;
  const desk: ApprovalDesk = shared ?? broker;
  const webhooks = cfg?.webhooks.length ? cfg : undefined;
  if (!webhooks) return { broker, shared, links: undefined, listening: () => {}, close: async () => shared?.close() };
  if (!admin) throw new GuardwireError("CONFIG_INVALID", "approval webhooks need the admin API, which serves their links: add --admin (wrap) or admin: (serve)");
  if (admin.startsWith("unix:") && !webhooks.publicUrl) {
    throw new GuardwireError("CONFIG_INVALID", "approval webhooks with the admin API on a Unix socket need a public URL for their links (--admin-public-url, or approvals.publicUrl)");
  }
  // Every replica derives the same links' key from the session keys: a link works through any of them.
  const keys = (cluster?.keys ?? []).map((k) => Buffer.from(hkdfSync("sha256", Buffer.from(k, "base64"), "", "guardwire approval links", 32)));
  const links = new ApprovalLinks(desk, Date.now, shared && { keys, uses: shared });
  const hooks = startApprovalWebhooks(webhooks, broker, (held) => links.linksFor(held), {
    note: (code, message) => say(code === "ALERTS_DROPPED" ? "APPROVAL_WEBHOOK_DROPPED" : "APPROVAL_WEBHOOK_UNDELIVERED", message),
  });
  return {
    broker,
    shared,
    links,
    listening: (url) => void (links.base = webhooks.publicUrl ?? url ?? ""),
    close: async () => {
      shared?.close();
      await hooks.close();
    },
  };
}
