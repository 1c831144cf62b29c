import type { Readable } from "node:stream";
import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface SseReadResult {
  /** The id of the last event that carried one: where a reconnect resumes (`Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The server's `retry:` advice, in ms. */
  retryMs: number | undefined;
}

/**
 * Reads an SSE body to its end, handing each event on. Memory is bounded: an event that grows past `maxEventBytes`
 * before it is complete stops the read with an error (the parser would otherwise buffer it without limit).
 */
export async function readSse(body: Readable, maxEventBytes: number, onEvent: (ev: EventSourceMessage) => void): Promise<SseReadResult> {
  const result: SseReadResult = { lastEventId: undefined, retryMs: undefined };
  let sinceEvent = 0;
  const parser = createParser({
    onEvent(ev) {
      sinceEvent = 0;
      if (ev.id !== undefined) result.lastEventId = ev.id;
      onEvent(ev);
    },
    onRetry(ms) {
      result.retryMs = ms;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<Buffer>) {
    sinceEvent += chunk.length;
    if (sinceEvent > maxEventBytes) throw new SseTooLarge(sinceEvent);
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  parser.feed(decoder.decode());
  return result;
}

export class SseTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`an event from upstream exceeds the size limit (${bytes} bytes without completing)`);
  }
}
