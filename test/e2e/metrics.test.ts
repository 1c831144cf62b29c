import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectWrapped, EVERYTHING, ROOT, tempDir, type Wrapped } from "../helpers.js";
import { startServeCli, stopChild } from "../support/servers.js";

const RULES = join(ROOT, "test", "fixtures", "rules", "metrics.yaml");

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, sample lines only (`name{a="x",b="y"} value`). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, "$1");
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `want`. */
function total(samples: Sample[], name: string, want: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

async function scrape(admin: { url: string; token: string }): Promise<Sample[]> {
  const res = await fetch(`${admin.url}/metrics`, { headers: { authorization: `Bearer ${admin.token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

/** Decisions reach the feed right after their turn; scrapes until `ready` holds (or 20 s). */
async function scrapeUntil(admin: { url: string; token: string }, ready: (s: Sample[]) => boolean): Promise<Sample[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await scrape(admin);
    if (ready(s) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("GET /metrics on serve's admin listener", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const adminFile = join(dir, "admin.json");
  let serve: ChildProcess;
  let base: string;
  let client: Client;
  const admin = () => JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };

  beforeAll(async () => {
    ({ child: serve, base } = await startServeCli(dir, { rules: RULES, log, extra: ["admin: { listen: 127.0.0.1:0 }"], env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile } }));
    client = new Client({ name: "metrics-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    if (serve) await stopChild(serve);
  });

  it("refuses a scrape without the token", async () => {
    const res = await fetch(`${admin().url}/metrics`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await fetch(`${admin().url}/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("counts decisions by route, protocol, direction, method, tool, decision and rule (the conventions' label names), and times them", async () => {
    const echo = { route: "everything", protocol: "mcp", direction: "outbound", kind: "request", mcp_method_name: "tools/call", rpc_method: "", gen_ai_tool_name: "echo", decision: "allow", mode: "enforce", rule: "" };
    const before = await scrape(admin());
    await client.callTool({ name: "echo", arguments: { message: "hello" } });
    const denied = (await client.callTool({ name: "get-sum", arguments: { a: 500, b: 1 } })) as { isError?: boolean };
    expect(denied.isError).toBe(true);
    const s = await scrapeUntil(admin(), (x) => total(x, "guardwire_decisions_total", { gen_ai_tool_name: "get-sum", direction: "outbound" }) >= 1 && total(x, "mcp_client_operation_duration_seconds_count", { gen_ai_tool_name: "echo" }) >= 1);

    expect(total(s, "guardwire_decisions_total", echo) - total(before, "guardwire_decisions_total", echo)).toBe(1);
    // The counter carries exactly these labels: the histograms' names for method and tool, no `method` or `tool`.
    const counted = s.find((x) => x.name === "guardwire_decisions_total" && x.labels.gen_ai_tool_name === "echo");
    expect(Object.keys(counted?.labels ?? {}).sort()).toEqual(["decision", "direction", "gen_ai_tool_name", "kind", "mcp_method_name", "mode", "protocol", "route", "rpc_method", "rule"]);
    expect(total(s, "guardwire_decisions_total", { gen_ai_tool_name: "get-sum", direction: "outbound", decision: "deny", rule: "deny-big-sum" })).toBe(1);
    expect(total(s, "guardwire_rule_matches_total", { route: "everything", rule: "deny-big-sum", decision: "deny" })).toBe(1);
    // The server's answers are judged too (inbound responses), and the handshake (initialize) is counted.
    expect(total(s, "guardwire_decisions_total", { direction: "inbound", kind: "response", mcp_method_name: "tools/call", gen_ai_tool_name: "echo" })).toBeGreaterThanOrEqual(1);
    expect(total(s, "guardwire_decisions_total", { mcp_method_name: "initialize", direction: "outbound" })).toBe(1);

    // Evaluation time: one observation per judged message.
    const evals = total(s, "guardwire_guardian_evaluation_seconds_count", { route: "everything", protocol: "mcp" });
    expect(evals).toBeGreaterThanOrEqual(total(s, "guardwire_decisions_total", { route: "everything" }) - 2);
    expect(total(s, "guardwire_guardian_evaluation_seconds_sum")).toBeGreaterThan(0);

    // Upstream time (the MCP client side) for the forwarded echo, and the agent-facing time for both calls. Each has its
    // side's transport: the route's server is a stdio child (pipe), the agent came over HTTP (tcp).
    const http = { mcp_method_name: "tools/call", network_transport: "tcp", route: "everything" };
    expect(total(s, "mcp_client_operation_duration_seconds_count", { ...http, network_transport: "pipe", gen_ai_tool_name: "echo", error_type: "" })).toBe(1);
    expect(total(s, "mcp_client_operation_duration_seconds_count", { gen_ai_tool_name: "get-sum" })).toBe(0);
    expect(total(s, "mcp_server_operation_duration_seconds_count", { ...http, gen_ai_tool_name: "echo", error_type: "" })).toBe(1);
    expect(total(s, "mcp_server_operation_duration_seconds_count", { ...http, gen_ai_tool_name: "get-sum", error_type: "tool_error" })).toBe(1);
    const bucket = s.find((x) => x.name === "mcp_client_operation_duration_seconds_bucket" && x.labels.le === "300" && x.labels.gen_ai_tool_name === "echo");
    expect(bucket?.value).toBe(1);

    expect(total(s, "guardwire_sessions_active", { route: "everything" })).toBeGreaterThanOrEqual(1);
    expect(total(s, "guardwire_log_lines_total")).toBeGreaterThanOrEqual(total(s, "guardwire_decisions_total"));
    expect(total(s, "guardwire_log_bytes_total")).toBeGreaterThan(0);
    expect(total(s, "guardwire_log_head_seq")).toBeGreaterThanOrEqual(0);
    expect(total(s, "guardwire_log_writable")).toBe(1);
    expect(total(s, "guardwire_guardian_errors_total")).toBe(0);
    expect(s.some((x) => x.name === "guardwire_info")).toBe(true);
    expect(s.some((x) => x.name === "process_cpu_user_seconds_total")).toBe(true);
  });

  it("counts held approvals and how long they waited", async () => {
    const call = client.callTool({ name: "echo", arguments: { message: "needs-approval metrics" } });
    const held = await scrapeUntil(admin(), (x) => total(x, "guardwire_approvals_held") === 1);
    expect(total(held, "guardwire_approvals_held")).toBe(1);
    const a = admin();
    const list = (await (await fetch(`${a.url}/api/approvals`, { headers: { authorization: `Bearer ${a.token}` } })).json()) as { approvals: { id: string }[] };
    const id = list.approvals[0]?.id as string;
    const res = await fetch(`${a.url}/api/approvals/${id}/approve`, { method: "POST", headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(200);
    await call;
    const s = await scrapeUntil(admin(), (x) => total(x, "guardwire_approvals_total", { outcome: "approved" }) === 1);
    expect(total(s, "guardwire_approvals_held")).toBe(0);
    expect(total(s, "guardwire_approvals_total", { route: "everything", outcome: "approved" })).toBe(1);
    expect(total(s, "guardwire_approval_duration_seconds_count", { route: "everything", outcome: "approved" })).toBe(1);
    // The held request was judged once: its rule and evaluation are not counted again when it is decided.
    expect(total(s, "guardwire_rule_matches_total", { rule: "ask-echo" })).toBe(1);
  });

  it("folds tool names past the cap into `other`", async () => {
    for (let i = 0; i < 105; i++) await client.callTool({ name: `made-up-${i}`, arguments: {} }).catch(() => undefined);
    const s = await scrapeUntil(admin(), (x) => total(x, "guardwire_decisions_total", { gen_ai_tool_name: "other", direction: "outbound" }) >= 1);
    const tools = new Set(s.filter((x) => x.name === "guardwire_decisions_total").map((x) => x.labels.gen_ai_tool_name));
    expect(tools.has("other")).toBe(true);
    expect(tools.has("echo")).toBe(true); // the first ones seen keep their names
    expect(tools.size).toBeLessThanOrEqual(101 + 1); // 100 names, `other`, and "" (messages without a tool)
    expect(total(s, "guardwire_decisions_total", { direction: "outbound", kind: "request", mcp_method_name: "tools/call" })).toBeGreaterThanOrEqual(105);
  }, 60_000);

  it("every metric the Grafana dashboard queries is served", async () => {
    const dashboard = JSON.parse(readFileSync(join(ROOT, "examples", "grafana", "guardwire.json"), "utf8")) as { panels: { targets: { expr: string }[] }[] };
    const used = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/\b(?:guardwire|mcp)_\w+(?=[{[])/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, "")))));
    expect(used.size).toBeGreaterThan(10); // metric names are followed by a selector or a range; label names are not
    const a = admin();
    const text = await (await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${a.token}` } })).text();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    expect([...used].filter((m) => !served.has(m))).toEqual([]);
  });
});

describe("GET /metrics on wrap --admin", () => {
  const dir = tempDir();
  const adminFile = join(dir, "admin.json");
  let w: Wrapped;

  beforeAll(async () => {
    process.env.GUARDWIRE_ADMIN_FILE = adminFile;
    w = await connectWrapped(["--rules", RULES, "--log", join(dir, "decisions.ndjson"), "--admin", "127.0.0.1:0"], [process.execPath, EVERYTHING, "stdio"]);
  }, 60_000);
  afterAll(async () => {
    await w?.client.close().catch(() => {});
  });

  it("serves the same metrics, the route named after the server and the transport a pipe", async () => {
    const admin = JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
    expect((await fetch(`${admin.url}/metrics`)).status).toBe(401);
    await w.client.callTool({ name: "echo", arguments: { message: "over stdio" } });
    const s = await scrapeUntil(admin, (x) => total(x, "mcp_client_operation_duration_seconds_count", { gen_ai_tool_name: "echo" }) >= 1);
    expect(total(s, "guardwire_decisions_total", { route: "server-everything", protocol: "mcp", direction: "outbound", mcp_method_name: "tools/call", gen_ai_tool_name: "echo", decision: "allow" })).toBe(1);
    expect(total(s, "mcp_client_operation_duration_seconds_count", { route: "server-everything", network_transport: "pipe", gen_ai_tool_name: "echo" })).toBe(1);
    expect(total(s, "guardwire_sessions_active", { route: "server-everything" })).toBe(1);
    expect(total(s, "guardwire_log_lines_total")).toBeGreaterThan(0);
  });
});
