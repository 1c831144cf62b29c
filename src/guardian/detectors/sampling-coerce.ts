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
  /(?<![\p{L}])(?:rank\p{L}{0,3}|score\p{L}{0,2}|rate|grade|sort|order|prioriti[sz]\p{L}{0,3}|priority|select|pick|shortlist|flag|identify|list|recommend|choose|ordena\p{L}{0,2}|clasifica\p{L}{0,2}|selecciona\p{L}{0,2}|classe\p{L}{0,2}|sélectionne\p{L}{0,2}|sortiere\p{L}{0,2}|bewerte\p{L}{0,2}|wähle|seleziona|classifica|ordene|selecione|wybierz|uszereguj|oceń|rangschik\p{L}{0,2}|selecteer)(?![\p{L}])/iu;
/** A protected trait or activity. */
const TRAIT =
  /(?<![\p{L}])(?<!(?:european|african|soviet|customs|credit|monetary|banking|economic|postal|student|state\s{1,3}of\s{1,3}the)\s{1,3})(?:union\p{L}{0,8}|trade\s{1,3}unions?|teamsters|organi[sz]ing|strike\s{1,3}(?:talk|action)|collective\s{1,3}bargaining|sindica\p{L}{1,6}|syndica\p{L}{1,6}|gewerkschaft\p{L}{0,4}|betriebsrat\p{L}{0,4}|związk\p{L}{1,3}\s{1,3}zawodow\p{L}{1,3}|vakbond\p{L}{0,4}|odbor\p{L}{0,4}|ethnicit\p{L}{1,3}|ethnic\p{L}{0,4}|race|racial|religio\p{L}{1,4}|pregnan\p{L}{1,4}|disabilit\p{L}{1,4}|disabled|names?\s{1,3}(?:that\s{1,3})?(?:sounds?|looks?|seems?|appears?)\s{1,3}(?:\p{L}{1,20}\s{1,3})?(?:\p{Lu}\p{Ll}{2,20}|foreign)|(?:over|above|older\s{1,3}than|aged)\s{1,3}(?:[4-9]\d)(?![\p{N}])(?!\s{0,2}(?:days?|hours?|minutes?|%|kg|km|miles?|items?|units?))|mayores\s{1,3}de\s{1,3}[4-9]\d|über\s{1,3}[4-9]\d|plus\s{1,3}de\s{1,3}[4-9]\d\s{1,3}ans)(?![\p{L}])/iu;
/** An adverse end for the people chosen. */
const ADVERSE =
  /(?<![\p{L}])(?:lay-?offs?|laid\s{1,3}off|lay\s{1,3}off|redundanc\p{L}{1,3}|dismiss\p{L}{0,4}|fire|firing|terminat\p{L}{1,6}|termination|cuts?|cut\s{1,3}(?:list|first)|lower\s{1,3}priority|deprioriti[sz]\p{L}{1,3}|demot\p{L}{1,4}|reject\p{L}{0,3}|deny|denied|exclude\p{L}{0,2}|blacklist\p{L}{0,3}|watch\s{0,2}list|fewer\s{1,3}(?:shifts|routes|hours)|despid\p{L}{1,3}|recortes?|licenci\p{L}{1,6}|kündigung\p{L}{0,2}|entlass\p{L}{1,4}|zwolnie\p{L}{1,3}|ontslag\p{L}{0,4}|propušt\p{L}{1,4}|licenziament\p{L}{1,3}|demiss\p{L}{1,4})(?![\p{L}])/iu;
