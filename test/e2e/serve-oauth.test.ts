import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { ROOT } from "../helpers.js";
import { startProxy } from "../support/proxy.js";
import { stopChild, waitFor } from "../support/servers.js";

const SERVER = join(ROOT, "test", "fixtures", "servers", "oauth-mcp-server.mjs");

/**
 * The MCP SDK client's OAuth side, as an agent would run it, with the browser step done by following the
 * authorization server's redirect (the SDK's demo provider approves at once) and reading the code from it.
 */
class AgentOAuth implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  code: string | null = null;
  readonly redirectUrl = "http://127.0.0.1:9/callback";
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "guardwire test agent",
    redirect_uris: [this.redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const res = await fetch(url, { redirect: "manual" });
    this.code = new URL(res.headers.get("location") ?? "", this.redirectUrl).searchParams.get("code");
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe("serve: an OAuth-protected server, end to end through the proxy", () => {
  it("the SDK client discovers, registers, authorizes and calls tools through the route; the token never reaches the log", async () => {
    const server = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const { match } = await waitFor(server, /listening (\S+)/);
    const upstream = match[1] as string;
    const p = await startProxy([{ name: "secured", path: "/mcp/secured", upstream: streamableHttpUpstream({ url: upstream }), passthrough: upstream }]);
    const route = `${p.base}/mcp/secured`;
    try {
      const oauth = new AgentOAuth();
      // First attempt: the server's 401 comes back through the proxy, the SDK walks the metadata (the protected-resource
      // document through the proxy, naming the route as the resource), registers a client and sends the user to authorize.
      await expect(new Client({ name: "agent", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(route), { authProvider: oauth }))).rejects.toBeInstanceOf(UnauthorizedError);
      expect(oauth.client?.client_id).toBeTruthy();
      expect(oauth.code).toBeTruthy();
      const first = new StreamableHTTPClientTransport(new URL(route), { authProvider: oauth });
      await first.finishAuth(oauth.code as string);
      expect(oauth.saved?.access_token).toBeTruthy();

      // With its token, the agent works through the proxy as it would directly, every message judged and logged.
      const client = new Client({ name: "agent", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(route), { authProvider: oauth }));
      const who = (await client.callTool({ name: "whoami", arguments: {} })) as { content: { text: string }[] };
      expect(who.content[0]?.text).toBe(`client ${oauth.client?.client_id} scopes mcp:tools`);
      await client.close();

      const log = JSON.stringify(p.log());
      expect(p.log().some((l) => l.method === "tools/call" && l.tool === "whoami" && l.decision === "allow")).toBe(true);
      expect(log).not.toContain(oauth.saved?.access_token as string);

      // A wrong token is the server's 401 again, passed down with the challenge naming the proxy's metadata.
      const bad = await fetch(route, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer not-a-token" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
      });
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toContain(`resource_metadata="${p.base}/.well-known/oauth-protected-resource/mcp/secured"`);
    } finally {
      await p.close();
      await stopChild(server);
    }
  });
});
