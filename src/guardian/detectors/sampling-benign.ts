/*
 * Seventeenth round ("smp17"): sampling prompts that name secrets or a payment change and ask for neither. A system
 * prompt is all instructions, so naming a secret there is the task as often as the attack (injection.ts weighs it
 * 1.5); two structures make the naming harmless whatever the domain, and the scorer drops its secret and recipient
 * signals for a unit of a prompt that has one of them (and no address):
 *
 * - **Secrets named only under a prohibition, or as a process**: every secret word of the sentence stands in a list
 *   governed by "never / do not / must not" + a handling verb ("never ask users for passwords, PINs or VPN
 *   credentials; never repeat any you see"), or is the first half of a process noun ("password resets", "PIN change",
 *   "key rotation"). One secret word outside those ("…; then send the passwords to …") and the guard does not hold.
 * - **A wrongdoer's act described for the reader to guard against**: the act's subject is the wrongdoer
 *   ("fraudsters send 'new bank details'", "scammers ask for the code") and the sentence gives the reader a defence
 *   ("always verify by phone", "never share", "report it"). An order to the model has the model as its subject.
 *
 * Bounded regexes over one unit (its first 2,000 characters). Look-alikes in test/fixtures/corpus/smp17.test.yaml.
 */

const SECRET_WORD = String.raw`(?:passwords?|passcodes?|passphrases?|pins?|credentials?|tokens?|api\s{1,3}keys?|keys?|secrets?|otps?|one-time\s{1,3}codes?|(?:verification|security|2fa|mfa)\s{1,3}codes?|cvvs?|card\s{1,3}numbers?|account\s{1,3}numbers?)`;
const SECRET_RE = new RegExp(String.raw`\b${SECRET_WORD}\b`, "gi");
/** A prohibition on handling and the list of secrets it governs. */
const FORBIDDEN_LIST = new RegExp(
  String.raw`\b(?:never|do\s{1,3}not|don't|must\s{1,3}not|should\s{1,3}not|may\s{1,3}not)\s{1,3}(?:ever\s{1,3})?(?:ask|request|collect|store|repeat|share|log|print|reveal|send|include|output|echo|save|accept|disclose|expose|quote|copy)\w{0,3}\b[^.;:,!?\n]{0,40}?\b${SECRET_WORD}(?:(?:\s{0,2},\s{0,2}|\s{1,3}(?:or|and|nor)\s{1,3})(?:[\w-]{1,12}\s{1,3}){0,2}?${SECRET_WORD})*\b`,
  "gi",
);
/** A secret word that is the first half of a process noun: "password resets", "PIN change", "key rotation". */
const PROCESS_AFTER = /^\s{1,3}(?:resets?|changes?|recovery|rotations?|expiry|expiration|policy|policies|manager|strength|requirements?|rules?|hygiene|reuse|complexity)\b/i;

/** Every secret word of the unit under a prohibition or in a process noun, and at least one prohibition. */
export function secretsOnlyForbidden(unit: string): boolean {
  const u = unit.length > 2000 ? unit.slice(0, 2000) : unit;
  const covered: [number, number][] = [];
  FORBIDDEN_LIST.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = FORBIDDEN_LIST.exec(u)) !== null; ) covered.push([m.index, m.index + m[0].length]);
  if (covered.length === 0) return false;
  SECRET_RE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = SECRET_RE.exec(u)) !== null; ) {
    const at = m.index;
    if (covered.some(([s, e]) => at >= s && at < e)) continue;
    if (PROCESS_AFTER.test(u.slice(at + m[0].length, at + m[0].length + 20))) continue;
    return false;
  }
  return true;
}

/** The act's subject is a wrongdoer, and the sentence gives the reader a defence. */
const WRONGDOER =
  /\b(?:fraudsters?|scammers?|attackers?|criminals?|phishers?|impostors?|imposters?|hackers?|crooks?|con\s{1,3}artists?|thieves|spammers?|betrüger|estafadores?|fraudeurs?|golpistas?|oszuści|truffatori)\s{1,3}(?:often\s{1,3}|may\s{1,3}|might\s{1,3}|will\s{1,3}|usually\s{1,3}|sometimes\s{1,3}|can\s{1,3})?(?:send|ask|request|call|pose|pretend|claim|use|email|e-mail|text|change|spoof|impersonate|schicken|senden|envían|piden|envoient|demandent|enviam|pedem|wysyłają|proszą|inviano|chiedono)\w{0,2}\b/i;
const DEFENCE =
  /\b(?:always\s{1,3}(?:verify|check|confirm|call)|verify|never\s{1,3}(?:share|click|send|give|pay|change|reply)|do\s{1,3}not\s{1,3}(?:share|click|send|give|pay|change|reply)|report\s{1,3}(?:it|them|this|suspicious)|beware|be\s{1,3}careful|watch\s{1,3}out|using\s{1,3}the\s{1,3}number\s{1,3}on\s{1,3}file|awareness|training)\b/i;

export function wrongdoerDescribed(unit: string): boolean {
  const u = unit.length > 2000 ? unit.slice(0, 2000) : unit;
  return WRONGDOER.test(u) && DEFENCE.test(u);
}

/*
 * Twenty-first round ("cps21"): **an event reported is not an ask**. "Ticket: the user pasted the Wi-Fi password by
 * mistake" names what the user did as the subject of its sentence; the session's data is asked for only as an
 * object — "the PIN the user typed", "repeat what the user shared". A clause that opens with the user as the subject of
 * a past act (after a label, a stop or nothing; "the", "a", "our" allowed) is removed before the session is looked
 * for, in a unit that asks the model for nothing (injection.ts, promptAsks).
 */
const REPORTED_ACT =
  /(?:^|[.;:!?\n(]|\s-\s)\s{0,3}(?:(?:the|a|an|our|one|this)\s{1,3})?user\s{1,3}(?:(?:has|had|have)\s{1,3})?(?:accidentally\s{1,3}|mistakenly\s{1,3}|inadvertently\s{1,3})?(?:shared|provided|gave|sent|typed|pasted|stored|saved|configured)\b/gi;

/** The unit with every clause that reports the user's own past act cut out. */
export function unreported(unit: string): string {
  const u = unit.length > 2000 ? unit.slice(0, 2000) : unit;
  return u.replace(REPORTED_ACT, " ");
}
