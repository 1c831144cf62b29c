import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import type { UpstreamFactory } from "../../src/transports/types.js";
import { EVERYTHING } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";
import { openStream as open } from "../support/sse-stream.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

async function initialize(url: string, version = "2025-06-18"): Promise<string> {
  const headers = { ...HEADERS, "mcp-protocol-version": version };
  const x = await open(url, "POST", headers, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  x.res.resume();
  const sid = x.res.headers["mcp-session-id"] as string;
  const n = await open(url, "POST", { ...headers, "mcp-session-id": sid }, { jsonrpc: "2.0", method: "notifications/initialized" });
  n.res.resume();
  return sid;
}

const longCall = (id: number, seconds: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "trigger-long-running-operation", arguments: { duration: seconds, steps: 5 }, _meta: { progressToken: `t${id}` } },
});

describe("serve: streams", () => {
  let up: Running;
  let p: InProcessProxy;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    p = await startProxy([
      { name: "http", path: "/mcp/http", upstream: streamableHttpUpstream({ url: up.url }) },
      { name: "stdio", path: "/mcp/stdio", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) },
    ]);
  });
  afterAll(async () => {
    await p?.close();
    await up?.stop();
  });

  for (const route of ["http", "stdio"]) {
    it(`${route}: progress travels on the POST stream of its request, then the answer, then the stream ends`, async () => {
      const url = `${p.base}/mcp/${route}`;
      const sid = await initialize(url);
      const x = await open(url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(7, 0.5));
      expect(x.res.headers["content-type"]).toBe("text/event-stream");
      const seen: unknown[] = [];
      for (let e = await x.next(); e; e = await x.next()) seen.push(JSON.parse(e.data));
      const progress = seen.filter((m) => (m as { method?: string }).method === "notifications/progress");
      expect(progress.length).toBe(5);
      expect(seen.at(-1)).toMatchObject({ id: 7, result: { content: [{ type: "text" }] } });
      expect(x.events.every((e) => e.id !== undefined)).toBe(true);
    });
  }

  it("a cut stream is resumed with GET + Last-Event-ID: what followed is replayed, then the answer", async () => {
    const url = `${p.base}/mcp/stdio`;
    const sid = await initialize(url);
    const x = await open(url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(8, 1));
    const first = await x.next();
    expect(first?.id).toBeDefined();
    x.close();
    await new Promise((r) => setTimeout(r, 600));
    const g = await open(url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
    expect(g.res.statusCode).toBe(200);
    const seen: { method?: string; id?: number }[] = [];
    for (let e = await g.next(); e; e = await g.next()) seen.push(JSON.parse(e.data) as { method?: string; id?: number });
    // Nothing lost, nothing twice: what came before the cut plus what the resumed stream replayed is every step once.
    const before = x.events.map((e) => JSON.parse(e.data) as { method?: string; params?: { progress?: number } });
    const steps = [...before, ...seen].filter((m) => m.method === "notifications/progress").map((m) => (m as { params: { progress: number } }).params.progress);
    expect(steps).toEqual([1, 2, 3, 4, 5]);
    expect(seen.at(-1)).toMatchObject({ id: 8, result: {} });
  });

  it("a cut batch with an id twice, resumed, its session deleted before the answer: one -32052 for each request on the resumed stream", async () => {
    const url = `${p.base}/mcp/stdio`;
    // Batches are 2025-03-26's (2025-06-18 has none).
    const sid = await initialize(url, "2025-03-26");
    const long = { ...longCall(0, 5), id: "dup" };
    const echo = { jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "echo", arguments: { message: "again" } } };
    const x = await open(url, "POST", { ...HEADERS, "mcp-protocol-version": "2025-03-26", "mcp-session-id": sid }, [long, echo]);
    const first = await x.next();
    expect(first?.id).toBeDefined();
    x.close();
    await new Promise((r) => setTimeout(r, 300));
    const g = await open(url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
    expect(g.res.statusCode).toBe(200);
    // A stdio server's request cannot be aborted: the batch still waits when the session ends.
    expect((await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(200);
    const seen: { id?: unknown; error?: { code: number } }[] = [];
    for (let e = await g.next(); e; e = await g.next()) seen.push(JSON.parse(e.data) as { id?: unknown; error?: { code: number } });
    const answers = seen.filter((m) => m.id === "dup");
    expect(answers).toHaveLength(2);
    expect(answers.every((m) => m.error?.code === -32052)).toBe(true);
  });

  it("replay logs are bounded in characters: a resume from before what was let go is refused, not served with a gap", async () => {
    // A budget of 400 characters: the stream's seven events (about 60, 5 × 107 and 138 characters) do not all fit.
    const small = await startProxy([{ name: "stdio", path: "/mcp/stdio", upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }) }], { replayChars: 400 });
    try {
      const url = `${small.base}/mcp/stdio`;
      const sid = await initialize(url);
      const x = await open(url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(11, 1));
      const first = await x.next();
      x.close();
      // The rest of the stream (four more steps and the answer) is kept only as far as the budget allows.
      await new Promise((r) => setTimeout(r, 1500));
      const g = await open(url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
      expect(g.res.statusCode).toBe(404);
      g.res.resume();
      // The session itself is fine: the next call works.
      const y = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": sid }, body: JSON.stringify({ jsonrpc: "2.0", id: 12, method: "tools/list" }) });
      const text = await y.text();
      const answer: unknown = JSON.parse(text.startsWith("{") ? text : (/data: (.*)/.exec(text)?.[1] ?? "null"));
      expect(answer).toMatchObject({ id: 12, result: { tools: expect.any(Array) } });
    } finally {
      await small.close();
    }
  });

  it("an agent that disconnects mid-stream releases the upstream stream (the request is let go, and logged)", async () => {
    const url = `${p.base}/mcp/http`;
    const sid = await initialize(url);
    const x = await open(url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(9, 2));
    await x.next();
    x.close();
    await expect
      .poll(() => p.log().some((l) => l.route === "http" && l.id === 9 && String(l.message).includes("the agent stopped listening")), { timeout: 5000 })
      .toBe(true);
  });
});

