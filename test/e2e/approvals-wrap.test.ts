import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, McpError, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { CLI, connectWrapped, EVERYTHING, readLog, ROOT, tempDir, type Wrapped } from "../helpers.js";

const run = promisify(execFile);
const ACCEPTANCE = join(ROOT, "test", "fixtures", "rules", "approval-acceptance.yaml");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");
const dir = tempDir();
// One log per wrap (a log file has one writer); `log` is the newest one's, `logs` every one's.
const logs: string[] = [];
let log = "";
// The admin API writes its URL and token here; the CLI reads them back.
process.env.GUARDWIRE_ADMIN_FILE = join(dir, "admin.json");
const open: Wrapped[] = [];

async function wrapped(client: Client, rules = ACCEPTANCE, extra: string[] = []): Promise<Wrapped> {
  log = join(dir, `decisions-${logs.length}.ndjson`);
  logs.push(log);
  const w = await connectWrapped(["--rules", rules, "--log", log, ...extra], [process.execPath, EVERYTHING, "stdio"], client);
  open.push(w);
  return w;
}

/** A client that answers guardwire's approval form with `answer`, and remembers what it was asked. */
function eliciting(answer: (req: ElicitRequest) => ElicitResult) {
  const asked: ElicitRequest[] = [];
  const client = new Client({ name: "approver", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req);
    return answer(req);
  });
  return { client, asked };
}

