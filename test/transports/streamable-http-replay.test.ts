import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRulesOrThrow } from "../../src/cli/rules.js";
import { DecisionLog } from "../../src/decision-log/writer.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { openLink, type RouteRuntime } from "../../src/proxy/link.js";
import { MemoryEventStore, type EventId, type EventStore, type StreamId } from "../../src/transports/downstream/event-store.js";
import { StreamableHttpEndpoint, type StreamableHttpOptions } from "../../src/transports/downstream/streamable-http.js";
import { stdioUpstream } from "../../src/transports/upstream/stdio.js";
import { EVERYTHING, tempDir } from "../helpers.js";
import { openStream as open } from "../support/sse-stream.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

/** An event store that records what the endpoint asks of it, around the default one. */
class RecordingStore implements EventStore {
  readonly inner: MemoryEventStore;
  readonly stored: EventId[] = [];
  readonly texts: string[] = [];
  readonly forgotten: StreamId[] = [];
  constructor(eventsPerStream = 256) {
    this.inner = new MemoryEventStore({ eventsPerStream, chars: 1 << 20 });
  }
  storeEvent(stream: StreamId, text: string): EventId {
    const id = this.inner.storeEvent(stream, text);
    this.stored.push(id);
    this.texts.push(text);
    return id;
  }
  /** The answer to request `id` was stored. */
  answered(id: number): boolean {
    return this.texts.some((t) => (JSON.parse(t) as { id?: unknown; result?: unknown }).id === id);
  }
  replayEventsAfter(lastEventId: EventId, send: (id: EventId, text: string) => void): StreamId | null {
    return this.inner.replayEventsAfter(lastEventId, send);
  }
  streamOf(eventId: EventId): StreamId | null {
    return this.inner.streamOf(eventId);
  }
  cut(stream: StreamId): void {
    this.inner.cut(stream);
  }
  forget(stream: StreamId): void {
    this.forgotten.push(stream);
    this.inner.forget(stream);
  }
}

/** The Streamable HTTP endpoint on a real HTTP server, in front of server-everything over stdio, judged and logged. */
async function start(opts: Partial<StreamableHttpOptions>): Promise<{ url: string; close: () => Promise<void> }> {
  const file = join(tempDir(), "decisions.ndjson");
  const log = DecisionLog.open({ dest: file, stderr: process.stderr });
  const route: RouteRuntime = {
    name: "stdio",
    upstream: stdioUpstream({ command: process.execPath, args: [EVERYTHING, "stdio"], env: process.env }),
    guardian: new EmbeddedGuardian(loadRulesOrThrow(undefined), {}),
    log,
    failMode: "closed",
    maxFrameBytes: 16 << 20,
    stderr: process.stderr,
  };
  const endpoint = new StreamableHttpEndpoint({ connect: (d, who, up) => openLink(route, d, who, up), maxBodyBytes: 16 << 20, idleMs: 60_000, ...opts });
  const server: Server = createServer((req, res) => void endpoint.handle(req, res, { agent: null, forward: {} }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await log.close();
    },
  };
}

async function initialize(url: string): Promise<string> {
  const x = await open(url, "POST", HEADERS, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  x.res.resume();
  const sid = x.res.headers["mcp-session-id"] as string;
  const n = await open(url, "POST", { ...HEADERS, "mcp-session-id": sid }, { jsonrpc: "2.0", method: "notifications/initialized" });
  n.res.resume();
  return sid;
}

const longCall = (id: number, seconds: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "trigger-long-running-operation", arguments: { duration: seconds, steps: 5 }, _meta: { progressToken: `t${id}` } },
});

