import { describe, expect, it } from "vitest";
import { accepts } from "../../src/transports/downstream/http-util.js";

describe("accepts: an Accept header names a media type as a whole entry", () => {
  it.each([
    ["application/json, text/event-stream", "application/json", true],
    ["application/json, text/event-stream", "text/event-stream", true],
    ["text/event-stream;q=0.9 , application/json", "application/json", true],
    ["APPLICATION/JSON", "application/json", true],
    ["application/jsonx", "application/json", false],
    ["xapplication/json", "application/json", false],
    ["*/*", "application/json", false],
    ["", "application/json", false],
  ])("%j names %s: %s", (accept, type, expected) => {
    expect(accepts(accept, type)).toBe(expected);
  });

  it("no header names nothing", () => {
    expect(accepts(undefined, "text/event-stream")).toBe(false);
  });
});
