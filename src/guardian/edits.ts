import { exec, type JsonValue } from "jsonpath-rfc9535";
import type { Detection } from "./detectors/scan.js";
import type { CompiledEdit } from "./rules/compile.js";

type Path = (string | number)[];

/** A finding to redact, with what replaces it (`{type}` names the finding). */
export type Redaction = Detection & { with: string };

/**
 * Applies edits in order to a copy of the message; the original is never touched. `detections` are the findings of the
 * rule's detectors, which a `redact` edit replaces exactly.
 */
export function applyEdits(message: Record<string, unknown>, edits: readonly CompiledEdit[], detections: readonly Detection[] = []): Record<string, unknown> {
  const doc = structuredClone(message);
  for (const edit of edits) {
    if (edit.op === "redact") redact(doc, detections.map((d) => ({ ...d, with: edit.with })));
    else applyEdit(doc, edit);
  }
  return doc;
}

/** Redacts the findings of several rules in one pass over a copy of the message, so every offset still holds. */
export function applyRedactions(message: Record<string, unknown>, redactions: readonly Redaction[]): Record<string, unknown> {
  const doc = structuredClone(message);
  redact(doc, redactions);
  return doc;
}

/**
 * Replaces each detected span (`{type}` in its replacement names the finding). Where spans overlap, the one that starts
 * first wins, and of those the longest (an injected passage containing a secret goes as a whole); among equal spans,
 * the first given (the earlier rule). A finding that is a whole value (a tool in a list) is removed.
 */
function redact(doc: Record<string, unknown>, detections: readonly Redaction[]): void {
  const byPath = new Map<string, Redaction[]>();
  const whole: Path[] = [];
  for (const d of detections) {
    if (d.whole) {
      whole.push(d.path);
      continue;
    }
    const key = JSON.stringify(d.path);
    const list = byPath.get(key) ?? [];
    list.push(d);
    byPath.set(key, list);
  }
  for (const list of byPath.values()) {
    const path = (list[0] as Redaction).path;
    const value = getAt(doc, path);
    if (typeof value !== "string") continue;
    list.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Redaction[] = [];
    let reach = -1;
    for (const d of list) {
      if (d.start < reach) continue; // overlaps a span already kept
      kept.push(d);
      reach = d.end;
    }
    let out = value;
    for (let i = kept.length - 1; i >= 0; i--) {
      const d = kept[i] as Redaction;
      const replacement = d.with.replace("{type}", d.type);
      out = out.slice(0, d.start) + (d.encoded === "base64" ? Buffer.from(replacement).toString("base64") : replacement) + out.slice(d.end);
    }
    setAt(doc, path, out, false);
  }
  // Whole findings go last, deepest and highest index first, so the other paths stay valid.
  whole.sort(comparePathsDesc);
  for (const path of whole) removeAt(doc, path);
}

function getAt(doc: unknown, path: Path): unknown {
  let node = doc;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function applyEdit(doc: Record<string, unknown>, edit: Exclude<CompiledEdit, { op: "redact" }>): void {
  const matches: { value: unknown; path: Path }[] = [];
  exec(doc as JsonValue, edit.path, (value, path) => matches.push({ value, path: [...path] }));
  switch (edit.op) {
    case "set":
      if (matches.length === 0 && edit.singular && edit.singular.length > 0) {
        setAt(doc, edit.singular, structuredClone(edit.value), true);
      }
      for (const m of matches) setAt(doc, m.path, structuredClone(edit.value), false);
      return;
    case "remove":
      // Deepest and highest index first, so earlier removals do not shift later paths.
      matches.sort((a, b) => comparePathsDesc(a.path, b.path));
      for (const m of matches) removeAt(doc, m.path);
      return;
    case "replace":
      for (const m of matches) {
        if (typeof m.value !== "string") continue;
        setAt(doc, m.path, edit.pattern.replaceAll(m.value, edit.with), false);
      }
      return;
  }
}

function setAt(doc: unknown, path: Path, value: unknown, create: boolean): void {
  if (path.length === 0) return; // replacing the root would change the envelope; never allowed
  let node: unknown = doc;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string | number;
    let next = (node as Record<string | number, unknown>)[key];
    if ((next === null || typeof next !== "object") && create) {
      next = typeof path[i + 1] === "number" ? [] : {};
      define(node, key, next);
    }
    if (next === null || typeof next !== "object") return;
    node = next;
  }
  define(node, path[path.length - 1] as string | number, value);
}

/** Own data property, even for a key named __proto__: an edit can never reach a prototype. */
function define(node: unknown, key: string | number, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

function removeAt(doc: unknown, path: Path): void {
  if (path.length === 0) return;
  let node: unknown = doc;
  for (let i = 0; i < path.length - 1; i++) {
    node = (node as Record<string | number, unknown>)[path[i] as string | number];
    if (node === null || typeof node !== "object") return;
  }
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(node) && typeof last === "number") node.splice(last, 1);
  else delete (node as Record<string, unknown>)[last as string];
}

function comparePathsDesc(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return String(y).localeCompare(String(x));
  }
  return b.length - a.length;
}
