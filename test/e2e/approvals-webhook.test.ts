import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, connectWrapped, EVERYTHING, readLog, ROOT, tempDir, type Wrapped } from "../helpers.js";
import { startAlertReceiver } from "../support/alert-receiver.js";
import { startServeCli, stopChild } from "../support/servers.js";

const run = promisify(execFile);
const ACCEPTANCE = readFileSync(join(ROOT, "test", "fixtures", "rules", "approval-acceptance.yaml"), "utf8");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");
const dir = tempDir();
// The acceptance rule, and one that times out at once (for an expired link).
const RULES = join(dir, "rules.yaml");
writeFileSync(
  RULES,
  ACCEPTANCE +
    `  - id: ask-quick
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("quick-approval")'
    decision: ask
    ask: { timeout: 1s, prompt: "Quick <b>{args.message}</b>?" }
`,
);
process.env.GUARDWIRE_ADMIN_FILE = join(dir, "admin.json");
process.env.GUARDWIRE_APPROVALS_FILE = join(dir, "approvals-default.json");
const plain = () => new Client({ name: "no-elicitation", version: "1.0.0" }, { capabilities: {} });

type Request = { id: string; summary: string; rule: string; route: string; agent: string | null; tool: string; arguments: string; expiresAt: string; links: { approve: string; deny: string } };

/** A receiver that resolves each approval request as it arrives. */
async function receiver() {
  const r = await startAlertReceiver();
  return {
    ...r,
    async request(n: number): Promise<Request> {
      await r.count(n);
      return r.received[n - 1]?.body as unknown as Request;
    },
  };
}

const page = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, { redirect: "manual", ...init });
  return { status: res.status, headers: res.headers, body: await res.text() };
};
const post = (url: string, form = "", accept = "text/html") => page(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept }, body: form });

