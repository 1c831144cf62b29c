import type { ServerResponse } from "node:http";
import { fail, type AdminRoute } from "./server.js";

/** Live event streams open at once; past this a new one is refused with 503. */
const MAX_STREAMS = 32;
/** Bytes an event stream may have waiting on a slow reader before it is closed (the reader reconnects). */
const MAX_BACKLOG = 4 * 1024 * 1024;

/** Something that has live events to show: subscribes an emitter, returns how to unsubscribe. */
export type EventSource = (emit: (event: string, data: unknown) => void) => () => void;

/**
 * `GET /api/events`: server-sent events from every source (approval.requested, approval.decided, decision, …), as
 * they happen: what the console and `tail --pending` follow. `?only=a,b` keeps only those event names.
 */
export function eventRoutes(sources: EventSource[]): AdminRoute[] {
  let streams = 0;
  return [
    {
      method: "GET",
      pattern: /^\/api\/events$/,
      doc: "GET /api/events",
      run: (_m, { res, url }) => {
        if (streams >= MAX_STREAMS) return fail(503, "TOO_MANY_STREAMS", `at most ${MAX_STREAMS} event streams at once`);
        streams++;
        const only = url.searchParams.get("only")?.split(",").filter(Boolean);
        open(res, (event) => !only || only.includes(event), () => streams--, sources);
      },
    },
  ];
}

function open(res: ServerResponse, wanted: (event: string) => boolean, closed: () => void, sources: EventSource[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  res.write(": guardwire admin events\n\n");
  const emit = (event: string, data: unknown) => {
    if (!wanted(event)) return;
    if (res.writableLength > MAX_BACKLOG) return void res.destroy();
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const offs = sources.map((s) => s(emit));
  res.once("close", () => {
    closed();
    for (const off of offs) off();
  });
}
