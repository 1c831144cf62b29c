import { describe, expect, it } from "vitest";
import { envelopeVersionOf, isStatelessVersion, statelessHeadersOf } from "../../src/protocol/mcp.js";

describe("the stateless revision (2026-07-28): its envelope and its headers", () => {
  it("tells the stateless revisions from the 2025 ones", () => {
    expect(["2026-07-28", "2027-01-01"].map(isStatelessVersion)).toEqual([true, true]);
    expect(["2025-11-25", "2025-03-26", "", "2026-7-28", undefined, 20260728].map(isStatelessVersion)).toEqual([false, false, false, false, false, false]);
    expect(envelopeVersionOf({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } })).toBe("2026-07-28");
    expect(envelopeVersionOf({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })).toBeNull();
    expect(envelopeVersionOf([{}])).toBeNull();
  });

  it("derives Mcp-Method and Mcp-Name from the body, base64 in the SDKs' sentinel when not plain ASCII", () => {
    const call = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });
    expect(statelessHeadersOf(call("echo"))).toEqual({ "mcp-method": "tools/call", "mcp-name": "echo" });
    expect(statelessHeadersOf(call("café"))).toEqual({ "mcp-method": "tools/call", "mcp-name": `=?base64?${Buffer.from("café").toString("base64")}?=` });
    expect(statelessHeadersOf(call(" padded"))["mcp-name"]).toMatch(/^=\?base64\?/);
    expect(statelessHeadersOf({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "file:///a.txt" } })).toEqual({ "mcp-method": "resources/read", "mcp-name": "file:///a.txt" });
    expect(statelessHeadersOf({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} })).toEqual({ "mcp-method": "tools/list" });
  });
});
