import { readFileSync } from "node:fs";
import { detectPromptInjection, detectSecrets, detectToolPoisoning } from "../guardian/detectors/content.js";
import { detectToolChanges, pinMatches, pinsFor, type Pin, type PinScope, type PinStore } from "../guardian/detectors/pins.js";
import { collectStrings, type Detection, type JsonPath } from "../guardian/detectors/scan.js";
import { parsePins } from "../guardian/state.js";
import { GuardwireError } from "../errors.js";
import type { Item, Listing } from "./run.js";

export type Severity = "high" | "medium";

export type ItemKind = "tool" | "prompt" | "resource" | "resourceTemplate" | "instructions";

export interface Finding {
  type: string;
  severity: Severity;
  /** What carries it: a tool, prompt, resource or template (by name), or the server's instructions. */
  kind: ItemKind;
  name: string;
  /** Where in it: `description`, `inputSchema.properties.path.description`… */
  field: string;
  /** The matched text, made visible (control and invisible characters escaped) and bounded; secrets masked. */
  match: string;
  /** The match in its context, `«match»`, up to 40 characters either side. */
  excerpt: string;
}

export type PinStatus = "same" | "changed" | "new";

/**
 * Severity by detector: instructions planted for the model, credentials and changed tools are `high`; patterns that
 * also occur in honest descriptions (a tool telling the model to call another one first, chat-template tokens) are
 * `medium`. docs/scan.md has the table.
 */
export function severityOf(type: string): Severity {
  return /\.(?:chained_instruction|role)$/.test(type) ? "medium" : "high";
}

/** Pins read from a file and never written: a scan only compares. A missing file is no pins; a corrupt one an error. */
export function readPins(path: string): PinStore & { tools(server: string): string[] } {
  let pins: Record<string, Record<string, Pin>> = Object.create(null) as Record<string, Record<string, Pin>>;
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    // no pins yet: every tool is new
  }
  if (text !== undefined) {
    try {
      pins = parsePins(text);
    } catch (e) {
      throw new GuardwireError("CONFIG_INVALID", `pins file ${path} is not readable as pins: ${(e as Error).message}`);
    }
  }
  const own = (server: string) => (Object.prototype.hasOwnProperty.call(pins, server) ? pins[server] : undefined);
  const tools = (server: string) => Object.keys(own(server) ?? {});
  return { get: (server, tool) => (tools(server).includes(tool) ? own(server)?.[tool] : undefined), has: (server) => tools(server).length > 0, tools };
}

const KEYS = [
  { key: "tools", kind: "tool" },
  { key: "prompts", kind: "prompt" },
  { key: "resources", kind: "resource" },
  { key: "resourceTemplates", kind: "resourceTemplate" },
] as const;

/**
 * The guardian's detectors over what a server says about itself. Tools go through `tool_poisoning` (which includes
 * the prompt-injection patterns), `secrets` and `tool_changed` against the pins under `pinName` (or, when it has
 * none, under the name the server reports, as `wrap` reads pins files of older versions); prompts, resources,
 * templates and the server's instructions through `prompt_injection` and `secrets`. `pinnedFor` is the name whose pins
 * were compared.
 */
export function findingsOf(listing: Listing, pinName: string, pins: PinStore): { findings: Finding[]; pins: Record<string, PinStatus>; pinnedFor: string } {
  const scope: PinScope = { key: pinName, reported: listing.serverInfo?.name ?? null };
  const { at } = pinsFor(pins, scope);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const judge = (message: Record<string, unknown>, detections: Detection[]) => {
    // Every secret in a string is masked in every excerpt of that string, not only in its own finding's.
    const secrets = new Map<string, Detection[]>();
    for (const d of detections) if (d.type.startsWith("secrets.")) secrets.set(d.path.join("/"), [...(secrets.get(d.path.join("/")) ?? []), d]);
    for (const d of detections) {
      const id = `${d.type}|${d.path.join("/")}|${d.start}`;
      if (seen.has(id)) continue;
      seen.add(id);
      findings.push(toFinding(message, d, secrets.get(d.path.join("/")) ?? []));
    }
  };
  for (const { key } of KEYS) {
    const message = { result: { [key]: listing[key] } };
    const sites = collectStrings(message, ["result"]);
    const changes = key === "tools" ? detectToolChanges(message, scope, pins).detections : [];
    judge(message, [...(key === "tools" ? detectToolPoisoning(sites) : detectPromptInjection(sites)), ...detectSecrets(sites), ...changes]);
  }
  if (listing.instructions !== null) {
    const message = { result: { instructions: listing.instructions } };
    const sites = collectStrings(message, ["result"]);
    judge(message, [...detectPromptInjection(sites), ...detectSecrets(sites)]);
  }
  const status = Object.create(null) as Record<string, PinStatus>;
  for (const tool of listing.tools) {
    if (typeof tool.name !== "string") continue;
    const pinned = pins.get(at, tool.name);
    status[tool.name] = pinned === undefined ? "new" : pinMatches(pinned, tool) ? "same" : "changed";
  }
  return { findings, pins: status, pinnedFor: at };
}

