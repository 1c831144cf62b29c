/**
 * Newline-delimited framing for stdio transports. Each byte is looked at once, so a long line costs linear time;
 * a line that grows past `maxFrameBytes` is not buffered: its first bytes are kept (to read an id from), the rest is
 * discarded up to the next newline, and `onOversize` reports it.
 */
export interface FrameSink {
  onLine(line: Uint8Array): void;
  onOversize(head: Uint8Array, totalBytes: number): void;
}

const NEWLINE = 0x0a;
const HEAD_BYTES = 64 * 1024;

export class LineFramer {
  private parts: Uint8Array[] = [];
  private buffered = 0;
  private discarding = false;
  private discardedHead: Uint8Array | undefined;
  private discardedBytes = 0;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly sink: FrameSink,
  ) {}

  /** Lines are handed to the sink synchronously and may view the chunk: the sink must not keep them. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl !== -1 && this.buffered === 0 && !this.discarding && nl - start <= this.maxFrameBytes) {
        // The whole line is in this chunk: no copy.
        this.emit(chunk.subarray(start, nl));
        start = nl + 1;
        continue;
      }
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  /** End of input: a last line without a newline still counts. */
  end(): void {
    if (this.buffered > 0 || this.discarding) this.endLine();
  }

  private append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.discarding) {
      this.discardedBytes += piece.length;
      return;
    }
    if (this.buffered + piece.length > this.maxFrameBytes) {
      // Keep only the frame's start (to read its id); copy it, the chunk may be reused.
      this.discardedHead = concat([...this.parts, piece], this.buffered + piece.length).slice(0, HEAD_BYTES);
      this.discardedBytes = this.buffered + piece.length;
      this.parts = [];
      this.buffered = 0;
      this.discarding = true;
      return;
    }
    // The chunk may be reused by the stream after this call returns; keep our own copy.
    this.parts.push(piece.slice());
    this.buffered += piece.length;
  }

  private endLine(): void {
    if (this.discarding) {
      const head = this.discardedHead ?? new Uint8Array(0);
      const total = this.discardedBytes;
      this.discarding = false;
      this.discardedHead = undefined;
      this.discardedBytes = 0;
      this.sink.onOversize(head, total);
      return;
    }
    const line = concat(this.parts, this.buffered);
    this.parts = [];
    this.buffered = 0;
    this.emit(line);
  }

  private emit(line: Uint8Array): void {
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    if (end === 0) return;
    this.sink.onLine(end === line.length ? line : line.subarray(0, end));
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const decoder = new TextDecoder("utf-8", { fatal: false });
export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

const encoder = new TextEncoder();
export function encodeLine(text: string): Uint8Array {
  return encoder.encode(text + "\n");
}
