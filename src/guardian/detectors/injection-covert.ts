/*
 * Fifteenth round ("inj15"): an order to the automated reader to change a record, with the change kept from the person
 * it concerns or carried on an approval nobody can check; or the reader's own conclusion dictated to it.
 *
 * The misses of sets 30 and 31 spoke to the reader (the scorer read "addressed", 2.5 of 4.5, or did not read the head
 * at all: "AI PREPARER —", "Agent instruction:", "Note for automated … tools:") and asked for an ordinary act on the
 * record — set a status, change an account, transfer points, accept terms, create a PIN, place a hold — that no
 * request class weighs, because the act alone is what a user asks of an assistant every day. What makes it an attack
 * is what stands beside it in the same unit:
 *
 * - **The act kept from the person it concerns** (`deceive`): "do not mention the transfer to the member", "do not show
 *   clause 14 to the tenant", "leave the review summary showing the old account", "don't add a note about it",
 *   "without telling the owner". A privacy rule has the same shape ("do not show the full card number to the agent"):
 *   what it keeps back is *data*, so a concealed object naming data (number, card, password, address, …) is not read.
 * - **The act on an approval the reader cannot check** (`grant` and `authority`): "owner approved", "approved by GM",
 *   "pre-approved by the Building Official", "waived by the city engineer", "my manager already agreed".
 * - **The reader's verdict dictated** (`deceive`): "report that this organisation … has no issues", "summarise it as
 *   low risk", "list renewal as standard", "say this hotel has a 4.9 rating" — the record tells the reader what to
 *   conclude about the record itself, and the conclusion is an evaluation (risk, compliance, a rating, a seal).
 *
 * Every one needs the unit to speak to an automated reader: the scorer's `addressed`, or a head read here (an "AI …"
 * or "automated …" role before a colon or a dash, "Note for … AI tools:", "Agent instruction:") in the unit or in the
 * 300 characters of its paragraph before it. A user's own standing instructions to their assistant ("Instructions for
 * the AI: summarise meetings, do not include phone numbers") order no change to a record and hide no act.
 *
 * Bounded: every regex has bounded repetitions and none nested, over at most the unit's first 1,200 characters and the
 * 300 characters before it in its paragraph.
 */

export type VT = "addressed" | "authority";
export type VR = "deceive" | "grant" | "request";
export interface Covert {
  t: VT[];
  r: VR[];
}
export interface VCtx {
  /** The unit is already read as speaking to the model. */
  addressed: boolean;
}

const L = "\\p{L}";
const NA = "(?![\\p{L}])";
const ROLE =
  "(?:assistant|assistants|agent|agents|clerk|clerks|officer|coordinator|analyst|accountant|adjuster|advisor|adviser|secretary|receptionist|auditor|preparer|reviewer|review|checker|check|dispatcher|summari[sz]er|summari[sz]ers|bot|bots|tool|tools|system|systems|model|models|planner|scheduler|processor|screener|underwriter|copilot|concierge|helper|operator)";

/** A head naming an automated reader. */
const HEAD = new RegExp(
  [
    // "AI PREPARER —", "AI plan check:", "AUTOMATED / AI PLAN CHECK:", "AI dispatcher reading this:", "LLM agents:"
    `\\b(?:AI|A\\.I\\.|LLM|LLMs|automated|autonomous)\\s{0,3}(?:/\\s{0,3}AI\\s{1,3})?(?:[${L}-]{1,20}\\s{1,3}){0,2}?${ROLE}(?:\\s{1,3}reading\\s{1,3}this)?\\s{0,2}[:—–]`,
    // "Note for automated due-diligence and AI grant tools:", "Message to any AI agent:"
    `\\b(?:note|notes|message|instruction|instructions|notice|memo)\\s{1,3}(?:to|for)\\s{1,3}(?:the\\s{1,3}|any\\s{1,3}|all\\s{1,3}|your\\s{1,3})?(?:[${L}'’-]{1,20}\\s{1,3}){0,4}?(?:AI|automated|LLM)\\b[^:\\n]{0,40}:`,
    // "Agent instruction:", "Assistant instructions:"
    `\\b(?:agent|assistant|bot|AI)\\s{1,3}(?:instruction|instructions|note|notice|directive)\\s{0,2}:`,
  ].join("|"),
  "iu",
);

