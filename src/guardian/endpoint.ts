import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Readable, Writable } from "node:stream";
import { ErrorCode, errorResponse } from "../protocol/json-rpc.js";
import { decodeUtf8, LineFramer } from "../protocol/ndjson.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES, parseJson, peekId } from "../protocol/safe-json.js";
import { AOS_METHODS, AOS_VERSION, type AosRequest } from "./aos.js";
import type { Guardian } from "./guardian.js";

/**
 * The embedded guardian served to other agents: AOS over HTTP POST (`guardwire guardian --port`), or over NDJSON on a
 * pair of streams (`guardwire guardian --stdio`, for agents in any language that run it as a subprocess).
 */
export interface EndpointInfo {
  version: string;
  ruleset: () => { name: string; hash: string; rules: number };
}


function describe(info: EndpointInfo) {
  return {
    name: "guardwire",
    version: info.version,
    aos: AOS_VERSION,
    methods: [...AOS_METHODS, "describe"],
    limits: { maxMessageBytes: DEFAULT_MAX_FRAME_BYTES, maxDepth: DEFAULT_MAX_DEPTH },
    ruleset: info.ruleset(),
  };
}

/** Answers one parsed JSON-RPC value (a request or a batch) with what goes back, or nothing for notifications. */
async function answer(guardian: Guardian, info: EndpointInfo, value: unknown): Promise<unknown> {
  if (Array.isArray(value)) {
    if (value.length === 0) return errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch");
    const replies = (await Promise.all(value.map((v) => answer(guardian, info, v)))).filter((r) => r !== undefined);
    return replies.length > 0 ? replies : undefined;
  }
  const req = value as AosRequest;
  if (req === null || typeof req !== "object" || req.jsonrpc !== "2.0" || typeof req.method !== "string") {
    const id = req && typeof req === "object" && (typeof req.id === "string" || typeof req.id === "number") ? req.id : null;
    return errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request");
  }
  if (!("id" in req)) return undefined;
  if (req.method === "describe") return { jsonrpc: "2.0", id: req.id, result: describe(info) };
  try {
    return await guardian.call(req);
  } catch (e) {
    return errorResponse(req.id, ErrorCode.InternalError, `Internal error: ${(e as Error).message}`);
  }
}

function parseOrError(text: string): { value: unknown } | { error: unknown } {
  const parsed = parseJson(text, { maxDepth: DEFAULT_MAX_DEPTH });
  if (parsed.ok) return { value: parsed.value };
  return parsed.code === "TOO_DEEP"
    ? { error: errorResponse(parsed.id, ErrorCode.InvalidRequest, "Invalid Request: nesting too deep") }
    : { error: errorResponse(null, ErrorCode.ParseError, "Parse error") };
}

/** AOS over HTTP: POST application/json, one JSON-RPC request (or batch) per body. */
export function createGuardianHttpServer(guardian: Guardian, info: EndpointInfo, maxBodyBytes = DEFAULT_MAX_FRAME_BYTES): Server {
  return createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      const text = body === undefined ? "" : JSON.stringify(body);
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      send(415, errorResponse(null, ErrorCode.InvalidRequest, "Content-Type must be application/json"));
      return;
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === null) {
      send(413, errorResponse(null, ErrorCode.InvalidRequest, `Body larger than ${maxBodyBytes} bytes`));
      return;
    }
    const p = parseOrError(body);
    if ("error" in p) {
      send(200, p.error);
      return;
    }
    const out = await answer(guardian, info, p.value);
    if (out === undefined) res.writeHead(204).end();
    else send(200, out);
  });
}

function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(null));
  });
}

/**
 * AOS over NDJSON: one JSON-RPC message per line each way. The first line out is a `ready` notification (with what
 * `describe` returns), so a parent process knows when to start sending. Answers keep the order of the requests.
 */
export function serveGuardianStdio(guardian: Guardian, info: EndpointInfo, input: Readable, output: Writable): Promise<void> {
  output.write(JSON.stringify({ jsonrpc: "2.0", method: "ready", params: describe(info) }) + "\n");
  let chain = Promise.resolve();
  const reply = (make: () => Promise<unknown> | unknown) => {
    const pending = Promise.resolve().then(make);
    chain = chain.then(async () => {
      const out = await pending;
      if (out !== undefined) output.write(JSON.stringify(out) + "\n");
    });
  };
  const framer = new LineFramer(DEFAULT_MAX_FRAME_BYTES, {
    onLine: (line) => {
      const text = decodeUtf8(line);
      reply(() => {
        const p = parseOrError(text);
        return "error" in p ? p.error : answer(guardian, info, p.value);
      });
    },
    onOversize: (head) => {
      const id = peekId(decodeUtf8(head));
      reply(() => errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request: message too large"));
    },
  });
  return new Promise((resolve) => {
    input.on("data", (c: Buffer) => framer.push(c));
    input.on("end", () => {
      framer.end();
      void chain.then(() => resolve());
    });
  });
}
