import { canonicalize } from "../protocol/canonical.js";
import type { DecisionInput } from "./record.js";

/**
 * The parts of a line that repeat from line to line, each made once: the `ruleset`/`replica` stamp, the time text,
 * the session's fields and short quoted strings. Every function here returns exactly what `canonicalize` would for its
 * value (line.ts relies on it); they only avoid making it again.
 */

/**
 * The `ruleset` and `replica` a line carries unless it names its own: the rules in force and this writer's replica,
 * quoted once (again only when the rules change), so stamping a line costs a comparison and a concatenation.
 */
export class Stamp {
  private hash: string | undefined;
  private hashField = "";
  private readonly replicaField: string;

  constructor(
    readonly replica: string | undefined,
    private readonly current: (() => string) | undefined,
  ) {
    this.replicaField = replica === undefined ? "" : `,"replica":${canonicalize(replica)}`;
  }

  ruleset(input: DecisionInput): string | undefined {
    return input.ruleset ?? this.current?.();
  }

  /** `,"ruleset":…,"replica":…` for this line, in the documented order (each left out when unknown). */
  fields(input: DecisionInput): string {
    const hash = this.ruleset(input);
    if (hash !== this.hash) {
      this.hash = hash;
      this.hashField = hash === undefined ? "" : `,"ruleset":${canonicalize(hash)}`;
    }
    return this.hashField + (input.replica === undefined ? this.replicaField : `,"replica":${canonicalize(input.replica)}`);
  }
}

/**
 * A message digest is 64 hex digits made by guardwire (`hash(…, "hex")`), new on every line: quoted as it is, not
 * looked up in (and crowding out) the cache of repeated strings, nor scanned (which costs as much as the lookup here).
 */
export function digestField(d: string | null): string {
  return typeof d === "string" && d.length === 64 ? '"' + d + '"' : canonicalize(d);
}

/** `,"session":…,"route":…,"transport":…,"protocol":…`: the same for every line of a session, made once per run of them. */
const lastSession = { session: "", route: "", transport: "", protocol: "", text: "" };
export function sessionFields(r: DecisionInput): string {
  const l = lastSession;
  if (l.text === "" || l.session !== r.session || l.route !== r.route || l.transport !== r.transport || l.protocol !== r.protocol) {
    l.text = `,"session":${str(r.session)},"route":${str(r.route)},"transport":${str(r.transport)},"protocol":${str(r.protocol)}`;
    l.session = r.session;
    l.route = r.route;
    l.transport = r.transport;
    l.protocol = r.protocol;
  }
  return l.text;
}

/** Short strings repeat from line to line (session, route, decision, message…): each is escaped once. Bounded. */
const quotedStrings = new Map<string, string>();
export function str(s: string): string {
  let q = quotedStrings.get(s);
  if (q === undefined) {
    q = canonicalize(s);
    if (s.length <= 64) {
      if (quotedStrings.size >= 4096) quotedStrings.clear();
      quotedStrings.set(s, q);
    }
  }
  return q;
}

/** A string or null (method, tool, agent). */
export const opt = (s: string | null | undefined): string => (typeof s === "string" ? str(s) : canonicalize(s ?? null));

/** A list of strings (rules, reason codes). */
export function strings(xs: readonly string[] | undefined): string {
  if (!Array.isArray(xs)) return canonicalize(xs ?? null);
  if (xs.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < xs.length; i++) out += (i > 0 ? "," : "") + (typeof xs[i] === "string" ? str(xs[i] as string) : canonicalize(xs[i]));
  return out + "]";
}

/**
 * toISOString is costly per call, and decisions come many per millisecond under load, or one per millisecond when
 * calls are sparse: the text up to the seconds is made once per second, the milliseconds are appended.
 */
let lastMs = -1;
let lastIso = "";
let lastSecond = -1;
let secondPrefix = "";
export function isoNow(): string {
  return isoAt(Date.now());
}

/** `new Date(ms).toISOString()`, for the times of 0000–9999 (any time a log line is written). */
export function isoAt(ms: number): string {
  if (ms === lastMs) return lastIso;
  lastMs = ms;
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    secondPrefix = new Date(second * 1000).toISOString().slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
  }
  const milli = ms - second * 1000;
  lastIso = secondPrefix + (milli < 10 ? "00" : milli < 100 ? "0" : "") + milli + "Z";
  return lastIso;
}