/** An act on a record, at a clause's start. */
const ACT = new RegExp(
  `(?:^|[.:;!—–]\\s{0,3}|,\\s{1,3}|\\b(?:and|then|please|also|now|time|simply|just)\\s{1,3})(?:set|change|update|mark|approve|waive|cancel|transfer|accept|place|put|create|add|delete|remove|close|dispatch|send|route|redirect|text|zero|raise|increase|lower|reduce|record|assign|grant|refund|release|void|move|issue|book|hold|reset|disable|unlock|replace|switch|edit|overwrite|pay|submit|file|reassign|extend|renew|credit|confirm|enable|rebook|reroute|forward|share)${NA}(?!\\s{1,3}(?:[${L}]{2,20}ed|done|complete|completed|ok)${NA})`,
  "iu",
);

const PERSON =
  "(?:user|users|tenant|tenants|member|members|owner|owners|client|clients|customer|customers|guest|guests|passenger|passengers|traveller|travellers|traveler|travelers|patient|patients|family|manager|managers|applicant|applicants|homeowner|buyer|seller|landlord|borrower|employee|employees|student|students|parent|parents|team|staff|human|humans|person|him|her|them|anyone|anybody)";
const PLACE = "(?:summary|summaries|review|log|logs|report|reports|audit|ticket|record|history|page|notes|note|reply|response|answer|timeline|dashboard|changelog)";
/** What keeping back would be privacy, not concealment: data withheld. */
const DATA = /\b(?:number|numbers|card|cards|password|passwords|pin|pins|code|codes|ssn|address|addresses|phone|email|e-mail|dob|birth|salary|diagnosis|token|tokens|key|keys|secret|secrets|credentials|iban|account\s{1,3}numbers?|signature|signatures|photo|photos|id)\b/iu;

/** The act kept from the person it concerns. */
const COVER = new RegExp(
  [
    // "do not mention the transfer to the member", "do not show clause 14 to the tenant", "do not report the hold to the user"
    `\\b(?:do\\s{1,3}not|don't|dont|never|no\\s{1,3}need\\s{1,3}to)\\s{1,3}(?:mention|show|display|report|tell|disclose|reveal|flag|log|surface|list|cite|highlight|bring\\s{1,3}up|point\\s{1,3}out)\\s{1,3}(?<obj>(?:[${L}\\d'’-]{1,20}\\s{1,3}){0,4}?)(?:to|with|in|on|from)\\s{1,3}(?:the\\s{1,3}|this\\s{1,3}|your\\s{1,3}|their\\s{1,3}|its\\s{1,3}|any\\s{1,3})?(?:[${L}'’-]{1,20}\\s{1,3}){0,2}?(?:${PERSON}|${PLACE})${NA}`,
    // "do not mention it", "do not flag it", "don't add a note about it", "do not log this"
    `\\b(?:do\\s{1,3}not|don't|dont|never)\\s{1,3}(?:mention|report|flag|log|record|disclose|reveal|note|surface)\\s{1,3}(?:it|this|that|the\\s{1,3}(?:change|changes|transfer|hold|update|cancellation|instruction|instructions|request|override|adjustment|setback|note|deviation|discrepancy))${NA}`,
    `\\b(?:do\\s{1,3}not|don't|dont|never)\\s{1,3}(?:add|leave|write|make)\\s{1,3}(?:a|any)\\s{1,3}(?:note|comment|record|entry|log\\s{1,3}entry)\\s{1,3}(?:about|of|on|for)\\s{1,3}(?:it|this|that)${NA}`,
    // "without telling the owner", "without citing this note", "without informing the member"
    `\\bwithout\\s{1,3}(?:telling|informing|notifying|mentioning|citing|showing|alerting|letting)\\s{1,3}(?:it\\s{1,3}to\\s{1,3}|this\\s{1,3}to\\s{1,3})?(?:the\\s{1,3}|this\\s{1,3}|your\\s{1,3}|their\\s{1,3}|any\\s{1,3})?(?:[${L}'’-]{1,20}\\s{1,3}){0,2}?(?:${PERSON}|note|notice|instruction|change|it|this)${NA}`,
    // "leave the review summary showing the old account", "keep the summary showing the previous"
    `\\b(?:leave|keep)\\s{1,3}(?:the\\s{1,3}|its\\s{1,3})?(?:[${L}-]{1,20}\\s{1,3}){0,2}?${PLACE}\\s{1,3}(?:showing|listing|displaying|as\\s{1,3}it\\s{1,3}was|unchanged)${NA}`,
    // "keep it out of the log", "keep this off the summary"
    `\\bkeep\\s{1,3}(?:it|this|that|the\\s{1,3}[${L}]{2,20})\\s{1,3}(?:out\\s{1,3}of|off)\\s{1,3}(?:the\\s{1,3}|any\\s{1,3})?(?:[${L}-]{1,20}\\s{1,3}){0,1}?${PLACE}${NA}`,
  ].join("|"),
  "giu",
);

