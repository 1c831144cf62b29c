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
let longText: string | null = null;
let longView: Uint16Array | null = null;

/**
 * The code units of a long string in one buffer the scanners share: the normalisation's run check, the injection
 * gate and the secret-name search read the same megabyte one after the other, and it is copied once for all of them.
 * Valid until the next call with another string (each scanner reads its copy before it returns, and none calls
 * another on the way). A string up to `KEEP` code units stays referenced until another is read (bounded: one string, as
 * the buffer is).
 *
 * A longer string's copy is a buffer of its own (twice its length in bytes), kept apart so the short strings read in
 * between do not push it out: the scanners of one judgement run synchronously, one after the other, and share it; it
 * and the string are let go once the judgement is over (a microtask). Copied once per scanner instead, a 10 MB
 * result made four 20 MB copies at once.
 */
export function sharedUnits(text: string): Uint16Array {
  if (text.length > KEEP) {
    if (text === longText && longView !== null) return longView;
    if (longText === null) queueMicrotask(forgetLong);
    longText = text;
    longView = SHARED.of(text);
    return longView;
  }
  if (text === sharedText && sharedView !== null) return sharedView;
  sharedText = text;
  sharedView = SHARED.of(text);
  return sharedView;
}

function forgetLong(): void {
  longText = null;
  longView = null;
}

/** The code units of a string in a buffer of their own (for tests and one-off reads). */
export function codeUnits(text: string): Uint16Array {
  return new Units().of(text);
}
