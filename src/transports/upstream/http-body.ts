import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { readByEvents } from "../read-events.js";
import type { HttpRefusal } from "../types.js";

/**
 * The server answered a request on the session it gave as not knowing that session: 404 (MCP's answer), or 400 that
 * says so (the MCP SDK's example servers: "No valid session ID provided"; a restarted single-session server: "Server
 * not initialized").
 */
export function lostSession(status: number, body: string): boolean {
  return status === 404 || saysSessionLost(status, body);
}

/**
 * The same, said in words: for a GET, where a bare 404 may only mean that the server has no stream there (a framework's
 * default page) or that one stream cannot be resumed.
 */
export function saysSessionLost(status: number, body: string): boolean {
  return (status === 400 || status === 404) && /session|not initialized/i.test(body);
}

/**
 * Reads a body up to `max` bytes: its text, or an oversize frame with its first KiB. Chunks are decoded as they come
 * and dropped, so a large body is held once as bytes in flight and once as text, not three times. Read by its `data`
 * events, not an async iterator: a JSON answer is usually one chunk, and an iterator costs a promise per chunk and an
 * async generator per body (a few percent of serve's CPU per A2A call).
 */
export function readBounded(body: Readable, max: number): Promise<string | { oversize: string; bytes: number }> {
  // UTF-8 split across chunks is joined; StringDecoder does it without the ICU converter a streaming TextDecoder uses.
  const decoder = new StringDecoder("utf8");
  let text = "";
  let bytes = 0;
  return readByEvents<string | { oversize: string; bytes: number }>(
    body,
    (c, settle) => {
      bytes += c.length;
      if (bytes > max) {
        settle(null, { oversize: text.slice(0, 1024), bytes });
        body.destroy();
        return;
      }
      text += decoder.write(c);
    },
    // A leading byte order mark is dropped, as TextDecoder (which read these bodies before) drops it.
    (settle) => {
      const all = text + decoder.end();
      settle(null, all.charCodeAt(0) === 0xfeff ? all.slice(1) : all);
    },
  );
}

/** The start of an error status's body: enough for a JSON-RPC error or a reason, never a whole HTML page. */
export async function readErrorBody(body: Readable): Promise<string> {
  const read = await readBounded(body, 64 * 1024);
  return typeof read === "string" ? read : read.oversize;
}

/** An error status and the headers that say more about it: the auth challenge, when to retry. */
export function refusalOf(status: number, headers: IncomingHttpHeaders): HttpRefusal {
  const picked: Record<string, string> = {};
  for (const name of ["www-authenticate", "retry-after"]) {
    const v = headers[name];
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) picked[name] = first;
  }
  return { status, headers: picked };
}
