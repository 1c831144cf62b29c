import type { Detection, StringSite } from "./scan.js";
import { formValue } from "./urls.js";

/*
 * (Thirteenth round) A form's body as the PII checks read it: `application/x-www-form-urlencoded`, the way a web
 * form, a paste site's API and many webhooks take their data (`content=Kline%2C%20Reece%20%20SSN%20…&expiry_days=7`,
 * `contractor_1=Ion Rusu&idnp_1=…&passport_1=…&contractor_2=…`). Read as one string, its values are percent-encoded
 * and its records are spread over keys that carry an index, so neither a label nor a list is found. This gives the
 * body's fields as strings of their own: each value decoded (`+` a space, `%XX` its byte), under its key; and keys
 * that carry an index (`name_1`, `name-2`, `name3`, `name[1]`, `people[1][name]`) grouped into records, one per
 * index, as the items of a JSON array are. The PII checks then read them as they read a JSON body's fields.
 *
 * What is a form body: two `key=value` pairs or more joined by `&` (or one pair whose value holds a `%XX` escape),
 * every key a name (a letter or `_` first, 64 characters at most), the string 64 KB at most; at most 256 pairs are
 * read. A URL's query string is not read here (a URL is judged by the exfiltration checks); nor is a string with a
 * line break (a form body is one line). Findings in a field stand for the whole body (its path, the whole string).
 */

const MAX_BODY = 64 * 1024;
const MAX_PAIRS = 256;
const KEY = /^[A-Za-z_][\w.\-[\]]{0,63}$/;
const INDEXED = /^([A-Za-z_][\w.-]{0,47}?)(?:[_-]?(\d{1,3})|\[(\d{1,3})\])(?:\[([A-Za-z_][\w.-]{0,47})\])?$/;

/** A synthetic site made from a form body, with the string it came from. */
export interface FormField extends StringSite {
  from: StringSite;
}

/** The fields of the form bodies among these strings (none when no string is one). */
export function formBodyFields(sites: readonly StringSite[]): FormField[] {
  const out: FormField[] = [];
  for (const site of sites) {
    const v = site.value;
    if (v.length < 8 || v.length > MAX_BODY || !v.includes("=") || v.includes("\n") || /^\s*(?:[[{<]|[a-z][a-z0-9+.-]{1,20}:\/\/)/i.test(v)) continue;
    const parts = v.split("&", MAX_PAIRS + 1);
    if (parts.length > MAX_PAIRS) continue;
    const pairs: [string, string][] = [];
    let ok = true;
    for (const p of parts) {
      const eq = p.indexOf("=");
      const k = eq > 0 ? p.slice(0, eq) : "";
      if (!KEY.test(k)) {
        ok = false;
        break;
      }
      pairs.push([k, p.slice(eq + 1)]);
    }
    if (!ok || pairs.length === 0 || (pairs.length === 1 && !/%[0-9A-Fa-f]{2}/.test((pairs[0] as [string, string])[1]))) continue;
    // Indexed keys: two indices or more, each with two fields or more, make records.
    const byIndex = new Map<number, [string, string][]>();
    for (const [k, x] of pairs) {
      const m = INDEXED.exec(k);
      if (!m) continue;
      const i = Number(m[2] ?? m[3]);
      const base = m[4] ?? (m[1] as string);
      let rec = byIndex.get(i);
      if (!rec) byIndex.set(i, (rec = []));
      rec.push([base, x]);
    }
    const records = [...byIndex.entries()].filter(([, r]) => r.length >= 2);
    const indexed = records.length >= 2;
    for (const [k, x] of pairs) {
      if (x.length === 0) continue;
      const m = indexed ? INDEXED.exec(k) : null;
      const i = m ? Number(m[2] ?? m[3]) : -1;
      if (m && (byIndex.get(i)?.length ?? 0) >= 2) out.push({ path: [...site.path, "(form)", i, m[4] ?? (m[1] as string)], value: formValue(x), from: site });
      else out.push({ path: [...site.path, "(form)", k], value: formValue(x), from: site });
    }
  }
  return out;
}

/** Findings in a form's fields, moved to the body they were read from (its path, the whole string). */
export function onFormBodies(found: Detection[], fields: readonly FormField[]): Detection[] {
  if (fields.length === 0) return found;
  return found.map((d) => {
    const f = fields.find((x) => x.path === d.path);
    return f ? { ...d, path: f.from.path, start: 0, end: f.from.value.length } : d;
  });
}

/*
 * (Eighteenth round, "pii18") A form's body written as JSON: `{"name":"…","passport":"…","dob":"…"}` in one string
 * argument of a call (an HTTP tool's `body`). It is the same thing as a form's fields — one object, each value one
 * field — only encoded, so its fields are read as the call's own arguments are, and one person's record typed into
 * the form of the service it is for (pii-form.ts) passes as it does when the tool takes those fields by name.
 *
 * Only a flat object is a form: every value a string, a number, a boolean or null (a nested object or an array is a
 * payload of records, read as before), 2 to 32 keys that are names, the string 4 KB at most, in a call's arguments.
 * The string is then judged through its fields only (the same text, not twice). Findings point at the whole string.
 */
const MAX_JSON_FORM = 4096;
const MAX_JSON_KEYS = 32;
/** Keys that say whose record a form holds or what it is for: a name, a holder, a booking, an order, an application. */
const FORM_OWNER_KEY = /(?:name|nom|nombre|nome|holder|titulaire|inhaber|passenger|traveller|traveler|applicant|pnr|booking|reserv|order|application|locator|confirmation)/i;
const JSON_KEY = /^[A-Za-z_][\w.-]{0,63}$/;

/** The fields of the flat JSON objects among a call's string arguments (none when no string is one). */
export function jsonFormFields(sites: readonly StringSite[]): FormField[] {
  const out: FormField[] = [];
  for (const site of sites) {
    const v = site.value;
    if (v.length < 8 || v.length > MAX_JSON_FORM || site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const t = v.trim();
    if (t[0] !== "{" || !sixDigits(t)) continue;
    if (t[t.length - 1] !== "}") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(t);
    } catch {
      continue;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) continue;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.length < 2 || entries.length > MAX_JSON_KEYS) continue;
    if (!entries.every(([k, x]) => JSON_KEY.test(k) && (x === null || ["string", "number", "boolean"].includes(typeof x)))) continue;
    // A form says whose record it is or what it is for: a name or a booking, order or application key beside the
    // numbers. An identity number and a birth date with neither (`{"ssn":…,"dob":…}`) is a record to enrich, not a form.
    if (!entries.some(([k]) => FORM_OWNER_KEY.test(k))) continue;
    for (const [k, x] of entries) if (x !== null && String(x) !== "") out.push({ path: [...site.path, "(json)", k], value: String(x), from: site });
  }
  return out;
}

/** Six digits or more: the fewest any identity number, card or account has (fewer, and no PII check finds one). */
function sixDigits(v: string): boolean {
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++n >= 6) return true;
  }
  return false;
}
