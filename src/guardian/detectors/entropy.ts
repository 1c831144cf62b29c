/** Counts of ASCII characters, and the order they first appeared in: scratch for `entropy` (cleared after each call). */
const counts = new Int32Array(128);
const order = new Uint8Array(128);

/**
 * Shannon entropy in bits per character. ASCII text is counted in a table (no allocation: values of a megabyte of
 * assignments are judged one after the other); other text by code point in a map. Both sum the characters in the order
 * they first appear, so the result is the same to the last bit either way.
 */
export function entropy(s: string): number {
  const n = s.length;
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) {
      for (let k = 0; k < distinct; k++) counts[order[k] as number] = 0;
      return entropyByCodePoint(s);
    }
    const seen = counts[c] as number;
    counts[c] = seen + 1;
    if (seen === 0) order[distinct++] = c;
  }
  let h = 0;
  for (let k = 0; k < distinct; k++) {
    const c = order[k] as number;
    const p = (counts[c] as number) / n;
    counts[c] = 0;
    h -= p * Math.log2(p);
  }
  return h;
}

function entropyByCodePoint(s: string): number {
  const seen = new Map<string, number>();
  for (const c of s) seen.set(c, (seen.get(c) ?? 0) + 1);
  let h = 0;
  for (const x of seen.values()) {
    const p = x / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
