import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, EVERYTHING, tempDir } from "../helpers.js";
import { waitForAdminFile } from "./wait.js";
import { CONSOLE_RULES, consoleSuite, launchChromium, openConsole, pageProblems } from "./browser.js";

const rows = (page: Page) => page.locator("#live-table tbody tr");
const col = (name: string) => `td[data-label="${name}"]`;

describe("console: live decisions in Chromium (serve)", () => {
  const s = consoleSuite({ extra: ["logPreview: true"] });

  it("a real client's call shows as a row, and its details open on a click", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    const r = (await s.client.callTool({ name: "echo", arguments: { message: "say forbidden things" } })) as { isError?: boolean };
    expect(r.isError).toBe(true);
    const row = rows(page).filter({ hasText: "deny-forbidden-echo" });
    await row.first().waitFor({ timeout: 5000 });
    expect(await row.first().locator(col("decision")).textContent()).toContain("deny");
    await row.first().click();
    const details = page.locator("#details");
    await details.waitFor();
    const text = await details.textContent();
    expect(text).toContain("ECHO_FORBIDDEN");
    expect(text).toContain("echo of a forbidden word");
    expect(text).toMatch(/\d+ µs/);
    // logPreview is on: the redacted preview of the message is shown.
    expect(await details.locator("pre.preview").textContent()).toContain("say forbidden things");
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("filters like tail's: decision, tool, rule, route, direction; pause holds new rows until resume", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    await s.client.callTool({ name: "echo", arguments: { message: "plain" } });
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden again" } });
    await s.client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
    await rows(page).filter({ hasText: "get-sum" }).first().waitFor();
    const shown = async () => (await rows(page).allTextContents()).length;

    await page.selectOption("select[name=filter-decision]", "deny");
    await expect.poll(async () => (await rows(page).locator(col("decision")).allTextContents()).every((t) => t.includes("deny"))).toBe(true);
    expect(await shown()).toBeGreaterThan(0);
    await page.selectOption("select[name=filter-decision]", "");

    await page.fill("input[name=filter-tool]", "get-*");
    await expect.poll(async () => new Set(await rows(page).locator(col("tool")).allTextContents())).toEqual(new Set(["get-sum"]));
    await page.fill("input[name=filter-tool]", "");

    await page.fill("input[name=filter-rule]", "deny-forbidden-echo");
    await expect.poll(async () => (await rows(page).locator(col("rule")).allTextContents()).every((t) => t === "deny-forbidden-echo")).toBe(true);
    expect(await shown()).toBeGreaterThan(0);
    await page.fill("input[name=filter-rule]", "");

    await page.fill("input[name=filter-route]", "nope*");
    await expect.poll(shown).toBe(0);
    await page.fill("input[name=filter-route]", "every*");
    await expect.poll(shown).toBeGreaterThan(0);

    await page.selectOption("select[name=filter-direction]", "inbound");
    await expect.poll(async () => (await rows(page).locator(col("dir")).allTextContents()).every((t) => t === "←")).toBe(true);
    await page.selectOption("select[name=filter-direction]", "");
    await page.fill("input[name=filter-route]", "");

    await page.click("#live-pause");
    const before = await shown();
    await s.client.callTool({ name: "echo", arguments: { message: "while paused" } });
    await page.getByText(/paused — [1-9]\d* new waiting/).waitFor();
    expect(await shown()).toBe(before);
    await page.click("#live-pause");
    await rows(page).filter({ hasText: "echo" }).first().waitFor();
    await expect.poll(shown).toBeGreaterThan(before);
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("a page opened later starts from the recent decisions", async () => {
    await s.client.callTool({ name: "echo", arguments: { message: "before the page" } });
    const page = await openConsole(s.browser, s.served.admin, "live");
    await rows(page).filter({ hasText: "echo" }).first().waitFor();
    await page.click("#live-table tbody tr:first-child");
    expect(await page.locator("#details").textContent()).toContain("tools/call");
    await page.close();
  });

  it("wire data is text: a decision whose message and tool are markup creates no element and runs nothing", async () => {
    const page = await openConsole(s.browser, s.served.admin, "live");
    const markup = '<img src=x onerror="window.__xss=1">';
    await s.client.callTool({ name: markup, arguments: { note: "<script>window.__xss=2</script>" } });
    const row = rows(page).filter({ hasText: "deny-markup" }).first();
    await row.waitFor();
    expect(await row.locator("td.message").textContent()).toBe('<img src=x onerror="window.__xss=1"> <b>bold</b>');
    expect(await row.locator(col("tool")).textContent()).toBe(markup);
    await row.click();
    await page.locator("#details pre.preview").waitFor();
    // (A string: this runs in the page, not in Node.)
    expect(await page.evaluate(`({ imgs: document.querySelectorAll("img, script:not([src]), b").length, xss: window.__xss ?? null })`)).toEqual({ imgs: 0, xss: null });
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });
});

describe("console: wrap --admin serves it too", () => {
  it("a stdio client's call through wrap shows as a row", async () => {
    const browser = await launchChromium();
    const dir = tempDir();
    const adminFile = join(dir, "admin.json");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "wrap", "--pins", join(dir, "pins.json"), "--rules", CONSOLE_RULES, "--log", join(dir, "log.ndjson"), "--admin", "127.0.0.1:0", "--", process.execPath, EVERYTHING, "stdio"],
      env: { ...(process.env as Record<string, string>), GUARDWIRE_ADMIN_FILE: adminFile },
      stderr: "pipe",
    });
    const client = new Client({ name: "console-wrap", version: "1" });
    try {
      await client.connect(transport);
      const page = await openConsole(browser, await waitForAdminFile(adminFile), "live");
      await client.callTool({ name: "echo", arguments: { message: "a secret through wrap" } });
      const row = rows(page).filter({ hasText: "hide-secret-word" }).first();
      await row.waitFor({ timeout: 5000 });
      expect(await row.locator(col("decision")).textContent()).toContain("modify");
      expect(await row.locator(col("route")).textContent()).toBe("server-everything");
    } finally {
      await client.close();
      await browser.close();
    }
  });
});