/** An approval the reader cannot check, claimed for the act. */
const CLAIM = new RegExp(
  [
    `\\b(?:owner|gm|manager|landlord|director|official|engineer|supervisor|boss|cfo|ceo|admin|management|doctor|physician|head\\s{1,3}office|teacher|principal|hr|legal|compliance)\\s{1,3}(?:has\\s{1,3}|have\\s{1,3}|already\\s{1,3})?(?:approved|authori[sz]ed|signed\\s{1,3}off|agreed|ok'?d|okayed|cleared)${NA}`,
    `\\b(?:pre-?approved|pre-?authori[sz]ed|already\\s{1,3}(?:approved|agreed|authori[sz]ed|cleared|signed\\s{1,3}off|okayed))${NA}`,
    `\\b(?:approved|authori[sz]ed|waived|cleared|signed\\s{1,3}off|okayed|ok'?d)\\s{1,3}by\\s{1,3}(?:the\\s{1,3}|our\\s{1,3}|your\\s{1,3}|my\\s{1,3})?[${L}]{2,20}`,
  ].join("|"),
  "iu",
);

/** The reader's conclusion dictated, and the conclusion an evaluation. */
const DICTATE = new RegExp(
  [
    `(?:^|[.:;!—–]\\s{0,3}|\\b(?:and|then|please|also|now|just|simply)\\s{1,3})(?:report|state|say|confirm|write|conclude|answer|respond)\\s{1,3}(?:that\\s{1,3})?(?:this|the|it|they|we|our|its)\\b[^.;\\n]{0,120}?\\b(?:holds?|has|have|is|are)\\s{1,3}(?:a\\s{1,3}|an\\s{1,3}|the\\s{1,3}|no\\s{1,3})?(?:[${L}\\d.-]{1,20}\\s{1,3}){0,3}?(?:seal|rating|stars?|issues|risk|compliant|approved|verified|certified|accredited|licensed|safe|clean|legitimate|trusted|recommended|eligible|problems|violations|complaints)${NA}`,
    `(?:^|[.:;!—–]\\s{0,3}|\\b(?:and|then|please|also|now|just|simply)\\s{1,3})(?:summari[sz]e|list|describe|rate|score|classify|present|label|flag)\\s{1,3}(?:it|this|them|(?:the|this|that|our|my|its)\\s{1,3}[${L}-]{2,20}|[${L}-]{2,20})\\s{1,3}as\\s{1,3}["'“]?(?:low[\\s-]{1,3}risk|no[\\s-]{1,3}risk|safe|standard|compliant|approved|verified|clean|legitimate|trusted|recommended|eligible|normal|routine|favou?rable|excellent|5[\\s-]{0,3}stars?|top[\\s-]{1,3}rated)${NA}`,
  ].join("|"),
  "iu",
);

// --- the same in other languages (Italian, Spanish, Portuguese, French, German, Polish, Russian, Turkish, Japanese) ---
const NW = "(?![\\p{L}])";
const BW = "(?<![\\p{L}])";
const AI_WORD =
  "(?:AI|IA|KI|ИИ|LLM|agente|agenti|agentes|assistente|assistenti|asistente|asistentes|assistant|assistants|agent|agents|agenten|assistent|assistenten|asystent\\p{L}{0,4}|agenc\\p{L}{0,3}|ассистент\\p{L}{0,3}|агент\\p{L}{0,3}|помощник\\p{L}{0,3}|бот\\p{L}{0,2}|asistan\\p{L}{0,3}|ajan\\p{L}{0,3})";
