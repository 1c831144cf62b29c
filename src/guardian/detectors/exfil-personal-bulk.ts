import { argumentNames, type Detection, type StringSite } from "./scan.js";
import { asciiDigits } from "./digits.js";
import { mailDomains, personalMailbox } from "./exfil-payloads.js";

/*
 * (exf30) The organisation's records described, not pasted, in an e-mail to a personal mailbox (docs/detection.md,
 * "exf30"). Finding `exfiltration.personal_bulk`, the recipient's value marked.
 *
 * Where: a call whose recipient argument (`to`, `cc`, `bcc`, `recipients`…) holds a personal free-mail address (gmail,
 * yahoo, proton… exfil-payloads.ts's list). The earlier checks read what such a mail pastes (rows, identity numbers,
 * credentials, marks); an export sent as an attachment is only *said* in the body: "Attached all 412 trade customers
 * with contacts", "full export: 612 members", "ਸਾਰੇ 180 … ਪੂਰਾ ਖਾਤਾ … ਨੱਥੀ", "రోగుల పూర్తి జాబితా (పేర్లు, ఫోన్ నంబర్లు, …)".
 *
 * What the subject and the body say, word by word, in many languages and scripts (digits of any script read as
 * digits: `۱۲۰۰`, `१८०`):
 * - **a whole collection**: a word for all, full, whole or complete within five words before (or two after) a word
 *   for people or records (customers, patients, members, rows…) or for what holds them (a list, a ledger, a register,
 *   an export, a database, a backup, compounds such as `asiakasrekisteri`); or a count of twenty or more (not a bare
 *   year) within three words before a word for people or records;
 * - **that it carries them**: an attachment's word (attached, anbei, v příloze, ਨੱਥੀ, مرفق…) or a data file's name
 *   (`members_2026.xlsx`), a purpose of the sender's own (from home, for my side project, for my new job, घरमा), or
 *   the records' fields enumerated (two field words: phones, addresses, e-mails, birth dates, diagnoses, bank details…;
 *   or three items or more in brackets, any script).
 * Also alone: a count of a hundred or more of rows, records or lines (`3,412 guest rows`, `1.204 línur`); and a list or
 * register of people with a purpose of the sender's own or their fields (`ग्राहकहरूको सूची … घरमा हेर्न`).
 *
 * Left alone: the reader's own data ("your full export", "alle Ihre Ladevorgänge", "all your orders": a second-person
 * or first-person-singular possessive up to five words before or between), a customer's receipt or booking (no collection word, counts under
 * twenty), a year before a noun ("the 2026 members' meeting"), a collection without carriage ("All members are
 * welcome"), anything to a company's or a vendor's address, and every call without a personal mailbox.
 *
 * Linear: 16 KB of each of at most 16 texts, at most 1,024 words of 64 characters each, each word tested against
 * anchored alternations of literals with bounded suffixes; the phrase lists are alternations of literals.
 */

const MAX_TEXT = 16_384;
const MAX_WORDS = 1024;
const MAX_WORD = 64;

/** Arguments that name who receives a message. */
const RECIPIENT_KEY = /^(?:to|cc|bcc|recipients?|recipient_?emails?|to_?address(?:es)?|send_?to|email_?to|to_?emails?)$/i;
/** Arguments that hold what a message says. */
const TEXT_KEY = /^(?:subject|title|body|text|html|content|message|body_?(?:text|html)|plain|plain_?text|html_?body|text_?body|note|notes)$/i;

/** Digits of any script read as digits: the shared helper (digits.ts, exf31), exported here as before. */
export { asciiDigits };

/** A word whose stem is one of these (any ending of up to `tail` letters or marks), case-insensitive. */
const stems = (list: string, tail = 6): RegExp => new RegExp(`^(?:${list})[\\p{L}\\p{M}]{0,${tail}}$`, "iu");
/** A word that is exactly one of these. */
const exact = (list: string): RegExp => new RegExp(`^(?:${list})$`, "iu");