describe("the approval webhook in wrap", () => {
  let hook: Awaited<ReturnType<typeof receiver>>;
  let w: Wrapped;
  const log = join(dir, "wrap.ndjson");

  beforeAll(async () => {
    hook = await receiver();
    w = await connectWrapped(["--rules", RULES, "--log", log, "--admin", "127.0.0.1:0", "--approval-webhook", hook.url, "--approval-webhook-header", "X-Team: ops"], [process.execPath, EVERYTHING, "stdio"], plain());
  }, 60_000);
  afterAll(async () => {
    await w?.client.close().catch(() => {});
    await hook?.close();
  });

  it("posts the approval request; the approve link's page decides nothing, its POST approves; a second use is refused", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval via hook", token: "s3cret-value" } });
    const req = await hook.request(1);
    const got = hook.received[0];
    expect(got?.headers["x-team"]).toBe("ops");
    expect(got?.headers["x-guardwire-approval-id"]).toBe(req.id);
    expect(req).toMatchObject({ rule: "ask-echo", tool: "echo", agent: null, route: "server-everything" });
    expect(req.summary).toContain("tools/call echo");
    // Redacted like the log's preview: the argument named token is masked.
    expect(req.arguments).toContain("needs-approval via hook");
    expect(req.arguments).not.toContain("s3cret-value");
    expect(Date.parse(req.expiresAt)).toBeGreaterThan(Date.now());
    const admin = JSON.parse(readFileSync(process.env.GUARDWIRE_ADMIN_FILE as string, "utf8")) as { url: string; token: string };
    expect(req.links.approve.startsWith(`${admin.url}/approvals/link/${req.id}/approve?`)).toBe(true);
    expect(req.links.approve).not.toContain(admin.token);

    const shown = await page(req.links.approve);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer");
    expect(shown.body).toContain("<form method=\"post\">");
    expect(shown.body).toContain("Allow echo of needs-approval via hook?");
    // A GET (a link preview) decided nothing: the call is still held.
    const still = await fetch(`${admin.url}/api/approvals/${req.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(still.status).toBe(200);

    const done = await post(req.links.approve, "reason=looks+fine");
    expect(done.status).toBe(200);
    expect(done.body).toContain("Approved");
    expect(text(await call)).toBe("Echo: needs-approval via hook");

    const again = await post(req.links.approve, "", "application/json");
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body)).toMatchObject({ error: { code: "LINK_USED" } });
    const otherLink = await page(req.links.deny);
    expect(otherLink.status).toBe(409);
    expect(otherLink.body).toContain("already approved");
  }, 60_000);

  it("a tampered link is refused and decides nothing; the deny link refuses with the block rendering", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval deny me" } });
    const req = await hook.request(2);
    const url = new URL(req.links.approve);
    const sig = url.searchParams.get("sig") as string;
    url.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    expect((await post(url.toString())).status).toBe(403);
    // The deny link's signature does not approve either.
    const swapped = new URL(req.links.approve);
    swapped.searchParams.set("sig", new URL(req.links.deny).searchParams.get("sig") as string);
    const forged = await post(swapped.toString(), "", "application/json");
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ error: { code: "LINK_INVALID" } });
    const later = new URL(req.links.approve);
    later.searchParams.set("exp", String(Date.now() + 3_600_000));
    expect((await post(later.toString())).status).toBe(403);

    const refused = await post(req.links.deny, "reason=not+on+prod");
    expect(refused.status).toBe(200);
    const r = (await call) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Blocked by guardwire: refused by the approver \(webhook\): not on prod \[rule ask-echo\]/);
  }, 60_000);

  it("an expired link is refused; wire data on the page is text, never markup", async () => {
    const call = w.client.callTool({ name: "echo", arguments: { message: "quick-approval <script>x</script>" } });
    const req = await hook.request(3);
    const shown = await page(req.links.approve);
    expect(shown.body).toContain("Quick &#60;b&#62;quick-approval &#60;script&#62;x&#60;/script&#62;&#60;/b&#62;?");
    expect(shown.body).not.toContain("<script>");
    const timedOut = (await call) as TextResult;
    expect(text(timedOut)).toContain("nobody answered within 1s");
    const expired = await post(req.links.approve, "", "application/json");
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.body)).toMatchObject({ error: { code: "LINK_EXPIRED" } });
  }, 60_000);

  it("the log names the webhook channel at each step, and verifies", async () => {
    await w.client.close();
    const lines = readLog(log);
    const requested = lines.filter((l) => (l.approval as { step?: string } | undefined)?.step === "requested");
    expect(requested.length).toBe(3);
    for (const l of requested) expect((l.approval as { channels: string[] }).channels).toEqual(["webhook", "admin"]);
    const decided = lines.filter((l) => (l.approval as { step?: string } | undefined)?.step === "decided").map((l) => l.approval as { outcome: string; channel?: string; reason?: string });
    expect(decided).toEqual([
      expect.objectContaining({ outcome: "approved", channel: "webhook", reason: "looks fine" }),
      expect.objectContaining({ outcome: "refused", channel: "webhook", reason: "not on prod" }),
      expect.objectContaining({ outcome: "timeout" }),
    ]);
    expect((await run(process.execPath, [CLI, "verify", log])).stdout).toMatch(/ok/i);
  });
});

describe("the approval webhook needs the admin API", () => {
  it("wrap --approval-webhook without --admin, or with a Unix socket and no public URL, is refused at start", async () => {
    const fail = async (extra: string[]) => {
      const r = await run(process.execPath, [CLI, "wrap", "--rules", RULES, "--log", join(dir, "refused.ndjson"), "--approval-webhook", "http://127.0.0.1:9/hook", ...extra, "--", process.execPath, EVERYTHING, "stdio"]).catch((e: { code: number; stderr: string }) => e);
      expect((r as { code: number }).code).not.toBe(0);
      return (r as { stderr: string }).stderr;
    };
    expect(await fail([])).toContain("approval webhooks need the admin API");
    expect(await fail(["--admin", `unix:${join(dir, "no-public.sock")}`])).toContain("need a public URL for their links");
  }, 60_000);
});

describe("the approval webhook in serve", () => {
  const sdir = tempDir();
  const log = join(sdir, "decisions.ndjson");
  let serve: ChildProcess;
  let base: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let client: Client;

  beforeAll(async () => {
    hook = await receiver();
    const extra = ["admin: { listen: 127.0.0.1:0 }", `approvals: { webhooks: [{ url: "${hook.url}" }], rememberFile: null }`];
    ({ child: serve, base } = await startServeCli(sdir, { rules: RULES, log, extra, env: { ...process.env, GUARDWIRE_ADMIN_FILE: join(sdir, "admin.json") } }));
    client = plain();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    if (serve) await stopChild(serve);
    await hook?.close();
  });

  it("following the approve link (page, then POST) completes the held call; the log verifies", async () => {
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval serve hook" } });
    const req = await hook.request(1);
    expect(req).toMatchObject({ rule: "ask-echo", tool: "echo", route: "everything" });
    expect((await page(req.links.approve)).status).toBe(200);
    expect((await post(req.links.approve)).status).toBe(200);
    expect(text(await call)).toBe("Echo: needs-approval serve hook");
    expect((await post(req.links.approve)).status).toBe(409);
    await stopChild(serve);
    const decided = readLog(log).find((l) => (l.approval as { step?: string } | undefined)?.step === "decided");
    expect(decided?.approval).toMatchObject({ outcome: "approved", channel: "webhook" });
    expect((await run(process.execPath, [CLI, "verify", log])).stdout).toMatch(/ok/i);
  }, 60_000);
});

describe("the admin API on a Unix socket", () => {
  const udir = tempDir();
  const socket = join(udir, "run", "admin.sock");
  const adminFile = join(udir, "admin.json");
  const env = { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile };
  let w: Wrapped;

  afterAll(async () => {
    await w?.client.close().catch(() => {});
  });

  async function heldId(): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { stdout } = await run(process.execPath, [CLI, "approvals", "--json"], { env });
      const list = JSON.parse(stdout) as { id: string }[];
      if (list[0]) return list[0].id;
      if (Date.now() > deadline) throw new Error("nothing held");
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("is mode 0600, needs no token, and `guardwire approvals approve` over it approves a held call", async () => {
    process.env.GUARDWIRE_ADMIN_FILE = adminFile;
    w = await connectWrapped(["--rules", RULES, "--log", join(udir, "d.ndjson"), "--admin", `unix:${socket}`], [process.execPath, EVERYTHING, "stdio"], plain());
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(adminFile, "utf8"))).toMatchObject({ url: `unix:${socket}`, token: null });
    const call = w.client.callTool({ name: "echo", arguments: { message: "needs-approval socket" } });
    const id = await heldId();
    const { stdout } = await run(process.execPath, [CLI, "approvals", "approve", id, "--reason", "over the socket"], { env });
    expect(stdout).toContain(`approved ${id}`);
    expect(text(await call)).toBe("Echo: needs-approval socket");
  }, 60_000);

  it("a second guardwire on the same live socket is refused at start", async () => {
    const child = spawn(process.execPath, [CLI, "wrap", "--pins", join(udir, "p.json"), "--rules", RULES, "--log", join(udir, "d2.ndjson"), "--admin", `unix:${socket}`, "--", process.execPath, EVERYTHING, "stdio"], {
      env: { ...env, GUARDWIRE_ADMIN_FILE: join(udir, "other-admin.json") },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(err).toContain("another process is listening on it");
    // The first one still answers.
    const { stdout } = await run(process.execPath, [CLI, "approvals"], { env });
    expect(stdout).toContain("no approvals waiting");
  }, 60_000);

  it("the socket is removed at exit, and a stale one is replaced", async () => {
    await w.client.close();
    const deadline = Date.now() + 20_000;
    while (statSync(socket, { throwIfNoEntry: false }) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(socket, { throwIfNoEntry: false })).toBeUndefined();
    // A socket nobody listens on any more (its process was killed) is stale: replaced.
    const holder = spawn(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(socket)}, () => console.log("up"))`], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(statSync(socket).isSocket()).toBe(true);
    w = await connectWrapped(["--rules", RULES, "--log", join(udir, "d3.ndjson"), "--admin", `unix:${socket}`], [process.execPath, EVERYTHING, "stdio"], plain());
    expect((await run(process.execPath, [CLI, "approvals"], { env })).stdout).toContain("no approvals waiting");
  }, 60_000);
});

