import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { Mapped, MappedBuilder } from "./mapped.js";
import type { HiddenSpan } from "./normalize.js";

/*
 * The markup stages of the normalisation pass: terminal escape sequences (with the text they conceal or erase),
 * HTML (tags out, entities decoded, hidden elements and comments reported) and Markdown comments. Each keeps the
 * words a model would read and drops only the syntax around them.
 */

type Plain = (s: string) => string;

// ---------------------------------------------------------------------------------------------------------------
// Terminal escapes

/** What makes the terminal stage run: ESC, the C1 introducers, backspace, or a carriage return not before a newline. */
export const HAS_TERMINAL = /[\x08\x1b\x90\x98\x9b\x9d\x9e\x9f]|\r(?!\n)/;

/** A cell's or a cursor's furthest reach, and the work the screen model may do per input character. */
const MAX_POS = 1 << 16;
const WORK_PER_CHAR = 8;

const PRINTED = 1;
const CONCEALED = 2;
const SHOWN = 4;

/**
 * Just enough of a terminal to know which characters end up on screen: lines of cells holding the index of the
 * input character shown there, a cursor, the SGR colours and conceal flag, and the alternate screen. Bounded: a
 * cursor never moves past `MAX_POS`, and once the work done passes `WORK_PER_CHAR` per input character the model
 * stops (concealment is still tracked; erasure is then not reported).
 */
class Screen {
  private rows: (number[] | undefined)[] = [];
  private main: (number[] | undefined)[] | null = null;
  private row = 0;
  private col = 0;
  private saved = { row: 0, col: 0 };
  private conceal = false;
  private fg = -1;
  private bg = -1;
  private work = 0;
  ok = true;
  readonly state: Uint8Array;

  constructor(
    private readonly t: string,
    private readonly budget: number,
  ) {
    this.state = new Uint8Array(t.length);
  }

  private charge(n: number): void {
    this.work += n;
    if (this.work > this.budget) this.ok = false;
  }

  get hiding(): boolean {
    return this.conceal || (this.fg >= 0 && this.fg === this.bg);
  }

  private mark(i: number, flags: number): void {
    this.state[i] = (this.state[i] as number) | flags;
  }

  print(i: number, size: number): void {
    const flags = PRINTED | (this.hiding ? CONCEALED : 0);
    this.mark(i, flags);
    if (size === 2) this.mark(i + 1, flags);
    if (!this.ok) return;
    const line = (this.rows[this.row] ??= []);
    const prev = line[this.col];
    // The same glyph written over itself (a progress line redrawn) still shows.
    if (prev !== undefined && prev >= 0 && this.t.codePointAt(prev) === this.t.codePointAt(i)) this.mark(prev, SHOWN);
    line[this.col] = i;
    if (this.col < MAX_POS) this.col++;
  }

  control(c: number): void {
    if (c === 0x0d) this.col = 0;
    else if (c === 0x0a || c === 0x0b || c === 0x0c) this.down(1, true);
    else if (c === 0x08) this.col = Math.max(0, this.col - 1);
    else if (c === 0x09) this.col = Math.min(MAX_POS, (this.col + 8) & ~7);
  }

  private down(n: number, home: boolean): void {
    this.charge(Math.min(n, MAX_POS));
    this.row = Math.min(MAX_POS, this.row + n);
    if (home) this.col = 0;
  }

  /** ESC followed by one final character (RIS, DECSC/DECRC, IND, RI, NEL). */
  escape(final: string): void {
    if (final === "c") {
      this.rows = [];
      this.row = this.col = 0;
      this.sgr([0]);
    } else if (final === "7") this.saved = { row: this.row, col: this.col };
    else if (final === "8") ({ row: this.row, col: this.col } = this.saved);
    else if (final === "D") this.down(1, false);
    else if (final === "E") this.down(1, true);
    else if (final === "M") this.row = Math.max(0, this.row - 1);
  }