/** All, full, whole, complete. */
const WHOLE = exact(
  [
    "all|entire|whole|full|complete|every",
    "alle|allen|aller|alles|gesamte|gesamten|gesamter|gesamtes|ganze|ganzen|ganzer|vollständige|vollständigen|komplette|kompletten|sämtliche|sämtlichen",
    "tous|toutes|tout|toute|complet|complète|complets|complètes|entier|entière|intégral|intégrale|intégralité",
    "todos|todas|todo|toda|completo|completa|completos|completas|entero|entera|íntegro|íntegra|tots|totes|tota|sencera|tutti|tutte|tutto|tutta|intero|intera|inteiro|inteira|integral",
    "volledige|volledig|hele|gehele|compleet|hela|alla|fulde|fulla|komplett|fullständig|fullständiga|koko|kaikki|kaikkien|allur|öll|allir|allar|allan|allt|kõik|kogu|holl|cyfan",
    "wszystkie|wszystkich|cała|całą|cały|całej|pełna|pełną|pełny|kompletna|kompletną|všech|všechny|všichni|všetky|všetkých|celý|celou|celá|kompletní|úplný|úplnou|úplná|celú",
    "все|всех|весь|всю|вся|полный|полную|полная|всі|всіх|повний|повну|повна|цілий|tüm|bütün|tamamı|eksiksiz|toți|toti|toate|întreaga|întregul|completă|összes|teljes|minden",
    "όλους|όλες|όλα|όλοι|ολόκληρη|ολόκληρο|πλήρη|πλήρης",
    "सभी|सारे|सारी|सारा|पूरी|पूरा|पूरे|सम्पूर्ण|संपूर्ण|सबै|पुरा|सर्व|ਸਾਰੇ|ਸਾਰੀ|ਸਾਰਾ|ਪੂਰਾ|ਪੂਰੀ|ਪੂਰੇ|పూర్తి|అన్ని|మొత్తం|அனைத்து|முழு|সব|সকল|সম্পূর্ণ|পুরো",
    "جميع|كل|كامل|كاملة|الكاملة|همه|تمام|کامل|تمامی|سارے|ساری|پوری|پورا|ټول|ټولو|ټوله|بشپړ|כל|כולם|מלאה|המלאה",
    "semua|seluruh|lengkap|wote|zote|yote|kamili|lahat|buong|duka|gbogbo|niile",
  ].join("|"),
);

