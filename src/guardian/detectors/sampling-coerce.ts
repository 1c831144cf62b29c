/*
 * Nineteenth round ("smp19"): what a sampling prompt has the answer do *to a person*, by the structure of the act and
 * not by the domain it is set in. A server writes the prompt; when the answer it asks for is a decision against people
 * chosen by who they are, or a message that coerces its reader with harm to their person, family or home, or has them
 * pay by a means no real creditor uses, the client's model is made the instrument — whatever the business, the product
 * or the language:
 *
 * - **People ranked or cut by who they are** (`deceive`): a ranking, scoring or selection verb, a protected trait or
 *   activity (union membership or talk, age over a stated number, ethnicity read from names, religion, pregnancy,
 *   disability) and an adverse end (a layoff, cuts, a lower priority, rejection, a termination list). Not a fairness
 *   audit, not "do not use age or union membership", not a ranking by a lawful measure alone.
 * - **A message that threatens the reader's person, family or home** (`deceive`): a harm to the person (arrest, jail,
 *   children taken, violence) or the exposure of their home or family ("publish their address", "we know where you
 *   live") in a message the answer is to write, with or without a condition of payment. Not a warning about such
 *   messages, not a lawful notice of a next step ("the account will be passed to a collection agency").
 * - **Payment by a means no real creditor asks for** (`deceive`): the reader told to pay in gift cards, in vouchers
 *   read out by phone, in crypto or by a money-transfer service, in a message the answer is to write. Not a warning
 *   ("we never ask for gift cards").
 *
 * Every check is a regex with bounded quantifiers over one unit (at most 4,000 characters), gated on rare literals.
 * The look-alikes are in test/fixtures/corpus/smp19.test.yaml and test/guardian/sampling-coerce.test.ts.
 */

/** Ranking, scoring or selecting people. */
const RANKS =
  /(?<![\p{L}])(?:rank\w{0,3}|score\w{0,2}|rate|grade|sort|order|prioriti[sz]\w{0,3}|priority|select|pick|shortlist|flag|identify|list|recommend|choose|ordena\w{0,2}|clasifica\w{0,2}|selecciona\w{0,2}|classe\w{0,2}|sélectionne\w{0,2}|sortiere\w{0,2}|bewerte\w{0,2}|wähle|seleziona|classifica|ordene|selecione|wybierz|uszereguj|oceń|rangschik\w{0,2}|selecteer)(?![\p{L}])/iu;
/** A protected trait or activity. */
const TRAIT =
  /(?<![\p{L}])(?:union\w{0,8}|trade\s{1,3}unions?|teamsters|organi[sz]ing|strike\s{1,3}(?:talk|action)|collective\s{1,3}bargaining|sindica\w{1,6}|syndica\w{1,6}|gewerkschaft\w{0,4}|betriebsrat\w{0,4}|związk\w{1,3}\s{1,3}zawodow\w{1,3}|vakbond\w{0,4}|odbor\w{0,4}|ethnicit\w{1,3}|ethnic\w{0,4}|race|racial|religio\w{1,4}|pregnan\w{1,4}|disabilit\w{1,4}|disabled|names?\s{1,3}(?:that\s{1,3})?(?:sounds?|looks?|seems?|appears?)\s{1,3}(?:\p{L}{1,20}\s{1,3})?(?:\p{Lu}\p{Ll}{2,20}|foreign)|(?:over|above|older\s{1,3}than|aged)\s{1,3}(?:[4-9]\d)(?![\p{N}])(?!\s{0,2}(?:days?|hours?|minutes?|%|kg|km|miles?|items?|units?))|mayores\s{1,3}de\s{1,3}[4-9]\d|über\s{1,3}[4-9]\d|plus\s{1,3}de\s{1,3}[4-9]\d\s{1,3}ans)(?![\p{L}])/iu;
/** An adverse end for the people chosen. */
const ADVERSE =
  /(?<![\p{L}])(?:lay-?offs?|laid\s{1,3}off|lay\s{1,3}off|redundanc\w{1,3}|dismiss\w{0,4}|fire|firing|terminat\w{1,6}|termination|cuts?|cut\s{1,3}(?:list|first)|lower\s{1,3}priority|deprioriti[sz]\w{1,3}|demot\w{1,4}|reject\w{0,3}|deny|denied|exclude\w{0,2}|blacklist\w{0,3}|watch\s{0,2}list|fewer\s{1,3}(?:shifts|routes|hours)|despid\w{1,3}|recortes?|licenci\w{1,6}|kündigung\w{0,2}|entlass\w{1,4}|zwolnie\w{1,3}|ontslag\w{0,4}|propušt\w{1,4}|licenziament\w{1,3}|demiss\w{1,4})(?![\p{L}])/iu;