const schemaOf = (req: ElicitRequest | undefined) => (req?.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
const plain = () => new Client({ name: "no-elicitation", version: "1.0.0" }, { capabilities: {} });

function admin(): { url: string; token: string } {
  return JSON.parse(readFileSync(process.env.GUARDWIRE_ADMIN_FILE as string, "utf8")) as { url: string; token: string };
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const a = admin();
  const res = await fetch(a.url + path, { method, headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, data: (await res.json()) as Record<string, unknown> };
}

type Held = { id: string; tool: string; prompt: string; argsDigest: string; channels: string[] };
/** Waits until `n` approvals are held (the admin API is the source of truth), then returns them. */
async function held(n: number): Promise<Held[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { data } = await api("GET", "/api/approvals");
    const list = data.approvals as Held[];
    if (list.length >= n) return list;
    if (Date.now() > deadline) throw new Error(`expected ${n} held approvals, have ${list.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  for (const w of open) await w.client.close().catch(() => {});
});

describe("approvals in wrap: the agent's own client asked through elicitation", () => {
  it("approve: the held call goes through; the prompt is the rule's, filled in", async () => {
    const { client, asked } = eliciting(() => ({ action: "accept", content: { decision: "approve" } }));
    const w = await wrapped(client);
    const r = await w.client.callTool({ name: "echo", arguments: { message: "needs-approval: ship" } });
    expect(text(r)).toBe("Echo: needs-approval: ship");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params.message).toBe("guardwire: Allow echo of needs-approval: ship?");
    expect(schemaOf(asked[0]).properties.decision).toMatchObject({ enum: ["approve", "deny"] });
    // remember: once — no scope to choose.
    expect(schemaOf(asked[0]).properties.remember).toBeUndefined();
    // A call the rule does not ask about is not held.
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "hello" } }))).toBe("Echo: hello");
    expect(asked).toHaveLength(1);
  });

  it("decline, cancel and an explicit deny are refusals: the usual block, with the approver's reason", async () => {
    const answers: ElicitResult[] = [{ action: "decline" }, { action: "cancel" }, { action: "accept", content: { decision: "deny", reason: "not today" } }];
    const { client } = eliciting(() => answers.shift() as ElicitResult);
    const w = await wrapped(client);
    const declined = (await w.client.callTool({ name: "echo", arguments: { message: "needs-approval 1" } })) as TextResult;
    expect(declined.isError).toBe(true);
    expect(text(declined)).toMatch(/Blocked by guardwire: refused by the approver \(elicitation\): declined in the client \[rule ask-echo\]/);
    const cancelled = (await w.client.callTool({ name: "echo", arguments: { message: "needs-approval 2" } })) as TextResult;
    expect(text(cancelled)).toMatch(/refused by the approver \(elicitation\): cancelled in the client/);
    const denied = (await w.client.callTool({ name: "echo", arguments: { message: "needs-approval 3" } })) as TextResult;
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("not today");
  });

  it("remember: session — the same arguments are not asked again, other arguments are", async () => {
    const rules = join(dir, "remember.yaml");
    writeFileSync(rules, readFileSync(ACCEPTANCE, "utf8").replace("remember: once", "remember: session"));
    const { client, asked } = eliciting((req) => {
      expect(schemaOf(req).properties.remember).toMatchObject({ enum: ["once", "session"] });
      return { action: "accept", content: { decision: "approve", remember: "session" } };
    });
    const w = await wrapped(client, rules);
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval A" } }))).toBe("Echo: needs-approval A");
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval A" } }))).toBe("Echo: needs-approval A");
    expect(asked).toHaveLength(1);
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval B" } }))).toBe("Echo: needs-approval B");
    expect(asked).toHaveLength(2);
  });
});

describe("approvals in wrap: nobody to ask", () => {
  it("a client without elicitation and no admin API: blocked at once, APPROVAL_UNAVAILABLE", async () => {
    const w = await wrapped(plain());
    const r = (await w.client.callTool({ name: "echo", arguments: { message: "needs-approval alone" } })) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("nobody can be asked: the client has no elicitation and no admin API is on");
  });
});

describe("approvals in wrap: a client without elicitation, decided by an operator", () => {
  let w: Wrapped;
  it("starts with --admin on loopback: a token is made up and written for the CLI", async () => {
    w = await wrapped(plain(), ACCEPTANCE, ["--admin", "127.0.0.1:0"]);
    const a = admin();
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const noToken = await fetch(a.url + "/api/approvals");
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    expect((await api("GET", "/api/approvals")).data).toEqual({ approvals: [] });
  });

  it("approved through the CLI: listed, approved with a reason, forwarded", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval via cli" } });
    const [h] = await held(1);
    expect(h).toMatchObject({ tool: "echo", prompt: "Allow echo of needs-approval via cli?", channels: ["admin"] });
    const listed = await run(process.execPath, [CLI, "approvals"]);
    expect(listed.stdout).toContain(h?.id);
    expect(listed.stdout).toContain("Allow echo of needs-approval via cli?");
    const approved = await run(process.execPath, [CLI, "approvals", "approve", h?.id as string, "--reason", "looks fine"]);
    expect(approved.stdout).toMatch(/^approved ap-/);
    expect(text(await call)).toBe("Echo: needs-approval via cli");
    // Decided already: a second decision is a clear error.
    const again = await run(process.execPath, [CLI, "approvals", "deny", h?.id as string]).catch((e: { code: number; stderr: string }) => e);
    expect(again).toMatchObject({ code: 2 });
    expect((again as { stderr: string }).stderr).toMatch(/no held approval .* \(NOT_FOUND\)/);
  });

  it("approved through the API; refused through the API with a reason; a wider remember than the rule allows is refused", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval via api" } });
    const [h] = await held(1);
    const tooWide = await api("POST", `/api/approvals/${h?.id}/approve`, { remember: "session" });
    expect(tooWide).toMatchObject({ status: 400, data: { error: { code: "BAD_SCOPE" } } });
    expect(await api("POST", `/api/approvals/${h?.id}/approve`, { by: "alice" })).toMatchObject({ status: 200, data: { decision: "approved" } });
    expect(text(await call)).toBe("Echo: needs-approval via api");

    const refused = w.client.callTool({ name: "echo", arguments: { message: "needs-approval refuse me" } });
    const [r] = await held(1);
    await api("POST", `/api/approvals/${r?.id}/deny`, { reason: "too risky", by: "bob" });
    const out = (await refused) as TextResult;
    expect(out.isError).toBe(true);
    expect(text(out)).toBe("Blocked by guardwire: refused by the approver bob (api): too risky [rule ask-echo]");
  });

  it("two asks in flight in one session: each gets its own answer, other traffic goes on meanwhile", async () => {
    const one = w.client.callTool({ name: "echo", arguments: { message: "needs-approval one" } });
    const two = w.client.callTool({ name: "echo", arguments: { message: "needs-approval two" } });
    const list = await held(2);
    expect(new Set(list.map((h) => h.argsDigest)).size).toBe(2);
    // tail --pending shows exactly these two once they are written.
    let pending = "";
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      pending = (await run(process.execPath, [CLI, "tail", "--pending", "--no-color", log])).stdout;
      if (list.every((h) => pending.includes(h.id))) break;
    }
    expect(pending.trim().split("\n")).toHaveLength(2);
    for (const h of list) expect(pending).toMatch(new RegExp(`ASK .*tools/call echo .*approval ${h.id} requested via admin`));
    // Not held: passes while both wait.
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "meanwhile" } }))).toBe("Echo: meanwhile");
    const byPrompt = (s: string) => list.find((h) => h.prompt.includes(s))?.id as string;
    await api("POST", `/api/approvals/${byPrompt("two")}/approve`);
    expect(text(await two)).toBe("Echo: needs-approval two");
    await api("POST", `/api/approvals/${byPrompt("one")}/deny`, { reason: "no" });
    expect((await one).isError).toBe(true);
  });

  it("a request with a progressToken gets progress heartbeats while held", async () => {
    const beats: { progress: number; message?: string }[] = [];
    let first: () => void = () => {};
    const beaten = new Promise<void>((r) => (first = r));
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval progress" } }, undefined, {
      onprogress: (p) => {
        beats.push(p);
        first();
      },
    });
    const [h] = await held(1);
    await beaten;
    expect(beats[0]).toMatchObject({ progress: 1, message: `waiting for approval ${h?.id}` });
    await api("POST", `/api/approvals/${h?.id}/approve`);
    expect(text(await call)).toBe("Echo: needs-approval progress");
  }, 30_000);

  it("the client gives up (its request timeout): the hold is withdrawn and the server never sees the call", async () => {
    const err = await w.client.callTool({ name: "echo", arguments: { message: "needs-approval impatient" } }, undefined, { timeout: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32001);
    const deadline = Date.now() + 10_000;
    while ((await held(0)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await held(0)).toEqual([]);
  });

  it("nobody answers: onTimeout deny, APPROVAL_TIMEOUT", async () => {
    const started = Date.now();
    const r = (await w.client.callTool({ name: "echo", arguments: { message: "needs-approval nobody" } }, undefined, { timeout: 30_000 })) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("Blocked by guardwire: approval required, but nobody answered within 10s [rule ask-echo]");
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
  }, 40_000);

  it("a shutdown answers every held request with a deny", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval at shutdown" } });
    await held(1);
    process.kill(w.transport.pid as number, "SIGTERM");
    const r = (await call) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("approval required, but the session is closing");
  });
});

describe("approvals in wrap: both channels", () => {
  it("a client whose form fails (an error answer) can still be approved by an operator", async () => {
    const client = new Client({ name: "broken-form", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      throw new Error("no screen to show a form on");
    });
    const w = await wrapped(client, ACCEPTANCE, ["--admin", "127.0.0.1:0"]);
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval both" } });
    const [h] = await held(1);
    expect(h?.channels).toEqual(["elicitation", "admin"]);
    // The form's error answer is logged; the request stays held for the operator.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      if (readLog(log).some((l) => l.message === "the client answered error")) break;
    }
    expect((await held(1)).map((x) => x.id)).toEqual([h?.id]);
    await api("POST", `/api/approvals/${h?.id}/approve`);
    expect(text(await call)).toBe("Echo: needs-approval both");
  });
});

describe("the log after all of it", () => {
  it("holds every step, linked by the approval id, and verifies", async () => {
    for (const w of open.splice(0)) await w.client.close().catch(() => {});
    const lines = logs.flatMap((f) => readLog(f));
    const steps = lines.filter((l) => l.approval) as { approval: { id: string; step: string; outcome?: string; channel?: string; by?: string; afterMs?: number; channels?: string[] }; decision: string; reasonCode: string[] }[];
    const byId = new Map<string, typeof steps>();
    for (const s of steps) byId.set(s.approval.id, [...(byId.get(s.approval.id) ?? []), s]);
    const outcomes = steps.filter((s) => s.approval.step === "decided").map((s) => s.approval.outcome);
    expect(outcomes).toEqual(expect.arrayContaining(["approved", "refused", "timeout", "cancelled", "shutdown"]));
    for (const [, chain] of byId) {
      if (chain[0]?.approval.step === "remembered") continue;
      expect(chain[0]).toMatchObject({ decision: "ask", reasonCode: ["APPROVAL_REQUIRED"], approval: { step: "requested" } });
      expect(chain.filter((s) => s.approval.step === "decided")).toHaveLength(1);
    }
    const viaCli = steps.find((s) => s.approval.channel === "cli");
    expect(viaCli?.approval).toMatchObject({ outcome: "approved", reason: "looks fine" });
    expect(steps.find((s) => s.approval.by === "bob")?.approval).toMatchObject({ outcome: "refused", channel: "api" });
    expect(steps.some((s) => s.approval.step === "elicitation")).toBe(true);
    // guardwire's own requests and the client's answers are only ever logged as approval steps: never forwarded.
    const own = lines.filter((l) => typeof l.id === "string" && l.id.startsWith("guardwire-approval-"));
    expect(own.length).toBeGreaterThan(0);
    for (const l of own) expect(l).toMatchObject({ method: "elicitation/create", approval: { step: "elicitation" } });
    expect(steps.some((s) => s.approval.step === "remembered")).toBe(true);
    for (const f of logs) expect((await run(process.execPath, [CLI, "verify", f])).stdout).toMatch(/ok/i);
  });
});
