import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamableHttpUpstream } from "../../src/transports/upstream/streamable-http.js";
import { startProxy, type InProcessProxy } from "../support/proxy.js";
import { startEverything, type Running } from "../support/servers.js";

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const KEY = "host-header-test-agent-key-0123456789";

/** One request with exactly this Host line (a client library would refuse some of them), on its own connection: status. */
function postWithHost(base: string, host: string): Promise<number> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), "127.0.0.1", () => {
      s.write(
        `POST /mcp/ev HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `Authorization: Bearer ${KEY}\r\nContent-Length: ${Buffer.byteLength(INIT)}\r\nConnection: close\r\n\r\n${INIT}`,
      );
    });
    let head = "";
    s.on("data", (d: Buffer) => (head += d.toString("latin1")));
    s.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    s.on("error", reject);
  });
}

describe("serve: the Host header guardwire builds URLs on", () => {
  let up: Running;
  let p: InProcessProxy;
  beforeAll(async () => {
    up = await startEverything("streamableHttp");
    // Not a loopback listener, no allowedHosts: any well-formed Host is served (with the agent's key).
    p = await startProxy([{ name: "ev", path: "/mcp/ev", upstream: streamableHttpUpstream({ url: up.url }) }], { agents: [{ id: "alice", key: KEY }], listenHost: "0.0.0.0" });
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await up?.stop();
  });

  it("a Host that is not host[:port] is a 400 HOST_MALFORMED, logged; the proxy goes on serving", async () => {
    const malformed = ["a b", "exa mple:80", "[::1", "[zz::1]", "x%y", "a/b", "@evil", "user@host:1", "a?b", "a#b"];
    for (const host of malformed) expect({ host, status: await postWithHost(p.base, host) }).toEqual({ host, status: 400 });
    for (const host of ["proxy.example:7070", "PROXY.example", "10.0.0.5", "[::1]:7070", "my_host.internal"]) {
      expect({ host, status: await postWithHost(p.base, host) }).toEqual({ host, status: 200 });
    }
    const refused = p.log().filter((l) => l.kind === "refused" && (l.reasonCode as string[])[0] === "HOST_MALFORMED");
    expect(refused).toHaveLength(malformed.length);
    expect(refused[0]?.message).toContain("the Host header is not a host[:port]");
  }, 60_000);
});
