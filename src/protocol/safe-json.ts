import type { JsonRpcId } from "./json-rpc.js";

/** Re-exported for the pipeline files that still import them from here (src/defaults.ts defines them). */
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES } from "../defaults.js";

export interface ParseLimits {
  /** Maximum nesting of arrays and objects. */
  maxDepth: number;
}

export type ParseResult =
  | { ok: true; value: unknown }
  | { ok: false; code: "PARSE_ERROR" | "TOO_DEEP"; id: JsonRpcId; detail: string };

/**
 * Parse untrusted JSON. The depth is checked by a linear scan before JSON.parse, so a 200k-deep document is refused
 * without recursion anywhere. JSON.parse itself cannot pollute prototypes: a `"__proto__"` key becomes an own data
 * property, which is forwarded as-is; guardwire never merges parsed objects into others.
 */
export function parseJson(text: string, limits: ParseLimits): ParseResult {
  const depth = fewOpenings(text, limits.maxDepth) ? 0 : maxDepthOf(text, limits.maxDepth);
  if (depth > limits.maxDepth) {
    return { ok: false, code: "TOO_DEEP", id: peekId(text), detail: `nesting deeper than ${limits.maxDepth}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, code: "PARSE_ERROR", id: null, detail: (e as Error).message };
  }
}

/**
 * At most `limit` `{` and `[` in the whole text (strings included), so nesting cannot pass it: the exact scan is not
 * needed. Counted with native searches, which skip the text between brackets at memchr speed.
 */
function fewOpenings(text: string, limit: number): boolean {
  let n = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++n > limit) return false;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++n > limit) return false;
  return true;
}

/** Nesting depth of a JSON text, scanning outside strings; stops counting once it passes `limit`. */
export function maxDepthOf(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i += 2;
        else if (s === 0x22) break;
        else i++;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return max;
}

const ID_PATTERN = /"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.){0,256}")/;

/**
 * Read a JSON-RPC id from the start of a frame that cannot be parsed whole (too large or too deep), so the caller
 * still gets an answer to its request. Only a top-level-looking `"id"` member in the given prefix is considered.
 */
export function peekId(prefix: string): JsonRpcId {
  const m = ID_PATTERN.exec(prefix.length > 65536 ? prefix.slice(0, 65536) : prefix);
  if (!m || m[1] === undefined) return null;
  try {
    const v: unknown = JSON.parse(m[1]);
    return typeof v === "string" || typeof v === "number" ? v : null;
  } catch {
    return null;
  }
}
