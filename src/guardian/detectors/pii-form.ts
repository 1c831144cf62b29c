import { DEFAULT_COLLECTORS, DEFAULT_TUNNELS } from "./exfiltration.js";
import { hostMatcher } from "./urls.js";
import { firstPerson } from "./pii-checks.js";
import type { StringSite } from "./scan.js";

/*
 * (Ninth round) One person's record typed into one web form: not bulk.
 *
 * A booking, a tax return or a checkout is a form whose fields each hold one value: a name, an identity number or two
 * (a RUT and a passport), a birth date, a card with its expiry and CVC. `pii_bulk` counts an identity number with a
 * birth date, two identity numbers, or a card with its CVV as a record worth refusing; typed into the form of the
 * service the user is dealing with, such a record is the ordinary use of it, and refusing it refuses every booking
 * and payment an agent makes. What makes it one record rather than bulk is its structure, whatever the country:
 *
 *   - a tool call (MCP), whose numbers are each the whole value of a field (`"rut": "19.903.634-3"`), never inside
 *     free text (a body, a note, an SMS: prose about someone goes where it was written to, not into a form);
 *   - all those fields siblings of one object that is not an element of a list (a list of applicants is bulk), under
 *     names without a number (`ssn`, not `ssn_2` or `passenger2_passport`);
 *   - at most two identity numbers, of different fields, at most one card and at most one birth date;
 *   - the call names the form's web address: an `https://` URL among the call's top-level arguments, to a named host
 *     (not an IP literal), that is not a request collector, a tunnel, a file drop or a paste site (those are where
 *     stolen records go, one at a time or not).
 *
 * Left to other checks: whether that host is the party the record belongs with (a phishing form that asks for the
 * user's own card looks like a checkout; the instruction that sends an agent there is judged where it comes in).
 */

const COLLECTORS = [...DEFAULT_COLLECTORS, ...DEFAULT_TUNNELS].map(hostMatcher);

export interface FormHit {
  site: StringSite;
  start: number;
  end: number;
}

/** Whether the identity numbers and cards found make one record typed into one web form (see above). */
export function oneFormRecord(
  sites: readonly StringSite[],
  ids: readonly FormHit[],
  cards: readonly FormHit[],
  dobKey: RegExp,
  schema: () => unknown = () => undefined,
  namesField: (key: string) => boolean = () => false,
): boolean {
  if (ids.length > 2 || cards.length > 1 || ids.length + cards.length === 0) return false;
  let parent: string | null = null;
  let a2a = false;
  const keys = new Set<string>();
  const named: string[] = [];
  for (const h of [...ids, ...cards]) {
    const path = h.site.path;
    // (Eleventh round) an A2A data part's one object: `params.message.parts[i].data.<field>`.
    const inPart = path[0] === "params" && path[1] === "message" && path[2] === "parts" && typeof path[3] === "number" && path[4] === "data" && path.length >= 6;
    if (!inPart && (path[0] !== "params" || path[1] !== "arguments" || path.length < 3)) return false;
    a2a = inPart;
    const last = path[path.length - 1];
    if (typeof last !== "string" || /\d/.test(last)) return false;
    if (path.some((p, i) => typeof p === "number" && !(inPart && i === 3))) return false;
    // The number is the field's whole value.
    const v = h.site.value;
    if (v.slice(0, h.start).trim() !== "" || v.slice(h.end).trim() !== "") return false;
    const at = JSON.stringify(path.slice(0, -1));
    if (parent === null) parent = at;
    else if (parent !== at) return false;
    keys.add(last.toLowerCase());
    named.push(last);
  }
  if (keys.size !== ids.length + cards.length) return false;
  // At most one birth date among the form's fields.
  let dobs = 0;
  for (const s of sites) {
    const last = s.path[s.path.length - 1];
    if (typeof last === "string" && dobKey.test(last) && JSON.stringify(s.path.slice(0, -1)) === parent && ++dobs > 1) return false;
  }
  // (Eleventh round) A2A: the message's own words say whose record it is (the first person: "apply for my visa").
  // (Eighteenth round) or they cite the person's recorded consent to this processing by its reference ("consent
  // C-88121", "Einwilligung Nr. 4471"): what makes a screening, a KYC check or a referral of one person lawful.
  if (a2a) return sites.some((s) => s.path[0] === "params" && s.path[2] === "parts" && s.path[4] === "text" && s.path.length === 5 && (firstPerson(s.value.slice(0, 4096)) || consentCited(s.value.slice(0, 4096))));
  if (sites.some((s) => s.path.length === 3 && s.path[0] === "params" && s.path[1] === "arguments" && formAddress(s.value))) return true;
  // (Eleventh round) or the tool is the form: its input schema (pinned from tools/list) declares each of those fields
  // as a top-level property of its own, named for what it holds (an airline's `passport`, a tax service's `sin`, a
  // shop's `card_number`), so the tool exists to receive exactly this value, one person's; a body, a text or a message
  // is never such a field, even when what it holds fills it whole (a passport's machine-readable zone).
  return named.every(namesField) && declaresAll(schema(), named, parent);
}

/** Whether an input schema declares every key as a top-level property (and the fields are top-level arguments). */
function declaresAll(schema: unknown, keys: readonly string[], parent: string | null): boolean {
  if (parent !== JSON.stringify(["params", "arguments"]) || schema === null || typeof schema !== "object") return false;
  const props = (schema as Record<string, unknown>).properties;
  if (props === null || typeof props !== "object" || Array.isArray(props)) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(props, k));
}

/** An https URL to a named host that is not a collector, a tunnel, a file drop or a paste site. */
function formAddress(v: string): boolean {
  if (v.length > 2048 || !/^https:\/\//i.test(v.trim())) return false;
  let host: string;
  try {
    const u = new URL(v.trim());
    if (u.username !== "" || u.password !== "") return false;
    host = u.hostname.toLowerCase();
  } catch {
    return false;
  }
  if (/^[\d.]+$/.test(host) || host.startsWith("[") || !host.includes(".")) return false;
  return !COLLECTORS.some((re) => re.test(host));
}

/**
 * (Eighteenth round) A consent or an authorisation cited by its reference: the word, then within a few characters a
 * reference holding a digit (`consent C-88121`, `authorization #A7731`, `consentimiento nº 5521`, `zgoda 2026/114`).
 * The word alone ("with her consent") is no record of it.
 */
const CONSENT = /(?<![\p{L}])(?:consent|authori[sz]ation|signed release|mandate|consentimiento|autorizaci[óo]n|consentement|autorisation|einwilligung|einverst[äa]ndniserkl[äa]rung|consenso|autorizzazione|consentimento|autoriza[çc][ãa]o|zgoda|toestemming|samtycke|samtykke|suostumus)(?![\p{L}])[ \t:#.,nº°o]{0,6}(?:no\.?|nr\.?|ref\.?|id)?[ \t:#.]{0,3}[A-Z]{0,4}[-/]?\d[\w/-]{1,20}/iu;
export function consentCited(text: string): boolean {
  return CONSENT.test(text);
}
