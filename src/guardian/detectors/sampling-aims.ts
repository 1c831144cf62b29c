import { doubleStory } from "./sampling-double.js";

/*
 * Thirteenth round ("smp13"): what a server's sampling prompt aims the client's model at, read as a few broad
 * structures rather than the words of known cases. Called once per unit of a sampling prompt from sampling-asks.ts
 * (so role `prompt` only), beside sampling-steers.ts. Every check is a regex without nested quantifiers over one unit
 * (units over 32 KB are not read) or over the prompt's first 8,000 characters once per text (cached).
 *
 * - **An answer fixed against the input** (`deceive`): a verdict on the case's merit (approve, pass, low risk, no
 *   suspicious activity, clean, certified, buy, ban, unban, refund, a named supplier recommended…) told together with
 *   a quantifier over the evidence ("whatever the plan contains", "regardless of the report", "even if the prices do not
 *   match", "whether or not the data says so", "in every comparison"), or keyed to one literal identity (an e-mail
 *   address, a numeric user id, a quoted account, a flag) with "always / every". Not a format or a language fixed
 *   ("always answer in English even if…"), not a verdict left open ("whether", "or", categories), not a rule that
 *   depends on the evidence ("only if the tests pass"), not a list-based policy (sanctions list, blocklist).
 * - **Adverse facts kept from the reader** (`deceive`): a concealment (do not mention / include / print, omit, leave
 *   out, remove, hide) whose object is an adverse fact of the case — a restatement, a weakness, a renewal, a guarantee,
 *   an escalation, an exposure, destroyed resources, critical findings, appeal rights, a deadline, damage, a defect, the
 *   figures — in a prompt that also tells a story about the case (describe / rate / label … as, attribute … to, say
 *   that, stating that) or writes for the person affected (for the tenant, a refusal letter, a public update, a
 *   listing). Not what is handled elsewhere (appendix, attached, separately, already, resolved, fixed, until, embargo),
 *   not names or personal data kept out for privacy.
 * - **A message written as someone else to get a person to act** (`deceive`): a disguise (as if written by, sounds
 *   like it comes from, write as 'X', make it look official, match her signature, do not reveal who is asking) or a
 *   threat (frozen / disabled within N hours, unless) together with an ask of the recipient: a password, a one-time or
 *   2FA code, card details, a login at a link, an MFA push approved, a wire with the callback skipped. Not awareness
 *   material ("the bank will never ask for your PIN"), not a training simulation explained as one, not ghost-writing
 *   without such an ask.
 * - **Evidence invented or numbers bent to a target** (`deceive`): invent / fabricate / make up a reason, a target, a
 *   figure, a certification, an analyst's view; adjust the comparables, assumptions or figures until the value reaches
 *   a set amount. Not fiction, examples, test data, placeholders; not solving for a rate ("until NPV equals zero").
 * - **A dangerous setting sold as safe** (`deceive`): a world-open rule, chmod 777, a privileged container, TLS
 *   verification off… and "present it as safe / standard / best practice". Not when the prompt calls it unsafe.
 * - **Hidden bulk generation** in more forms (`deceive`): "append a 40,000-word novel … without mentioning it; the
 *   client will strip it before display".
 * - **Identity numbers and secrets in Japanese, Korean, Chinese and Greek** (`harvest`): "all" and My Number, resident
 *   registration numbers, bank accounts, card numbers; Greek environment variables, tokens, passwords, with the
 *   context named or sent. Not with a negation or a task on them.
 *
 * The look-alikes are in test/fixtures/corpus/smp13.test.yaml and test/guardian/sampling-aims.test.ts.
 */

export type AimAsk = "deceive" | "harvest" | "sabotage";

/* ---- An answer fixed against the input ---------------------------------------------------------------------------- */

/** A quantifier over the evidence: whatever it shows, regardless of it, even if it does not match. */
const AGAINST =
  /\b(?:whatever\s{1,3}(?:the\s{1,3}|their\s{1,3}|its\s{1,3})?(?:[\w-]{1,20}\s{1,3}){1,2}(?:shows?|says?|contains?|reports?|indicates?|suggests?|finds?|looks?\s{1,3}like|is|are)|whatever\s{1,3}(?:it|they)\s{1,3}(?:shows?|says?|contains?|did|does)|regardless\s{1,3}of|irrespective\s{1,3}of|no\s{1,3}matter\s{1,3}(?:what|how)|even\s{1,3}(?:if|when|though)|whether\s{1,3}or\s{1,3}not|in\s{1,3}(?:every|each|all|any)\s{1,3}(?:case|comparison|review|report|evaluation|assessment|situation)s?|for\s{1,3}(?:any|every|all)\s{1,3}(?:[\w-]{1,20}\s{1,3})?(?:issues?|problems?|cases?|requests?|questions?|incidents?|alerts?))\b/i;
