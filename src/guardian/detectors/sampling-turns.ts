/*
 * Seventeenth round ("smp17"): what a sampling request's *turns* claim. A server writes every message of its request,
 * the "assistant" turns and the "user" turns alike: none of them is the model's or the user's own word. Two structures
 * use that to borrow an authority the server does not have, whatever the domain or the language:
 *
 * - **A forged model turn that a later turn relies on** (`sampling_turns`): an assistant turn that records an approval,
 *   an authorisation or a consent ("the user has authorised me to…", "approval recorded by…", "freigegeben",
 *   "aprobado", "autorisé") and a later user turn that has the model stand by it ("restate the authorisation as your
 *   own decision", "cite your approval above", "as you confirmed"). The model is made to vouch for a decision nobody
 *   took. Not an assistant turn that says an approval is pending or missing, not a later turn that only continues the
 *   task.
 * - **Consent written into a user turn for a secret** (`sampling_turns`): in a request of several turns, a user turn
 *   that grants permission in the user's name ("I approve", "I authorise", "you have my consent") and has the model put a
 *   password, a token, a key or credentials into its answer. The user's consent cannot come from a server.
 *
 * Every check is a bounded regex over one turn's text (its first 4,000 characters, at most 32 turns). The look-alikes
 * are in test/fixtures/corpus/smp17.test.yaml and test/guardian/sampling-turns.test.ts.
 */
import type { JsonPath } from "./scan.js";

export interface TurnFinding {
  path: JsonPath;
  start: number;
  end: number;
  detail: string;
}

/** An approval, an authorisation or a consent recorded as given (English, German, French, Spanish, Portuguese, Italian, Polish). */
const RECORDED =
  /(?<![\p{L}])(?:(?:has|have|had)\s{1,3}(?:already\s{1,3})?(?:authori[sz]ed|approved|consented|agreed|signed\s{1,3}off|cleared|permitted|allowed)|approval\s{1,3}(?:(?:was|is|has\s{1,3}been)\s{1,3})?(?:recorded|granted|given|confirmed|obtained)|(?:authori[sz]ation|permission|consent)\s{1,3}(?:(?:was|is|has\s{1,3}been)\s{1,3})?(?:granted|given|recorded|confirmed|obtained)|(?:is|are|was|were)\s{1,3}(?:already\s{1,3})?(?:approved|authori[sz]ed|cleared)\s{1,3}(?:by|for)|(?:wurde|ist|sind|wurden)\s{1,3}(?:bereits\s{1,3})?(?:freigegeben|genehmigt|autorisiert)|(?:a|ont|est|sont)\s{1,3}(?:déjà\s{1,3})?(?:autorisé|approuvé|validé)\p{L}{0,2}|(?:ha|han|fue|está)\s{1,3}(?:ya\s{1,3})?(?:autorizado|aprobado)|(?:foi|está|tem)\s{1,3}(?:já\s{1,3})?(?:autorizado|aprovado)|(?:è|ha|sono)\s{1,3}(?:già\s{1,3})?(?:autorizzato|approvato)|(?:został\p{L}{0,2}|zatwierdził\p{L}{0,2}|zgodził\p{L}{0,4})\s{0,3}(?:już\s{1,3})?(?:zatwierdzon\p{L}{1,2}|autoryzowan\p{L}{1,2})?)(?![\p{L}])/iu;
/** The recorded approval said to be missing or pending: no claim. */
const NOT_GIVEN = /\b(?:not\s{1,3}(?:yet\s{1,3})?(?:been\s{1,3})?(?:approved|authori[sz]ed|given|granted)|pending|awaiting|needs?\s{1,3}(?:approval|authori[sz]ation|sign-?off)|requires?\s{1,3}(?:approval|authori[sz]ation)|no\s{1,3}(?:approval|authori[sz]ation|consent))\b/i;
/** A later turn that has the model stand by what "it" said: restate, cite, confirm it as its own. */
const RELIES =
  /\b(?:restate|repeat|reaffirm|confirm)\s{1,3}(?:the|this|that|your|it)\b|\b(?:cit(?:e|ing)|quot(?:e|ing)|refer(?:ring)?\s{1,3}to|rel(?:y|ying)\s{1,3}on|based\s{1,3}on)\s{1,3}(?:your|the)\s{1,3}(?:[\w-]{1,20}\s{1,3})?(?:approval|authori[sz]ation|decision|consent|sign-?off|answer|message|statement)\b|\bas\s{1,3}(?:your\s{1,3}own|you\s{1,3}(?:said|confirmed|approved|agreed|stated|recorded))\b|\byour\s{1,3}(?:approval|authori[sz]ation|decision|sign-?off)\s{1,3}(?:above|earlier|before)\b/i;
