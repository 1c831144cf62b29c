import { createWriteStream, writeFileSync } from "node:fs";
import { once } from "node:events";
import { get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminServer } from "../../src/admin/server.js";
import { csvCell, exportRoutes, parseQuery } from "../../src/admin/export-api.js";
import { matchesFilter, splitPatterns, type DecisionFilter } from "../../src/observe/filter.js";
import { matcher, patterns } from "../../console/src/filter.js";
import { tempDir } from "../helpers.js";

/** A log line as the writer makes them (the export reads fields, it does not verify the chain). */
function line(seq: number, at: number, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    v: 2,
    time: new Date(at).toISOString(),
    seq,
    session: seq % 2 ? "s-odd" : "s-even",
    route: seq % 3 ? "files" : "web",
    transport: "stdio",
    protocol: "mcp",
    direction: seq % 4 ? "outbound" : "inbound",
    kind: "request",
    id: seq,
    method: "tools/call",
    tool: seq % 5 ? "read_file" : "fetch",
    agent: seq % 7 ? "claude" : null,
    decision: seq % 6 ? "allow" : "deny",
    mode: "enforce",
    rules: seq % 6 ? [] : ["deny-secrets"],
    reasonCode: [],
    message: seq % 6 ? "no rule matched" : "=HYPERLINK(\"http://x\"), said \"no\"",
    evalUs: 3,
    digest: null,
    prev: "0".repeat(64),
    hash: seq.toString(16).padStart(64, "0"),
    ...over,
  });
}

const T0 = Date.parse("2026-11-26T10:00:00Z");
const seqsOf = (text: string) => text.split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { seq: number }).seq);