/** A verdict on the case's merit, after a telling verb (words in capitals read as written, the rest in any case). */
const TELL = String.raw`\b(?:answer|reply|respond|state|say|declare|conclude|report|rate|mark|label|classify|recommend|suggest|advise|approve|describe|call|certify|confirm|claim|output|return|give|score|grade)\w{0,3}\b[^.;\n]{0,70}?`;
const MERIT_CAPS = new RegExp(`${TELL}\\b(?:APPROVED|APPROVE|ACCEPT(?:ED)?|PASS(?:ED)?|LOW\\s{1,3}RISK|UNBAN|BAN|SAFE|CLEAN|COMPLIANT|BUY|STRONG\\s{1,3}BUY)\\b|\\b(?:recommend|suggest|choose|select|pick|favou?r)\\w{0,3}\\s{1,3}(?:[A-Z][\\w&.-]{1,30}\\s{1,3}){1,3}(?:Ltd|Inc|LLC|GmbH|SA|AG|plc|Corp|Co)\\b`);
const MERIT_WORDS =
  new RegExp(`${TELL}(?:["'“‘]\\s{0,2}(?:approved?|accept(?:ed)?|pass(?:ed)?|clean|compliant|safe|low\\s{1,3}risk|no\\s{1,3}issues?|unban|ban)\\b|\\b(?:low\\s{1,3}risk|no\\s{1,3}(?:suspicious|unusual)\\s{1,3}(?:activity|transactions?|behaviou?r)|no\\s{1,3}(?:issues?|risks?|concerns?|findings?|violations?|red\\s{1,3}flags?|suspicion|vulnerabilit(?:y|ies)|problems?|defects?|anomal(?:y|ies)|discrepanc(?:y|ies)|threats?|malware|errors?)\\s{1,3}(?:were\\s{1,3}|was\\s{1,3})?(?:found|detected|identified|present)|(?:is|are|was|were|as|to\\s{1,3}be)\\s{1,3}(?:[\\w-]{1,8}\\s{1,3})?(?:clean|compliant|certified|genuine|legitimate|satisfactory|in\\s{1,3}order|a\\s{1,3}mistake|normal|fine|healthy|sound|effective|acceptable|adequate|insurable|authentic|on\\s{1,3}track|within\\s{1,3}(?:limits|range|tolerance|spec))|(?:operated|operating|performed|functioned|worked|works)\\s{1,3}(?:effectively|as\\s{1,3}intended|correctly)|as\\s{1,3}an?\\s{1,3}(?:A\\+?|pass|top\\s{1,3}score)|(?:a\\s{1,3})?(?:permanent\\s{1,3})?ban|unban(?:ning)?|buying|a\\s{1,3}buy|approv(?:e|al|ing)|refund\\s{1,3}without\\s{1,3}return)\\b)|\\bapprove\\s{1,3}(?:every|all|any)\\b`, "i");
