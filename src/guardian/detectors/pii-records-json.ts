import type { Detection, StringSite } from "./scan.js";

/*
 * (Eleventh round) People's records as JSON objects (`pii_bulk.records`): the customer or staff export that
 * pii-bulk.ts's records table reads as a CSV (a birth-date column beside a contact column, three rows or more), written
 * as an array of objects — an API body's `rows`, `users` or `members`, an A2A data part's list, the items of an array
 * in the call's own arguments. Each record is an object with a key naming a birth date whose value is a date, and a
 * key naming a contact (an e-mail address, a phone, a home address) with a value; three such records with different
 * contacts are bulk, whatever the objects are called and whatever else they hold (usernames, IP addresses, a country).
 *
 * Why it is general: it knows keys, not a service or a country; the same keys in a CSV header were already bulk.
 * What passes: fewer than three records (a family's booking, one user's profile); records with a date that is not a
 * birth date (`created_at`, `last_login`); records without a contact (a list of birthdays for a team's calendar);
 * a list mostly of placeholders (`user1@example.com`, `test@…`, `Jane Doe`) — test fixtures. Like the rest of
 * `pii_bulk` it is refused only on its way off the machine. Cost: only strings under a birth-date key or JSON texts of
 * 64 KB at most that name one are read; at most 256 objects in all, JSON nested six deep.
 */

const MAX_TEXT = 64 * 1024;
const MAX_OBJECTS = 256;

/** Keys naming a birth date, compacted (lowercase, no `_`, `-`, space): `dob`, `date_of_birth`, `birthDate`, `geburtsdatum`. */
const BIRTH_KEYS = new Set([
  "dob", "birth", "birthdate", "dateofbirth", "birthday", "bday", "geburtsdatum", "geburtstag", "fechanacimiento", "fechadenacimiento",
  "datenaissance", "datedenaissance", "datanascita", "datadinascita", "datanascimento", "datadenascimento", "geboortedatum",
  "fodselsdato", "födelsedatum", "syntymäaika", "dataurodzenia",
]);
/** Keys naming a contact: an e-mail address, a phone, a home address. */
const CONTACT_KEYS = new Set([
  "email", "emailaddress", "mail", "phone", "phonenumber", "mobile", "mobilephone", "mobilenumber", "cell", "cellphone", "tel",
  "telephone", "address", "homeaddress", "streetaddress", "street", "postaladdress", "telefon", "telefonnummer", "handy", "adresse",
  "anschrift", "direccion", "dirección", "telefono", "teléfono", "movil", "móvil", "correo", "courriel", "indirizzo", "cellulare",
  "endereco", "endereço", "telefoon", "adres", "puhelin", "osoite",
]);
/** A key is read after compacting: `date_of_birth`, `Date-Of-Birth`, `birthDate` → `dateofbirth`, `birthdate`. */
const compact = (k: string) => (k.length > 40 ? "" : k.toLowerCase().replace(/[\s_.-]+/g, ""));
const BIRTH_HINT = /dob|birth|geburt|nacim|naiss|nascit|nascim|geboorte|f[öø]d|syntym|urodz/i;
/** A date: `1994-03-12`, `12.03.1994`, `03/12/1994`, an ISO timestamp. */
const DATE = /^\s*(?:(?:19|20)\d{2}[-./](?:0?[1-9]|1[0-2])[-./](?:0?[1-9]|[12]\d|3[01])(?:T[\d:.]{2,12}(?:Z|[+-]\d{2}:?\d{2})?)?|(?:0?[1-9]|[12]\d|3[01])[-./](?:0?[1-9]|1[0-2])[-./](?:19|20)\d{2})\s*$/;
/** Test fixtures' contacts and names. */
const PLACEHOLDER = /@(?:example\.(?:com|org|net)|test\.com|localhost)\b|^(?:test|user|foo|bar|john\.?doe|jane\.?doe)\d*@|^\s*(?:\+?1 ?)?555[ .-]?01\d\d\s*$|^0{3,}/i;

interface Rec {
  birth: string | null;
  contact: string | null;
  placeholder: boolean;
}

