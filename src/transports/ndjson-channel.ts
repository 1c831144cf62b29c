import type { Readable, Writable } from "node:stream";
import type { Frame, Peer } from "./types.js";
import { decodeUtf8, LineFramer } from "../protocol/ndjson.js";
import { atTurnEnd, inTurn } from "../turn.js";

/**
 * A newline-delimited JSON stream pair (stdio). Frames are handed on as text; sending applies backpressure:
 * while the destination's buffer is full, the source that feeds it is paused.
 */
export class NdjsonChannel implements Peer {
  private readonly framer: LineFramer;
  private paused: Readable[] = [];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    maxFrameBytes: number,
    onFrame: (frame: Frame) => void,
  ) {
    this.framer = new LineFramer(maxFrameBytes, {
      onLine: (line) => onFrame({ text: decodeUtf8(line) }),
      onOversize: (head, bytes) => onFrame({ oversize: decodeUtf8(head), bytes }),
    });
    input.on("data", (chunk: Buffer) => inTurn(() => this.framer.push(chunk)));
    input.on("end", () => this.framer.end());
    output.on("drain", () => {
      const paused = this.paused;
      this.paused = [];
      for (const src of paused) src.resume();
    });
    output.on("error", () => {
      // A closed pipe is reported by the owner's close/exit handling; writing must not crash the proxy.
    });
  }

  /** The stream whose data ends up in this channel's output: paused while the output is full. */
  feedsFrom(source: Readable): this {
    this.source = source;
    return this;
  }

  private source: Readable | undefined;

  /** Lines sent this turn, not yet written. */
  private queued = "";

  send(text: string): void {
    if (this.output.destroyed || this.output.writableEnded) return;
    // Messages sent in the same turn (several lines from one chunk, a batch) leave in one write, once the turn's
    // work is done: at the end of the input chunk being handled (after its decision lines are committed: commit.ts),
    // or, for a send from anywhere else (a guardian that answered later), in a microtask (turn.ts).
    if (this.queued === "") atTurnEnd(this.flush);
    this.queued += text + "\n";
  }

  /** Writes what this turn queued. */
  readonly flush = (): void => {
    const data = this.queued;
    this.queued = "";
    if (data === "" || this.output.destroyed || this.output.writableEnded) return;
    const ok = this.output.write(data);
    if (!ok && this.source && !this.paused.includes(this.source)) {
      this.source.pause();
      this.paused.push(this.source);
    }
  };

  end(): void {
    this.flush();
    if (!this.output.writableEnded) this.output.end();
  }
}
