import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawHttp, rawUpgrade, type Headers, type RawAnswer } from "../support/witness-client.js";
import { a2aElementArb, answerMismatch, cancelledIn, frameArb, FRESH, materialize, mcpElementArb, nonce, type Frame, type FrameTemplate } from "../support/witness-frames.js";
import { KEYS, MAX_FRAME_BYTES, ROUTES, replayOf, useGuard } from "../support/witness.js";

/*
 * Invariant, over MCP Streamable HTTP sessions on every kind of MCP upstream: generated frames (valid and not,
 * batches, duplicate ids, oversize, deep), generated headers (Host, Origin, content type, accept, protocol version,
 * agent keys, duplicated session ids), generated session ids (own, foreign, tampered, another key's, none) and
 * interleavings of POST, GET and DELETE sent concurrently. Checked: (a) nothing reaches a witness unjudged; (b) every
 * request in every POST gets exactly one answer on that POST (a refusal of the whole POST — 4xx — counts as its one
 * answer), and a 202 is given only to a POST with no request in it.
 */

const ANSWER_MS = 6000;
const VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;
type Key = keyof typeof KEYS;

const sidArb = fc.oneof({ arbitrary: fc.constant("own" as const), weight: 8 }, fc.constantFrom("none", "other", "tampered", "random", "doubled") as fc.Arbitrary<"none" | "other" | "tampered" | "random" | "doubled">);
type KeyChoice = "own" | "other" | "none" | "wrong" | "doubled";
const keyArb = fc.oneof({ arbitrary: fc.constant<KeyChoice>("own"), weight: 8 }, fc.constantFrom<KeyChoice>("other", "none", "wrong", "doubled"));
const headerArb = fc.record({
  contentType: fc.oneof({ arbitrary: fc.constant("application/json"), weight: 8 }, fc.constantFrom("application/json; charset=utf-8", "text/plain", "")),
  accept: fc.oneof({ arbitrary: fc.constant("application/json, text/event-stream"), weight: 8 }, fc.constantFrom("application/json", "text/event-stream", "*/*", "")),
  host: fc.oneof({ arbitrary: fc.constant("own"), weight: 8 }, fc.constantFrom("localhost", "evil.example", "127.0.0.1.nip.io")),
  origin: fc.oneof({ arbitrary: fc.constant(""), weight: 8 }, fc.constantFrom("http://localhost:3000", "http://evil.example", "null")),
  version: fc.oneof({ arbitrary: fc.constant("own"), weight: 6 }, fc.constantFrom("none", "1999-01-01", ...VERSIONS)),
});

const opArb = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("post" as const), slot: fc.nat(1), sid: sidArb, key: keyArb, headers: headerArb, frame: frameArb(mcpElementArb) }), weight: 8 },
  { arbitrary: fc.record({ op: fc.constant("get" as const), slot: fc.nat(1), sid: sidArb, key: keyArb, lastEventId: fc.constantFrom("", "0.1", "1.0", "garbage") }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("delete" as const), slot: fc.nat(1), sid: sidArb, key: keyArb }), weight: 1 },
);

const runArb = fc.record({
  route: fc.constantFrom<keyof typeof ROUTES>("http", "stdio", "sse", "ws"),
  sessions: fc.array(fc.record({ version: fc.constantFrom(...VERSIONS), key: fc.constantFrom<Key>("alice", "bob") }), { minLength: 1, maxLength: 2 }),
  waves: fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
});

type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;
type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

/** Counterexamples found before, run first every time as regressions. */
const plainPost = (frame: FrameTemplate): Op => ({ op: "post", slot: 0, sid: "own", key: "own", headers: { contentType: "application/json", accept: "application/json, text/event-stream", host: "own", origin: "", version: "own" }, frame });
const echoCall = (id: string | number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { message: "hello" } } });
const echo = (id: string | number): FrameTemplate => ({ one: echoCall(id) });
const EXAMPLES: [Run][] = [
  // The same id twice at once in one session: the first request was never answered.
  [{ route: "http", sessions: [{ version: "2025-06-18", key: "alice" }], waves: [[plainPost(echo(1)), plainPost(echo(1))]] }],
  // A request and a DELETE of its session at once: the request got a 200 with no answer in it.
  [{ route: "stdio", sessions: [{ version: "2025-06-18", key: "alice" }], waves: [[plainPost(echo(FRESH)), { op: "delete", slot: 0, sid: "own", key: "own" }]] }],
  // A batch with an id twice and a DELETE of its session at once: the session's end answered the repeated id once.
  [{ route: "http", sessions: [{ version: "2025-03-26", key: "alice" }], waves: [[plainPost({ batch: [echoCall("dup"), echoCall("dup"), { jsonrpc: "2.0", method: "notifications/initialized" }] }), { op: "delete", slot: 0, sid: "own", key: "own" }]] }],
];
interface Slot {
  sid: string;
  key: Key;
  version: string;
}

