import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DecisionInput } from "../../src/decision-log/record.js";
import { verifyFiles } from "../../src/decision-log/verify.js";
import { DecisionLog, noteOf } from "../../src/decision-log/writer.js";
import { tempDir } from "../helpers.js";

/**
 * The exact bytes the writer produced for these inputs before its split into line format, stamps and recovery
 * (issue 25): a refactoring of the log must not change one byte of what it writes for the same input.
 */

const base: DecisionInput = {
  session: "s-a2022362", route: "server-filesystem", transport: "stdio", protocol: "mcp", direction: "outbound", kind: "request",
  id: 3, method: "tools/call", tool: "read_text_file", agent: null, decision: "allow", mode: "enforce", rules: [], reasonCode: [],
  message: "", evalUs: 31, digest: "9c1e".repeat(16),
};

/** A clock that steps one millisecond per line from a fixed instant. */
function clock(): () => Date {
  let ms = Date.UTC(2026, 10, 26, 3, 0, 0, 998);
  return () => new Date(ms++);
}

const inputs: DecisionInput[] = [
  { ...base, decision: "deny", rules: ["no-credential-files"], reasonCode: ["SENSITIVE_PATH"], message: 'Reading "credential" files is blocked\n— ü ✓ \u0001' },
  { ...base, direction: "inbound", kind: "response", id: "req-7", tool: null, agent: "alice", mode: "audit", decision: "modify", ruleset: "5d0f3a".repeat(4), evalUs: 12.5 },
  {
    ...base, session: "a2a:bob", route: "agent", transport: "a2a-jsonrpc", protocol: "a2a", method: "message/send", tool: null, id: null,
    failOpen: true, preview: '{"text":"hi"}', peer: "Travel Agent", task: "t-1", context: "c-1", replica: "other",
    approval: { step: "requested", id: "ap-1", remember: "once", channels: ["console", "slack"], expires: "2026-11-26T03:05:00.000Z", argsDigest: "ab".repeat(32) },
  },
  noteOf("ALERTS_DROPPED", "3 alerts were dropped"),
  { ...base, digest: "not-a-digest", kind: "notification", id: null, method: "notifications/progress", tool: null },
  { ...base, extra: { z: 1, a: [true, null] } } as DecisionInput,
];

