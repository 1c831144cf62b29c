import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ROOT, tempDir } from "../helpers.js";
import { chromiumPath } from "../../scripts/test-setup.mjs";
import { startServeCli, stopChild } from "../support/servers.js";

/** Debian's chromium package (`npm test` installs it: scripts/test-setup.mjs, which looks at the same path). */
export const CHROMIUM: string = chromiumPath();
export const CONSOLE_RULES = join(ROOT, "test", "fixtures", "rules", "console.yaml");

/**
 * Chromium, headless. Without the binary this fails — the console must not go untested by accident. A launch takes
 * 0.4–1.5 s here even on a loaded machine; one that has not finished in 20 s is a browser stuck starting (it once
 * used up a CI run's 30 s hook), so it is abandoned and tried once more, and a second such start fails by name.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the console tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (npm test does, as root on Debian)`);
  // Playwright gives the browser a temporary profile of its own (a fresh user-data-dir, removed on close).
  const launch = () => chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--headless=new", "--no-sandbox"], timeout: 20_000 });
  return launch().catch(launch);
}

export interface ServedConsole {
  child: ChildProcess;
  /** The MCP base URL of serve. */
  base: string;
  admin: { url: string; token: string };
  log: string;
  dir: string;
  /** A real MCP SDK client on the `everything` route. */
  client(): Promise<Client>;
  close(): Promise<void>;
}

/** `guardwire serve` (a real process) with the admin listener, server-everything behind it, the console rules. */
export async function serveWithConsole(opts: { rules?: string; extra?: string[] } = {}): Promise<ServedConsole> {
  const dir = tempDir();
  const log = join(dir, "decisions.ndjson");
  const adminFile = join(dir, "admin.json");
  const { child, base } = await startServeCli(dir, {
    rules: opts.rules ?? CONSOLE_RULES,
    log,
    extra: ["admin: { listen: 127.0.0.1:0 }", ...(opts.extra ?? [])],
    env: { ...process.env, GUARDWIRE_ADMIN_FILE: adminFile },
  });
  const admin = JSON.parse(readFileSync(adminFile, "utf8")) as { url: string; token: string };
  const clients: Client[] = [];
  return {
    child,
    base,
    admin,
    log,
    dir,
    async client() {
      const c = new Client({ name: "console-test", version: "1" });
      // server-everything starts behind serve on the first initialize (0.5–0.7 s here); 20 s is a hang, said by name.
      await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)), { timeout: 20_000 });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await stopChild(child);
    },
  };
}

export interface ConsoleSuite {
  browser: Browser;
  served: ServedConsole;
  /** A client connected before the tests run. */
  client: Client;
}

/** Chromium, a serve with the console and one client for a describe block; the fields are set once beforeAll ran. */
export function consoleSuite(opts: { rules?: string; extra?: string[] } = {}): ConsoleSuite {
  const suite = {} as ConsoleSuite;
  // Each step has a deadline of its own that names it (Chromium 2 × 20 s, serve 20 s, the client 20 s), so the hook's
  // own is their sum: a step that hangs fails as itself, not as "hook timed out".
  beforeAll(async () => {
    suite.browser = await launchChromium();
    suite.served = await serveWithConsole(opts);
    suite.client = await suite.served.client();
  }, 90_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.served?.close();
  });
  return suite;
}

/**
 * Opens the console as a person would, with the link `guardwire console` prints, and waits for the live stream. A
 * context: its viewport and permissions (a browser: a fresh page at the default size).
 */
export async function openConsole(browser: Browser | BrowserContext, admin: { url: string; token: string }, view = "overview"): Promise<Page> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  (page as Page & { problems?: string[] }).problems = problems;
  await page.goto(`${admin.url}/console/#token=${encodeURIComponent(admin.token)}`);
  await page.locator("#status.live").waitFor({ timeout: 20_000 });
  await page.click(`#tab-${view}`);
  return page;
}

/** Errors the page logged (script errors, CSP violations, failed requests). */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}
