import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type Edit, type FormattingOptions, type ParseError } from "jsonc-parser";
import { ConfigSyntaxError, lineColumn } from "./config-error.js";

/*
 * JSON and JSONC files are changed by edits at a key path (jsonc-parser's modify + applyEdits), never parsed and
 * dumped again: comments, key order, indentation and every other byte stay as the person wrote them.
 */

/** Parses JSON or JSONC (comments, trailing commas); the first error is a ConfigSyntaxError with its line and column. */
export function parseJsonc(path: string, withBom: string): unknown {
  const text = withBom.replace(/^\uFEFF/, ""); // Windows editors may start the file with one
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    throw new ConfigSyntaxError(path, line, column, printParseErrorCode(first.error));
  }
  return value;
}

export function valueAt(doc: unknown, path: readonly string[]): unknown {
  let v = doc;
  for (const key of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Sets (or, with `undefined`, removes) each key path in turn; everything else in the text is left as it was. */
export function editJsonc(withBom: string, changes: { path: string[]; value: unknown }[]): string {
  const bom = withBom.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = withBom.slice(bom.length);
  const formattingOptions = indentationOf(text);
  return bom + changes.reduce((t, c) => applyEdits(t, edits(t, c.path, c.value, formattingOptions)), text);
}

const PLACEHOLDER = "\u0000guardwire\u0000";

/**
 * modify() with formatting lays a new value (and the object around an added key) out over several lines. Where the
 * value, or the object that gets a new key, was written on one line — `"git": { "command": "uvx", "args": ["x"] }` —
 * the edit is made unformatted and the value written on one line, items separated the way the old ones were.
 */
function edits(text: string, path: string[], value: unknown, formattingOptions: FormattingOptions): Edit[] {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && (findNodeAtLocation(tree, path) ?? findNodeAtLocation(tree, path.slice(0, -1)));
  const old = node ? text.slice(node.offset, node.offset + node.length) : "\n";
  if (old.includes("\n")) return modify(text, path, value, { formattingOptions });
  // Unformatted edits touch only the value (or the key): the rest of the line stays as it is.
  if (value === undefined) return modify(text, path, undefined, {});
  const inline = Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(/\[\s*"[^"]*",(?! )/.test(old) ? "," : ", ")}]` : JSON.stringify(value);
  return modify(text, path, PLACEHOLDER, {}).map((e) => ({ ...e, content: e.content.replace(/^,(?=\S)/, ", ").replace(JSON.stringify(PLACEHOLDER), inline) }));
}

/** The file's own indentation and line ending, so that an added key looks like its neighbours. */
function indentationOf(text: string): FormattingOptions {
  const indent = /^[ \t]+(?=\S)/m.exec(text)?.[0] ?? "  ";
  return { insertSpaces: !indent.startsWith("\t"), tabSize: indent.startsWith("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}
