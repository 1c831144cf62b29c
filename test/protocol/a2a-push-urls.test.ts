import { describe, expect, it } from "vitest";
import { mapPushUrls } from "../../src/protocol/a2a.js";

const proxy = () => "http://127.0.0.1:9/a2a/r/push/abc";

describe("mapPushUrls: only the request's push configuration is rewritten", () => {
  it("rewrites configuration.pushNotificationConfig (0.3) and taskPushNotificationConfig (1.0)", () => {
    const p = { message: { parts: [{ kind: "text", text: "hi" }] }, configuration: { pushNotificationConfig: { url: "https://me.example/cb", token: "t" } } };
    expect(mapPushUrls(p, proxy).configuration.pushNotificationConfig.url).toBe(proxy());
    const q = { configuration: { taskPushNotificationConfig: { url: "https://me.example/cb" } } };
    expect(mapPushUrls(q, proxy).configuration.taskPushNotificationConfig.url).toBe(proxy());
    const set = { taskId: "t1", pushNotificationConfig: { url: "https://me.example/cb" } };
    expect(mapPushUrls(set, proxy).pushNotificationConfig.url).toBe(proxy());
  });

  it("leaves a data part that quotes a push config as the caller wrote it (message content)", () => {
    const p = {
      message: { kind: "message", parts: [{ kind: "text", text: "Notify me" }, { kind: "data", data: { pushNotificationConfig: { url: "https://assistant.example/a2a/callback", token: "cb-1" } } }] },
    };
    expect(mapPushUrls(p, proxy)).toBe(p);
    const task = { kind: "task", history: [{ parts: [{ kind: "data", data: { pushNotificationConfig: { url: "https://x.example/cb" } } }] }], artifacts: [{ parts: [{ kind: "data", data: { push: { config: { url: "https://y.example" } } } }] }] };
    expect(mapPushUrls(task, proxy)).toBe(task);
  });
});
