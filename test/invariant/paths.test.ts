import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawHttp, rawUpgrade, type Headers } from "../support/witness-client.js";
import { KEYS, ROUTES, replayOf, useGuard } from "../support/witness.js";

/*
 * Invariant, over request paths: whatever path an agent sends — dot segments, percent-encoded dots and slashes,
 * backslashes, doubled slashes, `/.well-known/../<route>`, prefixes and suffixes of routes, queries, unicode, overlong
 * paths — nothing reaches a witness unjudged (every delivery pairs with an allow/modify line), and every request and
 * every upgrade gets exactly one answer.
 */

const ANSWER_MS = 8000;
let nonce = 0;

type Edit = (p: string, at: number) => string;
const slashes = (p: string) => [...p.matchAll(/\//g)].map((m) => m.index);
/** Replaces the n-th slash (mod their count) of a path. */
const atSlash =
  (to: string): Edit =>
  (p, n) => {
    const s = slashes(p);
    const i = s[n % s.length] ?? 0;
    return p.slice(0, i) + to + p.slice(i + 1);
  };
const EDITS: Record<string, Edit> = {
  "slash→%2f": atSlash("%2f"),
  "slash→%2F": atSlash("%2F"),
  "slash→%5c": atSlash("%5c"),
  "slash→backslash": atSlash("\\"),
  "slash→//": atSlash("//"),
  "slash→/./": atSlash("/./"),
  "slash→/x/../": atSlash("/x/../"),
  "slash→/%2e/": atSlash("/%2e/"),
  "slash→∕ (U+2215)": atSlash("\u2215"),
  "slash→／ (U+FF0F)": atSlash("\uff0f"),
  "letter→%-hex": (p, n) => {
    const letters = [...p.matchAll(/[a-z]/g)].map((m) => m.index);
    const i = letters[n % Math.max(1, letters.length)];
    return i === undefined ? p : p.slice(0, i) + `%${p.charCodeAt(i).toString(16)}` + p.slice(i + 1);
  },
  upper: (p) => p.toUpperCase(),
};
const PREFIXES = ["", "/.well-known/..", "/.well-known/%2e%2e", "/.well-known/%2E%2E", "/.well-known/.%2e", "/.well-known/x/../..", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/..", "/x/..", "/.", "/", "\\", "/%2e%2e", "/./.well-known/../."];
const SUFFIXES = ["", "/", "/.", "/..", "/./", "/sse", "/ws", "/messages", "/messages?sessionId=x", "?a=1", "?", "#frag", "/%2e%2e", "%00", "é", "/.well-known/agent-card.json", "/rest/v1/message:send", ";x", "/x/.."];

const pathArb = fc
  .record({
    route: fc.oneof({ arbitrary: fc.constantFrom(...Object.values(ROUTES)), weight: 4 }, fc.constantFrom("/mcp", "/a2a", "/")),
    // Each trick half the time, so plain route paths (which must work, and be judged) come up often too.
    prefix: fc.oneof({ arbitrary: fc.constant(""), weight: 2 }, { arbitrary: fc.constantFrom(...PREFIXES), weight: 3 }),
    suffix: fc.oneof(fc.constant(""), fc.constantFrom(...SUFFIXES)),
    edits: fc.oneof(fc.constant([]), fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat(8)), { minLength: 1, maxLength: 3 })),
    overlong: fc.constantFrom(0, 0, 0, 0, 0, 0, 1500, 6000),
  })
  .map(({ route, prefix, suffix, edits, overlong }) => {
    let p = route;
    for (const [name, n] of edits) p = (EDITS[name] as Edit)(p, n);
    // An overlong path that still resolves to the route: many segments, each undone by a `..`.
    const long = overlong ? "/x".repeat(overlong) + "/..".repeat(overlong) : "";
    return long + prefix + p + suffix;
  });

type Action = "initialize" | "forbidden-call" | "a2a-forbidden" | "get" | "delete" | "upgrade";
const actionArb = fc.oneof(
  { arbitrary: fc.constantFrom<Action>("initialize", "forbidden-call"), weight: 3 },
  { arbitrary: fc.constantFrom<Action>("a2a-forbidden", "get", "delete"), weight: 1 },
  { arbitrary: fc.constant<Action>("upgrade"), weight: 1 },
);

function bodyOf(action: Action, id: string): string {
  if (action === "initialize") return JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: `agent-${id}`, version: "1" } } });
  if (action === "forbidden-call") return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "forbidden", arguments: {} } });
  return JSON.stringify({ jsonrpc: "2.0", id, method: "message/send", params: { message: { kind: "message", messageId: id, role: "user", parts: [{ kind: "text", text: `forbidden ${id}` }] } } });
}

describe("invariant: every path", () => {
  const guard = useGuard();

  it("nothing reaches a witness unjudged, and every request and upgrade gets exactly one answer", async () => {
    const g = guard();
    const replay = replayOf("paths");
    const headers = (): Headers => ({ host: `127.0.0.1:${g.port}`, "x-guardwire-key": KEYS.alice, "content-type": "application/json", accept: "application/json, text/event-stream" });
    await fc.assert(
      fc.asyncProperty(pathArb, actionArb, async (path, action) => {
        const id = `p-${++nonce}`;
        if (action === "upgrade") {
          const init = bodyOf("initialize", id);
          const u = await rawUpgrade(g.port, path, headers(), [init], [id], ANSWER_MS);
          expect(u.hung, `upgrade at ${path}: no answer to ${id}`).toBe(false);
          if (u.status === 101) expect(u.messages.filter((m) => (m as { id?: unknown }).id === id)).toHaveLength(1);
        } else {
          const method = action === "get" ? "GET" : action === "delete" ? "DELETE" : "POST";
          const body = method === "POST" ? bodyOf(action, id) : undefined;
          const a = await rawHttp(g.port, { method, path, headers: method === "GET" ? { ...headers(), accept: "text/event-stream" } : headers(), body, timeoutMs: ANSWER_MS, untilHeaders: method === "GET" });
          a.close();
          expect(a.hung, `${method} ${path}: no answer`).toBe(false);
          if (body && a.status === 200) expect(a.messages.filter((m) => (m as { id?: unknown }).id === id), `${method} ${path}: answers to ${id}`).toHaveLength(1);
        }
        expect(await g.records.settle(), `${action} at ${JSON.stringify(path)}: reached a witness without an allow in the log`).toEqual([]);
      }),
      // The examples always run: counterexamples found before, kept as regressions, and an initialize on two plain
      // routes, so the run always delivers something (a random run of mangled paths may reach no witness at all).
      {
        ...replay,
        numRuns: 150,
        interruptAfterTimeLimit: 20_000,
        markInterruptAsFailure: false,
        examples: [
          ["/.well-known/%2E%2E/mcp/http", "a2a-forbidden"],
          ["/.well-known/../mcp/http", "forbidden-call"],
          [ROUTES.stdio, "initialize"],
          [ROUTES.http, "initialize"],
        ],
      },
    );
    expect(g.records.deliveries).toBeGreaterThan(0);
  }, 120_000);
});
