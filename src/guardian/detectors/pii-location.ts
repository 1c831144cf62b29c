import { firstPerson } from "./pii-checks.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * Where people live, by coordinates (`pii_bulk.location`, tenth round): a person's name beside their home's latitude
 * and longitude (a home word just before the pair, or just after it as the point's own label: eleventh round). Two people's homes in one message (drivers', employees', patients' — a GPX track's names, a sheet, a
 * list) are a register of where people live; one person's home with a day's timetable around it (three clock times
 * or more: when they leave, where they go) is a movement profile — what is needed to find someone. Both are refused
 * on their way off the machine like the rest of `pii_bulk`.
 *
 * What it is not: coordinates without a home (a shop, an office, a run's track, a photo's place), a home without a
 * person's name (a house for sale), the user's own (first person: "I", "my", "we", "our" — sharing one's own ETA or
 * home pin with a partner), a map's or an API's documentation (fewer than four decimals: a city's centre, not a house).
 * Cost: only strings with a digit, a `.` and a home word are read, at most 64 coordinate pairs each, bounded patterns.
 */

/** A latitude/longitude pair to four decimals or more, written `53.4794,-2.2453`, `lat="6.45" lon="3.39"` and so on. */
const PAIR = /(?<![\d.])(-?\d{1,2}\.\d{4,8})[ \t]{0,2}[,;/][ \t]{0,2}(-?\d{1,3}\.\d{4,8})(?![\d.])|lat(?:itude)?["']?[ \t]{0,2}[:=][ \t]{0,2}["']?(-?\d{1,2}\.\d{4,8})["']?[ \t,]{0,3}(?:lon|lng|long|longitude)["']?[ \t]{0,2}[:=][ \t]{0,2}["']?(-?\d{1,3}\.\d{4,8})/gi;
const HOME = /(?<![\p{L}])(?:home|lives|residence|resides|domicile|zuhause|wohnung|wohnort|domicilio|casa|maison|kotona|hjemme|hemma|thuis|自宅|住所|집)(?![\p{L}])/iu;
/** A person's name: two to four capitalised words, or a first name and an initial (`Sofia R.`). */
const NAME = /(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]{1,20}(?:[ \t]{1,3}\p{Lu}[\p{Ll}'’-]{1,20}){1,3}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]{1,20}[ \t]\p{Lu}\.(?![\p{L}])/gu;
const FOUR_DECIMALS = /\d\.\d{4}/;
const CLOCK = /(?<![\d:])(?:[01]?\d|2[0-3])[:.h][0-5]\d(?![\d:])/g;
const NOT_PERSON = /\b(?:street|road|lane|avenue|station|park|office|depot|centre|center|mall|hotel|airport|gym|school|hospital|ltd|gmbh|inc)\b/i;

/** The names in a window of text before a place (the nearest last), persons only. */
function nameBefore(v: string, at: number): string | null {
  const window = v.slice(Math.max(0, at - 120), at);
  let last: string | null = null;
  NAME.lastIndex = 0;
  for (let m: RegExpExecArray | null, n = 0; (m = NAME.exec(window)) !== null && n < 16; n++) if (!NOT_PERSON.test(m[0])) last = m[0];
  return last;
}

/** The text just after a pair, up to the next line, the next number with decimals (the next point) or 40 characters. */
function labelAfter(v: string, at: number): string {
  const after = v.slice(at, at + 40);
  const cut = after.search(/\n|\d\.\d/);
  return cut >= 0 ? after.slice(0, cut) : after;
}

export function homeLocations(sites: StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const v = site.value.length > 65536 ? site.value.slice(0, 65536) : site.value;
    if (v.length < 16 || !v.includes(".") || !FOUR_DECIMALS.test(v) || !HOME.test(v)) continue;
    const homes = new Map<string, { start: number; end: number }>();
    PAIR.lastIndex = 0;
    for (let m: RegExpExecArray | null, n = 0; (m = PAIR.exec(v)) !== null && n < 64; n++) {
      // A home word just before the pair (within the same record: 60 characters, no line break).
      const before = v.slice(Math.max(0, m.index - 60), m.index);
      const cut = before.lastIndexOf("\n");
      const near = cut >= 0 ? before.slice(cut + 1) : before;
      // (Eleventh round) or just after it, as a point's own label (a GPX waypoint's `<name>Home</name>`, a trace's
      // `[52.51,13.47,"07:41 home"]`): up to 40 characters, before the next pair or line.
      if (!HOME.test(near) && !HOME.test(labelAfter(v, m.index + m[0].length))) continue;
      const name = nameBefore(v, m.index);
      if (name === null || homes.has(name)) continue;
      homes.set(name, { start: m.index, end: m.index + m[0].length });
    }
    if (homes.size === 0 || firstPerson(v.slice(0, 4096), true)) continue;
    const clocks = homes.size === 1 ? (v.slice(0, 4096).match(CLOCK) ?? []).length : 0;
    if (homes.size >= 2 || clocks >= 3) for (const h of homes.values()) out.push({ type: "pii_bulk.location", path: site.path, start: h.start, end: h.end });
  }
  return out;
}