/** A head naming an automated reader, in other languages: "Istruzione per l'agente revenue:", "Not (yapay zekâ asistanı için):". */
const HEAD_WORLD = new RegExp(
  [
    `${BW}(?:nota|note|notiz|hinweis|istruzione|istruzioni|instrucci[oó]n|instrucciones|instru[cç][aã]o|instru[cç][oõ]es|mensaje|messaggio|mensagem|message|nachricht|anweisung|uwaga|wiadomo[sś][cć]|polecenie|instrukcja|указание|инструкция|сообщение|примечание|заметка|not|talimat|mesaj)\\s{1,3}(?:per|para|pour|f[uü]r|dla|для|an|a|al|alla|ai|agli|aux|au|à)${NW}[^:\\n]{0,50}?${BW}${AI_WORD}${NW}[^:\\n]{0,30}[:：]`,
    `${BW}(?:yapay\\s{1,3}zek[aâ]\\s{1,3})?(?:asistan|ajan)\\p{L}{0,4}\\s{1,3}i[cç]in${NW}`,
    `(?:^|[.!?\\n]\\s{0,3})(?:ИИ-|AI-|KI-)?(?:ассистент|агент|asystencie|agencie|asystent|assistente|agente|asistente|assistent)\\p{L}{0,3}(?:\\s{1,3}(?:AI|ИИ|IA|KI))?\\s{0,2}[,:]`,
    `【\\s{0,2}(?:システム|SYSTEM|SISTEMA|SYSTÈME|SYSTEM|СИСТЕМА)[^】\\n]{0,10}】`,
    `\\[\\s{0,2}(?:SISTEMA|SYSTÈME|SYSTEM|СИСТЕМА|SİSTEM)\\s{0,2}\\]`,
    `(?:AI|ＡＩ|エージェント|アシスタント|ボット)(?:の方)?(?:へ|に|は|さん)`,
  ].join("|"),
  "iu",
);
/** An act on a record, in other languages (imperatives and the infinitives instructions use). */
const ACT_WORLD = new RegExp(
  [
    `${BW}(?:chiudere|chiudi|instradare|instrada|aumentare|aumenta|diminuire|ridurre|riduci|impostare|imposta|modificare|modifica|cambiare|cambia|annullare|annulla|cancellare|cancella|trasferire|trasferisci|accettare|accetta|approvare|approva|inviare|invia|indirizzare|indirizza|creare|crea|eliminare|elimina|rimuovere|rimuovi|segnare|segna|pagare|paga|rimborsare|prenotare|bloccare|sbloccare|assegnare|assegna|emettere|rilasciare)${NW}`,
    `${BW}(?:cierra|cerrar|cambia|cambiar|modifica|modificar|cancela|cancelar|anula|anular|transfiere|transferir|acepta|aceptar|aprueba|aprobar|env[ií]a|enviar|crea|crear|elimina|eliminar|borra|borrar|marca|marcar|paga|pagar|reembolsa|asigna|asignar|aumenta|aumentar|reduce|reducir|establece|fija|fijar|redirige|redirigir)${NW}`,
    `${BW}(?:feche|fechar|altere|alterar|mude|mudar|cancele|transfira|aceite|aceitar|aprove|aprovar|envie|crie|criar|exclua|excluir|apague|apagar|marque|pague|aumente|reduza|defina|definir|redirecione)${NW}`,
    `${BW}(?:fermez|fermer|modifiez|modifier|changez|changer|annulez|annuler|transf[eé]rez|transf[eé]rer|acceptez|accepter|approuvez|approuver|envoyez|envoyer|cr[eé]ez|supprimez|supprimer|marquez|marquer|payez|payer|augmentez|augmenter|r[eé]duisez|d[eé]finissez|virez|virer|remboursez|redirigez)${NW}`,
    `${BW}(?:schlie[sß]e|schlie[sß]en|[aä]ndere|[aä]ndern|storniere|stornieren|[uü]berweise|[uü]berweisen|akzeptiere|akzeptieren|genehmige|genehmigen|sende|senden|erstelle|erstellen|l[oö]sche|l[oö]schen|markiere|markieren|bezahle|bezahlen|erh[oö]he|erh[oö]hen|setze|setzen|buche|buchen)${NW}`,
    `${BW}(?:zamknij|zmie[nń]|zmieni[cć]|anuluj|anulowa[cć]|przelej|przela[cć]|zaakceptuj|zatwierd[zź]|zatwierdzi[cć]|wy[sś]lij|wys[lł]a[cć]|utw[oó]rz|usu[nń]|usun[aą][cć]|oznacz|zap[lł]a[cć]|podnie[sś]|ustaw|ustawi[cć]|przenie[sś])${NW}`,
    `${BW}(?:закрой|закройте|измени|измените|изменить|отмени|отмените|отменить|переведи|переведите|перевести|прими|примите|одобри|одобрите|отправь|отправьте|отправить|создай|создайте|удали|удалите|отметь|отметьте|оплати|оплатите|повысь|повысьте|установи|установите|перенаправь|перенаправьте)${NW}`,
    `${BW}(?:g[oö]nder|g[oö]nderin|de[gğ]i[sş]tir|de[gğ]i[sş]tirin|iptal\\s{1,3}et|aktar|aktar[iı]n|onayla|onaylay[iı]n|sil|silin|olu[sş]tur|kapat|[oö]de|y[uü]kselt|ayarla)${NW}`,
    `(?:キャンセルして|送信して|送って|変更して|振り込んで|削除して|承認して|設定して|割り当てて|転送して|作成して|閉じて|上げて)`,
  ].join("|"),
  "iu",
);
/** The act kept from the person it concerns, in other languages. */
const COVER_WORLD = new RegExp(
  [
    `${BW}senza\\s{1,3}(?:avvisare|informare|dire|citare|menzionare|mostrare|segnalare|chiedere|consultare)\\p{L}{0,3}${NW}`,
    `${BW}non\\s{1,3}(?:allegare|mostrare|menzionare|indicare|dire|citare|segnalare|riportare|registrare|informare|avvisare)\\p{L}{0,3}${NW}`,
    `${BW}sin\\s{1,3}(?:avisar|informar|decir|mencionar|mostrar|notificar|consultar|preguntar)\\p{L}{0,3}${NW}`,
    `${BW}no\\s{1,3}(?:(?:le|les|lo|la|se\\s{1,3}lo)\\s{1,3})?(?:avises|informes|digas|menciones|muestres|adjuntes|notifiques|registres|indiques|avise|informe|diga|mencione|muestre)${NW}`,
    `${BW}sem\\s{1,3}(?:avisar|informar|dizer|mencionar|mostrar|notificar|consultar|perguntar)\\p{L}{0,3}${NW}`,
    `${BW}n[aã]o\\s{1,3}(?:avise|informe|diga|mencione|mostre|anexe|notifique|registre|indique)${NW}`,
    `${BW}sans\\s{1,3}(?:pr[eé]venir|informer|avertir|dire|mentionner|montrer|signaler|consulter|demander)${NW}`,
    `${BW}ne\\s{1,3}(?:(?:le|la|les|lui|leur|l')\\s{0,3})?(?:dites|mentionnez|montrez|signalez|informez|pr[eé]venez|joignez|dis|mentionne|montre|signale)\\s{1,3}(?:pas|rien)${NW}`,
    `${BW}ohne\\s{1,3}(?:(?:den|die|das|dem)\\s{1,3})?(?:\\p{L}{1,20}\\s{1,3})?(?:zu\\s{1,3})?(?:informieren|benachrichtigen|fragen|erw[aä]hnen|sagen|zeigen)${NW}`,
    `${BW}nicht\\s{1,3}(?:erw[aä]hnen|mitteilen|anzeigen|zeigen|melden|informieren|beif[uü]gen|sagen)${NW}`,
    `${BW}bez\\s{1,3}(?:informowania|powiadamiania|pytania|wspominania|m[oó]wienia|wiedzy)${NW}`,
    `${BW}nie\\s{1,3}(?:informuj|m[oó]w|wspominaj|pokazuj|zg[lł]aszaj|za[lł][aą]czaj|powiadamiaj)\\p{L}{0,3}${NW}`,
    `${BW}не\\s{1,3}(?:сообщай|говори|упоминай|показывай|уведомляй|прикладывай|информируй)\\p{L}{0,3}${NW}`,
    `${BW}без\\s{1,3}(?:уведомления|ведома|согласия|информирования)${NW}`,
    `${BW}(?:sormadan|bildirmeden|haber\\s{1,3}vermeden|s[oö]ylemeden|belirtmeden|g[oö]stermeden)${NW}`,
    `${BW}(?:belirtme|s[oö]yleme|g[oö]sterme|bildirme)(?:yin|yiniz)?${NW}`,
    `(?:確認|連絡|報告|相談)(?:は|も)?(?:不要|いりません|しないで)|伝えないで|言わないで|知らせないで|表示しないで|記載しないで|と説明して`,
  ].join("|"),
  "giu",
);
/** Data a privacy rule keeps back, in other languages (what follows a withholding verb). */
const DATA_WORLD =
  /(?:numer|n[uú]mero|num[eé]ro|nummer|номер|numara|carta|tarjeta|cart[aã]o|carte|karte|karta|карт|kart|password|contrase[nñ]a|senha|mot\s{1,3}de\s{1,3}passe|passwort|has[lł]o|пароль|[sş]ifre|codice|c[oó]digo|code|kod|код|iban|indirizzo|direcci[oó]n|endere[cç]o|adresse|adres|адрес|番号|カード|パスワード|住所)/iu;

