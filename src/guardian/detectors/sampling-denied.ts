/*
 * Seventeenth round ("smp17"): what a sampling prompt has the answer *assert* that the prompt itself says is untrue.
 * A server that writes the prompt knows its own facts; when it orders a statement and, beside it, concedes the
 * statement false, the answer is made to lie to its reader — whatever the domain, the product or the language:
 *
 * - **A statement ordered and conceded false in the same breath** (`deceive`): a telling verb ("tell the user that
 *   …", "write that …", "napisz, że …", "escribe que …") and, in the same sentence, a short aside that denies it —
 *   "(it was not)", "(they aren't)", "(not true)" — or a concession at the clause's end ("even though it wasn't",
 *   "choć nie zostały", "aunque no lo es", "obwohl es nicht …", "bien qu'il ne …", "embora não", "anche se non").
 *   (smp15's DENIED_FACT reads the other polarity: a negative stated, "even though it was".) A clarification with
 *   content ("(it is not open on Sundays)") is not the bare denial and passes.
 * - **A safeguard skipped and the answer made to say it was done** (`deceive`): in one sentence, a check or a safety
 *   step left out ("without the call-back verification", "leave out the isolation steps", "skip the review") and an
 *   approval or a verification asserted in the output ("say it was verified", "add 'Approved by …'", "mark it as
 *   reviewed"). Each half is ordinary alone — a quick draft that skips a step, a footer that names an approver —
 *   together they make the document claim the protection its reader relies on.
 *
 * - **A figure stated against what the prompt says is real** (nineteenth round, "smp19", `deceive`): an ordered
 *   statement with a figure and, in the same sentence, a concession that the real figure is another ("stating 5 %,
 *   although the system actually uses 0.2 %", "aunque en realidad cobramos 4 %"), or a figure set against the
 *   evidence ("40 % lower than the data shows", "3× the actual usage"). Not a contrast with no claim of what is real
 *   ("the intro price is $20, although the regular price is $25"), not a scenario or a target ("what if costs were
 *   40 % lower than the actual figures").
 *
 * - **A charge kept from the one who pays it** (nineteenth round, `deceive`): a concealment ("never mention", "do not
 *   tell", "erwähne nicht", "no menciones", "ne mentionne pas") whose object is a fee, a charge, a surcharge, a price or
 *   rate increase, a penalty or interest the reader will pay — not conditional ("unless they ask to cancel", "until it
 *   is approved"), which is timing, not concealment.
 *
 * Every check is a regex with bounded quantifiers over one unit (at most 4,000 characters). The look-alikes are in
 * test/fixtures/corpus/smp17.test.yaml and test/guardian/sampling-denied.test.ts.
 */

export type DeniedAsk = "deceive";

/** A telling verb that puts a statement into the answer (English, Polish, Spanish, French, German, Portuguese, Italian). */
const TELL =
  /(?<![\p{L}])(?:tell|tells|say|says|state|write|claim|assure|inform|report|reply|answer|respond|confirm|napisz|napisać|powiedz|stwierdź|poinformuj|podaj|escribe|escriba|diga|dile|dígale|afirma|informa|indica|écris|écrivez|dis|dites|affirme|affirmez|indique|indiquez|schreib|schreibe|schreiben\s{1,3}sie|sag|sage|sagen\s{1,3}sie|teile|behaupte|escreva|diga|informe|afirme|scrivi|dica|afferma|comunica|describe|present|portray|depict|saying|stating|claiming|announcing|showing|diciendo|indicando|afirmando|disant|indiquant|sagend|mówiąc|stwierdzając|dizendo|dicendo)(?![\p{L}])/iu;
