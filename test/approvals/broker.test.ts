import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { checkAdminListen, createAdminServer, parseListen } from "../../src/admin/server.js";
import { adminRoutes } from "../../src/cli/admin-listener.js";
import { DecisionFeed } from "../../src/observe/feed.js";
import { isLoopbackHost } from "../../src/agent-keys.js";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { ApprovalBroker, type HoldContext } from "../../src/approvals/broker.js";
import type { ApprovalAsk } from "../../src/guardian/verdict.js";

const ctx = (over: Partial<HoldContext> = {}): HoldContext => ({ session: "s1", route: "r", transport: "stdio", agent: null, server: "srv", method: "tools/call", tool: "echo", ...over });
const ask = (over: Partial<ApprovalAsk> = {}): ApprovalAsk => ({
  rule: "ask-echo", prompt: "ok?", timeoutMs: 60_000, onTimeout: "deny", remember: "session", argsDigest: "a".repeat(64), ruleset: "h1", ...over,
});
const held = (r: ReturnType<ApprovalBroker["request"]>) => {
  if ("limit" in r) throw new Error(`refused: ${r.limit}`);
  return r;
};

describe("the approval broker", () => {
  it("bounds held messages per session and per process", () => {
    const b = new ApprovalBroker({ maxPerSession: 2, maxTotal: 3 });
    held(b.request(ctx(), ask(), ["admin"]));
    held(b.request(ctx(), ask(), ["admin"]));
    expect(b.request(ctx(), ask(), ["admin"])).toEqual({ limit: "session", max: 2 });
    held(b.request(ctx({ session: "s2" }), ask(), ["admin"]));
    expect(b.request(ctx({ session: "s3" }), ask(), ["admin"])).toEqual({ limit: "process", max: 3 });
    b.shutdown();
    expect(b.list()).toEqual([]);
  });

  it("remembers an approval only for the same binding, arguments and rules", async () => {
    const b = new ApprovalBroker();
    const r = held(b.request(ctx(), ask(), ["admin"]));
    expect(b.decide(r.held.id, { approve: true, channel: "api", remember: "session" })).toMatchObject({ ok: true });
    await expect(r.outcome).resolves.toMatchObject({ outcome: "approved", remember: "session" });
    expect(b.coveredBy(ctx(), ask())).toBe(r.held.id);
    expect(b.coveredBy(ctx(), ask({ argsDigest: "b".repeat(64) }))).toBeNull();
    expect(b.coveredBy(ctx(), ask({ ruleset: "h2" }))).toBeNull();
    expect(b.coveredBy(ctx({ session: "s2" }), ask())).toBeNull();
    expect(b.coveredBy(ctx({ tool: "other" }), ask())).toBeNull();
    expect(b.coveredBy(ctx({ route: "r2" }), ask())).toBeNull();
    b.endSession("s1");
    expect(b.coveredBy(ctx(), ask())).toBeNull();
  });

  it("always lasts across sessions until it expires; never wider than the rule allows", async () => {
    let now = 1_000;
    const b = new ApprovalBroker({ now: () => now, rememberAlwaysMs: 500 });
    const r = held(b.request(ctx(), ask({ remember: "always" }), ["admin"]));
    b.decide(r.held.id, { approve: true, channel: "api", remember: "always" });
    expect(b.coveredBy(ctx({ session: "s9" }), ask({ remember: "always" }))).toBe(r.held.id);
    now += 501;
    expect(b.coveredBy(ctx({ session: "s9" }), ask({ remember: "always" }))).toBeNull();
    const once = held(b.request(ctx(), ask({ remember: "once" }), ["admin"]));
    expect(b.decide(once.held.id, { approve: true, channel: "api", remember: "session" })).toMatchObject({ ok: false, code: "BAD_SCOPE" });
    expect(b.decide("ap-nope", { approve: false, channel: "api" })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    b.shutdown();
    await expect(once.outcome).resolves.toMatchObject({ outcome: "shutdown" });
    expect(b.request(ctx(), ask(), ["admin"])).toMatchObject({ limit: "process" });
  });

  it("times out, and emits requested and decided", async () => {
    const b = new ApprovalBroker();
    const events: string[] = [];
    b.on("requested", (h) => events.push(`requested ${h.id}`));
    b.on("decided", (h, o) => events.push(`decided ${h.id} ${o.outcome}`));
    const r = held(b.request(ctx(), ask({ timeoutMs: 20 }), ["admin"]));
    await expect(r.outcome).resolves.toMatchObject({ outcome: "timeout" });
    expect(events).toEqual([`requested ${r.held.id}`, `decided ${r.held.id} timeout`]);
  });
});

describe("the admin API", () => {
  const broker = new ApprovalBroker();
  const feed = new DecisionFeed();
  const server = createAdminServer({ token: "s3cret-token", version: "test", routes: adminRoutes({ version: "test", broker, feed }) });
  const ready = new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  afterAll(() => {
    broker.shutdown();
    server.close();
  });
  /** The admin event stream, read as it comes. */
  const stream = async (path: string) => {
    const ac = new AbortController();
    const res = await fetch((await ready) + path, { headers: { authorization: "Bearer s3cret-token" }, signal: ac.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const until = async (re: RegExp) => {
      while (!re.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        seen += value;
      }
    };
    return { type: res.headers.get("content-type"), until, seen: () => seen, close: () => ac.abort() };
  };
  const call = async (method: string, path: string, body?: string, token = "s3cret-token") => {
    const res = await fetch((await ready) + path, { method, headers: { authorization: `Bearer ${token}` }, body });
    return { status: res.status, body: (await res.json()) as { error?: { code: string } } & Record<string, unknown> };
  };

  it("refuses a wrong token, unknown paths and methods, bad bodies — each with a stable code", async () => {
    expect(await call("GET", "/api/approvals", undefined, "wrong")).toMatchObject({ status: 401, body: { error: { code: "UNAUTHORIZED" } } });
    expect(await call("GET", "/api/nope")).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await call("DELETE", "/api/approvals")).toMatchObject({ status: 405, body: { error: { code: "METHOD_NOT_ALLOWED" } } });
    const r = held(broker.request(ctx(), ask(), ["admin"]));
    expect(await call("POST", `/api/approvals/${r.held.id}/approve`, "{nope")).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST" } } });
    expect(await call("POST", `/api/approvals/${r.held.id}/approve`, '{"remember":"forever"}')).toMatchObject({ status: 400 });
    expect(await call("POST", `/api/approvals/${r.held.id}/deny`, "x".repeat(70_000))).toMatchObject({ status: 413, body: { error: { code: "TOO_LARGE" } } });
    expect(await call("GET", `/api/approvals/${r.held.id}`)).toMatchObject({ status: 200, body: { approval: { id: r.held.id, argsDigest: "a".repeat(64) } } });
    expect(await call("POST", `/api/approvals/${r.held.id}/deny`, '{"reason":"no"}')).toMatchObject({ status: 200, body: { decision: "refused" } });
    await expect(r.outcome).resolves.toMatchObject({ outcome: "refused", channel: "api", reason: "no" });
  });

  it("streams approval.requested and approval.decided as server-sent events", async () => {
    const events = await stream("/api/events");
    expect(events.type).toBe("text/event-stream");
    await events.until(/guardwire admin events/);
    const r = held(broker.request(ctx(), ask(), ["admin"]));
    await events.until(/event: approval.requested/);
    broker.decide(r.held.id, { approve: true, channel: "api", by: "dana" });
    await events.until(/event: approval.decided\ndata: .*\n\n/);
    const decided = /event: approval.decided\ndata: (.*)\n/.exec(events.seen())?.[1] as string;
    expect(JSON.parse(decided)).toMatchObject({ approval: { id: r.held.id }, outcome: { outcome: "approved", by: "dana" } });
    events.close();
  });

  it("streams every decision that goes through the feed's tap, after the log got it; ?only= filters by event", async () => {
    const written: unknown[] = [];
    const sink = feed.tap({ write: (d) => written.push(d) });
    const events = await stream("/api/events?only=decision");
    await events.until(/guardwire admin events/);
    held(broker.request(ctx(), ask(), ["admin"])); // an approval event, filtered out by ?only=decision
    const d = { session: "s-1", route: "r", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request", id: 1, method: "tools/call", tool: "echo", agent: null, decision: "deny", mode: "enforce", rules: ["no-echo"], reasonCode: ["X"], message: "m", evalUs: 3, digest: null } satisfies DecisionInput;
    sink.write(d);
    await events.until(/event: decision\ndata: .*\n\n/);
    expect(written).toEqual([d]);
    expect(events.seen()).not.toMatch(/approval\./);
    expect(JSON.parse(/event: decision\ndata: (.*)\n/.exec(events.seen())?.[1] as string)).toMatchObject({ ...d, time: expect.stringMatching(/^\d{4}-/) });
    events.close();
  });

  it("a non-loopback listen without a token is refused at start", () => {
    expect(() => checkAdminListen("0.0.0.0", undefined)).toThrow(/not loopback: give it a token/);
    expect(() => checkAdminListen("0.0.0.0", "t")).not.toThrow();
    expect(() => checkAdminListen("127.0.0.1", undefined)).not.toThrow();
    // One loopback test for every listener (admin, serve, guardian): 127/8, ::1 bare or bracketed, localhost.
    for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"]) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["0.0.0.0", "128.0.0.1", "127.0.0.1.nip.io", "::", "localhost.example", "10.0.0.1"]) expect(isLoopbackHost(h), h).toBe(false);
    expect(parseListen("[::1]:7071")).toEqual({ host: "::1", port: 7071 });
    expect(parseListen("7071")).toEqual({ host: "127.0.0.1", port: 7071 });
    expect(() => parseListen("host")).toThrow(/HOST:PORT/);
  });
});
