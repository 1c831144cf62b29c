import { describe, expect, it } from "vitest";
import { consoleSuite, openConsole, pageProblems } from "./browser.js";

/** Needs the Sessions API (docs/console.md; built on the `control` branch). */
describe("console: sessions in Chromium", () => {
  const s = consoleSuite();

  it("a live session is suspended, resumed and killed by clicks, and its client sees it close", async () => {
    const page = await openConsole(s.browser, s.served.admin, "sessions");
    await s.client.callTool({ name: "echo", arguments: { message: "hello" } });
    const row = page.locator("#sessions-table tbody tr", { hasText: "everything" }).filter({ hasText: "console-test" });
    await row.waitFor({ timeout: 10_000 });

    await row.locator("select[name=mode]").selectOption("refuse");
    await row.getByRole("button", { name: "Suspend" }).click();
    await page.locator('#sessions-table tr[data-state="suspended"]').getByText(/suspended \(refuse\)/).waitFor();
    await page.locator('#sessions-table tr[data-state="suspended"]').getByRole("button", { name: "Resume" }).click();
    await page.locator('#sessions-table tr[data-state="active"]', { hasText: "console-test" }).waitFor();
    const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join("");
    expect(text(await s.client.callTool({ name: "echo", arguments: { message: "after resume" } }))).toBe("Echo: after resume");

    const closed = new Promise<void>((resolve) => (s.client.onclose = resolve));
    const active = page.locator('#sessions-table tr[data-state="active"]', { hasText: "console-test" });
    await active.getByRole("button", { name: "Kill" }).click();
    await active.getByRole("button", { name: "Confirm kill" }).click();
    await active.waitFor({ state: "detached" });
    // The client sees the session end: its next call fails (the session is gone), if its transport did not close first.
    const next = await Promise.race([closed.then(() => "closed"), s.client.callTool({ name: "echo", arguments: { message: "after kill" } }).then(() => "answered", () => "failed")]);
    expect(next).not.toBe("answered");
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });
});