const PINNED_STAMPED = [
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.998Z\",\"seq\":0,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"outbound\",\"kind\":\"request\",\"id\":3,\"method\":\"tools/call\",\"tool\":\"read_text_file\",\"agent\":null,\"decision\":\"deny\",\"mode\":\"enforce\",\"rules\":[\"no-credential-files\"],\"reasonCode\":[\"SENSITIVE_PATH\"],\"message\":\"Reading \\\"credential\\\" files is blocked\\n— ü ✓ \\u0001\",\"evalUs\":31,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"ruleset\":\"41b741b741b741b741b741b741b741b741b741b741b741b741b741b741b741b7\",\"replica\":\"gw2\",\"prev\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"hash\":\"9372ec781e854e50eb6715d551224f0cb58c20366b605b82cee17ebebb7a29a2\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.999Z\",\"seq\":1,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"response\",\"id\":\"req-7\",\"method\":\"tools/call\",\"tool\":null,\"agent\":\"alice\",\"decision\":\"modify\",\"mode\":\"audit\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":12.5,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"ruleset\":\"5d0f3a5d0f3a5d0f3a5d0f3a\",\"replica\":\"gw2\",\"prev\":\"9372ec781e854e50eb6715d551224f0cb58c20366b605b82cee17ebebb7a29a2\",\"hash\":\"7a965c0111677673ffb1a3da06aec87867e22db2b635b7d437d2236ee2c84e9e\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:01.000Z\",\"seq\":2,\"session\":\"a2a:bob\",\"route\":\"agent\",\"transport\":\"a2a-jsonrpc\",\"protocol\":\"a2a\",\"direction\":\"outbound\",\"kind\":\"request\",\"id\":null,\"method\":\"message/send\",\"tool\":null,\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":31,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"ruleset\":\"41b741b741b741b741b741b741b741b741b741b741b741b741b741b741b741b7\",\"replica\":\"other\",\"failOpen\":true,\"preview\":\"{\\\"text\\\":\\\"hi\\\"}\",\"peer\":\"Travel Agent\",\"task\":\"t-1\",\"context\":\"c-1\",\"approval\":{\"argsDigest\":\"abababababababababababababababababababababababababababababababab\",\"channels\":[\"console\",\"slack\"],\"expires\":\"2026-11-26T03:05:00.000Z\",\"id\":\"ap-1\",\"remember\":\"once\",\"step\":\"requested\"},\"prev\":\"7a965c0111677673ffb1a3da06aec87867e22db2b635b7d437d2236ee2c84e9e\",\"hash\":\"a9c6a89a19a67e72a59ec10b6c63e8099bd1d80e6c8756454bba40ea7314c826\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:01.001Z\",\"seq\":3,\"session\":\"-\",\"route\":\"-\",\"transport\":\"-\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"log\",\"id\":null,\"method\":null,\"tool\":null,\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[\"ALERTS_DROPPED\"],\"message\":\"3 alerts were dropped\",\"evalUs\":0,\"digest\":null,\"ruleset\":\"41b741b741b741b741b741b741b741b741b741b741b741b741b741b741b741b7\",\"replica\":\"gw2\",\"prev\":\"a9c6a89a19a67e72a59ec10b6c63e8099bd1d80e6c8756454bba40ea7314c826\",\"hash\":\"513e3783c818c1224e2f3f0535dbb125924281e6e9a8ed18c1043cea0e62def4\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:01.002Z\",\"seq\":4,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"outbound\",\"kind\":\"notification\",\"id\":null,\"method\":\"notifications/progress\",\"tool\":null,\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":31,\"digest\":\"not-a-digest\",\"ruleset\":\"41b741b741b741b741b741b741b741b741b741b741b741b741b741b741b741b7\",\"replica\":\"gw2\",\"prev\":\"513e3783c818c1224e2f3f0535dbb125924281e6e9a8ed18c1043cea0e62def4\",\"hash\":\"e99142c1d849d8abcd8f23429625a9664e8ac2aa5af76ac6e898478b94a18c37\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:01.003Z\",\"seq\":5,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"outbound\",\"kind\":\"request\",\"id\":3,\"method\":\"tools/call\",\"tool\":\"read_text_file\",\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":31,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"extra\":{\"z\":1,\"a\":[true,null]},\"ruleset\":\"41b741b741b741b741b741b741b741b741b741b741b741b741b741b741b741b7\",\"replica\":\"gw2\",\"prev\":\"e99142c1d849d8abcd8f23429625a9664e8ac2aa5af76ac6e898478b94a18c37\",\"hash\":\"7ed684a30ab6069cd2ff9f59d0bad6a10d6e95b2f2b440a1423d63a14ec46754\"}",
  "",
];

const PINNED_PLAIN = [
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.998Z\",\"seq\":0,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"outbound\",\"kind\":\"request\",\"id\":3,\"method\":\"tools/call\",\"tool\":\"read_text_file\",\"agent\":null,\"decision\":\"deny\",\"mode\":\"enforce\",\"rules\":[\"no-credential-files\"],\"reasonCode\":[\"SENSITIVE_PATH\"],\"message\":\"Reading \\\"credential\\\" files is blocked\\n— ü ✓ \\u0001\",\"evalUs\":31,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"prev\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"hash\":\"614168359216f60ffb194ab66582185fbf51d5040281e1a51104a782c429c5cb\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.999Z\",\"seq\":1,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"response\",\"id\":\"req-7\",\"method\":\"tools/call\",\"tool\":null,\"agent\":\"alice\",\"decision\":\"modify\",\"mode\":\"audit\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":12.5,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"ruleset\":\"5d0f3a5d0f3a5d0f3a5d0f3a\",\"prev\":\"614168359216f60ffb194ab66582185fbf51d5040281e1a51104a782c429c5cb\",\"hash\":\"9ba5cc41da63d8e8bb4c9f3f7f0045b9aa517bc7ebe1b517e880e79cea0a2582\"}",
  "",
];

