import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * Agent keys for guardwire's own HTTP fronts (`serve`, `guardian --port`). Kept as SHA-256 digests and compared digest
 * to digest against every key, so the time taken says nothing about which key or how much of it matched.
 */
export class AgentKeys {
  private readonly keys: readonly { id: string; digest: Buffer }[];

  constructor(agents: readonly { id: string; key: string }[]) {
    this.keys = agents.map((a) => ({ id: a.id, digest: sha256(a.key) }));
  }

  get size(): number {
    return this.keys.length;
  }

  /** The caller's id for a presented key, or null. */
  match(presented: string): string | null {
    const d = sha256(presented);
    let found: string | null = null;
    for (const k of this.keys) if (timingSafeEqual(k.digest, d) && found === null) found = k.id;
    return found;
  }
}

/** The key a request presents: `X-Guardwire-Key`, else `Authorization: Bearer`; `viaHeader` says which. */
export function presentedKey(headers: IncomingHttpHeaders): { key: string | undefined; viaHeader: boolean } {
  const viaHeader = headers["x-guardwire-key"];
  if (typeof viaHeader === "string") return { key: viaHeader, viaHeader: true };
  const auth = headers.authorization;
  return { key: auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined, viaHeader: false };
}

/**
 * A loopback host: `localhost`, 127.0.0.0/8, `::1` (bare or bracketed, as in a Host header). Listening on one needs no
 * agent keys or admin token; the one list every such check uses.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || h === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function sha256(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}
