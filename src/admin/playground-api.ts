import { performance } from "node:perf_hooks";
import { diffLines } from "diff";
import type { AnyEmbeddedGuardian } from "../guardian/embedded.js";
import type { JsonObject } from "../protocol/json-rpc.js";
import { DEFAULT_MAX_DEPTH } from "../defaults.js";
import { maxDepthOf, parseJson } from "../protocol/safe-json.js";
import { fail, type AdminRoute } from "./server.js";

/**
 * `POST /api/playground`: what the rules in force decide about a pasted message. The embedded guardian's pure
 * evaluator answers; nothing is sent anywhere, nothing is logged, no session state changes (EmbeddedGuardian.trial).
 * Body: `{ message: object | JSON text, direction: "outbound"|"inbound", protocol: "mcp"|"a2a", route?, agent?, server? }`.
 */
export function playgroundRoutes(embedded: AnyEmbeddedGuardian): AdminRoute[] {
  return [
    {
      method: "POST",
      pattern: /^\/api\/playground$/,
      doc: "POST /api/playground",
      run: async (_m, r) => {
        const b = await r.body();
        const message = readMessage(b.message);
        if (typeof message === "string") return fail(400, "BAD_REQUEST", message);
        const direction = b.direction ?? "outbound";
        const protocol = b.protocol ?? "mcp";
        if (direction !== "outbound" && direction !== "inbound") return fail(400, "BAD_REQUEST", "direction must be outbound or inbound");
        if (protocol !== "mcp" && protocol !== "a2a") return fail(400, "BAD_REQUEST", "protocol must be mcp or a2a");
        const text = (v: unknown) => (typeof v === "string" && v !== "" ? v.slice(0, 200) : undefined);
        const agent = text(b.agent);
        const server = text(b.server);
        const started = performance.now();
        const d = embedded.trial(protocol, message, {
          direction,
          session: "playground",
          route: text(b.route) ?? "playground",
          transport: "playground",
          agent: agent ? { id: agent } : null,
          server: server ? { name: server } : null,
        });
        const evalUs = Math.round((performance.now() - started) * 1000);
        const shown = (m: unknown) => JSON.stringify(m, null, 2) + "\n";
        return [
          200,
          {
            decision: d.decision,
            mode: d.mode,
            rules: d.rules,
            rule: d.rule ?? null,
            reasonCode: d.reasonCode,
            message: d.message,
            audit: d.audit ?? null,
            errors: d.errors ?? [],
            detected: d.detected ?? [],
            labels: d.labels ?? [],
            ask: d.ask ?? null,
            modified: d.modified ?? null,
            diff: d.modified ? diffLines(shown(message), shown(d.modified)).map((c) => ({ added: c.added, removed: c.removed, value: c.value })) : null,
            ruleset: embedded.rules.hash,
            evalUs,
          },
        ];
      },
    },
  ];
}

function readMessage(raw: unknown): JsonObject | string {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw ?? null);
  if (maxDepthOf(text, DEFAULT_MAX_DEPTH) > DEFAULT_MAX_DEPTH) return `message nests deeper than ${DEFAULT_MAX_DEPTH}`;
  const parsed = typeof raw === "string" ? parseJson(raw, { maxDepth: DEFAULT_MAX_DEPTH }) : { ok: true as const, value: raw };
  if (!parsed.ok) return `message is not JSON: ${parsed.detail}`;
  const v = parsed.value;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "message must be one JSON-RPC message (an object)";
  if ((v as JsonObject).jsonrpc !== "2.0") return 'message must be a JSON-RPC message ("jsonrpc": "2.0")';
  return v as JsonObject;
}
