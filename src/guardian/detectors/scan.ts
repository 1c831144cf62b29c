import { DECODED_PER_MESSAGE, fileText, isFilePayload } from "./files.js";
import type { NormalText } from "./normalize.js";

/** Where a string sits in a message: its JSON path from the message root. */
export type JsonPath = (string | number)[];

export interface StringSite {
  path: JsonPath;
  value: string;
  /**
   * The value is the text of a file part decoded from base64 (files.ts): the string at `path` is the encoded one, this
   * long. A finding in a decoded value stands for the whole encoded string (MessageScan maps it there).
   */
  encoded?: number;
  /** The string as the detectors read it, made once by `MessageScan.normal` (normalize.ts). */
  normal?: NormalText | undefined;
}

/**
 * The names a call argument's string sits under, array indexes left out (`attachments[0].path` → attachments, path):
 * its own name (`key`), its top-level argument's (`top`) and all of them (`names`).
 */
export function argumentNames(site: StringSite): { key: string; top: string; names: string[] } {
  const names = site.path.slice(2).filter((k): k is string => typeof k === "string");
  return { key: names[names.length - 1] ?? "", top: names[0] ?? "", names };
}

/** The strings directly under `parent` (its own keys' values): the fields of one object, the items of one array. */
export function childrenOf<T extends StringSite>(sites: readonly T[], parent: readonly (string | number)[]): T[] {
  return sites.filter((s) => s.path.length === parent.length + 1 && parent.every((k, i) => s.path[i] === k));
}

/** One finding: what it is and exactly where, so `redact` can replace just it. */
export interface Detection {
  type: string;
  path: JsonPath;
  start: number;
  end: number;
  /** The finding is the whole value at `path` (a tool in a list): `redact` takes it out instead of replacing a span. */
  whole?: boolean;
  /** What the finding is about, for the decision's message (which tool changed, and how). */
  detail?: string;
  /**
   * The finding is in a file's decoded text and stands for the whole base64 payload at `path`: a redaction writes its
   * replacement base64-encoded, so the payload stays valid base64 (clients check it) and decodes to the marker.
   */
  encoded?: "base64";
}

/**
 * Visits every string of a message (params, result, error) in document order, with its JSON path when `paths` is
 * set (building paths costs an array per value, which `text` alone does not need). File payloads in base64 (MCP's
 * `data`/`blob` beside a `mimeType`, A2A's `bytes` and `raw`) are visited decoded when they hold text (a `.env`, a
 * JSON or YAML file, a script), and skipped when they hold an image or other binary data (files.ts). Iterative, so
 * depth does not matter.
 */
function eachString(message: Record<string, unknown>, roots: string[], paths: boolean, visit: (value: string, path: JsonPath, encoded?: number) => void): void {
  const budget = { left: DECODED_PER_MESSAGE };
  const none: JsonPath = [];
  type Item = { value: unknown; path: JsonPath; file?: Record<string, unknown> | undefined };
  const stack: Item[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    const key = roots[i] as string;
    if (message[key] !== undefined) stack.push({ value: message[key], path: paths ? [key] : none, file: undefined });
  }
  while (stack.length > 0) {
    const { value, path, file } = stack.pop() as Item;
    if (file !== undefined) {
      const text = fileText(file, value as string, budget);
      if (text !== null) visit(text, path, (value as string).length);
    } else if (typeof value === "string") visit(value, path);
    else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: paths ? [...path, i] : none, file: undefined });
    else if (value !== null && typeof value === "object") {
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        const v = o[k];
        stack.push({ value: v, path: paths ? [...path, k] : none, file: typeof v === "string" && isFilePayload(o, k) ? o : undefined });
      }
    }
  }
}

/** The strings of a message, collected once and shared by every detector and rule. */
export function collectStrings(message: Record<string, unknown>, roots: string[] = ["params", "result", "error"]): StringSite[] {
  const out: StringSite[] = [];
  eachString(message, roots, true, (value, path, encoded) => out.push(encoded === undefined ? { path, value, normal: undefined } : { path, value, encoded, normal: undefined }));
  return out;
}

/**
 * The same strings as `collectStrings`, in the same order, joined with newlines: what rules see as `text`, built
 * without recording where each string sits when no detector needs that.
 */
export function joinStrings(message: Record<string, unknown>, roots: string[] = ["params", "result", "error"]): string {
  const parts: string[] = [];
  eachString(message, roots, false, (value) => parts.push(value));
  return parts.join("\n");
}

/** The next non-empty match of a global regex from its `lastIndex`; an empty match steps over one character. */
export function nextMatch(re: RegExp, text: string): RegExpExecArray | null {
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null && m[0].length === 0) re.lastIndex++;
  return m;
}

/**
 * Runs a global regex over every string, recording each match (or its `group`, exactly where the group matched: the
 * match's indices, never a search for the group's text) as a detection of `type`.
 */
export function findAll(sites: readonly StringSite[], regex: RegExp, type: string | ((m: RegExpExecArray) => string | null), group = 0): Detection[] {
  const out: Detection[] = [];
  const re = group !== 0 && !regex.hasIndices ? new RegExp(regex.source, regex.flags + "d") : regex;
  for (const site of sites) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = nextMatch(re, site.value)) !== null) {
      const t = typeof type === "string" ? type : type(m);
      if (t === null) continue;
      const span = group === 0 ? undefined : m.indices?.[group];
      const start = span ? span[0] : m.index;
      const end = span ? span[1] : m.index + m[0].length;
      out.push({ type: t, path: site.path, start, end });
    }
  }
  return out;
}
