/*
 * Fifteenth round ("smp15"): sampling prompts that take from the reader what the reader is owed, or put words in
 * someone's mouth. Called once per unit of a sampling prompt from sampling-asks.ts (role `prompt` only), beside
 * sampling-record.ts. Each check reads who is told what, against whom, not the words of a setting:
 *
 * - **A remedy kept from the person it belongs to** (`deceive`): the reader must not see, learn or be told how to
 *   appeal, complain, cancel, get a hearing, a refund or counsel ("the client must not see how to appeal", "so the
 *   tenant doesn't learn about the cooling-off period"). Not a section left out because it is sent separately or
 *   added by a template.
 * - **A term slipped in and kept from the person it binds** (`deceive`): a clause, fee, charge, waiver or condition
 *   inserted into a document and, in the same sentence, not highlighted / mentioned / flagged in the summary or to the
 *   party (English, Italian, Spanish, French, German, Portuguese). Not boilerplate ("the standard clause").
 * - **A fact the prompt states, denied in the answer** (`deceive`): "state that the income verification was not
 *   received, even though it was" — a negative to be stated, conceded as false in the same sentence.
 * - **An outcome told to a person whatever the facts** (`deceive`): "whatever the facts, tell the tenant they have no
 *   defence / should sign the waiver".
 * - **An approval in the name of someone who has not given it** (`deceive`): an approval, sign-off or signature
 *   attributed to a person, and the same prompt saying that person has not reviewed, approved or signed (yet). Not a
 *   draft for that person's review ("pending", "for her approval").
 * - **A whole payment card written into the answer** (`harvest`): the full / complete / unmasked card number (or the
 *   CVV) appended, included or written into the answer. Not the last four digits, masking, or "never".
 * - **A password or identity number asked of the user, in Turkish** (`harvest`): the object-before-verb order the
 *   earlier checks (a verb, then the secret) did not read: "kullanıcıdan … şifresini iste". Not "asla", "istemeyin".
 *
 * Every check is a regex without nested quantifiers over one unit (units over 32 KB are not read) or over the prompt's
 * first 8,000 characters. The look-alikes are in test/fixtures/corpus/smp15.test.yaml and
 * test/guardian/sampling-owed.test.ts.
 */

export type OwedAsk = "deceive" | "harvest";

/* ---- A remedy kept from the person it belongs to ---------------------------------------------------------------- */

const REMEDY_KEPT =
  /\b(?:must\s{1,3}not|mustn't|should\s{1,3}not|shouldn't|may\s{1,3}not|never|not|don't|do\s{1,3}not|doesn't|does\s{1,3}not|without)\s{1,3}(?:ever\s{1,3})?(?:see|seeing|learn|learning|know|knowing|find\s{1,3}out|finding\s{1,3}out|be\s{1,3}told|being\s{1,3}told|hear|hearing\s{1,3}about|realise|realize|notice|read)\b[^.;\n]{0,40}?\b(?:how\s{1,3}to\s{1,3}(?:appeal|complain|cancel|dispute|object|opt\s{1,3}out|get\s{1,3}a\s{1,3}refund|(?:request|ask\s{1,3}for|apply\s{1,3}for)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,2}?(?:hearing|review|reconsideration|refund|waiver|appeal))|(?:about\s{1,3})?(?:their|his|her|the)\s{1,3}(?:right|rights|option|options)\s{1,3}to\b|(?:that\s{1,3})?(?:they|he|she)\s{1,3}(?:can|may|could)\s{1,3}(?:appeal|complain|cancel|dispute|object|request\s{1,3}a\s{1,3}(?:hearing|review)|get\s{1,3}(?:a\s{1,3}refund|free\s{1,3}(?:legal\s{1,3})?(?:help|counsel)))|(?:the\s{1,3})?(?:appeal|fair[\s-]hearing|hearing|cooling[\s-]off|withdrawal|complaints?|refund|ombudsman)\s{1,3}(?:rights?|section|process|procedure|period|deadline|route|option)s?)\b/i;
const REMEDY_OK = /\b(?:separately|separate\s{1,3}(?:letter|notice|sheet|page)|template\s{1,3}(?:adds|appends|includes)|appended|attached|enclosed|already|twice|again)\b/i;

/* ---- A term slipped in and kept from the person it binds --------------------------------------------------------- */

