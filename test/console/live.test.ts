import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openConsole, pageProblems, serveWithConsole, type ServedConsole } from "./browser.js";

describe("console: live decisions in Chromium", () => {
  let served: ServedConsole;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    served = await serveWithConsole();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("a real client's call shows as a row, and its details open on a click", async () => {
    const page = await openConsole(browser, served.admin, "live");
    const client = await served.client();
    const r = (await client.callTool({ name: "echo", arguments: { message: "say forbidden things" } })) as { isError?: boolean };
    expect(r.isError).toBe(true);
    const row = page.locator("#live-table tbody tr", { hasText: "deny-forbidden-echo" });
    await row.first().waitFor({ timeout: 5000 });
    expect(await row.first().locator("td").nth(1).textContent()).toContain("deny");
    await row.first().click();
    const details = page.locator("#details");
    await details.waitFor();
    const text = await details.textContent();
    expect(text).toContain("ECHO_FORBIDDEN");
    expect(text).toContain("echo of a forbidden word");
    expect(text).toMatch(/\d+ µs/);
    expect(pageProblems(page)).toEqual([]);
  });
});