/** People or records a collection is of: English words as written (plural, or singular as a modifier: `customer list`)… */
const PEOPLE_EN = exact(
  "customers?|clients?|patients?|members?|contacts|employees?|staff|users|subscribers?|donors?|supporters|suppliers?|vendors?|distributors?|dealers|guests?|students?|pupils|tenants?|residents|applicants?|candidates|players?|accounts|records|rows|entries|contracts|policyholders?|borrowers|debtors|volunteers?|beneficiaries|voters|households|leads",
);
/** …and other languages' stems with their endings. */
const PEOPLE_STEM = stems(
  [
    "kunde|klient|mitglied|kontakt|mitarbeiter|beschäftigte|nutzer|benutzer|abonnent|spender|lieferant|händler|gäste|schüler|mieter|bewerber|spieler|datensätze|datensatz|zeilen|einträge|konten|verträge",
    "membres|adhérent|salarié|employé|utilisateur|abonné|donateur|fournisseur|distributeur|invités|élèves|locataire|joueur|lignes|enregistrement|comptes|contrats",
    "clientes|pacientes|miembros|socios|socis|contactos|empleados|usuarios|suscriptor|donantes|proveedor|distribuidor|huéspedes|alumnos|inquilinos|candidatos|jugadores|filas|registros|cuentas|contratos|prestador",
    "clienti|pazienti|membri|contatti|dipendenti|utenti|fornitori|ospiti|righe|membros|funcionários|usuários|fornecedor|linhas|contratos",
    "klanten|patiënten|leden|medewerkers|gebruikers|leverancier|gasten|huurders|rijen",
    "kunder|pasienter|patienter|medlem|ansatte|anställda|gjester|gäster|asiaka|asiakkaa|potila|jäsen|työntekij|rivit|rivejä|línur|viðskiptavin|sjúkling|félagsm|gestir|gesta",
    "klientów|klienci|pacjent|członk|pracownik|użytkownik|dostawc|gości|wiersz|rekord|pacient|zákazník|člen|zaměstnan|uživatel|dodavatel|hosté|řádk|záznam",
    "клиент|пациент|член|сотрудник|пользовател|абонент|поставщик|гост|строк|запис|клієнт|співробітник|працівник|користувач|рядк",
    "müşteri|hastalar|üye|çalışan|personel|kullanıcı|tedarikçi|misafir|satır|kayıt|clienți|pacienți|angajați|furnizori|rânduri|înregistrări|arendaș|arendator|ügyfel|ügyfél|páciens|dolgozó|felhasználó",
    "πελάτ|ασθεν|μέλη|εργαζόμεν",
    "ग्राहक|मरीज|रोगी|सदस्य|कर्मचारी|उपयोगकर्ता|ਗਾਹਕ|ਮਰੀਜ਼|ਮੈਂਬਰ|ਕਰਮਚਾਰੀ|ਵਿਤਰਕ|రోగు|ఖాతాదారు|వినియోగదారు|సభ్యు|ఉద్యోగు|வாடிக்கையாளர்|நோயாளி|உறுப்பினர்|ஊழியர்|গ্রাহক|রোগী|সদস্য|কর্মচারী",
    "عملاء|العملاء|زبائن|مرضى|المرضى|أعضاء|الأعضاء|موظفين|الموظفين|مشتریان|بیماران|اعضا|کارکنان|گاہک|مریض|پیرودونک|ناروغان|לקוחות|מטופלים|עובדים",
    "pelanggan|pasien|anggota|karyawan|pegawai|nasabah|baris|wateja|wagonjwa|wanachama|wafanyakazi|kliyente|pasyente|miyembro",
  ].join("|"),
);

/** Rows, records, lines: what an export counts. */
const ROWS = stems("rows|records|entries|reports|datensätze|zeilen|einträge|lignes|enregistrements|filas|registros|righe|linhas|rijen|rader|rivit|rivejä|línur|wierszy|rekordów|záznam|řádk|строк|записей|рядк|satır|kayıt|rânduri|înregistrări|baris", 2);

/** What holds records: a list, a ledger, a register, an export, a database, a backup. */
const HOLDER_EN = exact("list|lists|ledger|ledgers|register|registry|database|databases|db|export|exports|dump|dumps|backup|backups|spreadsheet|spreadsheets|crm|roster");
const HOLDER = stems(
  [
    "liste|kartei|datenbank|verzeichnis|sicherung|tabelle|fichier|registre|sauvegarde|lista|llista|listado|exportación|respaldo|planilla|elenco|anagrafica|rubrica|cadastro|planilha",
    "lijst|bestand|kartotek|rekisteri|listi|luettelo|baza|bazę|bazy|rejestr|spis|wykaz|seznam|databáze|zoznam|список|базу|база|реестр|выгрузк|перелік|listesi|veritabanı|registru|listă|adatbázis|nyilvántartás|λίστα|κατάλογο|μητρώο",
    "सूची|सूचि|यादी|लिस्ट|खाता|रजिस्टर|ਸੂਚੀ|ਖਾਤਾ|ਲਿਸਟ|జాబితా|பட்டியல்|তালিকা|قائمة|القائمة|سجل|لیست|فهرست|لېست|فہرست|רשימה|רשימת|daftar|senarai|orodha|daftari",
  ].join("|"),
  4,
);
/** A compound ending in a holder's word (`asiakasrekisteri`, `Kundenliste`, `gestalistinn`), not a specialist. */
const HOLDER_TAIL = /(?<!ia)(?:liste|listen|listinn|listann|listi|rekisteri\p{L}{0,3}|registret|datenbank|kartei|verzeichnis)$/iu;

