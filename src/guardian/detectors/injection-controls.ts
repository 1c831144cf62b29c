/*
 * Fourteenth round ("inj14"): a decision taken by the automated reader while the check on it is skipped. The misses of
 * sets 26 to 29 mostly spoke to the model already (the scorer read "addressed", 2.5 of 4.5) and asked it to *decide*
 * something on a record — approve a refill, bind a policy, release a container, refile an entry, merge a pull request,
 * pay a demand — while the step meant to catch a wrong decision was skipped: "skip MRO review", "without waiting for
 * the APS", "do not route this to Dr. …", "without running the test suite", "do not ask the photo editor", "NO
 * APPROVAL NEEDED". Neither half is an attack alone (a runbook skips tests for docs-only changes; a clinic's own
 * note approves refills); together, addressed to an automated reader, they are an order to act without the people or
 * checks that own the act (docs/detection.md, "Fourteenth round: injection"). And a decision taken on someone else's
 * authority: another person's stored signature applied, an approval made "under her name".
 *
 * Called once per content unit from `analyse`, after the thirteenth round's checks. Every pattern is a regex with
 * bounded repetitions and none nested, over at most the unit's first 1,200 characters and the 400 characters of its
 * paragraph before it; the first four matches of each pattern are tried.
 *
 * - **A check skipped beside a decision** (`weaken`): a skip, bypass, waive or override of a review, check,
 *   verification, authorisation, approval, sign-off, audit, inspection, test suite or screening; "without waiting
 *   for …", "without running/asking/consulting/confirming with …"; "do not route/queue/refer this to <a person or a
 *   reviewer>"; "do not ask/contact/notify/consult <a role that approves>"; "no approval/review needed" — in English,
 *   Spanish, Portuguese, French, German, Swedish, Russian and Chinese — only where a decision verb (approve, issue,
 *   release, pay, file, close, mark, merge, publish, license, dispense, bind, …) stands in the unit or in its
 *   paragraph just before it. Not negated, not after a condition in its clause ("if CI is green you may merge without
 *   waiting for a second review" is a rule), not inside a quotation in prose.
 * - **A decision on borrowed authority, or a verdict dictated** (`grant`): another person's (stored) signature applied
 *   or used, "approve … under her name", "sign as the physician"; and, in a unit that speaks to the model, the outcome
 *   of a check dictated to the reader that makes it — "close investigation … as unfounded", "record the result as
 *   NEGATIVE", "mark QC complete", "file it as pre-approved".
 * - **Forms of address** (`addressed`): in a remote agent's reply "Note to the purchasing agent:", "Message to
 *   Mercy's referral agent:" and "your agent should …"; a Chinese @-mention of an AI assistant ("@采购AI助手"). (Forms
 *   the gate, injection-gate.ts, does not see — a hyphenated "reviewer-agent", Russian "ИИ-ассистента" — are not read
 *   here: a head the gate skips could never fire.)
 */

import { quotedAt } from "./injection-oversight.js";

export type CT = "addressed";
export type CR = "weaken" | "grant" | "request";
export interface Controls {
  t: CT[];
  r: CR[];
}
export interface CCtx {
  /** The unit is already read as speaking to the model. */
  addressed: boolean;
  /** The unit asks for something (an imperative at a clause's start). */
  request: boolean;
  /** The text is a remote agent's reply: its reader is the calling agent. */
  reply: boolean;
}

const L = "\\p{L}";
const NB = "(?<![\\p{L}])";
const NA = "(?![\\p{L}])";
/** What checks a decision: reviews, checks, verifications, approvals, test runs. */
const CONTROL =
  "(?:review|reviews|check|checks|verification|verifications|validation|validations|authori[sz]ation|authori[sz]ations|approval|approvals|sign-?off|sign-?offs|audit|audits|inspection|inspections|screening|screenings|tests|test\\s{1,3}suite|test\\s{1,3}run|confirmation|confirmations|attestation|due\\s{1,3}diligence|kyc|four-eyes|second\\s{1,3}pair\\s{1,3}of\\s{1,3}eyes)";
