import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

export interface ReceivedAlert {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

/**
 * A real webhook receiver on a loopback port. Each post is answered by the next scripted answer (a status, a status
 * with headers, or "hang": never answered until `release`); 200 once the script is used up.
 */
export async function startAlertReceiver(script: (number | { status: number; headers: Record<string, string> } | "hang")[] = []) {
  const received: ReceivedAlert[] = [];
  const hanging: ServerResponse[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      received.push({ at: performance.now(), headers: req.headers, raw, body: JSON.parse(raw) as Record<string, unknown> });
      const answer = script.shift() ?? 200;
      if (answer === "hang") hanging.push(res);
      else if (typeof answer === "number") res.writeHead(answer).end();
      else res.writeHead(answer.status, answer.headers).end();
      for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/T0/SECRET-PATH`,
    received,
    hanging,
    /** Resolves once `n` posts have arrived. */
    count(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    release(): void {
      for (const res of hanging.splice(0)) res.writeHead(200).end();
    },
    async close(): Promise<void> {
      for (const res of hanging.splice(0)) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
