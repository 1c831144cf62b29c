import { describe, expect, it } from "vitest";
import { alertsSchema } from "../../src/alerts/config.js";
import { AlertDispatcher, retryAfterMs, type AlertNoteCode } from "../../src/alerts/dispatcher.js";
import type { AlertEvent } from "../../src/alerts/event.js";
import { startAlertReceiver } from "../support/alert-receiver.js";
import { freePort } from "../support/servers.js";

const event: AlertEvent = {
  severity: "high", rules: ["r1"], decidedBy: ["r1"], reasonCode: ["X"], decision: "deny", mode: "enforce", message: "m",
  route: "r", session: "s-1", transport: "stdio", protocol: "mcp", agent: null, server: null, direction: "outbound",
  kind: "request", method: "tools/call", tool: "echo", messageId: 1, digest: "d",
};

function dispatcher(url: string, more: Record<string, unknown> = {}) {
  const notes: { code: AlertNoteCode; message: string }[] = [];
  const d = new AlertDispatcher(alertsSchema.parse({ webhooks: [{ url }], backoffMs: 10, ...more }), { note: (code, message) => notes.push({ code, message }) });
  return { d, notes };
}

describe("alert delivery (in process, real HTTP on loopback)", () => {
  it("shutdown flushes for at most flushMs, then gives up on a hung webhook and says so", async () => {
    const hook = await startAlertReceiver(["hang"]);
    const { d, notes } = dispatcher(hook.url, { flushMs: 300, timeoutMs: 60_000 });
    try {
      d.raise(event);
      await hook.count(1);
      const started = performance.now();
      const stats = await d.close();
      // Bounded by flushMs (300 ms) plus the abort; generous for a loaded machine.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(stats).toMatchObject({ raised: 1, delivered: 0, undelivered: 1, dropped: 0 });
      expect(notes).toEqual([{ code: "ALERTS_UNDELIVERED", message: expect.stringContaining("guardwire stopped first") }]);
      // Raised after close: dropped and counted, never queued.
      d.raise(event);
      expect(d.stats.dropped).toBe(1);
    } finally {
      await hook.close();
    }
  });

  it("shutdown waits for what is still being delivered", async () => {
    const hook = await startAlertReceiver();
    const { d } = dispatcher(hook.url);
    try {
      for (let i = 0; i < 5; i++) d.raise(event);
      expect(hook.received).toHaveLength(0); // raising only queues
      expect(await d.close()).toMatchObject({ raised: 5, delivered: 5, undelivered: 0 });
      expect(new Set(hook.received.map((r) => r.body.id)).size).toBe(5);
    } finally {
      await hook.close();
    }
  });

  it("a refused connection is retried maxAttempts times, then noted as not delivered", async () => {
    const port = await freePort();
    const { d, notes } = dispatcher(`http://127.0.0.1:${port}/hook`, { maxAttempts: 3 });
    d.raise(event);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => d.stats.undelivered === 1 && (clearInterval(poll), resolve()), 20);
    });
    await d.close();
    expect(notes).toHaveLength(1);
    expect(notes[0]?.message).toMatch(/ECONNREFUSED, attempt 3 of 3/);
    expect(notes[0]?.message).toContain(`http://127.0.0.1:${port}`);
    expect(notes[0]?.message).not.toContain("/hook");
  });

  it("a 4xx is not retried", async () => {
    const hook = await startAlertReceiver([400]);
    const { d, notes } = dispatcher(hook.url);
    try {
      d.raise(event);
      const stats = await d.close();
      expect(hook.received).toHaveLength(1);
      expect(stats).toMatchObject({ delivered: 0, undelivered: 1 });
      expect(notes[0]?.message).toContain("HTTP 400, attempt 1 of 5");
    } finally {
      await hook.close();
    }
  });

  it("minSeverity filters per webhook", async () => {
    const hook = await startAlertReceiver();
    const d = new AlertDispatcher(alertsSchema.parse({ webhooks: [{ url: hook.url, minSeverity: "critical" }, { url: hook.url, format: "slack" }] }), { note: () => {} });
    try {
      d.raise(event);
      await d.close();
      expect(hook.received.map((r) => Object.keys(r.body))).toEqual([["text"]]);
    } finally {
      await hook.close();
    }
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("3", 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs("soon", 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