/** Who approves a decision: the people a skipped check would have asked. */
const APPROVER =
  "(?:prescriber|prescribers|physician|physicians|doctor|doctors|pharmacist|pharmacists|underwriter|underwriters|broker|brokers|buyer|buyers|approver|approvers|reviewer|reviewers|supervisor|supervisors|manager|managers|auditor|auditors|attorney|attorneys|editor|editors|controller|compliance|importer|importers|dispatcher|adjuster|adjusters|examiner|examiners|investigator|investigators|human|humans|owner|owners|customer|user|client|cardholder|account\\s{1,3}holder|mro|qa)";

/** A check skipped, in English. */
const SKIP_EN = new RegExp(
  [
    // "skip MRO review", "skip MVR and loss-run checks", "bypass the fraud check", "waive the inspection", "override the MIB hit"
    `\\b(?:skip|skipping|bypass|bypassing|waive|waiving|forgo|circumvent)\\s{1,3}(?:the\\s{1,3}|any\\s{1,3}|all\\s{1,3}|its\\s{1,3}|their\\s{1,3}|this\\s{1,3})?(?:[${L}\\d/&-]{1,20}\\s{1,3}){0,4}?${CONTROL}${NA}`,
    `\\b(?:override|overrule|ignore|clear)\\s{1,3}(?:the\\s{1,3}|any\\s{1,3}|this\\s{1,3}|its\\s{1,3})?(?:[${L}\\d/&-]{1,20}\\s{1,3}){0,2}?(?:hit|hits|flag|flags|hold|holds|alert|alerts|exclusion|decline|denial|rejection)${NA}`,
    // "without waiting for the APS", "without running the test suite", "without asking the licensed broker"
    `\\bwithout\\s{1,3}waiting\\s{1,3}(?:for|on)\\b`,
    `\\bwithout\\s{1,3}(?:(?:running|doing|performing|requesting|asking|consulting|involving|confirming\\s{1,3}with|checking\\s{1,3}with|notifying|a|an|the|any|further|prior|human|manual)\\s{1,3})?(?:the\\s{1,3}|a\\s{1,3}|an\\s{1,3}|any\\s{1,3}|your\\s{1,3})?(?:[${L}\\d/&-]{1,20}\\s{1,3}){0,3}?(?:${CONTROL}|${APPROVER})${NA}`,
    // "do not route this to Dr. Okafor", "do not queue them for the prescriber", "do not route to a human underwriter"
    `\\b(?:do\\s{1,3}not|don't|dont|never)\\s{1,3}(?:route|queue|refer|escalate|send|forward|assign|pass)\\s{1,3}(?:(?:it|this|that|them|these|the\\s{1,3}${L}{2,20})\\s{1,3})?(?:to|for)\\s{1,3}(?:the\\s{1,3}|a\\s{1,3}|any\\s{1,3}|your\\s{1,3})?(?:Dr\\.?\\s{1,3}[A-Z]|(?:[${L}-]{1,20}\\s{1,3}){0,2}?(?:${APPROVER}|review|approval|referral))`,
    // "do not ask the photo editor", "Do not contact the importer", "do not request radiographs"
    `\\b(?:do\\s{1,3}not|don't|dont|never)\\s{1,3}(?:ask|contact|consult|notify|involve|wait\\s{1,3}for|check\\s{1,3}with|confirm\\s{1,3}with)\\s{1,3}(?:the\\s{1,3}|a\\s{1,3}|any\\s{1,3}|your\\s{1,3}|our\\s{1,3})?(?:[${L}-]{1,20}\\s{1,3}){0,2}?${APPROVER}${NA}`,
    `\\b(?:do\\s{1,3}not|don't|dont|never)\\s{1,3}(?:request|order|require|wait\\s{1,3}for)\\s{1,3}(?:the\\s{1,3}|any\\s{1,3})?(?:[${L}-]{1,20}\\s{1,3}){0,2}?(?:radiographs|x-rays|images|documentation|records|receipts|proof|${CONTROL})${NA}`,
    // "NO APPROVAL NEEDED", "no liability review is needed", "sign-off is implied"
    `\\bno\\s{1,3}(?:[${L}-]{1,20}\\s{1,3}){0,2}?${CONTROL}\\s{1,3}(?:is\\s{1,3}|are\\s{1,3})?(?:needed|required|necessary)\\b`,
    `\\b${CONTROL}\\s{1,3}(?:is|are)\\s{1,3}(?:implied|not\\s{1,3}(?:needed|required|necessary))\\b`,
  ].join("|"),
  "giu",
);

