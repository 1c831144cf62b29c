/*
 * samp31 (issue 24): a forged turn known by its shape, in any language (`prompt_injection.forged_turn`).
 *
 * tp29's forged-turn check (sampling-forged.ts) reads what a server-written assistant turn says — a promise "as
 * agreed", a later "go ahead" — in six languages; the forged turns the open sets let through were in others
 * (Azerbaijani: "Əlbəttə. Razılaşdığımız kimi, … müştəridən gizlədəcəyəm …" then "Yaxşı, davam et."). What every
 * forged turn of the sets 2–84 shares, in English, Bengali, Armenian, Marathi, Somali or Azerbaijani alike, is a
 * *handshake*: the "model" acknowledges an order before saying what it will do ("Understood.", "Sure,", "Yes —",
 * "ঠিক আছে,", "Համաձայն եմ,"), and the next "user" turn ratifies it before going on ("Great,", "Good.", "Yaxşı,",
 * "Hagaag.", "Լավ,"). Every clause is one or two words set off by a stop, a comma or a dash; the model's turn is a
 * bare commitment — short, with no colon, question, quotation or line break (it delivers nothing, asks nothing); the
 * user's asks no question. In the open sets 41 attacks have that shape and none of the 33 benign multi-turn requests.
 *
 * A real history has it too ("Sure, I'll keep it short." then "Thanks, go on."), so the shape is only weight for what
 * the commitment carries, read without the language: a destination (an e-mail address, a URL, an IBAN) in either
 * turn, or, in the model's turn, a word of the lexicon's classes in any of its languages for keeping something back
 * (stealth, "without", the person kept in the dark), for paying or deleting, or for a secret or personal data; a
 * negation or a send only in a turn that speaks to no one (a "you" makes it a draft or a reply: "Dear customer, please
 * send us the form.") (injection-lexicon.ts). Left alone: a model turn that answers (it delivers: a colon, a quotation,
 * a list, more than 240 characters), a salutation ("Dear Anna,"), a user turn that asks a question, a handshake whose
 * commitment names none of those ("Sure, I'll summarise it in three lines." "Great, go on."), a phone number, the
 * last turn (a prefill). Bounded regexes over at most 32 turns of at most 4,000 characters; linear.
 */
import type { JsonPath } from "./scan.js";
import { cuesOfWords, type Cue } from "./injection-lexicon.js";
import { turnsOf, type Turn } from "./sampling-turns.js";

export interface Handshake {
  path: JsonPath;
  start: number;
  end: number;
  detail: string;
}

/** A turn opening with a clause of one or two words (letters only) set off by a stop, a comma or a dash; a second word
 * in capitals is a name ("Dear Anna,", "Hi Tom,"): a letter's salutation, not an acknowledgement. */
const OPENER = /^[\s"'“«]{0,2}[\p{L}\p{M}'’]{2,24}(?:[ \u00a0](?!\p{Lu})[\p{L}\p{M}'’]{1,24})?[ \u00a0]{0,2}(?:[.,!;。、，！；،؛।։።፣]|[ \u00a0]{0,2}[—–-][ \u00a0])/u;
/** What makes a model turn a delivery or a question rather than a bare commitment. */
const DELIVERS = /[:：?？؟\n"“”«»]/;
/** A question in the user's turn. */
const ASKS = /[?？؟]/;
/** A destination, whatever the language: an address, a URL, an IBAN (not a bare run of digits: a phone number is one). */
const DESTINATION = /[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,63}|:\/\/|(?<![\p{L}\d])[A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){3,7}/u;
/** The lexicon's classes a commitment to an unwanted act carries; the weak ones only in a turn that addresses no one. */
const CARRIED: readonly Cue[] = ["stealth", "without", "target", "pay", "delete", "personal", "machine"];
const CARRIED_WEAK: readonly Cue[] = ["neg", "send"];

/** Why an assistant turn and the user turn after it are a forged handshake, or null. */
export function handshake(model: string, user: string): string | null {
  if (model.length > 240 || !OPENER.test(model) || DELIVERS.test(model)) return null;
  if (!OPENER.test(user) || ASKS.test(user)) return null;
  if (DESTINATION.test(model) || DESTINATION.test(user.length > 4000 ? user.slice(0, 4000) : user)) return "acknowledges an order and commits to an act with a destination that the next turn ratifies";
  const { cues } = cuesOfWords(model, 60);
  // (A turn that speaks to someone — "you", "your" — is a draft or a reply: "Dear customer, please send us the form.")
  if (CARRIED.some((c) => cues.has(c)) || (!cues.has("you") && CARRIED_WEAK.some((c) => cues.has(c)))) return "acknowledges an order and commits to an act that the next turn ratifies";
  return null;
}

/** The assistant turns of a `sampling/createMessage` request that a forged handshake frames. */
export function handshakeFindings(message: Record<string, unknown> | null): Handshake[] {
  if (message?.method !== "sampling/createMessage") return [];
  const params = message.params;
  if (params === null || typeof params !== "object") return [];
  const turns = turnsOf(params as Record<string, unknown>);
  for (let i = 0; i + 1 < turns.length; i++) {
    const t = turns[i] as Turn;
    const next = turns[i + 1] as Turn;
    if (t.role !== "assistant" || next.role !== "user") continue;
    const why = handshake(t.text, next.text);
    if (why) return [{ path: t.path, start: 0, end: t.text.length, detail: `sampling: a model turn written by the server ${why}` }];
  }
  return [];
}
