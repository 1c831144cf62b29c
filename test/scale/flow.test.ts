import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readLog, tempDir } from "../helpers.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { startEverything, type Running } from "../support/servers.js";

/*
 * Issue 14's cross-replica promise, end to end: one SDK client's session spread over three replicas behind HAProxy
 * (round-robin, no affinity), and a label set by a decision on one replica used by a flow rule on another.
 */
const RULES = `name: flow-across-replicas
rules:
  - id: touched-echo
    match: { direction: outbound, method: tools/call, tool: echo }
    decision: allow
    label: echoed
  - id: no-sum-after-echo
    match: { direction: outbound, method: tools/call, tool: get-sum }
    when: '"echoed" in session.labels'
    decision: deny
    reasonCode: FLOW
`;

describe("a session spread over three replicas keeps its flow state (real Redis, real HAProxy)", () => {
  const dir = tempDir();
  let upstream: Running;
  let cluster: Cluster;
  beforeAll(async () => {
    writeFileSync(join(dir, "rules.yaml"), RULES);
    upstream = await startEverything("streamableHttp");
    cluster = await startCluster(dir, { rules: join(dir, "rules.yaml"), routes: ["  - name: ev", "    path: /mcp/ev", `    mcp: { url: "${upstream.url}" }`] });
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
    await upstream?.stop();
  });

  it("a label set through one replica is used by a flow rule on the others", async () => {
    const client = new Client({ name: "flow", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${cluster.base}/mcp/ev`)));
    const before = await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
    expect(before.isError).toBeFalsy();
    await client.callTool({ name: "echo", arguments: { message: "hi" } });
    const after: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await client.callTool({ name: "get-sum", arguments: { a: 1, b: i } }).then(
        (x) => Boolean(x.isError),
        () => true,
      );
      after.push(r);
    }
    await client.close();
    expect(after).toEqual([true, true, true, true, true, true]);

    // Which replica judged what: one log file per replica (written every 100 ms: wait for the six lines).
    const files = readdirSync(cluster.logDir).filter((f) => f.endsWith(".ndjson"));
    expect(files.sort()).toEqual(["decisions.r1.ndjson", "decisions.r2.ndjson", "decisions.r3.ndjson"]);
    const denialsIn = () => files.map((f) => readLog(join(cluster.logDir, f)).filter((r) => r.tool === "get-sum" && r.decision === "deny" && r.direction === "outbound"));
    await expect.poll(() => denialsIn().flat().length, { timeout: 10_000 }).toBe(6);
    const denials = denialsIn();
    const sessions = new Set(denials.flat().map((r) => r.session));
    expect(sessions.size).toBe(1);
    expect(denials.filter((d) => d.length > 0).length).toBeGreaterThanOrEqual(2);
    expect(denials.flat().length).toBe(6);
    for (const d of denials.flat()) expect(d.rules).toEqual(["no-sum-after-echo"]);
  });
});
