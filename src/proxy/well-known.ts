import type { ServerResponse } from "node:http";
import { request } from "undici";
import { ErrorCode } from "../protocol/json-rpc.js";
import { httpError } from "../transports/downstream/http-util.js";

/** The OAuth discovery documents an HTTP upstream may publish (RFC 9728, RFC 8414, OpenID Connect Discovery): no others. */
const DOCS = ["oauth-protected-resource", "oauth-authorization-server", "openid-configuration"] as const;
const MAX_DOC_BYTES = 1 << 20;
const TIMEOUT_MS = 10_000;

export interface WellKnownRoute {
  /** The route's path on the proxy. */
  path: string;
  /** The upstream's URL, from the config. */
  upstream: string;
}

export interface WellKnownTarget {
  /** The upstream URL, built from the config's URL and a known document name only, never from the request's text. */
  url: string;
  /** The route URL path the protected-resource document's `resource` must name, or null to leave it as it is. */
  resourcePath: string | null;
}

/**
 * `/.well-known/<doc><route path>` (RFC 9728 / RFC 8414 path insertion) → the upstream's own
 * `/.well-known/<doc><its path>`; `/.well-known/<doc>` alone → the upstream's, when exactly one route can have it.
 * Anything else under `/.well-known/` is not passed anywhere.
 */
export function wellKnownTarget(path: string, routes: readonly WellKnownRoute[]): WellKnownTarget | undefined {
  const rest = path.slice("/.well-known/".length);
  const doc = DOCS.find((d) => rest === d || rest.startsWith(`${d}/`));
  if (!doc) return undefined;
  const suffix = rest.slice(doc.length);
  const route = suffix ? routes.find((r) => r.path === suffix) : routes.length === 1 ? routes[0] : undefined;
  if (!route) return undefined;
  const up = new URL(route.upstream);
  const upPath = up.pathname === "/" ? "" : up.pathname;
  return { url: `${up.origin}/.well-known/${doc}${suffix ? upPath : ""}`, resourcePath: suffix && doc === "oauth-protected-resource" ? suffix : null };
}

/**
 * Fetches one document and answers with it: status, type and caching as the upstream sent them, the body capped at
 * 1 MiB. Nothing of the caller's request goes upstream but the method and what the document is asked in (no keys, no
 * tokens). Protected-resource metadata names the resource: through the proxy that is the proxy's route URL, or an
 * OAuth client that checks it against the URL it connected to (the MCP SDK does) would stop.
 */
export async function passWellKnown(method: "GET" | "HEAD", target: WellKnownTarget, base: string, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  try {
    const up = await request(target.url, { method, headers: { accept: "application/json" }, signal: abort.signal, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of up.body as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_DOC_BYTES) throw new Error("document too large");
      chunks.push(c);
    }
    let body: Buffer = Buffer.concat(chunks);
    const type = String(up.headers["content-type"] ?? "");
    if (target.resourcePath && up.statusCode === 200 && type.includes("json")) body = withResource(body, `${base}${target.resourcePath}`);
    const headers: Record<string, string> = { "content-length": String(body.length) };
    for (const h of ["content-type", "cache-control", ...(method === "HEAD" ? ["content-length"] : [])]) if (typeof up.headers[h] === "string") headers[h] = up.headers[h];
    res.writeHead(up.statusCode, headers).end(method === "HEAD" ? undefined : body);
  } catch {
    if (!res.destroyed) httpError(res, 502, ErrorCode.UpstreamUnavailable, "Bad Gateway: the upstream's metadata cannot be read");
  }
}

function withResource(body: Buffer, resource: string): Buffer {
  try {
    const doc = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    return typeof doc.resource === "string" ? Buffer.from(JSON.stringify({ ...doc, resource })) : body;
  } catch {
    return body; // not JSON after all: passed as it is
  }
}