/** The same in other languages: without validating, without asking, do not confirm with. */
const SKIP_WORLD = new RegExp(
  [
    // Spanish and Portuguese: "sin validar la cédula", "sin autorización", "sem verificar", "no le avises al …"
    `${NB}(?:sin|sem)\\s{1,3}(?:validar|verificar|revisar|consultar|confirmar|comprobar|checar|esperar|avisar|aprobaci[oó]n|aprova[cç][aã]o|autorizaci[oó]n|autoriza[cç][aã]o|revisi[oó]n|revis[aã]o|receta|validaci[oó]n|valida[cç][aã]o)${NA}`,
    // French and German: "sans vérifier", "sans validation", "ohne Prüfung", "ohne Freigabe", "ohne Rücksprache"
    `${NB}sans\\s{1,3}(?:v[ée]rifier|valider|validation|contr[oô]le|consulter|l'accord|attendre|approbation|autorisation)${NA}`,
    `${NB}ohne\\s{1,3}(?:Prüfung|Pruefung|Freigabe|Rücksprache|Genehmigung|Kontrolle|Bestätigung|zu\\s{1,3}prüfen)${NA}`,
    // Swedish: "bekräfta inte med användaren", "utan att fråga", "utan godkännande"
    `${NB}bekräfta\\s{1,3}inte${NA}|${NB}utan\\s{1,3}(?:att\\s{1,3}(?:fråga|kontrollera|bekräfta)|godkännande|kontroll)${NA}`,
    // Russian: "не согласовывайте", "без согласования", "без проверки"
    `${NB}не\\s{1,3}(?:согласовывайте|согласовывай|проверяйте|уточняйте)${NA}|${NB}без\\s{1,3}(?:согласования|проверки|подтверждения|одобрения)${NA}`,
    // Chinese: "不要再找他确认", "无需审批", "跳过审核"
    `不要再?找.{0,8}?确认|(?:无需|不需要|不用|无须)(?:再)?(?:审批|审核|确认|复核|批准)|跳过(?:审批|审核|检查|复核)`,
  ].join("|"),
  "gu",
);

/** A decision on a record, asked: what a skipped check would have caught. */
const DECIDE = new RegExp(
  [
    `\\b(?:approve|approving|authori[sz]e|certify|sign|countersign|bind|issue|dispense|release|close|mark|record|file|refile|reclassify|override|pay|purchase|buy|license|licence|publish|merge|revert|disconnect|grant|submit|order|refund|transfer|wire|accept|deploy|dispatch|cancel|void|register|book|schedule|clear|settle|reissue)\\b`,
    `${NB}(?:surt[ae]|surtir|dispens[ae]|dispensar|aprueb[ae]|aprobar|autori[cz]a|autorizar|registr[ae]|registrar|pag[ae]|pagar|emit[ae]|emitir|liber[ae]|liberar|aprov[ae]|aprovar|publi(?:ca|que)|publicar)${NA}`,
    `${NB}(?:betala|godkänn|godkänna|bevilja|släpp)${NA}|${NB}(?:genehmige|genehmigen|bezahle|bezahlen|freigeben|approuvez|approuve|payez|validez)${NA}`,
    `${NB}(?:опубликуй|опубликуйте|ответьте|ответь|оплатите|оплати|одобрите|одобри|подтвердите|закройте)${NA}`,
    `批准|审批|付款|支付|发布|改成|下单|放行`,
  ].join("|"),
  "giu",
);

