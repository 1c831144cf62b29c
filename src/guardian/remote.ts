import http from "node:http";
import https from "node:https";
import { DEFAULT_GUARDIAN_TIMEOUT_MS, DEFAULT_MAX_FRAME_BYTES } from "../defaults.js";
import type { AosRequest, AosResponse } from "./aos.js";
import type { Guardian } from "./guardian.js";

const DEFAULT_TIMEOUT_MS = DEFAULT_GUARDIAN_TIMEOUT_MS;

export interface RemoteGuardianOptions {
  url: string;
  /** Per call (default 2000); past it the call fails (and the message is denied, unless failing open). */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Largest answer accepted. */
  maxResponseBytes?: number;
}

/**
 * Any AOS guardian over HTTP(S) POST (AOS §2), on keep-alive connections (node:http agents: about half the latency of
 * fetch here). Anything but a JSON-RPC answer within the timeout rejects, which the session turns into
 * GUARDIAN_UNAVAILABLE.
 */
export class RemoteGuardian implements Guardian {
  private readonly url: URL;
  private readonly agent: http.Agent;
  readonly timeoutMs: number;

  constructor(private readonly opts: RemoteGuardianOptions) {
    this.url = new URL(opts.url);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const secure = this.url.protocol === "https:";
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
  }

  call(request: AosRequest): Promise<AosResponse> {
    const body = JSON.stringify(request);
    const max = this.opts.maxResponseBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const where = this.opts.url;
    const send = this.url.protocol === "https:" ? https.request : http.request;
    return new Promise<AosResponse>((resolve, reject) => {
      const req = send(
        this.url,
        {
          method: "POST",
          agent: this.agent,
          headers: { "content-type": "application/json", accept: "application/json", "content-length": Buffer.byteLength(body), ...this.opts.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > max) req.destroy(new Error(`guardian at ${where} answered more than ${max} bytes`));
            else chunks.push(c);
          });
          res.on("end", () => {
            clearTimeout(timer);
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) return reject(new Error(`guardian at ${where} answered HTTP ${res.statusCode}`));
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            } catch {
              return reject(new Error(`guardian at ${where} answered something that is not JSON`));
            }
            if (parsed === null || typeof parsed !== "object" || (parsed as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
              return reject(new Error(`guardian at ${where} answered something that is not JSON-RPC`));
            }
            resolve(parsed as AosResponse);
          });
          res.on("error", (e) => reject(e));
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`guardian at ${where} timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      req.end(body);
    });
  }

  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }
}