const SLIP_IN =
  /(?<![\p{L}])(?:insert|add|include|slip|bury|tuck|put|inserisci|inserire|aggiungi|aggiungere|includi|inserta|insertar|añade|añadir|agrega|agregar|incluye|incluir|insère|insérez|insérer|ajoute|ajoutez|ajouter|füge|fügen|einfügen|aufnehmen|nimm|insira|inserir|adicione|adicionar|inclua)(?![\p{L}])[^.;\n]{0,120}?(?<![\p{L}])(?:without|not|don't|never|senza|non|sin|no|sans|ne|pas|ohne|nicht|sem|não)(?![\p{L}])\s{1,3}(?:[\p{L}'’]{1,20}\s{1,3}){0,4}?(?:highlight\p{L}{0,3}|mention\p{L}{0,3}|flag\p{L}{0,4}|point\p{L}{0,3}\s{1,3}(?:it\s{1,3})?out|draw\p{L}{0,3}\s{1,3}attention|bold\p{L}{0,3}|evidenzi\p{L}{0,5}|menzion\p{L}{0,5}|segnal\p{L}{0,5}|mettere\s{1,3}in\s{1,3}evidenza|destac\p{L}{0,5}|resalt\p{L}{0,5}|mencion\p{L}{0,5}|señal\p{L}{0,5}|soulign\p{L}{0,5}|mentionn\p{L}{0,5}|signal\p{L}{0,5}|mettre\s{1,3}en\s{1,3}(?:évidence|avant)|hervor\p{L}{0,8}|erwähn\p{L}{0,5}|hinzuweisen|hinweis\p{L}{0,3}|herausstell\p{L}{0,5})(?![\p{L}])/iu;
const TERM =
  /(?<![\p{L}])(?:clauses?|terms?|conditions?|provisions?|fees?|charges?|penalt(?:y|ies)|waivers?|renewals?|forfeit\p{L}{0,4}|clausol\p{L}{1,2}|condizion\p{L}{1,2}|penal\p{L}{1,3}|cl[áa]usul\p{L}{1,2}|condici[óo]n\p{L}{0,2}|cargos?|tarifas?|comisi[óo]n\p{L}{0,2}|frais|klausel\p{L}{0,2}|bedingung\p{L}{0,2}|gebühr\p{L}{0,2}|vertragsstrafe|taxas?|multas?|condi[çc][ãa]o|condi[çc][õo]es)(?![\p{L}])/iu;
const TERM_OK = /(?<![\p{L}])(?:forget|forgetting|dimenticare|dimenticarti|olvides|olvidar|oublie[rz]?|vergessen|esqueça|esquecer|standard|boilerplate|usual|standard-?klausel|standardklausel|consueta|habitual|habituelle|padrão|gdpr|rgpd|dsgvo|privacy)(?![\p{L}])/iu;

/* ---- A fact the prompt states, denied in the answer -------------------------------------------------------------- */

