import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse, SseTooLarge } from "../../src/transports/sse-reader.js";

/**
 * readSse over real undici bodies: it settles once, and a read it stops itself (an event past the limit, a handler
 * that throws) lets the body go without the body's own abort error escaping as an uncaught exception.
 */
describe("readSse", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (req.url === "/big") {
        // An event that never completes within the limit, and more after it.
        res.write(`data: ${"x".repeat(4096)}`);
        setTimeout(() => res.end("\n\n"), 200);
      } else if (req.url === "/split") {
        // A multi-byte character split across writes, then an id, a retry and a second event.
        const bytes = Buffer.from(`id: 7\nretry: 1500\ndata: {"text":"h\u00e9llo \u{1f600}"}\n\ndata: second\n\n`);
        const at = bytes.indexOf(0xf0) + 2;
        res.write(bytes.subarray(0, at));
        setTimeout(() => res.end(bytes.subarray(at)), 20);
      } else {
        res.write("data: one\n\n");
        res.write("data: two\n\n");
        setTimeout(() => res.end("data: three\n\n"), 50);
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const uncaught: Error[] = [];
  const onUncaught = (e: Error) => uncaught.push(e);
  beforeAll(() => void process.on("uncaughtException", onUncaught));
  afterAll(() => void process.off("uncaughtException", onUncaught));
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it("hands on every event, joins UTF-8 split across chunks, and reports the last id and retry", async () => {
    const res = await request(`${base}/split`);
    const seen: string[] = [];
    const result = await readSse(res.body, 1 << 20, (ev) => seen.push(ev.data));
    expect(seen).toEqual(['{"text":"h\u00e9llo \u{1f600}"}', "second"]);
    expect(result).toEqual({ lastEventId: "7", retryMs: 1500 });
  });

  it("an event past the limit rejects with SseTooLarge, and the body's abort goes nowhere", async () => {
    uncaught.length = 0;
    const res = await request(`${base}/big`);
    await expect(readSse(res.body, 1024, () => undefined)).rejects.toBeInstanceOf(SseTooLarge);
    await settle();
    expect(res.body.destroyed).toBe(true);
    expect(uncaught).toEqual([]);
  });

  it("a handler that throws rejects the read with its error, once, and the body is let go quietly", async () => {
    uncaught.length = 0;
    const res = await request(`${base}/three`);
    let calls = 0;
    const boom = new Error("handler failed");
    await expect(
      readSse(res.body, 1 << 20, () => {
        calls++;
        throw boom;
      }),
    ).rejects.toBe(boom);
    await settle();
    expect(calls).toBe(1);
    expect(uncaught).toEqual([]);
  });

  it("a body destroyed mid-stream rejects (the stream was cut); one already let go rejects at once", async () => {
    const res = await request(`${base}/three`);
    const reading = readSse(res.body, 1 << 20, () => res.body.destroy());
    await expect(reading).rejects.toThrow();
    const again = await request(`${base}/three`);
    again.body.destroy();
    again.body.on("error", () => undefined);
    await expect(readSse(again.body, 1 << 20, () => undefined)).rejects.toThrow(/Premature close|aborted/);
  });
});