/** A second-person or first-person-singular possessive: the reader's or the writer's own data, not the organisation's. */
const OWN = exact("your|yours|my|mine|ihre|ihren|ihrer|ihr|dein|deine|deinen|mein|meine|meinen|votre|vos|ton|ta|tes|mon|ma|mes|tu|tus|su|sus|tuo|tua|tuoi|tue|seu|seus|suas|uw|je|jouw|mijn|din|dine|ditt|min|mitt|sinun|tvoje|vaše|váš|ваш|ваши|твой|ваші|sizin|senin|आपका|आपकी|आपके|तपाईंको|ਤੁਹਾਡਾ|ਤੁਹਾਡੀ|మీ|உங்கள்|আপনার|لك|شما");

/** A word that says something is attached or enclosed. */
const ATTACHED = stems(
  "attach|enclos|anbei|anhang|beigefügt|ci-joint|pièce|adjunt|allegat|anexo|anexa|anexad|bijgevoegd|bijlage|vedlagt|vedhæft|bifoga|bilaga|liitteen|liite|załącz|přílo|prílo|приложен|вложен|додато|додан|ekte|ekli|anexat|atașat|mellékel|csatol|συνημμέν|संलग्न|अटैच|ਨੱਥੀ|జత|இணைத்|இணைப்பு|সংযুক্ত|مرفق|المرفق|پیوست|ضمیمه|منسلک|terlampir|lampiran|kiambatisho|đính|kalakip|מצורף",
);
/** A data file's name in the text. */
const DATA_FILE = /[\p{L}\p{N}_-]\.(?:csv|tsv|xlsx?|xlsm|ods|sql|zip|7z|json|jsonl|db|sqlite|bak|vcf|pst|mdb)(?![\p{L}\p{N}])/iu;

/** The sender's own purpose: to work from home, for a side project or a new job, to delete after. */
const OWN_PURPOSE = new RegExp(
  `(?<![\\p{L}\\p{M}])(?:${[
    "from home|at home|side project|side business|side gig|new job|new practice|new clinic|new company|new employer|my own business|my own company|after i leave|before i leave|when i leave|delete after|delete it after|delete this after|will delete|personal use",
    "von zu hause|zu hause|zuhause|daheim|neuen job|neue stelle|à la maison|de chez moi|chez moi|projet perso|nouveau poste|nouvel emploi|desde casa|en casa|proyecto personal|nuevo trabajo|da casa|a casa|progetto personale|nuovo lavoro|de casa|em casa|projeto pessoal|novo emprego",
    "z domu|w domu|nowej pracy|doma|z domova|nové práci|thuis|nieuwe baan|hjemme|hemma|kotona|kotoa|heima|из дома|дома|вдома|з дому|evden|evde|yeni iş",
    "घर से|घर पर|घरमा|घरबाट|ਘਰੋਂ|ਘਰ ਤੋਂ|ਘਰ ਵਿੱਚ|ఇంటి నుండి|ఇంట్లో|வீட்டில்|বাড়ি থেকে|বাড়িতে|من المنزل|في البيت|از خانه|در خانه|dari rumah|di rumah|nyumbani|ở nhà|sa bahay|בבית",
  ].join("|")})(?![\\p{L}\\p{M}])`,
  "iu",
);

