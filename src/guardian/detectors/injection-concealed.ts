import { latinLookalike } from "./normalize-unicode.js";

/*
 * Twenty-second round (issue 24, "inj22"): what is concealed from the person who reads a record, and the order it
 * carries. Three readings, each a principle in any domain, none keyed on a case's words:
 *
 * - `lookalikeWords`: letters of another script that render as Latin letters, mixed into Latin words ("саlling" with
 *   Cyrillic с and а). A person sees the ordinary word; a scanner of words does not. Unlike a visible disguise (spaced
 *   letters, leetspeak), nobody reading the record can tell, so an instruction spelled with them is hidden text.
 * - `headOrder`: after a head that names the agent and closes with a colon ("ops agent:", "calling agent:"), the next
 *   word opens the order, whatever verb it is and whatever language: a status line after the head starts with a
 *   number, a quantifier or a participle instead ("agent: 12 hosts isolated", "agent: all done", "agent: released").
 * - `directiveField`: a record's field whose name says its value is an instruction for the agent ("agent_directive",
 *   "aiInstructions", "assistant_override"): the schema's equivalent of an `<ai_instructions>` tag. A renderer shows
 *   the record's data to its user, not a field addressed to the model, so the value is judged as hidden text.
 *
 * All three are linear scans without regular expressions that can backtrack; each is gated by a cheap test.
 */

/** Letters, any script (a word is a run of them). */
function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return cp >= 0xc0 && !(cp >= 0x2000 && cp <= 0x2bff) && !(cp >= 0x3000 && cp <= 0x303f) && !(cp >= 0xfe00 && cp <= 0xfe0f);
}

/**
 * How many words mix ASCII letters with letters of another script that look like Latin ones, every letter being one
 * or the other (Russian words with a Latin brand, "iPhone-ом", have letters with no Latin look-alike and do not
 * count). Gated on a non-ASCII letter being present at all.
 */
export function lookalikeWords(text: string, limit = 2): number {
  let found = 0;
  let ascii = 0;
  let look = 0;
  let other = 0;
  let any = false;
  for (let i = 0; i <= text.length; i++) {
    const cp = i < text.length ? (text.codePointAt(i) as number) : 32;
    if (cp > 0xffff) i++;
    if (isLetter(cp)) {
      if (cp < 0x80) ascii++;
      else if (latinLookalike(cp) !== undefined) {
        look++;
        any = true;
      } else other++;
      continue;
    }
    if (ascii > 0 && look > 0 && other === 0 && ++found >= limit) return found;
    ascii = 0;
    look = 0;
    other = 0;
  }
  return any ? found : 0;
}

/** Whether a string has any letter outside ASCII (the gate of `lookalikeWords`). */
export function hasNonAsciiLetter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0xc0) return true;
  return false;
}

/** Words that name the reader as a program, in a head before a colon. */
const READER = new Set(["agent", "agents", "ai", "assistant", "assistants", "model", "llm", "bot", "caller", "orchestrator", "copilot", "gpt"]);
const POSSESSIVE = new Set(["your", "my", "our", "their", "his", "her", "its"]);
/** Words after a head that begin a state, not an order. */
const NOT_ORDER = new Set(["all", "todas", "todos", "todo", "tous", "toutes", "tout", "alle", "alles", "tutti", "tutto", "semua", "sve", "svi", "wszystkie", "все", "всё", "every", "each", "no", "none", "nothing", "done", "ok", "okay", "yes", "the", "a", "an", "this", "that", "these", "those", "it", "i", "we", "they", "he", "she", "there", "here", "status", "note", "n/a", "see", "per", "as", "in", "on", "at", "for", "from", "by", "with", "after", "before", "since", "when", "if"]);

/**
 * Whether the text opens with a head naming a program reader ("ops agent:", "Calling agent -", "(AI agent):") whose
 * next word, followed by at least two more, can be an imperative: letters, not a number, not a determiner or
 * quantifier, not an English participle or past form. Reads at most the first 80 characters for the head.
 */
