import { describe, expect, it } from "vitest";
import { sseEvent, sseEventParts } from "../../src/protocol/sse.js";

describe("SSE events", () => {
  it("multi-line payloads become one data field per line", () => {
    expect(sseEvent('{\n  "a": 1\n}', "p1.2")).toBe('id: p1.2\ndata: {\ndata:   "a": 1\ndata: }\n\n');
    expect(sseEvent("x", undefined, "message")).toBe("event: message\ndata: x\n\n");
  });

  it("the pieces of an event, written back to back, are the event, however large", () => {
    const large = JSON.stringify({ text: "é😀".repeat(40_000) });
    for (const [data, id, event] of [["small", "g.1", undefined], [large, "p2.9", "message"], [`${large}\n${large}`, undefined, undefined]] as const) {
      const parts = sseEventParts(data, id, event);
      expect(parts.join("")).toBe(sseEvent(data, id, event));
    }
    // A large one-line payload is written as its own piece, not copied into the event string first.
    expect(sseEventParts(large, "p2.9")).toHaveLength(3);
    expect(sseEventParts(large, "p2.9")[1]).toBe(large);
  });
});
