// A witness upstream for the invariant suite: a real MCP server (the MCP SDK's McpServer on its own transports) or a
// real A2A agent (@a2a-js/sdk 0.3), which appends every delivery it receives — the raw bytes of a POST body, a stdin
// line, a WebSocket frame — to WITNESS_FILE as one JSON line {w, text}, before its SDK reads it. So it records what
// arrived, including what the SDK would reject. `node witness.mjs <stdio|http|sse|ws|a2a>`; the network kinds listen
// on 127.0.0.1:0 and print `listening <port>`.
//
// Batches (MCP 2025-03-26) are taken on every transport: the SDK's McpServer judges each element, and over stdio and
// WebSocket the replies to a batch go back as one array (the SDK's own stdio and SSE transports drop a batch unanswered).
//
// Paths are resolved the way WHATWG URL parsing resolves them (dot segments and %2e%2e removed), as most servers do:
// a request the proxy passed on to `/.well-known/../mcp` lands on the MCP endpoint here, as it would on a real server.
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createInterface } from "node:readline";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { WebSocketServer } from "ws";
import { z } from "zod";

const kind = process.argv[2];
const file = process.env.WITNESS_FILE;
if (!file) throw new Error("WITNESS_FILE is required");
const record = (text) => appendFileSync(file, JSON.stringify({ w: kind, text }) + "\n");

function mcpServer() {
  const s = new McpServer({ name: `witness-${kind}`, version: "1.0.0" });
  s.registerTool("echo", { description: "echoes its message", inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: "text", text: message }] }));
  s.registerTool("forbidden", { description: "the rules never let a call through" }, async () => ({ content: [{ type: "text", text: "reached" }] }));
  return s;
}

const pathOf = (req) => {
  try {
    return new URL(req.url ?? "/", "http://witness").pathname;
  } catch {
    return "";
  }
};

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });

const parse = (text) => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const badRequest = (res) => res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));

/** A transport for the SDK server over a line or frame channel, with batches: each element in, the replies as one array. */
function messageTransport(write) {
  const batches = [];
  const transport = {
    async start() {},
    async close() {},
    async send(message) {
      const batch = "method" in message ? undefined : batches.find((b) => b.want.has(message.id));
      if (!batch) return write(JSON.stringify(message));
      batch.want.delete(message.id);
      batch.replies.push(message);
      if (batch.want.size > 0) return;
      batches.splice(batches.indexOf(batch), 1);
      write(JSON.stringify(batch.replies));
    },
    receive(text) {
      record(text);
      const parsed = parse(text);
      if (!parsed.ok) return;
      if (!Array.isArray(parsed.value)) return transport.onmessage?.(parsed.value);
      const ids = parsed.value.filter((m) => typeof m?.method === "string" && m.id !== undefined && m.id !== null).map((m) => m.id);
      if (ids.length > 0) batches.push({ want: new Set(ids), replies: [] });
      for (const m of parsed.value) transport.onmessage?.(m);
    },
  };
  return transport;
}

async function listen(server) {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  console.log(`listening ${server.address().port}`);
}

if (kind === "stdio") {
  const transport = messageTransport((text) => process.stdout.write(text + "\n"));
  createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => line.trim() !== "" && transport.receive(line));
  process.stdin.on("end", () => process.exit(0));
  await mcpServer().connect(transport);
} else if (kind === "http") {
  const sessions = new Map();
  await listen(
    createServer(async (req, res) => {
      if (pathOf(req) !== "/mcp") return void res.writeHead(404).end();
      let body;
      if (req.method === "POST") {
        const text = await readBody(req);
        record(text);
        const parsed = parse(text);
        if (!parsed.ok) return badRequest(res);
        body = parsed.value;
      }
      const sid = req.headers["mcp-session-id"];
      let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
      if (!transport && sid === undefined && req.method === "POST") {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => sessions.set(id, transport) });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await mcpServer().connect(transport);
      }
      if (!transport) return void res.writeHead(404).end();
      await transport.handleRequest(req, res, body);
    }),
  );
} else if (kind === "sse") {
  const sessions = new Map();
  await listen(
    createServer(async (req, res) => {
      const path = pathOf(req);
      if (req.method === "GET" && path === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => sessions.delete(transport.sessionId);
        await mcpServer().connect(transport);
        return;
      }
      if (req.method !== "POST" || path !== "/messages") return void res.writeHead(404).end();
      const text = await readBody(req);
      record(text);
      const transport = sessions.get(new URL(req.url ?? "/", "http://witness").searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end();
      const parsed = parse(text);
      if (!parsed.ok) return badRequest(res);
      if (!Array.isArray(parsed.value)) return void (await transport.handlePostMessage(req, res, parsed.value));
      for (const m of parsed.value) await transport.handleMessage(m);
      res.writeHead(202).end("Accepted");
    }),
  );
} else if (kind === "ws") {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, handleProtocols: (protocols) => (protocols.has("mcp") ? "mcp" : false) });
  wss.on("connection", (ws) => {
    const transport = messageTransport((text) => ws.send(text));
    ws.on("message", (data) => transport.receive(data.toString("utf8")));
    ws.on("close", () => transport.onclose?.());
    void mcpServer().connect(transport);
  });
  await listen(server);
} else if (kind === "a2a") {
  const { default: express } = await import("express");
  const { DefaultRequestHandler, InMemoryTaskStore } = await import("a2a-sdk-03/server");
  const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import("a2a-sdk-03/server/express");
  const app = express();
  const server = createServer(app);
  await listen(server);
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: "Witness Agent",
    description: "Echoes what it is sent.",
    protocolVersion: "0.3.0",
    version: "1.0.0",
    url: `${base}/a2a/jsonrpc`,
    preferredTransport: "JSONRPC",
    skills: [{ id: "echo", name: "Echo", description: "Echo text", tags: ["echo"] }],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
  };
  const textOf = (message) => (message?.parts ?? []).filter((p) => p.kind === "text").map((p) => p.text).join(" ");
  const executor = {
    async execute(ctx, bus) {
      bus.publish({ kind: "message", messageId: randomUUID(), role: "agent", parts: [{ kind: "text", text: `You said: ${textOf(ctx.userMessage)}` }], contextId: ctx.contextId });
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  // The body is recorded as it arrived (verify runs before parsing), then parsed here so the SDK's own parser skips it.
  app.use("/a2a/jsonrpc", express.json({ limit: "64mb", type: () => true, verify: (_req, _res, buf) => record(buf.toString("utf8")) }), jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
} else {
  throw new Error(`unknown witness kind ${kind}`);
}
