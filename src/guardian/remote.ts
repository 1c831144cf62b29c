import type { AosRequest, AosResponse } from "./aos.js";
import type { Guardian } from "./guardian.js";

export interface RemoteGuardianOptions {
  url: string;
  /** Per call; past it the call fails (and the message is denied, unless failing open). */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/**
 * Any AOS guardian over HTTP(S) POST (AOS §2). Connections are kept alive by Node's fetch (undici). Anything but a
 * JSON-RPC answer within the timeout rejects, which the session turns into GUARDIAN_UNAVAILABLE.
 */
export class RemoteGuardian implements Guardian {
  constructor(private readonly opts: RemoteGuardianOptions) {}

  async call(request: AosRequest): Promise<AosResponse> {
    const res = await fetch(this.opts.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...this.opts.headers },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 2000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`guardian at ${this.opts.url} answered HTTP ${res.status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`guardian at ${this.opts.url} answered something that is not JSON`);
    }
    if (body === null || typeof body !== "object" || (body as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      throw new Error(`guardian at ${this.opts.url} answered something that is not JSON-RPC`);
    }
    return body as AosResponse;
  }
}
