import { cuesOfWords } from "./injection-lexicon.js";
import { RUN_VERBS } from "./requests.js";

/*
 * (leak30, issue 24) Whether the words before a command line in a remote agent's reply hand it over to be run, in any
 * language the injection scorer's lexicon reads (`cut-commands-handed-back`, index.ts `commandsHandedBack`). The
 * seventh round's reading takes English verbs (run, execute, paste…); a reply in Spanish, Igbo or Russian that says
 * "Ejecuta en la base de producción: …", "Gbaa nke a ozugbo: psql -c …" or "Выполни: …" hands the line over all the
 * same. Here the lead hands over when it holds a word of the lexicon's `exec` class (ejecuta, führe, выполни,
 * uruchom…) or ends with a colon that introduces the line ("Fix: …", "Gbaa nke a ozugbo: …"; not a lower-case key alone,
 * `run:` in a workflow) — and holds no word of
 * the `neg` class (a warning: "nunca ejecutes …") nor of the `report` class (an article quoting an attack).
 *
 * Cost: at most MAX_WORDS lexicon lookups per lead.
 */

const MAX_WORDS = 40;
const KEY_ALONE = /^\s{0,16}(?:[-*]\s{1,4})?[a-z_][\w.-]{0,40}\s{0,4}:\s{0,4}$/;

export function handsOverInAnyLanguage(lead: string): boolean {
  const t = lead.length > 400 ? lead.slice(-400) : lead;
  // A lower-case key alone (`run:`, `- command:`) is a file's field, a workflow's step: not a sentence.
  if (KEY_ALONE.test(t)) return false;
  const { words, cues } = cuesOfWords(t, MAX_WORDS);
  if (cues.has("neg") || cues.has("report")) return false;
  return cues.has("exec") || (words >= 1 && /:\s{0,4}$/.test(t));
}

/**
 * (Thirty-first round) The stricter reading for a tool's result (MCP), where security tools show command lines as
 * evidence ("Command line: bash -c '…'", "Komut satırı: powershell …") and articles say what attackers "run": the
 * lead's last sentence must open with a verb of running (English, or the German, Spanish, French, Italian and
 * Portuguese forms requests.ts reads) — "Solved! Run this on the PC with the Autel, it re-registers the license:",
 * "Ejecuta en la terminal del servidor:" — and hold no word of the lexicon's warning or report classes. A colon alone
 * does not hand over here.
 */
export function opensWithRunVerb(lead: string): boolean {
  const t = lead.length > 400 ? lead.slice(-400) : lead;
  const sentence = t.slice(Math.max(t.lastIndexOf(". "), t.lastIndexOf("! "), t.lastIndexOf("? "), -1) + 1);
  const m = /^[\s>*#-]{0,8}(?:\d{1,2}[.)]\s{1,3})?([\p{L}\p{M}'’]{1,40})/u.exec(sentence);
  if (m === null || !RESULT_RUN_VERB.test(m[1] as string)) return false;
  const { cues } = cuesOfWords(sentence, MAX_WORDS);
  return !cues.has("neg") && !cues.has("report");
}

/**
 * Whether a tool's result may hand a line over at all (the verbs `opensWithRunVerb` reads, anywhere in the first
 * 64 KB that requests.ts reads for command lines and commands-reach.ts for statements): a result without one is not
 * read for either (issue 25: a megabyte of prose is one search, 0.1 ms, not the line reading's 0.3 ms; a long result
 * with SQL in it would pay the statements' reading, ~2.6 ms on 1 MB).
 */
export function mayHandOverInResult(text: string): boolean {
  return RESULT_RUN_ANYWHERE.test(text.length > 65536 ? text.slice(0, 65536) : text);
}
/** requests.ts's verbs of running, and the reply reading's "enter" and "copy" (index.ts `HANDING_OVER`). */
const VERBS = `${RUN_VERBS}|enter|copy`;
const RESULT_RUN_VERB = new RegExp(`^(?:${VERBS})$`, "i");
// (Each verb opens with an ASCII letter after a space, a mark or a digit's stop: a word boundary before it holds.)
const RESULT_RUN_ANYWHERE = new RegExp(`\\b(?:${VERBS})`, "i");