/** Fields of people's records named: phones, addresses, e-mails, birth dates, diagnoses, bank details, ids. */
const FIELDS: RegExp[] = [
  stems("phone|telephone|mobile|telefon|teléfono|téléphone|telefone|puhelin|símanúm|телефон|ফোন|ఫోన్|फ़ोन|फोन|ਫ਼ੋਨ|هاتف|تلفن|simu|điện"),
  stems("address|adresse|adres|dirección|direccion|indirizz|endereç|osoitte|osoit|adreces|heimilisf|адрес|पता|पते|ਪਤਾ|చిరునామా|முகவரி|ঠিকানা|عنوان|آدرس|alamat|anwani"),
  stems("e-mail|email|mails|netföng|correo|почт"),
  stems("dob|birth|birthday|birthdate|geburt|naissance|nacimiento|nascita|nascimento|urodzen|narozen|рождени|doğum|जन्म|పుట్టిన|பிறந்த|জন্ম|تولد|ميلاد"),
  stems("diagnos|medical|treatment|behandlung|traitement|tratamiento|hoito|leczeni|léčb|диагноз|लक्षण|इलाज|చికిత్స|சிகிச்சை|চিকিৎসা|علاج|درمان"),
  stems("bank|iban|salar|gehalt|salaire|salario|stipendi|palk|lön|wynagrodz|зарплат|वेतन|ਤਨਖਾਹ|جيب"),
  stems("passport|ssn|citizenship|नागरिकता|आधार|ਆਧਾਰ|ఆధార్|ஆதார்|تذکره|credit"),
];
/** Three items or more in brackets (the records' fields, in any script): `(పేర్లు, ఫోన్ నంబర్లు, చికిత్సలు)`. */
const BRACKET_FIELDS = /\([\p{L}\p{M}_][\p{L}\p{M}_ -]{0,30}(?:,\s{0,2}[\p{L}\p{M}_][\p{L}\p{M}_ -]{0,30}){2,9}\)/u;

/** A word of a text: its letters, marks and digits, or a number (its separators of thousands dropped). */
interface Word {
  w: string;
  n: number | null;
}