describe("invariant: guardwire serve, every MCP upstream and an A2A agent", () => {
  const guard = useGuard();

  it("nothing reaches a witness unjudged, and every request gets exactly one answer", async () => {
    const g = guard();
    const replay = replayOf("sessions");
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        const path = ROUTES[run.route];
        const base = (key: Key | null, extra: Headers = {}): Headers => ({
          host: `127.0.0.1:${g.port}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(key ? { "x-guardwire-key": KEYS[key] } : {}),
          ...extra,
        });
        const slots: Slot[] = [];
        for (const s of run.sessions) {
          const id = nonce("init");
          const a = await rawHttp(g.port, {
            method: "POST",
            path,
            headers: base(s.key),
            body: JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: s.version, capabilities: {}, clientInfo: { name: `agent-${id}`, version: "1" } } }),
            timeoutMs: ANSWER_MS * 2,
          });
          expect(a.status, `initialize on ${path}: ${a.body}`).toBe(200);
          const sid = String(a.headers["mcp-session-id"]);
          slots.push({ sid, key: s.key, version: s.version });
          const n = await rawHttp(g.port, { method: "POST", path, headers: base(s.key, { "mcp-session-id": sid, "mcp-protocol-version": s.version }), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), timeoutMs: ANSWER_MS });
          expect(n.status).toBe(202);
        }
        const streams: { close(): void }[] = [];
        const problems: string[] = [];

        const headersOf = (op: Op, slot: Slot, other: Slot | undefined): Headers => {
          const key: Key | null = op.key === "own" ? slot.key : op.key === "other" ? (slot.key === "alice" ? "bob" : "alice") : null;
          const h = base(key);
          if (op.key === "wrong") h["x-guardwire-key"] = "k-wrong-0123456789abcdef";
          if (op.key === "doubled") h["x-guardwire-key"] = [KEYS[slot.key], KEYS.alice];
          const sid = { own: slot.sid, none: undefined, other: other?.sid ?? randomUUID(), tampered: slot.sid.slice(0, -1) + (slot.sid.endsWith("0") ? "1" : "0"), random: randomUUID(), doubled: [slot.sid, slot.sid] }[op.sid];
          if (sid !== undefined) h["mcp-session-id"] = sid;
          h["mcp-protocol-version"] = slot.version;
          return h;
        };

        const exec = async (op: Op): Promise<void> => {
          const slot = slots[op.slot % slots.length] as Slot;
          const other = slots.find((s) => s !== slot);
          const h = headersOf(op, slot, other);
          if (op.op === "get") {
            const a = await rawHttp(g.port, { method: "GET", path, headers: { ...h, accept: "text/event-stream", ...(op.lastEventId ? { "last-event-id": op.lastEventId } : {}) }, timeoutMs: ANSWER_MS, untilHeaders: true });
            streams.push(a);
            if (a.hung) problems.push(`GET ${JSON.stringify(op)}: no answer`);
            return;
          }
          if (op.op === "delete") {
            const a = await rawHttp(g.port, { method: "DELETE", path, headers: h, timeoutMs: ANSWER_MS });
            if (a.hung) problems.push(`DELETE ${JSON.stringify(op)}: no answer`);
            return;
          }
          const x = op.headers;
          if (x.contentType) h["content-type"] = x.contentType;
          else delete h["content-type"];
          if (x.accept) h.accept = x.accept;
          else delete h.accept;
          if (x.host !== "own") h.host = x.host;
          if (x.origin) h.origin = x.origin;
          if (x.version === "none") delete h["mcp-protocol-version"];
          else if (x.version !== "own") h["mcp-protocol-version"] = x.version;
          const frame: Frame = materialize(op.frame, MAX_FRAME_BYTES);
          const a = await rawHttp(g.port, { method: "POST", path, headers: h, body: frame.text, timeoutMs: ANSWER_MS });
          const wrong = answersWrong(a, frame);
          if (wrong) problems.push(`POST ${cutJson(frame.text)} (sid ${op.sid}, key ${op.key}, headers ${JSON.stringify(x)}): ${wrong}`);
        };

        try {
          for (const wave of run.waves) await Promise.all(wave.map(exec));
        } finally {
          for (const s of streams) s.close();
          await Promise.all(slots.map((s) => rawHttp(g.port, { method: "DELETE", path, headers: base(s.key, { "mcp-session-id": s.sid }), timeoutMs: ANSWER_MS })));
        }
        expect(problems, "requests without exactly one answer").toEqual([]);
        expect(await g.records.settle(), "reached a witness without an allow in the log").toEqual([]);
      }),
      { ...replay, numRuns: 30, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false, examples: EXAMPLES },
    );
    expect(g.records.deliveries).toBeGreaterThan(0);
  }, 180_000);
  it("A2A: nothing reaches the agent unjudged, and every call gets exactly one answer (a stream: one that ends)", async () => {
    const g = guard();
    const replay = replayOf("a2a");
    const before = g.records.deliveriesOf("a2a");
    const callArb = fc.record({ key: keyArb, frame: frameArb(a2aElementArb) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(callArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), async (waves) => {
        const problems: string[] = [];
        const exec = async (call: { key: KeyChoice; frame: FrameTemplate }) => {
          const frame = materialize(call.frame, MAX_FRAME_BYTES);
          const key = { own: KEYS.alice, other: KEYS.bob, none: undefined, wrong: "k-wrong-0123456789abcdef", doubled: [KEYS.alice, KEYS.alice] }[call.key];
          const headers: Headers = { host: `127.0.0.1:${g.port}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...(key ? { "x-guardwire-key": key } : {}) };
          const a = await rawHttp(g.port, { method: "POST", path: `${ROUTES.a2a}/`, headers, body: frame.text, timeoutMs: ANSWER_MS });
          // A streamed answer is many responses with the request's id: at least one, in a stream that ended.
          const streamed = String(a.headers["content-type"] ?? "").includes("text/event-stream");
          const wrong = streamed && !a.hung ? (frame.expect.every((id) => a.messages.some((m) => (m as { id?: unknown }).id === id)) ? null : "a stream without its answer") : answersWrong(a, frame);
          if (wrong) problems.push(`POST ${cutJson(frame.text)} (key ${call.key}): ${wrong}`);
        };
        for (const wave of waves) await Promise.all(wave.map(exec));
        expect(problems, "calls without exactly one answer").toEqual([]);
        expect(await g.records.settle(), "reached the agent without an allow in the log").toEqual([]);
      }),
      { ...replay, numRuns: 40, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false },
    );
    expect(g.records.deliveriesOf("a2a")).toBeGreaterThan(before);
  }, 60_000);
  it("WebSocket downstream: nothing reaches a witness unjudged, and every request frame gets exactly one answer", async () => {
    const g = guard();
    const replay = replayOf("websocket");
    // Oversize frames are left out: over WebSocket they end the connection (close 1009), as the protocol has it.
    const frames = fc.array(frameArb(mcpElementArb).filter((t) => !("raw" in t && t.raw === "oversize")), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<keyof typeof ROUTES>("http", "stdio", "sse", "ws"), frames, async (route, templates) => {
        const sent = [{ text: JSON.stringify({ jsonrpc: "2.0", id: nonce("init"), method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "agent", version: "1" } } }), expect: [] as (string | number)[] }, ...templates.map((t) => materialize(t, MAX_FRAME_BYTES))];
        const expected = sent.flatMap((f) => f.expect);
        const headers: Headers = { host: `127.0.0.1:${g.port}`, "x-guardwire-key": KEYS.alice };
        const cancelled = cancelledIn(sent);
        const u = await rawUpgrade(g.port, `${ROUTES[route]}/ws`, headers, sent.map((f) => f.text), expected, ANSWER_MS, cancelled);
        expect(u.status).toBe(101);
        expect(u.hung, `no answer to some of ${JSON.stringify(expected)}: got ${cutJson(JSON.stringify(u.messages))}`).toBe(false);
        expect(answerMismatch(expected, u.messages, "any", cancelled)).toEqual([]);
        expect(await g.records.settle(), "reached a witness without an allow in the log").toEqual([]);
      }),
      { ...replay, numRuns: 30, interruptAfterTimeLimit: 10_000, markInterruptAsFailure: false },
    );
  }, 60_000);
});

/** Invariant (b) for one POST, or null when it holds. */
function answersWrong(a: RawAnswer, frame: Frame): string | null {
  if (a.hung) return `no answer within ${ANSWER_MS} ms`;
  if (a.error) return `connection error: ${a.error}`;
  if (a.status === 202) return frame.expect.length > 0 ? `202 for a POST with requests ${JSON.stringify(frame.expect)}` : null;
  if (a.status !== 200) return null;
  const bad = answerMismatch(frame.expect, a.messages, "any", frame.cancels);
  return bad.length > 0 ? `${bad.join("; ")} (got ${cutJson(JSON.stringify(a.messages))})` : null;
}

const cutJson = (s: string) => (s.length > 400 ? `${s.slice(0, 400)}…` : s);
