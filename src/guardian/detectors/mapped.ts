/**
 * Text with a map back to the string it was made from, for the normalisation pass (normalize.ts). A stage reads one
 * `Mapped` and writes the next through a `MappedBuilder`, keeping, replacing or dropping ranges of its input; every
 * piece it writes records the span of the *original* string it came from, so after any number of stages a span of
 * the final text maps straight back to the original.
 *
 * The map is run-length: a copied run is one segment however long, so a long text with one odd character costs a
 * few segments, not an entry per character.
 */
export class Mapped {
  private constructor(
    readonly text: string,
    /** Segment k starts at `out[k]` in `text`; null: the text is the original itself. */
    private readonly out: readonly number[] | null,
    /** Where segment k starts in the original. */
    private readonly src: readonly number[],
    /** Where segment k ends in the original (a copy segment: its start plus its length). */
    private readonly srcEnd: readonly number[],
    /** Whether segment k is the original's characters one for one (a copy) or a replacement of its span. */
    private readonly copy: readonly boolean[],
  ) {}

  static identity(text: string): Mapped {
    return new Mapped(text, null, [], [], []);
  }

  /** @internal Made by `MappedBuilder.finish`. */
  static of(text: string, out: number[], src: number[], srcEnd: number[], copy: boolean[]): Mapped {
    return new Mapped(text, out, src, srcEnd, copy);
  }

  get isIdentity(): boolean {
    return this.out === null;
  }

  /** The segment holding position `p` of the text (the last segment starting at or before it). */
  private segment(p: number): number {
    const out = this.out as readonly number[];
    let lo = 0;
    let hi = out.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((out[mid] as number) <= p) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Where the character at `p` (or the end, `p === text.length`) starts in the original. */
  startOf(p: number): number {
    if (this.out === null) return p;
    if (this.out.length === 0) return 0;
    if (p >= this.text.length) return this.srcEnd[this.out.length - 1] as number;
    const k = this.segment(p);
    return this.copy[k] ? (this.src[k] as number) + p - (this.out[k] as number) : (this.src[k] as number);
  }

  /** Where the text up to `p` (exclusive) ends in the original. */
  endOf(p: number): number {
    if (this.out === null) return p;
    if (p <= 0 || this.out.length === 0) return this.startOf(0);
    const k = this.segment(p - 1);
    return this.copy[k] ? (this.src[k] as number) + p - (this.out[k] as number) : (this.srcEnd[k] as number);
  }

  /** The span of the original that `text.slice(start, end)` came from; an empty span maps to a point. */
  original(start: number, end: number): { start: number; end: number } {
    const s = Math.max(0, Math.min(start, this.text.length));
    const e = Math.max(s, Math.min(end, this.text.length));
    if (e === s) {
      const at = this.startOf(s);
      return { start: at, end: at };
    }
    return { start: this.startOf(s), end: this.endOf(e) };
  }

  /**
   * Each segment overlapping `[a, b)` of the text, as the part of the range it covers and where that part came from:
   * what a builder needs to copy the range into the next stage.
   */
  forEachPiece(a: number, b: number, f: (from: number, to: number, srcStart: number, srcEnd: number, copy: boolean) => void): void {
    if (this.out === null) {
      f(a, b, a, b, true);
      return;
    }
    let k = this.segment(a);
    let p = a;
    const last = Math.min(b, this.text.length);
    while (p < last) {
      const segEnd = k + 1 < this.out.length ? (this.out[k + 1] as number) : this.text.length;
      const to = Math.min(last, segEnd);
      if (this.copy[k]) {
        const delta = p - (this.out[k] as number);
        f(p, to, (this.src[k] as number) + delta, (this.src[k] as number) + delta + (to - p), true);
      } else f(p, to, this.src[k] as number, this.srcEnd[k] as number, false);
      p = to;
      k++;
    }
  }
}

/** Writes the next stage's text from an input `Mapped`, in order. */
export class MappedBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly out: number[] = [];
  private readonly src: number[] = [];
  private readonly srcEnd: number[] = [];
  private readonly copy: boolean[] = [];
  /** Whether anything but a plain copy of the whole input was written. */
  private changed = false;
  /** How far into the input the stage has written (keep, put and drop move it; ranges must come in order). */
  private at = 0;

  constructor(readonly input: Mapped) {}

  /** Copies `[a, b)` of the input. */
  keep(a: number, b: number): void {
    if (b <= a) return;
    if (a !== this.at) this.changed = true;
    this.input.forEachPiece(a, b, (from, to, s, e, copy) => {
      if (copy) this.pushCopy(to - from, s);
      else this.pushSegment(to - from, s, e, false);
    });
    this.parts.push(this.input.text.slice(a, b));
    this.at = b;
  }

  /** Writes `text` in place of `[a, b)` of the input (`b > a`; an empty `text` drops the range). */
  put(text: string, a: number, b: number): void {
    this.changed = true;
    this.at = b;
    if (text.length === 0) return;
    this.pushSegment(text.length, this.input.startOf(a), this.input.endOf(b), false);
    this.parts.push(text);
  }

  /** Leaves `[a, b)` of the input out. */
  drop(_a: number, b: number): void {
    this.changed = true;
    this.at = b;
  }

  /** The new stage's text; the input itself when the stage only copied it whole. */
  finish(): Mapped {
    if (!this.changed && this.at === this.input.text.length) return this.input;
    const text = this.parts.join("");
    if (this.input.isIdentity && this.out.length === 1 && this.copy[0] === true && this.src[0] === 0 && text.length === this.input.text.length) return this.input;
    if (this.out.length === 0) return Mapped.of("", [0], [this.input.startOf(0)], [this.input.startOf(0)], [false]);
    return Mapped.of(text, this.out, this.src, this.srcEnd, this.copy);
  }

  private pushCopy(length: number, s: number): void {
    const k = this.out.length - 1;
    // A copy that continues the previous copy in both texts extends it.
    if (k >= 0 && this.copy[k] && (this.srcEnd[k] as number) === s) {
      this.srcEnd[k] = s + length;
      this.length += length;
      return;
    }
    this.pushSegment(length, s, s + length, true);
  }

  private pushSegment(length: number, s: number, e: number, copy: boolean): void {
    this.out.push(this.length);
    this.src.push(s);
    this.srcEnd.push(e);
    this.copy.push(copy);
    this.length += length;
  }
}
