import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectWrapped, readLog, ROOT, tempDir, type Wrapped } from "../helpers.js";
import { until } from "../support/poll.js";

/*
 * The trained text model as a newcomer meets it (issue 24, item 9): a real MCP SDK server through `guardwire wrap`
 * with the default pack. An e-mail whose instruction to the assistant the rules alone let through is refused by the
 * model, its score in the decision log; an ordinary e-mail about the same things arrives byte for byte.
 */

const SERVER = join(ROOT, "test", "fixtures", "servers", "text-model-mcp-server.mjs");
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
/** The fixture server's ordinary e-mail, as it sends it. */
const BENIGN = "Reminder from IT: the compliance audit starts Monday. Please make sure your password manager is up to date and that you have enabled two-factor authentication on your account.";

describe("the text model through guardwire wrap (default pack, real SDK client and server)", () => {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  let w: Wrapped;
  beforeAll(async () => {
    w = await connectWrapped(["--log", log], [process.execPath, SERVER], new Client({ name: "guardwire-test", version: "1.0.0" }));
  });
  afterAll(async () => {
    await w?.client.close();
  });

  it("an ordinary e-mail about passwords and an audit passes byte for byte", async () => {
    const r = (await w.client.callTool({ name: "read_email", arguments: { id: "benign" } })) as TextResult;
    expect(r.content.map((c) => c.text).join("\n")).toBe(BENIGN);
  });

  it("an e-mail asking the assistant for every password it has seen is refused by the model, its score logged", async () => {
    const outcome = await w.client.callTool({ name: "read_email", arguments: { id: "attack" } }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    expect(outcome).not.toContain("collect every password");
    expect(outcome).toMatch(/-32050|Denied by policy|text classifier/i);
    const lines = await until(
      () => readLog(log),
      (l) => l.some((x) => (x.rules as string[] | undefined)?.includes("text-model")),
      "the text model's refusal in the decision log",
    );
    const d = lines.find((x) => (x.rules as string[] | undefined)?.includes("text-model")) as Record<string, unknown>;
    expect(d.decision).toBe("deny");
    expect(d.reasonCode).toEqual(["TEXT_MODEL"]);
    expect(JSON.stringify(d)).toMatch(/text model score 0\.\d{3} ≥ 0\.\d+ \(result\)/);
    // the rules alone: nothing else fired on it
    expect((d.rules as string[]).filter((r) => r !== "text-model" && r !== "taint-web-content")).toEqual([]);
  });
});
