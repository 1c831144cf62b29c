import fc from "fast-check";

/*
 * Generated JSON-RPC traffic for the invariant suite: frames valid and not, batches, duplicated ids, oversize and deep
 * values, each with the request ids that must be answered. Every fresh request id is a nonce (unique in the run of the
 * suite), which is what lets the log pairing match rewritten messages by id and method (test/support/witness.ts).
 */

let counter = 0;
/** A request id no other generated request has. */
export const nonce = (prefix: string): string => `${prefix}-${process.pid}-${++counter}`;

/** A JSON-RPC frame as sent, and the ids of the requests in it (one entry per request: a duplicate counts twice). */
export interface Frame {
  text: string;
  expect: (string | number)[];
  /** Ids this frame's `notifications/cancelled` name: a request the agent cancels may go unanswered (MCP). */
  cancels?: (string | number)[];
}

type Id = string | number;
/** Stands for a fresh nonce: replaced when the frame is sent, so every run (and every shrink step) has unique ids. */
export const FRESH = "<fresh>";
/** A fresh nonce, or one of a few ids every run reuses (duplicates within and across messages of a session). */
const idArb = fc.oneof({ arbitrary: fc.constant<Id>(FRESH), weight: 4 }, { arbitrary: fc.constantFrom<Id>(1, "dup"), weight: 1 });

const wordArb = fc.constantFrom("hello", "a secret plan", "the forbidden word", "x\u2028y", "😀 émoji", "");

const request = (method: string, params?: unknown): fc.Arbitrary<unknown> => idArb.map((id) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }));

/** MCP elements: requests the rules allow, rewrite and deny; notifications; stray responses; invalid envelopes. */
export const mcpElementArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: wordArb.chain((w) => request("tools/call", { name: "echo", arguments: { message: w } })), weight: 5 },
  { arbitrary: request("tools/call", { name: "forbidden", arguments: {} }), weight: 2 },
  { arbitrary: fc.constantFrom("tools/list", "ping", "admin/reset", "unknown/method", "resources/list").chain((m) => request(m)), weight: 3 },
  { arbitrary: fc.record({ jsonrpc: fc.constant("2.0"), method: fc.constantFrom("notifications/initialized", "notifications/roots/list_changed", "notifications/custom"), params: fc.record({ note: wordArb }) }), weight: 2 },
  { arbitrary: fc.constantFrom(1, "dup").map((id) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } })), weight: 1 },
  { arbitrary: fc.constant({ jsonrpc: "2.0", id: FRESH, result: {} }), weight: 1 },
  {
    // Invalid envelopes that still carry an id: they must be answered (with that id), never forwarded.
    arbitrary: fc.constantFrom(
      { jsonrpc: "1.0", id: FRESH, method: "ping" },
      { id: FRESH, method: "ping" },
      { jsonrpc: "2.0", id: FRESH, method: "ping", result: {} },
      { jsonrpc: "2.0", id: FRESH, method: "tools/call", params: "not an object" },
    ),
    weight: 2,
  },
  // Invalid with no usable id: an error with id null at most; nothing to count.
  { arbitrary: fc.constantFrom({ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }, { jsonrpc: "2.0", method: 7 }, { jsonrpc: "2.0" }, 42, "str", null), weight: 1 },
);

const userMessage = (text: string) => ({ message: { kind: "message", messageId: "m-1", role: "user", parts: [{ kind: "text", text }] } });
/** A2A 0.3 elements: sends and streams the rules allow, rewrite and deny; reads of unknown tasks; invalid envelopes. */
export const a2aElementArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom("message/send", "message/stream"), wordArb).chain(([m, w]) => request(m, userMessage(w))), weight: 6 },
  { arbitrary: fc.constantFrom("tasks/get", "tasks/cancel").chain((m) => request(m, { id: "no-such-task" })), weight: 1 },
  { arbitrary: fc.constantFrom("unknown/method", "admin/reset").chain((m) => request(m)), weight: 1 },
  { arbitrary: fc.constantFrom({ jsonrpc: "1.0", id: FRESH, method: "message/send" }, { jsonrpc: "2.0", id: FRESH, method: "message/send", params: "text" }, { jsonrpc: "2.0", id: { x: 1 }, method: "message/send" }, 42), weight: 1 },
);

