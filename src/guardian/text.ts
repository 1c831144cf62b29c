/**
 * All human-readable text in a message, extracted once per message for `text` in rules: every string inside
 * params, result and error (arguments, content text, sampling messages, A2A text parts). Binary payloads
 * (`data`/`blob` next to a `mimeType`) are skipped. Iterative, so depth does not matter.
 */
export function extractText(message: Record<string, unknown>): string {
  const out: string[] = [];
  const stack: unknown[] = [];
  for (const key of ["params", "result", "error"]) {
    if (message[key] !== undefined) stack.push(message[key]);
  }
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      const binary = typeof o.mimeType === "string";
      const keys = Object.keys(o);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        if (binary && (k === "data" || k === "blob")) continue;
        stack.push(o[k]);
      }
    }
  }
  return out.join("\n");
}