function readRecord(entries: Iterable<[string, unknown]>, r: Rec = { birth: null, contact: null, placeholder: false }, nested = true): Rec {
  let n = 0;
  for (const [k, v] of entries) {
    if (++n > 64) break;
    // (Thirteenth round) the person one object down: an error event's `user`, a CRM record's `contact` or `profile`
    // (`{"user":{"email":…,"dob":…},"error":…}`). One level is read.
    if (nested && v !== null && typeof v === "object" && !Array.isArray(v)) {
      readRecord(Object.entries(v as Record<string, unknown>), r, false);
      continue;
    }
    if (typeof v !== "string" || v.length === 0 || v.length > 256) continue;
    const key = compact(k);
    if (BIRTH_KEYS.has(key)) {
      if (DATE.test(v)) r.birth = v;
    } else if (CONTACT_KEYS.has(key) && /[\d@]/.test(v)) {
      r.contact ??= v.trim().toLowerCase();
      if (PLACEHOLDER.test(v)) r.placeholder = true;
    }
  }
  return r;
}

/** Whether a list of records is people's records in bulk: three with a birth date and different contacts, not placeholders. */
function bulk(recs: readonly Rec[]): boolean {
  const full = recs.filter((r) => r.birth !== null && r.contact !== null);
  const contacts = new Set(full.map((r) => r.contact));
  const placeholders = full.filter((r) => r.placeholder).length;
  return contacts.size >= 3 && placeholders * 2 < full.length;
}

/** Arrays of objects in a parsed JSON value (six deep at most), each judged as a list. */
function walk(value: unknown, depth: number, budget: { left: number }): boolean {
  if (depth > 6 || value === null || typeof value !== "object" || budget.left <= 0) return false;
  if (Array.isArray(value)) {
    const recs: Rec[] = [];
    for (const item of value.slice(0, 64)) {
      if (--budget.left < 0) break;
      if (item !== null && typeof item === "object" && !Array.isArray(item)) recs.push(readRecord(Object.entries(item as Record<string, unknown>)));
    }
    if (recs.length >= 3 && bulk(recs)) return true;
    for (const item of value.slice(0, 64)) if (walk(item, depth + 1, budget)) return true;
    return false;
  }
  for (const x of Object.values(value as Record<string, unknown>).slice(0, 64)) if (walk(x, depth + 1, budget)) return true;
  return false;
}

/** People's records as JSON objects in one message (see above). */
export function jsonRecords(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  // The items of arrays in the message itself: `[..., i, key]` paths grouped by the array's path.
  const groups = new Map<string, Map<number, [string, unknown][]>>();
  let birthKeyed = false;
  for (const s of sites.length > 4096 ? sites.slice(0, 4096) : sites) {
    const p = s.path;
    const key = p[p.length - 1];
    // (Thirteenth round) or one object down (`[…, i, "user", "dob"]`).
    const down = typeof p[p.length - 2] === "string" && typeof p[p.length - 3] === "number" ? 1 : 0;
    const at = p[p.length - 2 - down];
    if (typeof key === "string" && BIRTH_KEYS.has(compact(key))) birthKeyed = true;
    if (typeof key !== "string" || typeof at !== "number") continue;
    const parent = JSON.stringify(p.slice(0, -2 - down));
    let g = groups.get(parent);
    if (!g) groups.set(parent, (g = new Map()));
    let rec = g.get(at);
    if (!rec) g.set(at, (rec = []));
    rec.push([key, s.value]);
  }
  if (birthKeyed) {
    for (const [parent, g] of groups) {
      if (g.size < 3) continue;
      const recs = [...g.values()].slice(0, 64).map((entries) => readRecord(entries));
      if (bulk(recs)) {
        const site = sites.find((s) => JSON.stringify(s.path.slice(0, -2)) === parent || JSON.stringify(s.path.slice(0, -3)) === parent) as StringSite;
        out.push({ type: "pii_bulk.records", path: site.path, start: 0, end: site.value.length });
      }
    }
  }
  // JSON texts an argument carries (an HTTP body, a file's bytes).
  const budget = { left: MAX_OBJECTS };
  for (const s of sites) {
    const v = s.value;
    if (v.length < 40 || v.length > MAX_TEXT || budget.left <= 0) continue;
    const t = v.trimStart();
    if (!(t.startsWith("[") || t.startsWith("{")) || !BIRTH_HINT.test(v)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      continue;
    }
    if (walk(parsed, 0, budget)) out.push({ type: "pii_bulk.records", path: s.path, start: 0, end: Math.min(v.length, 240) });
  }
  return out;
}
