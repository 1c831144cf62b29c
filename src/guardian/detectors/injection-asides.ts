/*
 * Twenty-fifth round (issue 24, "inj25"): a note labelled for the reading model, in any language. Returned data (a
 * tool's result, a remote agent's reply, its streamed status, an artifact) that opens a line, a bracket or a comment
 * with a head saying "this is a note / an instruction for the agent" — "Note to the orchestrating agent:",
 * "[Poznámka pro řídicího agenta: …]", "<!-- Pokyn pro agenta: …", "Вказівка агенту-замовнику:", "Lưu ý cho tác tử gọi
 * đến:", "הוראה לעוזר הבינה המלאכותית:", "[एजेंट के लिए गुप्त निर्देश]", "Agent instruction (priority):" — names its
 * reader by the head's structure: a message word and a reader word within one short head. The scorer (injection.ts)
 * reads such a head as addressing the model (as it reads "Assistant:"); what follows must still ask or hide something
 * for a finding. A head that keeps the note from the user — a secrecy qualifier ("secret instruction", "गुप्त
 * निर्देश") or the user negated ("(not for the user)") — adds the label's weight and secrecy (`noteGrade` 2).
 *
 * Read as a head:
 * - at most HEAD_MAX characters before a ":" (or "：", or a closing "]"), after an optional opener ("[", "(", "<!--",
 *   ">", "-", "*", "#", bidi marks); at most 9 words;
 * - a message word (note, instruction, directive, message, hint… in the languages the lexicon reads) and a reader
 *   (agent, assistant, AI, LLM, model, orchestrator — by stem, so the inflected forms "agenta", "агенту", "asystenta"
 *   count — and the Indic, Hebrew, Arabic and Vietnamese words);
 * - the reader after the message word ("note for the agent"), or before it only when the word is an instruction
 *   (not a note: "Agent note:" is its author's) or a postposition says "for" ("एजेंट के लिए … निर्देश").
 *
 * Left alone: a note by its author ("Agent note:", "note from the assistant:"), a head that is a sentence (more words),
 * a reader word that is part of another word ("management", "agency"), the body of a note that asks nothing (a
 * pagination note to the calling agent scores below the threshold), and every role but returned content.
 *
 * Linear: one bounded scan of at most HEAD_MAX + 8 characters per unit and set lookups; no regular expressions.
 */

const HEAD_MAX = 90;

/** Message words: what a note for someone is called. */
export const MESSAGE = new Set([
  "note", "notes", "notice", "message", "memo", "hint", "hints", "remark", "reminder",
  // de, nl, es, pt, fr, it
  "hinweis", "hinweise", "notiz", "nachricht", "mitteilung", "opmerking", "bericht", "nota", "notas", "mensaje", "aviso", "mensagem",
  "remarque", "avis", "messaggio", "avviso",
  // cs, sk, pl, uk, ru, bg
  "poznámka", "poznámky", "zpráva", "upozornění", "správa", "uwaga", "notatka", "wiadomość", "informacja",
  "примітка", "повідомлення", "нотатка", "увага", "примечание", "сообщение", "заметка", "бележка", "съобщение",
  // tr, id, vi (one syllable each), hi, he, ar
  "not", "catatan", "pesan", "ghi", "lưu", "नोट", "संदेश", "टिप्पणी", "הערה", "הודעה", "ملاحظة", "رسالة",
]);
/** Instruction words: a message that is an order to its reader (a reader may come before them). */
export const INSTRUCTION = new Set([
  "instruction", "instructions", "directive", "directives", "command", "commands", "order", "orders", "guidance", "task",
  "anweisung", "anweisungen", "befehl", "auftrag", "instructie", "opdracht", "instrucción", "instrucciones", "orden", "instrução",
  "instruções", "ordem", "consigne", "consignes", "istruzione", "istruzioni", "ordine",
  "pokyn", "pokyny", "příkaz", "instrukce", "polecenie", "instrukcja", "wskazówka", "rozkaz",
  "вказівка", "вказівки", "інструкція", "інструкції", "наказ", "указание", "указания", "инструкция", "инструкции", "команда",
  "talimat", "talimatı", "perintah", "instruksi", "lệnh", "chỉ", "निर्देश", "आदेश", "הוראה", "הוראות", "تعليمات", "أوامر",
]);
/** Reader stems: a word that starts with one names the model or an agent program ("agenta", "асистенту"). */
const READER_STEMS = ["agent", "агент", "асистент", "ассистент", "assistant", "assistent", "asistent", "asystent", "orchestrat", "оркестр", "llm", "chatbot"];
/** Readers read whole (short or script-bound words), with Hebrew and Arabic prefixed forms. */
const READER_WORDS = new Set(["ai", "ki", "ia", "ші", "ии", "bot", "model", "modelu", "modelo", "modello", "modèle", "modell", "модели", "моделі", "copilot",
  "एजेंट", "सहायक", "סוכן", "לסוכן", "הסוכן", "עוזר", "לעוזר", "העוזר", "الوكيل", "للوكيل", "المساعد", "للمساعد"]);
