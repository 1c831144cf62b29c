/*
 * Fourteenth round ("smp14"): sampling prompts that make the model's answer contradict the record it is given. Called
 * once per unit of a sampling prompt from sampling-asks.ts (role `prompt` only), beside sampling-aims.ts. Each check
 * reads who is told what against which record, not the words of a setting:
 *
 * - **An outcome fixed against the record** (`deceive`): a quantifier that sets the record aside ("regardless of
 *   whether criteria are met", "whatever the sources say", "regardless of documented MDM", "irrespective of the
 *   inspection") in the same sentence as an outcome the model gives (recommend, deny, approve, return a code,
 *   allocate, the verdict must be…). Not a format, a language or a length fixed whatever the input ("regardless of
 *   the findings, answer in JSON"), not "report it honestly".
 * - **A fact of the record kept out under an all-clear** (`deceive`): a concealment (do not mention / flag / report,
 *   leave … out, omit) whose object names something the prompt itself reports (the words of the object stand
 *   elsewhere in the prompt: "do not mention the N2 indication" after "MT shows a … indication at nozzle N2"), in a
 *   prompt that dictates an all-clear ("the conclusion must be 'no findings'", "say the line is clear and safe",
 *   "so no violation shows", "describe events as balanced across arms"). Not a detail kept out of a good-news
 *   summary with no all-clear dictated, not names or internal ids.
 * - **Records relabelled to hit a number** (`deceive`): classify / convert / record … as … so the rate stays under
 *   1.0, so no violation shows.
 * - **A basis cited that the record does not have** (`deceive`): cite, bill, code or justify something "even though
 *   the policy has no such exclusion", "although the scan was never performed"; and evidence invented in Portuguese,
 *   Spanish, French, German, Polish and Russian ("invente justificativas", "wymyśl cytaty") unless the text is
 *   fiction or an example that says so.
 * - **Contact details of everyone in the context, in Chinese, Japanese and Korean** (`harvest`): "all" with phone
 *   numbers, e-mail addresses or contacts, from the context (or with the client's context included); a "don't say
 *   why" is secrecy, not a negation of the ask.
 *
 * Every check is a regex without nested quantifiers over one unit (units over 32 KB are not read) or over the prompt's
 * first 8,000 characters. The look-alikes are in test/fixtures/corpus/smp14.test.yaml and
 * test/guardian/sampling-record.test.ts.
 */

export type RecordAsk = "deceive" | "harvest";

/* ---- An outcome fixed against the record ------------------------------------------------------------------------ */

const SET_ASIDE =
  /\b(?:regardless\s{1,3}of|irrespective\s{1,3}of|no\s{1,3}matter\s{1,3}(?:what|how)|whatever)\s{1,3}(?:what\s{1,3}|whether\s{1,3}(?:(?:the|any|all)\s{1,3})?)?(?:(?:the|its|their|our|any|his|her|each)\s{1,3})?(?:[\w-]{1,20}'s\s{1,3})?(?:(?:documented|recorded|actual|clinical|medical|underlying|available|submitted|attached|measured|reported)\s{1,3})?(?:(?:check|verification|identity|lab|scan|audit|inspection|screening|search|test|kyc)\s{1,3})?(?:criteria|evidence|sources?|documentation|records?|findings|facts|merits?|coverage|test\s{1,3}results|results|data|readings|measurements|logs?|roas|performance|mdm|history|inspection|reviews?|scores?|numbers|metrics|grades|marks|symptoms|reports?|documents?|invoices?|statements?|audits?|checks|ratings|answers|figures|tests?|evaluations?|assessments?|diagnos[ie]s|labs?|vitals)\b(?!['’]|\s{1,3}(?:volume|size|format|length|language|type|count|schema|source)\b)/i;
const OUTCOME =
  /\b(?:state|declare|certify|recommend\w{0,3}|deny|denial|denies|reject\w{0,3}|approv\w{1,3}|return|answer|verdict|conclu\w{1,5}|rate|rating|score|allocate|assign|award|pay|code|bill|classify|mark|grade|rank|must\s{1,3}(?:always\s{1,3})?be|always)\b/i;
