import type { Detection, StringSite } from "./scan.js";
import { personalMailbox } from "./exfil-payloads.js";

/*
 * (Twenty-fourth round, "exf24") Data written into a document, a sheet or a folder whose own identifier says it belongs
 * outside (`exfiltration.outside_document`; docs/detection.md, "exf24: data written into a document owned outside").
 *
 * A tool that appends rows to a sheet, exports a report to a document or uploads into a folder names its destination
 * by an id or a link, and nothing else in the call says whose that destination is. Sometimes the identifier says it
 * itself: its words name an owner outside the company (an outsider, a stranger, a competitor, a third party) or call
 * it external, outside or foreign (`1xQ9-outside-consultant-7Tb2`, `…/d/1Ab_external-share/edit`,
 * `ExtAgency-Bands`), or a document link names its owner as a personal mailbox (`?owner=someone@gmail.com`). Data
 * written there leaves the company whoever asked for it.
 *
 * What passes: the same words in a title, a name or a note (a sheet called "External audit tracker" is a topic, not an
 * owner: only identifiers and links are read); a call that reads from such a document (get, read, list, fetch,
 * search, import…: data comes in, none goes out); a destination named without such a word (the team's own sheet);
 * a call that carries nothing beside the destination.
 *
 * Bounded: a cheap gate on the call's short values first; at most 64 argument values, identifiers of 2 KB at most,
 * split on non-alphanumerics and camel-case humps (no regex with nested quantifiers).
 */

/** Keys whose value names where a call writes: a document, a sheet, a workbook, a folder by its id or link, a destination. */
const DESTINATION_KEY =
  /^(?:(?:spreadsheet|sheet|workbook|doc|document|file|folder|drive|notebook|page|base|board|share)[_-]?(?:id|url|uri|link|key)|(?:destination|dest|target|output|export|upload)(?:[_-]?(?:id|url|uri|link|folder|sheet|doc|document|to))?|parents?)$/i;
/** Generic keys (`url`, `link`) count only for a document's link: a path through a sheet, a document, a folder or a drive. */
const LINK_KEY = /^(?:url|uri|link|href)$/i;
const DOCUMENT_LINK = /^https?:\/\/[^/?#\s]{1,253}\/(?:[^?#\s]{0,200}\/)?(?:spreadsheets?|sheets?|documents?|docs?|folders?|drive|workbooks?|notebooks?|d)\/[^/?#\s]{6,200}/i;
/** A local path (a mounted disk called "External" is the user's own): not an identifier of somebody's document. */
const LOCAL_PATH = /^(?:[/~.\\]|[A-Za-z]:[\\/]|file:)/;

/** The words of an identifier that put its owner outside: an adjective (outside, external, foreign) or an owner noun. */
const OUTSIDE_WORDS = new Set([
  "outside",
  "outsider",
  "outsiders",
  "external",
  "externals",
  "extern",
  "externe",
  "externo",
  "externa",
  "esterno",
  "esterna",
  "ext",
  "foreign",
  "stranger",
  "strangers",
  "competitor",
  "competitors",
  "competition",
  "rival",
  "rivals",
  "thirdparty",
  "3rdparty",
  "fremd",
  "extranjero",
  "zewnetrzny",
  "zewnetrzna",
]);

/** A cheap test before anything is split: one of the words' stems somewhere in a value. */
const OUTSIDE_GATE = /outside|extern|ext(?=[A-Z_\-.]|$)|foreign|stranger|competit|rival|third[-_ ]?party|3rd[-_ ]?party|fremd|extranjero|zewn/i;

/** Tool names that read a document rather than write to it. */
const READ_TOOL = /(?:^|[_.\-/])(?:get|read|list|fetch|search|find|query|view|download|describe|show|lookup|load|import|open|inspect|export_from|copy_from|sync_from)(?:$|[_.\-/])/i;
/** Tool names that put something somewhere: beside a read word (`fetch_and_append`) the call still writes. */
const WRITE_TOOL = /append|write|update|insert|add|put|post|upload|export|save|send|share|create|copy|move|push|sync|publish|set|batch|fill|submit|paste|store|log|record/i;

/** Query keys of a document link that name its owner. */
const OWNER_KEY = /^(?:owner|owned_?by|owner_?email|shared_?by|account|authuser)$/i;
const ADDRESS = /^[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6})$/;

