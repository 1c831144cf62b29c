import { mkdtempSync, readdirSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileDetector, MessageScan } from "../../src/guardian/detectors/index.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { evaluate } from "../../src/guardian/evaluate.js";
import { loadRules } from "../../src/guardian/rules/load.js";
import { PinFile, SlidingWindowLimiter } from "../../src/guardian/state.js";
import { buildAosRequest } from "../../src/guardian/aos.js";
import { readVerdict } from "../../src/guardian/verdict.js";
import { cpuMs } from "../support/cpu.js";

const owner = { pid: process.pid, alive: () => true };

const detect = (name: string | { url: { allow?: string[]; deny?: string[] } }, message: Record<string, unknown>) => {
  const d = compileDetector(name);
  if (typeof d === "string") throw new Error(d);
  return new MessageScan(message, "srv", null).run(d);
};
const args = (a: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: a } });
const rules = (yaml: string) => {
  const { ruleSet, problems } = loadRules([{ file: "t.yaml", text: yaml }]);
  if (!ruleSet) throw new Error(JSON.stringify(problems));
  return ruleSet;
};

describe("detections carry type and exact location", () => {
  it("secrets: type, JSON path, start and end", () => {
    const [d] = detect("secrets", args({ body: "x AKIA4QWERTYUIOP2ZXCV y" }));
    expect(d).toEqual({ type: "secrets.aws_access_key", path: ["params", "arguments", "body"], start: 2, end: 22 });
  });

  it("pii subtypes, with the Luhn and IBAN checks", () => {
    const types = (text: string) => detect("pii", args({ text })).map((d) => d.type);
    expect(types("card 4111 1111 1111 1111")).toEqual(["pii.credit_card"]);
    expect(types("card 4111 1111 1111 1112")).toEqual([]);
    expect(types("iban GB82 WEST 1234 5698 7654 32")).toEqual(["pii.iban"]);
    expect(types("iban GB82 WEST 1234 5698 7654 33")).toEqual([]);
    expect(types("ssn 123-45-6789, mail ana@example.org, ip 8.8.4.4")).toEqual(["pii.email", "pii.ssn", "pii.ip"]);
    expect(detect("pii.email", args({ text: "ana@example.org 123-45-6789" })).map((d) => d.type)).toEqual(["pii.email"]);
  });

  it("url: deny and allow lists by host", () => {
    const msg = args({ a: "see https://api.evil.com/x and https://docs.example.com/y and https://other.org" });
    expect(detect({ url: { deny: ["*.evil.com"] } }, msg).map((d) => d.type)).toEqual(["url.denied"]);
    expect(detect({ url: { allow: ["*.example.com"] } }, msg).map((d) => d.type)).toEqual(["url.not_allowed", "url.not_allowed"]);
  });

  it("redact replaces exactly the detected spans", () => {
    const rs = rules(`
name: r
rules:
  - { id: r, detect: [secrets, pii.email], decision: modify, modify: [{ redact: detections, with: "<{type}>" }] }
`);
    const d = evaluate("mcp", args({ a: "k=AKIA4QWERTYUIOP2ZXCV, mail a@b.io; ghp_abcdefghijklmnopqrstuvwxyz0123456789!", n: 5 }), { direction: "outbound" }, rs);
    expect((d.modified?.params as { arguments: unknown }).arguments).toEqual({ a: "k=<secrets.aws_access_key>, mail <pii.email>; <secrets.github_token>!", n: 5 });
  });

  it("detectors run at most once per message, however many rules ask", () => {
    let runs = 0;
    const d = compileDetector("secrets");
    if (typeof d === "string") throw new Error(d);
    const counting = { key: d.key, run: (s: MessageScan) => (runs++, d.run(s)) };
    const scan = new MessageScan(args({ a: "AKIA4QWERTYUIOP2ZXCV" }), "s", null);
    scan.run(counting);
    scan.run(counting);
    expect(runs).toBe(1);
  });
});

describe("linear time", () => {
  it("scans a 1 MB tool result with every detector in well under a second", () => {
    const rs = rules(`
name: all
rules:
  - { id: all, detect: [secrets, pii, prompt_injection, tool_poisoning, sensitive_path, dangerous_command, { url: { deny: ["*.evil.com"] } }], decision: deny }
`);
    const chunk = "Lorem ipsum dolor sit amet, consectetur 1234 adipiscing elit. https://example.com/page?x=1 ~/notes.txt rm -rf ./tmp @ ";
    const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
    const msg = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } };
    const t = cpuMs();
    evaluate("mcp", msg, { direction: "inbound" }, rs);
    // A sanity bound against super-linear behaviour; the speed figure itself is in the benchmark.
    expect(cpuMs() - t).toBeLessThan(3000);
  });

  it("a rule author's regex cannot backtrack catastrophically: matches() runs on RE2", () => {
    const rs = rules(`
name: redos
rules:
  - { id: evil, when: 'text.matches("(a+)+$")', decision: deny }
`);
    const t = cpuMs();
    const d = evaluate("mcp", args({ s: "a".repeat(5000) + "!" }), { direction: "outbound" }, rs);
    expect(d.decision).toBe("allow");
    expect(cpuMs() - t).toBeLessThan(1000);
  });

  it("refuses patterns RE2 cannot run (backreferences, lookaround) at load", () => {
    const { problems } = loadRules([{ file: "r.yaml", text: "name: r\nrules:\n  - { id: a, when: 'text.matches(\"(a)\\\\1\")', decision: deny }\n  - { id: b, decision: modify, modify: [{ replace: '$..x', pattern: '(?=x)', with: y }] }\n" }]);
    expect(problems.map((p) => p.path)).toEqual(["rules[0].when", "rules[1].modify[0]"]);
  });
});

