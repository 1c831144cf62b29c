import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { readByEvents } from "./read-events.js";

export interface SseReadResult {
  /** The id of the last event that carried one: where a reconnect resumes (`Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The server's `retry:` advice, in ms. */
  retryMs: number | undefined;
}

/**
 * Reads an SSE body to its end, handing each event on. Memory is bounded: an event that grows past `maxEventBytes`
 * before it is complete stops the read with an error (the parser would otherwise buffer it without limit), and the
 * body is destroyed. Read by its `data` events, not an async iterator: the chunks come without a promise each, and
 * `body.pause()` (a slow agent downstream) really stops the reading, which then backs up to the server; an iterator
 * keeps pulling whatever pause() says.
 */
export function readSse(body: Readable, maxEventBytes: number, onEvent: (ev: EventSourceMessage) => void): Promise<SseReadResult> {
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
  // UTF-8 split across chunks is joined; StringDecoder does it without the ICU converter a streaming TextDecoder uses.
  const decoder = new StringDecoder("utf8");
  return readByEvents<SseReadResult>(
    body,
    // An error of this side (a too-large event, a handler that threw) stops the read and lets the body go, as a loop's
    // break would.
    (chunk, settle) => {
      let error: Error | null = null;
      sinceEvent += chunk.length;
      if (sinceEvent > maxEventBytes) error = new SseTooLarge(sinceEvent);
      else {
        try {
          parser.feed(decoder.write(chunk));
        } catch (e) {
          error = e as Error;
        }
      }
      if (error) {
        settle(error);
        body.destroy();
      }
    },
    (settle) => {
      try {
        parser.feed(decoder.end());
      } catch (e) {
        return settle(e as Error);
      }
      settle(null, result);
    },
  );
}

export class SseTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`an event from upstream exceeds the size limit (${bytes} bytes without completing)`);
  }
}