  csi(params: string, final: string): void {
    const privateMarker = /^[<=>?]/.test(params);
    const ps = params.replace(/^[<=>?]/, "").split(/[;:]/).map((p) => (p === "" ? -1 : Math.min(Number.parseInt(p, 10) || 0, MAX_POS)));
    const n = Math.max(1, ps[0] ?? -1);
    if (privateMarker) {
      if (params.startsWith("?") && final === "h" && /^(?:1049|1047|47)$/.test(params.slice(1))) this.alternate(true);
      else if (params.startsWith("?") && final === "l" && /^(?:1049|1047|47)$/.test(params.slice(1))) this.alternate(false);
      return;
    }
    if (final === "m") return this.sgr(ps);
    if (!this.ok) return;
    const line = (this.rows[this.row] ??= []);
    switch (final) {
      case "A":
        this.row = Math.max(0, this.row - n);
        break;
      case "B":
        this.down(n, false);
        break;
      case "C":
        this.charge(Math.min(n, MAX_POS));
        this.col = Math.min(MAX_POS, this.col + n);
        break;
      case "D":
        this.col = Math.max(0, this.col - n);
        break;
      case "E":
        this.down(n, true);
        break;
      case "F":
        this.row = Math.max(0, this.row - n);
        this.col = 0;
        break;
      case "G":
      case "`":
        this.col = Math.min(MAX_POS, n - 1);
        break;
      case "H":
      case "f":
        this.row = Math.min(MAX_POS, n - 1);
        this.col = Math.min(MAX_POS, Math.max(1, ps[1] ?? 1) - 1);
        break;
      case "d":
        this.row = Math.min(MAX_POS, n - 1);
        break;
      case "J": {
        const mode = Math.max(0, ps[0] ?? 0);
        if (mode === 0) {
          if (line.length > this.col) line.length = this.col;
          if (this.rows.length > this.row + 1) this.rows.length = this.row + 1;
        } else if (mode === 1) {
          this.charge(this.row + this.col);
          for (let r = 0; r < this.row; r++) this.rows[r] = undefined;
          line.fill(-1, 0, Math.min(line.length, this.col + 1));
        } else this.rows = [];
        break;
      }
      case "K": {
        const mode = Math.max(0, ps[0] ?? 0);
        if (mode === 0) {
          if (line.length > this.col) line.length = this.col;
        } else if (mode === 1) {
          this.charge(this.col);
          line.fill(-1, 0, Math.min(line.length, this.col + 1));
        } else this.rows[this.row] = [];
        break;
      }
      case "X":
        this.charge(Math.min(n, line.length));
        line.fill(-1, this.col, Math.min(line.length, this.col + n));
        break;
      case "P":
        this.charge(line.length);
        line.splice(this.col, n);
        break;
      case "@":
        this.charge(line.length + n);
        if (this.col < line.length) line.splice(this.col, 0, ...new Array<number>(Math.min(n, MAX_POS)).fill(-1));
        break;
      case "s":
        this.saved = { row: this.row, col: this.col };
        break;
      case "u":
        ({ row: this.row, col: this.col } = this.saved);
        break;
    }
  }

  private alternate(on: boolean): void {
    if (on && this.main === null) {
      this.main = this.rows;
      this.rows = [];
    } else if (!on && this.main !== null) {
      this.rows = this.main;
      this.main = null;
    }
  }

  private sgr(ps: number[]): void {
    for (let k = 0; k < ps.length; k++) {
      const p = ps[k] as number;
      if (p <= 0) {
        this.conceal = false;
        this.fg = this.bg = -1;
      } else if (p === 8) this.conceal = true;
      else if (p === 28) this.conceal = false;
      else if (p >= 30 && p <= 37) this.fg = p - 30;
      else if (p >= 90 && p <= 97) this.fg = p - 90 + 8;
      else if (p === 39) this.fg = -1;
      else if (p >= 40 && p <= 47) this.bg = p - 40;
      else if (p >= 100 && p <= 107) this.bg = p - 100 + 8;
      else if (p === 49) this.bg = -1;
      else if (p === 38 || p === 48) {
        let colour = -1;
        if (ps[k + 1] === 5) {
          colour = Math.max(0, ps[k + 2] ?? 0);
          k += 2;
        } else if (ps[k + 1] === 2) {
          colour = 0x1000000 + (Math.max(0, ps[k + 2] ?? 0) << 16) + (Math.max(0, ps[k + 3] ?? 0) << 8) + Math.max(0, ps[k + 4] ?? 0);
          k += 4;
        }
        if (p === 38) this.fg = colour;
        else this.bg = colour;
      }
    }
  }

