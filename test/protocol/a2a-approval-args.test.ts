import { describe, expect, it } from "vitest";
import { canonicalize } from "../../src/protocol/canonical.js";
import { a2aApprovalArgs } from "../../src/protocol/a2a.js";

const send = (messageId: string, text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: "message", role: "user", messageId, parts: [{ kind: "text", text }], ...extra },
  configuration: { blocking: true },
});

describe("what an A2A send's approval is bound to", () => {
  it("the same message with new envelope ids (message, context, task) is the same call, in 0.3 and 1.0", () => {
    for (const method of ["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]) {
      const a = canonicalize(a2aApprovalArgs(method, send("m-1", "deploy v2")));
      const b = canonicalize(a2aApprovalArgs(method, send("m-2", "deploy v2", { contextId: "c-9", taskId: "t-3" })));
      expect(b).toBe(a);
      expect(canonicalize(a2aApprovalArgs(method, send("m-3", "deploy v3")))).not.toBe(a);
    }
  });

  it("what the message says, its role, metadata and the configuration stay bound; the params are not changed", () => {
    const p = send("m-1", "x", { metadata: { ticket: 7 } });
    const bound = a2aApprovalArgs("message/send", p) as { message: Record<string, unknown>; configuration: unknown };
    expect(bound.message).toEqual({ kind: "message", role: "user", parts: [{ kind: "text", text: "x" }], metadata: { ticket: 7 } });
    expect(bound.configuration).toEqual({ blocking: true });
    expect(p.message.messageId).toBe("m-1");
  });

  it("other methods, and params that are not an object with a message, are bound as they are", () => {
    expect(a2aApprovalArgs("tasks/get", { id: "t-1" })).toEqual({ id: "t-1" });
    expect(a2aApprovalArgs("tools/call", { name: "x" })).toEqual({ name: "x" });
    expect(a2aApprovalArgs("message/send", undefined)).toBeNull();
    expect(a2aApprovalArgs("message/send", [1])).toEqual([1]);
    expect(a2aApprovalArgs("message/send", { message: "hi" })).toEqual({ message: "hi" });
  });
});
