import { Mapped } from "./mapped.js";
import { encodedRuns, hasEncodedRun, MAX_DECODED } from "./normalize-decode.js";
import { htmlStage, markdownComments, REFERENCE, TAG, terminalStage } from "./normalize-markup.js";
import { invisibleStage, nfkcStage, skeletonStage } from "./normalize-unicode.js";
import { findAll, type Detection, type JsonPath, type StringSite } from "./scan.js";

/**
 * One normalisation pass before the detectors (issue 24): what attackers hide text in — compatibility forms,
 * look-alike letters, invisible characters, terminal escapes, hidden HTML and comments, encoded layers — is undone
 * once per string, bounded, and every span a detector finds in the normalised text maps back to the original, so a
 * redaction cuts exactly what was found. docs/detection.md ("What the detectors see through") says what each stage
 * does and where it stops.
 *
 * The stages, in order: terminal escapes, HTML (when the string looks like it), Markdown comments, invisible
 * characters, NFKC, the confusable skeleton; then encoded runs of the result are decoded and normalised again, to
 * `MAX_DEPTH`. Plain ASCII without anything a stage would act on takes a fast path and is its own view.
 */

/** Something hidden that the pass found, by its span in the original string. */
export interface HiddenSpan {
  kind:
    | "tag_text"
    | "variation_text"
    | "zero_width"
    | "bidi"
    | "ansi_concealed"
    | "ansi_erased"
    | "html_hidden"
    | "html_comment"
    | "html_attribute"
    | "markdown_comment";
  start: number;
  end: number;
  /** The hidden text itself, as a reader of the raw string would not see it (normalised). */
  text: string;
}

/** An encoded run inside the string (base64, hex, percent-encoding), decoded and itself normalised. */
export interface DecodedLayer {
  encoding: "base64" | "hex" | "percent";
  /** The encoded run's span in the original string: a finding in `view` maps to all of it. */
  start: number;
  end: number;
  view: NormalText;
}

/** A string as the detectors read it. */
export interface NormalText {
  /** The normalised text detectors match against. */
  readonly text: string;
  /** True when `text` is the original string unchanged (and nothing was hidden or decoded): detectors may skip mapping. */
  readonly identity: boolean;
  /** The span of the original string that `text.slice(start, end)` came from. */
  original(start: number, end: number): { start: number; end: number };
  readonly hidden: readonly HiddenSpan[];
  readonly decoded: readonly DecodedLayer[];
}

/** Encoded layers are decoded and normalised again down to this depth (a layer inside a layer, no deeper). */
export const MAX_DEPTH = 2;

const NONE: readonly never[] = Object.freeze([]);
const same = (start: number, end: number) => ({ start, end });

function identity(value: string): NormalText {
  return { text: value, identity: true, original: same, hidden: NONE, decoded: NONE };
}