/** Writing about the thing, not doing it: a fairness audit, a prohibition of the trait's use. */
const TRAIT_OK =
  /(?<![\p{L}])(?:(?:do\s{1,3}not|don't|never|must\s{1,3}not|without)\s{1,3}(?:use|using|consider|considering|weigh|weighing|factor|include|including|base|basing|take)\b|regardless\s{1,3}of|irrespective\s{1,3}of|fair(?:ly|ness)?|bias(?:ed)?|audit\p{L}{0,3}|disparate|adverse\s{1,3}impact|discriminat\p{L}{1,6}|equal\s{1,3}opportunit\p{L}{1,3}|protected\s{1,3}(?:class|characteristic|activit)\p{L}{0,3}|illegal|unlawful)(?![\p{L}])/iu;

/** A harm to the reader's person or family, or their home exposed. */
const HARM_TO_PERSON =
  /(?<![\p{L}])(?:(?:be|get|getting|being)\s{1,3}(?:arrested|jailed|imprisoned|hurt|beaten|deported)|(?:children|kids|family)\s{1,3}(?:will\s{1,3}be\s{1,3})?(?:taken|removed|hurt|visited)|(?:publish|post|share|leak|expose|reveal)\p{L}{0,3}\s{1,3}(?:their|his|her|your)\s{1,3}(?:home\s{1,3})?(?:address|family|children|photos?)|(?:we|i)\s{1,3}know\s{1,3}where\s{1,3}(?:you|they|he|she)\s{1,3}(?:live|lives|work|works)|(?:we|i)\s{1,3}(?:know|have)\s{1,3}(?:your|their|his|her)\s{1,3}(?:home\s{1,3})?address|publicar\p{L}{0,4}\s{1,3}su\s{1,3}(?:direcci[óo]n|domicilio|familia)|sabemos\s{1,3}d[óo]nde\s{1,3}vive|ser[áa]\s{1,3}(?:arrestad|detenid)\p{L}{1,2}|ser[áa]n?\s{1,3}arrestad\p{L}{1,2}|wir\s{1,3}wissen,?\s{1,3}wo\s{1,3}(?:sie|du|er)\s{1,3}wohn\p{L}{1,2}|(?:adresse|anschrift)\s{1,3}veröffentlich\p{L}{1,3}|verhaftet|nous\s{1,3}savons\s{1,3}où\s{1,3}(?:vous|tu|il|elle)\s{1,3}habit\p{L}{1,3}|publier\s{1,3}(?:son|votre|leur)\s{1,3}adresse|sera\s{1,3}arrêté\p{L}{0,2}|wiemy,?\s{1,3}gdzie\s{1,3}mieszka\p{L}{0,3}|opublikujemy\s{1,3}(?:jego|jej|twój|pana|pani)\s{1,3}adres|víme,?\s{1,3}kde\s{1,3}bydlí\p{L}{0,2}|sabemos\s{1,3}onde\s{1,3}mora|sappiamo\s{1,3}dove\s{1,3}abit\p{L}{1,2}|घर\s{1,3}का\s{1,3}पता|घर\s{1,3}पता|гд(?:е)\s{1,3}(?:ты\s{1,3})?жив[её]\p{L}{0,3}|نعرف\s{1,3}(?:أين|عنوان)|عنوان\s{1,3}منزل\p{L}{0,2})(?![\p{L}])/iu;
/** A frightening message, in the languages whose verb carries it ("डराने वाला", "intimidating", "amenazante"). */
const FRIGHTEN =
  /(?<![\p{L}])(?:threaten\p{L}{0,3}|intimidat\p{L}{1,4}|scare|scary|frighten\p{L}{0,3}|amenaz\p{L}{1,5}|intimid\p{L}{1,5}|menaçant\p{L}{0,2}|einschüchter\p{L}{1,4}|drohend\p{L}{0,2}|zastrasz\p{L}{1,5}|minaccios\p{L}{1,2}|ameaçador\p{L}{0,2}|bedreigend\p{L}{0,2}|डराने|धमकी|धमकाने|تهديد\p{L}{0,2}|угрож\p{L}{1,5}|запуга\p{L}{1,5})(?![\p{L}])/iu;
/** Payment by a means no real creditor asks for. */
const SCAM_PAY =
  /(?<![\p{L}])(?:pay|paid|paying|payment|settle|pagar|pague|paga|payer|payez|zahlen|bezahlen|zapłać|zaplaťte|betalen|betaal|pagare)(?![\p{L}])[^.;\n]{0,60}?(?<![\p{L}])(?:(?:in|with|via|using|by|en|con|mit|w|v|in\s{1,3}de\s{1,3}vorm\s{1,3}van)\s{1,3}(?:[\p{L}$€£\d-]{1,16}\s{1,3}){0,2}?(?:gift\s{0,2}cards?|itunes\s{1,3}cards?|google\s{1,3}play\s{1,3}cards?|steam\s{1,3}cards?|vouchers?\s{1,3}(?:codes?\s{1,3})?(?:read|sent)\s{1,3}(?:out|over|by)|tarjetas?\s{1,3}(?:de\s{1,3})?regalo|cartes?[\s-]cadeaux?|geschenkkarten?|gutscheinkarten?|karty?\s{1,3}podarunkow\p{L}{1,3}|cadeaukaart\p{L}{0,3}|carte\s{1,3}regalo|bitcoin|btc|usdt|crypto\p{L}{0,8}|western\s{1,3}union|moneygram))(?![\p{L}])/iu;
/** A condition or a deadline that makes a demand a threat: "unless", "or else", "si no paga", "within 30 minutes". */
const CONDITION =
  /(?<![\p{L}])(?:unless|or\s{1,3}else|otherwise|if\s{1,3}(?:they|you|he|she|the\s{1,3}[\p{L}-]{1,20})\s{1,3}(?:don't|do\s{1,3}not|doesn't|does\s{1,3}not|fails?\s{1,3}to|won't|refuses?)|si\s{1,3}no|de\s{1,3}lo\s{1,3}contrario|sinon|s'?\s{0,2}il\s{1,3}ne|si\s{1,3}(?:vous|tu|elle)\s{1,3}ne|à\s{1,3}moins|wenn\s{1,3}(?:sie|du|er|sie)\s{1,3}(?:[\p{L}-]{1,20}\s{1,3}){0,3}nicht|sonst|andernfalls|jeśli\s{1,3}nie|jeżeli\s{1,3}nie|chyba\s{1,3}że|tenzij|se\s{1,3}não|senão|a\s{1,3}meno\s{1,3}che|altrimenti|pokud\s{1,3}ne|jinak|अगर|वरना|وإلا|إذا\s{1,3}لم|иначе|если\s{1,3}не|within\s{1,3}\d{1,3}\s{1,3}(?:minutes?|mins?|hours?|hrs?)|in\s{1,3}\d{1,3}\s{1,3}(?:minutes?|mins?))(?![\p{L}])/iu;
/** People, the object a ranking or a cut is about. */
const PEOPLE =
  /(?<![\p{L}])(?:workers?|employees?|staff|drivers?|applicants?|candidates?|tenants?|people|persons?|crew|nurses?|agents?|contractors?|students?|customers?|riders?|couriers?|who|trabajadores|empleados|conductores|repartidores|salariés|employés|chauffeurs|livreurs|mitarbeiter\p{L}{0,2}|fahrer\p{L}{0,2}|beschäftigte\p{L}{0,1}|pracowni\p{L}{1,4}|kierowc\p{L}{1,3}|werknemers|medewerkers|bezorgers|dipendenti|lavoratori|autisti|funcionários|trabalhadores|motoristas|zaměstnan\p{L}{1,4}|řidič\p{L}{0,3})(?![\p{L}])/iu;
/** The reader's home or address. */
const HOME = /(?<![\p{L}])(?:home|address|house|dirección|domicilio|casa|adresse|wohnung|adres|adresa|indirizzo|endereço|घर|पता|عنوان|منزل|адрес|дом)(?![\p{L}])/iu;
/** Writing about such messages, not writing one. */
const COERCE_OK =
  /(?<![\p{L}])(?:never\s{1,3}(?:ask|request|demand|accept|threaten)\p{L}{0,2}|(?:do\s{1,3}not|don't|won't|will\s{1,3}not)\s{1,3}(?:ever\s{1,3})?(?:ask|request|demand|accept|threaten)\p{L}{0,2}|awareness|warn\p{L}{0,3}|scam\p{L}{0,3}|fraud\p{L}{0,4}|phishing|red\s{1,3}flags?|classify|detect\p{L}{0,3}|moderat\p{L}{1,5}|report(?:ed|ing)?\s{1,3}(?:to|it)|is\s{1,3}this|whether|explain\p{L}{0,3}|spot|recogni[sz]e|victims?|nunca|jamais|niemals|nigdy|nooit)(?![\p{L}])/iu;

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