export function headOrder(unit: string): boolean {
  const colon = unit.indexOf(":");
  if (colon < 2 || colon > 60) return false;
  const head = unit.slice(0, colon).toLowerCase();
  let j = head.length;
  while (j > 0 && (head[j - 1] === " " || head[j - 1] === ")" || head[j - 1] === "]")) j--;
  let k = j;
  while (k > 0 && /[a-z]/.test(head[k - 1] as string)) k--;
  if (!READER.has(head.slice(k, j))) return false;
  // (A head is a name — "ops agent", "(AI agent)", "Calling agent" — at most four words and none a possessive; a title
  // that is a sentence, "When guest notes talk to your AI:", names a subject, not a reader.)
  const headWords = head.split(" ").filter((x) => x.length > 0);
  if (headWords.length > 4 || headWords.some((x) => POSSESSIVE.has(x))) return false;
  const words: string[] = [];
  let w = "";
  for (let i = colon + 1; i < unit.length && words.length < 4; i++) {
    const ch = unit[i] as string;
    if (ch === "." || ch === "!" || ch === "?" || ch === "\n" || ch === ";") break;
    if (ch === " " || ch === "," || ch === "\t") {
      if (w) words.push(w);
      w = "";
    } else w += ch;
  }
  if (w && words.length < 4) words.push(w);
  if (words.length < 3) return false;
  const first = (words[0] as string).toLowerCase();
  if (NOT_ORDER.has(first)) return false;
  for (let i = 0; i < first.length; i++) {
    const cp = first.codePointAt(i) as number;
    if (!isLetter(cp)) return false;
  }
  return !(first.endsWith("ed") || first.endsWith("ing"));
}

// Parts of a field's name that say its value is an instruction, and parts that name a program as its reader.
// (Not "prompt" — a prompt library's record holds prompts a person wrote to run; not "command" — a command is a
// program's literal, "llm_command": "ollama run …"; not "model", which names a trained model as often as a reader.)
const PROGRAM_ONLY = new Set(["directive", "directives", "override"]);
const PLACE_PART = new Set(["caller", "orchestrator"]);
const AGENT_PART = new Set(["agent", "ai", "assistant", "llm", "bot", "caller", "orchestrator", "gpt", "copilot"]);

/** A field name split into lower-case parts at `_`, `-`, `.`, spaces and camelCase humps ("_agentDirective" → agent, directive). */
function nameParts(name: string): string[] {
  const parts: string[] = [];
  let w = "";
  for (let i = 0; i < name.length && i < 80; i++) {
    const ch = name[i] as string;
    const upper = ch >= "A" && ch <= "Z";
    if (ch === "_" || ch === "-" || ch === "." || ch === " ") {
      if (w) parts.push(w);
      w = "";
      continue;
    }
    if (upper && w && !(w[w.length - 1] as string).match(/[A-Z]/)) {
      parts.push(w.toLowerCase());
      w = "";
    }
    w += ch;
  }
  if (w) parts.push(w.toLowerCase());
  return parts.map((p) => p.toLowerCase());
}

/** Whether a field's name says its value is an instruction for a program ("agent_directive", "aiInstructions", "llm_override"). */
export function directiveField(name: unknown): boolean {
  if (typeof name !== "string" || name.length < 5 || name.length > 80) return false;
  const parts = nameParts(name);
  if (!parts.some((p) => AGENT_PART.has(p))) return false;
  // A directive or an override is no word of a record's data or of a setting: said to any program reader.
  if (parts.some((p) => PROGRAM_ONLY.has(p))) return true;
  // Instructions are also a setting an operator writes for its own assistant ("ai_instructions": "answer in the
  // customer's language"), and a script for people ("agent_instructions"): only instructions to the reader by its
  // place in the exchange — the caller, the orchestrator — or in a field marked as hidden ("_aiInstructions").
  return parts.some((p) => p === "instruction" || p === "instructions") && (parts.some((p) => PLACE_PART.has(p)) || name.startsWith("_"));
}
