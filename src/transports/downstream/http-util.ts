import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { sliceEnd } from "../../protocol/canonical.js";
import { errorResponse, type JsonRpcId } from "../../protocol/json-rpc.js";
import type { TraceHeaders } from "../types.js";

export type Body = { ok: true; text: string } | { ok: false; status: 400 | 413 | 503; bytes: number };

/**
 * Asked before a body's bytes are held, with the size of each chunk as it arrives: null to go on, or the status of the
 * refusal it has already answered (413, 503; the connection is closing). `serve`'s front sets one on every request
 * (`meterBody`), for its size limit and the process-wide byte budget.
 */
export type BodyMeter = (bytes: number) => 413 | 503 | null;

const meters = new WeakMap<IncomingMessage, BodyMeter>();

export function meterBody(req: IncomingMessage, meter: BodyMeter): void {
  meters.set(req, meter);
}

/**
 * The same budget as a WebSocket session's messages draw on it: bytes taken as they arrive on the socket (false: they
 * do not fit, the refusal is logged and the session is to be closed), given back when a message is complete.
 */
export interface FrameMeter {
  take(bytes: number): boolean;
  settle(): void;
}

const frameMeters = new WeakMap<IncomingMessage, FrameMeter>();

export function meterFrames(req: IncomingMessage, meter: FrameMeter): void {
  frameMeters.set(req, meter);
}

export function frameMeterOf(req: IncomingMessage): FrameMeter | undefined {
  return frameMeters.get(req);
}

/** Reads a request body up to `max` bytes; at the first byte past that (or one its meter refuses) it stops holding bytes. */
export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > max) {
      req.resume();
      resolve({ ok: false, status: 413, bytes: declared });
      return;
    }
    const meter = meters.get(req);
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (body: Body) => {
      if (done) return;
      done = true;
      req.off("data", onData);
      chunks.length = 0;
      req.resume();
      resolve(body);
    };
    const onData = (c: Buffer) => {
      bytes += c.length;
      const refused = meter?.(c.length) ?? (bytes > max ? 413 : null);
      if (refused) finish({ ok: false, status: refused, bytes });
      else chunks.push(c);
    };
    req.on("data", onData);
    req.on("end", () => {
      if (!done) finish({ ok: true, text: chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, bytes).toString("utf8") });
    });
    req.on("error", () => finish({ ok: false, status: 400, bytes }));
  });
}

/** An HTTP error whose body is a JSON-RPC error, as MCP servers answer transport-level problems. */
export function httpError(res: ServerResponse, status: number, code: number, message: string, id: JsonRpcId = null, headers: Record<string, string> = {}): void {
  // Already answered (the front refused the body as it arrived): the caller gets that one answer only.
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorResponse(id, code, message));
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** The same answer written on a bare connection (an upgrade refused, a connection past a cap), which is then ended. */
export function socketError(socket: Duplex, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorResponse(null, code, message));
  const head = Object.entries({ ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head.join("")}\r\n${body}`);
}

/** Longest `traceparent`/`tracestate` taken from a request (W3C: 55 and 512 characters); longer ones are ignored. */
const MAX_TRACE_HEADER = 512;

/** The W3C trace context headers of a request, when it has a `traceparent` (read, not validated: the tracer does). */
export function traceHeadersOf(req: IncomingMessage): TraceHeaders | undefined {
  const traceparent = req.headers.traceparent;
  if (typeof traceparent !== "string" || traceparent.length > MAX_TRACE_HEADER) return undefined;
  const tracestate = req.headers.tracestate;
  return typeof tracestate === "string" && tracestate.length <= MAX_TRACE_HEADER ? { traceparent, tracestate } : { traceparent };
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
  const w = eventWriter(res);
  w.write([text]);
  w.end();
}

const writers = new WeakMap<ServerResponse, EventWriter>();

/** The writer of one response's SSE events, made on first use; `onIdle` is called when a backlog has drained. */
export function eventWriter(res: ServerResponse, onIdle: () => void = () => {}): EventWriter {
  let w = writers.get(res);
  if (!w) {
    w = new EventWriter(res, onIdle);
    writers.set(res, w);
  }
  return w;
}

/**
 * Writes a response's SSE events in order, pacing large ones: a piece over 64 Ki characters goes out in slices, each
 * once the socket has drained, so a 10 MB event is never held whole a second time as bytes. Everything written to an
 * SSE response goes through here, keep-alives and the end included, so nothing lands inside a paced event.
 */
export class EventWriter {
  private readonly queue: string[] = [];
  private waiting = false;
  /** The caller was told to wait: it is told when the backlog has gone. */
  private owed = false;
  private ending = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly onIdle: () => void,
  ) {}

  /** Queues an event's pieces and writes what the socket takes; false, like `write`, when the caller should wait. */
  write(parts: readonly string[]): boolean {
    for (const p of parts) {
      for (let at = 0; at < p.length; ) {
        const end = sliceEnd(p, at, SLICE);
        this.queue.push(at === 0 && end === p.length ? p : p.slice(at, end));
        at = end;
      }
    }
    if (!this.waiting) this.pump();
    if (this.waiting) this.owed = true;
    return !this.waiting;
  }

  /** A keep-alive comment: only between events, and only when nothing is waiting. */
  idleWrite(text: string): void {
    if (!this.waiting && this.queue.length === 0 && !this.ending && !this.res.writableEnded) this.res.write(text);
  }

  /** Ends the response once everything queued has been written. */
  end(): void {
    this.ending = true;
    if (!this.waiting) this.pump();
  }

  private pump(): void {
    this.waiting = false;
    while (this.queue.length > 0) {
      if (this.res.writableEnded || this.res.destroyed) {
        this.queue.length = 0;
        return;
      }
      if (!this.res.write(this.queue.shift() as string)) {
        this.waiting = true;
        this.res.once("drain", () => this.pump());
        return;
      }
    }
    if (this.ending) {
      if (!this.res.writableEnded) this.res.end();
      return;
    }
    if (this.owed) {
      this.owed = false;
      this.onIdle();
    }
  }
}
