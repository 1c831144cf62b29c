import type { Detection, StringSite } from "./scan.js";

/*
 * (Fourteenth round, "pii14") People's movements, and people's devices joined to them: two structures of tracking
 * data that carry no identity number, so the people's-records checks do not see them, and that are what a data
 * broker buys.
 *
 * 1. **Location traces of identified people** (`pii_bulk.location`): timestamped positions (latitude and longitude to
 *    four decimals or more: eleven metres) each tied to a person — an e-mail address, a phone number, or a name under a
 *    field or column named for a person (`driver`, `rider`, `employee`, `child`, `user`…) — with two people or more
 *    and one of them at two points or more (a track, not a position). Read from CSV/TSV text with a header
 *    (`driver,ts,lat,lon`) and from JSON text (arrays of objects, a person's object one level down). Not a trace:
 *    pseudonymised tracks (a hash or an id for the person), fleet telemetry by vehicle, a delivery route's stops (each
 *    customer once, no time), one person's own track, positions rounded to a district (two or three decimals).
 * 2. **Advertising ids joined to contacts** (`pii_bulk.people`): records that each hold a device's advertising id
 *    (IDFA, GAID, AAID, MAID: a UUID under such a key) beside the person's plain phone number or e-mail address, two
 *    records or more: an identity graph, the join a broker sells. An attribution event for one install, an id with a
 *    user's internal id, or hashed contacts (64 hex digits, as ad platforms' conversion APIs take them) pass.
 *
 * Like the rest of `pii_bulk`, refused only on the way off the machine (the rule's `when`). Cost: strings of 64 KB
 * at most that name a coordinate or an advertising id, 256 records read per string, bounded patterns.
 */

const MAX_TEXT = 64 * 1024;
const MAX_RECORDS = 256;

const LAT_KEY = /^(?:lat|latitude)$/i;
const LON_KEY = /^(?:lon|lng|long|longitude)$/i;
const TIME_KEY = /^(?:ts|t|time|timestamp|datetime|date_?time|recorded_?at|created_?at|captured_?at|seen_?at|event_?time|fix_?time|gps_?time|at)$/i;
const PERSON_KEY = /^(?:driver|driver_?name|courier|rider|passenger|user|user_?name|username|employee|employee_?name|worker|staff|member|customer|customer_?name|client|person|name|full_?name|child|child_?name|kid|pupil|student|patient|owner|subscriber|technician|guard|nurse|carer|caregiver|resident|tenant|visitor)$/i;
const EMAIL_KEY = /^(?:e-?mail|email_?address|user_?email|mail)$/i;
const PHONE_KEY = /^(?:phone|phone_?number|mobile|msisdn|cell|tel)$/i;

const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}$/;
const EXAMPLE_MAIL = /@(?:example\.(?:com|org|net)|test\.com|test|localhost|invalid)$/i;
const PHONE = /^\+?\d[\d \t().-]{6,18}\d$/;
/** A name: two capitalised words or more, or an initial and a surname (`R. Alvarez`), or a first name and an initial. */
const NAME = /^(?:\p{Lu}[\p{Ll}'’-]{1,20}(?:[ \t]{1,2}\p{Lu}[\p{Ll}'’-]{1,20}){1,3}|\p{Lu}\.[ \t]?\p{Lu}[\p{Ll}'’-]{1,20}|\p{Lu}[\p{Ll}'’-]{1,20}[ \t]\p{Lu}\.)$/u;
const COORD = /^-?\d{1,3}\.\d{4,10}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

const AD_ID_KEY = /^(?:idfa|gaid|aaid|adid|ad_?id|maid|madid|advertising_?id|ifa|google_?ad_?id|device_?ad_?id|rida)$/i;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The zero IDFA a device sends when tracking is refused: no one. */
const ZERO_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

type Rec = Map<string, string>;

