import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLog, tempDir } from "../helpers.js";
import { a2aSender, adminJson, startA2aServeWithAdmin, stopChild } from "../support/servers.js";

/** The first approval waiting in `api`'s guardwire. */
async function nextHeld(api: ReturnType<typeof adminJson>): Promise<{ id: string; prompt: string; route: string; session: string }> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const list = (await api("GET", "/api/approvals")).approvals as { id: string; prompt: string; route: string; session: string }[];
    if (list[0]) return list[0];
  }
  throw new Error("nothing held");
}

/**
 * `serve` with an A2A route to the echo agent and the admin API, judged by one ask rule on sends that contain
 * "needs-approval" (`ask`: the rule's ask options), for the tests of one describe block.
 */
function askRoute(ask: string) {
  const dir = tempDir();
  const ctx = { log: join(dir, "decisions.ndjson"), adminFile: join(dir, "admin.json"), base: "" };
  const rules = join(dir, "rules.yaml");
  writeFileSync(
    rules,
    [
      "name: a2a-ask",
      "rules:",
      "  - id: ask-send",
      "    match: { protocol: a2a, direction: outbound, operation: send }",
      "    when: 'text.contains(\"needs-approval\")'",
      "    decision: ask",
      `    ask: ${ask}`,
    ].join("\n"),
  );
  let agent: ChildProcess | undefined;
  let serve: ChildProcess | undefined;
  beforeAll(async () => {
    let base: string;
    ({ agent, serve, base } = await startA2aServeWithAdmin(dir, { rules, log: ctx.log, adminFile: ctx.adminFile }));
    ctx.base = base;
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    if (agent) await stopChild(agent);
  });
  return ctx;
}

describe("approvals on an A2A route (serve): held, approved through the admin API", () => {
  const route = askRoute('{ timeout: 20s, prompt: "Send a message through {route}?" }');
  const { log, adminFile } = route;

  it("a message/send is held until approved, then answered by the agent; a refused one is an error", async () => {
    const send = await a2aSender(`${route.base}/a2a/echo/`);
    const api = adminJson(adminFile);
    const next = () => nextHeld(api);

    const approved = send("needs-approval: hello");
    const h = await next();
    expect(h).toMatchObject({ prompt: "Send a message through echo?", route: "echo" });
    await api("POST", `/api/approvals/${h.id}/approve`, { by: "carol" });
    expect(JSON.stringify(await approved)).toContain("needs-approval: hello");

    const refused = send("needs-approval: again").catch((e: Error) => e);
    const r = await next();
    await api("POST", `/api/approvals/${r.id}/deny`, { reason: "not now" });
    expect(String(await refused)).toMatch(/Denied by policy/);

    const decidedLines = () => readLog(log).filter((l) => (l.approval as { step?: string } | undefined)?.step === "decided");
    // The log is written just after the answer: wait for the line.
    for (const deadline = Date.now() + 10_000; decidedLines().length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    const decided = decidedLines();
    expect(decided.map((l) => [l.protocol, (l.approval as { outcome: string }).outcome])).toEqual([["a2a", "approved"], ["a2a", "refused"]]);
  });
});

describe("approvals on an A2A route (serve): remembered for the caller's session", () => {
  const route = askRoute('{ timeout: 20s, remember: session, prompt: "Send through {route}?" }');
  const { log, adminFile } = route;

  it("the same message sent again (a new messageId, a later call) goes on without asking; another message is asked about", async () => {
    const send = await a2aSender(`${route.base}/a2a/echo/`);
    const api = adminJson(adminFile);
    const first = send("needs-approval: deploy v2");
    const h = await nextHeld(api);
    await api("POST", `/api/approvals/${h.id}/approve`, { remember: "session", by: "carol" });
    expect(JSON.stringify(await first)).toContain("needs-approval: deploy v2");

    // Each send is an exchange of its own that ends with its answer; the caller's session and its approval go on.
    const again = await send("needs-approval: deploy v2");
    expect(JSON.stringify(again)).toContain("needs-approval: deploy v2");
    const remembered = (await api("GET", "/api/approvals/remembered")).remembered as { id: string; scope: string; session: string; expiresAt: string | null }[];
    expect(remembered).toHaveLength(1);
    expect(remembered[0]).toMatchObject({ id: h.id, scope: "session", session: h.session });
    // The caller's session has no end of its own: the approval lasts an hour from when it was given.
    const lasts = Date.parse(remembered[0]?.expiresAt ?? "") - Date.now();
    expect(lasts).toBeGreaterThan(55 * 60_000);
    expect(lasts).toBeLessThanOrEqual(60 * 60_000);

    const other = send("needs-approval: drop the table").catch((e: Error) => e);
    const o = await nextHeld(api);
    expect(o.id).not.toBe(h.id);
    await api("POST", `/api/approvals/${o.id}/deny`, {});
    expect(String(await other)).toMatch(/Denied by policy/);

    const steps = () => readLog(log).flatMap((l) => ((l.approval as { step?: string; id?: string } | undefined)?.step ? [[(l.approval as { step: string }).step, (l.approval as { id: string }).id]] : []));
    for (const deadline = Date.now() + 10_000; steps().filter(([s]) => s === "decided").length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    expect(steps()).toEqual([
      ["requested", h.id],
      ["decided", h.id],
      ["remembered", h.id],
      ["requested", o.id],
      ["decided", o.id],
    ]);
  });
});