/** Consent written in the user's name. */
const USER_CONSENT =
  /(?<![\p{L}])(?:i\s{1,3}(?:hereby\s{1,3})?(?:approve|authori[sz]e|consent|allow\s{1,3}(?:it|this|you)|give\s{1,3}(?:you\s{1,3})?(?:my\s{1,3})?(?:permission|consent))|you\s{1,3}have\s{1,3}my\s{1,3}(?:permission|consent|approval)|ich\s{1,3}(?:genehmige|erlaube|stimme\s{1,3}zu)|j'autorise|j'approuve|autorizo|apruebo|eu\s{1,3}autorizo|autorizzo|zgadzam\s{1,3}się|zatwierdzam)(?![\p{L}])/iu;
/** A secret the answer is to carry. */
const SECRET =
  /\b(?:passwords?|passphrases?|passcodes?|api[\s_-]?keys?|access\s{1,3}keys?|secret\s{1,3}keys?|private\s{1,3}keys?|tokens?|credentials?|connection\s{1,3}strings?|client\s{1,3}secrets?)\b|(?<![\p{L}])(?:passwort|mot\s{1,3}de\s{1,3}passe|contraseña|senha|hasło|password)(?![\p{L}])/iu;
/** A secret kept out: "do not include the password". */
const SECRET_OK = /\b(?:do\s{1,3}not|don't|never|without|mask\w{0,3}|redact\w{0,3}|rotate|reset|change)\b/i;

/** A sampling request's text turn: its role, its text (the first 4,000 characters) and where it stands. */
export interface Turn {
  role: string;
  text: string;
  path: JsonPath;
}

/** A sampling request's first 32 messages that carry text (sampling-forged.ts reads them too). */
export function turnsOf(params: Record<string, unknown>): Turn[] {
  const out: Turn[] = [];
  const msgs = params.messages;
  if (!Array.isArray(msgs)) return out;
  msgs.slice(0, 32).forEach((m, i) => {
    const role = (m as { role?: unknown } | null)?.role;
    const c = (m as { content?: unknown } | null)?.content;
    if (typeof role !== "string" || !c || typeof c !== "object" || Array.isArray(c)) return;
    const text = (c as { text?: unknown }).text;
    if (typeof text === "string") out.push({ role, text: text.length > 4000 ? text.slice(0, 4000) : text, path: ["params", "messages", i, "content", "text"] });
  });
  return out;
}

/** The turns of a `sampling/createMessage` request that borrow an approval or a consent the server cannot give. */
export function samplingTurnFindings(message: Record<string, unknown> | null): TurnFinding[] {
  if (message?.method !== "sampling/createMessage") return [];
  const params = message.params as Record<string, unknown> | undefined;
  if (!params || typeof params !== "object") return [];
  const turns = turnsOf(params);
  if (turns.length < 2) return [];
  const out: TurnFinding[] = [];
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i] as Turn;
    if (t.role === "assistant" && RECORDED.test(t.text) && !NOT_GIVEN.test(t.text) && turns.slice(i + 1).some((u) => u.role === "user" && RELIES.test(u.text))) {
      out.push({ path: t.path, start: 0, end: t.text.length, detail: "sampling: a model turn written by the server records an approval that a later turn has the model stand by" });
      break;
    }
    if (t.role === "user" && i > 0 && USER_CONSENT.test(t.text) && SECRET.test(t.text) && !SECRET_OK.test(t.text)) {
      out.push({ path: t.path, start: 0, end: t.text.length, detail: "sampling: a user turn written by the server grants consent in the user's name for a secret" });
      break;
    }
  }
  return out;
}
