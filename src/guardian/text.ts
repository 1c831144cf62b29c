import { collectStrings } from "./detectors/scan.js";

/**
 * All human-readable text in a message, extracted once per message for `text` in rules: every string inside
 * params, result and error (arguments, content text, sampling messages, A2A text parts), binary payloads skipped —
 * the same strings the detectors scan.
 */
export function extractText(message: Record<string, unknown>): string {
  return collectStrings(message)
    .map((s) => s.value)
    .join("\n");
}
