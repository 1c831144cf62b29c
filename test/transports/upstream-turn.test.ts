import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import type { Frame } from "../../src/transports/types.js";
import { atTurnEnd } from "../../src/turn.js";

/**
 * What the session defers while it handles a frame — the decision line, its commit, the sends it releases (turn.ts's
 * `atTurnEnd`) — runs, for the answer a POST waited for, before the upstream's handling of that answer returns: no
 * microtask hop after the stream's own bookkeeping. Other events on the stream (progress, a streamed answer's further
 * events) still wait for a microtask, so that a burst of them read at once shares one commit.
 */
describe("Streamable HTTP upstream: the awaited answer is one turn", () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const sse = req.url === "/sse";
        res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json" });
        if (!sse) return void res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }));
        res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n`);
        res.write(`event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n`);
        // The stream ends a moment later: the answer must not wait for it.
        setTimeout(() => res.end(), 100);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  for (const [path, what] of [["/sse", "an SSE stream"], ["/json", "a JSON body"]] as const) {
    it(`over ${what}: the answer's deferred work runs before a microtask queued while it was handled`, async () => {
      const seen: string[] = [];
      let ended!: () => void;
      const done = new Promise<void>((r) => (ended = r));
      const upstream = streamableHttpUpstream({ url: url + path })(
        {
          frame: (f: Frame) => {
            const kind = "value" in f && (f.value as { id?: unknown }).id === 1 ? "answer" : "progress";
            queueMicrotask(() => seen.push(`${kind}: microtask`));
            atTurnEnd(() => seen.push(`${kind}: committed`));
          },
          failed: (_keys, reason) => seen.push(`failed: ${reason}`),
          closed: (reason) => seen.push(`closed: ${reason}`),
          ended: () => ended(),
        },
        { route: "test", stderr: process.stderr, maxFrameBytes: 1 << 20 },
      );
      upstream.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } }), { stream: "n:1", requests: ["n:1"] });
      await done;
      await upstream.close();
      const answer = seen.filter((s) => s.startsWith("answer"));
      expect(answer).toEqual(["answer: committed", "answer: microtask"]);
      if (path === "/sse") expect(seen.filter((s) => s.startsWith("progress"))).toEqual(["progress: microtask", "progress: committed"]);
    });
  }
});
