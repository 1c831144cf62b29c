/*
 * Seventeenth round ("inj17"), benign guard: a quotation the sender asks the receiver to judge. A user who forwards a
 * suspicious message to an agent and asks "is this phishing?" quotes the lure's orders; they are the object of the
 * question, not the sender's request. The principle, in any domain: the sender's own words ask whether the quoted text
 * can be trusted (is it phishing, a scam, spam, fraud, genuine, safe, an attack), and the quoted text is set apart
 * after or before that question (a quotation mark, a rule line "---", a block quote, a forwarded header). Only the
 * quoted part is set aside; what the sender writes outside it is read as always. Applied to what a user sends (an A2A
 * `message/send`), where the one asking is the user.
 *
 * Linear: bounded regexes over the text's first and last 600 characters.
 */

/** A question whether something can be trusted, in several languages. */
const JUDGE_Q = new RegExp(
  [
    // English: "Is this phishing?", "is it legit?", "does this look like a scam?", "can I trust this e-mail?"
    "\\b(?:is|are|was)\\s{1,3}(?:this|that|it|these|those)\\s{1,3}(?:[\\p{L}-]{1,15}\\s{1,3}){0,3}?(?:phishing|phish|spam|a\\s{1,3}scam|scam|fraud|fraudulent|legit|legitimate|genuine|real|safe|malicious|suspicious|an?\\s{1,3}(?:attack|injection|phishing\\s{1,3}\\p{L}{2,10}|scam))\\b[^?\\n]{0,80}\\?",
    "\\b(?:does|do)\\s{1,3}(?:this|that|it)\\s{1,3}look\\s{1,3}(?:like\\s{1,3})?(?:an?\\s{1,3})?(?:phishing|spam|scam|fraud|legit|legitimate|genuine|safe|malicious|suspicious)\\b[^?\\n]{0,80}\\?",
    "\\bcan\\s{1,3}(?:i|we)\\s{1,3}trust\\s{1,3}(?:this|that|it)\\b[^?\\n]{0,80}\\?",
    // French, German, Dutch, Spanish, Portuguese, Italian.
    "\\best[- ]ce\\s{1,3}(?:que\\s{1,3}c'est\\s{1,3})?(?:du|un|une)\\s{1,3}(?:phishing|hameçonnage|arnaque|spam|fraude)\\b[^?\\n]{0,80}\\?",
    "\\bist\\s{1,3}(?:das|dies|diese\\s{1,3}\\p{L}{2,15})\\s{1,3}(?:ein\\s{1,3}|eine\\s{1,3})?(?:phishing|spam|betrug|echt|seriös|sicher)\\b[^?\\n]{0,80}\\?",
    "\\bis\\s{1,3}(?:dit|dat)\\s{1,3}(?:phishing|spam|oplichting|echt|betrouwbaar)\\b[^?\\n]{0,80}\\?",
    "\\b(?:es|esto\\s{1,3}es|é|isso\\s{1,3}é|isto\\s{1,3}é|è|questo\\s{1,3}è)\\s{1,3}(?:un\\s{1,3}|uma\\s{1,3}|um\\s{1,3})?(?:phishing|spam|estafa|fraude|golpe|truffa|legítimo|legitimo|seguro|sicuro)\\b[^?\\n]{0,80}\\?",
  ].join("|"),
  "iu",
);
/** Where the quoted material starts: a quotation mark, a rule line, a block quote, a forwarded header. */
const SET_APART = /(?:^|\n)[ \t]{0,8}(?:["“„«]|-{3,}|_{3,}|>|(?:from|von|de|van|da|от)\s{0,3}:|-{2,}\s{0,3}(?:forwarded|original)|begin\s{1,3}forwarded)/iu;

/** The span of `text` the sender quotes for judgement (to be set aside), or null. */
export function questionedQuote(text: string): [number, number] | null {
  if (text.length < 20 || !text.includes("?")) return null;
  const head = text.slice(0, 600);
  const q = JUDGE_Q.exec(head);
  if (q) {
    // The question first, then the quoted material to the end.
    const qEnd = q.index + q[0].length;
    const rest = text.slice(qEnd, qEnd + 600);
    const m = SET_APART.exec(rest);
    if (m) return [qEnd + m.index, text.length];
  }
  // The quoted material first, the question after it (in the last 600 characters).
  const tailAt = Math.max(0, text.length - 600);
  const t = JUDGE_Q.exec(text.slice(tailAt));
  if (!t) return null;
  const m = SET_APART.exec(text.slice(0, Math.min(600, tailAt + t.index)));
  return m ? [m.index, tailAt + t.index] : null;
}
