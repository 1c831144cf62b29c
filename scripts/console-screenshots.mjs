// npm run screenshots: docs/img/console-*.png, one per view, from a real `guardwire serve` with real traffic.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const ROOT = resolve(import.meta.dirname, "..");
// OUT and WIDTH: to look at the pages elsewhere or at another width (the docs' pictures: docs/img, 1200).
const OUT = process.env.OUT ?? join(ROOT, "docs", "img");
const WIDTH = Number(process.env.WIDTH ?? 1200);
const TRAFFIC_SECONDS = Number(process.env.TRAFFIC_SECONDS ?? 40);
const dir = mkdtempSync(join(tmpdir(), "guardwire-shots-"));
const everything = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
writeFileSync(
  join(dir, "guardwire.yaml"),
  [
    "listen: { host: 127.0.0.1, port: 0 }",
    `rules: ${join(ROOT, "test", "fixtures", "rules", "console.yaml")}`,
    `log: ${join(dir, "decisions.ndjson")}`,
    "logPreview: true",
    "admin: { listen: 127.0.0.1:0 }",
    "routes:",
    "  - name: everything",
    "    path: /mcp/everything",
    `    mcp: { command: "${process.execPath}", args: ["${everything}", stdio] }`,
  ].join("\n"),
);
const env = { ...process.env, GUARDWIRE_ADMIN_FILE: join(dir, "admin.json") };
const serve = spawn(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "serve", "--config", join(dir, "guardwire.yaml"), "--pins", join(dir, "pins.json")], { env, stdio: ["ignore", "ignore", "pipe"] });
const base = await new Promise((ok, fail) => {
  let err = "";
  serve.stderr.on("data", (b) => {
    err += b;
    const m = /serving (http:\/\/\S+)/.exec(err);
    if (m) ok(m[1]);
  });
  serve.once("exit", () => fail(new Error(err)));
});
const admin = JSON.parse(readFileSync(env.GUARDWIRE_ADMIN_FILE, "utf8"));
const connect = async (name) => {
  const c = new Client({ name, version: "1.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/everything`)));
  return c;
};
const agents = [await connect("claude-code"), await connect("cursor")];
const calls = [
  ["echo", { message: "hello" }],
  ["get-sum", { a: 2, b: 3 }],
  ["echo", { message: "a secret plan" }],
  ["echo", { message: "something forbidden" }],
  ["get-sum", { a: 40, b: 2 }],
];
const end = Date.now() + TRAFFIC_SECONDS * 1000;
for (let i = 0; Date.now() < end; i++) {
  for (let k = 0; k <= i % 4; k++) {
    const [name, args] = calls[(i + k) % calls.length];
    await agents[k % 2].callTool({ name, arguments: args }).catch(() => {});
  }
  await new Promise((r) => setTimeout(r, 700));
}
const held = agents[1].callTool({ name: "echo", arguments: { message: "needs-approval: deploy to production" } }).catch(() => {});

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--headless=new", "--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: WIDTH, height: 640 } });
await page.goto(`${admin.url}/console/#token=${encodeURIComponent(admin.token)}`);
await page.locator("#status.live").waitFor();
const shot = async (view, prepare) => {
  await page.click(`#tab-${view}`);
  await prepare?.();
  await page.screenshot({ path: join(OUT, `console-${view}.png`) });
  console.log(`docs/img/console-${view}.png`);
};
await shot("overview", async () => {
  await page.locator("#overview-charts figure").first().waitFor();
  await page.click("#verify-button");
  await page.locator("#verify-result").waitFor();
  await page.evaluate("window.scrollTo(0, 0)");
});
await shot("live", async () => {
  await page.click("#tab-live");
  await agents[0].callTool({ name: "echo", arguments: { message: "something forbidden" } });
  await agents[0].callTool({ name: "echo", arguments: { message: "hello again" } });
  await page.locator("#live-table tbody tr").nth(1).waitFor();
  await page.locator("#live-table tbody tr", { hasText: "deny-forbidden-echo" }).first().click();
  await page.locator("#details").waitFor();
});
// The details pane covers the page on a narrow screen: Escape closes it.
await page.keyboard.press("Escape");
await shot("sessions", () => page.waitForTimeout(500));
await shot("approvals", () => page.locator(".card").first().waitFor());
await shot("rules", () => page.locator("#rules-table tbody tr").first().waitFor());
await shot("playground", async () => {
  await page.fill("textarea[name=message]", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "my secret plan" } } }, null, 2));
  await page.click("#playground-run");
  await page.locator("#playground-result pre.diff").waitFor();
});
// The sessions view on a phone's width: rows become labelled cards, Suspend and Kill stay on screen.
if (WIDTH > 360) {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.click("#tab-sessions");
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, "console-narrow.png") });
  console.log("docs/img/console-narrow.png");
}
await browser.close();
for (const a of agents) await a.close().catch(() => {});
serve.kill("SIGTERM");
await held;
