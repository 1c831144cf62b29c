import { hash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Readable, Writable } from "node:stream";
import { AgentKeys, presentedKey } from "../agent-keys.js";
import type { DecisionInput } from "../decision-log/record.js";
import { canonicalize } from "../protocol/canonical.js";
import { classify, ErrorCode, errorResponse, type JsonObject } from "../protocol/json-rpc.js";
import { decodeUtf8, LineFramer } from "../protocol/ndjson.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES, parseJson, peekId } from "../protocol/safe-json.js";
import { AOS_METHODS, AOS_VERSION, STEP_METHODS, type AosRequest, type AosResponse } from "./aos.js";
import { INBOUND_STEPS } from "./embedded.js";
import type { Guardian } from "./guardian.js";
import { readVerdict } from "./verdict.js";

/**
 * The embedded guardian served to other agents: AOS over HTTP POST (`guardwire guardian --port`), or over NDJSON on a
 * pair of streams (`guardwire guardian --stdio`, for agents in any language that run it as a subprocess).
 */
export interface EndpointInfo {
  version: string;
  ruleset: () => { name: string; hash: string; rules: number };
}

export interface EndpointOptions {
  /** Where each decision the endpoint gives is written (the hash-chained decision log), before it is answered. */
  log?: { write(input: DecisionInput): unknown; barrier?(then: () => void, failed: () => void): void; readonly failure?: { file: string; code: string } | undefined };
  /** HTTP: callers must present one of these keys (Bearer or X-Guardwire-Key); none: no check (loopback only). */
  keys?: AgentKeys;
  maxBodyBytes?: number;
}

/** Who is calling, for the log: the key's id over HTTP with keys, else the transport. */
interface Caller {
  agent: string | null;
  name: string;
  transport: "aos-http" | "aos-stdio";
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

interface Answering {
  guardian: Guardian;
  info: EndpointInfo;
  log?: EndpointOptions["log"];
  caller: Caller;
}

/** Answers one parsed JSON-RPC value (a request or a batch) with what goes back, or nothing for notifications. */
async function answer(a: Answering, value: unknown): Promise<unknown> {
  const { guardian, info } = a;
  if (Array.isArray(value)) {
    if (value.length === 0) return errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch");
    const replies = (await Promise.all(value.map((v) => answer(a, v)))).filter((r) => r !== undefined);
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
    const started = performance.now();
    const res = await guardian.call(req);
    if (!a.log) return res;
    logDecision(a, req, res, Math.round((performance.now() - started) * 1000));
    // A decision is answered once its line is committed; a log that cannot be written answers none (fail closed).
    const log = a.log;
    const committed = await new Promise<boolean>((resolve) => (log.barrier ? log.barrier(() => resolve(true), () => resolve(false)) : resolve(true)));
    if (committed) return res;
    const f = log.failure;
    return errorResponse(req.id, ErrorCode.InternalError, `Internal error: the decision log ${f?.file ?? ""} cannot be written (${f?.code ?? "EIO"}): no decision is given until it can be`);
  } catch (e) {
    return errorResponse(req.id, ErrorCode.InternalError, `Internal error: ${(e as Error).message}`);
  }
}

const STEPS: ReadonlySet<string> = new Set(STEP_METHODS);

/** One log line per decision given; answers that are not decisions (ping, errors) are not logged. */
function logDecision(a: Answering, req: AosRequest, res: AosResponse, evalUs: number): void {
  const isStep = STEPS.has(req.method);
  if (!isStep && !req.method.startsWith("protocols/")) return;
  if (!("result" in res)) return;
  const params = (req.params ?? {}) as JsonObject;
  const wrapped = params.message !== null && typeof params.message === "object" && !Array.isArray(params.message);
  const message = (isStep || !wrapped ? params : params.message) as JsonObject;
  const context = (wrapped && params.context && typeof params.context === "object" ? params.context : {}) as JsonObject;
  const v = readVerdict(req, res, message);
  const c = isStep ? null : classify(message);
  const kind = c?.ok ? c.kind : "request";
  const direction = context.direction === "inbound" || context.direction === "outbound" ? context.direction : (isStep ? INBOUND_STEPS.has(req.method) : kind === "response") ? "inbound" : "outbound";
  const method = isStep ? req.method : typeof message.method === "string" ? message.method : null;
  const args = (message.params ?? {}) as JsonObject;
  const tool = isStep ? (typeof params.toolId === "string" ? params.toolId : null) : method === "tools/call" && typeof args.name === "string" ? args.name : null;
  a.log?.write({
    session: typeof context.session === "string" ? context.session : `aos:${a.caller.name}`,
    route: typeof context.route === "string" ? context.route : "guardian",
    transport: a.caller.transport,
    protocol: req.method === "protocols/A2A" ? "a2a" : isStep ? "aos" : "mcp",
    direction,
    kind,
    id: isStep ? req.id : typeof message.id === "string" || typeof message.id === "number" ? message.id : null,
    method,
    tool,
    agent: a.caller.agent,
    decision: v.decision,
    mode: v.mode,
    rules: v.rules,
    reasonCode: v.reasonCode,
    message: v.message,
    evalUs,
    digest: hash("sha256", canonicalize(message), "hex"),
    ruleset: v.ruleset,
  });
}

function parseOrError(text: string): { value: unknown } | { error: unknown } {
  const parsed = parseJson(text, { maxDepth: DEFAULT_MAX_DEPTH });
  if (parsed.ok) return { value: parsed.value };
  return parsed.code === "TOO_DEEP"
    ? { error: errorResponse(parsed.id, ErrorCode.InvalidRequest, "Invalid Request: nesting too deep") }
    : { error: errorResponse(null, ErrorCode.ParseError, "Parse error") };
}

/** AOS over HTTP: POST application/json, one JSON-RPC request (or batch) per body. */
export function createGuardianHttpServer(guardian: Guardian, info: EndpointInfo, opts: EndpointOptions = {}): Server {
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_FRAME_BYTES;
  return createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      const text = body === undefined ? "" : JSON.stringify(body);
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    let caller: Caller = { agent: null, name: req.socket.remoteAddress ?? "unknown", transport: "aos-http" };
    if (opts.keys && opts.keys.size > 0) {
      const { key } = presentedKey(req.headers);
      const agent = key === undefined ? null : opts.keys.match(key);
      if (!agent) {
        res.writeHead(401, { "www-authenticate": 'Bearer realm="guardwire"', "content-type": "application/json" });
        res.end(JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, "Unauthorized: a valid guardian key is required")));
        req.resume();
        return;
      }
      caller = { agent, name: agent, transport: "aos-http" };
    }
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
    const out = await answer({ guardian, info, log: opts.log, caller }, p.value);
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
export function serveGuardianStdio(guardian: Guardian, info: EndpointInfo, input: Readable, output: Writable, opts: Pick<EndpointOptions, "log"> = {}): Promise<void> {
  const answering: Answering = { guardian, info, log: opts.log, caller: { agent: null, name: "stdio", transport: "aos-stdio" } };
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
        return "error" in p ? p.error : answer(answering, p.value);
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
