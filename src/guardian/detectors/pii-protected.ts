import type { Detection, StringSite } from "./scan.js";

/*
 * (Fourteenth round, "pii14") The identities of people whose identity is the secret (`pii_bulk.special`): a
 * newsroom's anonymous sources, a police or a regulator's informants, a whistleblower, a protected witness, the
 * residents of a refuge. Naming them with a way to reach them (a phone, an address, an e-mail) is the harm whoever
 * receives it; their number is small (two sources), so the bulk checks' three records never see them, and the text
 * that names them says what they are. It counts when one string
 *
 *   - names the protected role of people (`anonymous sources`, `confidential source`, `informants`, `the
 *     whistleblower`, `protected witness`, `anonymous in print`, `refuge residents`, in a few languages), not a channel
 *     or a rule for them (`whistleblowing officer`, `informant hotline`, `whistleblower policy`, `… protection act`);
 *   - and names two people or more, each followed closely (before the next name, 100 characters at most) by a phone
 *     number, an e-mail address or a street address; or one such person whom the same sentence names as the protected
 *     one (`our source in procurement is Daniel Reyes, +44 …`: the role, a linking word, the name, within 40 characters).
 *
 * Not counted: a story that cites anonymous sources without naming anyone; a whistleblowing policy with its
 * officers' or hotline's contacts; a press list (no protected role); one person's contact. Refused on the way off the
 * machine as the rest of `pii_bulk`. Cost: strings of 16 KB at most with a role word, 64 names each, bounded patterns.
 */

const MAX_TEXT = 16 * 1024;

/** A protected role of people, not of a channel, a rule or a law for them. */
const ROLE = /(?<![\p{L}])(?:(?:anonymous|confidential|protected|secret|unnamed)[ \t]{1,2}(?:sources?|informants?|witness(?:es)?)|source[ \t]list|(?:our|my)[ \t]sources?|(?:police|council|government|company|inside|internal)[ \t]sources?|(?:the[ \t]|our[ \t]|two[ \t]|three[ \t])?informants?|(?:the[ \t]|our[ \t])?whistle-?blowers?|anonymous[ \t]in[ \t]print|not[ \t]to[ \t]be[ \t]named|witness[ \t]protection|(?:refuge|shelter|safe[ \t-]?house)[ \t]residents?|fuentes?[ \t]an[óo]nimas?|fontes?[ \t]an[óo]nimas?|sources?[ \t]anonymes?|anonyme[ \t]quellen?|informant(?:in|en)|[źz]r[óo]d[łl](?:o|a)[ \t]anonimow[ey])(?![\p{L}])(?![ \t]{0,2}(?:officers?|hotlines?|lines?|channels?|polic(?:y|ies)|procedures?|programmes?|programs?|portals?|reports?|forms?|protection[ \t]act|directive|law|act|rules?|guidelines?|training|desk|inbox|mailbox|platform|tool|code|files?|trees?|maps?|data|systems?|repo|repository|of|material|text|language|control|links?|url|package|image)(?![\p{L}]))/iu;

/** A person: two to four capitalised words, or a first name and an initial (`Krzysztof D.`). */
const NAME = /(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]{1,20}(?:[ \t]{1,2}\p{Lu}[\p{Ll}'’-]{1,20}){1,3}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]{1,20}[ \t]\p{Lu}\.(?![\p{L}])/gu;
const CONTACT = /\+\d{1,3}[ \t.-]?\d{1,4}(?:[ \t.-]?\d{2,4}){2,4}(?!\d)|(?<![\d])0\d{2,4}[ \t.-]?\d{3,4}[ \t.-]?\d{3,4}(?!\d)|[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}\.[A-Za-z]{2,24}|(?<![\p{L}])(?:ul\.|ulica|street|st\.|road|rd\.|calle|rua|rue|via|stra(?:ss|ß)e|lane|avenue)[ \t]{0,2}\p{Lu}?[\p{L} ]{0,30}\d{1,4}|\d{1,4}[ \t]\p{Lu}[\p{Ll}]{2,20}[ \t](?:Street|St|Road|Rd|Lane|Avenue|Ave)\b/u;
/** Words a name-shaped run can be that are no one (the start of a sentence, a place, an organisation). */
const NOT_PERSON = /\b(?:street|road|office|ministry|council|agency|police|court|news|daily|times|post|press|group|ltd|inc|gmbh|bank|city|county|department)\b/i;

/** People named with a way to reach them, in a text that names their protected role (see above). */
export function detectProtected(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const v = site.value;
    if (v.length < 30 || v.length > MAX_TEXT || !/\d|@/.test(v)) continue;
    const role = ROLE.exec(v);
    if (role === null) continue;
    const names: { name: string; at: number; end: number }[] = [];
    NAME.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = NAME.exec(v)) !== null && names.length < 64; ) {
      if (NOT_PERSON.test(m[0])) continue;
      names.push({ name: m[0], at: m.index, end: m.index + m[0].length });
    }
    const reached = new Set<string>();
    let first = -1;
    names.forEach((n, i) => {
      const next = names[i + 1];
      const stop = Math.min(next === undefined ? v.length : next.at, n.end + 100);
      if (CONTACT.test(v.slice(n.end, stop))) {
        if (first < 0) first = n.at;
        reached.add(n.name);
      }
    });
    // One person, when the text says that person is the protected one: the role, then within 40 characters of the
    // same sentence a linking word (`is`, `are`, `was`, a colon or a dash), then the name with its contact.
    const named = (): boolean => {
      const after = role.index + role[0].length;
      return names.some((n) => {
        if (n.at < after || n.at - after > 40 || !reached.has(n.name)) return false;
        const between = v.slice(after, n.at);
        return !/[.!?]\s|\n/.test(between) && /(?:^|[^\p{L}])(?:is|are|was|were|ist|sind|es|son|est|sont|jest|[:—–-])(?:[^\p{L}]|$)/u.test(between);
      });
    };
    if (reached.size >= 2 || (reached.size === 1 && named())) out.push({ type: "pii_bulk.special", path: site.path, start: Math.max(0, first), end: Math.min(v.length, Math.max(0, first) + 240) });
  }
  return out;
}
