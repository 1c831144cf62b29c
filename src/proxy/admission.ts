import { toolOf } from "../protocol/mcp.js";
import type { GateRefusal } from "./pipeline.js";

/** What becomes of one element of an agent frame an admission stage refused. */
export type AdmissionRefusal =
  /** An agent response (in a batch): it goes on, judged as usual. */
  | { pass: unknown; answer?: undefined; id?: undefined; method?: undefined; tool?: undefined }
  /** A request answered with the refusal (`answer`), or a notification (or a withdrawn request) dropped and logged. */
  | { pass?: undefined; answer: boolean; id: string | number | null; method: string; tool: string | null };

/**
 * Live control refused an agent frame (docs/sessions.md): its requests get a -32050 error carrying the message (unless
 * the refusal withdraws them: `answer: false`), its notifications are dropped, its responses go on; each is logged.
 */
export function refusalsOf(value: unknown, r: GateRefusal): AdmissionRefusal[] {
  const out: AdmissionRefusal[] = [];
  for (const el of Array.isArray(value) ? value : [value]) {
    const m = (el ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    const method = typeof m.method === "string" ? m.method : null;
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
    if (method === null) {
      if (id !== null) out.push({ pass: el });
      continue;
    }
    out.push({ answer: id !== null && r.answer !== false, id, method, tool: toolOf(method, m.params) });
  }
  return out;
}