  /** Marks what is on screen at the end. */
  finish(): void {
    if (!this.ok) return;
    for (const rows of [this.rows, this.main ?? []]) {
      for (const line of rows) {
        if (line === undefined) continue;
        for (let c = 0; c < line.length; c++) {
          const i = line[c];
          if (i !== undefined && i >= 0) {
            this.mark(i, SHOWN);
            if ((this.t.charCodeAt(i) & 0xfc00) === 0xd800) this.mark(i + 1, SHOWN);
          }
        }
      }
    }
  }
}

/** OSC numbers whose text is shown somewhere (window and icon titles) or is a link target: not reported. */
const SHOWN_OSC = /^(?:0|1|2|8)$/;

/**
 * Removes terminal escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-character escapes) and backspaces; a carriage
 * return that is not part of CRLF becomes a newline. Text a terminal would not show is reported: concealed by SGR 8 or
 * a foreground equal to the background (`ansi_concealed`), erased or overwritten by cursor movement, erase-in-line,
 * erase-in-display or the alternate screen (`ansi_erased`), and the payload of string sequences nobody sees. The
 * text itself stays in the view, as a model reads it.
 */
export function terminalStage(inp: Mapped, hidden: HiddenSpan[], plain: Plain): Mapped {
  const t = inp.text;
  if (!HAS_TERMINAL.test(t)) return inp;
  const b = new MappedBuilder(inp);
  const screen = new Screen(t, WORK_PER_CHAR * t.length + 4096);
  const payloads: { start: number; end: number }[] = [];
  let kept = 0;
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c === 0x1b || c === 0x9b || c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) {
      b.keep(kept, i);
      const seq = readSequence(t, i);
      if (seq.kind === "csi") screen.csi(seq.params, seq.final);
      else if (seq.kind === "esc") screen.escape(seq.final);
      if (seq.payloadEnd > seq.payloadStart) {
        b.put("\n", i, seq.payloadStart);
        b.keep(seq.payloadStart, seq.payloadEnd);
        if (seq.payloadEnd < seq.end) b.put("\n", seq.payloadEnd, seq.end);
        if (!seq.shown) payloads.push({ start: seq.payloadStart, end: seq.payloadEnd });
      } else b.drop(i, seq.end);
      i = kept = seq.end;
      continue;
    }
    if (c === 0x0d && t.charCodeAt(i + 1) !== 0x0a) {
      b.keep(kept, i);
      b.put("\n", i, i + 1);
      screen.control(c);
      i = kept = i + 1;
      continue;
    }
    if (c === 0x08) {
      b.keep(kept, i);
      b.drop(i, i + 1);
      screen.control(c);
      i = kept = i + 1;
      continue;
    }
    if (c < 0x20 || c === 0x7f) {
      screen.control(c);
      i++;
      continue;
    }
    const size = (c & 0xfc00) === 0xd800 && i + 1 < t.length ? 2 : 1;
    screen.print(i, size);
    i += size;
  }
  b.keep(kept, t.length);
  screen.finish();
  reportScreen(t, screen, inp, hidden, plain);
  for (const p of payloads) {
    const text = plain(t.slice(p.start, p.end)).trim();
    if (/[\p{L}\p{N}]/u.test(text)) hidden.push({ kind: "ansi_concealed", start: inp.startOf(p.start), end: inp.endOf(p.end), text });
  }
  return b.finish();
}

interface Sequence {
  kind: "csi" | "esc" | "string" | "none";
  end: number;
  params: string;
  final: string;
  /** A string sequence's text (OSC, DCS, SOS, PM, APC), or an empty range. */
  payloadStart: number;
  payloadEnd: number;
  /** Whether that text is shown (a window title) or a link target rather than hidden. */
  shown: boolean;
}

/**
 * Whether a kitty graphics command's control data and payload (what follows `_G`) carry an image: `key=value` pairs,
 * then base64 whose first bytes are binary (a PNG's header, raw pixels). Base64 of readable text is not an image.
 */
