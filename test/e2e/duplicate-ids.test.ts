import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { readLog, tempDir } from "../helpers.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";
import { RawWrap } from "./raw-wrap.js";

type Msg = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number; data?: unknown } };

/** A request that reuses the id of one still pending is refused once; the pending one still gets its own answer. */
describe("duplicate request ids over stdio (wrap)", () => {
  const log = join(tempDir(), "d.ndjson");
  const w = new RawWrap(["--log", log, "--rules", join(import.meta.dirname, "..", "fixtures", "rules", "acceptance.yaml")]);
  afterAll(() => w.close());

  it("a reused pending id: the duplicate gets one -32600, the first its real answer", async () => {
    const from = w.mark();
    w.write(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "sleep", params: { ms: 3000 } }) + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }) + "\n");
    expect(await w.reply(7, 10_000, from)).toMatchObject({ error: { code: -32600 } });
    await w.next((m) => (m as Msg).id === 7 && (m as Msg).result !== undefined, 10_000, from);
    const answers = w.lines.slice(from).filter((m) => (m as Msg).id === 7);
    expect(answers).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32600 }) }), expect.objectContaining({ result: { slept: 3000 } })]);
  });

  it("a batch with an id twice, or with the id of a pending request: one answer for each element, the pending one still answered", async () => {
    const from = w.mark();
    w.send({ jsonrpc: "2.0", id: 20, method: "sleep", params: { ms: 3000 } });
    w.send([
      { jsonrpc: "2.0", id: 21, method: "a" },
      { jsonrpc: "2.0", id: 21, method: "b" },
      { jsonrpc: "2.0", id: 20, method: "c" },
    ]);
    const batch = (await w.next((m) => Array.isArray(m), 10_000, from)) as Msg[];
    expect(batch).toHaveLength(3);
    expect(batch.filter((m) => m.id === 21 && m.result)).toHaveLength(1);
    expect(batch.filter((m) => m.id === 21 && m.error?.code === -32600)).toHaveLength(1);
    expect(batch.filter((m) => m.id === 20)).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32600 }) })]);
    expect(await w.next((m) => (m as Msg).id === 20 && (m as Msg).result !== undefined, 10_000, from)).toMatchObject({ result: { slept: 3000 } });
  });

  it("a server that reuses the id of its own pending request: it is refused once, and the first is still passed on and answered", async () => {
    const from = w.mark();
    w.send({ jsonrpc: "2.0", id: 30, method: "ask-client", params: { text: "one" } });
    const ask = (await w.next((m) => (m as Msg).method === "sampling/createMessage", 10_000, from)) as Msg;
    expect(ask.id).toBe("srv-1");
    // The server asks again with the same id while the first is pending at the agent: guardwire answers it -32600
    // (the test server echoes that answer into its reply to request 31).
    w.send({ jsonrpc: "2.0", id: 31, method: "ask-client", params: { text: "two" } });
    expect(await w.reply(31, 10_000, from)).toMatchObject({ result: { clientSaid: { code: -32600 } } });
    expect(w.lines.slice(from).filter((m) => (m as Msg).method === "sampling/createMessage")).toHaveLength(1);
    // The agent's answer to the first still correlates (the server passes it to its latest asker, 31, already answered:
    // guardwire drops that as unsolicited rather than answering 31 twice).
    w.send({ jsonrpc: "2.0", id: "srv-1", result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } });
    w.send({ jsonrpc: "2.0", id: 32, method: "after" });
    await w.reply(32, 10_000, from);
    expect(w.lines.slice(from).filter((m) => (m as Msg).id === 31)).toHaveLength(1);
    await expect.poll(() => readLog(log).filter((l) => l.direction === "inbound" && (l.reasonCode as string[]).includes("DUPLICATE_ID")).length).toBe(1);
    expect(readLog(log).filter((l) => l.direction === "outbound" && (l.reasonCode as string[]).includes("DUPLICATE_ID"))).toHaveLength(3);
  });

  it("a batch member the agent cancels: the rest of the batch is answered, the cancelled one once (-32054), a late answer dropped", async () => {
    const from = w.mark();
    w.send([
      { jsonrpc: "2.0", id: 50, method: "hang" },
      { jsonrpc: "2.0", id: 51, method: "sleep", params: { ms: 800 } },
      { jsonrpc: "2.0", id: 52, method: "ping" },
    ]);
    // The server never answers 50 and answers 51 late: the cancellations must free the batch, not wait on them.
    w.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 50, reason: "gave up" } });
    w.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 51, reason: "gave up" } });
    const batch = (await w.next((m) => Array.isArray(m), 10_000, from)) as Msg[];
    expect(batch.map((m) => m.id).sort()).toEqual([50, 51, 52]);
    expect(batch.filter((m) => m.error?.code === -32054).map((m) => m.id).sort()).toEqual([50, 51]);
    expect(batch.find((m) => m.id === 52)?.result).toBeDefined();
    // The server's late answer to 51 is not a second answer.
    await expect.poll(() => readLog(log).filter((l) => (l.reasonCode as string[]).includes("REQUEST_CANCELLED")).length, { timeout: 5000 }).toBe(1);
    w.send({ jsonrpc: "2.0", id: 53, method: "after" });
    await w.reply(53, 10_000, from);
    expect(w.lines.slice(from).filter((m) => !Array.isArray(m) && [50, 51, 52].includes((m as Msg).id as number))).toEqual([]);
  });
});

