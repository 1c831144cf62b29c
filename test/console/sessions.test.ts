import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readLog } from "../helpers.js";
import { consoleSuite, openConsole, pageProblems } from "./browser.js";

/** Needs the Sessions API (docs/console.md; built on the `control` branch). */
describe("console: sessions in Chromium", () => {
  const s = consoleSuite();

  it("a list read before a suspension, arriving after the suspension's live event, does not put the row back", async () => {
    // The list (GET /api/sessions, read again every 5 s) and the live stream are separate connections: on a loaded
    // machine a list read before a change can arrive after the change's event. Here one refresh is held back.
    const context = await s.browser.newContext();
    let hold = false;
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let delivered = 0;
    await context.route(/\/api\/sessions$/, async (route) => {
      if (!hold || route.request().method() !== "GET") return route.continue();
      hold = false;
      const response = await route.fetch();
      held();
      await gate;
      await route.fulfill({ response });
      delivered++;
    });
    const page = await openConsole(context, s.served.admin, "sessions");
    await s.client.callTool({ name: "echo", arguments: { message: "hello" } });
    const row = page.locator("#sessions-table tbody tr", { hasText: "everything" }).filter({ hasText: "console-test" });
    await row.waitFor({ timeout: 10_000 });
    hold = true;
    await holding;
    await row.locator("select[name=mode]").selectOption("refuse");
    await row.getByRole("button", { name: "Suspend" }).click();
    await page.locator('#sessions-table tr[data-state="suspended"]', { hasText: "console-test" }).waitFor();
    release();
    await expect.poll(() => delivered).toBe(1);
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(0)))");
    expect(await row.getAttribute("data-state")).toBe("suspended");
    await row.getByRole("button", { name: "Resume" }).click();
    await page.locator('#sessions-table tr[data-state="active"]', { hasText: "console-test" }).waitFor();
    await context.close();
  });

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