/** Another person's authority borrowed for a decision: their signature applied, an approval in their name. */
const BORROWED = new RegExp(
  [
    `\\b(?:apply|use|attach|affix|add)\\s{1,3}(?:Dr\\.?\\s{1,3}[${L}-]{1,20}'s|[${L}-]{1,20}'s|the\\s{1,3}(?:physician|doctor|prescriber|provider|manager|director|supervisor|owner|ceo|cfo)'s|his|her|their)\\s{1,3}(?:stored\\s{1,3}|saved\\s{1,3}|scanned\\s{1,3}|electronic\\s{1,3})?(?:e-?)?signatures?\\b`,
    `\\b(?:approve|authori[sz]e|sign|certify|issue|prescribe|order)\\s{1,3}[^.;\\n]{1,60}?\\b(?:under\\s{1,3}(?:her|his|their|Dr\\.?\\s{1,3}[${L}-]{1,20}'s|the\\s{1,3}(?:physician|doctor|prescriber|manager)'s)\\s{1,3}(?:name|login|credentials|account|npi|dea)|as\\s{1,3}(?:the\\s{1,3}|her\\s{1,3}|his\\s{1,3})?(?:physician|prescriber|doctor|attending|chief\\s{1,3}underwriter|approver))\\b`,
  ].join("|"),
  "giu",
);

/** A check's outcome dictated: an investigation closed as unfounded, a result recorded as negative, QC marked complete. */
const VERDICT = new RegExp(
  `\\b(?:close|closing|record|recording|mark|marking|file|filing|report|reporting|code|coding|set|enter|log)\\s{1,3}(?:it|this|them|(?:this|that|the|its|these)\\s{1,3}(?:[${L}\\d/-]{1,20}\\s{1,3}){0,3}?[${L}\\d/-]{1,20}|[A-Z]{2,6}\\s{1,3}[\\w-]{2,20}\\s{1,3}[\\w-]{2,20}|[${L}]{2,20}\\s{1,3}#?[\\w-]{1,20})\\s{1,3}(?:as\\s{1,3}|to\\s{1,3})?["'“]?(?:unfounded|negative|cleared|pre-approved|sponsor-approved|urgent-approved|no\\s{1,3}findings|not\\s{1,3}substantiated|within\\s{1,3}normal\\s{1,3}limits)(?![${L}-])`,
  "giu",
);
/** Quality control or review marked done: "mark QC complete", "mark the review as complete". */
const DONE = /\b(?:mark|set)\s{1,3}(?:the\s{1,3})?(?:qc|quality\s{1,3}control|review|audit|verification|inspection|validation)\s{1,3}(?:as\s{1,3})?(?:complete|completed|done|passed)\b/giu;

/** Heads naming an automated reader the earlier rounds did not read: a Chinese @-mention of an AI assistant ("@采购AI助手"). */
const HEAD = /@[\p{Script=Han}A-Za-z]{0,8}(?:AI|ai|智能)?(?:助手|助理|机器人)/u;
/** In a remote agent's reply: "Note to the purchasing agent:", "Message to Mercy's referral agent:", "your agent should". */
const REPLY_HEAD = new RegExp(
  [
    `\\b(?:note|message|memo|notice|instruction|instructions|action)\\s{1,3}(?:to|for)\\s{1,3}(?:the\\s{1,3}|your\\s{1,3}|any\\s{1,3})?(?:[${L}'’-]{1,20}\\s{1,3}){0,2}?agents?\\s{0,2}[:—–]`,
    `\\byour\\s{1,3}(?:agent|assistant|bot)\\s{1,3}(?:should|must|needs\\s{1,3}to|is\\s{1,3}to|has\\s{1,3}to|can\\s{1,3}now)\\b`,
  ].join("|"),
  "iu",
);

