import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers.js";
import { consoleSuite, openConsole, pageProblems } from "./browser.js";

const run = promisify(execFile);

describe("console: overview, the link, and the page's security", () => {
  const s = consoleSuite();

  it("guardwire console prints a link whose token the page keeps in sessionStorage and takes off the address bar", async () => {
    const { stdout } = await run(process.execPath, [CLI, "console"], { env: { ...process.env, GUARDWIRE_ADMIN_FILE: join(s.served.dir, "admin.json") } });
    const link = stdout.trim();
    expect(link).toBe(`${s.served.admin.url}/console/#token=${encodeURIComponent(s.served.admin.token)}`);
    const page = await s.browser.newPage();
    await page.goto(link);
    await page.locator("#status.live").waitFor();
    expect(page.url()).not.toContain(s.served.admin.token);
    expect(await page.evaluate(`sessionStorage.getItem("guardwire.token")`)).toBe(s.served.admin.token);
    expect(await page.evaluate("document.cookie")).toBe("");
    await page.close();
  });

  it("without a token the page asks for one; a wrong one is refused", async () => {
    const page = await s.browser.newPage();
    await page.goto(`${s.served.admin.url}/console/`);
    await page.locator("#login").waitFor();
    await page.fill("input[name=token]", "wrong");
    await page.click("#login button");
    await page.locator("#login .error").getByText("The token was refused.").waitFor();
    // Once refused, the page stops asking the API: the form is drawn once, and what the user types stays in it (the
    // event stream used to retry each second and draw the form again, emptying it).
    const streams: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/events")) streams.push(r.url());
    });
    await page.fill("input[name=token]", "half-typed");
    await page.waitForTimeout(2_500);
    expect(await page.inputValue("input[name=token]")).toBe("half-typed");
    expect(streams).toEqual([]);
    expect(await page.locator("#status").textContent()).toBe("");
    await page.fill("input[name=token]", s.served.admin.token);
    await page.click("#login button");
    await page.locator("#status.live").waitFor();
    await page.close();
  });

  it("the overview charts decisions by decision and by rule, shows the chain head and verifies the log", async () => {
    await s.client.callTool({ name: "echo", arguments: { message: "hello" } });
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden" } });
    await s.client.callTool({ name: "echo", arguments: { message: "a secret" } });
    const page = await openConsole(s.browser, s.served.admin, "overview");
    await expect.poll(async () => Number(await page.locator("#overview-totals .total.deny .n").textContent()), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(Number(await page.locator("#overview-totals .total.allow .n").textContent())).toBeGreaterThanOrEqual(1);
    expect(Number(await page.locator("#overview-totals .total.modify .n").textContent())).toBeGreaterThanOrEqual(1);
    const charts = page.locator("#overview-charts figure");
    expect(await charts.count()).toBe(2);
    expect(await charts.nth(0).locator("rect").count()).toBeGreaterThan(0);
    expect(await charts.nth(1).textContent()).toContain("deny-forbidden-echo");
    // The head is written within a second of the last line.
    await expect.poll(async () => (await page.click("#tab-live"), await page.click("#tab-overview"), await page.locator("#overview-chain").textContent()), { timeout: 10_000 }).toMatch(/head seq\d+/);
    await page.click("#verify-button");
    await page.locator("#verify-result.ok").getByText(/Chain intact: \d+ lines/).waitFor();
    expect(pageProblems(page)).toEqual([]);
    await page.close();
  });

  it("the charts are as wide as their card at any window width; the rules chart uses none of the decisions' colours", async () => {
    await s.client.callTool({ name: "echo", arguments: { message: "forbidden" } });
    await s.client.callTool({ name: "echo", arguments: { message: "a secret" } });
    const decisionColours = ["#59a14f", "#4e79a7", "#edc948", "#e15759"];
    for (const width of [1400, 700, 360]) {
      const context = await s.browser.newContext({ viewport: { width, height: 800 } });
      const page = await openConsole(context, s.served.admin, "overview");
      const charts = page.locator("#overview-charts figure");
      await expect.poll(() => charts.count(), { timeout: 10_000 }).toBe(2);
      for (let i = 0; i < 2; i++) {
        // The axis spans the whole drawing: it is as wide as the card inside its padding.
        const inner = await page.evaluate(`(() => { const f = document.querySelectorAll("#overview-charts figure")[${i}]; const c = getComputedStyle(f); return f.clientWidth - parseFloat(c.paddingLeft) - parseFloat(c.paddingRight); })()`);
        const axis = (await charts.nth(i).locator("line.axis").boundingBox())?.width ?? 0;
        expect(Math.abs(axis - (inner as number)), `chart ${i} at ${width} px`).toBeLessThanOrEqual(3);
      }
      const fills = await charts.nth(1).locator("rect").evaluateAll((rs) => rs.map((r) => r.getAttribute("fill")));
      expect(fills.length).toBeGreaterThan(0);
      expect(fills.filter((f) => decisionColours.includes(f ?? ""))).toEqual([]);
      const swatches = (await page.evaluate(`[...document.querySelectorAll("#overview-charts figure")[1].querySelectorAll(".swatch")].map((e) => getComputedStyle(e).backgroundColor)`)) as string[];
      expect(swatches.length).toBeGreaterThan(0);
      expect(swatches.filter((c) => ["rgb(89, 161, 79)", "rgb(78, 121, 167)", "rgb(237, 201, 72)", "rgb(225, 87, 89)"].includes(c))).toEqual([]);
      expect(pageProblems(page)).toEqual([]);
      await context.close();
    }
    // A window resized redraws them for the new width.
    const page = await openConsole(s.browser, s.served.admin, "overview");
    await page.locator("#overview-charts figure").first().waitFor();
    await page.setViewportSize({ width: 900, height: 700 });
    await expect.poll(async () => (await page.locator("#overview-charts line.axis").first().boundingBox())?.width ?? 0).toBeLessThan(900);
    await page.close();
  });

  it("serves the page under a strict CSP, and refuses cross-origin and non-JSON browser requests", async () => {
    const { url, token } = s.served.admin;
    const page = await fetch(`${url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).not.toContain(token);
    expect((await fetch(`${url}/api/rules`)).status).toBe(401);
    const auth = { authorization: `Bearer ${token}` };
    const other = await fetch(`${url}/api/rules/reload`, { method: "POST", headers: { ...auth, origin: "http://evil.example", "content-type": "application/json" }, body: "{}" });
    expect(other.status).toBe(403);
    const form = await fetch(`${url}/api/rules/reload`, { method: "POST", headers: { ...auth, origin: url, "content-type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(403);
    const own = await fetch(`${url}/api/rules/reload`, { method: "POST", headers: { ...auth, origin: url, "content-type": "application/json" }, body: "{}" });
    expect(own.status).toBe(200);
    // Behind a TLS proxy the page's origin is https on the same host.
    const proxied = await fetch(`${url}/api/rules/reload`, { method: "POST", headers: { ...auth, origin: url.replace("http:", "https:"), "content-type": "application/json" }, body: "{}" });
    expect(proxied.status).toBe(200);
  });
});