function toFinding(message: Record<string, unknown>, d: Detection, secrets: Detection[]): Finding {
  const [, key, index, ...rest] = d.path as [string, string, number | string, ...JsonPath];
  const kindOf = KEYS.find((k) => k.key === key)?.kind ?? "instructions";
  const item = kindOf === "instructions" ? undefined : (at(message, ["result", key, index]) as Item | undefined);
  const name = item === undefined ? "" : String(item.name ?? item.uri ?? item.uriTemplate ?? `#${index}`);
  const field = kindOf === "instructions" ? "instructions" : rest.map((p, i) => (typeof p === "number" ? `[${p}]` : (i > 0 ? "." : "") + p)).join("");
  // A finding about a whole item (a changed tool): what the detector says about it, not the item's text.
  if (d.whole && rest.length === 0) return { type: d.type, severity: severityOf(d.type), kind: kindOf, name: visible(name), field: "definition", match: "", excerpt: visible(d.detail ?? "") };
  const { text, map, names } = masked(String(at(message, d.path) ?? ""), secrets);
  const start = map(d.start, false);
  const end = map(d.end, true);
  // The context shows a secret's name whole or not at all.
  const whole = (i: number, edge: "to" | "toEnd") => names.find((n) => i > n.to && i < n.toEnd)?.[edge] ?? i;
  const from = whole(codePointEdge(text, Math.max(0, start - 40), -1), "to");
  const to = whole(codePointEdge(text, Math.min(text.length, end + 40), 1), "toEnd");
  const match = clip(visible(text.slice(start, end)), 120);
  const excerpt = `${from > 0 ? "…" : ""}${visible(text.slice(from, start))}«${match}»${visible(text.slice(end, to))}${to < text.length ? "…" : ""}`;
  return { type: d.type, severity: severityOf(d.type), kind: kindOf, name: visible(name), field: visible(field), match, excerpt };
}

function at(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const p of path) v = v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}

/** Text with every secret the detectors know replaced by its name: a failing server's stderr may print its token. */
export function withoutSecrets(text: string): string {
  return masked(text, detectSecrets([{ path: [], value: text }])).text;
}

/**
 * The string with each secret replaced by its name (`AKIA…(20 chars)`: the first four characters and the length),
 * and where an offset of the original lands in it (an offset inside a secret: the start or end of its name).
 */
function masked(value: string, secrets: Detection[]): { text: string; map: (i: number, end: boolean) => number; names: { to: number; toEnd: number }[] } {
  const spans: { start: number; end: number; to: number; toEnd: number }[] = [];
  let text = "";
  let last = 0;
  for (const s of [...secrets].sort((a, b) => a.start - b.start)) {
    if (s.start < last) continue;
    text += value.slice(last, s.start);
    const name = `${value.slice(s.start, codePointEdge(value, s.start + 4, -1))}…(${s.end - s.start} chars)`;
    spans.push({ start: s.start, end: s.end, to: text.length, toEnd: text.length + name.length });
    text += name;
    last = s.end;
  }
  text += value.slice(last);
  const map = (i: number, end: boolean) => {
    let shift = 0;
    for (const s of spans) {
      if (i <= s.start) break;
      if (i < s.end) return end ? s.toEnd : s.to;
      shift = s.toEnd - s.end;
    }
    return i + shift;
  };
  return { text, map, names: spans };
}

/** `i`, moved off the middle of a surrogate pair (backwards with -1, forwards with 1). */
function codePointEdge(s: string, i: number, direction: -1 | 1): number {
  const c = s.charCodeAt(i);
  return i > 0 && i < s.length && c >= 0xdc00 && c <= 0xdfff ? i + direction : i;
}

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, codePointEdge(s, max - 1, -1)) + "…" : s);

/**
 * Text from a server shown on a terminal or in CI logs: control characters (escape sequences), bidi overrides and
 * invisible characters are written as `\u{…}` so a description can neither drive the terminal nor hide from the reader.
 */
export function visible(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu, (c) =>
    c === "\n" ? "\\n" : `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
  );
}