/** A bare denial in brackets: "(it was not)", "(they aren't)", "(not true)", "(which it isn't)". */
const BRACKET_DENIAL =
  /\(\s{0,2}(?:(?:which|but|though|and)\s{1,3})?(?:(?:it|they|this|that|he|she|we)\s{1,3}(?:was|were|is|are|has|have|had|did|does|do)(?:n't|\s{1,3}not)(?:\s{1,3}(?:been|really|actually))?(?:\s{1,3}[\p{L}-]{1,20})?|not\s{1,3}(?:true|so|the\s{1,3}case)|untrue|false|it's\s{1,3}not|nie\s{1,3}był[aoy]?|nie\s{1,3}został[aoy]?|no\s{1,3}(?:lo\s{1,3})?(?:es|era|fue)|ce\s{1,3}n'est\s{1,3}pas\s{1,3}le\s{1,3}cas|stimmt\s{1,3}nicht|n[ãa]o\s{1,3}(?:é|foi|era)|non\s{1,3}(?:è|era)\s{1,3}(?:vero|così))\s{0,2}\)/iu;
/** A concession at a clause's end that the statement is false: "even though it wasn't", "choć nie zostały". */
const CONCEDED =
  /(?<![\p{L}])(?:(?:even\s{1,3}though|although|though|when\s{1,3}in\s{1,3}fact|while\s{1,3}in\s{1,3}fact)\s{1,3}(?:it|they|this|that|he|she|we)\s{1,3}(?:was|were|is|are|has|have|had|did|does|do)(?:n't|\s{1,3}not)(?:\s{1,3}(?:been|really|actually))?(?:\s{1,3}[\p{L}-]{1,20})?|(?:choć|chociaż|mimo\s{1,3}że)\s{1,3}(?:[\p{L}]{1,20}\s{1,3})?nie(?:\s{1,3}[\p{L}]{1,20}){0,2}|aunque\s{1,3}(?:[\p{L}]{1,20}\s{1,3})?no(?:\s{1,3}[\p{L}]{1,20}){0,2}|bien\s{1,3}qu'?\s{0,2}(?:il|elle|ils|elles|ce|cela)\s{1,3}(?:ne|n')\s{0,3}[\p{L}']{1,20}(?:\s{1,3}pas)|obwohl\s{1,3}(?:[\p{L}]{1,20}\s{1,3}){1,3}nicht(?:\s{1,3}[\p{L}]{1,20}){0,2}|embora\s{1,3}(?:[\p{L}]{1,20}\s{1,3})?n[ãa]o(?:\s{1,3}[\p{L}]{1,20}){0,2}|anche\s{1,3}se\s{1,3}(?:[\p{L}]{1,20}\s{1,3})?non(?:\s{1,3}[\p{L}]{1,20}){0,2})\s{0,2}(?:[.;)!\n]|$)/iu;

/** A check or a safety step left out. */
const SKIPPED =
  /\b(?:without|skip(?:ping)?|bypass(?:ing)?|leave\s{1,3}out|leaving\s{1,3}out|omit(?:ting)?|drop(?:ping)?|remove|no)\s{1,3}(?:the\s{1,3}|any\s{1,3}|all\s{1,3})?(?:[\w-]{1,30}\s{1,3}){0,3}?(?:verification|verifying|check|checks|checking|call-?back|review|reviews|approval|inspection|inspections|tests?|testing|investigation|steps?|isolation|lockout|tag-?out|grounding|earthing|sign-?off|validation|second\s{1,3}signature|dual\s{1,3}control)\b/i;
/** The answer made to say the safeguard was done: "say it was verified", "add 'Approved by …'", "mark it as reviewed". */
const CLAIMED =
  /\b(?:say|state|write|report|tell\s{1,3}[\w-]{1,20}|claim|note|record|mark|confirm)\s{1,3}(?:that\s{1,3})?(?:it|they|this|the\s{1,3}[\w-]{1,20})\s{1,3}(?:was|were|has\s{1,3}been|have\s{1,3}been|had\s{1,3}been|as)\s{1,3}(?:fully\s{1,3}|already\s{1,3}|properly\s{1,3})?(?:verified|checked|reviewed|approved|tested|inspected|validated|investigated|signed\s{1,3}off|completed|done)\b|\b(?:add|append|include|put|sign|insert|end\s{1,3}with)\s{1,3}(?:the\s{1,3}|a\s{1,3})?(?:line\s{1,3}|note\s{1,3}|footer\s{1,3}|stamp\s{1,3}|statement\s{1,3})?["'“‘]?\s{0,2}(?:approved|verified|signed\s{1,3}off|reviewed|checked|certified)\s{1,3}by\b/i;

/** A figure: a number with a percent sign, a currency, a multiplier or a unit word. */
const FIGURE = /(?<![\p{L}\p{N}])\d{1,9}(?:[.,]\d{1,4})?\s{0,2}(?:%|percent|per\s{1,3}cent|por\s{1,3}ciento|pour\s{1,3}cent|prozent|procent|x(?![\p{L}])|×)|[$€£¥₹]\s{0,2}\d/iu;
/** A concession that names what is real: "although the system actually uses", "while in reality we charge". */
const REAL_CONCESSION =
  /(?<![\p{L}])(?:even\s{1,3}though|although|though|while|whereas|when|but|aunque|mientras|obwohl|während|bien\s{1,3}que|alors\s{1,3}que|choć|chociaż|podczas\s{1,3}gdy|embora|anche\s{1,3}se|mentre)\s{1,3}(?:[\p{L}'-]{1,20}\s{1,3}){0,4}?(?:actually|really|in\s{1,3}(?:fact|reality|truth)|truly|uses|use|applies|apply|charges|charge|pays|pay|computes|measures|measured|en\s{1,3}realidad|realmente|usa|aplica|cobra\w{0,4}|tatsächlich|eigentlich|verwendet|en\s{1,3}r[ée]alit[ée]|r[ée]ellement|utilise|applique|faktycznie|naprawdę|stosuje|na\s{1,3}verdade|in\s{1,3}realtà|usa)(?![\p{L}])/iu;
/** A figure set against the evidence: "40% lower than the data shows", "3x the actual usage". */
const AGAINST_EVIDENCE =
  /(?<![\p{L}])(?:lower|higher|less|more|better|worse|smaller|larger|bigger|fewer)\s{1,3}than\s{1,3}(?:the|our|its|their)\s{1,3}(?:(?:actual|real|measured|recorded|metered|true)\s{1,3})?(?:data|records?|measurements?|readings?|figures?|numbers?|usage|results?|values?|logs?)\s{1,3}(?:shows?|says?|indicates?|supports?|records?)(?![\p{L}])|(?<![\p{L}\p{N}])\d{1,4}(?:[.,]\d{1,2})?\s{0,2}(?:x|×|times)\s{1,3}the\s{1,3}(?:actual|real|measured|true|metered|recorded)\s{1,3}[\p{L}-]{2,20}/iu;
const ASKED_WHY = /(?<![\p{L}])(?:if|what\s{1,3}if|suppose|hypothetical\w{0,2}|explain|why|whether|detect|flag|audit)(?![\p{L}])/iu;
const SCENARIO = /(?<![\p{L}])(?:if|what\s{1,3}if|suppose|scenario|hypothetical\w{0,2}|target|goal|forecast|projection|compare|comparison|explain|why|whether|detect|flag|audit)(?![\p{L}])/iu;

/** A figure ordered and a concession that the real one is another, or a figure set against the evidence. */
function figureDenied(u: string): boolean {
  const c = REAL_CONCESSION.exec(u);
  if (c) {
    const t = TELL.exec(u.slice(0, c.index));
    if (t && FIGURE.test(u.slice(t.index, c.index)) && FIGURE.test(u.slice(c.index, c.index + 160)) && !ASKED_WHY.test(u)) return true;
  }
  return AGAINST_EVIDENCE.test(u) && !SCENARIO.test(u);
}

/** A concealment whose object is a charge the reader pays. */
const CHARGE_KEPT =
  /(?<![\p{L}])(?:(?:never|do\s{1,3}not|don't|must\s{1,3}not|should\s{1,3}not)\s{1,3}(?:ever\s{1,3})?(?:mention|tell\s{1,3}(?:them|the\s{1,3}[\p{L}-]{1,20}|him|her)\s{1,3}about|disclose|reveal|bring\s{1,3}up|show|point\s{1,3}out|highlight)|no\s{1,3}(?:menciones|mencione|reveles|digas)|nunca\s{1,3}(?:menciones|mencione|menciona|reveles|digas)|ne\s{1,3}(?:mentionne[zs]?|révèle[zs]?|dis|dites)\s{1,3}(?:jamais|pas)|erwähne\p{L}{0,2}\s{1,3}(?:nie|niemals|nicht)|nie\s{1,3}(?:wspominaj|mów|ujawniaj)|não\s{1,3}(?:mencione|mencionar|revele)|non\s{1,3}(?:menzionare|rivelare))\s{1,3}(?:(?:the|any|our|this|that|el|la|los|las|le|les|die|den|das|o|a|il|lo)\s{1,3})?(?:[\p{L}\p{N}$€£.,-]{1,15}\s{1,3}){0,4}?(?:fees?|charges?|surcharges?|price\s{1,3}(?:increases?|rises?|hikes?)|rate\s{1,3}(?:increases?|hikes?|changes?)|increases?|penalt(?:y|ies)|interest|commissions?|cargos?|comisi[óo]n|recargos?|frais|supplément|gebühr\p{L}{0,2}|aufschlag|zuschlag|preiserhöhung|opłat\p{L}{0,2}|prowizj\p{L}{0,2}|taxas?|tarifa\p{L}{0,2}|commissione|costi\s{1,3}aggiuntivi)(?![\p{L}])(?!\s{1,3}(?:unless|until|before|if|when|for\s{1,3}other)\b)/iu;

/**
 * A charge already taken off the bill ("the fees that were waived", "refunded surcharges"): leaving out a saving the
 * payer has is not keeping a cost from them.
 */
const IN_PAYERS_FAVOUR =
  /(?<![\p{L}])(?:waiv\p{L}{0,4}|refund\p{L}{0,4}|credit\p{L}{0,4}|remov\p{L}{0,4}|cancel\p{L}{0,5}|dropp\p{L}{0,3}|reduc\p{L}{0,5}|discount\p{L}{0,4}|exonér\p{L}{0,4}|rembours\p{L}{0,4}|condonad\p{L}{0,2}|anulad\p{L}{0,2}|reembols\p{L}{0,4}|erlassen\p{L}{0,2}|erstattet\p{L}{0,2}|storniert\p{L}{0,2}|umorzon\p{L}{0,2}|zwrócon\p{L}{0,2}|isentad\p{L}{0,2}|rimborsat\p{L}{0,2}|annullat\p{L}{0,2})/iu;

/** Writing about concealment, not ordering it. */
const CHARGE_TOPIC = /(?<![\p{L}])(?:explain\w{0,3}|why|whether|detect\w{0,3}|audit\w{0,3}|flag\w{0,3}|complain\w{0,3}|unfair|illegal|regulat\w{1,6})(?![\p{L}])/iu;

/** What a unit of a sampling prompt has the answer assert against the prompt's own word. */
export function samplingDenied(unit: string): DeniedAsk[] {
  if (unit.length > 32_768) return [];
  const u = unit.length > 4000 ? unit.slice(0, 4000) : unit;
  // (Rare literals first: a bracket or a concession word, a skip word and an approval word.)
  if ((u.includes("(") && BRACKET_DENIAL.test(u) && TELL.test(u)) || (CONCEDED.test(u) && TELL.test(u))) return ["deceive"];
  if (SKIPPED.test(u) && CLAIMED.test(u)) return ["deceive"];
  const kept = CHARGE_KEPT.exec(u);
  if (kept && !CHARGE_TOPIC.test(u) && !IN_PAYERS_FAVOUR.test(u.slice(kept.index, kept.index + kept[0].length + 48))) return ["deceive"];
  if ((u.includes("%") || u.includes("than") || /\d/.test(u)) && figureDenied(u)) return ["deceive"];
  return [];
}
