import { hash } from "node:crypto";
import { canonicalize } from "../protocol/canonical.js";
import { RECORD_VERSION, type DecisionInput } from "./record.js";
import { digestField, opt, sessionFields, str, strings, type Stamp } from "./stamp.js";

/**
 * The line format, in one place for the writer (which makes lines) and verify (which checks them), docs/decision-log.md.
 *
 * Version 2: `{"v":2,"time":…,"seq":…,<fields in LINE_KEYS order>,"prev":"<previous hash>","hash":"<hash>"}` where
 * hash = sha256 of the line's exact bytes from `{` up to, not including, the `,"hash":"…"}` that must end it.
 * Version 1 (no `v`): hash = sha256(prev + canonical JSON of the record without its hash).
 */

/** Field order of a line (documented); `hash` comes last. */
export const LINE_KEYS = [
  "v", "time", "seq", "session", "route", "transport", "protocol", "direction", "kind", "id", "method", "tool", "agent",
  "decision", "mode", "rules", "reasonCode", "message", "evalUs", "digest", "ruleset", "replica", "failOpen", "preview",
  "peer", "task", "context", "torn", "approval", "prev",
] as const;
const KNOWN = new Set<string>(LINE_KEYS);
/** The optional fields, in order, between `replica` and `prev`. */
const OPTIONAL = ["failOpen", "preview", "peer", "task", "context", "torn", "approval"] as const;
const OPTIONAL_QUOTED = OPTIONAL.map((k) => `,"${k}":`);

export function hashHex(text: string): string {
  return hash("sha256", text, "hex");
}

/**
 * `,"prev":…` for a line chained to `prev`. The writer's own hashes are hex, quoted as they are (`own`); a hash read
 * back from a file (a damaged file's last hash may be anything) is escaped like any string.
 */
export function prevField(prev: string, own: boolean): string {
  return own ? ',"prev":"' + prev + '"' : `,"prev":${canonicalize(prev)}`;
}

/** The time as a JSON string: the writer's own ISO time is digits and punctuation, quoted as is; any other is escaped. */
export function timeField(time: string, own: boolean): string {
  return own ? '"' + time + '"' : canonicalize(time);
}

/**
 * A line without its hash and closing brace — what the hash covers: fields in documented order, each value
 * serialized once. Records hold primitives, string arrays and small objects (approval).
 */
export function lineBody(time: string, timeText: string, seq: number, input: DecisionInput, prev: string, prevText: string, stamp: Stamp): string {
  for (const k in input) {
    // A field this writer does not know: generic (slower) path, same guarantees.
    if (!KNOWN.has(k)) return JSON.stringify(Object.assign({ v: RECORD_VERSION, time, seq }, input, { ruleset: stamp.ruleset(input), replica: input.replica ?? stamp.replica, prev })).slice(0, -1);
  }
  const r = input;
  let line =
    `{"v":${RECORD_VERSION},"time":${timeText},"seq":${seq}` +
    sessionFields(r) +
    `,"direction":${str(r.direction)},"kind":${str(r.kind)},"id":${canonicalize(r.id)},"method":${opt(r.method)}` +
    `,"tool":${opt(r.tool)},"agent":${opt(r.agent)},"decision":${str(r.decision)},"mode":${str(r.mode)},"rules":${strings(r.rules)}` +
    `,"reasonCode":${strings(r.reasonCode)},"message":${str(r.message)},"evalUs":${canonicalize(r.evalUs)},"digest":${digestField(r.digest)}`;
  line += stamp.fields(input);
  const fields = input as unknown as Record<string, unknown>;
  for (let i = 0; i < OPTIONAL.length; i++) {
    const v = fields[OPTIONAL[i] as string];
    if (v !== undefined) line += (OPTIONAL_QUOTED[i] as string) + canonicalize(v);
  }
  return line + prevText;
}

/** What ends a version-2 line after its body: `,"hash":"…"}` (the newline after it is not part of the line). */
export function hashTail(lineHash: string): string {
  return ',"hash":"' + lineHash + '"}';
}

/** `,"hash":"` + 64 hex digits + `"}`. */
const HASH_TAIL = 9 + 64 + 2;

/** A line read back as a chained record: what the chain needs of it. */
export interface ChainedLine {
  hash: string;
  prev: string;
  seq: number;
  time?: unknown;
  v?: unknown;
  torn?: unknown;
  reasonCode?: unknown[];
  [key: string]: unknown;
}

/**
 * The line as a chained record, or why it is not one. The one test of "is this a record" for verify and for the
 * writer's recovery, so that what the writer recovers from as torn is what verify accepts as torn.
 */
export function readChained(line: string): ChainedLine | string {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return "not JSON (edited, or torn by a crash and then written after)";
  }
  const r = rec as Partial<ChainedLine> | null;
  if (r === null || typeof r !== "object" || typeof r.hash !== "string" || typeof r.prev !== "string" || typeof r.seq !== "number") {
    return "not a decision record (hash, prev or seq missing)";
  }
  return r as ChainedLine;
}

/** Why a line's own hash does not hold, by its record version; undefined when it holds. */
export function checkHash(line: string, rec: ChainedLine, prev: string): string | undefined {
  const changed = "hash does not match the line's content (the line was changed)";
  if (rec.v === undefined) {
    // Version 1: sha256(prev + canonical JSON of the record without its hash).
    const { hash: lineHash, ...rest } = rec;
    return lineHash === hashHex(prev + canonicalize(rest)) ? undefined : changed;
  }
  if (rec.v !== RECORD_VERSION) return `unknown record version ${JSON.stringify(rec.v)}`;
  // Version 2: sha256 of the exact bytes before the hash, which must close the line as the writer writes it. A line
  // with `v` cannot be passed off as version 1: `v` is among the bytes hashed.
  const body = line.length - HASH_TAIL;
  if (body <= 0 || line.slice(body) !== hashTail(rec.hash)) return "the line does not end with its hash (the line was changed)";
  return rec.hash === hashHex(line.slice(0, body)) ? undefined : changed;
}

/** The reason code of the note a restart writes after a torn last line (recovery.ts). */
export const LOG_RECOVERED = "LOG_RECOVERED";

/**
 * Whether `note` closes the unreadable line `torn`: it is a `LOG_RECOVERED` note naming that line's text by its sha256
 * and continuing the chain from the line before it (`prev`).
 */
export function closesTorn(note: ChainedLine, torn: string, prev: string): boolean {
  return note.torn === hashHex(torn) && note.prev === prev && note.reasonCode?.[0] === LOG_RECOVERED;
}
