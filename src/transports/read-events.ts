import type { Readable } from "node:stream";

/** Ends a read: with an error, or with its value. Only the first call counts. */
export type Settle<T> = (error: Error | null, value?: T) => void;

/**
 * Reads a body by its `data` events, not an async iterator: chunks come without a promise each, and `body.pause()`
 * really stops the reading (an iterator keeps pulling). The read settles once — through `settle` (from `data` or
 * `end`), on the body's error, or when it closes before its end (destroyed: the body was cut). Once settled, its
 * listeners are taken off, and what the body reports from then on (undici's abort error once it is destroyed) is
 * nobody's to throw. A body let go before the read began ends, or is cut, at once.
 */
export function readByEvents<T>(body: Readable, onData: (chunk: Buffer, settle: Settle<T>) => void, onEnd: (settle: Settle<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const settle: Settle<T> = (error, value) => {
      if (done) return;
      done = true;
      body.off("data", data);
      body.off("end", end);
      body.off("error", settle);
      body.off("close", close);
      body.on("error", ignore);
      if (error) reject(error);
      else resolve(value as T);
    };
    const data = (chunk: Buffer): void => onData(chunk, settle);
    const end = (): void => onEnd(settle);
    const close = (): void => settle(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    if (body.readableEnded) return end();
    if (body.destroyed) return close();
    body.on("data", data);
    body.on("end", end);
    body.on("error", settle);
    body.on("close", close);
  });
}

const ignore = (): void => undefined;