describe("Streamable HTTP: the replay log behind its EventStore, over real HTTP", () => {
  let bounded: Awaited<ReturnType<typeof start>>;
  let recorded: Awaited<ReturnType<typeof start>>;
  const stores: RecordingStore[] = [];

  beforeAll(async () => {
    bounded = await start({ eventStore: () => (stores.push(new RecordingStore(3)), stores.at(-1) as RecordingStore) });
    recorded = await start({ eventStore: () => (stores.push(new RecordingStore()), stores.at(-1) as RecordingStore) });
  });
  afterAll(async () => {
    await bounded?.close();
    await recorded?.close();
  });

  it("a cut stream keeps its last eventsPerStream events: a resume from before them is 404, from the oldest kept it replays them and the answer", async () => {
    const sid = await initialize(bounded.url);
    const store = stores.at(-1) as RecordingStore;
    const x = await open(bounded.url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(11, 1));
    const first = await x.next();
    x.close();
    const [stream, n] = [first?.id?.slice(0, first.id.lastIndexOf(".")), Number(first?.id?.slice(first.id.lastIndexOf(".") + 1))];
    expect(n).toBe(1);
    await expect.poll(() => store.answered(11), { timeout: 15_000 }).toBe(true);
    // Five progress events and the answer, at least: only the last three are kept. Every resume from before the oldest
    // kept is refused (a 404 leaves the stream as it was); the first that is not replays exactly the three.
    for (let after = 1; after < 30; after++) {
      const g = await open(bounded.url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": `${stream}.${after}` });
      if (g.res.statusCode === 404) {
        g.res.resume();
        continue;
      }
      expect(g.res.statusCode).toBe(200);
      expect(after).toBeGreaterThanOrEqual(3);
      const seen: { id?: string; data: string }[] = [];
      for (let e = await g.next(); e; e = await g.next()) seen.push(e);
      expect(seen.map((e) => e.id)).toEqual([1, 2, 3].map((k) => `${stream}.${after + k}`));
      expect(JSON.parse(seen.at(-1)?.data ?? "null")).toMatchObject({ id: 11, result: {} });
      return;
    }
    expect.unreachable("no resume was served");
  });

  it("every event the agent sees is named and kept by the session's EventStore; a stream that ended keeps nothing", async () => {
    const sid = await initialize(recorded.url);
    const store = stores.at(-1) as RecordingStore;
    const x = await open(recorded.url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(12, 0.5));
    expect(x.res.headers["content-type"]).toBe("text/event-stream");
    for (let e = await x.next(); e; e = await x.next());
    const ids = x.events.map((e) => e.id as string);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(JSON.parse(x.events.at(-1)?.data ?? "null")).toMatchObject({ id: 12, result: {} });
    expect(store.stored).toEqual(ids);
    const stream = store.streamOf(ids[0] as string) as string;
    expect(store.forgotten).toEqual([stream]);
    expect(store.inner.chars).toBe(0);
    const g = await open(recorded.url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": ids[0] as string });
    expect(g.res.statusCode).toBe(404);
    g.res.resume();
  });

  it("a stream cut before its answer stays in the store, is replayed from it, and is forgotten once the agent has it all", async () => {
    const sid = await initialize(recorded.url);
    const store = stores.at(-1) as RecordingStore;
    const x = await open(recorded.url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(13, 1));
    const first = await x.next();
    x.close();
    const stream = store.streamOf(first?.id as string) as string;
    await expect.poll(() => store.answered(13), { timeout: 15_000 }).toBe(true);
    expect(store.forgotten).toEqual([]);
    const g = await open(recorded.url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
    expect(g.res.statusCode).toBe(200);
    for (let e = await g.next(); e; e = await g.next());
    // What was stored after the first event, all of it, in order, and nothing else.
    expect(g.events.map((e) => e.id)).toEqual(store.stored.slice(1));
    expect(JSON.parse(g.events.at(-1)?.data ?? "null")).toMatchObject({ id: 13, result: {} });
    expect(store.forgotten).toEqual([stream]);
    expect(store.inner.chars).toBe(0);
  });
});

describe("Streamable HTTP: a resumed stream at the session's end", () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    server = await start({});
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a stream resumed with Last-Event-ID is answered and ended when its session is deleted", async () => {
    const sid = await initialize(server.url);
    const x = await open(server.url, "POST", { ...HEADERS, "mcp-session-id": sid }, longCall(21, 20));
    const first = await x.next();
    x.close();
    const g = await open(server.url, "GET", { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": first?.id as string });
    expect(g.res.statusCode).toBe(200);
    const d = await open(server.url, "DELETE" as "GET", { "mcp-session-id": sid });
    d.res.resume();
    expect(d.res.statusCode).toBe(200);
    // The session's end answers the call it will never see answered, on the stream the agent resumed, and ends it.
    for (let e = await g.next(); e; e = await g.next());
    expect(JSON.parse(g.events.at(-1)?.data ?? "null")).toMatchObject({ id: 21, error: {} });
  }, 30_000);
});
