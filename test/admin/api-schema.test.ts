import { execFile, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, connectWrapped, EVERYTHING, tempDir, type Wrapped } from "../helpers.js";
import { startAlertReceiver } from "../support/alert-receiver.js";
import { startServeCli, stopChild } from "../support/servers.js";
import * as s from "../../src/admin/api-schema.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { adminOpenApi, COMPONENTS, EVENT_COMPONENTS, pathsOf } from "../../src/admin/openapi.js";

const run = promisify(execFile);
const dir = tempDir();
const RULES = join(dir, "rules.yaml");
const RULES_TEXT = `name: api-schema
default: allow
rules:
  - id: ask-echo
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("needs-approval")'
    decision: ask
    message: echo with an approval marker
    ask: { timeout: 30s, onTimeout: deny, remember: session, prompt: "Allow echo of {args.message}?" }
  - id: no-forbidden
    match: { protocol: mcp, direction: outbound, method: tools/call, tool: echo }
    when: 'args.message.contains("forbidden")'
    decision: deny
    message: forbidden echo
`;
writeFileSync(RULES, RULES_TEXT);
process.env.GUARDWIRE_APPROVALS_FILE = join(dir, "approvals.json");
const plain = (name: string) => new Client({ name, version: "1.0.0" }, { capabilities: {} });

type Admin = { url: string; token: string };