const JSON_AND_SSE = "application/json, text/event-stream";

function events(text: string): Msg[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as Msg);
}

describe("duplicate request ids over serve (raw HTTP, ids chosen)", () => {
  let up: Running;
  let p: InProcessProxy;
  let route: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    p = await startProxy([{ name: "everything", path: "/mcp/everything", upstream: streamableHttpUpstream({ url: up.url }) }]);
    route = `${p.base}/mcp/everything`;
    const init = await fetch(route, {
      method: "POST",
      headers: { "content-type": "application/json", accept: JSON_AND_SSE },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    expect(init.status).toBe(200);
    await init.text();
    headers = { "content-type": "application/json", accept: JSON_AND_SSE, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-03-26" };
    await (await fetch(route, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  }, 30_000);
  afterAll(async () => {
    await p?.close();
    await up?.stop();
  });

  const post = async (body: unknown) => {
    const r = await fetch(route, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: (r.headers.get("content-type") ?? "").startsWith("text/event-stream") ? events(text) : (JSON.parse(text) as Msg | Msg[]) };
  };

  it("a second POST with a pending id is refused once, on its own response; the first still gets its answer on its own", async () => {
    const long = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "trigger-long-running-operation", arguments: { duration: 8, steps: 8 }, _meta: { progressToken: "p7" } } };
    // The first progress switches the first POST to SSE: once its headers are here, request 7 is pending.
    const first = await fetch(route, { method: "POST", headers, body: JSON.stringify(long) });
    expect(first.headers.get("content-type")).toContain("text/event-stream");

    const dup = await post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "again" } } });
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ id: 7, error: { code: -32600 } });

    // In a batch: against the pending id, and twice within the batch. Each element gets one answer.
    const batch = await post([
      { jsonrpc: "2.0", id: 7, method: "ping" },
      { jsonrpc: "2.0", id: 9, method: "ping" },
      { jsonrpc: "2.0", id: 9, method: "ping" },
    ]);
    const replies = (Array.isArray(batch.body) ? batch.body : [batch.body]) as Msg[];
    expect(replies).toHaveLength(3);
    expect(replies.filter((m) => m.id === 7)).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32600 }) })]);
    expect(replies.filter((m) => m.id === 9 && m.result)).toHaveLength(1);
    expect(replies.filter((m) => m.id === 9 && m.error?.code === -32600)).toHaveLength(1);

    const stream = events(await first.text());
    const answers = stream.filter((m) => m.id === 7);
    expect(answers).toHaveLength(1);
    expect(JSON.stringify(answers[0]?.result)).toContain("Long running operation completed");
    expect(stream.filter((m) => m.method === "notifications/progress").length).toBeGreaterThan(0);

    // The id is free again once answered.
    expect((await post({ jsonrpc: "2.0", id: 7, method: "ping" })).body).toMatchObject({ id: 7, result: {} });
    expect(p.log().filter((l) => (l.reasonCode as string[]).includes("DUPLICATE_ID"))).toHaveLength(3);
  }, 30_000);

  it("a batch with an id twice, its session deleted before it is answered: one answer for each element, the repeated id twice", async () => {
    const open = await fetch(route, {
      method: "POST",
      headers: { "content-type": "application/json", accept: JSON_AND_SSE },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    await open.text();
    const own = { ...headers, "mcp-session-id": open.headers.get("mcp-session-id") ?? "" };
    await (await fetch(route, { method: "POST", headers: own, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const long = { name: "trigger-long-running-operation", arguments: { duration: 8, steps: 8 }, _meta: { progressToken: "pd" } };
    // The first progress switches the batch's POST to SSE: once its headers are here, the batch is pending.
    const batch = await fetch(route, {
      method: "POST",
      headers: own,
      body: JSON.stringify([
        { jsonrpc: "2.0", id: "dup", method: "tools/call", params: long },
        { jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "echo", arguments: { message: "hello" } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
      ]),
    });
    expect(batch.headers.get("content-type")).toContain("text/event-stream");
    expect((await fetch(route, { method: "DELETE", headers: own })).status).toBe(200);
    const answers = events(await batch.text()).filter((m) => m.id === "dup");
    expect(answers).toHaveLength(2);
    expect(answers.every((m) => m.error?.code === -32052)).toBe(true);
  }, 30_000);
});