function deep(depth: number): unknown {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** A frame as generated (readable in a counterexample): one element, a batch, or bytes of a hostile kind. */
export type FrameTemplate = { one: unknown } | { batch: unknown[] } | { raw: "not-json" | "truncated" | "empty-batch" | "empty" | "oversize" | "too-deep" | "deep-ok" };

export function frameArb(element: fc.Arbitrary<unknown>): fc.Arbitrary<FrameTemplate> {
  const hostile = fc.constantFrom("not-json", "truncated", "empty-batch", "empty", "oversize", "too-deep", "deep-ok").map((raw): FrameTemplate => ({ raw }));
  return fc.oneof(
    { arbitrary: element.map((one): FrameTemplate => ({ one })), weight: 6 },
    { arbitrary: fc.array(element, { minLength: 1, maxLength: 4 }).map((batch): FrameTemplate => ({ batch })), weight: 2 },
    { arbitrary: hostile, weight: 2 },
  );
}

const fresh = (v: unknown): unknown => (v && typeof v === "object" && (v as { id?: unknown }).id === FRESH ? { ...v, id: nonce("r") } : v);
const echoCall = (message: string, extra: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id: FRESH, method: "tools/call", params: { name: "echo", arguments: { message, ...extra } } });

/**
 * The frame's bytes with fresh ids, and the requests that must be answered: every element with a method and a
 * string or number id, valid or not (an invalid one is answered with an error carrying its id).
 */
export function materialize(t: FrameTemplate, maxFrameBytes: number): Frame {
  let values: unknown[];
  let text: string;
  if ("one" in t) {
    values = [fresh(t.one)];
    text = JSON.stringify(values[0]);
  } else if ("batch" in t) {
    values = t.batch.map(fresh);
    text = JSON.stringify(values);
  } else {
    const raws = {
      "not-json": "this is not json",
      truncated: '{"jsonrpc":"2.0","id":"trunc',
      "empty-batch": "[]",
      empty: "",
      // Over the frame limit: refused whole (its id can be read, so it is answered once).
      oversize: echoCall("x".repeat(maxFrameBytes)),
      "too-deep": echoCall("deep", { extra: deep(200) }),
      // Deep but within the limit: judged and forwarded like any other.
      "deep-ok": echoCall("nested", { extra: deep(100) }),
    };
    const r = raws[t.raw];
    values = typeof r === "string" ? [] : [fresh(r)];
    text = typeof r === "string" ? r : JSON.stringify(values[0]);
  }
  const expect = values.flatMap((v) => {
    const m = v as { id?: unknown; method?: unknown } | null;
    return m && typeof m === "object" && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number") ? [m.id] : [];
  });
  const cancels = values.flatMap((v) => {
    const m = v as { method?: unknown; params?: { requestId?: unknown } } | null;
    const rid = m && typeof m === "object" && m.method === "notifications/cancelled" ? m.params?.requestId : undefined;
    return typeof rid === "string" || typeof rid === "number" ? [rid] : [];
  });
  return { text, expect, cancels };
}

/** The ids whose count of answers differs from their count of requests, as `id: got answers for n requests`. */
export function answerMismatch(expect: readonly Id[], answers: readonly unknown[], only: "any" | "missing" = "any", cancelled: readonly Id[] = []): string[] {
  const want = new Map<Id, number>();
  for (const id of expect) want.set(id, (want.get(id) ?? 0) + 1);
  const bad: string[] = [];
  for (const [id, n] of want) {
    const got = answers.filter((m) => isResponse(m) && (m as { id?: unknown }).id === id).length;
    // A request the agent cancelled while it was pending may go unanswered: MCP says the server should not answer it
    // (a cancelled batch member is answered by guardwire, so its batch is). Never more than one answer per request.
    const least = Math.max(0, n - cancelled.filter((c) => c === id).length);
    if (got < least || (got > n && only === "any")) bad.push(`${JSON.stringify(id)}: ${got} answers for ${n} request${n === 1 ? "" : "s"}`);
  }
  return bad;
}

/** The ids the frames' cancellations name. */
export const cancelledIn = (frames: readonly Frame[]): Id[] => frames.flatMap((f) => f.cancels ?? []);

function isResponse(m: unknown): boolean {
  return typeof m === "object" && m !== null && !("method" in m) && ("result" in m || "error" in m);
}