/**
 * The document's own JSON Schemas, as a client in another language would use them: every answer must pass these too,
 * not only the zod schemas they are made from.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "admin", components: (adminOpenApi("test") as { components: unknown }).components });
function published(name: string, data: unknown): void {
  const validate = ajv.getSchema(`admin#/components/schemas/${name}`);
  if (!validate) throw new Error(`no component ${name}`);
  expect(validate(data) ? [] : validate.errors, `${name} per the OpenAPI document`).toEqual([]);
}
const componentOf = (schema: z.ZodType) => Object.entries(COMPONENTS).find(([, c]) => c === schema)?.[0];
type Answer = { status: number; data: unknown };
type OpenApi = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { $ref: string } }> }> }>>; components: { schemas: Record<string, unknown> } };

function client(adminFile: string) {
  const admin = () => JSON.parse(readFileSync(adminFile, "utf8")) as Admin;
  async function api(method: string, path: string, body?: unknown, token: string | null = admin().token): Promise<Answer> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(admin().url + path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    return { status: res.status, data: await res.json() };
  }
  /** The answer, checked against its schema and status: what a script or the console may rely on. */
  async function call<T extends z.ZodType>(schema: T, status: number, method: string, path: string, body?: unknown, token?: string | null): Promise<z.infer<T>> {
    const r = await api(method, path, body, token);
    expect({ path, status: r.status }).toEqual({ path, status });
    const name = componentOf(schema);
    if (!name) throw new Error(`${path}: its schema is not a component of the document`);
    published(name, r.data);
    return schema.parse(r.data);
  }
  /** Polls until `ok` holds for the parsed answer (the admin API is the source of truth). */
  async function until<T extends z.ZodType>(schema: T, path: string, ok: (v: z.infer<T>) => boolean): Promise<z.infer<T>> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const v = await call(schema, 200, "GET", path);
      if (ok(v)) return v;
      if (Date.now() > deadline) throw new Error(`${path} never satisfied the test: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { admin, api, call, until };
}

/** Every event on `GET /api/events`, read as it arrives. */
async function events(a: Admin): Promise<{ seen: { event: string; data: unknown }[]; wait(event: string, n?: number): Promise<void>; close(): void }> {
  const ctl = new AbortController();
  const res = await fetch(`${a.url}/api/events`, { headers: { authorization: `Bearer ${a.token}` }, signal: ctl.signal });
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const seen: { event: string; data: unknown }[] = [];
  const waiters: (() => void)[] = [];
  void (async () => {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buf += dec.decode(value, { stream: true });
      for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) seen.push({ event, data: JSON.parse(data) });
        for (const w of waiters.splice(0)) w();
      }
    }
  })();
  return {
    seen,
    async wait(event, n = 1) {
      while (seen.filter((e) => e.event === event).length < n) await new Promise<void>((r) => waiters.push(r));
    },
    close: () => ctl.abort(),
  };
}

/** Each event's data parses with the schema of its name; returns how many of each were seen. */
function checkEvents(seen: { event: string; data: unknown }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of seen) {
    const schema = s.EVENTS[e.event as s.EventName];
    expect(schema, `a schema for event ${e.event}`).toBeDefined();
    schema.parse(e.data);
    published(EVENT_COMPONENTS[e.event as s.EventName], e.data);
    counts[e.event] = (counts[e.event] ?? 0) + 1;
  }
  return counts;
}

/** The OpenAPI paths the routes' docs name (`GET /api` lists them) are all in the document. */
function checkCovered(doc: OpenApi, endpoints: string[]): void {
  expect(doc.openapi).toBe("3.1.0");
  expect(endpoints.length).toBeGreaterThan(0);
  for (const e of endpoints) {
    const { method, paths } = pathsOf(e);
    for (const p of paths) expect(doc.paths[p]?.[method], `${e} in the OpenAPI paths`).toBeDefined();
  }
}

describe("the admin API in serve answers what its schema says", () => {
  const log = join(dir, "serve.ndjson");
  const adminFile = join(dir, "serve-admin.json");
  const { admin, call, until } = client(adminFile);
  const clients: Client[] = [];
  let serve: ChildProcess;
  let base: string;

  beforeAll(async () => {
    ({ child: serve, base } = await startServeCli(dir, { rules: RULES, log, extra: ["admin: { listen: 127.0.0.1:0 }"], env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile } }));
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    if (serve) await stopChild(serve);
  });

  it("every documented route of the assembled table is in the OpenAPI document it serves, and in guardwire schema admin", async () => {
    const index = await call(s.apiIndex, 200, "GET", "/api");
    const served = (await call(s.openApiDocument, 200, "GET", "/api/openapi.json")) as OpenApi;
    checkCovered(served, ["GET /api", ...index.endpoints]);
    // No approval webhook here: no signed links, so the document has none (the route table decides).
    expect(served.paths["/approvals/link/{id}/approve"]).toBeUndefined();
    expect(index.endpoints).toEqual(expect.arrayContaining(["GET /api/openapi.json", "GET /api/rules", "POST /api/playground", "GET /metrics"]));
    const printed = JSON.parse((await run(process.execPath, [CLI, "schema", "admin"])).stdout) as OpenApi;
    checkCovered(printed, ["GET /api", ...index.endpoints]);
    for (const p of Object.keys(served.paths)) expect(printed.paths[p]).toEqual(served.paths[p]);
    // Every $ref names a component that is there.
    const refs = JSON.stringify(printed).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const r of new Set(refs)) expect(printed.components.schemas[r.split("/").pop() as string], r).toBeDefined();
  });

  it("approvals, sessions, the event stream and their refusals, driven by a real SDK client", async () => {
    const stream = await events(admin());
    const c = plain("schema-client");
    await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
    clients.push(c);
    await c.callTool({ name: "echo", arguments: { message: "hi" } });
    const denied = (await c.callTool({ name: "echo", arguments: { message: "forbidden" } })) as { isError?: boolean };
    expect(denied.isError).toBe(true);

    // A held call, approved for the session: remembered until the session ends.
    const held = c.callTool({ name: "echo", arguments: { message: "needs-approval 1" } });
    const list = await until(s.approvalsList, "/api/approvals", (v) => v.approvals.length === 1);
    const ap = list.approvals[0] as z.infer<typeof s.heldApproval>;
    expect(await call(s.approvalOne, 200, "GET", `/api/approvals/${ap.id}`)).toEqual({ approval: ap });
    // Both schemas are closed: a field they do not name, or one missing, fails.
    expect(() => s.approvalOne.parse({ approval: { ...ap, extra: 1 } })).toThrow();
    expect(ajv.getSchema("admin#/components/schemas/ApprovalOne")?.({ approval: { ...ap, extra: 1 } })).toBe(false);
    expect(ajv.getSchema("admin#/components/schemas/ApprovalOne")?.({ approval: { ...ap, prompt: undefined } })).toBe(false);
    await call(s.apiError, 400, "POST", `/api/approvals/${ap.id}/approve`, { remember: "forever" });
    await call(s.apiError, 400, "POST", `/api/approvals/${ap.id}/approve`, "[1]");
    const decided = await call(s.approvalDecided, 200, "POST", `/api/approvals/${ap.id}/approve`, { remember: "session", reason: "ok", by: "tester" });
    expect(decided.decision).toBe("approved");
    await held;
    const remembered = await call(s.rememberedList, 200, "GET", "/api/approvals/remembered");
    expect(remembered.remembered.map((r) => r.id)).toEqual([ap.id]);
    await call(s.apiError, 404, "GET", `/api/approvals/${ap.id}`);
    await call(s.apiError, 404, "POST", `/api/approvals/${ap.id}/deny`, {});
    expect(await call(s.forgotten, 200, "DELETE", `/api/approvals/remembered/${ap.id}`)).toEqual({ forgotten: 1 });
    await call(s.apiError, 404, "DELETE", `/api/approvals/remembered/${ap.id}`);
    expect(await call(s.forgotten, 200, "DELETE", "/api/approvals/remembered")).toEqual({ forgotten: 0 });

    // One refused.
    const refused = c.callTool({ name: "echo", arguments: { message: "needs-approval 2" } });
    const [second] = (await until(s.approvalsList, "/api/approvals", (v) => v.approvals.length === 1)).approvals;
    expect((await call(s.approvalDecided, 200, "POST", `/api/approvals/${second?.id}/deny`, { reason: "no" })).decision).toBe("refused");
    expect(((await refused) as { isError?: boolean }).isError).toBe(true);

    // Its session: listed, suspended, resumed, then killed.
    const sessions = await until(s.sessionsList, "/api/sessions", (v) => v.sessions.some((x) => x.client?.name === "schema-client"));
    const sid = sessions.sessions.find((x) => x.client?.name === "schema-client")?.id as string;
    const path = `/api/sessions/${encodeURIComponent(sid)}`;
    expect((await call(s.sessionOne, 200, "GET", path)).session.denies).toBeGreaterThanOrEqual(1);
    await call(s.apiError, 400, "POST", `${path}/suspend`, { mode: "sleep" });
    await call(s.apiError, 400, "POST", `${path}/kill`, { reason: 5 });
    expect((await call(s.sessionOne, 200, "POST", `${path}/suspend`, { mode: "refuse", reason: "audit", by: "tester" })).session.suspend).toMatchObject({ mode: "refuse", reason: "audit" });
    expect((await call(s.sessionOne, 200, "POST", `${path}/resume`, {})).session.state).toBe("active");
    await call(s.apiError, 404, "GET", "/api/sessions/no-such-session");
    await call(s.apiError, 404, "POST", "/api/sessions/no-such-session/resume", {});
    await stream.wait("session.updated", 2);
    expect((await call(s.sessionKilled, 200, "POST", `${path}/kill`, { reason: "done" })).killed).toBe(true);
    await stream.wait("session.closed");

    // The listener's own refusals.
    await call(s.apiError, 401, "GET", "/api/sessions", undefined, null);
    await call(s.apiError, 401, "GET", "/api/openapi.json", undefined, "wrong-token");
    await call(s.apiError, 404, "GET", "/api/nothing-here");
    await call(s.apiError, 405, "DELETE", "/api/sessions");

    stream.close();
    const counts = checkEvents(stream.seen);
    for (const e of Object.keys(s.EVENTS)) expect(counts[e], e).toBeGreaterThanOrEqual(1);
    expect(counts["approval.decided"]).toBe(2);
  }, 90_000);

  it("the console's APIs: stats, recent decisions, rules and reload, playground, log head and verify", async () => {
    const stats = await call(s.statsAnswer, 200, "GET", "/api/stats");
    expect(stats.totals.allow).toBeGreaterThan(0);
    expect((await call(s.recentDecisions, 200, "GET", "/api/decisions/recent")).decisions.some((d) => d.decision === "ask")).toBe(true);
    const rules = await call(s.rulesAnswer, 200, "GET", "/api/rules");
    expect(rules.rules.find((r) => r.id === "no-forbidden")?.fired).toBe(1);
    expect((await call(s.rulesReloaded, 200, "POST", "/api/rules/reload", {})).reload.ok).toBe(true);
    writeFileSync(RULES, "rules: [ {");
    try {
      expect((await call(s.rulesReloadFailed, 422, "POST", "/api/rules/reload", {})).reload.ok).toBe(false);
    } finally {
      writeFileSync(RULES, RULES_TEXT);
    }
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "needs-approval" } } };
    const trial = await call(s.playgroundAnswer, 200, "POST", "/api/playground", { message });
    expect(trial).toMatchObject({ decision: "ask", ask: { rule: "ask-echo", remember: "session" } });
    expect((await call(s.playgroundAnswer, 200, "POST", "/api/playground", { message: JSON.stringify({ ...message, params: { name: "echo", arguments: { message: "forbidden" } } }) })).decision).toBe("deny");
    await call(s.apiError, 400, "POST", "/api/playground", { message: "{not json" });
    await call(s.apiError, 400, "POST", "/api/playground", { message, direction: "sideways" });
    const head = await call(s.logHead, 200, "GET", "/api/log/head");
    expect(head.file).toBe(log);
    const verified = await call(s.logVerified, 200, "POST", "/api/log/verify", {});
    expect(verified.result.ok).toBe(true);
    // Requests as the document describes them parse with their schemas too.
    expect(s.playgroundBody.parse({ message }).message).toEqual(message);
    expect(() => s.suspendBody.parse({ mode: "sleep" })).toThrow();
  }, 60_000);
});

describe("the admin API in wrap --admin (with signed links for the approval webhook)", () => {
  const adminFile = join(dir, "wrap-admin.json");
  const { admin, call, until } = client(adminFile);
  let w: Wrapped;
  let hook: Awaited<ReturnType<typeof startAlertReceiver>>;

  beforeAll(async () => {
    process.env.GUARDWIRE_ADMIN_FILE = adminFile;
    hook = await startAlertReceiver();
    w = await connectWrapped(["--rules", RULES, "--log", join(dir, "wrap.ndjson"), "--admin", "127.0.0.1:0", "--approval-webhook", hook.url], [process.execPath, EVERYTHING, "stdio"], plain("wrap-client"));
  }, 60_000);
  afterAll(async () => {
    await w?.client.close().catch(() => {});
    await hook?.close();
  });

  it("its document has the signed links, and every answer parses; a signed link answers JSON as documented", async () => {
    const index = await call(s.apiIndex, 200, "GET", "/api");
    const doc = (await call(s.openApiDocument, 200, "GET", "/api/openapi.json")) as OpenApi;
    checkCovered(doc, ["GET /api", ...index.endpoints]);
    expect(doc.paths["/api/rules"]?.get).toBeDefined();
    expect(doc.paths["/approvals/link/{id}/approve"]?.post).toBeDefined();

    const stream = await events(admin());
    const held = w.client.callTool({ name: "echo", arguments: { message: "needs-approval via link" } });
    await hook.count(1);
    const links = (hook.received[0]?.body as { links: { approve: string } }).links;
    const ap = (await until(s.approvalsList, "/api/approvals", (v) => v.approvals.length === 1)).approvals[0];
    expect(ap?.channels).toContain("webhook");
    const post = async () => {
      const res = await fetch(links.approve, { method: "POST", headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body: "reason=fine" });
      return { status: res.status, data: await res.json() };
    };
    const first = await post();
    expect(first.status).toBe(200);
    expect(s.approvalDecided.parse(first.data).decision).toBe("approved");
    published("ApprovalDecided", first.data);
    await held;
    const again = await post();
    expect(again.status).toBe(409);
    expect(s.linkError.parse(again.data).error.code).toBe("LINK_USED");
    published("LinkError", again.data);

    const list = await until(s.sessionsList, "/api/sessions", (v) => v.sessions.length === 1 && v.sessions[0]?.client?.name === "wrap-client");
    expect(list.sessions[0]?.transport).toBe("stdio");
    await stream.wait("decision", 2);
    await stream.wait("approval.decided");
    stream.close();
    expect(checkEvents(stream.seen)["approval.requested"]).toBe(1);
  }, 60_000);
});
