import { request } from "undici";
import { readSse, SseTooLarge } from "../sse-reader.js";
import type { HttpCarry, SendInfo, UpstreamFactory } from "../types.js";
import type { Undelivered } from "../receipt.js";
import { SendQueue } from "./queue.js";
import { lostSession, readErrorBody, refusalOf } from "./http-body.js";

export interface LegacySseUpstreamOptions {
  url: string;
  headers?: Record<string, string>;
}

/**
 * MCP 2024-11-05 HTTP+SSE toward the server: one GET stream carries everything the server says; its first event,
 * `endpoint`, names where to POST (same origin only). The stream ending ends the session.
 */
export function legacySseUpstream(opts: LegacySseUpstreamOptions): UpstreamFactory {
  return (sink, ctx) => {
    const queue = new SendQueue(sink);
    const abort = new AbortController();
    let endpoint: string | null = null;
    let body: NodeJS.ReadableStream | null = null;
    // `delivered`: the agent's POST of notifications or responses is acknowledged once the server answered this one.
    const post = (text: string, requests: string[] | undefined, delivered = (_?: Undelivered) => {}) => {
      request(endpoint as string, { method: "POST", headers: { ...opts.headers, "content-type": "application/json" }, body: text, signal: abort.signal }).then(
        async (res) => {
          if (res.statusCode < 300) {
            delivered();
            return void (await res.body.dump());
          }
          const body = await readErrorBody(res.body);
          if (lostSession(res.statusCode, body)) {
            // The server no longer knows the session its endpoint named: end ours too, so the agent starts over.
            const reason = `the server lost the session (HTTP ${res.statusCode}); the agent must initialize again`;
            delivered({ status: 404, reason });
            queue.fail({ stream: null, requests }, reason);
            queue.close(reason);
            abort.abort();
            return;
          }
          delivered({ status: 502, reason: `HTTP ${res.statusCode} from upstream` });
          queue.fail({ stream: null, requests }, `HTTP ${res.statusCode} from upstream`, refusalOf(res.statusCode, res.headers));
        },
        (e: Error) => {
          delivered({ status: abort.signal.aborted ? 404 : 502, reason: e.message });
          queue.fail({ stream: null, requests }, e.message);
        },
      );
    };
    void (async () => {
      try {
        const res = await request(opts.url, { method: "GET", headers: { ...opts.headers, accept: "text/event-stream" }, signal: abort.signal, bodyTimeout: 0 });
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new Error(`HTTP ${res.statusCode} from upstream`);
        }
        body = res.body;
        await readSse(res.body, ctx.maxFrameBytes, (ev) => {
          if (ev.event === "endpoint") {
            const target = new URL(ev.data, opts.url);
            if (target.origin !== new URL(opts.url).origin) throw new Error(`the server's endpoint ${target.origin} is not its own origin`);
            if (endpoint === null) {
              endpoint = target.href;
              queue.drain((text, info) => post(text, info?.requests, held(info)));
            }
          } else if (ev.event === undefined || ev.event === "message") {
            sink.frame({ text: ev.data });
          }
        });
        queue.close("the server closed its event stream");
      } catch (e) {
        queue.close(e instanceof SseTooLarge ? e.message : abort.signal.aborted ? "session ended" : (e as Error).message);
      }
    })();
    return {
      send(text, info) {
        if (!queue.hold(text, info, endpoint !== null)) post(text, info?.requests, held(info));
      },
      async close() {
        queue.close("session ended", false);
        abort.abort();
      },
      pause: () => void body?.pause(),
      resume: () => void body?.resume(),
    };
  };
}

/** The agent's receipt for a notification or response, held until the server answers its POST. */
function held(info: SendInfo | undefined): ((problem?: Undelivered) => void) | undefined {
  return info?.requests?.length ? undefined : (info?.carry as HttpCarry | undefined)?.receipt?.hold();
}