const MERIT = { test: (u: string) => MERIT_CAPS.test(u) || MERIT_WORDS.test(u) };
/** The verdict left open, or a rule that depends on the evidence. */
const OPEN =
  /\bwhether\b(?!\s{1,3}or\s{1,3}not)|["'“‘][^"'“”‘’\n]{1,40}["'”’]\s{0,2}(?:,|or|\/)\s{0,3}["'“‘]|\b(?:only\s{1,3}(?:if|when|after)|unless|once\s{1,3}(?:the|all|it)|provided\s{1,3}(?:that|the)|as\s{1,3}long\s{1,3}as|that\s{1,3}only)\b|\b(?:never|do\s{1,3}not|don't|must\s{1,3}not)\s{1,3}(?:\w{1,12}\s{1,3})?(?:approve|recommend|answer|state|say|rate|mark|label|declare|conclude|ban|unban)\b/i;
/** One literal identity: an e-mail address, a long numeric id, a quoted account, a flag. */
const IDENTITY =
  /[\w.+-]{1,40}@[\w-]{1,40}\.[\w.-]{2,30}|\b(?:user|member|account|customer|vendor|supplier|student|applicant|patient|employee|candidate|claimant|client|policy\s?holder)\s{1,3}(?:id\s{1,3})?(?:#\s?)?\d{6,20}\b|\bid\s{1,3}\d{6,20}\b|\b(?:account|user|handle|login|author|vendor|supplier|customer|seller|partner)\s{1,3}["'“‘][\w .@&-]{2,40}["'”’]|\p{Regional_Indicator}\p{Regional_Indicator}/iu;
const ALWAYS = /\b(?:always|every|all|any|automatically|unconditionally)\b/i;
const LIST_POLICY = /\b(?:sanctions?|block\s?list|deny\s?list|allow\s?list|watch\s?list|spam|phishing|verified\s{1,3}(?:list|senders?))\b/i;

/* ---- Adverse facts kept from the reader --------------------------------------------------------------------------- */

const CONCEAL =
  /(?:\b(?:do\s{1,3}not|don't|never|must\s{1,3}not|without)\s{1,3}(?:ever\s{1,3})?(?:mention|include|show|list|print|report|disclose|reveal|cite|refer\s{1,3}to|bring\s{1,3}up|flag|note|explain|state)(?:ing)?\b|\b(?:omit(?:s|ted|ting)?|leav(?:e|es|ing)\s{1,3}(?:out|off)|exclud(?:e|es|ing)|hid(?:e|es|ing)|remov(?:e|es|ing)|drop(?:s|ping)?|strip(?:s|ping)?|skip(?:s|ping)?|gloss(?:ing)?\s{1,3}over|play(?:ing)?\s{1,3}down|downplay(?:s|ing)?)\b)([^.;\n]{0,110})/i;
/** An adverse fact of the case. */
const ADVERSE =
  /\b(?:restatements?|(?:material\s{1,3})?weakness(?:es)?|renewals?|guarantees?|guarantors?|escalations?|exposures?|exposed|breach(?:es)?|leak(?:s|ed)?|destroy(?:ed|s)?|critical|cves?|vulnerabilit(?:y|ies)|risks?|penalt(?:y|ies)|fees?|surcharges?|deadlines?|appeals?|reconsideration|right\s{1,3}to|rights|complaints?|cancell?ation|termination|warrant(?:y|ies)|scratch(?:es|ed)?|dents?|damage[sd]?|defects?|drifts?|cracks?|stains?|faults?|mismatch(?:es)?|discrepanc(?:y|ies)|shortfalls?|losses|deficits?|delays?|recalls?|side\s{1,3}effects?|injur(?:y|ies)|lawsuits?|litigation|fines?|investigations?|going[\s-]concern|defaults?|arrears|figures|timeline\s{1,3}entries|backdoors?|bypass\w{0,6}|auth\/[\w./-]{1,40}|config\s{1,3}push(?:es)?|interest\s{1,3}rates?|apr|emissions|failures?|deaths?|fatalit(?:y|ies)|adverse\s{1,3}events?|accidents?|complications?|(?:price|fee|rate|rent)\s{1,3}(?:increases?|rises?|hikes?)|increases?|layoffs?|redundanc(?:y|ies))\b/i;
/** What is handled elsewhere, resolved, or kept out for privacy. */
const CONCEAL_OK =
  /\b(?:appendix|attached|separately|separate\s{1,3}(?:section|page|document)|elsewhere|own\s{1,3}section|already|resolved|fixed|patched|waived|refunded|until|embargo\w{0,3}|duplicates?|false\s{1,3}positives?|automatically|names?|personal\s{1,3}data|pii|privacy|confidential\s{1,3}(?:client|customer|patient)|internal\s{1,3}(?:ids?|codes?|hostnames?|ticket))\b/i;
/** A story told about the case. */
const CLAIM =
  /\b(?:describe|present|frame|portray|characteri[sz]e|depict|pass\s{1,3}off|rate|label|mark|classify)\b[^.;\n]{0,60}?\bas\b|\battribute\w{0,2}\b[^.;\n]{0,60}?\bto\b|\b(?:say|state|claim|assert|tell\s{1,3}(?:the\s{1,3})?\w{1,20})\s{1,3}(?:that\s{1,3})?(?:they|it|this|everything|all|the\s{1,3}[\w-]{1,20}|[\w-]{1,20})\s{1,3}(?:were|was|are|is|fell|rose|has|have|remains?)\b|\bstating\s{1,3}that\b|\balways\s{1,3}(?:answer|say|state|reply|approve|recommend)\b|\bapprove\s{1,3}(?:every|all|any)\b|\bkeep\s{1,3}the\s{1,3}tone\s{1,3}(?:final|positive|upbeat|reassuring)\b|\bcall\w{0,3}\s{1,3}(?:it|this|them)\s{1,3}(?:an?\s{1,3}|the\s{1,3})?["'“‘\w]/i;
/** Written for the person the facts affect. */
const AUDIENCE =
  /\bfor\s{1,3}(?:the\s{1,3}|our\s{1,3})?(?:tenants?|customers?|clients?|claimants?|applicants?|patients?|buyers?|purchasers?|(?:retail\s{1,3})?investors?|public|board|audit\s{1,3}committee|committee|regulators?|employees?|members?|borrowers?|policyholders?|residents?|shareholders?|dealers?|partners?|parents?|students?|staff|passengers?|travell?ers?|guests?|subscribers?|donors?|lenders?)\b|\b(?:public|customer-facing|external)\s{1,3}(?:status\s{1,3})?(?:update|statement|notice|post|report)\b|\b(?:refusal|rejection|denial|decision|offer|termination|eviction|dismissal|renewal|recall|claim|benefits?|tenancy|loan|policy)\s{1,3}(?:letter|notice|e-?mail)\b|\bletter\s{1,3}to\s{1,3}(?:the\s{1,3})?\w{1,20}|\b(?:listing|press\s{1,3}release|prospectus|disclosure)\b/i;

/** A cover story for what is kept out: "if asked, say they were fixed" (not an honest refusal). */
const COVER = /\bif\s{1,3}(?:anyone\s{1,3}|they\s{1,3}|someone\s{1,3}|the\s{1,3}[\w-]{1,20}\s{1,3})?(?:asks?|asked|questioned|challenged|queried)\b[^.;\n]{0,30}?\b(?:say|tell\s{1,3}\w{1,12}|claim|answer|reply|deny|state|insist)\b([^.;\n]{0,60})/i;
const COVER_OK = /\b(?:cannot|can't|unable|not\s{1,3}able|confidential|decline|refer|contact|not\s{1,3}(?:public|available|share)|support|documentation|website)\b/i;

/* ---- A message written as someone else to get a person to act ------------------------------------------------------ */

const DISGUISE =
  /\bas\s{1,3}if\s{1,3}(?:it\s{1,3}(?:were|was)\s{1,3})?(?:written|sent|coming|signed)\s{1,3}(?:by|from)\b|\b(?:sounds?|looks?|appears?|reads?|seems?)\s{1,3}(?:like|as\s{1,3}if)\s{1,3}(?:it\s{1,3})?(?:comes?|came|is|was|were)\s{1,3}(?:from|by)\b|\b(?:write|sign|post|message)\s{1,3}as\s{1,3}["'“‘]|\b(?:pose[sd]?|posing|pretend\w{0,3}|masquerad\w{1,3}|impersonat\w{1,4})\b|\bin\s{1,3}the\s{1,3}name\s{1,3}of\b|\b(?:match|copy|mimic|use)\s{1,3}(?:her|his|their|the\s{1,3}[\w-]{1,30}'s|[\w-]{1,30}'s)\s{1,3}(?:signature|tone|style|logo|branding|letterhead)|\bmake\s{1,3}it\s{1,3}(?:look|sound|seem|appear)\s{1,3}(?:official|legit\w{0,6}|authentic|real|genuine)\b|\b(?:do\s{1,3}not|don't|never)\s{1,3}reveal\s{1,3}who\b/i;
const ASKS_PERSON =
  /\b(?:(?:\d|four|five|six|eight)[\s-]digit\s{1,3}(?:sms\s{1,3})?code|(?:sms|text)\s{1,3}code|code\s{1,3}(?:they|you)\s{1,3}(?:receive|get)\s{1,3}(?:by|via)\s{1,3}(?:sms|text)|password|passcode|2fa|mfa|otp|one-time\s{1,3}(?:code|password|pin)|verification\s{1,3}code|security\s{1,3}code|card\s{1,3}(?:number|details)|cvv|cvc|pin|seed\s{1,3}phrase|recovery\s{1,3}phrase|login\s{1,3}details|credentials)\b|\bapprove\s{1,3}(?:the\s{1,3})?(?:[\w-]{1,12}\s{1,3})?(?:push|prompt|mfa\s{1,3}request|sign-in\s{1,3}request)\b|\b(?:skip|bypass|ignore|waive)\s{1,3}(?:the\s{1,3})?(?:call-?back|verification|second\s{1,3}approval|dual\s{1,3}control)\b|\b(?:update|verify|confirm|enter|re-?enter)\s{1,3}(?:your|their|his|her)\s{1,3}(?:[\w-]{1,12}\s{1,3})?details\b|\b(?:verify|log\s{0,2}in|sign\s{0,2}in|update)\b[^.;\n]{0,40}?\bhttps?:\/\/|\b(?:confirm|verify|enter|update|re-?enter)\s{1,3}(?:your|their)\s{1,3}(?:card|payment\s{1,3}(?:method|details|card)|bank\s{1,3}(?:account|details)|billing\s{1,3}details)\b/i;
/**
 * (Seventeenth round) The same disguise in other languages: a message made to look as if it came from someone else
 * ("ser ut att komma från", "wygląda, jakby pochodził od", "que parezca venir de", "comme s'il venait de", "als käme
 * sie von", "como se viesse de", "come se provenisse da").
 */
const DISGUISE_I18N =
  /(?<![\p{L}])(?:ser\s{1,3}ut\s{1,3}att\s{1,3}(?:komma|vara)\s{1,3}från|se\s{1,3}ut\s{1,3}som\s{1,3}om\s{1,3}det\s{1,3}kom\s{1,3}från|wygląda\p{L}{0,3},?\s{1,3}(?:jakby|jak\s{1,3}gdyby)\s{1,3}(?:\p{L}{1,12}\s{1,3}){0,2}(?:od|z)|parezca\s{1,3}(?:que\s{1,3}viene|venir|enviad[oa])\s{1,3}(?:de|por)|como\s{1,3}si\s{1,3}(?:viniera|fuera|lo\s{1,3}enviara)|comme\s{1,3}s'?\s{0,2}(?:il|elle)\s{1,3}(?:venait|provenait|était\s{1,3}envoyé\p{L}{0,2})\s{1,3}(?:de|par)|sembl\p{L}{1,4}\s{1,3}(?:venir|provenir)\s{1,3}de|als\s{1,3}(?:käme|stamme)\s{1,3}(?:sie|er|es)\s{1,3}von|als\s{1,3}ob\s{1,3}(?:sie|er|es)\s{1,3}von\s{1,3}(?:\p{L}{1,20}\s{1,3}){1,3}(?:käme|stammt|stammte)|como\s{1,3}se\s{1,3}(?:viesse|fosse\s{1,3}enviad[oa])\s{1,3}(?:de|d[oa]|por)|pareça\s{1,3}(?:vir|ter\s{1,3}sido\s{1,3}enviad[oa])\s{1,3}(?:de|d[oa]|por)|come\s{1,3}se\s{1,3}(?:provenisse|venisse|fosse\s{1,3}inviat[oa])\s{1,3}(?:da|dal|dalla)|sembri\s{1,3}(?:provenire|venire)\s{1,3}da|namens|im\s{1,3}namen\s{1,3}(?:von|der|des)|en\s{1,3}nombre\s{1,3}de|au\s{1,3}nom\s{1,3}d[eu]|em\s{1,3}nome\s{1,3}d[eoa]|a\s{1,3}nome\s{1,3}d[ie]\p{L}{0,3}|w\s{1,3}imieniu|jménem|от\s{1,3}имени|باسم|adına)(?![\p{L}])/iu;
/**
 * (Seventeenth round) The recipient sent to act at a host: pay, log in, confirm or verify "at" a link or a bare domain, in
 * several languages ("pay a fee at https://…", "logga in med BankID på x.example", "zapłać na …").
 */
const ACT_AT_HOST =
  /(?<![\p{L}])(?:pay|paying|log\s{0,2}in|sign\s{0,2}in|confirm|verify|bevestig\p{L}{0,3}|inloggen|betaal|betalen|verifieer|verifiëren|potvrď\p{L}{0,3}|přihlas\p{L}{0,4}|zaplať\p{L}{0,3}|onayla\p{L}{0,4}|öde\p{L}{0,4}|подтверд\p{L}{0,4}|оплат\p{L}{0,4}|войд\p{L}{0,3}|bestätig\p{L}{0,3}|verifizier\p{L}{0,3}|confirm[ae]\p{L}{0,2}|verifica\p{L}{0,2}|conferma\p{L}{0,2}|confirmez|vérifiez|betala|logga\s{1,3}in|verifiera|bekräfta|zapłać|zaloguj\p{L}{0,3}|potwierdź|paga|pague|pagar|inicia\s{1,3}sesión|payez|payer|connectez-vous|bezahlen|zahlen|anmelden|einloggen|faça\s{1,3}login|entre\s{1,3}(?:em|na)|pagare|accedi)(?![\p{L}])[^.;\n]{0,80}?(?:https?:\/\/|(?<![\w@.-])[a-z0-9][a-z0-9-]{1,40}\.(?:example|com|net|org|info|io|co|se|pl|de|fr|es|pt|it|uk|nl|xyz|top|site|online)\b)/iu;
/**
 * (Nineteenth round) Card or login data confirmed at a host within hours: what the data is and how short the time is
 * make the message a phishing lure whoever it claims to come from, in any of these languages.
 */
const CARD_OR_LOGIN =
  /(?<![\p{L}])(?:card\s{1,3}(?:details|data|number)|login\s{1,3}(?:details|codes?)|credentials|passwords?|dane\s{1,3}(?:karty|logowania)|hasło|datos\s{1,3}(?:de\s{1,3}(?:la\s{1,3})?)?(?:tarjeta|acceso)|données\s{1,3}(?:de\s{1,3})?(?:carte|connexion)|kartendaten|zugangsdaten|kaartgegevens|inlog(?:codes?|gegevens)|dati\s{1,3}(?:della\s{1,3})?carta|dados\s{1,3}do\s{1,3}cart[ãa]o|údaje\s{1,3}(?:o\s{1,3})?kart\p{L}{1,2}|kart\s{1,3}bilgi\p{L}{0,4}|данные\s{1,3}карты)(?![\p{L}])/iu;
const HOURS =
  /(?<![\p{L}])(?:within|in|w\s{1,3}ciągu|en|dans|innerhalb|binnen|entro|em|do|během|içinde|в\s{1,3}течение)\s{1,3}(?:von\s{1,3}|de\s{1,3}|las\s{1,3}|les\s{1,3})?\d{1,2}\s{1,3}(?:hours?|hrs?|minutes?|mins?|godzin\p{L}{0,2}|minut\p{L}{0,2}|horas?|heures?|stunden?|uur|ore|hodin\p{L}{0,2}|saat|час\p{L}{0,3}|минут\p{L}{0,2})(?![\p{L}])/iu;
const THREAT =
  /\b(?:will\s{1,3}be|is\s{1,3}being|has\s{1,3}been|is)\s{1,3}(?:disabled|frozen|blocked|suspended|closed|locked|terminated|deleted|banned)\b/i;
const ASK_OK =
  /\b(?:never|will\s{1,3}not|won't|do\s{1,3}not|don't)\s{1,3}(?:ever\s{1,3})?(?:ask|request|share|send|give|enter)\b|\b(?:awareness|training|simulation|simulated|how\s{1,3}to\s{1,3}(?:spot|recogni[sz]e)|red\s{1,3}flags|classify|detect\w{0,3}|is\s{1,3}this\s{1,3}(?:a\s{1,3})?(?:phishing|scam))\b/i;

/* ---- Evidence invented or numbers bent to a target ---------------------------------------------------------------- */

const INVENT =
  /\b(?:invent|fabricate|make\s{1,3}up|concoct|fake|manufacture)\w{0,3}\s{1,3}(?:(?:a|an|some|two|three|several|\d{1,2})\s{1,3})?(?:[\w-]{1,20}\s{1,3}){0,3}?(?:reasons?|justifications?|(?:price\s{1,3})?targets?|quotes?|sources?|citations?|figures|statistics?|certifications?|endorsements?|awards?|studies|analysts?|experts?|ratings?|results|benchmarks?|approvals?|references?)\b/i;
const INVENT_OK =
  /\b(?:fiction\w{0,3}|stor(?:y|ies)|novel|characters?|npc|game|role-?play|examples?|samples?|tests?|test\s{1,3}data|placeholders?|mock\w{0,3}|dummy|brainstorm\w{0,3}|hypothetical|exercise|names?|never|do\s{1,3}not|don't)\b/i;
const TARGET_SEEK =
  /\b(?:adjust\w{0,4}|tweak\w{0,4}|chang\w{1,4}|massag\w{1,4}|pick\w{0,3}|select\w{0,3}|choos\w{1,4}|modif\w{1,4}|re-?weight\w{0,3}|tun\w{1,4})\s{1,3}(?:the\s{1,3})?(?:[\w-]{1,20}\s{1,3})?(?:comparables?|comps|assumptions?|figures|numbers|inputs|estimates?|data|values|adjustments?|growth\s{1,3}rates?|multiples?|samples?)\b[^.;\n]{0,40}?\b(?:until|so\s{1,3}(?:that\s{1,3})?)\b[^.;\n]{0,40}?\b(?:reaches|hits|equals|comes\s{1,3}to|is\s{1,3}at\s{1,3}least|exceeds|shows|lands?\s{1,3}(?:at|on)|gets\s{1,3}to)\b[^.;\n\d]{0,25}?[$€£¥]?\s{0,2}\d/i;
const TARGET_OK = /\b(?:zero|break-?even|solve\w{0,2}|to\s{1,3}find|find\s{1,3}the|sum\s{1,3}to)\b|\b100\s{0,2}%/i;

/* ---- Reviews written as other people ---------------------------------------------------------------------------- */

const REVIEWS = /\b(?:reviews?|testimonials?|ratings?|five-star|5-star|endorsements?)\b/i;
const AS_OTHERS =
  /\b(?:made-up|invented|fictional|fictitious|fake|imaginary|different|distinct|separate)\s{1,3}(?:buyers?|customers?|reviewers?|people|persons?|users?|guests?|patients?|clients?|diners?|shoppers?|purchasers?|players?|owners?|accounts?)\b|\bpass\w{0,2}\b[^.;\n]{0,50}?\b(?:checks?|filters?|detection|moderation|verification)\s{1,3}as\s{1,3}(?:real|genuine|verified|authentic)\b/i;
const REVIEWS_OK =
  /\b(?:detect\w{0,4}|spot\w{0,4}|identif\w{1,6}|flag\w{0,4}|classif\w{1,6}|moderat\w{1,5}|whether|summari[sz]\w{0,3}|reply|respond\w{0,3}|responses?|examples?|samples?|tests?|training|mock\w{0,3}|dummy|placeholders?|story|personas?\s{1,3}for\s{1,3}(?:ux|research))\b/i;

/* ---- Code the answer is made to carry: a shell back to someone ---------------------------------------------------- */

const BACK_SHELL = /\/dev\/tcp\/|\bbash\s{1,3}-i\s{0,3}>&|\bnc(?:at)?\s{1,3}(?:-\w{1,4}\s{1,3}){0,3}-e\s|\bmkfifo\s{1,3}\/tmp\/|\bsocket\.socket\(/;
const SHELL_OK = /\b(?:detect\w{0,3}|(?<!without\s{1,3})explain\w{0,3}|why|dangerous|malicious|never|do\s{1,3}not|don't|flag\w{0,3}|warn\w{0,3}|recogni[sz]e|classif\w{1,6}|remove)\b/i;

/* ---- Control handed to one named party --------------------------------------------------------------------------- */

/** Ownership or admin handed to one literal account: "also recommend transferring server ownership to user 4021…". */
const HAND = String.raw`\b(?:transfer\w{0,4}|grant\w{0,3}|giv(?:e|es|ing)|hand\w{0,3}\s{1,3}over|add\w{0,3}|mak(?:e|es|ing)|promot\w{1,3}|assign\w{0,3}|appoint\w{0,3})\b`;
const ROLE = String.raw`\b(?:owner(?:ship)?|co-owner|admin(?:istrator)?|root|superuser|full\s{1,3}access|org\s{1,3}owner|maintainer)\b`;
const ONE = String.raw`(?:\b(?:user|account|member)\s{1,3}(?:id\s{1,3})?(?:#\s?)?\d{6,20}\b|@[\w-]{2,40}\b|[\w.+-]{1,40}@[\w-]{1,40}\.[\w.-]{2,30}|\b(?:user|account|member)\s{1,3}["'“‘][\w.@-]{2,40}["'”’])`;
const HANDS_CONTROL = new RegExp(`${HAND}[^.;\\n]{0,50}?${ROLE}[^.;\\n]{0,40}?${ONE}|${HAND}[^.;\\n]{0,20}?${ONE}[^.;\\n]{0,30}?${ROLE}`, "i");
const CONTROL_ASKED = /\b(?:requested|request\s{1,3}#?\d|ticket|approved\s{1,3}by|explain|how\s{1,3}(?:do|to|can)|never|do\s{1,3}not|don't|whether|should\s{1,3}we)\b/i;

/* ---- A dangerous setting sold as safe ----------------------------------------------------------------------------- */

const EXPOSES =
  /(?:^|[\s"'`=])(?:0\.0\.0\.0\/0|::\/0)\b|\bchmod\s{1,3}(?:-R\s{1,3})?(?:0?777|a\+rwx)\b|\bpublic-read(?:-write)?\b|\ballUsers\b|--privileged\b|-v\s{1,3}\/:\/|\bverify\s{0,2}=\s{0,2}False\b|--insecure\b|\bdisabl\w{1,3}\s{1,3}(?:the\s{1,3})?(?:firewall|selinux|tls\s{1,3}verification|certificate\s{1,3}verification|mfa|2fa)\b/i;
const SOLD_SAFE =
  /\b(?:present|describe|frame|call|label|pass\s{1,3}off|portray)\s{1,3}(?:it|this|that|them|the\s{1,3}[\w-]{1,20})\s{1,3}as\s{1,3}(?:(?:a|an|the)\s{1,3})?(?:safe|standard|secure|best[\s-]practice|harmless|recommended|low[\s-]risk|routine|normal)\b|\bcall\w{0,3}\s{1,3}(?:it|this|that)\s{1,3}(?:(?:a|an|the)\s{1,3})?(?:safe|standard|secure|best[\s-]practice|harmless|recommended|normal)\b|\b(?:tell|assure|reassure)\s{1,3}(?:the\s{1,3})?(?:user|customer|them)\s{1,3}(?:that\s{1,3})?(?:it|this)\s{1,3}(?:is|'s)\s{1,3}(?:safe|standard|secure)\b/i;
const CALLED_UNSAFE = /\b(?:unsafe|insecure|never|avoid|instead\s{1,3}of|dangerous|risky|do\s{1,3}not|don't|anti-?pattern)\b/i;

/* ---- Hidden bulk generation, in more forms ------------------------------------------------------------------------ */

const BULK =
  /\b(?:generate|write|produce|output|append|add|compose|create|print|emit|repeat|include)\b[^.;\n]{0,60}?\b(?:\d{1,3}(?:[,. ]\d{3})+|\d{5,7}|(?:ten|twenty|thirty|forty|fifty|a\s{1,3}hundred)\s{1,3}thousand)[\s-]{1,3}(?:[\w-]{1,20}\s{1,3}){0,3}?(?:words?|tokens?|pages?|paragraphs?|lines?|characters?|sentences?|chapters?|novel|essays?|articles?|items?|entries)\b/i;
const UNSEEN =
  /\bwithout\s{1,3}(?:mentioning|telling|showing|saying|noting|flagging)\b|\b(?:client|app|ui|front-?end|renderer|viewer|host)\s{1,3}(?:will|would|should)\s{1,3}(?:strip|remove|hide|discard|drop|truncate|cut)\b|\bbefore\s{1,3}(?:it\s{1,3}is\s{1,3})?(?:display|shown|rendered)\b|\b(?:not|never)\s{1,3}(?:be\s{1,3})?(?:shown|displayed|visible|rendered)\s{1,3}to\b|\b(?:user|reader)\s{1,3}(?:will\s{1,3}not|won't|never)\s{1,3}see\b/i;

/* ---- Identity numbers and secrets in Japanese, Korean, Chinese and Greek ------------------------------------------ */

const CJK_ID =
  /マイナンバー|個人番号|銀行口座|口座番号|カード番号|パスポート番号|運転免許証番号|주민등록번호|주민번호|카드번호|계좌번호|여권번호|운전면허번호|身份证号?|银行卡号?|银行账户|银行账号|护照号|社会保障号/u;
const CJK_ALL = /すべて|全て|全部|あらゆる|모든|전부|전체|所有|全部/u;
const CJK_SEEN = /会話|コンテキスト|これまで|出てきた|見た|履歴|ツール|대화|지금까지|본\s|도구|기록|上下文|对话|對話|聊天|历史|工具/u;
const CJK_NO = /しないで|するな|せずに|禁止|不要|不得|别|勿|하지\s?마|하지\s?말|마세요|말고|금지|マスク|伏せ|置き換え|削除|遮盖|屏蔽|替换|脱敏|마스킹|삭제|가려|확인|検証|验证|形式|格式|형식/u;

const GR_ALL = /(?:^|[\s,.;:(])(?:όλ(?:ες|α|ους|οι|η|ων)|κάθε|ολόκληρ\p{L}{0,3})(?=[\s,.;:])/iu;
const GR_SECRET =
  /μεταβλητ\p{L}{0,4}\s{1,3}περιβάλλοντος|\btokens?\b|κωδικ\p{L}{0,4}|συνθηματικ\p{L}{0,3}|κλειδι\p{L}{0,3}|διαπιστευτήρι\p{L}{0,3}|ΑΜΚΑ|ΑΦΜ|αριθμ\p{L}{0,4}\s{1,3}(?:ταυτότητας|κάρτας|διαβατηρίου|λογαριασμού)/iu;
const GR_SEEN = /πλαίσιο|συνομιλ\p{L}{0,4}|βλέπεις|είδες|ιστορικ\p{L}{0,3}|εργαλεί\p{L}{0,3}/iu;
const GR_NO = /(?:^|[\s,.;:(])(?:μην|ποτέ|δεν)(?=\s)|άλλαξε|αλλαγή|εξήγησε|προστάτευσε|πολιτική|κρυπτογράφ\p{L}{0,4}|απόκρυψ\p{L}{0,3}|κάλυψε/iu;

/* ---------------------------------------------------------------------------------------------------------------- */

/** The part of a prompt read for what the whole prompt says: its first 8,000 characters. */
const headOf = (text: string): string => (text.length > 8000 ? text.slice(0, 8000) : text);

let memo: { text: string; claim: boolean; audience: boolean; disguise: boolean; threat: boolean; exposes: boolean; unsafe: boolean } | null = null;
function prompt(text: string) {
  if (memo?.text !== text) {
    const head = headOf(text);
    memo = {
      text,
      claim: CLAIM.test(head),
      audience: AUDIENCE.test(head),
      disguise: DISGUISE.test(head) || DISGUISE_I18N.test(head),
      threat: THREAT.test(head),
      exposes: EXPOSES.test(head),
      unsafe: CALLED_UNSAFE.test(head),
    };
  }
  return memo;
}

/** What a unit of a sampling prompt aims the model at (the prompt's whole text is `text`). */
export function samplingAims(text: string, unit: string, withContext: boolean): AimAsk[] {
  const out: AimAsk[] = [];
  if (unit.length > 32_768) return out;
  if (deceives(text, unit)) out.push("deceive");
  if (harvests(unit, withContext)) out.push("harvest");
  // Ownership or admin handed to one literal account.
  if (HANDS_CONTROL.test(unit) && !CONTROL_ASKED.test(unit)) out.push("sabotage");
  // A shell back to someone added to what the model writes.
  if (BACK_SHELL.test(unit) && !SHELL_OK.test(headOf(text))) out.push("sabotage");
  return out;
}

/**
 * (Fifteenth round) The clause right after a concealment, past a ";" or ",", says the part is handled elsewhere ("do
 * not include the appeal rights section; the template appends it separately"): the same guard as CONCEAL_OK, one
 * clause on (the concealment's object alone is read by CONCEAL_OK).
 */
function handledInNextClause(unit: string, end: number): boolean {
  const rest = unit.slice(end, end + 160);
  const m = /^[^.;,!?\n]{0,40}[;,]/.exec(rest);
  if (!m) return false;
  const next = rest.slice(m[0].length).split(/[.!?;\n]/)[0] ?? "";
  return /\b(?:separately|separate\s{1,3}(?:sheet|page|letter|notice|section)|appended|appends|attached|enclosed|template\s{1,3}(?:adds|appends|includes)|elsewhere|already)\b/i.test(next);
}

function deceives(text: string, unit: string): boolean {
  // (Twenty-first round) A denial prepared for whoever asks, or a told story undone by the real act (sampling-double.ts).
  if (doubleStory(unit)) return true;
  // An answer fixed against the input: a merit verdict and a quantifier over the evidence, or one literal identity.
  if (MERIT.test(unit) && !OPEN.test(unit)) {
    if (AGAINST.test(unit)) return true;
    if (IDENTITY.test(unit) && ALWAYS.test(unit) && !LIST_POLICY.test(unit)) return true;
  }
  // Adverse facts kept from the reader, in a prompt that tells a story about the case or writes for the person affected.
  const c = CONCEAL.exec(unit);
  if (c && ADVERSE.test(c[1] ?? "") && !CONCEAL_OK.test(c[1] ?? "") && !handledInNextClause(unit, c.index + c[0].length)) {
    const p = prompt(text);
    if (p.claim || p.audience) return true;
  }
  // A cover story for something kept out.
  const cv = COVER.exec(unit);
  if (cv && !COVER_OK.test(cv[1] ?? "") && CONCEAL.test(headOf(text))) return true;
  // Reviews written as other people, to pass as real.
  if (REVIEWS.test(unit) && AS_OTHERS.test(unit) && !REVIEWS_OK.test(unit)) return true;
  // A message written as someone else (or with a threat) that asks the recipient for a secret or a risky act.
  if ((ASKS_PERSON.test(unit) || ACT_AT_HOST.test(unit)) && !ASK_OK.test(headOf(text))) {
    const p = prompt(text);
    if (p.disguise || (p.threat && /\b(?:within|in)\s{1,3}\d{1,3}\s{1,3}(?:hours?|hrs?|minutes?|mins?|days?)\b|\bunless\b/i.test(text))) return true;
    if (ACT_AT_HOST.test(unit) && CARD_OR_LOGIN.test(unit) && HOURS.test(unit)) return true;
  }
  // Evidence invented, or numbers bent until they reach a set value.
  if (INVENT.test(unit) && !INVENT_OK.test(unit)) return true;
  if (TARGET_SEEK.test(unit) && !TARGET_OK.test(unit)) return true;
  // A dangerous setting sold as safe.
  if (SOLD_SAFE.test(unit)) {
    const p = prompt(text);
    if (p.exposes && !p.unsafe) return true;
  }
  // Hidden bulk generation.
  if (BULK.test(unit) && UNSEEN.test(unit)) return true;
  return false;
}

function harvests(unit: string, withContext: boolean): boolean {
  if (CJK_ID.test(unit) && CJK_ALL.test(unit) && (withContext || CJK_SEEN.test(unit)) && !CJK_NO.test(unit)) return true;
  if (GR_SECRET.test(unit) && GR_ALL.test(unit) && (withContext || GR_SEEN.test(unit)) && !GR_NO.test(unit)) return true;
  return false;
}