/** Two-word readers of Vietnamese ("tác tử", "trợ lý"): the first syllable, whose second follows. */
const READER_PAIRS: Record<string, string> = { "tác": "tử", "trợ": "lý", "tac": "tu" };
/** A reader that is part of another word: an agency, a management agent's noun phrases. */
const NOT_READER = new Set(["agency", "agencies", "agenda", "agentur", "agentura", "agentury"]);
/** Postpositions saying "for" after a reader ("एजेंट के लिए", "ajan için", "エージェントへの"). */
const FOR_AFTER = new Set(["लिए", "için", "uchun", "үшін"]);
/** A head's qualifiers that keep the note from the user: "secret instruction", "गुप्त निर्देश", "tajný pokyn". */
const SECRET = new Set(["secret", "hidden", "confidential", "covert", "geheim", "geheime", "geheimer", "secreta", "secreto", "secrète", "segreta", "segreto",
  "tajný", "tajná", "tajné", "tajny", "tajna", "tajne", "таємна", "таємний", "секретна", "секретний", "секретная", "секретный", "тайная", "тайный",
  "gizli", "rahasia", "bí", "गुप्त", "सीक्रेट", "סודית", "סודי", "חסויה", "سري", "سرية"]);
/** The user, and a negation, in a head: "(not for the user)", "(nicht für den Nutzer)", "(не для користувача)". */
const USER = new Set(["user", "users", "nutzer", "benutzer", "utilisateur", "usuario", "utente", "utilizador", "uživatele", "uživatel", "používateľa", "użytkownika",
  "користувача", "пользователя", "kullanıcı", "kullanıcıya", "pengguna", "người", "उपयोगकर्ता", "המשתמש", "למשתמש", "المستخدم", "للمستخدم"]);
const NOT = new Set(["not", "nicht", "pas", "no", "non", "ne", "не", "nie", "değil", "bukan", "không", "नहीं", "לא", "ليس", "ليست"]);

/** Words saying the note is by its reader, not for it: "note from the agent". */
const FROM = new Set(["from", "by", "von", "de", "od", "від", "от", "dari", "từ", "से"]);

function isOpener(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "[" || ch === "(" || ch === ">" || ch === "-" || ch === "*" || ch === "#" || ch === "•" || ch === "!" || ch === "<" ||
    ch === "\u2066" || ch === "\u2067" || ch === "\u2068" || ch === "\u200e" || ch === "\u200f" || ch === "\u202a" || ch === "\u202b";
}

function isReader(w: string, next: string): boolean {
  if (NOT_READER.has(w)) return false;
  if (READER_WORDS.has(w)) return true;
  if (READER_PAIRS[w] !== undefined && READER_PAIRS[w] === next) return true;
  for (const s of READER_STEMS) if (w.startsWith(s) && w.length <= s.length + 14) return true;
  return false;
}

/**
 * Whether `unit` opens with a head that labels what follows as a note or an instruction for the reading model
 * ("Note to the calling agent:", "Pokyn pro agenta:", "[एजेंट के लिए गुप्त निर्देश]"): see the header.
 */
export function readerNote(unit: string): boolean {
  return noteGrade(unit) > 0;
}

/**
 * 0: no note head; 1: a note head for the model; 2: one that keeps itself from the user — a secrecy qualifier ("secret
 * instruction for the agent", "[एजेंट के लिए गुप्त निर्देश]") or the user negated in the head ("(not for the user)").
 */