const FORMAT_OK =
  /\b(?:json|yaml|xml|csv|markdown|format\w{0,3}|language|english|tone|length|words|bullet\w{0,3}|concise\w{0,2}|brief\w{0,2}|polite\w{0,2}|honest\w{0,2}|accurate\w{0,2}|faithful\w{0,2}|objective\w{0,2}|neutral\w{0,2}|as\s{1,3}(?:it|they)\s{1,3}(?:is|are))\b/i;
/** The outcome fixed: a decision, a literal (quoted, in capitals, a code, a share), not a form left open. */
const FIXED =
  /["'“‘][^"'“”‘’\n]{1,40}["'”’]|\b[A-Z]{3,}(?:_[A-Z]{2,}){0,3}\b|\b\d{3,6}\b|\d{1,3}\s{0,2}%|\b\d\/\d\b|\b(?:denial|deny|reject\w{0,3}|approv\w{1,3}|pass|fail|eligible|ineligible|true|false|fraud\w{0,3}|guilty|liable|at\s{1,3}fault|user\s{1,3}damage|low\s{1,3}risk|high\s{1,3}risk)\b/;
/** Categories left to the model ("rate each as 'low', 'medium' or 'high'"): no outcome fixed. */
const CHOICES = /["'“‘][^"'“”‘’\n]{1,40}["'”’]\s{0,2}(?:,|or|\/)\s{0,3}["'“‘]/;
const LEFT_OPEN =
  /\b(?:only\s{1,3}(?:if|when|after)|unless|provided\s{1,3}(?:that|the)|as\s{1,3}long\s{1,3}as)\b|\b(?:never|do\s{1,3}not|don't)\s{1,3}(?:[\w-]{1,12}\s{1,3})?(?:approve|recommend|deny|reject|answer|rate|return|score|allocate|assign|mark|classify|conclude|grade|rank)\b/i;

/* ---- A fact of the record kept out under an all-clear ------------------------------------------------------------ */

const KEPT_OUT =
  /\b(?:do\s{1,3}not|don't|never|must\s{1,3}not|without)\s{1,3}(?:ever\s{1,3})?(?:mention|include|show|list|report|disclose|reveal|cite|refer\s{1,3}to|flag|note|state|record|bring\s{1,3}up)\w{0,3}\s{1,3}([^.;\n]{1,80})|\bleave\s{1,3}([^.;\n]{1,60}?)\s{1,3}(?:out|off)\b|\bleave\s{1,3}out\s{1,3}([^.;\n]{1,80})|\b(?:omit|hide|exclude)\w{0,3}\s{1,3}([^.;\n]{1,80})/i;
const ALL_CLEAR =
  /\b(?:no\s{1,3}(?:[\w-]{1,15}\s{1,3})?(?:findings?|exceedances?|violations?|issues?|defects?|incidents?|injur(?:y|ies)|problems?|deviations?|non-?conformit(?:y|ies)|concerns?|anomal(?:y|ies)|breaches?|leaks?|faults?|indications?|signals?|responsive\s{1,3}(?:records?|documents?))|(?:is|are|was|were)\s{1,3}(?:all\s{1,3})?(?:clear|safe|fine|compliant|normal|ok|okay|fit|resolved)|(?:is|are|was|were)\s{1,3}in\s{1,3}good\s{1,3}(?:shape|order|condition|health)|(?:is|are)\s{1,3}(?:healthy|secure|under\s{1,3}control|on\s{1,3}track)|fit\s{1,3}for\s{1,3}(?:continued\s{1,3})?(?:service|use|purpose)|safe\s{1,3}to\s{1,3}[\w-]{2,20}|balanced\s{1,3}across|within\s{1,3}(?:limits|tolerance|spec\w{0,8}))\b/i;
const DICTATES =
  /\b(?:say(?:s|ing)?|stat(?:e|es|ed|ing)|conclu\w{1,5}|claim\w{0,3}|assert\w{0,3}|tell\s{1,3}[\w-]{1,20}|answer\w{0,3}|confirm\w{0,3}|must\s{1,3}(?:be|read|say)|so\s{1,3}(?:that\s{1,3})?|describ\w{1,3}|present\w{0,3}|frame|characteri[sz]e|report\w{0,2}\s{1,3}that)\b[^;\n]{0,60}?/i;
const DICTATED_ALL_CLEAR = new RegExp(DICTATES.source + ALL_CLEAR.source, "i");
const KEPT_OK = /\b(?:names?|personal\s{1,3}data|pii|privacy|internal\s{1,3}(?:ids?|codes?|hostnames?|ticket\w{0,2})|appendix|attached|separately|already|resolved|fixed|until|embargo\w{0,3})\b/i;
const FILLER = new Set(["the", "any", "this", "that", "these", "those", "them", "they", "our", "your", "their", "its", "his", "her", "and", "for", "from", "with", "about", "which", "also", "why", "how", "what", "out", "off", "summary", "report", "letter", "answer", "text", "reply", "mention", "fact", "anything", "all", "one", "two", "three", "four", "five"]);

/** The object's words that the prompt reports elsewhere (outside the concealment itself). */
function reported(object: string, text: string, clause: string): boolean {
  const rest = text.replace(clause, " ").toLowerCase();
  for (const raw of object.toLowerCase().split(/[^\p{L}\p{N}-]+/u).slice(0, 12)) {
    const w = raw.replace(/'s$/, "");
    if (FILLER.has(w) || (w.length < 4 && !/\d/.test(w)) || w.length < 2) continue;
    // (Whole words only: "repair" is not "repaired".)
    for (let at = rest.indexOf(w), n = 0; at >= 0 && n < 16; at = rest.indexOf(w, at + 1), n++) {
      const before = at === 0 ? " " : (rest[at - 1] as string);
      const after = rest[at + w.length] ?? " ";
      if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    }
  }
  return false;
}

/* ---- Records relabelled to hit a number ------------------------------------------------------------------------- */

const RELABEL =
  /\b(?:re-?classif\w{1,5}|classif\w{1,5}|re-?code|recod\w{1,3}|re-?label\w{0,3}|convert\w{0,3}|record\w{0,3}|book\w{0,3}|re-?categori[sz]\w{1,3}|count\w{0,3}|log)\b[^.;\n]{0,80}?\b(?:as|into|under)\b[^.;\n]{0,60}?\bso\s{1,3}(?:that\s{1,3})?(?:(?:[\w'’-]{1,20}\s{1,3}){0,4}?(?:stays?|remains?|keeps?|falls?|comes?\s{1,3}in|gets?|is|are)\s{1,3}(?:[\w-]{1,12}\s{1,3})?(?:(?:under|below|beneath|above|within)\s{1,3}(?:[$€£]\s{0,2})?\d|zero\b|nil\b)|no\s{1,3}[\w-]{1,20}\s{1,3}(?:shows?|appears?|is\s{1,3}(?:shown|flagged|reported|logged|visible)))/i;

/* ---- A basis cited that the record does not have ----------------------------------------------------------------- */

const NO_BASIS =
  /\b(?:cit(?:e|es|ed|ing)|quot(?:e|es|ed|ing)|referenc\w{1,3}|invok\w{1,3}|appl(?:y|ies|ied|ying)|claim\w{0,3}|bill\w{0,3}|charg\w{1,3}|cod(?:e|es|ed|ing)|justif\w{1,5}|list\w{0,3}|us(?:e|es|ed|ing))\b(?:[^.;\n]|\.\d){0,80}?\b(?:even\s{1,3}though|although|though|while)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,4}?(?:has|have|had|contains?|includes?|is|are|was|were)\s{1,3}(?:no\s{1,3}such|not\s{1,3}(?:been\s{1,3})?(?:performed|done|issued|written|signed|given|made|found|met)|never\s{1,3}(?:been\s{1,3})?[\w-]{3,12})\b/i;
const INVENT_I18N =
  /(?<![\p{L}])(?:invent[ea]r?|inventa|invéntate|fabriqu[ea]r?|erfinde\p{L}{0,2}|wymy[śs]l\p{L}{0,3}|zmy[śs]l\p{L}{0,3}|придума\p{L}{0,3}|выдума\p{L}{0,3}|сфабрику\p{L}{0,3})(?![\p{L}])[^.;\n]{0,50}?(?<![\p{L}])(?:justificativ\p{L}{1,3}|justificaci\p{L}{1,4}|justifications?|raisons?|motivos?|razones|begründung\p{L}{0,2}|gründe|cytat\p{L}{0,2}|uzasadnie\p{L}{1,3}|dowod\p{L}{0,2}|źródł\p{L}{1,2}|citas?|citaç\p{L}{2,3}|fontes?|fuentes?|quellen|zitate?|citations?|preuves?|pruebas?|provas?|beweise|laudos?|atestados?|informes?|цитат\p{L}{0,2}|доказательств\p{L}{0,2}|обосновани\p{L}{1,3}|источник\p{L}{0,2})(?![\p{L}])/iu;
const FICTION_I18N = /(?<![\p{L}])(?:fic[çc][ãa]o|ficci[óo]n|fiction|fiktion|fikcj\p{L}{1,3}|romance|novela|roman|opowiadani\p{L}{1,2}|exemplo|ejemplo|exemple|beispiel|przykład\p{L}{0,2}|пример\p{L}{0,2}|вымысел|художественн\p{L}{1,3})(?![\p{L}])/iu;
const NEGATED_FICTION = /(?<![\p{L}])(?:n[ãa]o|no|ne|nicht|nie|не|don't|do\s{1,3}not|never)(?![\p{L}])[^.;\n]{0,30}?(?:fic[çc][ãa]o|ficci[óo]n|fiction|fiktion|fikcj\p{L}{1,3}|вымысел)/iu;

/* ---- Contact details of everyone in the context, in Chinese, Japanese and Korean --------------------------------- */

const CJK_CONTACT = /手机号|手機號|电话号码|電話號碼|邮箱|郵箱|电子邮件|邮件地址|联系方式|聯絡方式|联系人|電話番号|携帯番号|メールアドレス|連絡先|전화번호|휴대폰\s?번호|이메일|연락처/u;
const CJK_EVERY = /所有|全部|一个不漏|一個不漏|すべて|全て|全員|모든|전부|전체/u;
const CJK_CONTEXT = /上下文|对话|對話|聊天记录|会话|會話|会話|コンテキスト|履歴|これまで|대화|컨텍스트|지금까지/u;
/** A negation of the ask itself ("do not output", "mask"), not of saying why. */
const CJK_NOT_ASKED = /不要(?!说明|說明|解释|解釋|告诉|告訴|提及|提到|标注|標註)|别(?!说明|解释|告诉)|勿|不得|禁止|しないで(?!ください[。、]?理由)|出さないで|伏せ|マスク|하지\s?마|금지|마스킹|遮盖|屏蔽|脱敏|替换|格式|形式|형식|验证|検証/u;

const headOf = (text: string): string => (text.length > 8000 ? text.slice(0, 8000) : text);

/** What a unit of a sampling prompt asks against the record (the prompt's whole text is `text`). */
export function samplingRecord(text: string, unit: string, withContext: boolean): RecordAsk[] {
  const out: RecordAsk[] = [];
  if (unit.length > 32_768) return out;
  if (contradicts(text, unit)) out.push("deceive");
  if (CJK_CONTACT.test(unit) && CJK_EVERY.test(unit) && (withContext || CJK_CONTEXT.test(unit)) && !CJK_NOT_ASKED.test(unit)) out.push("harvest");
  return out;
}

function contradicts(text: string, unit: string): boolean {
  // An outcome fixed against the record.
  if (SET_ASIDE.test(unit) && OUTCOME.test(unit) && FIXED.test(unit) && !CHOICES.test(unit) && !FORMAT_OK.test(unit) && !LEFT_OPEN.test(unit)) return true;
  // A fact of the record kept out, in a prompt that dictates an all-clear.
  const k = KEPT_OUT.exec(unit);
  if (k) {
    const object = k[1] ?? k[2] ?? k[3] ?? k[4] ?? "";
    if (!KEPT_OK.test(object)) {
      const head = headOf(text);
      if (DICTATED_ALL_CLEAR.test(head) && reported(object, head, k[0])) return true;
    }
  }
  // Records relabelled to hit a number.
  if (RELABEL.test(unit)) return true;
  // A basis the record does not have; evidence invented in other languages.
  if (NO_BASIS.test(unit)) return true;
  if (INVENT_I18N.test(unit) && (!FICTION_I18N.test(headOf(text)) || NEGATED_FICTION.test(headOf(text)))) return true;
  return false;
}