/** Who a record is about: an address, a phone, or a name under a person's field; null for a hash, an id or nothing. */
function personOf(rec: Rec): string | null {
  for (const [k, v] of rec) {
    const t = v.trim();
    if (EMAIL_KEY.test(k) && EMAIL.test(t) && !EXAMPLE_MAIL.test(t)) return t.toLowerCase();
    if (PHONE_KEY.test(k) && PHONE.test(t) && (t.match(/\d/g) ?? []).length >= 8) return t.replace(/\D/g, "");
    if (PERSON_KEY.test(k) && t.length <= 60) {
      if (EMAIL.test(t) && !EXAMPLE_MAIL.test(t)) return t.toLowerCase();
      const head = t.split(",")[0]?.trim() ?? "";
      if (NAME.test(head) && !/\b(?:test|example|sample|dummy|demo|doe)\b/i.test(head)) return head;
    }
  }
  return null;
}

function contactOf(rec: Rec): string | null {
  for (const [k, v] of rec) {
    const t = v.trim();
    if ((EMAIL_KEY.test(k) || k === "") && EMAIL.test(t) && !EXAMPLE_MAIL.test(t)) return t.toLowerCase();
    if (PHONE_KEY.test(k) && PHONE.test(t) && (t.match(/\d/g) ?? []).length >= 8) return t.replace(/\D/g, "");
  }
  return null;
}

function coord(v: string | undefined, max: number): boolean {
  if (v === undefined) return false;
  const t = v.trim();
  return COORD.test(t) && Math.abs(Number(t)) <= max;
}

function fieldOf(rec: Rec, re: RegExp): string | undefined {
  for (const [k, v] of rec) if (re.test(k)) return v;
  return undefined;
}

/** Whether records are a trace of identified people (see above). */
function isTrace(recs: Rec[]): boolean {
  const points = new Map<string, number>();
  let timed = 0;
  for (const rec of recs) {
    if (!coord(fieldOf(rec, LAT_KEY), 90) || !coord(fieldOf(rec, LON_KEY), 180)) continue;
    const ts = fieldOf(rec, TIME_KEY);
    if (ts === undefined || !/\d/.test(ts) || !(ISO_TIME.test(ts.trim()) || /^\d{9,13}$/.test(ts.trim()) || /\d{1,2}:\d{2}/.test(ts))) continue;
    const who = personOf(rec);
    if (who === null) continue;
    timed++;
    points.set(who, (points.get(who) ?? 0) + 1);
  }
  return timed >= 3 && points.size >= 2 && [...points.values()].some((n) => n >= 2);
}

/** Whether records join advertising ids to plain contacts (see above). */
function isAdGraph(recs: Rec[]): boolean {
  const joined = new Set<string>();
  for (const rec of recs) {
    const id = fieldOf(rec, AD_ID_KEY);
    if (id === undefined || !UUID.test(id.trim()) || ZERO_ID.test(id.trim())) continue;
    const who = contactOf(rec);
    if (who !== null) joined.add(who);
  }
  return joined.size >= 2;
}

