import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createParser, type EventSourceMessage } from "eventsource-parser";

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
  return new Promise<SseReadResult>((resolve, reject) => {
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", finish);
      body.off("close", onClose);
      // Settled: what the body reports from now on (undici's abort error once it is destroyed) is nobody's to throw.
      body.on("error", ignore);
      if (error) reject(error);
      else resolve(result);
    };
    /** Stops on an error of this side (a too-large event, a handler that threw): the body is let go, as a loop's break would. */
    const stop = (error: Error): void => {
      finish(error);
      body.destroy();
    };
    const onData = (chunk: Buffer): void => {
      sinceEvent += chunk.length;
      if (sinceEvent > maxEventBytes) return stop(new SseTooLarge(sinceEvent));
      try {
        parser.feed(decoder.write(chunk));
      } catch (e) {
        stop(e as Error);
      }
    };
    const onEnd = (): void => {
      try {
        parser.feed(decoder.end());
      } catch (e) {
        return finish(e as Error);
      }
      finish();
    };
    // Closed before its end, without an error of its own (destroyed): the stream was cut.
    const onClose = (): void => finish(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    // Let go before this read began: nothing more will come, and no event would say so.
    if (body.readableEnded) return onEnd();
    if (body.destroyed) return onClose();
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", finish);
    body.on("close", onClose);
  });
}

const ignore = (): void => undefined;

export class SseTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`an event from upstream exceeds the size limit (${bytes} bytes without completing)`);
  }
}