function kittyImage(body: string): boolean {
  const m = /^[a-zA-Z]=[\w-]{1,16}(?:,[a-zA-Z]=[\w-]{1,16}){0,24};([A-Za-z0-9+/]{8,96})/.exec(body);
  if (!m) return false;
  const bytes = Buffer.from((m[1] as string).slice(0, (m[1] as string).length & ~3), "base64");
  let binary = 0;
  for (const b of bytes) if (b < 0x09 || (b > 0x0d && b < 0x20) || b >= 0x7f) binary++;
  return binary * 8 >= bytes.length;
}

/** Reads the escape sequence at `i` (ESC or a C1 introducer); an unterminated string sequence runs to the end. */
function readSequence(t: string, i: number): Sequence {
  const c = t.charCodeAt(i);
  let intro: string;
  let j: number;
  if (c === 0x1b) {
    if (i + 1 >= t.length) return { kind: "none", end: i + 1, params: "", final: "", payloadStart: 0, payloadEnd: 0, shown: false };
    intro = t[i + 1] as string;
    j = i + 2;
  } else {
    intro = c === 0x9b ? "[" : c === 0x9d ? "]" : c === 0x90 ? "P" : c === 0x98 ? "X" : c === 0x9e ? "^" : "_";
    j = i + 1;
  }
  if (intro === "[") {
    let k = j;
    while (k < t.length && t.charCodeAt(k) >= 0x30 && t.charCodeAt(k) <= 0x3f) k++;
    const params = t.slice(j, k);
    while (k < t.length && t.charCodeAt(k) >= 0x20 && t.charCodeAt(k) <= 0x2f) k++;
    const f = t.charCodeAt(k);
    if (f >= 0x40 && f <= 0x7e) return { kind: "csi", end: k + 1, params, final: t[k] as string, payloadStart: 0, payloadEnd: 0, shown: false };
    return { kind: "none", end: k, params: "", final: "", payloadStart: 0, payloadEnd: 0, shown: false };
  }
  if (intro === "]" || intro === "P" || intro === "X" || intro === "^" || intro === "_") {
    // The text runs to ST (ESC \ or U+009C), or BEL for OSC; what a terminal would swallow if it never ends.
    let k = j;
    let end = t.length;
    let payloadEnd = t.length;
    for (; k < t.length; k++) {
      const d = t.charCodeAt(k);
      if (d === 0x9c || (d === 0x07 && intro === "]")) {
        payloadEnd = k;
        end = k + 1;
        break;
      }
      if (d === 0x1b && t.charCodeAt(k + 1) === 0x5c) {
        payloadEnd = k;
        end = k + 2;
        break;
      }
    }
    let payloadStart = j;
    let shown = false;
    if (intro === "]") {
      const semi = /^(\d{1,4});/.exec(t.slice(j, Math.min(payloadEnd, j + 6)));
      if (semi) {
        payloadStart = j + semi[0].length;
        shown = SHOWN_OSC.test(semi[1] as string);
      }
    }
    // A kitty graphics command (`ESC _G <keys>;<base64> ESC \\`) is how that terminal shows an image: its payload is
    // pixels or a PNG, not hidden text, when what it decodes to is binary.
    if (intro === "_" && t.charCodeAt(j) === 0x47 && kittyImage(t.slice(j + 1, Math.min(payloadEnd, j + 1 + 4096)))) shown = true;
    return { kind: "string", end, params: "", final: "", payloadStart, payloadEnd: Math.max(payloadStart, payloadEnd), shown };
  }
  // ESC, intermediates, one final character.
  let k = j - 1;
  while (k < t.length && t.charCodeAt(k) >= 0x20 && t.charCodeAt(k) <= 0x2f) k++;
  const f = t.charCodeAt(k);
  if (f >= 0x30 && f <= 0x7e) return { kind: k === j - 1 ? "esc" : "none", end: k + 1, params: "", final: t[k] as string, payloadStart: 0, payloadEnd: 0, shown: false };
  return { kind: "none", end: Math.max(j - 1, k), params: "", final: "", payloadStart: 0, payloadEnd: 0, shown: false };
}

