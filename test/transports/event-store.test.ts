import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryEventStore, DEFAULT_EVENT_STORE_BOUNDS } from "../../src/transports/downstream/event-store.js";

/** What a replay after `id` sends, or null when the store refuses it. */
function replay(store: MemoryEventStore, id: string): { stream: string | null; sent: [string, string][] } {
  const sent: [string, string][] = [];
  const stream = store.replayEventsAfter(id, (eid, text) => sent.push([eid, text]));
  return { stream, sent };
}

describe("MemoryEventStore: the replay log of resumable SSE streams", () => {
  it("names each stream's events <stream>.<n> from 1, and replays what followed an id, in order", () => {
    const store = new MemoryEventStore();
    expect(store.storeEvent("p1", "a")).toBe("p1.1");
    expect(store.storeEvent("p1", "b")).toBe("p1.2");
    expect(store.storeEvent("r1~g", "x")).toBe("r1~g.1");
    expect(store.storeEvent("p1", "c")).toBe("p1.3");
    expect(replay(store, "p1.1")).toEqual({ stream: "p1", sent: [["p1.2", "b"], ["p1.3", "c"]] });
    expect(replay(store, "p1.0")).toEqual({ stream: "p1", sent: [["p1.1", "a"], ["p1.2", "b"], ["p1.3", "c"]] });
    // The last event: nothing followed it, and the stream goes on live.
    expect(replay(store, "p1.3")).toEqual({ stream: "p1", sent: [] });
    // A replica prefix with dots (a host name) is part of the stream: the number is after the last dot.
    expect(store.storeEvent("gw.example.org~p2", "y")).toBe("gw.example.org~p2.1");
    expect(replay(store, "gw.example.org~p2.0").sent).toEqual([["gw.example.org~p2.1", "y"]]);
    expect(store.streamOf("gw.example.org~p2.1")).toBe("gw.example.org~p2");
  });

  it("refuses, sending nothing, what it cannot serve without a gap: not an id, a stream it holds nothing of, a bad number", () => {
    const store = new MemoryEventStore();
    store.storeEvent("p1", "a");
    for (const id of ["p1", "", "p9.0", "p1.x", "p1.1.5", "p1.-1", "p1.0.5", "g.0"]) expect(replay(store, id), id).toEqual({ stream: null, sent: [] });
    expect(store.streamOf("nodot")).toBeNull();
  });

  it(`keeps at most eventsPerStream events per stream (default ${DEFAULT_EVENT_STORE_BOUNDS.eventsPerStream}): a replay from before the oldest kept is refused`, () => {
    const store = new MemoryEventStore({ eventsPerStream: 3, chars: 1 << 20 });
    for (const t of ["a", "b", "c", "d", "e"]) store.storeEvent("p1", t);
    // Kept: 3, 4, 5. After 2 the next is 3, which is kept; after 1, event 2 would be skipped.
    expect(replay(store, "p1.2").sent.map(([id]) => id)).toEqual(["p1.3", "p1.4", "p1.5"]);
    expect(replay(store, "p1.1").stream).toBeNull();
    expect(store.chars).toBe(3);
    // Another stream has its own count.
    store.storeEvent("p2", "z");
    expect(replay(store, "p2.0").sent).toEqual([["p2.1", "z"]]);
  });

  it("keeps at most `chars` characters over every stream: cut streams lose their oldest first, then live ones, the stream written last", () => {
    const store = new MemoryEventStore({ eventsPerStream: 100, chars: 30 });
    store.storeEvent("live", "L".repeat(10)); // live.1
    store.storeEvent("cut", "C".repeat(10)); // cut.1
    store.storeEvent("cut", "c".repeat(5)); // cut.2
    store.cut("cut");
    expect(store.chars).toBe(25);
    // 12 more on a third stream: 37 > 30, so 7 must go: the cut stream's oldest (10) goes, its newer one stays.
    store.storeEvent("now", "N".repeat(12));
    expect(store.chars).toBe(27);
    expect(replay(store, "cut.0").stream).toBeNull();
    expect(replay(store, "cut.1").sent).toEqual([["cut.2", "ccccc"]]);
    expect(replay(store, "live.0").sent).toHaveLength(1);
    // 10 more on "now": 37 again; the cut stream's last (5) goes, then the live stream's (10); "now" keeps both.
    store.storeEvent("now", "n".repeat(10));
    expect(store.chars).toBe(22);
    expect(replay(store, "cut.2").sent).toEqual([]);
    expect(replay(store, "live.0").stream).toBeNull();
    expect(replay(store, "live.1").sent).toEqual([]);
    expect(replay(store, "now.0").sent.map(([id]) => id)).toEqual(["now.1", "now.2"]);
    // Past that, the stream being written loses its own oldest.
    store.storeEvent("now", "m".repeat(10));
    expect(store.chars).toBe(20);
    expect(replay(store, "now.0").stream).toBeNull();
    expect(replay(store, "now.1").sent.map(([id]) => id)).toEqual(["now.2", "now.3"]);
  });

  it("cut streams go in the order they were cut, not the order they began", () => {
    const store = new MemoryEventStore({ eventsPerStream: 100, chars: 20 });
    store.storeEvent("a", "A".repeat(5));
    store.storeEvent("b", "B".repeat(5));
    store.cut("b");
    store.cut("a");
    store.storeEvent("c", "C".repeat(15)); // 25 > 20: 5 must go, from b, cut first
    expect(replay(store, "b.0").stream).toBeNull();
    expect(replay(store, "a.0").sent).toHaveLength(1);
  });

  it("an event larger than the whole budget is not kept (sent live, but a resume from before it is refused)", () => {
    const store = new MemoryEventStore({ eventsPerStream: 10, chars: 8 });
    store.storeEvent("p1", "ab");
    expect(store.storeEvent("p1", "x".repeat(9))).toBe("p1.2");
    expect(store.chars).toBe(0);
    expect(replay(store, "p1.1").stream).toBeNull();
    expect(replay(store, "p1.2")).toEqual({ stream: "p1", sent: [] });
    // The count goes on: the next event is p1.3.
    expect(store.storeEvent("p1", "ok")).toBe("p1.3");
  });

  it("a forgotten stream gives its characters back and cannot be replayed", () => {
    const store = new MemoryEventStore({ eventsPerStream: 10, chars: 100 });
    store.storeEvent("p1", "12345");
    store.storeEvent("p2", "678");
    store.forget("p1");
    expect(store.chars).toBe(3);
    expect(replay(store, "p1.0").stream).toBeNull();
    store.forget("p1"); // twice: nothing more
    store.forget("nope");
    expect(store.chars).toBe(3);
  });

  it("property: within its bounds whatever happens, and a replay is either refused or exactly what followed (never a gap)", () => {
    const streams = ["g", "p1", "p2", "p3"];
    const op = fc.oneof(
      fc.record({ kind: fc.constant("store" as const), stream: fc.constantFrom(...streams), size: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant("cut" as const), stream: fc.constantFrom(...streams) }),
      fc.record({ kind: fc.constant("forget" as const), stream: fc.constantFrom(...streams) }),
      fc.record({ kind: fc.constant("replay" as const), stream: fc.constantFrom(...streams), after: fc.integer({ min: -1, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 10, max: 120 }), fc.array(op, { maxLength: 80 }), (eventsPerStream, chars, ops) => {
        const store = new MemoryEventStore({ eventsPerStream, chars });
        // Every event ever stored, per stream since it was last forgotten: what a replay must agree with.
        const model = new Map<string, string[]>();
        let n = 0;
        for (const o of ops) {
          if (o.kind === "store") {
            const text = `${n++}:`.padEnd(o.size, "x");
            const list = model.get(o.stream) ?? [];
            list.push(text);
            model.set(o.stream, list);
            expect(store.storeEvent(o.stream, text)).toBe(`${o.stream}.${list.length}`);
          } else if (o.kind === "cut") {
            store.cut(o.stream);
          } else if (o.kind === "forget") {
            store.forget(o.stream);
            model.delete(o.stream);
          } else {
            const r = replay(store, `${o.stream}.${o.after}`);
            const all = model.get(o.stream);
            if (r.stream === null) {
              expect(r.sent).toEqual([]);
              continue;
            }
            expect(all, "a stream it holds nothing of is refused").toBeDefined();
            const expected = (all ?? []).map((t, i) => [`${o.stream}.${i + 1}`, t]).slice(Math.max(0, o.after));
            expect(r.sent).toEqual(expected);
          }
          expect(store.chars).toBeLessThanOrEqual(chars);
          expect(store.chars).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