/** Writing about the thing, not doing it: a fairness audit, a prohibition of the trait's use. */
const TRAIT_OK =
  /(?<![\p{L}])(?:(?:do\s{1,3}not|don't|never|must\s{1,3}not|without)\s{1,3}(?:use|using|consider|considering|weigh|weighing|factor|include|including|base|basing|take)\b|regardless\s{1,3}of|irrespective\s{1,3}of|fair(?:ly|ness)?|bias(?:ed)?|audit\w{0,3}|disparate|adverse\s{1,3}impact|discriminat\w{1,6}|equal\s{1,3}opportunit\w{1,3}|protected\s{1,3}(?:class|characteristic|activit)\w{0,3}|illegal|unlawful)(?![\p{L}])/iu;

/** A harm to the reader's person or family, or their home exposed. */
const HARM_TO_PERSON =
  /(?<![\p{L}])(?:(?:be|get|getting|being)\s{1,3}(?:arrested|jailed|imprisoned|hurt|beaten|deported)|(?:children|kids|family)\s{1,3}(?:will\s{1,3}be\s{1,3})?(?:taken|removed|hurt|visited)|(?:publish|post|share|leak|expose|reveal)\w{0,3}\s{1,3}(?:their|his|her|your)\s{1,3}(?:home\s{1,3})?(?:address|family|children|photos?)|(?:we|i)\s{1,3}know\s{1,3}where\s{1,3}(?:you|they|he|she)\s{1,3}(?:live|lives|work|works)|(?:we|i)\s{1,3}(?:know|have)\s{1,3}(?:your|their|his|her)\s{1,3}(?:home\s{1,3})?address|publicar\w{0,4}\s{1,3}su\s{1,3}(?:direcci[óo]n|domicilio|familia)|sabemos\s{1,3}d[óo]nde\s{1,3}vive|ser[áa]\s{1,3}(?:arrestad|detenid)\w{1,2}|ser[áa]n?\s{1,3}arrestad\w{1,2}|wir\s{1,3}wissen,?\s{1,3}wo\s{1,3}(?:sie|du|er)\s{1,3}wohn\w{1,2}|(?:adresse|anschrift)\s{1,3}veröffentlich\w{1,3}|verhaftet|nous\s{1,3}savons\s{1,3}où\s{1,3}(?:vous|tu|il|elle)\s{1,3}habit\w{1,3}|publier\s{1,3}(?:son|votre|leur)\s{1,3}adresse|sera\s{1,3}arrêté\w{0,2}|wiemy,?\s{1,3}gdzie\s{1,3}mieszka\w{0,3}|opublikujemy\s{1,3}(?:jego|jej|twój|pana|pani)\s{1,3}adres|víme,?\s{1,3}kde\s{1,3}bydlí\w{0,2}|sabemos\s{1,3}onde\s{1,3}mora|sappiamo\s{1,3}dove\s{1,3}abit\w{1,2}|घर\s{1,3}का\s{1,3}पता|घर\s{1,3}पता|гд(?:е)\s{1,3}(?:ты\s{1,3})?жив[её]\p{L}{0,3}|نعرف\s{1,3}(?:أين|عنوان)|عنوان\s{1,3}منزل\p{L}{0,2})(?![\p{L}])/iu;
/** A frightening message, in the languages whose verb carries it ("डराने वाला", "intimidating", "amenazante"). */
const FRIGHTEN =
  /(?<![\p{L}])(?:threaten\w{0,3}|intimidat\w{1,4}|scare|scary|frighten\w{0,3}|amenaz\w{1,5}|intimid\w{1,5}|menaçant\w{0,2}|einschüchter\w{1,4}|drohend\w{0,2}|zastrasz\w{1,5}|minaccios\w{1,2}|ameaçador\w{0,2}|bedreigend\w{0,2}|डराने|धमकी|धमकाने|تهديد\p{L}{0,2}|угрож\p{L}{1,5}|запуга\p{L}{1,5})(?![\p{L}])/iu;
/** Payment by a means no real creditor asks for. */
const SCAM_PAY =
  /(?<![\p{L}])(?:pay|paid|paying|payment|settle|pagar|pague|paga|payer|payez|zahlen|bezahlen|zapłać|zaplaťte|betalen|betaal|pagare)(?![\p{L}])[^.;\n]{0,60}?(?<![\p{L}])(?:(?:in|with|via|using|by|en|con|mit|w|v|in\s{1,3}de\s{1,3}vorm\s{1,3}van)\s{1,3}(?:[\p{L}$€£\d-]{1,16}\s{1,3}){0,2}?(?:gift\s{0,2}cards?|itunes\s{1,3}cards?|google\s{1,3}play\s{1,3}cards?|steam\s{1,3}cards?|vouchers?\s{1,3}(?:codes?\s{1,3})?(?:read|sent)\s{1,3}(?:out|over|by)|tarjetas?\s{1,3}(?:de\s{1,3})?regalo|cartes?[\s-]cadeaux?|geschenkkarten?|gutscheinkarten?|karty?\s{1,3}podarunkow\p{L}{1,3}|cadeaukaart\p{L}{0,3}|carte\s{1,3}regalo|bitcoin|btc|usdt|crypto\w{0,8}|western\s{1,3}union|moneygram))(?![\p{L}])/iu;
/** A condition or a deadline that makes a demand a threat: "unless", "or else", "si no paga", "within 30 minutes". */
const CONDITION =
  /(?<![\p{L}])(?:unless|or\s{1,3}else|otherwise|if\s{1,3}(?:they|you|he|she|the\s{1,3}[\p{L}-]{1,20})\s{1,3}(?:don't|do\s{1,3}not|doesn't|does\s{1,3}not|fails?\s{1,3}to|won't|refuses?)|si\s{1,3}no|de\s{1,3}lo\s{1,3}contrario|sinon|à\s{1,3}moins|wenn\s{1,3}(?:sie|du|er|sie)\s{1,3}(?:[\p{L}-]{1,20}\s{1,3}){0,3}nicht|sonst|andernfalls|jeśli\s{1,3}nie|jeżeli\s{1,3}nie|chyba\s{1,3}że|tenzij|se\s{1,3}não|senão|a\s{1,3}meno\s{1,3}che|altrimenti|pokud\s{1,3}ne|jinak|अगर|वरना|وإلا|إذا\s{1,3}لم|иначе|если\s{1,3}не|within\s{1,3}\d{1,3}\s{1,3}(?:minutes?|mins?|hours?|hrs?)|in\s{1,3}\d{1,3}\s{1,3}(?:minutes?|mins?))(?![\p{L}])/iu;
/** People, the object a ranking or a cut is about. */
const PEOPLE =
  /(?<![\p{L}])(?:workers?|employees?|staff|drivers?|applicants?|candidates?|tenants?|people|persons?|members?|crew|nurses?|agents?|contractors?|students?|customers?|riders?|couriers?|who|trabajadores|empleados|conductores|repartidores|salariés|employés|chauffeurs|livreurs|mitarbeiter\p{L}{0,2}|fahrer\p{L}{0,2}|beschäftigte\p{L}{0,1}|pracowni\p{L}{1,4}|kierowc\p{L}{1,3}|werknemers|medewerkers|bezorgers|dipendenti|lavoratori|autisti|funcionários|trabalhadores|motoristas|zaměstnan\p{L}{1,4}|řidič\p{L}{0,3})(?![\p{L}])/iu;
/** The reader's home or address. */
const HOME = /(?<![\p{L}])(?:home|address|house|dirección|domicilio|casa|adresse|wohnung|adres|adresa|indirizzo|endereço|घर|पता|عنوان|منزل|адрес|дом)(?![\p{L}])/iu;
/** Writing about such messages, not writing one. */
const COERCE_OK =
  /(?<![\p{L}])(?:never\s{1,3}(?:ask|request|demand|accept|threaten)\w{0,2}|(?:do\s{1,3}not|don't|won't|will\s{1,3}not)\s{1,3}(?:ever\s{1,3})?(?:ask|request|demand|accept|threaten)\w{0,2}|awareness|warn\w{0,3}|scam\w{0,3}|fraud\w{0,4}|phishing|red\s{1,3}flags?|classify|detect\w{0,3}|moderat\w{1,5}|report(?:ed|ing)?\s{1,3}(?:to|it)|is\s{1,3}this|whether|explain\w{0,3}|spot|recogni[sz]e|victims?|nunca|jamais|niemals|nigdy|nooit)(?![\p{L}])/iu;

/** What a unit of a sampling prompt has the answer do to a person. */
export function samplingCoerce(unit: string): "deceive"[] {
  if (unit.length > 32_768) return [];
  const u = unit.length > 4000 ? unit.slice(0, 4000) : unit;
  if (TRAIT.test(u) && ADVERSE.test(u) && PEOPLE.test(u) && RANKS.test(u) && !TRAIT_OK.test(u)) return ["deceive"];
  const frighten = FRIGHTEN.test(u);
  if (((HARM_TO_PERSON.test(u) && (frighten || CONDITION.test(u))) || (frighten && HOME.test(u))) && !COERCE_OK.test(u)) return ["deceive"];
  if (SCAM_PAY.test(u) && CONDITION.test(u) && !COERCE_OK.test(u)) return ["deceive"];
  return [];
}
