import { ErrorCode, type JsonRpcId } from "../protocol/json-rpc.js";
import { parseJson, peekId } from "../protocol/safe-json.js";
import type { Frame } from "../transports/types.js";

/** A frame's JSON value (and its text, which goes on as it came when nothing rewrites it), or why it cannot be judged: the error its sender gets (if it can be addressed) and the reason logged. */
export type FrameRead = { ok: true; value: unknown; text: string } | { ok: false; id: JsonRpcId; code: number; message: string; reason: string };

/**
 * The first step of the pipeline: a frame over the size limit, unparsable, nested too deep, or an empty batch is refused
 * before anything else sees it. A transport that parsed the body already hands its value on (`frame.value`).
 */
export function readFrame(frame: Frame, limits: { maxDepth: number; maxFrameBytes: number }): FrameRead {
  if ("oversize" in frame) {
    return { ok: false, id: peekId(frame.oversize), code: ErrorCode.InvalidRequest, message: `Message too large: ${frame.bytes} bytes exceeds the ${limits.maxFrameBytes}-byte limit`, reason: "FRAME_TOO_LARGE" };
  }
  const parsed = frame.value !== undefined ? { ok: true as const, value: frame.value } : parseJson(frame.text, { maxDepth: limits.maxDepth });
  if (!parsed.ok) {
    if (parsed.code === "TOO_DEEP") return { ok: false, id: parsed.id, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${parsed.detail}`, reason: "TOO_DEEP" };
    return { ok: false, id: null, code: ErrorCode.ParseError, message: "Parse error", reason: "PARSE_ERROR" };
  }
  if (Array.isArray(parsed.value) && parsed.value.length === 0) return { ok: false, id: null, code: ErrorCode.InvalidRequest, message: "Invalid Request: empty batch", reason: "INVALID_REQUEST" };
  return { ok: true, value: parsed.value, text: frame.text };
}