describe("flow state: labels, limits, list filtering, pins", () => {
  const call = (g: EmbeddedGuardian, name: string, session = "s1", a: Record<string, unknown> = {}) => {
    const msg = args(a);
    (msg.params as { name: string }).name = name;
    const req = buildAosRequest("protocols/MCP", msg, { direction: "outbound", session });
    return readVerdict(req, g.call(req), msg);
  };

  it("limit: the rule fires once the count in the window is exceeded, per session", () => {
    let now = 0;
    const g = new EmbeddedGuardian(rules("name: l\nrules:\n  - { id: rate, match: { tool: search }, limit: { count: 2, per: 1m, key: session }, decision: deny, reasonCode: RATE_LIMITED }\n"), { now: () => new Date(now) });
    expect([1, 2, 3].map(() => call(g, "search").decision)).toEqual(["allow", "allow", "deny"]);
    expect(call(g, "search", "s2").decision).toBe("allow");
    now = 61_000;
    expect(call(g, "search").decision).toBe("allow");
    const l = new SlidingWindowLimiter();
    expect([0, 10, 20].map((t) => l.hit("k", 15, t))).toEqual([1, 2, 2]);
  });

  it("list filtering: a tool denied unconditionally disappears from tools/list, and the filtering is a logged modify", () => {
    const g = new EmbeddedGuardian(rules("name: f\nrules:\n  - { id: no-shell, match: { method: tools/call, tool: '*shell*' }, decision: deny }\n  - { id: cond, match: { tool: read }, when: 'args.x == 1', decision: deny }\n"));
    const msg = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "run_shell" }, { name: "read" }, { name: "write" }] } };
    const req = buildAosRequest("protocols/MCP", msg, { direction: "inbound", request: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    const v = readVerdict(req, g.call(req), msg);
    expect(v).toMatchObject({ decision: "modify", rules: ["no-shell"], reasonCode: ["TOOL_FILTERED"] });
    expect(v.modified).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "read" }, { name: "write" }] } });
  });

  it("pins persist in a state file; a corrupt file is reported, moved aside and rebuilt, never trusted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pins-"));
    const file = join(dir, "pins.json");
    const rs = rules("name: p\nrules:\n  - { id: pin, match: { method: tools/list }, detect: [tool_changed], decision: deny }\n");
    const list = (description: string) => {
      const msg = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "t", description }] } };
      return { msg, ctx: { direction: "inbound" as const, server: { name: "srv" }, request: { jsonrpc: "2.0", id: 1, method: "tools/list" } } };
    };
    const judge = (g: EmbeddedGuardian, description: string) => {
      const { msg, ctx } = list(description);
      const req = buildAosRequest("protocols/MCP", msg, ctx);
      return readVerdict(req, g.call(req), msg).decision;
    };
    const first = new PinFile(file, { owner });
    expect(judge(new EmbeddedGuardian(rs, { pins: first }), "v1")).toBe("allow");
    await first.flush();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ version: 2, servers: { srv: { t: { fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), definition: { name: "t", description: "v1" } } } } });
    // A new process reads the pins: the changed tool is caught.
    expect(judge(new EmbeddedGuardian(rs, { pins: new PinFile(file, { owner }) }), "v2")).toBe("deny");
    writeFileSync(file, "{ this is not json");
    const corrupt = new PinFile(file, { owner });
    expect(corrupt.problem).toMatch(/corrupt.*moved to .*pins will be rebuilt/);
    expect(readdirSync(dir).some((f) => f.startsWith("pins.json.corrupt-"))).toBe(true);
    expect(judge(new EmbeddedGuardian(rs, { pins: corrupt }), "v3")).toBe("allow");
  });

  it("session.counts counts requests by method and tool", () => {
    const g = new EmbeddedGuardian(rules("name: c\nrules:\n  - { id: third, match: { tool: x }, when: '\"tool:x\" in session.counts && session.counts[\"tool:x\"] >= 2.0', decision: deny }\n"));
    expect([1, 2, 3].map(() => call(g, "x").decision)).toEqual(["allow", "allow", "deny"]);
  });

  /** A fetched result labels the session; a send in a labelled session is denied. */
  const FLOW = `
name: flow
rules:
  - { id: taint, match: { direction: inbound, tool: fetch }, decision: allow, label: untrusted }
  - { id: toxic, match: { direction: outbound, tool: send }, when: '"untrusted" in session.labels', decision: deny }
`;

  it("labels persist per session and drive flow rules", () => {
    const g = new EmbeddedGuardian(rules(FLOW));
    expect(call(g, "send").decision).toBe("allow");
    const res = { jsonrpc: "2.0", id: 1, result: { content: [] } };
    const req = buildAosRequest("protocols/MCP", res, { direction: "inbound", session: "s1", request: args({}) && { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch" } } });
    g.call(req);
    expect(call(g, "send").decision).toBe("deny");
    expect(call(g, "send", "other-session").decision).toBe("allow");
  });

  it("a session's end forgets its labels and counts, and only that session's", () => {
    const g = new EmbeddedGuardian(rules(FLOW));
    const fetched = (session: string) => {
      const res = { jsonrpc: "2.0", id: 1, result: { content: [] } };
      g.call(buildAosRequest("protocols/MCP", res, { direction: "inbound", session, request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch" } } }));
    };
    fetched("s1");
    fetched("s2");
    expect(g.sessionsHeld).toBe(2);
    expect([call(g, "send", "s1").decision, call(g, "send", "s2").decision]).toEqual(["deny", "deny"]);
    g.endSession("s1");
    expect(g.sessionsHeld).toBe(1);
    // A later message under the ended id starts afresh; the other session keeps its label.
    expect([call(g, "send", "s1").decision, call(g, "send", "s2").decision]).toEqual(["allow", "deny"]);
  });
});