/** Reports runs of printed characters the screen does not show (concealed, or erased when the model held). */
function reportScreen(t: string, screen: Screen, inp: Mapped, hidden: HiddenSpan[], plain: Plain): void {
  const st = screen.state;
  let start = -1;
  let end = -1;
  let concealed = false;
  let text = "";
  const close = () => {
    const words = plain(text).trim();
    if (start >= 0 && /[\p{L}\p{N}]/u.test(words)) hidden.push({ kind: concealed ? "ansi_concealed" : "ansi_erased", start: inp.startOf(start), end: inp.endOf(end), text: words });
    start = -1;
    text = "";
    concealed = false;
  };
  for (let i = 0; i < t.length; i++) {
    const s = st[i] as number;
    if (!(s & PRINTED)) {
      // A line break ends a span: hidden text on two lines is two findings.
      if (start >= 0 && t.charCodeAt(i) === 0x0a) close();
      continue;
    }
    const ch = t[i] as string;
    const blank = ch === " " || ch === "\t";
    const isHidden = (s & CONCEALED) !== 0 || (screen.ok && (s & SHOWN) === 0);
    if (isHidden && !blank) {
      if (start < 0) start = i;
      end = i + 1;
      concealed ||= (s & CONCEALED) !== 0;
      text += ch;
    } else if (blank) {
      if (start >= 0) text += ch;
    } else if (start >= 0) close();
  }
  if (start >= 0) close();
}

// ---------------------------------------------------------------------------------------------------------------
// HTML

/** An entity declaration's literal value (bounded: one name, one quoted literal). */
const ENTITY_LITERAL = /ENTITY\s{1,8}(?:%\s{1,8})?[\w.:-]{1,80}\s{1,8}(?:"([^"]{8,4000})"|'([^']{8,4000})')/;

/** A tag, an end tag or a comment opening at a `<`. */
export const TAG = /<(?:[A-Za-z][A-Za-z0-9-]{0,31}[\s/>]|\/[A-Za-z][A-Za-z0-9-]{0,31}\s*>|!--)/;
/** A numeric character reference. */
export const REFERENCE = /&#[xX]?[0-9A-Fa-f]{1,7};/;
/** Something that reads as markup: a tag, an end tag, a comment, or a numeric character reference. */
export const LOOKS_LIKE_HTML = new RegExp(`${TAG.source}|${REFERENCE.source}`);

/**
 * The elements of HTML (and the SVG and MathML roots). A tag of any other name (`<IMPORTANT>`, `<instructions>`) is not
 * markup a browser hides but text a model reads, and often the signal itself: it stays in the view as written.
 */
const HTML_ELEMENTS = new Set(
  (
    "a abbr acronym address applet area article aside audio b base basefont bdi bdo big blockquote body br button canvas caption center " +
    "cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form " +
    "frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins kbd keygen label legend li link listing main " +
    "map mark marquee math menu meta meter nav nobr noembed noframes noscript object ol optgroup option output p param picture plaintext " +
    "pre progress q rp rt ruby s samp script search section select slot small source spacer span strike strong style sub summary sup svg " +
    "table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr xmp"
  ).split(" "),
);

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param", "keygen"]);
const BLOCK = new Set([
  "address", "article", "aside", "blockquote", "body", "br", "center", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption",
  "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "li", "main", "nav", "ol", "option", "p",
  "pre", "section", "summary", "table", "tbody", "td", "template", "tfoot", "th", "thead", "title", "tr", "ul",
]);
/** An opening tag that closes the open element of these names when it is the innermost (HTML's implied end tags, simplified). */
const IMPLIES_CLOSE: Record<string, readonly string[]> = {
  p: ["p"], li: ["li"], dt: ["dt", "dd"], dd: ["dt", "dd"], tr: ["tr", "td", "th"], td: ["td", "th"], th: ["td", "th"], option: ["option"],
};
/** How far down the open elements an end tag looks for its element. */
const CLOSE_REACH = 32;
const MAX_ATTRIBUTE = 4096;
/** Attributes that carry text for assistive technology or tooltips, not shown on the page. */
const TEXT_ATTRIBUTES = new Set(["aria-label", "aria-description", "title", "alt", "placeholder", "content", "summary", "label"]);
/** At least four words in a row (bounded). */
const SENTENCE = /\p{L}{2,40}[ ,:]{1,3}\p{L}{1,40}[ ,:]{1,3}\p{L}{1,40}[ ,:]{1,3}\p{L}{1,40}/u;