/** A carriage return that is not part of CRLF (a terminal overwrite). */
const BARE_CR = /\r(?!\n)/;
/** Percent escapes. */
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
/** A Markdown link reference definition to `#` or `<>`: a comment. */
const MARKDOWN_COMMENT_HINT = /\]:[ \t]*(?:#|<>)/;

/**
 * Whether no stage would act on `value`: ASCII without ESC or backspace (a carriage return only before a newline),
 * nothing that looks like a tag, a comment, a character reference or a Markdown comment, no percent escape, and no
 * run of 16 base64 characters with a capital in it (or of 16 hex digits). Only fast primitives: the UTF-8 length
 * (SIMD in Node) says whether anything is outside ASCII, memchr-speed searches find the special characters, and one
 * skipping pass looks for runs. Other C0 controls alone do not leave the fast path (they hide nothing a reader would
 * not see as an escape); the invisible-character stage removes them when the string is normalised for another reason.
 */
export function plain(value: string): boolean {
  // A short string: one native scan for everything but the runs; most strings have none of it.
  if (value.length < SHORT && !TRIGGER.test(value)) return !hasEncodedRun(value);
  if (Buffer.byteLength(value, "utf8") !== value.length) return false;
  if (value.includes("\x1b") || value.includes("\b")) return false;
  if (value.includes("\r") && BARE_CR.test(value)) return false;
  if (value.includes("<") && TAG.test(value)) return false;
  if (value.includes("&#") && REFERENCE.test(value)) return false;
  if (value.includes("%") && PERCENT_ESCAPE.test(value)) return false;
  if (value.includes("]:") && MARKDOWN_COMMENT_HINT.test(value)) return false;
  return !hasEncodedRun(value);
}

/** Below this length one regex call costs less than the UTF-8 length and a search per special character. */
const SHORT = 128;
/** Anything the checks above look at: outside ASCII, ESC, backspace, CR, `<`, `%`, `&`, `]` (one character class: the fastest scan). */
const TRIGGER = /[^\t\n\x20-\x24\x27-\x3b\x3d-\x5c\x5e-\x7e]/;

/** The Unicode stages alone (invisible characters, NFKC, skeleton): what the text of a hidden span is given as. */
export function unicodeText(s: string): string {
  return unicodeStages(invisibleStage(Mapped.identity(s), [], (x) => x)).text;
}

/**
 * NFKC, then the skeleton; NFKC again where the skeleton changed a letter, since a Latin letter put in for a
 * look-alike can compose with a combining mark after it ("Ο̈" → "O" + U+0308 → "Ö"), which keeps the pass idempotent.
 */
function unicodeStages(m: Mapped): Mapped {
  const n = nfkcStage(m);
  const k = skeletonStage(n);
  return k === n ? k : nfkcStage(k);
}

/** Normalises one string (bounded in time and memory whatever its content). */
export function normalize(value: string): NormalText {
  return normalizeAt(value, 0, { left: MAX_DECODED });
}

function normalizeAt(value: string, depth: number, budget: { left: number }): NormalText {
  if (plain(value)) return identity(value);
  const hidden: HiddenSpan[] = [];
  let m = Mapped.identity(value);
  m = terminalStage(m, hidden, unicodeText);
  m = htmlStage(m, hidden, unicodeText);
  markdownComments(m, hidden, unicodeText);
  m = unicodeStages(invisibleStage(m, hidden, unicodeText));
  const decoded: DecodedLayer[] = [];
  if (depth < MAX_DEPTH) {
    for (const run of encodedRuns(m.text, budget)) {
      const span = m.original(run.start, run.end);
      decoded.push({ encoding: run.encoding, start: span.start, end: span.end, view: normalizeAt(run.text, depth + 1, budget) });
    }
  }
  if (m.isIdentity && hidden.length === 0 && decoded.length === 0) return identity(value);
  hidden.sort((a, b) => a.start - b.start || b.end - a.end);
  const view = m;
  return { text: view.text, identity: false, original: (start, end) => view.original(start, end), hidden, decoded };
}

// ---------------------------------------------------------------------------------------------------------------
// For the detectors

/** What the helpers need of a message scan (`MessageScan` in index.ts): each string's view, made once. */
export interface NormalSource {
  normal(site: StringSite): NormalText;
  /** Whether every string of the message is its own view (nothing to see through): the helpers then do nothing. */
  allPlain?(): boolean;
}

/**
 * Which views of a string a detector reads beyond the string itself: `all` — its normalised text and every decoded
 * layer (for what a model reads: instructions, secrets, URLs); `decoded` — the decoded layers alone (for what a shell
 * or a file system acts on, which never folds look-alikes or skips invisible characters, but may be handed an
 * encoded command or a percent-encoded `file:` URI).
 */
export type Views = "all" | "decoded";

/** A string the detectors read in place of a site, and how its spans map back to the site's own string. */
interface View<S extends StringSite> {
  site: S;
  text: string;
  /** The span of the site's string a span of `text` came from. */
  back(start: number, end: number): { start: number; end: number };
}

/** The views of a site beyond its own string: its normalised text (when it differs and `which` is `all`) and every decoded layer's. */
function viewsOf<S extends StringSite>(site: S, normal: NormalText, which: Views, out: View<S>[]): void {
  if (normal.identity) return;
  if (which === "all" && normal.text !== site.value) out.push({ site, text: normal.text, back: (s, e) => normal.original(s, e) });
  const layers = (n: NormalText, outer: { start: number; end: number } | null) => {
    for (const layer of n.decoded) {
      // A finding in a decoded layer maps to the whole encoded run in the site's string (the outermost one).
      const run = outer ?? { start: layer.start, end: layer.end };
      out.push({ site, text: layer.view.text, back: () => run });
      layers(layer.view, run);
    }
  };
  layers(normal, null);
}

/** Whether any of the sites has a view of the kind `which` beyond its own string (cheap once the sites are normalised). */
export function hasViews(scan: NormalSource, sites: readonly StringSite[], which: Views = "all"): boolean {
  if (scan.allPlain?.() === true) return false;
  for (const site of sites) {
    const n = scan.normal(site);
    if (!n.identity && (n.decoded.length > 0 || (which === "all" && n.text !== site.value))) return true;
  }
  return false;
}

/**
 * Runs a detector over the sites as they are and over what normalisation makes of them (each site's normalised text
 * and decoded layers, or the decoded layers alone: `which`), with every finding mapped back into the site's own
 * string. A finding the plain run already made is not repeated. The detector sees sites like its own (a view keeps
 * its site's role and tool), so it needs no change to see through hiding.
 */
export function findAllNormalised<S extends StringSite>(scan: NormalSource, sites: readonly S[], detect: (sites: S[]) => Detection[], which?: Views): Detection[];
/** The same for one regex (global), each match a finding of `type`. */
export function findAllNormalised(scan: NormalSource, sites: readonly StringSite[], re: RegExp, type: string): Detection[];
export function findAllNormalised<S extends StringSite>(scan: NormalSource, sites: readonly S[], detect: ((sites: S[]) => Detection[]) | RegExp, option?: string): Detection[] {
  if (typeof detect === "function") return findInViews(scan, sites, detect, (option as Views | undefined) ?? "all", detect(sites as S[]));
  const run = (s: S[]) => findAll(s, detect, option ?? "match");
  return findInViews(scan, sites, run, "all", run(sites as S[]));
}

/**
 * The findings of `detect` over the views of the sites (`which`), mapped back and added to `found` (the plain run's,
 * which are not repeated). For a detector whose plain run the caller makes itself (with a prefilter of its own).
 */
export function findInViews<S extends StringSite>(scan: NormalSource, sites: readonly S[], detect: (sites: S[]) => Detection[], which: Views, found: Detection[]): Detection[] {
  if (scan.allPlain?.() === true) return found;
  let views: View<S>[] | null = null;
  for (const site of sites) {
    const n = scan.normal(site);
    if (!n.identity) viewsOf(site, n, which, (views ??= []));
  }
  if (views === null || views.length === 0) return found;
  const seen = new Set(found.map(key));
  // Each view is a site of its own (a path array of its own, so a finding names the view it came from).
  const byPath = new Map<JsonPath, View<S>>();
  const viewSites = views.map((v): S => {
    const path = [...v.site.path];
    byPath.set(path, v);
    return { ...v.site, path, value: v.text, normal: undefined };
  });
  const out = found.slice();
  for (const d of detect(viewSites)) {
    const v = byPath.get(d.path);
    if (!v) continue;
    const span = d.whole ? { start: 0, end: v.site.value.length } : v.back(d.start, d.end);
    const mapped: Detection = { ...d, path: v.site.path, start: span.start, end: span.end };
    const k = key(mapped);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(mapped);
  }
  return out;
}

const key = (d: Detection) => `${d.type}\u0000${d.start}\u0000${d.end}\u0000${JSON.stringify(d.path)}`;


/** A hidden span of a site, in the site's own string (a span found in a decoded layer is the whole encoded run). */
export interface SiteHiddenSpan extends HiddenSpan {
  site: StringSite;
  /** Set when the span was found inside a decoded layer: its encoding. */
  decoded?: DecodedLayer["encoding"];
}

/** Every hidden span of the sites, in order per site: for detectors that judge what was hidden. */
export function hiddenSpans(scan: NormalSource, sites: readonly StringSite[]): SiteHiddenSpan[] {
  const out: SiteHiddenSpan[] = [];
  if (scan.allPlain?.() === true) return out;
  for (const site of sites) {
    const n = scan.normal(site);
    if (n.identity) continue;
    for (const h of n.hidden) out.push({ ...h, site });
    const layers = (l: NormalText, outer: DecodedLayer | null) => {
      for (const layer of l.decoded) {
        const run = outer ?? layer;
        for (const h of layer.view.hidden) out.push({ ...h, start: run.start, end: run.end, site, decoded: run.encoding });
        layers(layer.view, run);
      }
    };
    layers(n, null);
  }
  return out;
}

/**
 * Kinds of hiding that only serve to hide: text in them that reads as words is a finding of its own. Hidden HTML is
 * not one of them: pages hide menus, dialogs and templates all the time, so its text is judged by what it says (it is
 * in the view the injection detector reads), not for being hidden.
 */
const CONCEALING: ReadonlySet<HiddenSpan["kind"]> = new Set(["tag_text", "variation_text", "ansi_concealed"]);
/** Words: two runs of two or more letters. */
const WORDS = /\p{L}{2,}[^\p{L}]+\p{L}{2,}/u;

/**
 * `prompt_injection.hidden_text`: text a reader cannot see but a model reads — tag characters or variation
 * selectors that spell words, text concealed by terminal colours, SGR 8 or a string sequence nobody sees — when it
 * holds at least two words. The span is the hidden run in the original, so a redaction cuts just it. Hidden HTML
 * elements, comments, erased terminal lines, zero-width and bidi characters are common in ordinary text and are not
 * findings by themselves (`hiddenSpans` has them for detectors that judge the text).
 */
export function detectHiddenText(scan: NormalSource, sites: readonly StringSite[], type = "prompt_injection.hidden_text"): Detection[] {
  const out: Detection[] = [];
  for (const h of hiddenSpans(scan, sites)) {
    if (!CONCEALING.has(h.kind) || !WORDS.test(h.text)) continue;
    out.push({ type, path: h.site.path, start: h.start, end: h.end, detail: `text hidden as ${h.kind}${h.decoded ? ` in ${h.decoded}` : ""}` });
  }
  return out;
}
