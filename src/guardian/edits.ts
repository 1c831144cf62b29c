import { exec, type JsonValue } from "jsonpath-rfc9535";
import type { CompiledEdit } from "./rules/compile.js";

type Path = (string | number)[];

/** Applies edits in order to a copy of the message; the original is never touched. */
export function applyEdits(message: Record<string, unknown>, edits: readonly CompiledEdit[]): Record<string, unknown> {
  const doc = structuredClone(message);
  for (const edit of edits) applyEdit(doc, edit);
  return doc;
}

function applyEdit(doc: Record<string, unknown>, edit: CompiledEdit): void {
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
        edit.pattern.lastIndex = 0;
        setAt(doc, m.path, m.value.replace(edit.pattern, edit.with), false);
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