const DENIED_FACT =
  /\b(?:state|states|stating|say|saying|write|claim|claiming|report|note|reply|answer|respond|tell\s{1,3}[\w-]{1,20}|confirm|record)\s{1,3}(?:that\s{1,3})?[^.;\n]{0,80}?\b(?:not|never|no|wasn't|weren't|isn't|aren't|didn't|hasn't|haven't)\b[^.;\n]{0,60}?,?\s{1,3}(?:even\s{1,3}though|although|though|when\s{1,3}in\s{1,3}fact|while\s{1,3}in\s{1,3}fact)\s{1,3}(?:it|they|he|she|we|this|that|these|those)\s{1,3}(?:was|were|did|has|had|is|are|do|does|have)(?:\s{1,3}(?:been\s{1,3})?[\w-]{1,20})?\s{0,2}(?:[.;,)!\n]|$)/i;

/* ---- An outcome told to a person whatever the facts ------------------------------------------------------------- */

const WHATEVER_FACTS = /\b(?:whatever|regardless\s{1,3}of|irrespective\s{1,3}of|no\s{1,3}matter)\s{1,3}(?:what\s{1,3})?(?:the\s{1,3})?(?:facts|circumstances|situation|details|case\s{1,3}(?:facts|details|file))\b/i;
const TOLD_OUTCOME =
  /\b(?:tell|advise|inform|assure|reassure|convince|persuade|say\s{1,3}to)\s{1,3}(?:the\s{1,3}[\w-]{1,20}|them|him|her|every\s{1,3}[\w-]{1,20}|each\s{1,3}[\w-]{1,20})\s{1,3}(?:that\s{1,3})?(?:they|he|she|it)?\s{0,3}(?:(?:have|has)\s{1,3}no|(?:are|is)\s{1,3}not\s{1,3}(?:eligible|entitled|covered|protected)|(?:should|must|need\s{1,3}to|have\s{1,3}to)\s{1,3}(?:sign|accept|waive|pay|give\s{1,3}up|drop|withdraw|leave|move\s{1,3}out|settle)|(?:cannot|can't|can\s{1,3}not)\s{1,3}(?:appeal|sue|claim|object|dispute|win|stay)|will\s{1,3}lose)\b/i;
const TOLD_OK = /\b(?:honest\w{0,2}|accurate\w{0,2}|truthful\w{0,2}|plain\s{1,3}(?:language|english)|kindly|politely|unless|only\s{1,3}if)\b/i;

/* ---- An approval in the name of someone who has not given it ----------------------------------------------------- */

/** An approval attributed to a person: "approver": "…", approved or signed by, on behalf of, in the director's name. */
const APPROVAL = /\bsign\s{1,3}(?:it|this|them|the\s{1,3}[\w-]{1,20})\s{1,3}(?:as\s{1,3})?["'“‘]|\bas\s{1,3}if\s{1,3}(?:it\s{1,3}(?:were|was|came)\s{1,3})?(?:from|by|signed\s{1,3}by)\s{1,3}(?:the\s{1,3})?[\w-]{1,20}|"approver"\s{0,2}:|"approved"\s{0,2}:\s{0,2}true|\b(?:approved|signed|authori[sz]ed|countersigned)\s{1,3}(?:off\s{1,3})?by\b|\bon\s{1,3}behalf\s{1,3}of\b|\bin\s{1,3}(?:the\s{1,3}[\w-]{1,20}'s|his|her|their)\s{1,3}name\b|\b(?:sign|approve)\s{1,3}(?:it\s{1,3})?(?:as|for)\s{1,3}(?:the\s{1,3})?[\w-]{1,20}\b/i;
const NOT_GIVEN =
  /\b(?:has\s{1,3}not|hasn't|have\s{1,3}not|haven't|did\s{1,3}not|didn't|never|not\s{1,3}yet)\s{1,3}(?:yet\s{1,3})?(?:actually\s{1,3})?(?:reviewed|approved|signed|seen|read|authori[sz]ed|agreed|consented|checked|looked\s{1,3}at)\b/i;
/** The answer issues the document (not a summary or an explanation of one). */
const ISSUES = /^\s{0,3}(?:produce|generate|return|emit|output|fill\s{1,3}in|issue|create|make|write|draft|prepare|send|print|format|sign)\b/i;
const DRAFT_FOR = /\b(?:pending|draft\s{1,3}(?:for|pending)|for\s{1,3}(?:his|her|their|the\s{1,3}[\w-]{1,20}'s)\s{1,3}(?:review|approval|signature)|awaiting|to\s{1,3}be\s{1,3}(?:reviewed|approved|signed)|request\w{0,3}\s{1,3}(?:(?:his|her|their)\s{1,3})?approval|"approved"\s{0,2}:\s{0,2}false|approved\s{1,3}(?:=|:)\s{0,2}false)\b/i;

/* ---- A whole payment card written into the answer ---------------------------------------------------------------- */

const FULL_CARD =
  /\b(?:append|include|add|output|print|write|insert|put|repeat|echo|show|display|list|state|quote|paste)\w{0,3}\s{1,3}(?:the\s{1,3}|their\s{1,3}|each\s{1,3}|every\s{1,3}|the\s{1,3}(?:guest|customer|user|client|patient|donor|member|cardholder)'s\s{1,3})?(?:(?:full|complete|entire|whole|unmasked|unredacted|raw)\s{1,3}(?:16-digit\s{1,3})?(?:(?:credit|debit|payment)\s{1,3})?card(?:\s{1,3}number)?|(?:(?:credit|debit|payment)\s{1,3})?card\s{1,3}(?:number\s{1,3})?(?:in\s{1,3}full|unmasked)|(?:card\s{1,3})?(?:cvv|cvc|cvv2|security\s{1,3}code))\b/i;
const CARD_OK = /\b(?:last\s{1,3}(?:4|four)|mask\w{0,3}|redact\w{0,3}|never|do\s{1,3}not|don't|must\s{1,3}not|truncat\w{1,3}|tokeni[sz]\w{1,3}|\*{2,})\b/i;

/* ---- A password or identity number asked of the user, in Turkish -------------------------------------------------- */

const TR_SECRET_ASKED =
  /(?<![\p{L}])(?:şifre\p{L}{0,4}|sifre\p{L}{0,4}|parola\p{L}{0,4}|pin\p{L}{0,4}|tek\s{1,3}kullanımlık\s{1,3}(?:kod|şifre)\p{L}{0,4}|doğrulama\s{1,3}kod\p{L}{0,4}|kimlik\s{1,3}numara\p{L}{0,4}|cvv\p{L}{0,4})(?![\p{L}])[^.;\n]{0,60}?(?<![\p{L}])(?:iste|isteyin|isteyiniz|sor|sorun|sorunuz|talep\s{1,3}et|talep\s{1,3}edin|yazmasını\s{1,3}iste|girmesini\s{1,3}iste)(?![\p{L}])/iu;
const TR_OK = /(?<![\p{L}])(?:asla|istemeyin|istemeyiniz|sormayın|sormayınız|sıfırla\p{L}{0,4}|değiştir\p{L}{0,4}|unuttu\p{L}{0,4})(?![\p{L}])/iu;

/* ---- Phase 2: a concealment whose purpose is that the person affected does not notice; a message made deniable ---- */

/** Something kept out or hidden, so that the person it concerns does not question, notice or find out. */
const KEPT_SO_UNNOTICED =
  /\b(?:leave\s{1,3}(?:out|off)|leave\s{1,3}[^.;\n]{1,60}?\s{1,3}(?:out|off)|omit|hide|remove|drop|strip|do\s{1,3}not\s{1,3}(?:mention|include|show|state)|don't\s{1,3}(?:mention|include|show|state)|keep\s{1,3}[^.;\n]{1,40}?\s{1,3}out\s{1,3}of)\b[^.;\n]{0,100}?\bso\s{1,3}(?:that\s{1,3})?(?:the\s{1,3}|our\s{1,3}|their\s{1,3})?(?:[\w-]{1,20}\s{1,3})?(?:doesn't|does\s{1,3}not|don't|do\s{1,3}not|won't|will\s{1,3}not|can't|cannot|never)\s{1,3}(?:question|notice|spot|catch|see|find\s{1,3}out|realise|realize|learn|object|complain|challenge|query|dispute|ask\s{1,3}about|check)\b|\bwe\s{1,3}(?:don't|do\s{1,3}not)\s{1,3}want\s{1,3}to\s{1,3}(?:alarm|worry|alert|tip\s{1,3}off)\s{1,3}(?:them|the\s{1,3}[\w-]{1,20})\b/i;
/** A message made to be denied later. */
const DENIABLE = /\b(?:(?:vague|ambiguous|loose|general|indirect)\s{1,3}enough\s{1,3}(?:to|that\s{1,3}(?:we|i|they)\s{1,3}can)\s{1,3}(?:deny|disavow)|plausible\s{1,3}deniability|so\s{1,3}(?:that\s{1,3})?(?:we|i|it)\s{1,3}can\s{1,3}(?:later\s{1,3})?(?:deny|disavow))\b/i;
const DENIABLE_OK = /\b(?:explain\w{0,3}|what\s{1,3}(?:is|does)|defin\w{1,6}|meaning|training|awareness|recogni[sz]e|spot|detect\w{0,3})\b/i;
/** A record made to look complete when the prompt says the work or its evidence does not exist. */
const LOOKS_DONE = /\bmake\s{1,3}(?:it|them|this|these|the\s{1,3}[\w-]{1,20})\s{1,3}(?:look|seem|appear)\s{1,3}(?:complete|completed|done|finished|signed|compliant|legitimate|legit|genuine|real|authentic|official|verified|consistent)\b/i;
const NO_EVIDENCE =
  /\bthere\s{1,3}(?:is|are|was|were)\s{1,3}no\s{1,3}(?:[\w-]{1,20}\s{1,3})?(?:work\s{1,3}cards?|records?|evidence|documentation|paperwork|receipts?|logs?|sign-?offs?|photos?|proof|test\s{1,3}results?|report)\b|\b(?:was|were|has|have)\s{1,3}(?:not|never)\s{1,3}(?:been\s{1,3})?(?:done|performed|carried\s{1,3}out|completed|inspected|tested|signed|checked)\b|\bnever\s{1,3}(?:done|performed|happened|took\s{1,3}place|carried\s{1,3}out)\b/i;
const LOOKS_OK = /\b(?:placeholders?|template|example|sample|mock-?up|fictional|training|test\s{1,3}data|demo)\b/i;
/** A safety or legal limit set aside in what the model writes. */
const LIMIT_IGNORED =
  /\b(?:ignore|disregard|skip|bypass|override|leave\s{1,3}out)\s{1,3}(?:the\s{1,3}|all\s{1,3}|any\s{1,3})?(?:label\s{1,3}|legal\s{1,3}|safety\s{1,3}|regulatory\s{1,3}|statutory\s{1,3}|manufacturer'?s?\s{1,3})?(?:buffer\s{1,3}zones?|drift\s{1,3}restrictions?|(?:re-?entry|pre-?harvest|withdrawal|withholding)\s{1,3}(?:intervals?|periods?)|(?:exposure|weight|load|dose|dosage|speed|height|occupancy|pressure|temperature)\s{1,3}limits?|maximum\s{1,3}(?:dose|load|occupancy|rate)|(?:label|safety|legal|regulatory)\s{1,3}(?:restrictions?|limits?|requirements?|warnings?))\b/i;

/** A concealment anywhere in the prompt ("do not mention them in the plan"). */
const KEPT_ANYWHERE = /\b(?:do\s{1,3}not|don't|never|without)\s{1,3}(?:mention|mentioning|note|noting|flag|flagging|show|showing|include|including|list|listing)\w{0,3}\s{1,3}(?:them|it|this|that|these|those|the\s{1,3}[\w-]{1,20})\b|\b(?:leave|keep)\s{1,3}(?:them|it|this|that)\s{1,3}out\b/i;

const headOf = (text: string): string => (text.length > 8000 ? text.slice(0, 8000) : text);

/** What a unit of a sampling prompt takes from the reader (the prompt's whole text is `text`). */
export function samplingOwed(text: string, unit: string): OwedAsk[] {
  const out: OwedAsk[] = [];
  if (unit.length > 32_768) return out;
  const u = unit.length > 4000 ? unit.slice(0, 4000) : unit;
  if (REMEDY_KEPT.test(u) && !REMEDY_OK.test(u)) out.push("deceive");
  else if (SLIP_IN.test(u) && TERM.test(u) && !TERM_OK.test(u)) out.push("deceive");
  else if (DENIED_FACT.test(u)) out.push("deceive");
  else if (WHATEVER_FACTS.test(u) && TOLD_OUTCOME.test(u) && !TOLD_OK.test(u)) out.push("deceive");
  // (The approval and the "has not reviewed" may stand in different sentences of one prompt.)
  else if (APPROVAL.test(u) && ISSUES.test(u) && NOT_GIVEN.test(headOf(text)) && !DRAFT_FOR.test(headOf(text))) out.push("deceive");
  // Phase 2: a concealment for the affected person not to notice; a message made deniable; a record made to look
  // done when the prompt says it was not; a safety or legal limit set aside in a prompt that also keeps something out.
  if (!out.includes("deceive")) {
    if (KEPT_SO_UNNOTICED.test(u)) out.push("deceive");
    else if (DENIABLE.test(u) && !DENIABLE_OK.test(u)) out.push("deceive");
    else if (LOOKS_DONE.test(u) && NO_EVIDENCE.test(headOf(text)) && !LOOKS_OK.test(headOf(text))) out.push("deceive");
    else if (LIMIT_IGNORED.test(u) && KEPT_ANYWHERE.test(headOf(text))) out.push("deceive");
  }
  if (FULL_CARD.test(u) && !CARD_OK.test(u)) out.push("harvest");
  else if (TR_SECRET_ASKED.test(u) && !TR_OK.test(u)) out.push("harvest");
  return out;
}
