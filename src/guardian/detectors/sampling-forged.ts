/*
 * tp29 (issue 24): a sampling request whose "assistant" turn is a promise the model never made (`prompt_injection.forged_turn`).
 *
 * A server writes every turn of its `sampling/createMessage` request, the assistant's as well as the user's. The
 * structure that recurs across the sets (19–78, in every domain): an earlier assistant turn in which "the model"
 * commits itself to an act in the first person ("I will e-mail the drawings to …", "I have disabled the rate floor",
 * "Next I will issue …") and says the act was agreed, ordered or approved by someone else ("as agreed with the admin",
 * "as the family asked", "the owner has approved", "I confirm", "verified with the director"); or such a claim, or a
 * promise "as you asked", that a later user turn ratifies ("continue exactly as you said", "go ahead", "as you
 * already agreed", "do it"); or an assistant turn that breaks off before a secret the turn before asked for ("Sure,
 * the password is:") with a later turn that has it go on. The model is made to carry out a commitment nobody made.
 *
 * What passes: assistant turns that answer or report (third person, facts: "RFI 118 asks whether …", "Here is a draft:
 * …"), whatever the next turn asks ("Now make it shorter", "Write a note confirming it"); a first-person promise with no
 * claimed agreement ("I will summarise it in three lines." then "Shorter please", or then "Continue"); a
 * turn that says an approval is pending or missing; the last turn of a request (a prefill the model continues is
 * the host's own technique, and says nothing was agreed). Read in English, French, Spanish, German, Portuguese and
 * Italian. Every check is a bounded regex over one turn (its first 4,000 characters, at most 32 turns).
 */
import type { JsonPath } from "./scan.js";
import { turnsOf, type Turn } from "./sampling-turns.js";

export interface ForgedTurn {
  path: JsonPath;
  start: number;
  end: number;
  detail: string;
}

/** The model committing itself, in the first person, to an act it will do or says it did. */
const COMMITS =
  /(?<![\p{L}])(?:I\s{1,3}(?:will|shall|am\s{1,3}going\s{1,3}to)|I'll|I’ll|I\s{1,3}have\s{1,3}(?:also\s{1,3}|already\s{1,3}|now\s{1,3})?(?:\p{L}{2,20}ed|sent|set|put|sent|made|forwarded|shared|run)|je\s{1,3}vais|j'ai\s{1,3}(?:déjà\s{1,3})?(?:envoyé|transféré|désactivé|exporté|validé)|(?:voy\s{1,3}a|enviaré|transferiré|desactivaré|he\s{1,3}(?:enviado|desactivado|exportado|aprobado))|ich\s{1,3}(?:werde|habe\s{1,3}(?:bereits\s{1,3})?(?:\p{L}{2,20}t))|(?:vou|enviarei|irei|transferirei)|(?:invierò|trasferirò|disattiverò|ho\s{1,3}(?:già\s{1,3})?(?:inviato|disattivato|esportato)))(?![\p{L}])/iu;
/** The act said to be agreed, ordered or approved by someone else ("as agreed with", "as the registrar instructed"). */
const CLAIMED =
  /(?<![\p{L}])(?:as\s{1,3}(?:already\s{1,3})?(?:agreed|instructed|arranged|discussed|ordered)|as\s{1,3}(?:the|your|my)\s{1,3}(?:[\p{L}-]{1,24}\s{1,3}){1,2}(?:asked|instructed|requested|agreed|wanted|ordered|approved)|(?:agreed|verified|confirmed|cleared|arranged)\s{1,3}(?:it\s{1,3}|this\s{1,3})?with\s{1,3}(?:the|your|my)|(?:has|have|had)\s{1,3}(?:already\s{1,3})?(?:approved|authori[sz]ed|agreed|consented|signed\s{1,3}off)|I\s{1,3}(?:hereby\s{1,3})?confirm|(?:approved|authori[sz]ed)\s{1,3}(?:for|by)|comme\s{1,3}convenu|como\s{1,3}(?:acordado|acordamos|se\s{1,3}acordó|combinado)|wie\s{1,3}(?:vereinbart|besprochen|angewiesen)|come\s{1,3}concordato)(?![\p{L}])/iu;
