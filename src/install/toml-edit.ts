import { parse, TomlError } from "smol-toml";
import { ConfigEditError, ConfigSyntaxError } from "./config-error.js";

/*
 * TOML (Codex's config.toml) is changed by rewriting only the value of the keys asked for, in place, inside their
 * table (`[mcp_servers.NAME]`): every other byte — comments, order, blank lines, the rest of the table — stays. The
 * format-preserving TOML patchers on npm were tried and lost data on array edits (docs/dependencies.md), so the text
 * edit is small and checked by a real parser instead: the result must parse to exactly the data asked for, or
 * nothing is written.
 */

export function parseToml(path: string, text: string): unknown {
  try {
    return parse(text);
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const reason = (e.message.split("\n")[0] ?? e.message).replace(/^Invalid TOML document: /, "");
    throw new ConfigSyntaxError(path, e.line, e.column, reason);
  }
}

/** Sets (or, with `undefined`, removes) each `[...table, key]` path, keeping the rest of the text. */
export function editToml(path: string, text: string, changes: { path: string[]; value: unknown }[]): string {
  const wanted = parseToml(path, text) as Record<string, unknown>;
  let out = text;
  for (const c of changes) {
    const table = c.path.slice(0, -1);
    const key = c.path[c.path.length - 1] as string;
    const parent = table.reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, wanted);
    if (c.value === undefined) delete parent[key];
    else parent[key] = c.value;
    out = setKey(path, out, table, key, c.value);
  }
  if (JSON.stringify(parseToml(path, out)) !== JSON.stringify(wanted)) {
    throw new ConfigEditError(path, "the TOML edit did not produce the intended values");
  }
  return out;
}

function setKey(path: string, text: string, table: string[], key: string, value: unknown): string {
  const section = findTable(text, table);
  if (!section) throw new ConfigEditError(path, `no [${table.join(".")}] table to edit (only that layout is supported)`);
  const body = text.slice(section.start, section.end);
  const line = new RegExp(`^([ \\t]*)(?:${escape(key)}|"${escape(key)}"|'${escape(key)}')[ \\t]*=[ \\t]*`, "m").exec(body);
  if (!line) {
    if (value === undefined) return text;
    // A new key goes at the end of the table's key lines (before its trailing blank lines).
    const at = section.start + body.replace(/\s*$/, "").length;
    return `${text.slice(0, at)}${text.includes("\r\n") ? "\r\n" : "\n"}${key} = ${render(value)}${text.slice(at)}`;
  }
  const valueStart = section.start + line.index + line[0].length;
  const valueEnd = scanValue(text, valueStart);
  if (value !== undefined) return text.slice(0, valueStart) + render(value) + text.slice(valueEnd);
  // Removing: the whole line, with its comment and newline.
  const lineEnd = text.indexOf("\n", valueEnd);
  return text.slice(0, section.start + line.index) + (lineEnd < 0 ? "" : text.slice(lineEnd + 1));
}

/** The body of `[a.b]` (after its header line, up to the next header). */
function findTable(text: string, table: string[]): { start: number; end: number } | undefined {
  const part = (k: string) => `[ \\t]*(?:${escape(k)}|"${escape(k)}"|'${escape(k)}')[ \\t]*`;
  const header = new RegExp(`^[ \\t]*\\[${table.map(part).join("\\.")}\\][ \\t]*(?:#.*)?$`, "m").exec(text);
  if (!header) return undefined;
  const start = header.index + header[0].length;
  const next = /^[ \t]*\[/m.exec(text.slice(start));
  return { start, end: next ? start + next.index : text.length };
}

/** The end of the TOML value starting at `i`: a string, or an array or inline table (nested, over several lines). */
function scanValue(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"' || ch === "'") {
      const triple = text.startsWith(ch.repeat(3), i);
      const close = triple ? ch.repeat(3) : ch;
      let j = i + close.length;
      while (j < text.length && !text.startsWith(close, j)) j += ch === '"' && text[j] === "\\" ? 2 : 1;
      i = j + close.length - 1;
    } else if (ch === "#" && depth > 0) {
      i = text.indexOf("\n", i) - 1;
      if (i < 0) return text.length;
    } else if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") depth--;
    else if (depth === 0 && /[\s#]/.test(ch)) return i;
    if (depth === 0 && /["'\]}]/.test(ch)) return i + 1;
  }
  return i;
}

/** A string as a TOML basic string (JSON's escapes are TOML's), a list of strings as an inline array. */
function render(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(render).join(", ")}]`;
  if (typeof value === "string") return JSON.stringify(value);
  throw new TypeError(`cannot write ${typeof value} into TOML`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