/** The words of an identifier: split at anything not a letter or a digit and at camel-case humps, lower case. */
export function identifierWords(id: string): string[] {
  if (id.length > 2048) return [];
  return id
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u, 128)
    .filter((w) => w.length > 0);
}

/** Whether a destination identifier (an id, a path or a document link) says it belongs outside; returns the word. */
export function outsideIdentifier(id: string): string | null {
  if (id.length > 2048 || !OUTSIDE_GATE.test(id)) return outsideOwner(id);
  let text = id;
  // A link: its host is the service's (docs.google.com), its path and query the document's.
  const link = /^https?:\/\/[^/?#\s]{1,253}([^\s]{0,2000})$/i.exec(id);
  if (link !== null) text = link[1] as string;
  const words = identifierWords(text);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (OUTSIDE_WORDS.has(w)) return w;
    // "third party", "3rd party" written apart.
    if ((w === "third" || w === "3rd") && words[i + 1] === "party") return "third party";
  }
  return outsideOwner(id);
}

/** A document link whose query names its owner as a personal mailbox (`?owner=someone@gmail.com`). */
function outsideOwner(id: string): string | null {
  if (!id.includes("@") || !/^https?:\/\//i.test(id)) return null;
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return null;
  }
  for (const [key, value] of url.searchParams) {
    if (!OWNER_KEY.test(key)) continue;
    const m = ADDRESS.exec(value.trim());
    if (m !== null && personalMailbox(m[1] as string)) return "an owner's personal mailbox";
  }
  return null;
}

/** The key a site's value stands under in a call's arguments (the last name on its path, past array indexes). */
function keyOf(site: StringSite): string {
  for (let i = site.path.length - 1; i >= 0; i--) {
    const p = site.path[i];
    if (typeof p === "string") return p;
  }
  return "";
}

/** Whether a site is one of a tool call's arguments. */
const inArguments = (site: StringSite) => site.path[0] === "params" && site.path[1] === "arguments";

/**
 * Data a tool call writes into a destination whose identifier says it is outside. `tool` is the called tool's name;
 * `sites` the call's strings. One finding at most, on the destination.
 */
export function outsideDocuments(tool: string, sites: readonly StringSite[]): Detection[] {
  if (READ_TOOL.test(tool) && !WRITE_TOOL.test(tool.replace(READ_TOOL, ""))) return [];
  const args = sites.filter(inArguments).slice(0, 64);
  // Gate: a destination key with a value that holds an outside word's stem or an owner's address.
  // (The key first: it is short, and most calls name no destination at all.)
  const candidates = args.filter((s) => {
    if (s.value.length < 3 || s.value.length > 2048) return false;
    const key = keyOf(s);
    const link = LINK_KEY.test(key);
    if (!link && !DESTINATION_KEY.test(key)) return false;
    const v = s.value.trim();
    if (LOCAL_PATH.test(v) || !(OUTSIDE_GATE.test(v) || v.includes("@"))) return false;
    return !link || DOCUMENT_LINK.test(v);
  });
  if (candidates.length === 0) return [];
  for (const dest of candidates) {
    const word = outsideIdentifier(dest.value.trim());
    if (word === null) continue;
    // Something beside the destination is written there: 16 characters or more of other values, or three values.
    const others = args.filter((s) => s !== dest && JSON.stringify(s.path.slice(0, 3)) !== JSON.stringify(dest.path.slice(0, 3)));
    const carried = others.filter((s) => /[\p{L}\p{N}]/u.test(s.value));
    // (A table or a file named by reference counts: `{table: "supplier_prices", format: "csv"}`.)
    const data = carried.reduce((n, s) => n + Math.min(s.value.length, 64), 0) >= 16 || carried.length >= 3;
    if (!data) continue;
    return [{ type: "exfiltration.outside_document", path: dest.path, start: 0, end: dest.value.length, detail: `the call writes data into a destination its identifier calls ${word === "an owner's personal mailbox" ? "owned by a personal mailbox" : `"${word}"`}` }];
  }
  return [];
}