const PINNED_RECOVERED = [
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.998Z\",\"seq\":0,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"outbound\",\"kind\":\"request\",\"id\":3,\"method\":\"tools/call\",\"tool\":\"read_text_file\",\"agent\":null,\"decision\":\"deny\",\"mode\":\"enforce\",\"rules\":[\"no-credential-files\"],\"reasonCode\":[\"SENSITIVE_PATH\"],\"message\":\"Reading \\\"credential\\\" files is blocked\\n— ü ✓ \\u0001\",\"evalUs\":31,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"prev\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"hash\":\"614168359216f60ffb194ab66582185fbf51d5040281e1a51104a782c429c5cb\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.999Z\",\"seq\":1,\"session\":\"s-a2022362\",\"route\":\"server-filesystem\",\"transport\":\"stdio\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"response\",\"id\":\"req-7\",\"method\":\"tools/call\",\"tool\":null,\"agent\":\"alice\",\"decision\":\"modify\",\"mode\":\"audit\",\"rules\":[],\"reasonCode\":[],\"message\":\"\",\"evalUs\":12.5,\"digest\":\"9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e9c1e\",\"ruleset\":\"5d0f3a5d0f3a5d0f3a5d0f3a\",\"prev\":\"614168359216f60ffb194ab66582185fbf51d5040281e1a51104a782c429c5cb\",\"hash\":\"9ba5cc41da63d8e8bb4c9f3f7f0045b9aa517bc7ebe1b517e880e79cea0a2582\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:0",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.998Z\",\"seq\":2,\"session\":\"-\",\"route\":\"-\",\"transport\":\"-\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"log\",\"id\":null,\"method\":null,\"tool\":null,\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[\"LOG_RECOVERED\"],\"message\":\"a torn last line (33 characters, a crash mid-write) was closed on restart; the chain continues from the line before it\",\"evalUs\":0,\"digest\":null,\"torn\":\"479d15b783e660acda6c15b3a7672eb887ef641e7e5e11db0e9451809a9ca63e\",\"prev\":\"9ba5cc41da63d8e8bb4c9f3f7f0045b9aa517bc7ebe1b517e880e79cea0a2582\",\"hash\":\"c73409bae725f36b390f3494194564f11baf447d14f0103677619aed1cc16f1e\"}",
  "{\"v\":2,\"time\":\"2026-11-26T03:00:00.999Z\",\"seq\":3,\"session\":\"-\",\"route\":\"-\",\"transport\":\"-\",\"protocol\":\"mcp\",\"direction\":\"inbound\",\"kind\":\"log\",\"id\":null,\"method\":null,\"tool\":null,\"agent\":null,\"decision\":\"allow\",\"mode\":\"enforce\",\"rules\":[],\"reasonCode\":[\"ALERTS_DROPPED\"],\"message\":\"3 alerts were dropped\",\"evalUs\":0,\"digest\":null,\"prev\":\"c73409bae725f36b390f3494194564f11baf447d14f0103677619aed1cc16f1e\",\"hash\":\"6e56f8be91ec7bd0e44b3e3f3e31a326200e9640e3d06e764c0e6de6ad97fb88\"}",
  "",
];

async function written(file: string, opts: { replica?: string; ruleset?: () => string }, lines: DecisionInput[]): Promise<string[]> {
  const log = DecisionLog.open({ dest: file, clock: clock(), ...opts });
  for (const l of lines) log.write(l);
  await log.close();
  return readFileSync(file, "utf8").split("\n");
}

describe("the log's bytes for the same input are pinned", () => {
  it("every kind of field, stamped with a replica and the rules in force", async () => {
    const file = join(tempDir(), "stamped.ndjson");
    const got = await written(file, { replica: "gw2", ruleset: () => "41b7".repeat(16) }, inputs);
    expect(got).toEqual(PINNED_STAMPED);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: inputs.length });
  });

  it("without replica or rules, and continued after a torn last line", async () => {
    const file = join(tempDir(), "plain.ndjson");
    const got = await written(file, {}, inputs.slice(0, 2));
    expect(got).toEqual(PINNED_PLAIN);
    appendFileSync(file, '{"v":2,"time":"2026-11-26T03:00:0');
    const more = await written(file, {}, inputs.slice(3, 4));
    expect(more).toEqual(PINNED_RECOVERED);
    expect(await verifyFiles([file])).toMatchObject({ ok: true, lines: 4, recovered: 1 });
  });
});
