import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLog, ROOT, tempDir } from "../helpers.js";
import { a2aSender, adminJson, startA2aServeWithAdmin, stopChild } from "../support/servers.js";

const RULES = join(ROOT, "test", "fixtures", "rules", "sessions.yaml");
type Info = { id: string; transport: string; protocol: string; server: { name: string } | null; messages: { outbound: number; inbound: number }; held: number; state: string };

describe("live sessions on an A2A route (serve): a caller listed, suspended, resumed, killed", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const adminFile = join(dir, "admin.json");
  let agent: ChildProcess | undefined;
  let serve: ChildProcess | undefined;
  let base = "";

  beforeAll(async () => {
    ({ agent, serve, base } = await startA2aServeWithAdmin(dir, { rules: RULES, log, adminFile }));
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
  });

  it("between and during its calls", async () => {
    const send = await a2aSender(`${base}/a2a/echo/`);
    const api = adminJson(adminFile);
    const caller = async (ok: (s: Info) => boolean): Promise<Info> => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        const s = ((await api("GET", "/api/sessions")).sessions as Info[]).find((x) => x.protocol === "a2a");
        if (s && ok(s)) return s;
      }
      throw new Error("no such A2A session");
    };

    expect(JSON.stringify(await send("hello"))).toContain("hello");
    // Listed between its calls: the caller's guardian session, its calls counted.
    const s = await caller((x) => x.messages.inbound >= 2);
    expect(s.id).toMatch(/^a2a:/);
    expect(s).toMatchObject({ transport: "a2a-jsonrpc", state: "active" });
    const path = `/api/sessions/${encodeURIComponent(s.id)}`;

    await api("POST", `${path}/suspend`, { mode: "refuse", reason: "audit" });
    expect(String(await send("refused").catch((e: Error) => e))).toContain("session suspended by an operator: audit");

    await api("POST", `${path}/suspend`, { mode: "hold" });
    const held = send("held then sent");
    await caller((x) => x.held === 1);
    await api("POST", `${path}/resume`);
    expect(JSON.stringify(await held)).toContain("held then sent");

    await api("POST", `${path}/suspend`, {});
    const killed = send("held at kill").catch((e: Error) => e);
    await caller((x) => x.held === 1);
    expect(await api("POST", `${path}/kill`, { reason: "enough" })).toMatchObject({ killed: true, session: { id: s.id } });
    expect(String(await killed)).toContain("session killed by an operator: enough");
    expect((await api("GET", path)).error).toMatchObject({ code: "NOT_FOUND" });

    // A new call after a kill is a new entry for the same caller.
    expect(JSON.stringify(await send("again"))).toContain("again");
    const killedLines = () => readLog(log).filter((l) => l.kind !== "control" && (l.reasonCode as string[]).includes("SESSION_KILLED"));
    // The log is written just after the answer: wait for the line.
    for (const deadline = Date.now() + 10_000; killedLines().length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    const all = readLog(log);
    expect(all.filter((l) => l.kind === "control").map((l) => `${l.protocol as string} ${l.method as string}`)).toEqual(expect.arrayContaining(["a2a guardwire/suspend", "a2a guardwire/resume", "a2a guardwire/kill"]));
    const lines = all.filter((l) => l.kind !== "control");
    expect(lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_SUSPENDED")).map((l) => l.protocol)).toEqual(["a2a"]);
    expect(lines.filter((l) => (l.reasonCode as string[]).includes("SESSION_KILLED")).map((l) => l.method)).toEqual(["message/send"]);
  });
});