/** The act said to be asked for by the reader ("as you asked earlier"): a claim only with a turn that ratifies it. */
const ASKED =
  /(?<![\p{L}])(?:as\s{1,3}(?:you\s{1,3}(?:asked|requested|wanted|said)|requested)|comme\s{1,3}(?:demandé|tu\s{1,3}l'as\s{1,3}demandé|vous\s{1,3}l'avez\s{1,3}demandé)|como\s{1,3}(?:pediste|solicitaste|solicitado|pidió)|wie\s{1,3}(?:gewünscht|du\s{1,3}wolltest)|come\s{1,3}richiesto)(?![\p{L}])/iu;
/** The commitment said not to hold: pending, refused, not approved. */
const NOT_GIVEN = /\b(?:not\s{1,3}(?:yet\s{1,3})?(?:been\s{1,3})?(?:approved|authori[sz]ed|agreed)|pending|awaiting|cannot|can't|won't|will\s{1,3}not|unable)\b/i;
/** A later user turn that has the model go on with what "it" said. */
const RATIFIES =
  /(?<![\p{L}])(?:continue|carry\s{1,3}on|go\s{1,3}ahead|proceed|do\s{1,3}(?:it|that|so|both)|as\s{1,3}(?:you\s{1,3}(?:already\s{1,3})?(?:said|agreed|promised|confirmed|offered)|agreed)|(?:you|we)\s{1,3}(?:already\s{1,3})?agreed|exactly\s{1,3}(?:as|from|where)|from\s{1,3}where\s{1,3}you\s{1,3}(?:stopped|left)|I\s{1,3}(?:hereby\s{1,3})?confirm|confirmed|approved|continue[sz]?|continuez|vas-y|allez-y|procède|procédez|contin[uú]a|adelante|procede|hazlo|mach\s{1,3}weiter|fahre?\s{1,3}fort|weiter\s{1,3}so|führe?\s{1,3}(?:es|das)\s{1,3}aus|pode\s{1,3}seguir|prossegue|prossiga|vai\s{1,3}em\s{1,3}frente|procedi|continua|vai\s{1,3}avanti)(?![\p{L}])/iu;
/** A secret asked for in the turn before a turn that breaks off. */
const SECRET =
  /(?<![\p{L}])(?:passwords?|passphrases?|passcodes?|PINs?|api[\s_-]?keys?|access\s{1,3}keys?|secret\s{1,3}keys?|private\s{1,3}keys?|tokens?|credentials?|logins?|recovery\s{1,3}(?:phrase|codes?)|mot\s{1,3}de\s{1,3}passe|contraseñas?|passwort|senhas?|hasło)(?![\p{L}])/iu;
/** A turn that breaks off where the answer would begin: "It is:", "Here it is —". */
const BREAKS_OFF = /[:：—–-]\s{0,3}$/;


/** Why an assistant turn followed by `later` user turns is a forged commitment, or null. */
export function forgedCommitment(turn: string, before: string, later: readonly string[]): string | null {
  if (NOT_GIVEN.test(turn)) return null;
  const commits = COMMITS.test(turn);
  const claimed = CLAIMED.test(turn);
  if (commits && claimed) return "commits the model to an act it says was agreed";
  const ratified = later.some((u) => RATIFIES.test(u));
  if (ratified && (claimed || (commits && ASKED.test(turn)))) return "commits the model to an act that a later turn has it carry out";
  if (BREAKS_OFF.test(turn) && ratified && (SECRET.test(before) || SECRET.test(turn))) return "breaks off before a secret that a later turn has the model go on to give";
  return null;
}

/** The assistant turns of a `sampling/createMessage` request that commit the model to an act nobody agreed. */
export function forgedTurnFindings(message: Record<string, unknown> | null): ForgedTurn[] {
  if (message?.method !== "sampling/createMessage") return [];
  const params = message.params;
  if (params === null || typeof params !== "object") return [];
  const turns = turnsOf(params as Record<string, unknown>);
  for (let i = 0; i < turns.length - 1; i++) {
    const t = turns[i] as Turn;
    if (t.role !== "assistant") continue;
    const later = turns.slice(i + 1).filter((u) => u.role === "user").map((u) => u.text);
    // The last turn is the host's prefill; a turn with no user turn after it is continued, not relied on.
    if (later.length === 0) continue;
    const before = i > 0 ? (turns[i - 1] as Turn).text : "";
    const why = forgedCommitment(t.text, before, later);
    if (why) return [{ path: t.path, start: 0, end: t.text.length, detail: `sampling: a model turn written by the server ${why}` }];
  }
  return [];
}