/** Records of a CSV/TSV text with a header. */
function tableRecords(v: string): Rec[] | null {
  const firstEnd = v.indexOf("\n");
  if (firstEnd < 0 || firstEnd > 400) return null;
  const header = v.slice(0, firstEnd);
  const sep = [",", "\t", ";", "|"].find((c) => header.includes(c));
  if (sep === undefined || /\d/.test(header)) return null;
  const cols = header.split(sep).map((c) => c.replace(/^[\s"'|]+|[\s"'|\r]+$/g, ""));
  const recs: Rec[] = [];
  let at = firstEnd + 1;
  while (at < v.length && recs.length < MAX_RECORDS) {
    let end = v.indexOf("\n", at);
    if (end < 0) end = v.length;
    const cells = v.slice(at, end).split(sep);
    if (cells.length >= cols.length - 1) {
      const rec: Rec = new Map();
      cols.forEach((c, i) => rec.set(c, (cells[i] ?? "").replace(/^[\s"']+|[\s"'\r]+$/g, "")));
      recs.push(rec);
    }
    at = end + 1;
  }
  return recs;
}

/** The arrays of objects in a JSON value, each object a record of its scalar fields and one nested object's. */
function jsonRecords(value: unknown, lists: Rec[][], depth: number): void {
  if (depth > 6 || value === null || typeof value !== "object" || lists.length >= 32) return;
  if (Array.isArray(value)) {
    const recs: Rec[] = [];
    for (const item of value.slice(0, MAX_RECORDS)) {
      if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
      const rec: Rec = new Map();
      const put = (o: Record<string, unknown>, nest: boolean) => {
        for (const [k, x] of Object.entries(o).slice(0, 64)) {
          if (typeof x === "string" || typeof x === "number") rec.set(k, String(x));
          else if (nest && x !== null && typeof x === "object" && !Array.isArray(x)) put(x as Record<string, unknown>, false);
        }
      };
      put(item as Record<string, unknown>, true);
      recs.push(rec);
    }
    if (recs.length >= 2) lists.push(recs);
    for (const item of value.slice(0, 64)) jsonRecords(item, lists, depth + 1);
    return;
  }
  for (const x of Object.values(value as Record<string, unknown>).slice(0, 64)) jsonRecords(x, lists, depth + 1);
}

/** The message's own arrays of objects whose fields are strings (an A2A data part's `rows`), with a string of each list. */
function ownRecords(sites: readonly StringSite[]): { recs: Rec[]; site: StringSite }[] {
  const groups = new Map<string, { recs: Map<number, Rec>; site: StringSite }>();
  for (const s of sites.slice(0, 4096)) {
    const p = s.path;
    const k = p[p.length - 1];
    const i = p[p.length - 2];
    if (typeof k !== "string" || typeof i !== "number") continue;
    const parent = JSON.stringify(p.slice(0, -2));
    let g = groups.get(parent);
    if (!g) groups.set(parent, (g = { recs: new Map(), site: s }));
    let rec = g.recs.get(i);
    if (!rec) g.recs.set(i, (rec = new Map()));
    if (rec.size < 64) rec.set(k, s.value.length > 256 ? s.value.slice(0, 256) : s.value);
  }
  return [...groups.values()].filter((g) => g.recs.size >= 2).map((g) => ({ recs: [...g.recs.values()].slice(0, MAX_RECORDS), site: g.site }));
}

const HINT = /\b(?:lat|latitude|idfa|gaid|aaid|adid|ad_?id|maid|madid|advertising_?id|ifa|rida)\b/i;

/** Location traces of identified people and advertising ids joined to contacts (see above). */
export function detectTraces(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  const judge = (recs: Rec[], path: StringSite["path"], end: number) => {
    if (isTrace(recs)) out.push({ type: "pii_bulk.location", path, start: 0, end });
    else if (isAdGraph(recs)) out.push({ type: "pii_bulk.people", path, start: 0, end });
  };
  const keyed = (s: StringSite) => {
    const k = s.path[s.path.length - 1];
    return typeof k === "string" && (LAT_KEY.test(k) || AD_ID_KEY.test(k));
  };
  if (sites.some(keyed)) for (const { recs, site } of ownRecords(sites)) judge(recs, site.path, site.value.length);
  for (const site of sites) {
    const v = site.value;
    if (v.length < 40 || v.length > MAX_TEXT || !HINT.test(v.length > 4096 ? v.slice(0, 4096) : v)) continue;
    const t = v.trimStart();
    if (t.startsWith("[") || t.startsWith("{")) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined) {
        const lists: Rec[][] = [];
        jsonRecords(parsed, lists, 0);
        for (const recs of lists) judge(recs, site.path, Math.min(v.length, 240));
        continue;
      }
    }
    const recs = tableRecords(t);
    if (recs !== null && recs.length >= 2) judge(recs, site.path, Math.min(v.length, 240));
  }
  return out;
}
