/**
 * A string's UTF-16 code units in a typed array, copied natively (lone surrogates included, unit for unit). A scanner
 * that reads every character of a long string in JavaScript reads an array element faster than it calls `charCodeAt`
 * (docs/detection.md, "What detection costs"), and the copy costs a fraction of one such pass.
 *
 * Each scanner keeps its own `Units`: the copy is written into a buffer it reuses (a fresh buffer per megabyte made
 * the process's external memory churn, and garbage collection with it), valid until its next `of`. Buffers above
 * `KEEP` code units are not kept.
 */
export class Units {
  private buffer: Buffer | null = null;

  of(text: string): Uint16Array {
    const bytes = text.length * 2;
    let b = this.buffer;
    if (b === null || b.length < bytes) {
      b = Buffer.allocUnsafe(Math.max(bytes, 8192));
      // Node aligns its pool, but a view of code units needs an even offset: a buffer of its own otherwise.
      if (b.byteOffset % 2 !== 0) b = Buffer.from(new ArrayBuffer(b.length));
      if (text.length <= KEEP) this.buffer = b;
    }
    b.write(text, 0, bytes, "utf16le");
    return new Uint16Array(b.buffer, b.byteOffset, text.length);
  }
}

/** Code units a `Units` keeps a buffer for (4 MB). */
const KEEP = 1 << 21;

const SHARED = new Units();
let sharedText: string | null = null;
let sharedView: Uint16Array | null = null;

/**
 * The code units of a long string in one buffer the scanners share: the normalisation's run check, the injection
 * gate and the secret-name search read the same megabyte one after the other, and it is copied once for all of them.
 * Valid until the next call with another string (each scanner reads its copy before it returns, and none calls
 * another on the way). Only strings up to `KEEP` code units are kept, and the last one stays referenced until another
 * is read (bounded: one string, as the buffer is).
 */
export function sharedUnits(text: string): Uint16Array {
  if (text === sharedText && sharedView !== null) return sharedView;
  const view = SHARED.of(text);
  if (text.length <= KEEP) {
    sharedText = text;
    sharedView = view;
  } else {
    sharedText = null;
    sharedView = null;
  }
  return view;
}

/** The code units of a string in a buffer of their own (for tests and one-off reads). */
export function codeUnits(text: string): Uint16Array {
  return new Units().of(text);
}
