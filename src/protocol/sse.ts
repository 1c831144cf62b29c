/** Server-sent events, writing side (WHATWG HTML §9.2). Reading uses eventsource-parser. */

/**
 * One event. A data payload may hold newlines (pretty-printed JSON from a server): each line becomes its own `data:`
 * field, which the reader joins back with "\n".
 */
export function sseEvent(data: string, id?: string, event?: string): string {
  let head = "";
  if (event !== undefined) head += `event: ${event}\n`;
  if (id !== undefined) head += `id: ${id}\n`;
  if (data.indexOf("\n") === -1 && data.indexOf("\r") === -1) return `${head}data: ${data}\n\n`;
  return `${head}${data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;
}

/**
 * The same event as `sseEvent`, as the pieces to write: a large one-line payload stays its own piece, so it is turned
 * into bytes as it is written instead of first being copied into one event string.
 */
export function sseEventParts(data: string, id?: string, event?: string): string[] {
  if (data.length < 1 << 16 || data.indexOf("\n") !== -1 || data.indexOf("\r") !== -1) return [sseEvent(data, id, event)];
  let head = "";
  if (event !== undefined) head += `event: ${event}\n`;
  if (id !== undefined) head += `id: ${id}\n`;
  return [`${head}data: `, data, "\n\n"];
}

/** A comment line: keeps idle connections open through intermediaries without producing an event. */
export const SSE_KEEPALIVE = ": keepalive\n\n";
