import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, type JsonRpcId } from "../../protocol/json-rpc.js";

export type Body = { ok: true; text: string } | { ok: false; status: 413; bytes: number } | { ok: false; status: 400; bytes: number };

/** Reads a request body up to `max` bytes; past that the rest is discarded and 413 is due. */
export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > max) {
      req.resume();
      resolve({ ok: false, status: 413, bytes: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      bytes += c.length;
      if (bytes > max) over = true;
      else chunks.push(c);
    });
    req.on("end", () => {
      if (over) resolve({ ok: false, status: 413, bytes });
      else resolve({ ok: true, text: chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, bytes).toString("utf8") });
    });
    req.on("error", () => resolve({ ok: false, status: 400, bytes }));
  });
}

/** An HTTP error whose body is a JSON-RPC error, as MCP servers answer transport-level problems. */
export function httpError(res: ServerResponse, status: number, code: number, message: string, id: JsonRpcId = null, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorResponse(id, code, message));
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Does an Accept header name this media type? Named literally, as the MCP SDK's servers require (a bare `*\/*` is
 * refused with 406 there too, so clients already send both types by name).
 */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  // Runs twice per POST: find the name, then check it is a whole entry (not "application/jsonx"), without splitting.
  const lower = accept.length < 256 ? accept.toLowerCase() : accept.slice(0, 4096).toLowerCase();
  for (let at = lower.indexOf(type); at !== -1; at = lower.indexOf(type, at + 1)) {
    const before = lower.slice(0, at).trimEnd();
    const after = lower.charCodeAt(at + type.length);
    const endsWell = Number.isNaN(after) || after === 0x2c /* , */ || after === 0x3b /* ; */ || after === 0x20 || after === 0x09;
    if ((before === "" || before.endsWith(",")) && endsWell) return true;
  }
  return false;
}

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" } as const;

/** Writes the pieces of one SSE event back to back; false when the socket asked to wait (like `write`). */
export function writeParts(res: ServerResponse, parts: string[]): boolean {
  let more = true;
  for (const p of parts) more = res.write(p) && more;
  return more;
}

/** Characters written at a time when a body is large. */
const SLICE = 1 << 16;

/**
 * Ends a response with a text body. A large text goes out in slices (never splitting a surrogate pair), each turned
 * into bytes as it is written, and the next one only once the socket has drained: the body is never held a second
 * time as one whole buffer, so a 10 MB answer costs its text, not its text and its bytes.
 */
export function endWithText(res: ServerResponse, text: string): void {
  if (text.length <= 4 * SLICE) {
    res.end(text);
    return;
  }
  let at = 0;
  const next = (): void => {
    while (at < text.length) {
      let end = Math.min(at + SLICE, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      const more = res.write(text.slice(at, end));
      at = end;
      if (!more) {
        res.once("drain", next);
        return;
      }
    }
    res.end();
  };
  next();
}
