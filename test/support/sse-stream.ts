import { request, type IncomingMessage } from "node:http";

export interface SseEvent {
  id?: string;
  data: string;
}

/** A raw HTTP exchange whose SSE events are handed over as they arrive. */
export function openStream(url: string, method: "POST" | "GET", headers: Record<string, string>, body?: unknown): Promise<{ res: IncomingMessage; events: SseEvent[]; next: () => Promise<SseEvent | null>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const events: SseEvent[] = [];
      const waiters: ((e: SseEvent | null) => void)[] = [];
      let buf = "";
      let read = 0;
      let closed = false;
      const push = (e: SseEvent | null) => {
        if (e) events.push(e);
        else closed = true;
        waiters.splice(0).forEach((w) => w(e));
      };
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        buf += d;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const ev: SseEvent = { data: "" };
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) ev.id = line.slice(4);
            if (line.startsWith("data: ")) ev.data += line.slice(6);
          }
          if (ev.data) push(ev);
        }
      });
      res.on("close", () => push(null));
      resolve({
        res,
        events,
        next: () =>
          read < events.length ? Promise.resolve(events[read++] as SseEvent) : closed ? Promise.resolve(null) : new Promise((r) => waiters.push((e) => (e && read++, r(e)))),
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
