import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { tempDir } from "../helpers.js";
import { CONSOLE_RULES, consoleSuite, openConsole, pageProblems } from "./browser.js";

const rows = (page: Page) => page.locator("#live-table tbody tr");
const col = (name: string) => `td[data-label="${name}"]`;

/** The console's rules and one rule that allows by name, so rows decided by a rule and by the default both occur. */
function rulesWithAnAllow(): string {
  const file = join(tempDir(), "rules.yaml");
  writeFileSync(file, readFileSync(CONSOLE_RULES, "utf8") + "  - id: allow-get-sum\n    match: { method: tools/call, tool: get-sum }\n    decision: allow\n");
  return file;
}

describe("console: the live view's sessions, filters, rules and details in Chromium", () => {
  const s = consoleSuite({ rules: rulesWithAnAllow() });

  it("each row names its session by a short id (the full one in its title); a click on it shows only that session", async () => {
    const other = await s.served.client();
    const page = await openConsole(s.browser, s.served.admin, "live");
    await s.client.callTool({ name: "echo", arguments: { message: "from the first" } });
    await other.callTool({ name: "echo", arguments: { message: "from the second" } });
    await expect.poll(async () => new Set(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session")))).size, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

    const first = rows(page).first();
    const id = (await first.getAttribute("data-session")) as string;
    const button = first.locator(`${col("session")} button`);
    expect(await button.textContent()).toBe(id.slice(0, 8));
    expect(await button.getAttribute("title")).toContain(id);
    await button.click();
    expect(await page.inputValue("input[name=filter-session]")).toBe(id);
    await expect.poll(async () => new Set(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session"))))).toEqual(new Set([id]));
    // The click on the id filters; it does not open the row's details.
    expect(await page.locator("#details").isHidden()).toBe(true);
    // A glob on the session, as tail --session takes it.
    await page.fill("input[name=filter-session]", `${id.slice(0, 4)}*`);
    await expect.poll(async () => (await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session")))).every((x) => x?.startsWith(id.slice(0, 4)))).toBe(true);
    await page.fill("input[name=filter-session]", "");
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("filters as tail's: method and tool globs, {a,b} and comma lists, agent, and every filter given must match", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    await s.client.callTool({ name: "echo", arguments: { message: "plain" } });
    await s.client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
    await rows(page).filter({ hasText: "get-sum" }).first().waitFor();
    const tools = async () => new Set(await rows(page).locator(col("tool")).allTextContents());

    await page.fill("input[name=filter-method]", "tools/*");
    await expect.poll(async () => new Set(await rows(page).locator(col("method")).allTextContents())).toEqual(new Set(["tools/call"]));
    await page.fill("input[name=filter-tool]", "{echo,get-sum}");
    await expect.poll(tools).toEqual(new Set(["echo", "get-sum"]));
    await page.fill("input[name=filter-tool]", "get-s?m, echo");
    await expect.poll(tools).toEqual(new Set(["echo", "get-sum"]));
    // Every filter given must match: tool and rule together leave only the rows of that rule on that tool.
    await page.fill("input[name=filter-rule]", "allow-*");
    await expect.poll(tools).toEqual(new Set(["get-sum"]));
    await page.selectOption("select[name=filter-direction]", "outbound");
    await expect.poll(async () => new Set(await rows(page).locator(col("dir")).allTextContents())).toEqual(new Set(["→"]));
    // No agent keys on this route: every line's agent is empty, so an agent filter shows nothing (tail's meaning).
    await page.fill("input[name=filter-agent]", "*");
    await expect.poll(async () => rows(page).count()).toBe(0);
    expect(await page.locator("#live-count").textContent()).toMatch(/^0 shown of the last \d+$/);
    await page.close();
  });

  it("a row names the rule that decided only when one did: no 'no rule matched' on default rows", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    await s.client.callTool({ name: "get-sum", arguments: { a: 2, b: 2 } });
    await s.client.callTool({ name: "echo", arguments: { message: "by default" } });
    const byRule = rows(page).filter({ has: page.locator(col("tool"), { hasText: "get-sum" }) }).filter({ has: page.locator(col("dir"), { hasText: "→" }) }).first();
    await byRule.waitFor();
    expect(await byRule.locator(col("rule")).textContent()).toBe("allow-get-sum");
    expect(await byRule.locator(col("message")).textContent()).toBe("");
    const byDefault = rows(page).filter({ has: page.locator(col("tool"), { hasText: /^echo$/ }) }).filter({ has: page.locator(col("decision"), { hasText: "allow" }) }).first();
    await byDefault.waitFor();
    expect(await byDefault.locator(col("rule")).textContent()).toBe("—");
    expect(await byDefault.locator(`${col("rule")} span`).getAttribute("title")).toContain("no rule matched");
    expect(await byDefault.locator(col("message")).textContent()).toBe("");
    expect(await page.locator("#live-table").textContent()).not.toContain("no rule matched");
    // A deny keeps its message.
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden" } });
    const denied = rows(page).filter({ hasText: "deny-forbidden-echo" }).first();
    await denied.waitFor();
    expect(await denied.locator(col("message")).textContent()).toBe("echo of a forbidden word");
    await page.close();
  });

  it("an approval's line opens as fields (outcome, by, reason, remember), not as JSON", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    const call = s.client.callTool({ name: "echo", arguments: { message: "needs-approval for the details" } });
    const { url, token } = s.served.admin;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let id: string | undefined;
    await expect.poll(async () => (id = ((await (await fetch(`${url}/api/approvals`, { headers: auth })).json()) as { approvals: { id: string }[] }).approvals[0]?.id), { timeout: 10_000 }).toBeDefined();
    await fetch(`${url}/api/approvals/${id}/approve`, { method: "POST", headers: auth, body: JSON.stringify({ reason: "fine by me", remember: "once", by: "tester" }) });
    await call;
    const decided = rows(page).filter({ hasText: "ask-echo" }).filter({ has: page.locator(col("decision"), { hasText: "allow" }) }).first();
    await decided.waitFor({ timeout: 10_000 });
    await decided.click();
    const details = page.locator("#details");
    await details.locator("h4", { hasText: "approval" }).waitFor();
    const dl = details.locator("h4:has-text('approval') + dl");
    const field = async (name: string) => dl.locator(`dt:text-is("${name}") + dd`).textContent();
    expect(await field("approval id")).toBe(id);
    expect(await field("step")).toBe("decided");
    expect(await field("outcome")).toBe("approved");
    expect(await field("by")).toBe("tester");
    expect(await field("reason")).toBe("fine by me");
    expect(await field("remember")).toBe("once");
    expect(await field("decided after")).toMatch(/^\d+\.\d s$/);
    expect(await details.textContent()).not.toContain('"outcome"');
    await page.close();
  });

  it("Export: the view's filters and a time range, saved as NDJSON (the log's lines) and as CSV", async () => {
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden, to export" } });
    const page = await openConsole(s.browser, s.served.admin, "live");
    await page.selectOption("select[name=filter-decision]", "deny");
    await page.fill("input[name=filter-tool]", "ech?");
    const save = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
      const path = join(tempDir(), download.suggestedFilename());
      await download.saveAs(path);
      return { name: download.suggestedFilename(), text: readFileSync(path, "utf8") };
    };
    const nd = await save("#export-ndjson");
    expect(nd.name).toBe("guardwire-decisions.ndjson");
    const lines = nd.text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { decision: string; tool: string; hash: string; message: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.decision === "deny" && l.tool === "echo" && /^[0-9a-f]{64}$/.test(l.hash))).toBe(true);
    expect(lines.some((l) => l.message === "echo of a forbidden word")).toBe(true);
    await page.locator("#export-note").getByText(/^saved guardwire-decisions\.ndjson \(\d+ bytes\)$/).waitFor();

    const csv = await save("#export-csv");
    const records = csv.text.split("\r\n").filter(Boolean);
    expect(records[0]?.startsWith("time,seq,session,route,agent,direction,kind,id,method,tool,decision,")).toBe(true);
    expect(records.length).toBe(lines.length + 1);

    // A range that ends before any of it: the header alone.
    await page.fill("input[name=export-to]", "2001-01-01T00:00:00");
    const empty = await save("#export-csv");
    expect(empty.name).toMatch(/^guardwire-decisions__2001-01-01T\d\d-00-00-000Z\.csv$/);
    expect(empty.text.split("\r\n").filter(Boolean)).toHaveLength(1);
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("keyboard: Tab reaches a row, Enter opens its details with focus on close, Escape closes them and focus returns", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden, by keyboard" } });
    await rows(page).filter({ hasText: "deny-forbidden-echo" }).first().waitFor();
    // From the tab bar, Tab moves through the controls to the first row (the session button inside comes after it).
    await page.locator("#tab-live").focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(`document.activeElement?.tagName === "TR"`)) break;
    }
    expect(await page.evaluate(`document.activeElement?.tagName`)).toBe("TR");
    // Focus is visible: the row has an outline of its own.
    expect(await page.evaluate(`getComputedStyle(document.activeElement).outlineStyle`)).toBe("solid");
    await page.keyboard.press("Enter");
    await page.locator("#details").waitFor();
    expect(await page.evaluate(`document.activeElement?.className`)).toBe("close");
    await page.keyboard.press("Escape");
    await page.locator("#details").waitFor({ state: "hidden" });
    expect(await page.evaluate(`document.activeElement?.tagName`)).toBe("TR");
    // Space works as Enter does; the tabs are buttons, worked by Enter.
    await page.keyboard.press(" ");
    await page.locator("#details").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("#tab-rules").focus();
    await page.keyboard.press("Enter");
    await page.locator("#view-rules").waitFor();
    expect(await page.locator("#tab-rules").getAttribute("aria-current")).toBe("page");
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });
});
