import type { Detection } from "./scan.js";

/*
 * What a server lists — its tools, prompts, resources and resource templates — is judged again by every session that
 * asks for it (every `serve` session calls `tools/list`, a `wrap` again after each `list_changed`), and a long list is
 * the costliest message to read: the injection and poisoning readers go over every description (14 tools of
 * server-filesystem: about 20 ms; a server of 90 tools, ten times that). The detectors are pure functions of the
 * message and the server's names (pins aside: `tool_changed` reads the pin store, so it is never memoised), so the
 * findings for the same list from the same server are kept here and read back. The same list is the same result as JSON
 * (the id left out) with the server's names (`listKey`): one character changed is another list, judged afresh.
 *
 * Bounded: lists of at most about MAX_LIST characters, at most MAX_LISTS lists and about MAX_CHARS characters in all,
 * the least recently used dropped first.
 */

const LIST_KEYS = ["tools", "prompts", "resources", "resourceTemplates"];
const MAX_LIST = 1 << 20;
const MAX_LISTS = 64;
const MAX_CHARS = 8 << 20;

/** A list result's `result` (`{jsonrpc, id, result: {tools: [...]}}`, or prompts, resources, templates); null for any other message. */
function listResult(message: Record<string, unknown>): object | null {
  const result = message.result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return null;
  if (!LIST_KEYS.some((k) => Array.isArray((result as Record<string, unknown>)[k]))) return null;
  for (const k in message) if (k !== "jsonrpc" && k !== "id" && k !== "result") return null;
  return result;
}

/**
 * What makes two messages the same list for the memo, as a key: a list result's (`{jsonrpc, id, result: {tools:
 * [...]}}`) JSON with the server's names; null for any other message. `listEntry` finds the entry of equal keys
 * without building one.
 */
export function listKey(message: Record<string, unknown>, server: string, reported: string | null | undefined): string | null {
  const result = listResult(message);
  if (result === null) return null;
  const json = JSON.stringify(result);
  if (json.length > MAX_LIST) return null;
  return `${server}\u0000${reported ?? ""}\u0000${json}`;
}

/**
 * What is remembered of a list: each detector's findings by its key, and each tool's pin fingerprint by its index
 * (pins.ts: a pure function of the tool, so the same for every message of the same list; the pins themselves are
 * compared afresh every time).
 */
export interface ListEntry {
  readonly found: Map<string, readonly Detection[]>;
  readonly fingerprints: (string | undefined)[];
}

/** A remembered list: its result (a copy of its own), its server names, its size. */
interface Kept {
  readonly value: unknown;
  readonly bucket: string;
  readonly size: number;
  readonly entry: ListEntry;
}

/** The lists by server names, and all of them least recently used first. */
const buckets = new Map<string, Kept[]>();
const lists = new Map<Kept, true>();
let chars = 0;

/**
 * The entry of a list result (null for any other message: see `listKey`), made when the list is new (the least
 * recently used dropped beyond the bounds) and moved to the end as the most recently used; looked up once per message,
 * which keeps it for its detectors. Two lists share an entry exactly when their `listKey`s are equal, but no key is
 * built: the result is compared with the lists remembered for the same server names (same keys in the same order,
 * same values: what makes JSON.stringify's texts equal; a compare ends at the first difference, and all of them
 * together read at most MAX_CHARS), which is several times cheaper than stringifying a 7 KB list and hashing the
 * text. A list holding anything JSON cannot say (undefined, a function, a non-finite number, a hole, a class instance)
 * is not remembered.
 */
export function listEntry(message: Record<string, unknown>, server: string, reported: string | null | undefined): ListEntry | null {
  const result = listResult(message);
  if (result === null) return null;
  const bucket = `${server}\u0000${reported ?? ""}`;
  const kept = buckets.get(bucket);
  if (kept !== undefined) {
    for (const k of kept) {
      if (sameJson(k.value, result)) {
        lists.delete(k);
        lists.set(k, true);
        return k.entry;
      }
    }
  }
  // A new list: remembered when JSON can say all of it (a remembered list is, so a list equal to one is too).
  const size = sizeOf(result, 0);
  if (size < 0 || size > MAX_LIST) return null;
  const k: Kept = { value: JSON.parse(JSON.stringify(result)) as unknown, bucket, size, entry: { found: new Map(), fingerprints: [] } };
  if (kept === undefined) buckets.set(bucket, [k]);
  else kept.push(k);
  lists.set(k, true);
  chars += size;
  for (const [old] of lists) {
    if (lists.size <= MAX_LISTS && chars <= MAX_CHARS) break;
    lists.delete(old);
    chars -= old.size;
    const rest = (buckets.get(old.bucket) as Kept[]).filter((x) => x !== old);
    if (rest.length === 0) buckets.delete(old.bucket);
    else buckets.set(old.bucket, rest);
  }
  return k.entry;
}

/** Deeper than any list the parser lets through (its depth cap): not remembered. */
const MAX_DEPTH = 128;

/**
 * A size for a JSON value, a function of its structure (so equal values have equal sizes): about its JSON text's
 * length. -1 when the value holds what JSON cannot say as it is, or is too deep.
 */
function sizeOf(v: unknown, depth: number): number {
  switch (typeof v) {
    case "string":
      return v.length + 2;
    case "number":
      return Number.isFinite(v) ? 8 : -1;
    case "boolean":
      return 5;
    case "object":
      break;
    default:
      return -1;
  }
  if (v === null) return 4;
  if (depth > MAX_DEPTH) return -1;
  let size = 2;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) return -1;
      const s = sizeOf(v[i], depth + 1);
      if (s < 0) return -1;
      size += s + 1;
    }
    return size;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return -1;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const s = sizeOf(o[k], depth + 1);
    if (s < 0) return -1;
    size += k.length + 4 + s;
  }
  return size;
}

/**
 * Whether a remembered value (`a`: JSON's own, as sizeOf accepts) and a message's have the same JSON text: the same
 * keys in the same order, the same values (so `b` holds only what JSON can say, as `a` does).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const proto = Object.getPrototypeOf(b) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  for (let i = 0; i < kx.length; i++) {
    const k = kx[i] as string;
    if (k !== ky[i] || !sameJson(x[k], y[k])) return false;
  }
  return true;
}

export function recalled(entry: ListEntry, detector: string): readonly Detection[] | undefined {
  return entry.found.get(detector);
}

export function remember(entry: ListEntry, detector: string, found: readonly Detection[]): void {
  // Shared by every message of the same list from now on: frozen, so nobody changes another message's findings.
  for (const d of found) Object.freeze(d);
  entry.found.set(detector, Object.freeze(found));
}

/** How many lists are remembered, and about how many characters of JSON they hold (for tests). */
export function memoSize(): { lists: number; chars: number } {
  return { lists: lists.size, chars };
}
