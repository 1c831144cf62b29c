/**
 * One normalisation pass before the detectors (issue 24): what attackers hide text in — compatibility forms,
 * look-alike letters, invisible characters, terminal escapes, hidden HTML and comments, encoded layers — is undone
 * once per string, bounded, and every span a detector finds in the normalised text maps back to the original, so a
 * redaction cuts exactly what was found.
 *
 * THIS IS THE AGREED INTERFACE; the implementation below is the identity and is being replaced.
 */

/** Something hidden that the pass found, by its span in the original string. */
export interface HiddenSpan {
  kind: "tag_text" | "zero_width" | "bidi" | "ansi_concealed" | "html_hidden" | "html_comment" | "markdown_comment";
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

/** Normalises one string (bounded in time and memory whatever its content). */
export function normalize(value: string): NormalText {
  return { text: value, identity: true, original: (start, end) => ({ start, end }), hidden: [], decoded: [] };
}