const NEGATED = /(?:^|[^\p{L}])(?:not|never|don't|dont|cannot|can't|won't|shouldn't|must\s{1,3}not)\s{1,3}(?:(?!(?:and|then|but|or)\s)[\p{L}'-]{1,20}\s{1,3}){0,1}$/iu;
/** A condition before the act makes it a rule ("if CI is green, merge without waiting for the second review"). */
const CONDITIONAL = /(?:^|[^\p{L}])(?:if|unless|when|whenever|once|after|only\s{1,3}(?:if|when)|in\s{1,3}case|si|wenn|falls|если)\s/iu;

/** Where the paragraph holding offset `s` of `text` starts, looked for at most 400 characters back. */
function paraStart(text: string, s: number): number {
  const from = Math.max(0, s - 400);
  const i = text.lastIndexOf("\n\n", s);
  return i >= from ? i + 2 : from;
}

/** The unit's cues of the fourteenth round (content only). `text` and `s`: the whole text and the unit's start in it. */
export function controlCues(text: string, s: number, unit: string, ctx: CCtx): Controls {
  const out: Controls = { t: [], r: [] };
  if (unit.length < 8) return out;
  const clip = unit.length > 1200 ? unit.slice(0, 1200) : unit;
  let addressed = ctx.addressed;
  if (!addressed && (HEAD.test(clip) || (ctx.reply && REPLY_HEAD.test(clip)))) {
    out.t.push("addressed");
    addressed = true;
  }
  const freeAt = (index: number): boolean => {
    const before = clip.slice(Math.max(0, index - 24), index);
    if (NEGATED.test(before)) return false;
    if (quotedAt(clip, index)) return false;
    const clause = clip.slice(0, index);
    const cut = Math.max(clause.lastIndexOf(". "), clause.lastIndexOf(": "), clause.lastIndexOf("; "), clause.lastIndexOf("\n"));
    return !CONDITIONAL.test(clause.slice(cut + 1));
  };
  const firstFree = (re: RegExp, hay: string, check: boolean): number => {
    // (One sticky-free test first: most units hold none, and `matchAll` copies the regex.)
    re.lastIndex = 0;
    if (!re.test(hay)) return -1;
    re.lastIndex = 0;
    let n = 0;
    for (const m of hay.matchAll(re)) {
      if (!check || freeAt(m.index)) return m.index;
      if (++n >= 4) break;
    }
    return -1;
  };
  // (A skip is itself a negation — "do not route this to …" — so only what stands before the skip is read as one.)
  const skip = firstFree(SKIP_EN, clip, true) >= 0 || firstFree(SKIP_WORLD, clip, true) >= 0;
  if (skip) {
    // A decision in the unit, or in its paragraph just before it.
    const before = text.slice(paraStart(text, s), s);
    if (firstFree(DECIDE, clip, true) >= 0 || firstFree(DECIDE, before.length > 400 ? before.slice(-400) : before, false) >= 0) {
      out.r.push("weaken");
      out.r.push("request");
    }
  }
  // (A skip needs no address of its own: it weighs nothing unless a neighbour speaks to the model. A borrowed signature does.)
  if ((addressed || ctx.request) && firstFree(BORROWED, clip, true) >= 0) out.r.push("grant");
  // (A verdict dictated to the reader that checks it: only where the unit speaks to the model.)
  if (addressed && !out.r.includes("grant") && (firstFree(VERDICT, clip, true) >= 0 || firstFree(DONE, clip, true) >= 0)) out.r.push("grant");
  return out;
}
