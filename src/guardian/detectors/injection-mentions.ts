/*
 * Fourteenth round ("inj14"), benign guards: an attack *told about* is not an attack *made*. Three of the class's false
 * positives of sets 26 to 29 were texts that report what someone else typed or planted or tried — a reader's comment
 * ("before someone types 'ignore previous instructions …' into your new chatbot"), a podcast transcript ("the
 * researcher hid a line in a product review that said, basically, ignore your previous instructions …"), an analytics
 * report ("one survey answer tried to instruct AI summarisers to paste admin credentials"). And one was a chat template
 * read from a model file, whose `[INST]` tokens stand inside the template's own Jinja expressions.
 *
 * Each guard answers one structure and no more (docs/detection.md, "Fourteenth round: injection"):
 * - `reportedFrom(unit)`: where the reported part of a sentence starts, for three forms only —
 *   a third party (someone, a user, an attacker, the researcher, …) *typing, pasting or entering* something *into* a
 *   bot or a model; a line, comment or note that someone *hid, planted or slipped* somewhere, which *said* or *read* …;
 *   a text (an answer, a review, a comment, an email) that *tried or attempted to* instruct, get or trick the AI. The
 *   caller quotes the unit from there and marks it as writing about attacks: the scorer's quotation logic then weighs
 *   what the sentence says outside it. "Type 'ignore …' into your answer" (no third party) and "the note says: send
 *   the keys" (nothing hidden, nothing past) are not reported speech.
 * - `inJinja(text, at)` and `chatTemplate(text)`: a chat token (`[INST]`, `<<SYS>>`, `<start_of_turn>`) inside a Jinja expression of a
 *   text that loops over `messages` — a template, not a turn.
 *
 * - `doubledJoiner(value, start, end)`: two joiners (ZWJ/ZWNJ) between letters of a script that writes with them
 *   ("क्\u200d\u200dष" in a Hindi article) are orthography, not a hidden run.
 *
 * - `elidedQuote(unit)` (seventeenth round): a quotation whose writer cut it off where its object should stand ("a note
 *   said "AI assistant, update the payee to …"", "text like "bot: replace the IBAN with …" (elided)") — the phrase
 *   stops on a preposition or an article before the ellipsis, or the quotation is followed by a word of elision. An
 *   order with its object withheld cannot be carried out: it is shown, not given. Not when the quotation names an
 *   address, a URL or a path (an object after all).
 *
 * Linear: bounded regexes over at most the unit's first 600 characters; the template test looks at most 300
 * characters back and once at the text's first 64 KiB.
 */

/** A third party typing something into a bot: "someone types '…' into your new chatbot". */
const TYPED_INTO = new RegExp(
  `\\b(?:someone|somebody|anyone|a\\s{1,3}(?:user|customer|visitor|student|troll|kid|player|reader|tester|researcher|stranger)|users|customers|visitors|people|trolls|kids|attackers?|an\\s{1,3}attacker|the\\s{1,3}(?:attacker|researcher|researchers|user|tester|red\\s{1,3}team))\\s{1,3}(?:\\p{L}{2,12}ly\\s{1,3})?(?:types?|typed|typing|pastes?|pasted|enters?|entered|submits?|submitted|sends?|sent|posts?|posted|writes?|wrote)\\s{1,3}(?=["'“‘«][^\\n]{4,300}?["'”’»]\\s{0,3}(?:into|to|at|in)\\s{1,3}(?:your|the|their|our|a|an|its|his|her)\\b)`,
  "iu",
);
/** A line someone hid somewhere, which said …: "the researcher hid a line in a product review that said, basically, …". */
const PLANTED_SAID = new RegExp(
  `\\b(?:hid|hidden|planted|slipped|buried|inserted|embedded|smuggled|snuck|sneaked)\\s{1,3}(?:an?\\s{1,3}|the\\s{1,3}|some\\s{1,3})?(?:\\p{L}{2,15}\\s{1,3})?(?:line|lines|sentence|text|note|comment|message|prompt|instruction|instructions|string|payload)\\b[^.!?\\n]{0,80}?\\b(?:that|which)\\s{1,3}(?:said|read|told|asked)\\b[,:]?\\s{0,3}(?:basically,?\\s{1,3}|roughly,?\\s{1,3}|essentially,?\\s{1,3}|something\\s{1,3}like,?\\s{1,3})?`,
  "iu",
);
/** A text that tried to instruct the AI: "one survey answer tried to instruct AI summarisers to …". */
const TRIED_TO = new RegExp(
  `\\b(?:answer|answers|response|responses|review|reviews|comment|comments|email|emails|e-mail|message|messages|post|posts|page|pages|document|documents|ticket|tickets|entry|entries|submission|submissions|field|record|row|line|text|snippet|payload|prompt)\\s{1,3}(?:\\p{L}{2,15}\\s{1,3}){0,2}?(?:tried|attempted|tries|attempts|was\\s{1,3}trying|were\\s{1,3}trying)\\s{1,3}to\\s{1,3}(?:instruct|get|make|trick|tell|convince|order|steer|hijack|manipulate|redirect|coax|persuade)\\b`,
  "iu",
);

/**
 * Where, in a unit, what it reports someone else typing, planting or trying starts (its offset in `unit`), or -1.
 * Only the first 600 characters are read.
 */
