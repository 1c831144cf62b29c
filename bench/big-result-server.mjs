// A real MCP server (SDK, Streamable HTTP, stateless) with one tool, `big`, that returns `mb` MiB of text: the
// large-result case of the serve bench. Listens on PORT at /mcp and prints `listening <port>`.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function server() {
  const s = new McpServer({ name: "big-result", version: "1.0.0" });
  s.registerTool("big", { inputSchema: { mb: z.number() } }, async ({ mb }) => ({
    content: [{ type: "text", text: "lorem ipsum dolor sit amet ".repeat(Math.ceil((mb * 1024 * 1024) / 27)).slice(0, mb * 1024 * 1024) }],
  }));
  return s;
}

const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => void transport.close());
  await server().connect(transport);
  await transport.handleRequest(req, res, body);
});
http.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`listening ${http.address().port}`));