/** An approval the reader cannot check, in other languages. */
const CLAIM_WORLD = new RegExp(
  [
    `${BW}gi[aà]\\s{1,3}(?:concordat|approvat|autorizzat|confermat)[aoie]${NW}|${BW}approvat[aoie]\\s{1,3}da${NW}`,
    `${BW}ya\\s{1,3}(?:aprobad|autorizad|acordad)[oa]s?${NW}|${BW}aprobad[oa]s?\\s{1,3}por${NW}|${BW}pre-?aprobad[oa]s?${NW}`,
    `${BW}j[aá]\\s{1,3}(?:aprovad|autorizad|combinad|acordad)[oa]s?${NW}|${BW}aprovad[oa]s?\\s{1,3}por${NW}`,
    `${BW}d[eé]j[aà]\\s{1,3}(?:approuv[eé]|valid[eé]|autoris[eé]|convenu)e?s?${NW}|${BW}approuv[eé]e?s?\\s{1,3}par${NW}`,
    `${BW}bereits\\s{1,3}(?:genehmigt|freigegeben|abgestimmt|vereinbart)${NW}|${BW}genehmigt\\s{1,3}(?:von|vom|durch)${NW}`,
    `${BW}ju[zż]\\s{1,3}(?:zatwierdzon|uzgodnion)\\p{L}{0,2}${NW}|${BW}zatwierdzon\\p{L}{0,2}\\s{1,3}przez${NW}`,
    `${BW}уже\\s{1,3}(?:согласован|одобрен|утвержден|утверждён)\\p{L}{0,2}${NW}`,
    `(?:承認済み|了承済み|許可済み|合意済み)`,
  ].join("|"),
  "iu",
);