const NAMED_COLOURS: Record<string, string> = { white: "#ffffff", black: "#000000", red: "#ff0000", transparent: "transparent" };

function colour(v: string | undefined): string | null {
  if (!v) return null;
  const c = v.replace(/!important$/, "");
  if (NAMED_COLOURS[c]) return NAMED_COLOURS[c] as string;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(c);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(c)) return c;
  const rgb = /^rgba?\((\d{1,3}),(\d{1,3}),(\d{1,3})(?:,[\d.]+)?\)$/.exec(c);
  if (rgb) return "#" + [rgb[1], rgb[2], rgb[3]].map((x) => Math.min(255, Number(x)).toString(16).padStart(2, "0")).join("");
  return c;
}

/** Whether an inline style hides its element's text from a reader. */
export function styleHides(style: string): boolean {
  const s = style.toLowerCase().replace(/\s+/g, "");
  const decl = new Map<string, string>();
  for (const d of s.split(";")) {
    const colon = d.indexOf(":");
    if (colon > 0) decl.set(d.slice(0, colon), d.slice(colon + 1).replace(/!important$/, ""));
  }
  const v = (k: string) => decl.get(k);
  if (v("display") === "none" || /^(?:hidden|collapse)$/.test(v("visibility") ?? "")) return true;
  if (/^(?:0(?:\.0*)?[a-z%]*|0?\.\d+(?:px|pt)|1px)$/.test(v("font-size") ?? "x")) return true;
  if (/^(?:0|0?\.0\d*|0%)$/.test(v("opacity") ?? "x")) return true;
  if (/^0(?:px)?$/.test(v("max-height") ?? v("height") ?? "x") && v("overflow") === "hidden") return true;
  if (/^scale\(0(?:,0)?\)$/.test(v("transform") ?? "")) return true;
  for (const k of ["left", "top", "text-indent", "margin-left"]) if (/^-\d{4,}(?:px|em|rem)?$/.test(v(k) ?? "")) return true;
  const fg = colour(v("color"));
  const bg = colour(v("background-color") ?? v("background")?.split(/\s/)[0]);
  return fg !== null && fg === bg;
}

interface Open {
  name: string;
}

/** Reads HTML with htmlparser2's tokenizer and writes the view; see `htmlStage`. */
class HtmlReader implements TokenizerCallbacks {
  private pos = 0;
  private broke = true;
  private readonly stack: Open[] = [];
  /** The outermost hidden element: its index in `stack`, where it starts, and its text so far. */
  private hiddenAt = -1;
  private hiddenStart = 0;
  private hiddenText: string[] = [];
  private tag = "";
  private tagStart = 0;
  private attrs = new Map<string, string>();
  private attr = "";
  private value = "";
  private nameEnd = 0;

  constructor(
    private readonly t: string,
    private readonly b: MappedBuilder,
    private readonly inp: Mapped,
    private readonly hidden: HiddenSpan[],
    private readonly plain: Plain,
  ) {}

  /** Consumes `[pos, end)` as markup: a newline in the view when it breaks a block, else nothing. */
  private markup(end: number, block: boolean): void {
    if (end <= this.pos) return;
    if (block && !this.broke) {
      this.b.put("\n", this.pos, end);
      this.broke = true;
    } else this.b.drop(this.pos, end);
    this.pos = end;
  }

  private text(start: number, end: number): void {
    this.markup(start, false);
    if (end <= start) return;
    this.b.keep(start, end);
    if (this.hiddenAt >= 0) this.hiddenText.push(this.t.slice(start, end));
    this.broke = false;
    this.pos = end;
  }

  ontext(start: number, end: number): void {
    this.text(start, end);
  }

  ontextentity(cp: number, end: number): void {
    const ch = String.fromCodePoint(cp);
    if (end > this.pos) this.b.put(ch, this.pos, end);
    if (this.hiddenAt >= 0) this.hiddenText.push(ch);
    this.broke = false;
    this.pos = end;
  }

  oncdata(start: number, end: number, offset: number): void {
    this.markup(start, false);
    this.text(start, end - offset);
  }