describe("console: sessions told apart, idle, killed with a reason, at any width", () => {
  const s = consoleSuite();
  const row = (page: Page, id: string) => page.locator(`#sessions-table tr[data-session="${id}"]`);
  /** The session's id, as the API lists it: the one whose client has this name. */
  const idOf = async (name: string) => {
    const { url, token } = s.served.admin;
    for (;;) {
      const r = (await (await fetch(`${url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).json()) as { sessions: { id: string; client: { name: string } | null }[] };
      const found = r.sessions.find((x) => x.client?.name === name);
      if (found) return found.id;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const connect = async (name: string) => {
    const c = new Client({ name, version: "0.1" });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.served.base}/mcp/everything`)));
    return c;
  };

  it("two clients of the same name: each row shows its own short id, copyable, and links to its decisions", async () => {
    const context = await s.browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.served.admin.url });
    const [a, b] = [await connect("twin"), await connect("twin")];
    await a.callTool({ name: "echo", arguments: { message: "a" } });
    await b.callTool({ name: "echo", arguments: { message: "b" } });
    const page = await openConsole(context, s.served.admin, "sessions");
    const twins = page.locator("#sessions-table tbody tr", { hasText: "twin 0.1" });
    await expect.poll(() => twins.count(), { timeout: 10_000 }).toBe(2);
    const ids = await twins.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session") as string));
    const shown = await twins.locator("td.session-id button.mono").allTextContents();
    expect(shown).toEqual(ids.map((id) => id.slice(0, 8)));
    expect(new Set(shown).size).toBe(2);

    const first = row(page, ids[0] as string);
    await first.getByRole("button", { name: /copy the session id/ }).click();
    await first.getByRole("button", { name: /copy the session id/ }).getByText("copied").waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(ids[0]);

    await first.locator("td.session-id button.mono").click();
    await page.locator("#view-live").waitFor();
    expect(await page.inputValue("input[name=filter-session]")).toBe(ids[0]);
    await expect.poll(async () => new Set(await page.locator("#live-table tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session"))))).toEqual(new Set([ids[0]]));
    expect(pageProblems(page)).toEqual([]);
    await context.close();
    await a.close();
    await b.close();
  });

  it("a client gone without DELETE shows as idle since then (and when it ends), not active", async () => {
    const client = await connect("goes-away");
    await client.callTool({ name: "echo", arguments: { message: "then silence" } });
    const id = await idOf("goes-away");
    const page = await openConsole(s.browser, s.served.admin, "sessions");
    await row(page, id).waitFor({ timeout: 10_000 });
    // Its standalone stream is open: connected.
    await expect.poll(async () => row(page, id).locator('td[data-label="state"]').textContent(), { timeout: 15_000 }).toBe("active");
    // The SDK client's close() ends its streams and sends no DELETE: the server only sees its transport go.
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport;
    await transport.close();
    const state = row(page, id).locator('td[data-label="state"]');
    await expect.poll(async () => state.textContent(), { timeout: 15_000 }).toMatch(/^idle since \d\d:\d\d:\d\d \(ends \d\d:\d\d:\d\d\)$/);
    expect(await state.getAttribute("title")).toMatch(/no stream open and no request in flight since .*; ends at .* unless the agent comes back/);
    const { url, token } = s.served.admin;
    const info = (await (await fetch(`${url}/api/sessions/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { session: { idle?: { since: string; ends: string } } };
    // sessionIdleSeconds defaults to 1800: it ends half an hour after its last stream closed.
    expect(Date.parse(info.session.idle?.ends ?? "") - Date.parse(info.session.idle?.since ?? "")).toBe(1_800_000);
    await page.close();
  });

  it("a kill reason typed in the console reaches the client in the error it gets, and is logged with who killed", async () => {
    const client = await connect("to-be-killed");
    await client.callTool({ name: "echo", arguments: { message: "before" } });
    const id = await idOf("to-be-killed");
    const page = await openConsole(s.browser, s.served.admin, "sessions");
    const r = row(page, id);
    await r.waitFor({ timeout: 10_000 });
    await r.locator("input[name=reason]").fill("rogue tool loop, call the on-call");
    await r.getByRole("button", { name: "Kill" }).click();
    await r.getByRole("button", { name: "Confirm kill" }).click();
    await r.waitFor({ state: "detached" });
    // Nothing was pending: the reason comes with the next request's refusal.
    const e = await client.callTool({ name: "echo", arguments: { message: "after" } }).then(() => null, (err: unknown) => err as Error);
    expect(e).toBeInstanceOf(Error);
    expect(e?.message).toContain("Session not found: session killed by an operator: rogue tool loop, call the on-call");
    const kill = () => readLog(s.served.log).find((l) => l.kind === "control" && l.method === "guardwire/kill" && l.session === id);
    await expect.poll(kill).toBeDefined();
    expect(kill()).toMatchObject({ decision: "deny", reasonCode: ["SESSION_KILLED"], message: "session killed by an operator (console): rogue tool loop, call the on-call" });
    expect(pageProblems(page)).toEqual([]);
    await page.close();
    await client.close();
  });

  for (const width of [760, 360]) {
    it(`at ${width} px nothing is cut off: Suspend and Kill are on screen and work; no page scrolls sideways`, async () => {
      const client = await connect(`narrow-${width}`);
      await client.callTool({ name: "echo", arguments: { message: "hi" } });
      const id = await idOf(`narrow-${width}`);
      const context = await s.browser.newContext({ viewport: { width, height: 700 } });
      const page = await openConsole(context, s.served.admin, "sessions");
      const r = row(page, id);
      await r.waitFor({ timeout: 10_000 });
      const inside = async (name: string) => {
        const box = await r.getByRole("button", { name, exact: true }).boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= width;
      };
      expect(await inside("Suspend")).toBe(true);
      expect(await inside("Kill")).toBe(true);
      for (const view of ["overview", "live", "sessions", "approvals", "rules", "playground"]) {
        await page.click(`#tab-${view}`);
        await page.locator(`#view-${view}`).waitFor();
        expect(await page.evaluate("document.documentElement.scrollWidth"), view).toBeLessThanOrEqual(width);
      }
      await page.click("#tab-sessions");
      await r.getByRole("button", { name: "Suspend", exact: true }).click();
      await page.locator(`#sessions-table tr[data-session="${id}"][data-state="suspended"]`).waitFor();
      await page.locator(`#sessions-table tr[data-session="${id}"]`).getByRole("button", { name: "Resume" }).click();
      await page.locator(`#sessions-table tr[data-session="${id}"][data-state="active"]`).waitFor();
      expect(pageProblems(page)).toEqual([]);
      await context.close();
      await client.close();
    });
  }
});
