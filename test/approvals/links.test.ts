import { describe, expect, it } from "vitest";
import { approvalsFromFlags, openApprovalChannels } from "../../src/cli/approval-channels.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { tempDir } from "../helpers.js";
import { join } from "node:path";

describe("approval links", () => {
  it("point at the public URL when one is given, else at the admin listener; approve and deny are signed apart", async () => {
    const written: DecisionInput[] = [];
    const sink = { write: (d: DecisionInput) => void written.push(d) };
    const cfg = approvalsFromFlags({ approvalWebhook: ["http://127.0.0.1:9/hook"], adminPublicUrl: "https://gw.example.com/", approvalsFile: join(tempDir(), "a.json") });
    expect(cfg).toMatchObject({ webhooks: [{ url: "http://127.0.0.1:9/hook", format: "json" }], publicUrl: "https://gw.example.com/" });
    const channels = openApprovalChannels(cfg, "127.0.0.1:0", sink, process.stderr);
    channels.listening("http://127.0.0.1:7071");
    const asked = channels.broker.request(
      { session: "s", route: "r", transport: "stdio", agent: null, server: null, method: "tools/call", tool: "echo" },
      { rule: "ask-echo", prompt: "ok?", timeoutMs: 60_000, onTimeout: "deny", remember: "once", argsDigest: "a".repeat(64), ruleset: "h" },
      ["webhook"],
    );
    if ("limit" in asked) throw new Error("refused");
    const links = channels.links?.linksFor(asked.held);
    expect(links?.approve).toMatch(new RegExp(`^https://gw\\.example\\.com/approvals/link/${asked.held.id}/approve\\?exp=\\d+&sig=[\\w-]{43}$`));
    expect(links?.deny).toMatch(/\/deny\?/);
    expect(new URL(links?.approve as string).searchParams.get("sig")).not.toBe(new URL(links?.deny as string).searchParams.get("sig"));
    channels.broker.shutdown();
    await channels.close();

    const local = openApprovalChannels(approvalsFromFlags({ approvalWebhook: ["http://127.0.0.1:9/hook"], approvalsFile: "none" }), "127.0.0.1:0", sink, process.stderr);
    local.listening("http://127.0.0.1:7071");
    const again = local.broker.request({ session: "s", route: "r", transport: "stdio", agent: null, server: null, method: null, tool: null }, { rule: "x", prompt: "p", timeoutMs: 1000, onTimeout: "deny", remember: "once", argsDigest: "b".repeat(64), ruleset: "h" }, ["webhook"]);
    if ("limit" in again) throw new Error("refused");
    expect(local.links?.linksFor(again.held).approve.startsWith("http://127.0.0.1:7071/approvals/link/")).toBe(true);
    local.broker.shutdown();
    await local.close();
  });

  it("flags are checked like the config", () => {
    expect(() => approvalsFromFlags({ approvalWebhook: ["ftp://x"] })).toThrow(/--approval-webhook/);
    expect(() => approvalsFromFlags({ adminPublicUrl: "not a url" })).toThrow(/--admin-public-url/);
    expect(() => approvalsFromFlags({ approvalWebhookHeader: ["A: b"] })).toThrow(/needs --approval-webhook/);
  });
});