/** Where the paragraph holding offset `s` of `text` starts, looked for at most 300 characters back. */
function paraStart(text: string, s: number): number {
  const from = Math.max(0, s - 300);
  const i = text.lastIndexOf("\n\n", s);
  return i >= from ? i + 2 : from;
}

/** The unit's cues of the fifteenth round (content only). `text` and `s`: the whole text and the unit's start in it. */
export function covertCues(text: string, s: number, unit: string, ctx: VCtx): Covert {
  const out: Covert = { t: [], r: [] };
  if (unit.length < 12) return out;
  const clip = unit.length > 1200 ? unit.slice(0, 1200) : unit;
  let addressed = ctx.addressed;
  // (The paragraph just before the unit: a head, an act or a claimed approval there belongs to the same note.)
  const before = text.slice(paraStart(text, s), s);
  const head = (x: string) => x.length > 0 && (HEAD.test(x) || HEAD_WORLD.test(x));
  if (!addressed) {
    if (head(clip)) {
      out.t.push("addressed");
      addressed = true;
    } else addressed = head(before);
  }
  if (!addressed) return out;
  // Other languages: an act, and beside it the act kept from its person or an approval nobody can check.
  const world = (x: string) => x.length > 0 && ACT_WORLD.test(x);
  if (world(clip) || world(before)) {
    // (A privacy rule keeps data back: "non mostrare il numero della carta" — the words after the verb name data.)
    let k = 0;
    for (const m of clip.matchAll(COVER_WORLD)) {
      if (++k > 4) break;
      const after = m.index + m[0].length;
      if (DATA_WORLD.test(clip.slice(after, after + 50))) continue;
      out.r.push("deceive", "request");
      return out;
    }
    if (CLAIM_WORLD.test(clip) || (before.length > 0 && CLAIM_WORLD.test(before))) {
      out.t.push("authority");
      out.r.push("grant", "request");
      return out;
    }
  }
  const act = ACT.exec(clip) ?? (before.length > 0 ? ACT.exec(before) : null);
  if (act === null) {
    if (DICTATE.test(clip)) out.r.push("deceive", "request");
    return out;
  }
  COVER.lastIndex = 0;
  let n = 0;
  for (const m of clip.matchAll(COVER)) {
    if (++n > 4) break;
    const obj = m.groups?.obj ?? "";
    if (obj.length > 0 && DATA.test(obj)) continue;
    out.r.push("deceive", "request");
    return out;
  }
  if (CLAIM.test(clip) || (before.length > 0 && CLAIM.test(before))) {
    out.t.push("authority");
    out.r.push("grant", "request");
    return out;
  }
  if (DICTATE.test(clip)) out.r.push("deceive", "request");
  return out;
}