  oncomment(start: number, end: number, offset: number): void {
    const open = this.t.lastIndexOf("<", start);
    const tokenStart = open >= this.pos ? open : this.pos;
    const tokenEnd = this.t.charCodeAt(end) === 0x3e ? end + 1 : end;
    this.markup(start, true);
    const contentEnd = Math.max(start, end - offset);
    this.text(start, contentEnd);
    this.markup(tokenEnd, true);
    const content = this.plain(this.t.slice(start, contentEnd)).trim();
    if (content) this.hidden.push({ kind: "html_comment", start: this.inp.startOf(tokenStart), end: this.inp.endOf(tokenEnd), text: content });
  }

  ondeclaration(start: number, end: number): void {
    this.markup(Math.min(this.t.length, end + 1), true);
    // (Fifteenth round) An XML internal subset's entity declaration (`<!DOCTYPE r [ <!ENTITY note "…"> ]>`): its
    // literal is text no rendered document shows unless the entity is used — reported as hidden, like a comment.
    const entity = ENTITY_LITERAL.exec(this.t.slice(start, Math.min(end, start + 8192)));
    if (entity) {
      const content = this.plain(entity[1] ?? entity[2] ?? "").trim();
      if (content) this.hidden.push({ kind: "html_hidden", start: this.inp.startOf(Math.max(0, start - 2)), end: this.inp.endOf(Math.min(this.t.length, end + 1)), text: content });
    }
  }

  onprocessinginstruction(_start: number, end: number): void {
    this.markup(Math.min(this.t.length, end + 2), true);
  }

  onopentagname(start: number, end: number): void {
    this.tag = this.t.slice(start, end).toLowerCase();
    this.tagStart = start - 1;
    this.attrs = new Map();
  }

  onattribname(start: number, end: number): void {
    this.attr = this.t.slice(start, end).toLowerCase();
    this.value = "";
    this.nameEnd = end;
  }

  onattribdata(start: number, end: number): void {
    if (this.value.length < MAX_ATTRIBUTE) this.value += this.t.slice(start, Math.min(end, start + MAX_ATTRIBUTE));
  }

  onattribentity(cp: number): void {
    if (this.value.length < MAX_ATTRIBUTE) this.value += String.fromCodePoint(cp);
  }

  onattribend(_quote: unknown, end: number): void {
    if (this.attr === "style" || this.attr === "hidden") this.attrs.set(this.attr, this.value);
    // Text in an attribute nobody sees on the page (a label, a title, a data- value): judged like hidden text, when it
    // reads as a sentence (at least four words). The view keeps nothing of it, as before.
    else if ((TEXT_ATTRIBUTES.has(this.attr) || this.attr.startsWith("data-")) && SENTENCE.test(this.value)) {
      const text = this.plain(this.value).replace(/\s+/g, " ").trim();
      if (text) this.hidden.push({ kind: "html_attribute", start: this.inp.startOf(this.nameEnd), end: this.inp.endOf(Math.min(this.t.length, end + 1)), text });
    }
  }

  onopentagend(end: number): void {
    this.open(end + 1);
  }

  onselfclosingtag(end: number): void {
    this.open(end + 1);
  }

  private open(tagEnd: number): void {
    const name = this.tag;
    if (!HTML_ELEMENTS.has(name)) {
      this.text(this.tagStart, tagEnd);
      return;
    }
    const top = this.stack[this.stack.length - 1];
    if (top && IMPLIES_CLOSE[name]?.includes(top.name)) this.pop(this.stack.length - 1, this.tagStart);
    this.markup(this.tagStart, false);
    if (name === "q") this.quote("\u201c", tagEnd);
    else this.markup(tagEnd, BLOCK.has(name));
    if (VOID.has(name)) return;
    const style = this.attrs.get("style");
    const hides = this.attrs.has("hidden") || name === "template" || (style !== undefined && styleHides(style));
    this.stack.push({ name });
    if (hides && this.hiddenAt < 0) {
      this.hiddenAt = this.stack.length - 1;
      this.hiddenStart = this.tagStart;
      this.hiddenText = [];
    }
  }

