import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import type { Frame } from "../../src/transports/types.js";

/**
 * A Streamable HTTP server that answers a tools/call with a long SSE stream (progress notifications, then the
 * answer), as fast as it can write. While the session is paused (a slow agent downstream), nothing more is read from
 * that stream: it backs up to the server instead of piling up in guardwire. Resumed, everything arrives, in order.
 */
const EVENTS = 20_000;
const PAD = "x".repeat(1000);

describe("Streamable HTTP upstream: pause stops reading the server's stream", () => {
  let server: Server;
  let url: string;
  let written = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        let i = 0;
        const pump = (): void => {
          while (i < EVENTS) {
            const ev = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i},"message":"${PAD}"}}\n\n`;
            i++;
            written = i;
            if (!res.write(ev)) return void res.once("drain", pump);
          }
          res.end(`event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n`);
        };
        pump();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("frames stop while paused, the server's writes back up, and all of them arrive in order once resumed", async () => {
    const frames: string[] = [];
    let answered!: () => void;
    const done = new Promise<void>((r) => (answered = r));
    const failures: string[] = [];
    const upstream = streamableHttpUpstream({ url })(
      {
        frame: (f: Frame) => {
          if ("text" in f) frames.push(f.text);
          if (frames.length === 10) upstream.pause?.();
        },
        failed: (_keys, reason) => failures.push(reason),
        closed: (reason) => failures.push(reason),
        ended: () => answered(),
      },
      { route: "test", stderr: process.stderr, maxFrameBytes: 1 << 20 },
    );
    upstream.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } }), { stream: null, requests: ["n:1"] });
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0; i < 100 && frames.length < 10; i++) await wait(20);
    await wait(300);
    const whilePaused = frames.length;
    await wait(300);
    // Nothing more was handed on while paused, and the server could not write all it had (~20 MB: more than the socket buffers hold) either.
    expect(whilePaused).toBe(10);
    expect(frames.length).toBe(whilePaused);
    expect(written).toBeLessThan(EVENTS);
    upstream.resume?.();
    await done;
    expect(failures).toEqual([]);
    expect(frames).toHaveLength(EVENTS + 1);
    expect(frames.slice(0, EVENTS).map((t) => (JSON.parse(t) as { params: { progress: number } }).params.progress)).toEqual([...Array(EVENTS).keys()]);
    expect(JSON.parse(frames[EVENTS] as string)).toMatchObject({ id: 1, result: {} });
    await upstream.close();
  }, 20_000);
});
