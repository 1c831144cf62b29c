/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, JSON.stringify's escaping for strings
 * and numbers (the RFC 8785 scheme for the values guardwire sees). Used for message digests and the log's hash chain,
 * so the same value always hashes the same whatever order its keys arrived in.
 * Values reaching here are depth-capped by the parser, so recursion is bounded.
 */
export function canonicalize(value: unknown): string {
  switch (typeof value) {
    case "string":
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : '"' + value + '"';
    case "number":
      // Number's own toString is JSON's for finite numbers.
      return Number.isFinite(value) ? "" + value : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      break;
    default:
      return "null";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += canonicalize(value[i]);
    }
    return out + "]";
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  sortKeys(keys);
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = obj[k];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    if (!first) out += ",";
    first = false;
    out += quoteKey(k) + ":" + canonicalize(v);
  }
  return out + "}";
}

/** A string JSON.stringify would escape: quotes, backslashes, control characters, lone surrogates (checked there). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Keys in UTF-16 code-unit order, as `Array.prototype.sort` puts strings: the few keys of a JSON-RPC object by
 * insertion (no sort call, nothing moved when already in order), many (a wire-sized object) by the built-in sort.
 */
function sortKeys(keys: string[]): void {
  const n = keys.length;
  if (n > 16) {
    for (let i = 1; i < n; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return void keys.sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
}

/** Keys repeat across messages (jsonrpc, id, method, params…): quote each once. Bounded, since keys come from the wire. */
const quoted = new Map<string, string>();
function quoteKey(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quoted.size < 4096 && k.length <= 64) quoted.set(k, q);
  }
  return q;
}

/** Where a slice of at most `size` characters from `at` ends, never between the two halves of a surrogate pair. */
export function sliceEnd(s: string, at: number, size: number): number {
  const end = Math.min(at + size, s.length);
  const last = s.charCodeAt(end - 1);
  return end < s.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** Strings longer than this are written in slices, so a large message is never copied whole to be hashed. */
const SLICE = 1 << 18;

/**
 * The same canonical JSON as `canonicalize`, handed out in pieces (`write`), for digests of large messages: a 10 MB
 * tool result is hashed without building its 10 MB canonical text. Slices never split a surrogate pair, so each
 * slice escapes exactly as it would inside the whole string.
 */
export function writeCanonical(value: unknown, write: (piece: string) => void): void {
  if (typeof value === "string" && value.length > SLICE) {
    write('"');
    for (let i = 0; i < value.length; ) {
      const end = sliceEnd(value, i, SLICE);
      const quoted = JSON.stringify(value.slice(i, end));
      write(quoted.slice(1, -1));
      i = end;
    }
    write('"');
    return;
  }
  if (value === null || typeof value !== "object") return write(canonicalize(value));
  if (Array.isArray(value)) {
    write("[");
    value.forEach((v, i) => {
      if (i > 0) write(",");
      writeCanonical(v, write);
    });
    return write("]");
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  write("{");
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    write(`${first ? "" : ","}${quoteKey(k)}:`);
    first = false;
    writeCanonical(v, write);
  }
  write("}");
}