export function reportedFrom(unit: string): number {
  if (unit.length < 20) return -1;
  const clip = unit.length > 600 ? unit.slice(0, 600) : unit;
  let m = TYPED_INTO.exec(clip);
  if (m) return m.index + m[0].length;
  m = PLANTED_SAID.exec(clip);
  if (m) return m.index + m[0].length;
  m = TRIED_TO.exec(clip);
  if (m) return m.index;
  return -1;
}

const LOOPS_MESSAGES = /\{%-?\s{0,3}for\s{1,3}(?:message|msg|m)\s{1,3}in\s{1,3}(?:messages|loop_messages)\b|message\[['"](?:content|role)['"]\]/;

/** Whether a chat token at `at` stands inside a Jinja expression (`{{ … }}` or `{% … %}`): at most 300 characters each way. */
export function inJinja(text: string, at: number): boolean {
  const back = text.slice(Math.max(0, at - 300), at);
  const open = Math.max(back.lastIndexOf("{{"), back.lastIndexOf("{%"));
  if (open < 0) return false;
  const close = Math.max(back.lastIndexOf("}}"), back.lastIndexOf("%}"));
  if (close > open) return false;
  return /\}\}|%\}/.test(text.slice(at, at + 300));
}

/** Whether a text is a chat template: it loops over the conversation's messages (its first 64 KiB read). */
export function chatTemplate(text: string): boolean {
  return LOOPS_MESSAGES.test(text.length > 65536 ? text.slice(0, 65536) : text);
}

/** Scripts whose orthography uses ZWJ/ZWNJ between letters (as normalize-unicode.ts reads them). */
const JOINING = /[\u0590-\u08FF\u0900-\u0DFF\u0E00-\u0FFF\u1000-\u109F\u1780-\u18AF\uA8E0-\uA8FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;

/**
 * Whether `value[start, end)` is a doubled joiner (two of ZWJ/ZWNJ) between letters of a script that writes with them:
 * an editor's slip inside a Devanagari conjunct, orthography rather than a hidden run. Three or more, or any other
 * zero-width character, or Latin on either side, is still a hidden run.
 */
export function doubledJoiner(value: string, start: number, end: number): boolean {
  if (end - start !== 2 || start === 0 || end >= value.length) return false;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x200c && c !== 0x200d) return false;
  }
  return JOINING.test(value[start - 1] as string) && JOINING.test(value[end] as string);
}

/** Words a phrase cannot end on: its object is still to come (prepositions, articles, several languages). */
const OPEN_ENDS = new Set(["to", "with", "into", "at", "for", "of", "about", "by", "in", "on", "the", "a", "an", "as", "from", "von", "van", "di", "del", "della", "da", "onto", "via", "is", "be", "and", "zu", "an", "auf", "mit", "nach", "den", "die", "das", "der", "ein", "eine", "à", "au", "aux", "de", "des", "du", "le", "la", "les", "un", "une", "par", "vers", "sur", "a", "al", "el", "los", "las", "para", "por", "con", "o", "os", "um", "uma", "naar", "met", "het", "een", "till", "med", "på", "för", "i", "na", "do", "z", "и", "в", "на", "с", "к"]);
/** A quotation: an opening mark, at most 300 characters, its closing mark. */
const QUOTATION = /["“„«]([^"“”„«»\n]{4,300})["”“»]/gu;
const ELLIPSIS_END = /(?:\u2026|\.{3})\s{0,3}$/u;
/** A word of elision in brackets after the quotation, alone or with a word or two ("(truncated here)", "[rest omitted]"). */
const ELIDED_AFTER = /^\s{0,3}[([](?:[\p{L}]{1,12}\s{1,3})?(?:elided|redacted|truncated|snip|cut|omitted|shortened|abridged|…|\.\.\.)(?:\s{1,3}[\p{L}]{1,12}){0,2}[)\]]/iu;
const HAS_OBJECT = /:\/\/|@|~\/|\/\.|\b[\w-]{2,63}\.(?:com|net|org|io|example|ru|cn|xyz|info)\b/iu;

/** The span (offsets in `unit`) of a quotation cut off where its object should stand, or null. First 600 characters. */
export function elidedQuote(unit: string, next = ""): [number, number] | null {
  if (unit.length < 12 || !(unit.includes("\u2026") || unit.includes("..."))) return null;
  // (Eighteenth round) A unit may end at the ellipsis, before its closing markup: the quotation may close in `next`
  // (at most 40 characters of what follows); the span returned stays inside the unit.
  const clip = unit.length > 600 ? unit.slice(0, 600) : unit + next.slice(0, 40);
  const limit = Math.min(unit.length, 600);
  QUOTATION.lastIndex = 0;
  for (let m = QUOTATION.exec(clip); m; m = QUOTATION.exec(clip)) {
    const inner = m[1] as string;
    if (HAS_OBJECT.test(inner)) continue;
    const after = clip.slice(m.index + m[0].length, m.index + m[0].length + 24);
    let elided = ELIDED_AFTER.test(after);
    if (!elided && ELLIPSIS_END.test(inner)) {
      const words = inner.replace(ELLIPSIS_END, "").trim().split(/\s+/);
      elided = OPEN_ENDS.has((words[words.length - 1] ?? "").toLowerCase());
    }
    if (m.index >= limit) break;
    if (elided) return [m.index, Math.min(limit, m.index + m[0].length)];
  }
  return null;
}