describe("GET /api/decisions/export", () => {
  const dir = tempDir();
  const file = join(dir, "decisions.ndjson");
  let server: Server;
  let base: string;
  let flushed = 0;
  beforeAll(async () => {
    // Rotated first (log.1 is older), then the current file: 100 lines a minute apart, 50 in each.
    writeFileSync(`${file}.1`, Array.from({ length: 50 }, (_, i) => line(i + 1, T0 + i * 60_000)).join("\n") + "\n");
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => line(i + 51, T0 + (i + 50) * 60_000)).join("\n") + "\nnot a decision\n");
    server = createAdminServer({ token: "t0ken", version: "test", routes: exportRoutes({ file, flush: () => flushed++ }) });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const fetchExport = (query: string) => fetch(`${base}/api/decisions/export?${query}`, { headers: { authorization: "Bearer t0ken" } });

  it("NDJSON: the log's own lines, rotated file first, filtered as tail filters, in the time range; after a flush", async () => {
    const all = await fetchExport("");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(all.headers.get("content-disposition")).toBe('attachment; filename="guardwire-decisions.ndjson"');
    const lines = (await all.text()).trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(lines[0]).toBe(line(1, T0));
    expect(flushed).toBeGreaterThan(0);

    const from = new Date(T0 + 30 * 60_000).toISOString();
    const to = new Date(T0 + 90 * 60_000).toISOString();
    const r = await fetchExport(`from=${from}&to=${to}&decision=deny&route=f*&rule=deny-*`);
    expect(r.headers.get("content-disposition")).toMatch(/filename="guardwire-decisions_2026-11-26T10-30-00-000Z_2026-11-26T11-30-00-000Z\.ndjson"/);
    // Minutes 30..89 (seq 31..90), deny (seq % 6 == 0), route files (seq % 3 != 0): none, since 6 divides by 3.
    expect(seqsOf(await r.text())).toEqual([]);
    expect(seqsOf(await (await fetchExport(`from=${from}&to=${to}&decision=deny`)).text())).toEqual([36, 42, 48, 54, 60, 66, 72, 78, 84, 90]);
    expect(seqsOf(await (await fetchExport(`from=${from}&to=${to}&decision=deny&route=w*&rule=deny-*`)).text())).toEqual([36, 42, 48, 54, 60, 66, 72, 78, 84, 90]);
    // Several globs (repeated or comma-separated), each field must match: agent null never matches a pattern.
    expect(seqsOf(await (await fetchExport("session=s-odd&tool=fetch,x&agent=*")).text())).toEqual([5, 15, 25, 45, 55, 65, 75, 85, 95]);
  });

  it("CSV: a header, one record per line, quotes doubled, and no cell a spreadsheet would run as a formula", async () => {
    const r = await fetchExport("format=csv&decision=deny&to=" + new Date(T0 + 7 * 60_000).toISOString());
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = (await r.text()).split("\r\n");
    expect(rows[0]).toBe("time,seq,session,route,agent,direction,kind,id,method,tool,decision,mode,rules,reasonCode,message,evalUs,transport,protocol,peer,task,context,approval,replica,digest,hash");
    expect(rows[1]).toBe(`2026-11-26T10:05:00.000Z,6,s-even,web,claude,outbound,request,6,tools/call,read_file,deny,enforce,deny-secrets,,"'=HYPERLINK(""http://x""), said ""no""",3,stdio,mcp,,,,,,,${(6).toString(16).padStart(64, "0")}`);
    expect(rows.slice(2)).toEqual([""]);
    expect([csvCell("-"), csvCell("-3"), csvCell(-3), csvCell("+1 555"), csvCell("@sum"), csvCell("a\nb"), csvCell(null)]).toEqual(["-", "-3", "-3", "'+1 555", "'@sum", '"a\nb"', ""]);
  });

  it("refuses what it cannot read: an unknown parameter, a bad time or format (400); no log file (409)", async () => {
    expect((await fetchExport("decison=deny")).status).toBe(400);
    expect((await fetchExport("from=yesterday")).status).toBe(400);
    expect((await fetchExport("format=xml")).status).toBe(400);
    expect((await fetch(`${base}/api/decisions/export`)).status).toBe(401);
    expect(parseQuery(new URLSearchParams("tool={a,b},c&tool=d"))).toMatchObject({ filter: { tool: ["{a,b}", "c", "d"] } });
    const stderrLog = createAdminServer({ token: null, version: "t", routes: exportRoutes({ file: null, flush: () => {} }) });
    await new Promise<void>((r) => stderrLog.listen(0, "127.0.0.1", r));
    const res = await fetch(`http://127.0.0.1:${(stderrLog.address() as AddressInfo).port}/api/decisions/export`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    await new Promise<void>((r) => stderrLog.close(() => r()));
  });

  it("streams with bounded memory: a 60 MB log to a reader that stops holds no more than a few MB here", async () => {
    const big = join(dir, "big.ndjson");
    const out = createWriteStream(big);
    const pad = "x".repeat(400);
    let bytes = 0;
    for (let i = 1; bytes < 60 * 1024 * 1024; i++) {
      const l = line(i, T0 + i, { message: pad }) + "\n";
      bytes += l.length;
      if (!out.write(l)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    const bigServer = createAdminServer({ token: null, version: "t", routes: exportRoutes({ file: big, flush: () => {} }) });
    await new Promise<void>((r) => bigServer.listen(0, "127.0.0.1", r));
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const before = used();
    const res = await new Promise<IncomingMessage>((resolve) => get(`http://127.0.0.1:${(bigServer.address() as AddressInfo).port}/api/decisions/export`, resolve));
    await once(res, "readable");
    res.pause();
    // The reader stopped: the server waits for it (backpressure) instead of reading the log into memory.
    await new Promise((r) => setTimeout(r, 1500));
    const held = used() - before;
    let got = 0;
    res.on("data", (c: Buffer) => (got += c.length));
    res.resume();
    await once(res, "end");
    await new Promise<void>((r) => bigServer.close(() => r()));
    expect(got).toBe(bytes);
    expect(held).toBeLessThan(20 * 1024 * 1024);
  }, 120_000);
});

describe("the console's filter is tail's", () => {
  const records: (Parameters<typeof matchesFilter>[0] & Parameters<ReturnType<typeof matcher>>[0])[] = [
    { session: "s-1", route: "files", agent: "claude", rules: ["deny-secrets", "audit-x"], decision: "deny", direction: "outbound", method: "tools/call", tool: "read_file", task: undefined, context: undefined },
    { session: "s-2", route: "web", agent: null, rules: [], decision: "allow", direction: "inbound", method: null, tool: null, task: undefined, context: undefined },
    { session: "3f2a-9", route: "files", agent: "cursor", rules: ["allow-read"], decision: "allow", direction: "outbound", method: "resources/read", tool: null, task: undefined, context: undefined },
  ];
  const filters: string[] = [
    "",
    "session=s-*",
    "session=3f2a*",
    "route=files&decision=allow",
    "agent=*",
    "agent=c[lu]*",
    "rule=deny-*",
    "rule=audit-x",
    "rule=*",
    "decision=deny,modify",
    "direction=inbound",
    "method=tools/*",
    "method={tools,resources}/*",
    "tool=read_?ile",
    "tool=[!r]*",
    "session=s-1&route=web",
  ];
  it.each(filters)("%s: the same decisions match in the page and in tail", (q) => {
    const params = new URLSearchParams(q);
    const f: DecisionFilter = {};
    for (const [k, v] of params) f[k as keyof DecisionFilter] = splitPatterns(v);
    const page = matcher(Object.fromEntries([...params].map(([k, v]) => [k, patterns(v)])));
    expect(records.map((r) => page(r))).toEqual(records.map((r) => matchesFilter(r, f)));
  });
});