describe("serve: a slow reader gets backpressure, not unbounded buffering", () => {
  it("the upstream is paused while the agent does not read, and resumed when it does", async () => {
    const calls: string[] = [];
    let sent = 0;
    let paused = false;
    // An upstream that floods notifications as fast as it is allowed to: stands in for a chatty server.
    const flood: UpstreamFactory = (sink) => {
      const pump = () => {
        while (!paused && sent < 20_000) {
          sink.frame({ text: JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(2000) } }) });
          sent++;
          if (sent % 100 === 0) return void setImmediate(pump);
        }
      };
      return {
        send(text, info) {
          const m = JSON.parse(text) as { id?: number; method?: string };
          if (m.method === "initialize") {
            sink.frame({ text: JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "flood", version: "1" } } }), stream: info?.stream ?? null });
          }
        },
        openStandalone: () => setImmediate(pump),
        pause: () => void ((paused = true), calls.push("pause")),
        resume: () => void ((paused = false), calls.push("resume"), setImmediate(pump)),
        close: async () => void (paused = true),
      };
    };
    const p = await startProxy([{ name: "flood", path: "/mcp/flood", upstream: flood }], { rules: undefined });
    try {
      const url = `${p.base}/mcp/flood`;
      const sid = await initialize(url);
      const g = await open(url, "GET", { accept: "text/event-stream", "mcp-session-id": sid });
      g.res.pause();
      // Socket buffers absorb a few MB; then the proxy's writes stop draining and the upstream stays paused.
      let last = -1;
      await expect
        .poll(
          () => {
            const still = paused && sent === last;
            last = sent;
            return still;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBe(true);
      expect(sent).toBeLessThan(20_000);
      expect(calls).toContain("pause");
      g.res.resume();
      await expect.poll(() => sent, { timeout: 15_000 }).toBe(20_000);
      expect(calls).toContain("resume");
      g.close();
    } finally {
      await p.close();
    }
  });
});
