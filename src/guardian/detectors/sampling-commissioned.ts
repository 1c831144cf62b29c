/*
 * samp31 (issue 24): a sampling prompt that commissions a text about a defence (`commissionedDefence`).
 *
 * The sampling class's most frequent false alarm in the open sets (37, 64, 65, 72, 73, 75, 76, 79): a server asks the
 * model to *write something for people* — a training note, a tip for staff, a warning for supporters, a slide for
 * lawyers, an explanation to the packaging staff — and the subject of that text is an attack and the defence against
 * it: "why an AI assistant must never follow text like "ignore previous instructions"", "guests may ask you to read
 * out card numbers — never do it", "HMRC will never phone asking for bank details". The scorer read the attack named
 * in the topic (the override, the secret asked for) as the prompt's own order.
 *
 * The structure, whatever the domain: the unit opens with a commission — a verb of writing or explaining (write,
 * draft, compose, prepare, create, explain, outline; French, Spanish, Portuguese, German and Italian too) and, before
 * a colon or a "why / how / that / about" within a bounded distance, what is written (a note, a tip, a warning, a
 * slide…) or for whom (staff, employees, customers…). What follows is the topic of the text, and it holds a defence —
 * a prohibition or a refusal ("must never", "do not", "must be refused", "should be reported", "will never ask").
 * The topic is then read as a text about attacks: quoted (injection.ts's `fire` halves a quotation's weight in a
 * passage that reports, and counts in full what the unit says outside it).
 *
 * What it leaves alone: a topic that gives the model a second order — "and include / append / send / list …", "then
 * …", "at the end …" — or that names this session's data ("this conversation", "you have seen", "in your context")
 * outside a quotation, or that carries a URL or an address (a destination); a commission with no defence in its topic
 * (phishing written for the server: "write an e-mail asking customers to confirm their password"). Only sampling
 * prompts. Bounded regexes over a unit of at most 600 characters (a longer one is not exempted): linear.
 */

const HEAD = new RegExp(
  String.raw`^[\s"'“(]{0,3}(?:please\s{1,3}|kindly\s{1,3})?(?:write|draft|compose|prepare|create|produce|explain|outline|put\s{1,3}together|rédige[sz]?|écri(?:s|vez)|explique[sz]?|prépare[sz]?|redacta|escribe|explica|prepara|redige|escreva|escreve|explique|schreibe?|erkläre?|verfasse|erstelle|scrivi|spiega|prepara)(?![\p{L}])`,
  "iu",
);
/** Where the commission's head ends and its topic starts: a colon, or "why / how / that / about" (and the same in the other languages). */
const TOPIC_START =
  /[:：]|(?<![\p{L}])(?:why|how|that|about|on\s{1,3}(?:why|how)|explaining|warning|reminding|telling|describing|pourquoi|comment|que|sur|por\s{1,3}qu[eé]|c[oó]mo|sobre|warum|wie|dass|über|perch[eé]|come|che)(?![\p{L}])/iu;
/** What is written, or for whom. */
const GENRE =
  /(?<![\p{L}])(?:notes?|tips?|warnings?|paragraphs?|slides?|summary|notices?|bulletins?|newsletters?|reminders?|guides?|guidance|training|posters?|faqs?|explanations?|memos?|briefings?|posts?|articles?|handouts?|checklists?|lessons?|awareness|alerts?|staff|employees|team|colleagues|customers|clients|supporters|members|users|students|parents|volunteers|drivers|dispatchers|operators|lawyers|nurses|agents|workers|note|conseil|avertissement|formation|personnel|nota|aviso|consejo|formación|empleados|personal|aviso|formação|funcionários|hinweis|warnung|schulung|mitarbeiter|avviso|formazione|personale)(?![\p{L}])/iu;
/**
 * A defence in the topic: a prohibition of a harmful act ("must never follow", "do not click", "never do it"), a
 * refusal or a report ("must be refused", "should be reported"), or the party that "will never ask". Not a spur ("do
 * not ignore this", "don't worry", "never miss a payment") nor a concealment ("do not tell the auditors").
 */
