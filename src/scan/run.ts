import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { ServerEntry } from "./config.js";

export type Item = Record<string, unknown>;

/** What a server says about itself: everything a client shows its model before any tool is called. */
export interface Listing {
  serverInfo: { name: string; version: string } | null;
  instructions: string | null;
  /** How it was reached: stdio, streamable-http or sse. */
  transport: string;
  tools: Item[];
  prompts: Item[];
  resources: Item[];
  resourceTemplates: Item[];
}

export type Listed = { ok: true; listing: Listing } | { ok: false; error: string };

/** A server that pages forever, or lists without end, is cut off here: the scan's memory stays bounded. */
const MAX_PAGES = 100;
const MAX_ITEMS = 10_000;
const STDERR_KEEP = 2000;
/** All a remote server may send during one scan: a hostile endpoint cannot fill memory before the timeout. */
export const MAX_HTTP_BYTES = 32 * 1024 * 1024;

const KINDS = [
  { key: "tools", method: "tools/list", capability: "tools" },
  { key: "prompts", method: "prompts/list", capability: "prompts" },
  { key: "resources", method: "resources/list", capability: "resources" },
  { key: "resourceTemplates", method: "resources/templates/list", capability: "resources" },
] as const;

/** Pages as they came over the wire: the SDK's own result schemas would drop keys the detectors must see. */
const page = (key: string) => z.looseObject({ [key]: z.array(z.looseObject({})).optional(), nextCursor: z.string().optional() });

/**
 * Starts one server the way its client would (stdio: command, args, env over the SDK's default environment, cwd;
 * HTTP: Streamable HTTP, then legacy SSE, with the entry's headers), lists what it offers, and closes it. Never
 * throws: a server that cannot be started, reached or listed within `timeoutMs` is an error.
 */
export async function listServer(entry: ServerEntry, timeoutMs: number): Promise<Listed> {
  if (entry.kind === "invalid") return { ok: false, error: entry.problem };
  let stderr = "";
  let current: { client: Client; transport: Transport } | undefined;
  let finished = false;
  // A fallback begun after the timeout must not start a connection nobody will close.
  const started = (c: { client: Client; transport: Transport }) => {
    if (finished) throw new Error("cancelled");
    current = c;
  };
  const attempt = async (): Promise<Listing> => {
    if (entry.kind === "stdio") {
      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd, stderr: "pipe" });
      transport.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_KEEP)));
      return await listOver(transport, "stdio", started);
    }
    const url = new URL(entry.url);
    const requestInit = { headers: entry.headers };
    const fetch = cappedFetch(MAX_HTTP_BYTES);
    if (entry.transport === "auto") {
      try {
        return await listOver(new StreamableHTTPClientTransport(url, { requestInit, fetch }), "streamable-http", started);
      } catch (e) {
        await close(current);
        // Only an answer that says "not here" earns a second try over legacy SSE (the SDK's own fallback rule).
        if (![400, 404, 405].includes(httpStatus(e) ?? 0) && !/Unexpected content type/i.test(String(e))) throw e;
      }
    }
    return await listOver(new SSEClientTransport(url, { requestInit, fetch }), "sse", started);
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return { ok: true, listing: await Promise.race([attempt(), timeout]) };
  } catch (e) {
    const said = stderr.trim().split("\n").slice(-5).join(" | ");
    return { ok: false, error: oneLine(e) + (said ? ` (stderr: ${said})` : "") };
  } finally {
    finished = true;
    clearTimeout(timer);
    await close(current);
  }
}

async function listOver(transport: Transport, how: string, started: (c: { client: Client; transport: Transport }) => void): Promise<Listing> {
  const client = new Client({ name: "guardwire-scan", version: "1" }, { capabilities: {} });
  started({ client, transport });
  await client.connect(transport);
  const caps = client.getServerCapabilities() ?? {};
  const listing: Listing = {
    serverInfo: client.getServerVersion() ? { name: client.getServerVersion()?.name ?? "", version: client.getServerVersion()?.version ?? "" } : null,
    instructions: client.getInstructions() ?? null,
    transport: how,
    tools: [],
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
  for (const kind of KINDS) {
    if (!caps[kind.capability]) continue;
    listing[kind.key] = await listAll(client, kind.method, kind.key);
  }
  return listing;
}

/** Every page of one list, following `nextCursor`; a repeated cursor ends it (a server cannot loop us). */
async function listAll(client: Client, method: string, key: string): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await client.request({ method, params: cursor === undefined ? {} : { cursor } }, page(key));
    for (const item of (result[key] as Item[] | undefined) ?? []) if (items.length < MAX_ITEMS) items.push(item);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined || seen.has(cursor) || items.length >= MAX_ITEMS) break;
    seen.add(cursor);
  }
  return items;
}

async function close(c: { client: Client; transport: Transport } | undefined): Promise<void> {
  if (!c) return;
  try {
    await c.client.close();
  } catch {
    // closing a server that never started
  }
}

/** `fetch` whose response bodies, together, may not exceed `limit` bytes: past it, the body errors. */
function cappedFetch(limit: number): typeof fetch {
  let total = 0;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body || [101, 204, 205, 304].includes(res.status)) return res;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          total += chunk.byteLength;
          if (total > limit) out.error(new Error(`the server sent more than ${limit} bytes`));
          else out.enqueue(chunk);
        },
      }),
    );
    const wrapped = new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
    return Object.defineProperties(wrapped, { url: { value: res.url }, redirected: { value: res.redirected } });
  };
}

/** The status of an HTTP transport's error (the SDK puts it in `code`). */
function httpStatus(e: unknown): number | undefined {
  const code = (e as { code?: unknown }).code;
  return typeof code === "number" && code >= 100 && code < 600 ? code : undefined;
}

function oneLine(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const status = httpStatus(e);
  const text =
    err.code === "ENOENT" && err.syscall?.startsWith("spawn")
      ? `cannot start: ${err.path ?? "command"} not found (ENOENT)`
      : (err.message ?? String(e)) + (status !== undefined ? ` (HTTP ${status})` : "");
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
