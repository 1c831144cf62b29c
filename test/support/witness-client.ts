import { randomBytes } from "node:crypto";
import { request, type IncomingHttpHeaders } from "node:http";
import type { Duplex } from "node:stream";
import { createParser } from "eventsource-parser";
import { answerMismatch } from "./witness-frames.js";

/*
 * A raw agent for the invariant suite: HTTP requests and WebSocket upgrades with the path, headers and body exactly as
 * generated (no URL normalisation, duplicated headers kept), and every JSON-RPC message of the answer collected.
 */

export type Headers = Record<string, string | string[]>;

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON-RPC messages of the answer: a JSON body (an array is split) or the `data` of each SSE event. */
  messages: unknown[];
  body: string;
  /** No complete answer within the time allowed. */
  hung: boolean;
  error?: string;
}

/**
 * A path as bytes on the wire: Node refuses characters outside 0x21–0xff in a request path, so anything above is sent
 * as its UTF-8 bytes (what a raw client would send) and controls and spaces are percent-encoded.
 */
export function wirePath(path: string): string {
  const utf8 = Buffer.from(path, "utf8").toString("latin1");
  return utf8.replace(/[\x00-\x20\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`);
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Headers;
  body?: string;
  timeoutMs: number;
  /** For a GET stream: resolve once headers arrive, and keep the stream open until `close()`. */
  untilHeaders?: boolean;
}

export function rawHttp(port: number, r: RawRequest): Promise<RawAnswer & { close(): void }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, method: r.method, path: wirePath(r.path), setHost: false });
    for (const [k, v] of Object.entries(r.headers)) req.setHeader(k, v);
    if (r.body !== undefined) req.setHeader("content-length", Buffer.byteLength(r.body));
    const close = () => req.destroy();
    let done = false;
    const finish = (a: RawAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!r.untilHeaders) req.destroy();
      resolve({ ...a, close });
    };
    const timer = setTimeout(() => finish({ status: 0, headers: {}, messages: [], body: "", hung: true }), r.timeoutMs);
    req.on("error", (e) => finish({ status: 0, headers: {}, messages: [], body: "", hung: false, error: e.message }));
    req.on("response", (res) => {
      const type = String(res.headers["content-type"] ?? "");
      const messages: unknown[] = [];
      let body = "";
      const parser = createParser({ onEvent: (e) => e.data && pushJson(messages, e.data) });
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
        if (type.includes("text/event-stream")) parser.feed(c);
      });
      res.on("end", () => {
        if (!type.includes("text/event-stream") && body) pushJson(messages, body);
        finish({ status: res.statusCode ?? 0, headers: res.headers, messages, body, hung: false });
      });
      res.on("error", (e) => finish({ status: res.statusCode ?? 0, headers: res.headers, messages, body, hung: false, error: e.message }));
      if (r.untilHeaders) finish({ status: res.statusCode ?? 0, headers: res.headers, messages, body, hung: false });
    });
    req.end(r.body);
  });
}

function pushJson(into: unknown[], text: string): void {
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) into.push(...(v as unknown[]));
    else into.push(v);
  } catch {
    into.push({ notJson: text.slice(0, 200) });
  }
}

export interface UpgradeAnswer {
  status: number;
  messages: unknown[];
  /** Some expected answer did not come within the time allowed. */
  hung: boolean;
}

/**
 * A WebSocket upgrade at a raw path (subprotocol `mcp`); when it is accepted, `frames` are sent as text frames and
 * the server's frames read until every request in `expect` has an answer (an id listed twice needs two), or the time
 * is up.
 */
export function rawUpgrade(port: number, path: string, headers: Headers, frames: string[], expect: (string | number)[], timeoutMs: number, cancelled: (string | number)[] = []): Promise<UpgradeAnswer> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, method: "GET", path: wirePath(path), setHost: false });
    for (const [k, v] of Object.entries({ ...headers, connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": randomBytes(16).toString("base64"), "sec-websocket-protocol": "mcp" })) req.setHeader(k, v);
    let done = false;
    const messages: unknown[] = [];
    let socket: Duplex | undefined;
    const finish = (status: number, hung: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket?.destroy();
      req.destroy();
      resolve({ status, messages, hung });
    };
    const timer = setTimeout(() => finish(socket ? 101 : 0, true), timeoutMs);
    req.on("error", () => finish(0, false));
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode ?? 0, false));
    });
    req.on("upgrade", (_res, s, head) => {
      socket = s;
      const unanswered = () => answerMismatch(expect, messages, "missing", cancelled).length > 0;
      const reader = frameReader((text) => {
        pushJson(messages, text);
        if (!unanswered()) finish(101, false);
      });
      if (head.length > 0) reader(head);
      s.on("data", reader);
      s.on("close", () => finish(101, unanswered()));
      for (const f of frames) s.write(maskedTextFrame(f));
      if (expect.length === 0) finish(101, false);
    });
    req.end();
  });
}

/** A client→server WebSocket text frame (RFC 6455: clients mask). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : n < 65536 ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff]) : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), u64(n)]);
  const mask = randomBytes(4);
  const body = Buffer.alloc(n);
  for (let i = 0; i < n; i++) body[i] = (payload[i] as number) ^ (mask[i & 3] as number);
  return Buffer.concat([head, mask, body]);
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** Reads server→client frames (unmasked); text frames are passed on whole (fragments joined), others ignored. */
function frameReader(onText: (text: string) => void): (chunk: Buffer) => void {
  let buf = Buffer.alloc(0);
  let parts: Buffer[] = [];
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const fin = ((buf[0] as number) & 0x80) !== 0;
      const op = (buf[0] as number) & 0x0f;
      let len = (buf[1] as number) & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        at = 10;
      }
      if (buf.length < at + len) return;
      const payload = buf.subarray(at, at + len);
      buf = buf.subarray(at + len);
      if (op === 0x1 || op === 0x0) {
        parts.push(Buffer.from(payload));
        if (fin) {
          const text = Buffer.concat(parts).toString("utf8");
          parts = [];
          onText(text);
        }
      }
    }
  };
}