describe("remember: always survives a restart of wrap", () => {
  const rdir = tempDir();
  const rules = join(rdir, "always.yaml");
  writeFileSync(rules, ACCEPTANCE.replace("remember: once", "remember: always"));
  const file = join(rdir, "approvals.json");
  const socket = join(rdir, "admin.sock");
  const env = { ...process.env, GUARDWIRE_ADMIN_FILE: join(rdir, "admin.json") };
  const logs: string[] = [];
  let asked = 0;

  async function start(): Promise<Wrapped> {
    process.env.GUARDWIRE_ADMIN_FILE = env.GUARDWIRE_ADMIN_FILE;
    const client = new Client({ name: "approver", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { decision: "approve", remember: "always" } };
    });
    const log = join(rdir, `d-${logs.length}.ndjson`);
    logs.push(log);
    return connectWrapped(["--rules", rules, "--log", log, "--approvals-file", file, "--admin", `unix:${socket}`], [process.execPath, EVERYTHING, "stdio"], client);
  }

  it("the same arguments are not asked again after a restart, other arguments are; forget revokes", async () => {
    let w = await start();
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval keep" } }))).toBe("Echo: needs-approval keep");
    expect(asked).toBe(1);
    await w.client.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8")) as { approvals: { scope: string; tool: string; argsDigest: string }[] };
    expect(saved.approvals).toEqual([expect.objectContaining({ scope: "always", tool: "echo" })]);
    expect(JSON.stringify(saved)).not.toContain("needs-approval keep");

    w = await start();
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval keep" } }))).toBe("Echo: needs-approval keep");
    expect(asked).toBe(1);
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval other" } }))).toBe("Echo: needs-approval other");
    expect(asked).toBe(2);

    const listed = (await run(process.execPath, [CLI, "approvals", "remembered", "--json"], { env })).stdout;
    const ids = (JSON.parse(listed) as { id: string }[]).map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect((await run(process.execPath, [CLI, "approvals", "forget", ids[0] as string], { env })).stdout).toContain("forgot 1");
    expect((await run(process.execPath, [CLI, "approvals", "forget", "--all"], { env })).stdout).toContain("forgot 1");
    expect((JSON.parse(readFileSync(file, "utf8")) as { approvals: unknown[] }).approvals).toEqual([]);
    expect(text(await w.client.callTool({ name: "echo", arguments: { message: "needs-approval keep" } }))).toBe("Echo: needs-approval keep");
    expect(asked).toBe(3);
    await w.client.close();
    const remembered = readLog(logs[1] as string).find((l) => (l.approval as { step?: string } | undefined)?.step === "remembered");
    expect(remembered?.reasonCode).toEqual(["APPROVED"]);
    for (const f of logs) expect((await run(process.execPath, [CLI, "verify", f])).stdout).toMatch(/ok/i);
  }, 90_000);

  it("a corrupt file stops wrap at start with a clear error", async () => {
    writeFileSync(file, "{ not json");
    const r = await run(process.execPath, [CLI, "wrap", "--rules", rules, "--log", join(rdir, "bad.ndjson"), "--approvals-file", file, "--", process.execPath, EVERYTHING, "stdio"], { env }).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).not.toBe(0);
    expect((r as { stderr: string }).stderr).toContain(`the remembered approvals file ${file} is not valid (not JSON)`);
  }, 60_000);
});
