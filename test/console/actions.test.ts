import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLog, tempDir } from "../helpers.js";
import { CONSOLE_RULES, consoleSuite, openConsole, pageProblems } from "./browser.js";

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown) => (r as TextResult).content.map((c) => c.text).join("\n");

describe("console: approvals, playground, rules in Chromium", { timeout: 90_000 }, () => {
  const rules = join(tempDir(), "rules.yaml");
  copyFileSync(CONSOLE_RULES, rules);
  const s = consoleSuite({ rules });

  it("a held call shows with its time left, is approved by a click, and completes", async () => {
    const page = await openConsole(s.browser, s.served.admin, "approvals");
    await page.getByText("Nothing is waiting for approval.").waitFor();
    const call = s.client.callTool({ name: "echo", arguments: { message: "needs-approval from the console" } });
    const card = page.locator(".card", { hasText: "Allow echo of needs-approval from the console?" });
    await card.waitFor({ timeout: 30_000 });
    await card.getByText(/\d+s left, then deny/).waitFor();
    await card.locator("input[name=reason]").fill("looks fine");
    await card.locator("select[name=remember]").selectOption("session");
    await card.getByRole("button", { name: "Approve" }).click();
    expect(text(await call)).toBe("Echo: needs-approval from the console");
    await card.waitFor({ state: "detached" });
    const decided = () => readLog(s.served.log).find((l) => (l.approval as { step?: string } | undefined)?.step === "decided");
    await expect.poll(decided).toBeDefined();
    expect(decided()?.approval).toMatchObject({ outcome: "approved", reason: "looks fine", remember: "session", by: "console" });
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("the tab counts what waits; an opted-in browser notification tells of a new one; the card shows its redacted arguments", async () => {
    const context = await s.browser.newContext();
    await context.grantPermissions(["notifications"], { origin: s.served.admin.url });
    // The page's own Notification, recorded as it is made (the notification itself is the OS's, out of the page's reach).
    await context.addInitScript(`{
      const Real = window.Notification;
      window.__notes = [];
      window.Notification = class extends Real {
        constructor(title, options) { super(title, options); window.__notes.push({ title, body: options && options.body }); }
      };
    }`);
    const page = await openConsole(context, s.served.admin, "approvals");
    const badge = page.locator("#tab-approvals .count");
    expect(await badge.isHidden()).toBe(true);
    await page.check("#approvals-notify");
    expect(await page.evaluate(`localStorage.getItem("guardwire.notify")`)).toBe("1");
    await page.click("#tab-overview");
    const call = s.client.callTool({ name: "echo", arguments: { message: "needs-approval with key sk-live0123456789abcdefghijkl" } });
    await badge.getByText("1", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe("(1) guardwire console");
    await expect.poll(() => page.evaluate("window.__notes")).toEqual([{ title: "guardwire: approval needed (echo)", body: "Allow echo of needs-approval with key sk-live0123456789abcdefghijkl?" }]);

    await page.click("#tab-approvals");
    const card = page.locator(".card", { hasText: "needs-approval with key" });
    const args = card.locator("pre.arguments");
    await args.waitFor();
    // The arguments as the log's preview redacts them: a credential-shaped value is masked.
    expect(JSON.parse((await args.textContent()) as string)).toEqual({ message: "needs-approval with key [redacted]" });
    await card.getByRole("button", { name: "Deny" }).click();
    await call;
    await badge.waitFor({ state: "hidden" });
    expect(await page.title()).toBe("guardwire console");
    // A second one while the list is in view: no notification (the person is looking at it).
    const again = s.client.callTool({ name: "echo", arguments: { message: "needs-approval while watching" } });
    const second = page.locator(".card", { hasText: "while watching" });
    await second.waitFor({ timeout: 30_000 });
    expect(await page.evaluate("window.__notes.length")).toBe(1);
    await second.getByRole("button", { name: "Deny" }).click();
    await again;
    expect(pageProblems(page)).toEqual([]);
    await context.close();
  });

  it("a held call denied by a click gets the deny, with the reason", async () => {
    const page = await openConsole(s.browser, s.served.admin, "approvals");
    const call = s.client.callTool({ name: "echo", arguments: { message: "needs-approval, to be refused" } });
    const card = page.locator(".card", { hasText: "to be refused" });
    await card.waitFor({ timeout: 30_000 });
    await card.locator("input[name=reason]").fill("not today");
    await card.getByRole("button", { name: "Deny" }).click();
    const r = (await call) as TextResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("not today");
    await page.close();
  });

  it("a list that was asked for before a call was held, and comes after its live event, does not take the card away", async () => {
    // The list (GET /api/approvals) and the live stream are separate connections; on a loaded machine the list can
    // arrive after the event of an approval it does not hold yet. Here every list is held back until the card is up.
    const context = await s.browser.newContext();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let lists = 0;
    await context.route(/\/api\/approvals$/, async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      const response = await route.fetch();
      await gate;
      await route.fulfill({ response });
      lists++;
    });
    const page = await openConsole(context, s.served.admin, "approvals");
    const call = s.client.callTool({ name: "echo", arguments: { message: "needs-approval, held while the list is late" } });
    const card = page.locator(".card", { hasText: "held while the list is late" });
    await card.waitFor({ timeout: 30_000 });
    release();
    // The page asked for the list twice (on load and when the tab was shown); both come back empty, stale.
    await expect.poll(() => lists).toBe(2);
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(0)))");
    expect(await card.isVisible()).toBe(true);
    await card.getByRole("button", { name: "Deny" }).click();
    expect(((await call) as TextResult).isError).toBe(true);
    await card.waitFor({ state: "detached" });
    await context.close();
  });

  it("the playground answers with the rules, reason codes and a diff, and nothing is forwarded or logged", async () => {
    const page = await openConsole(s.browser, s.served.admin, "playground");
    const linesBefore = readFileSync(s.served.log, "utf8").split("\n").length;
    const msg = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "my secret plan" } } };
    await page.fill("textarea[name=message]", JSON.stringify(msg));
    await page.click("#playground-run");
    const out = page.locator("#playground-result");
    await out.locator(".badge").waitFor();
    expect(await out.locator(".badge").textContent()).toBe("modify");
    expect(await out.textContent()).toContain("hide-secret-word");
    expect(await out.locator("pre.diff .del").textContent()).toContain('"message": "my secret plan"');
    expect(await out.locator("pre.diff .add").textContent()).toContain('"message": "my [hidden] plan"');

    await page.fill("textarea[name=message]", JSON.stringify({ ...msg, params: { name: "echo", arguments: { message: "forbidden" } } }));
    await page.click("#playground-run");
    await out.getByText("ECHO_FORBIDDEN").waitFor();
    expect(await out.locator(".badge").textContent()).toBe("deny");
    expect(await out.textContent()).toContain("deny-forbidden-echo");

    await page.fill("textarea[name=message]", "{not json");
    await page.click("#playground-run");
    await out.locator(".error").getByText(/not JSON/).waitFor();

    // The log writes within 100 ms; nothing the playground judged may appear in it, nor reach the server.
    await new Promise((r) => setTimeout(r, 300));
    const after = readFileSync(s.served.log, "utf8");
    expect(after.split("\n").length).toBe(linesBefore);
    expect(after).not.toContain("playground");
    await page.close();
  });

  it("rules: each rule's fired count; a bad edit is refused on reload and the old rules stay; a good one loads", async () => {
    const page = await openConsole(s.browser, s.served.admin, "rules");
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden once more" } });
    const fired = page.locator('#rules-table tr[data-rule="deny-forbidden-echo"] td.fired');
    await page.click("#tab-overview");
    await page.click("#tab-rules");
    await expect.poll(async () => Number(await fired.textContent())).toBeGreaterThanOrEqual(1);

    const good = readFileSync(rules, "utf8");
    writeFileSync(rules, good + "  - id: broken\n    decision: nonsense\n");
    await page.click("#rules-reload-button");
    await page.locator("#rules-reload .error").getByText("Not reloaded").waitFor();
    expect(await page.locator("#rules-reload pre").textContent()).toMatch(/rules\.yaml:\d+:\d+: rules\[\d+\]\.decision/);
    // The rules in force still judge: a forbidden echo is denied.
    expect(((await s.client.callTool({ name: "echo", arguments: { message: "forbidden still" } })) as TextResult).isError).toBe(true);

    writeFileSync(rules, good + "  - id: deny-get-sum\n    match: { method: tools/call, tool: get-sum }\n    decision: deny\n");
    await page.click("#rules-reload-button");
    await page.locator("#rules-reload .ok").getByText("Reloaded").waitFor();
    await page.locator('#rules-table tr[data-rule="deny-get-sum"]').waitFor();
    expect(((await s.client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })) as TextResult).isError).toBe(true);
    // The refused reload is a 422, which Chromium reports as a failed load: expected.
    expect(pageProblems(page).filter((p) => !p.includes("/api/rules/reload") && !p.includes("status of 422"))).toEqual([]);
    await page.close();
  });
});