  onclosetag(start: number, end: number): void {
    const name = this.t.slice(start, end).toLowerCase();
    const gt = this.t.indexOf(">", end);
    const tagEnd = gt < 0 ? this.t.length : gt + 1;
    if (!HTML_ELEMENTS.has(name)) {
      this.text(start - 2, tagEnd);
      return;
    }
    this.markup(start - 2, false);
    for (let k = this.stack.length - 1; k >= 0 && k >= this.stack.length - CLOSE_REACH; k--) {
      if ((this.stack[k] as Open).name === name) {
        this.pop(k, tagEnd);
        break;
      }
    }
    if (name === "q") this.quote("\u201d", tagEnd);
    else this.markup(tagEnd, BLOCK.has(name));
  }

  /**
   * (Eighteenth round) A `<q>` element is shown with quotation marks (HTML's default rendering): the view puts the
   * mark where its tag stands, so the detectors read a quotation as the reader sees it.
   */
  private quote(mark: string, end: number): void {
    if (end <= this.pos) return;
    this.b.put(mark, this.pos, end);
    if (this.hiddenAt >= 0) this.hiddenText.push(mark);
    this.broke = false;
    this.pos = end;
  }

  /** Closes the open elements from `k` up; a hidden element closed here is reported, up to `end`. */
  private pop(k: number, end: number): void {
    if (this.hiddenAt >= k) this.reportHidden(end);
    this.stack.length = k;
  }

  private reportHidden(end: number): void {
    const text = this.plain(this.hiddenText.join("")).replace(/\s+/g, " ").trim();
    if (text) this.hidden.push({ kind: "html_hidden", start: this.inp.startOf(this.hiddenStart), end: this.inp.endOf(end), text });
    this.hiddenAt = -1;
    this.hiddenText = [];
  }

  onend(): void {
    // What the tokenizer left (an unfinished tag at the end) stays as text: a model reads it.
    if (this.pos < this.t.length) this.text(this.pos, this.t.length);
    if (this.hiddenAt >= 0) this.reportHidden(this.t.length);
  }
}

/**
 * HTML, when the string looks like it: tags are dropped (a block element's become a line break), character
 * references decoded, comment text kept between line breaks, and everything else a model reads stays. Elements hidden
 * by the `hidden` attribute, `<template>`, or an inline style (display:none, visibility:hidden, font-size 0 or 1px,
 * opacity 0, zero height with overflow hidden, far off-screen, scale(0), text the colour of its background) are
 * reported as `html_hidden` with their text; comments as `html_comment`. Parsed with htmlparser2's tokenizer (linear);
 * the open elements are kept here (an end tag looks at most `CLOSE_REACH` deep for its element), so deep nesting stays
 * linear too — htmlparser2's own Parser shifts its element stack at the front and takes quadratic time on it.
 */
export function htmlStage(inp: Mapped, hidden: HiddenSpan[], plain: Plain): Mapped {
  const t = inp.text;
  if (!LOOKS_LIKE_HTML.test(t)) return inp;
  const b = new MappedBuilder(inp);
  const reader = new HtmlReader(t, b, inp, hidden, plain);
  const tokenizer = new Tokenizer({ decodeEntities: true }, reader);
  tokenizer.write(t);
  tokenizer.end();
  return b.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown

/**
 * A Markdown comment: a link reference definition to `#` or `<>` (never rendered) with its text as the title —
 * `[//]: # (text)`, `[comment]: <> "text"`. Line-anchored, every quantifier bounded by the line.
 */
const MARKDOWN_COMMENT = /^[ \t]{0,3}\[[^\]\n]{0,100}\]:[ \t]*(?:#|<>)[ \t]*(?:\(([^\n]*)\)|"([^\n]*)"|'([^\n]*)')[ \t]*$/gm;

/** Reports Markdown comments (the text is unchanged: it is already what a model reads). */
export function markdownComments(inp: Mapped, hidden: HiddenSpan[], plain: Plain): void {
  const t = inp.text;
  if (!t.includes("]:")) return;
  MARKDOWN_COMMENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = MARKDOWN_COMMENT.exec(t)) !== null) {
    const text = plain(m[1] ?? m[2] ?? m[3] ?? "").trim();
    if (text) hidden.push({ kind: "markdown_comment", start: inp.startOf(m.index), end: inp.endOf(m.index + m[0].length), text });
  }
}
