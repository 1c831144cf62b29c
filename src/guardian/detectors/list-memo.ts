import type { Detection } from "./scan.js";

/*
 * What a server lists — its tools, prompts, resources and resource templates — is judged again by every session that
 * asks for it (every `serve` session calls `tools/list`, a `wrap` again after each `list_changed`), and a long list is
 * the costliest message to read: the injection and poisoning readers go over every description (14 tools of
 * server-filesystem: about 20 ms; a server of 90 tools, ten times that). The detectors are pure functions of the
 * message and the server's names (pins aside: `tool_changed` reads the pin store, so it is never memoised), so the
 * findings for the same list from the same server are kept here and read back. The key is the whole result as JSON
 * (the id left out) with the server's names: one character changed is another list, judged afresh.
 *
 * Bounded: lists of at most MAX_LIST characters, at most MAX_LISTS lists and MAX_CHARS characters of keys, the least
 * recently used dropped first.
 */

const LIST_KEYS = ["tools", "prompts", "resources", "resourceTemplates"];
const MAX_LIST = 1 << 20;
const MAX_LISTS = 64;
const MAX_CHARS = 8 << 20;

/** The memo's key for a message that is a list result (`{jsonrpc, id, result: {tools: [...]}}`); null for any other. */
export function listKey(message: Record<string, unknown>, server: string, reported: string | null | undefined): string | null {
  const result = message.result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return null;
  if (!LIST_KEYS.some((k) => Array.isArray((result as Record<string, unknown>)[k]))) return null;
  for (const k in message) if (k !== "jsonrpc" && k !== "id" && k !== "result") return null;
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

/** Each list's entry, least recently used first. */
const lists = new Map<string, ListEntry>();
let chars = 0;

/**
 * The entry of a list, made when the list is new (the least recently used dropped beyond the bounds) and moved to the
 * end as the most recently used: looked up once per message, which keeps it for its detectors.
 */
export function listEntry(key: string): ListEntry {
  let entry = lists.get(key);
  if (entry !== undefined) {
    lists.delete(key);
    lists.set(key, entry);
    return entry;
  }
  entry = { found: new Map(), fingerprints: [] };
  lists.set(key, entry);
  chars += key.length;
  for (const [k] of lists) {
    if (lists.size <= MAX_LISTS && chars <= MAX_CHARS) break;
    lists.delete(k);
    chars -= k.length;
  }
  return entry;
}

export function recalled(entry: ListEntry, detector: string): readonly Detection[] | undefined {
  return entry.found.get(detector);
}

export function remember(entry: ListEntry, detector: string, found: readonly Detection[]): void {
  // Shared by every message of the same list from now on: frozen, so nobody changes another message's findings.
  for (const d of found) Object.freeze(d);
  entry.found.set(detector, Object.freeze(found));
}

/** How many lists are remembered, and their keys' characters (for tests). */
export function memoSize(): { lists: number; chars: number } {
  return { lists: lists.size, chars };
}