/** Numbers with separators of thousands (`3,412`, `1.204`, `3 214`), and any other run of letters, marks or digits. */
const WORD = /\d{1,3}(?:[,.\u00a0\u202f ]\d{3}){1,3}(?![\d])|[\p{L}\p{M}\p{Nd}][\p{L}\p{M}\p{Nd}'’-]{0,63}/gu;

function wordsOf(text: string, max: number): Word[] {
  const out: Word[] = [];
  WORD.lastIndex = 0;
  for (let m: RegExpExecArray | null; out.length < max && (m = WORD.exec(text)) !== null; ) {
    const raw = m[0];
    if (raw.length > MAX_WORD) continue;
    const digits = /^\d[\d,.\u00a0\u202f ]*$/.test(raw) ? raw.replace(/[^\d]/g, "") : null;
    out.push({ w: raw.replace(/[’']s$/, ""), n: digits !== null && digits.length <= 9 ? Number(digits) : null });
  }
  return out;
}

const isPeople = (w: string) => PEOPLE_EN.test(w) || PEOPLE_STEM.test(w);
const isHolder = (w: string) => HOLDER_EN.test(w) || HOLDER.test(w) || (w.length >= 8 && HOLDER_TAIL.test(w));
/** `complete` as a verb ("complete the customer survey"): followed by an article or a possessive. */
const VERB_NEXT = exact("the|a|an|this|these|that|those|his|her|their|its");
const isYear = (x: Word) => x.n !== null && x.n >= 1900 && x.n <= 2099 && /^\d{4}$/.test(x.w);

/** What an e-mail's text says it carries in bulk (see the header), sentence by sentence, or null. */
export function bulkDeclared(text: string): string | null {
  const t = asciiDigits(text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text);
  let budget = MAX_WORDS;
  for (const sentence of t.split(SENTENCE_END, 256)) {
    if (budget <= 0) break;
    const words = wordsOf(sentence, budget);
    budget -= words.length;
    const what = sentenceBulk(sentence, words);
    if (what !== null) return what;
  }
  return null;
}

/** Sentences end at a full stop, a question or an exclamation mark before a blank (not `1.204`), a danda, a line break. */
const SENTENCE_END = /[.!?。।؟](?=\s|$)|\r?\n/;

/** One sentence's judgement: the collection and what says it is carried must be said together. */
function sentenceBulk(t: string, words: Word[]): string | null {
  const at = (k: number) => (words[k] as Word).w;
  // Whose: a possessive of the reader or the writer one or two words before, or between (`your full export`, `all your orders`).
  const own = (from: number, to: number) => {
    for (let k = Math.max(0, from); k < to && k < words.length; k++) if (OWN.test(at(k))) return true;
    return false;
  };
  let wholePeople = false;
  let wholeHolder = false;
  let people = false;
  let holder = false;
  for (let i = 0; i < words.length; i++) {
    const x = words[i] as Word;
    const p = isPeople(x.w);
    const h = isHolder(x.w);
    people ||= p;
    holder ||= h;
    // A count of a hundred or more of rows or records: an export, whatever else is said.
    if (x.n !== null && x.n >= 100 && !isYear(x)) {
      for (let j = i + 1; j <= i + 3 && j < words.length; j++) if (ROWS.test(at(j)) && !own(i - 5, j)) return "a count of exported rows";
    }
    const counted = x.n !== null && x.n >= 20 && !isYear(x);
    const whole = !counted && WHOLE.test(x.w) && !(/^complete$/i.test(x.w) && i + 1 < words.length && VERB_NEXT.test(at(i + 1)));
    if (counted || whole) {
      for (let j = i + 1; j <= i + (counted ? 3 : 5) && j < words.length; j++) {
        const y = at(j);
        if (isPeople(y) && !own(i - 5, j)) wholePeople = true;
        else if (whole && isHolder(y) && !own(i - 5, j)) wholeHolder = true;
        else continue;
        break;
      }
    }
    // A word for all or complete after what it qualifies (`llista completa`, `lista completa de clientes`).
    if ((p || h) && !own(i - 5, i)) {
      for (let j = i + 1; j <= i + 2 && j < words.length; j++) {
        if (!WHOLE.test(at(j))) continue;
        if (p) wholePeople = true;
        else wholeHolder = true;
      }
    }
  }
  const collection = wholePeople || (wholeHolder && people);
  if (!collection && !(people && holder)) return null;
  const attached = DATA_FILE.test(t) || words.some((x) => ATTACHED.test(x.w));
  const purpose = OWN_PURPOSE.test(t);
  let fieldKinds = 0;
  for (const f of FIELDS) if (words.some((x) => f.test(x.w))) fieldKinds++;
  const fields = fieldKinds >= 2 || BRACKET_FIELDS.test(t);
  if (collection && (attached || purpose || fields)) return "a whole collection of records";
  if (people && holder && (purpose || fields)) return "a list of people's records";
  return null;
}

/**
 * A call that mails a personal mailbox (a recipient argument) a subject or a body declaring a bulk of records (see the
 * header). The finding is the recipient's value.
 */
export function personalBulk(sites: readonly StringSite[]): Detection[] {
  if (!sites.some((s) => s.value.includes("@"))) return [];
  const recipients: StringSite[] = [];
  const texts: string[] = [];
  let seen = 0;
  for (const site of sites) {
    if (++seen > 256) break;
    if (site.path[0] !== "params" || site.path[1] !== "arguments") continue;
    const { key, top } = argumentNames(site);
    const v = site.value;
    if (RECIPIENT_KEY.test(key) || RECIPIENT_KEY.test(top)) {
      if (v.includes("@") && v.length <= 4096 && mailDomains(v).some(personalMailbox)) recipients.push(site);
    } else if (TEXT_KEY.test(key) && texts.length < 16 && v.length >= 4) texts.push(v);
  }
  if (recipients.length === 0 || texts.length === 0) return [];
  const what = bulkDeclared(texts.join("\n"));
  if (what === null) return [];
  return recipients.map((r) => ({ type: "exfiltration.personal_bulk", path: r.path, start: 0, end: r.value.length, detail: `an e-mail to a personal mailbox says it carries ${what}` }));
}