export function noteGrade(unit: string, from = 0): 0 | 1 | 2 {
  let i = from;
  const n = Math.min(unit.length, from + HEAD_MAX + 8);
  while (i < n && isOpener(unit[i] as string)) i++;
  const start = i;
  let end = -1;
  // (Read by code unit: most sentences of a long text stop here. A colon ends a head only before a space or the end —
  // not in "https://" or "09:15".)
  for (let j = start; j < n && j - start <= HEAD_MAX; j++) {
    const c = unit.charCodeAt(j);
    if (c === 58) {
      const d = j + 1 < unit.length ? unit.charCodeAt(j + 1) : 32;
      if (d !== 32 && d !== 10 && d !== 9 && d !== 13 && d !== 160) return 0;
      end = j;
      break;
    }
    if (c === 0xff1a || c === 93) {
      end = j;
      break;
    }
    if (c === 10 || c === 46 || c === 33 || c === 63 || c === 59) return 0;
  }
  if (end <= start) return 0;
  const words: string[] = [];
  // Which words stood in parentheses: a reader there is an audience tag ("Internal note (agents):", the helpdesk's
  // people who may see it), not the note's addressee.
  const tagged: boolean[] = [];
  let depth = 0;
  let w = "";
  for (let j = start; j <= end; j++) {
    const ch = j === end ? " " : (unit[j] as string);
    if (ch === " " || ch === "(" || ch === ")" || ch === "," || ch === "_" || ch === "\u00a0" || ch === "«" || ch === "»" || ch === '"' || ch === "'" || ch === "\u2019") {
      if (w) {
        words.push(w.toLowerCase());
        tagged.push(depth > 0);
      }
      if (ch === "(") depth++;
      else if (ch === ")" && depth > 0) depth--;
      w = "";
      if (words.length > 9) return 0;
    } else w += ch;
  }
  if (words.length < 2) return 0;
  let message = -1;
  let order = -1;
  let reader = -1;
  for (let k = 0; k < words.length; k++) {
    const x = words[k] as string;
    if (message < 0 && MESSAGE.has(x)) message = k;
    if (order < 0 && INSTRUCTION.has(x)) order = k;
    if (reader < 0 && !tagged[k] && isReader(x, words[k + 1] ?? "") && !FROM.has(words[k - 1] ?? "") && !FROM.has(words[k - 2] ?? "")) reader = k;
  }
  if (reader < 0) return 0;
  // The reader after a message or an instruction word: "note for the agent", "pokyn pro agenta" — the label opening
  // the head, after one qualifier at most ("Internal note", "Secret instruction"); a head that is a sentence ("When
  // guest notes talk to your AI:") is a title.
  const label = Math.min(message < 0 ? Infinity : message, order < 0 ? Infinity : order);
  let head = false;
  if (label < reader) head = label <= 1;
  // The reader first: only before an instruction word ("Agent instruction:"), or with "for" after it ("एजेंट के लिए").
  else if (reader <= 1) head = order > reader || (message > reader && words.slice(reader + 1, message).some((x) => FOR_AFTER.has(x)));
  if (!head) return 0;
  const kept = words.some((x) => SECRET.has(x)) || (words.some((x) => USER.has(x)) && words.some((x) => NOT.has(x)));
  return kept ? 2 : 1;
}

/** Heads reported per text at most (each makes its sentence read by the scorer). */
const MAX_HEADS = 64;

/**
 * Where `text` holds a note head (see `readerNote`): at the text's start, a line's, or a sentence's (after ". ", "! ",
 * "? "). For the scorer's gate (injection-gate.ts knows words, not heads): a sentence with a head is read even when its
 * words alone could not make a finding. Found from the heads' ends — a colon before a space, "]", "：", looked up
 * natively — each walked back to its sentence's start, never past the previous end (a head holds no other), so the
 * pass is linear and costs next to nothing on text without colons.
 */
export function noteHeads(text: string): number[] {
  const out: number[] = [];
  const L = text.length;
  let colon = text.indexOf(":");
  let bracket = text.indexOf("]");
  let wide = text.indexOf("\uff1a");
  let prev = -1;
  let last = -1;
  while (out.length < MAX_HEADS) {
    let e = L;
    if (colon >= 0 && colon < e) e = colon;
    if (bracket >= 0 && bracket < e) e = bracket;
    if (wide >= 0 && wide < e) e = wide;
    if (e === L) break;
    if (e === colon) colon = text.indexOf(":", e + 1);
    if (e === bracket) bracket = text.indexOf("]", e + 1);
    if (e === wide) wide = text.indexOf("\uff1a", e + 1);
    // (A colon ends a head only before a space or the end: "https://", "09:15" are skipped unread — noteGrade stops
    // at them too.)
    if (text.charCodeAt(e) === 58 && e + 1 < L) {
      const d = text.charCodeAt(e + 1);
      if (d !== 32 && d !== 10 && d !== 9 && d !== 13 && d !== 160) continue;
    }
    // The sentence's start: a line break or a stop before a space, within HEAD_MAX + 8 characters, not before the
    // previous end.
    const floor = Math.max(prev + 1, e - HEAD_MAX - 8);
    let s = -1;
    for (let j = e - 1; j >= floor; j--) {
      const c = text.charCodeAt(j);
      if (c === 10 || ((c === 46 || c === 33 || c === 63) && text.charCodeAt(j + 1) === 32)) {
        s = j + 1;
        break;
      }
    }
    if (s < 0 && floor === 0) s = 0;
    prev = e;
    if (s >= 0 && s > last && noteGrade(text, s) > 0) {
      out.push(s);
      last = s;
    }
  }
  return out;
}
