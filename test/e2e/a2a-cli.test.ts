import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientFactory } from "a2a-sdk-03/client";
import { CLI, ROOT, tempDir } from "../helpers.js";
import { stopChild, waitFor } from "../support/servers.js";

const AGENT = join(ROOT, "test", "fixtures", "servers", "a2a-agent-03.mjs");

describe("guardwire serve with an a2a route (the CLI), and tail's multi-agent view", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  let agent: ChildProcess;
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    agent = spawn(process.execPath, [AGENT], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const port = (await waitFor(agent, /listening (\d+)/)).match[1];
    const config = join(dir, "guardwire.yaml");
    writeFileSync(
      config,
      [
        "listen: { host: 127.0.0.1, port: 0 }",
        `rules: ${join(ROOT, "test", "fixtures", "rules", "a2a-acceptance.yaml")}`,
        `log: ${log}`,
        "agents: [{ id: orchestrator, key: k-0123456789abcdef }]",
        "routes:",
        "  - name: echo",
        "    path: /a2a/echo",
        `    a2a: { url: "http://127.0.0.1:${port}" }`,
      ].join("\n"),
    );
    serve = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], { stdio: ["ignore", "pipe", "pipe"] });
    base = (await waitFor(serve, /serving (http:\/\/\S+)/)).match[1] as string;
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
  });

  it("without the key the card is refused", async () => {
    const r = spawnSync(process.execPath, ["-e", `fetch(${JSON.stringify(`${base}/a2a/echo/.well-known/agent-card.json`)}).then(r => console.log(r.status)).catch(() => console.log("down"))`], { encoding: "utf8" });
    expect(r.stdout.trim()).toBe("401");
  });

  it("a keyed caller streams a task; tail shows caller → agent, task and context", async () => {
    const headers = { "x-guardwire-key": "k-0123456789abcdef" };
    const fetchWithKey: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } });
    const { ClientFactoryOptions, JsonRpcTransportFactory, DefaultAgentCardResolver } = await import("a2a-sdk-03/client");
    const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithKey })], cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWithKey }) }));
    const client = await factory.createFromUrl(`${base}/a2a/echo/`);
    let taskId = "";
    for await (const e of client.sendMessageStream({ message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: "task one" }] } })) {
      const ev = e as { kind: string; id?: string };
      if (ev.kind === "task") taskId = ev.id ?? "";
    }
    expect(taskId).not.toBe("");
    await stopChild(serve);
    const tail = spawnSync(process.execPath, [CLI, "tail", log, "--no-color", "--task", taskId], { encoding: "utf8" });
    expect(tail.status).toBe(0);
    const lines = tail.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.every((l) => l.includes(`task ${taskId}`))).toBe(true);
    expect(tail.stdout).toContain("orchestrator→Echo Agent");
    expect(tail.stdout).toContain("message/stream");
  });

});
