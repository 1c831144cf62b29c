import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ACCEPTANCE_RULES, CLI, connectWrapped, EVERYTHING, readLog, ROOT, tempDir } from "../helpers.js";
import { startAlertReceiver } from "../support/alert-receiver.js";
import { stopChild, waitFor } from "../support/servers.js";

const RULES = join(ROOT, "test", "fixtures", "rules", "alerts.yaml");
const SECRET = "launch-code 0000-TOP-SECRET";
const everything = [process.execPath, EVERYTHING, "stdio"];

type Hook = Awaited<ReturnType<typeof startAlertReceiver>>;

/**
 * `guardwire wrap` with the alert rules, a decision log in a fresh folder and these alert flags, driven by `drive`;
 * then the client and the webhook are closed (wrap flushes its alerts as it stops).
 */
async function wrapWith(hook: Hook, flags: string[], drive: (client: Client) => Promise<void>) {
  const log = join(tempDir(), "decisions.ndjson");
  const w = await connectWrapped(["--rules", RULES, "--log", log, "--alert-webhook", hook.url, ...flags], everything);
  try {
    await drive(w.client);
  } finally {
    await w.client.close();
    await hook.close();
  }
  return { ...w, log };
}

const denied = async (client: Client, message = SECRET) => {
  const r = (await client.callTool({ name: "echo", arguments: { message } })) as { isError?: boolean };
  expect(r.isError).toBe(true);
};