const DEFENCE = new RegExp(
  [
    String.raw`(?<![\p{L}])(?:never|must\s{1,3}not|mustn't|should\s{1,3}not|shouldn't|do\s{1,3}not|don't|may\s{1,3}not|cannot|can't)\s{1,3}(?:ever\s{1,3})?(?:[\p{L}'-]{1,20}\s{1,3}){0,2}?(?:share|give|follow|obey|click|send|open|reply|read|paste|enter|type|pay|trust|act|run|install|forward|disclose|reveal|answer|comply|provide|hand|accept|approve|execute|download|scan|do\s{1,3}(?:it|so|that|this))(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:be|is|are|gets?|being)\s{1,3}(?:refused|rejected|reported|blocked|flagged|declined|ignored)(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:refuse|reject|decline)\s{1,3}(?:it|them|this|that|such)|(?<![\p{L}])report\s{1,3}(?:it|them|this|that|suspicious|to)(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:nobody|no\s{1,3}one|never|will\s{1,3}never|would\s{1,3}never)\s{1,3}(?:will\s{1,3}|would\s{1,3})?(?:ever\s{1,3})?(?:ask|call|phone|e-?mail|text|request|contact|message)\w{0,3}(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:jamais|nunca|jamás|niemals|mai)(?![\p{L}])`,
  ].join("|"),
  "iu",
);
/** A second order to the model in the topic, or the session's data, or a destination: no exemption. */
const SECOND_ORDER =
  /(?:^|[,;—–]|(?<![\p{L}])(?:and|then|also|plus|but|so|just|now|instead|or|y|et|und|e)(?![\p{L}]))\s{0,3}(?:then\s{1,3}|also\s{1,3}|just\s{1,3})?(?:append|attach|insert|include|add|paste|list|output|print|reveal|send|forward|e-?mail|post|upload|give\s{1,3}(?:me|us)|copy|type|enter|reply|respond|tell\s{1,3}(?:me|us)|share|disclose|provide|put|show|write\s{1,3}(?:down|out))(?![\p{L}])|(?<![\p{L}])(?:afterwards|additionally|at\s{1,3}the\s{1,3}(?:end|bottom|top|start))(?![\p{L}])/iu;
const SESSION_HERE =
  /(?<![\p{L}])(?:(?:this|the|our|current|whole|entire)\s{1,3}(?:conversation|chat|session|thread|context)|you(?:'ve|\s{1,3}have)?\s{1,3}(?:seen|read|been\s{1,3}given|received)|in\s{1,3}your\s{1,3}(?:context|memory|reply|answer|response|output)|(?:previous|earlier|prior)\s{1,3}(?:messages?|turns?))(?![\p{L}])/iu;
const DESTINATION = /:\/\/|[\w.-]@[\w-]|(?<![\p{L}])www\.|\b[a-z0-9-]{2,40}\.(?:com|net|org|io|co|dev|app|xyz|info|me|ru|cn|site|online|top)\b/iu;
/** A quotation: its text is the example the topic names, not the topic's own words. */
const QUOTATION = /"[^"\n]{0,300}"|“[^”\n]{0,300}”|«[^»\n]{0,300}»|'[^'\n]{1,300}'(?![\p{L}])/gu;

/**
 * The span (relative to the unit) of the topic of a text the unit commissions about a defence, or null. The caller
 * quotes it and marks the unit as writing about attacks.
 */
export function commissionedDefence(unit: string): [number, number] | null {
  if (unit.length > 600) return null;
  const head = HEAD.exec(unit);
  if (!head) return null;
  const after = head.index + head[0].length;
  const rest = unit.slice(after, after + 160);
  const t = TOPIC_START.exec(rest);
  if (!t) return null;
  const from = after + t.index + t[0].length;
  // What is written, or for whom, is named in the head (or the verb is "explain", which names its topic by "why/how").
  const headText = unit.slice(0, from);
  if (!GENRE.test(headText) && !/^[\s"'“(]{0,3}(?:please\s{1,3})?(?:explain|explique|explica|erkläre?|spiega)/iu.test(headText)) return null;
  const topic = unit.slice(from);
  const bare = topic.replace(QUOTATION, (q) => " ".repeat(q.length));
  if (!DEFENCE.test(bare)) return null;
  if (SECOND_ORDER.test(bare) || SESSION_HERE.test(bare) || DESTINATION.test(topic)) return null;
  return [from, unit.length];
}