describe("alerts from guardwire wrap to a real webhook", () => {
  it("a denied call posts one JSON alert with the decision's fields and none of the message's content", async () => {
    const hook = await startAlertReceiver();
    const w = await wrapWith(hook, ["--alert-header", "Authorization: Bearer hook-token", "--alert-min-severity", "medium"], async (client) => {
      // note-sums alerts at low severity: below --alert-min-severity, never posted.
      await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
      await denied(client);
      await hook.count(1);
    });
    expect(hook.received).toHaveLength(1);
    const [post] = hook.received;
    const line = readLog(w.log).find((l) => l.tool === "echo" && l.decision === "deny");
    expect(line).toBeDefined();
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(post?.headers.authorization).toBe("Bearer hook-token");
    expect(post?.headers["x-guardwire-alert-id"]).toBe(post?.body.id);
    expect(post?.body).toMatchObject({
      type: "guardwire.alert",
      version: 1,
      severity: "high",
      rules: ["deny-launch-code"],
      decidedBy: ["deny-launch-code"],
      reasonCode: ["LAUNCH_CODE"],
      decision: "deny",
      mode: "enforce",
      message: "echo of a launch code refused",
      route: "server-everything",
      session: line?.session,
      transport: "stdio",
      protocol: "mcp",
      agent: null,
      direction: "outbound",
      kind: "request",
      method: "tools/call",
      tool: "echo",
      messageId: line?.id,
      digest: line?.digest,
      suppressed: 0,
    });
    expect((post?.body.server as { name: string }).name).toMatch(/everything/i);
    expect(Date.parse(post?.body.time as string)).not.toBeNaN();
    expect(post?.raw).not.toContain("0000-TOP-SECRET");
    expect(w.stderr()).toContain("alerts: 2 raised, 1 delivered");
  });

  it("--alert-format slack posts a Slack-compatible { text }", async () => {
    const hook = await startAlertReceiver();
    await wrapWith(hook, ["--alert-format", "slack"], async (client) => {
      await denied(client);
      await hook.count(1);
    });
    const body = hook.received[0]?.body as { text: string };
    expect(Object.keys(body)).toEqual(["text"]);
    expect(body.text).toContain("*HIGH* guardwire alert: *deny* by `deny-launch-code` (LAUNCH_CODE)");
    expect(body.text).toContain("outbound request tools/call `echo` on route `server-everything`");
    expect(body.text).toContain("> echo of a launch code refused");
    expect(body.text).not.toContain("TOP-SECRET");
  });

  it("retries 5xx and 429 with backoff, honouring Retry-After, and delivers once", async () => {
    const hook = await startAlertReceiver([500, { status: 429, headers: { "retry-after": "1" } }, 200]);
    const w = await wrapWith(hook, [], async (client) => {
      await denied(client);
      await hook.count(3);
    });
    expect(hook.received).toHaveLength(3);
    const ids = new Set(hook.received.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const [a, b, c] = hook.received.map((r) => r.at) as [number, number, number];
    // First retry: 500 ms with jitter (250–500 ms); the second waits the 1 s Retry-After.
    expect(b - a).toBeGreaterThanOrEqual(240);
    expect(c - b).toBeGreaterThanOrEqual(990);
    expect(w.stderr()).toContain("alerts: 1 raised, 1 delivered");
  });

  it("a full queue drops alerts, counts and logs the drops, and traffic does not wait for a hung webhook", async () => {
    const hook = await startAlertReceiver(["hang", "hang"]);
    const burst = 20;
    const w = await wrapWith(hook, ["--alert-queue", "2"], async (client) => {
      await Promise.all(Array.from({ length: burst }, (_, i) => denied(client, `${SECRET} #${i}`)));
      // Every call was answered while the webhook still holds both of its posts unanswered.
      await hook.count(2);
      expect(hook.hanging).toHaveLength(2);
      const allowed = await client.callTool({ name: "echo", arguments: { message: "still fine" } });
      expect(allowed.isError).toBeFalsy();
      hook.release();
    });
    // Two alerts were taken (a post that timed out on a very loaded machine is retried with the same id).
    expect(new Set(hook.received.map((r) => r.body.id)).size).toBe(2);
    const notes = readLog(w.log).filter((l) => l.kind === "log" && (l.reasonCode as string[])[0] === "ALERTS_DROPPED");
    expect(notes.length).toBeGreaterThanOrEqual(1);
    // Rate-limited: a burst of drops is a few notes, not one per alert; the last one has the total.
    expect(notes.length).toBeLessThan(burst - 2);
    expect(notes.at(-1)?.message).toContain(`(${burst - 2} dropped since start)`);
    expect(notes.at(-1)?.message).toContain("its queue of 2 was full");
    expect(notes.at(-1)?.message).not.toContain("SECRET-PATH");
    expect(w.stderr()).toContain(`alerts: ${burst} raised, 2 delivered, 0 held back as repeats, ${burst - 2} dropped, 0 not delivered`);
    expect(spawnSync(process.execPath, [CLI, "verify", w.log], { encoding: "utf8" }).status).toBe(0);
  });

  it("--alert-dedupe-seconds posts repeats once and counts the ones held back", async () => {
    const hook = await startAlertReceiver();
    const w = await wrapWith(hook, ["--alert-dedupe-seconds", "3600"], async (client) => {
      for (let i = 0; i < 3; i++) await denied(client);
      await hook.count(1);
    });
    expect(hook.received).toHaveLength(1);
    expect(w.stderr()).toContain("alerts: 3 raised, 1 delivered, 2 held back as repeats");
  });

  it("a remote guardian's alert (AOS data.alert) is raised by the proxy", async () => {
    const hook = await startAlertReceiver();
    const guardian = spawn(process.execPath, [CLI, "guardian", "--host", "127.0.0.1", "--port", "0", "--rules", RULES, "--pins", join(tempDir(), "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const { match } = await waitFor(guardian, /listening on (http:\/\/\S+)/);
      const log = join(tempDir(), "decisions.ndjson");
      // The local rules have no alert: the alert can only come from the remote guardian's answer.
      const w = await connectWrapped(["--rules", ACCEPTANCE_RULES, "--guardian", match[1] as string, "--log", log, "--alert-webhook", hook.url], everything);
      try {
        await denied(w.client);
        await hook.count(1);
      } finally {
        await w.client.close();
      }
    } finally {
      await stopChild(guardian);
      await hook.close();
    }
    expect(hook.received[0]?.body).toMatchObject({ severity: "high", rules: ["deny-launch-code"], decision: "deny", tool: "echo" });
  });

  it("a bad webhook URL is a one-line usage error", () => {
    const r = spawnSync(process.execPath, [CLI, "wrap", "--alert-webhook", "ftp://x", "--", ...everything], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^guardwire: --alert-webhook ftp:\/\/x: /);
    const orphan = spawnSync(process.execPath, [CLI, "wrap", "--alert-format", "slack", "--", ...everything], { encoding: "utf8" });
    expect(orphan.status).toBe(2);
    expect(orphan.stderr).toContain("need --alert-webhook");
  });
});

describe("alerts from guardwire serve, configured in the config file", () => {
  it("posts the alert with the configured headers (${ENV} interpolated) and the route's transport", async () => {
    const hook = await startAlertReceiver();
    const dir = tempDir();
    const log = join(dir, "decisions.ndjson");
    const config = join(dir, "guardwire.yaml");
    writeFileSync(
      config,
      [
        "listen: { host: 127.0.0.1, port: 0 }",
        `rules: ${RULES}`,
        `log: ${log}`,
        "alerts:",
        "  webhooks:",
        `    - url: ${hook.url}`,
        "      format: json",
        "      minSeverity: high",
        '      headers: { X-Hook-Token: "${HOOK_TOKEN}" }',
        "  queue: 50",
        "  maxAttempts: 3",
        "routes:",
        "  - name: everything",
        "    path: /mcp/everything",
        `    mcp: { command: "${process.execPath}", args: ["${EVERYTHING}", stdio] }`,
      ].join("\n"),
    );
    const serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HOOK_TOKEN: "from-the-env" },
    });
    try {
      const { match } = await waitFor(serve, /serving (http:\/\/\S+)/);
      const client = new Client({ name: "t", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${match[1]}/mcp/everything`)));
      await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
      await denied(client);
      await hook.count(1);
      await client.close();
    } finally {
      await stopChild(serve);
      await hook.close();
    }
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.headers["x-hook-token"]).toBe("from-the-env");
    expect(hook.received[0]?.body).toMatchObject({ severity: "high", rules: ["deny-launch-code"], route: "everything", transport: "streamable-http", decision: "deny" });
    expect(spawnSync(process.execPath, [CLI, "verify", log], { encoding: "utf8" }).status).toBe(0);
  });

  it("an invalid alerts block is refused at start, naming the key", () => {
    const dir = tempDir();
    const config = join(dir, "bad.yaml");
    writeFileSync(config, ["alerts:", "  webhooks:", "    - url: http://127.0.0.1:1/x", "      minSeverity: urgent", "routes:", "  - { name: a, path: /a, mcp: { command: x } }"].join("\n"));
    const r = spawnSync(process.execPath, [CLI, "serve", "--config", config], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("alerts.webhooks[0].minSeverity");
  });
});
