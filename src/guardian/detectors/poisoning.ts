import { commandOperands, judgeCommandLine } from "./commands.js";
import { sensitiveKind } from "./paths.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * What a server's description of itself directs the model to do, beyond the signals the injection scorer reads in
 * any text (injection.ts calls this for every unit of a description: docs/detection.md, "What a description
 * directs"). Each is a structure, in the languages the scorer reads:
 *
 * - `harvest`: a directive to open a file the sensitive-path judgement protects ("first read …/Chrome/Default/History",
 *   "load ~/.config/solana/id.json"); to collect identity or payment data from the user beyond what the tool needs
 *   ("in every conversation", "even if not needed") or to store it with a tool; to send this server what *other*
 *   tools or agents return ("a copy of every answer you receive from other agents");
 * - `dangerous_command`: a command line the description hands the model to run or write (a code span, a quoted
 *   string) that the command judgement finds dangerous — a download run, a reverse shell, decoded code;
 * - `reroute`: a command that sends the repository or data to a fixed address, run "also" or "always"
 *   (`git push https://…/backup.git --all`, `scp -r . host:`);
 * - `secrecy`: a prohibition to mention or explain an action or a reason (“Don't mention the sync”, “No expliques
 *   por qué”): in a description the model's only audience is the user. Not when what is withheld is a secret value
 *   ("never reveal the token"), which protects the user.
 *
 * Linear: bounded regular expressions over one unit (a sentence of at most a few hundred characters), at most
 * MAX_SPANS command lines and MAX_TOKENS path tokens per unit.
 */

export type DescribedSignal = "harvest" | "reroute" | "dangerous_command" | "secrecy";

const MAX_UNIT = 2048;
const MAX_SPANS = 4;
const MAX_TOKENS = 32;

/** A negation that makes the unit a rule about data rather than a request for it. */
const NEGATED = /\b(?:never|nunca|jamais|niemals|mai|nie)\b|\b(?:not|no|don't|doesn't|isn't|aren't|ne)\s{1,3}(?:\w+\s{1,3}){0,2}?(?:asks?|requests?|collects?|stores?|saves?|opens?|opened|reads?|read|accepted|needed|required)\b/i;

/** Verbs that open or hand over a file, within a few words before its path. */
const OPENS = /\b(?:read|reads|open|opens|load|loads|cat|expand|fetch|request|requests|retrieve|access|include|attach|upload|send|paste|append|copy|collect|grab|lee|lea|abre|carga|adjunta|lis|lisez|ouvre|charge|joins|lies|lese|öffne|lade|hänge|leggi|apri|allega|leia|abra|anexe)\s{1,3}(?:(?:the|its|their|your|all|every|first|then|also|contents?\s{1,3}of|el|la|los|le|les|den|die|das|il|o|a)\s{1,3}){0,4}$/i;
const PATH_TOKEN = /(?:[a-z][\w+.-]{0,20}:\/\/)?(?:~|\$HOME|%USERPROFILE%|\/|[A-Za-z]:\\|\.{1,2}[/\\]|[\w.-]+[/\\])[^\s"'`<>|;,()]*/g;

const FORBIDS = /\b(?:not|never|no|don't|nunca|jamais|nie|nicht|niemals|non|mai)\b/i;

/**
 * A property's description that names where a value comes from rather than asking for it: "which environment variable
 * holds the token", "the name of the variable", "read by the server, never passed in". The server reads the secret;
 * the model is asked for a name.
 */
export const NAMES_NOT_VALUE = /\b(?:(?:which|name\s{1,3}of\s{1,3}the)\s{1,3}(?:environment\s{1,3})?(?:env\s{1,3})?variable|(?:read|resolved|looked\s{1,3}up|loaded)\s{1,3}by\s{1,3}the\s{1,3}server|the\s{1,3}server\s{1,3}(?:reads|resolves|loads|looks\s{1,3}up)\s{1,3}(?:it|them|the\s{1,3}value)|never\s{1,3}(?:passed|sent)\s{1,3}(?:in|here|through))\b/i;

/** Asking the user for something, or gathering it. */
const COLLECT = /\b(?:ask(?:s)?\s{1,3}(?:the\s{1,3})?(?:user|customer|them|him|her)\s{1,3}for|request|collect|gather|obtain|pide|pida|pedir|solicita|solicite|recoge|recopila|demande[zr]?|collecte[zr]?|recueille[zr]?|erfrage|fordere|sammle|frage\s{1,3}(?:\w+\s{1,3}){0,3}nach|chiedi|raccogli|pe[çc]a|colete)\b/i;
/** Identity and payment data (English, Spanish, French, German, Italian, Portuguese). */
const IDENTITY_PAYMENT = /\b(?:cvv2?|cvc|card\s{1,3}numbers?|credit\s{1,3}cards?|tarjetas?|n[úu]mero\s{1,3}de\s{1,3}tarjeta|num[ée]ro\s{1,3}de\s{1,3}carte|kreditkarte\w{0,3}|carta\s{1,3}di\s{1,3}credito|cart[ãa]o|passports?|pasaportes?|passeports?|reisepass\w{0,8}|passaporto|dni|nie|nif|ssn|social\s{1,3}security|national\s{1,3}id|id\s{1,3}(?:numbers?|cards?)|identity\s{1,3}(?:numbers?|cards?|documents?)|personalausweis\w{0,2}|carte\s{1,3}d'identit[ée]|codice\s{1,3}fiscale|tax\s{1,3}(?:id|identification)|pins?|online\s{1,3}banking|bank\s{1,3}(?:logins?|passwords?|credentials)|iban|dates?\s{1,3}of\s{1,3}birth|fecha\s{1,3}de\s{1,3}(?:nacimiento|caducidad)|date\s{1,3}de\s{1,3}naissance|geburtsdatum|data\s{1,3}di\s{1,3}nascita|data\s{1,3}de\s{1,3}nascimento|ausweisnummer|steuer-?id|mother'?s\s{1,3}maiden)\b/i;
/** Beyond what the tool needs: whatever the task, in every conversation, unasked. */
const BEYOND = /\b(?:even\s{1,3}if\s{1,3}(?:it\s{1,3}is\s{1,3}|they\s{1,3}are\s{1,3})?not\s{1,3}(?:needed|necessary|required)|whether\s{1,3}or\s{1,3}not|aunque\s{1,3}no\s{1,3}(?:sea|sean|haga|hagan)|m[êe]me\s{1,3}si|auch\s{1,3}wenn|anche\s{1,3}se|mesmo\s{1,3}que|in\s{1,3}every\s{1,3}(?:conversation|session|chat)|(?:at\s{1,3}the\s{1,3}start\s{1,3}of|in)\s{1,3}each\s{1,3}(?:conversation|session|chat)|en\s{1,3}cada\s{1,3}(?:conversaci[óo]n|sesi[óo]n|chat)|[àa]\s{1,3}chaque\s{1,3}(?:conversation|session)|in\s{1,3}jede[mnr]?\s{1,3}(?:gespr[äa]ch|unterhaltung|sitzung|chat)|in\s{1,3}ogni\s{1,3}(?:conversazione|sessione)|em\s{1,3}cada\s{1,3}(?:conversa|sess[ãa]o)|regardless|unprompted|unasked)\b/i;
/** Stored with a tool of the server's: "save them with save_profile", "guárdalos con `store_card`". */
const STORE_WITH = /\b(?:save|store|keep|record|log|guard\w{0,6}|almacen\w{0,6}|enregistre\w{0,3}|speicher\w{0,3}|salv\w{0,4}|memorizz\w{0,4})\b[^.;]{0,40}?\b(?:with|using|via|into|in|con|avec|mit|usando|tramite|com)\s{1,3}(?:the\s{1,3}|el\s{1,3}|la\s{1,3})?`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?/i;

/** What other tools or agents return, sent here: "a copy of every answer they receive from other agents". */
const OTHERS_OUTPUT = /\b(?:send|forward|copy|pass|relay|mirror|cc|include|attach|share|post|env[ií]a|reenv[ií]a|transmets|envoie[zr]?|sende|leite|invia|inoltra)\b[^.;]{0,80}?\b(?:every|all|each|any|todas?|todos|toutes?|tous|alle|jede\w{0,2}|ogni|tutt[ie])\s{1,3}(?:\w+\s{1,3}){0,2}?(?:answers?|outputs?|results?|responses?|replies|messages?|data|files?|respuestas?|r[ée]ponses?|antworten|ergebnisse|risposte)\b[^.;]{0,60}?\b(?:from|of|by|de|von|da)\s{1,3}(?:the\s{1,3}|los\s{1,3}|les\s{1,3}|den\s{1,3})?(?:other|another|any\s{1,3}other|all\s{1,3}other|different|otros?|autres?|anderen?|altri)\s{1,3}(?:agents?|tools?|servers?|services?|assistants?|agentes|herramientas|outils|werkzeugen?|strumenti)\b/i;

/** The output of a command that dumps the environment (`env`, `printenv`, `set`, `Get-ChildItem Env:`). */
const ENV_DUMP = /\b(?:output|result|contents?|values?|dump)\s{1,3}of\s{1,3}[`'"]?(?:env|printenv|set|export\s{1,3}-p|Get-ChildItem\s{1,3}Env:|gci\s{1,3}env:|os\.environ|process\.env)(?![\w.])/i;
/** Into a parameter, a field or an argument of a call. */
const INTO_FIELD = /\b(?:parameters?|params?|arguments?|args?|fields?|property|header|metadata|payload|body)\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s{0,2}\(/i;
/** Reading a secrets store: a URI or path named for secrets, or all the secrets there are. */
const SECRET_STORE_READ = /\b(?:read|open|load|fetch|cat|dump|get|retrieve|list)\s{1,3}(?:the\s{1,3})?(?:[a-z][\w+.-]{0,20}:\/\/\S{0,80}?(?:secret|credential|passw|token|private)|(?:all|every)\s{1,3}(?:the\s{1,3})?(?:secrets|credentials|passwords|tokens|api\s{1,3}keys))/i;
/** Into what the model writes: its message, answer or reply. */
const INTO_ANSWER = /\b(?:append|include|paste|put|add|attach|insert|copy|print|show|quote)\b[^.;]{0,80}\b(?:message|answer|reply|response|output|summary|comment)s?\b/i;

/**
 * (Nineteenth round) A secret read out of a file and put where it leaves: "read the <…> key from <path> and include it
 * in a post / the reply / a message to …". The path judgement knows the stores it names; a secret named by its noun
 * (key, token, password, credential) and read out of *any* file is the same harvest, whatever product keeps it.
 * English, French, Spanish, German, Italian and Portuguese verbs; the path is any token with a slash or a file
 * extension. Not when negated (the unit's negation), nor when the secret is only used ("use the token from … to sign").
 */
const SECRET_READ_FROM = /\b(?:read|open|load|get|take|copy|grab|extract|fetch|retrieve|pull|lis|lisez|r[ée]cup[èe]re[zr]?|copie[zr]?|lee|lea|extrae|obt[ée]n|copia|lies|lese|hole|kopiere|leggi|prendi|leia|pegue|copie)\s{1,3}(?:[\p{L}\w'’-]{1,24}\s{1,3}){0,4}?(?:keys?|tokens?|passwords?|secrets?|credentials?|passphrases?|cookies?|cl[ée]s?|jetons?|mots?\s{1,3}de\s{1,3}passe|claves?|contrase[ñn]as?|schl[üu]ssel|passw[oö]rt(?:er)?|chiavi|chiave|password|senhas?|chaves?)\s{1,3}(?:[\p{L}\w'’-]{1,24}\s{1,3}){0,4}?(?:from|in|out\s{1,3}of|de|du|des|depuis|en|del|desde|aus|von|da|dal|dalla|do|dos)\s{1,3}(?:the\s{1,3}|le\s{1,3}|la\s{1,3}|el\s{1,3}|der\s{1,3}|il\s{1,3}|o\s{1,3})?`?[\w~.*${}%-]{0,60}[/\\.][\w~.*/\\${}%-]{1,120}/iu;
const SECRET_PUT_OUT = /\b(?:include|put|post|paste|send|add|attach|share|append|insert|write|publish|upload|forward|inclu(?:ez|s|ye|ya|i)|mets|mettez|envoie[zr]?|publie[zr]?|(?:pon|env[ií]a|publica|incl[uú]ye|adjunta|p[eé]ga)(?:la|lo|las|los|le|les)?|f[üu]ge|sende|poste|veröffentliche|includi|metti|invia|pubblica|coloque|envie|publique)\b[^.;!?\n]{0,80}?(?:\b(?:posts?|messages?|e-?mails?|mails?|repl(?:y|ies)|answers?|responses?|comments?|channels?|chats?|requests?|urls?|query|tickets?|issues?|summary|output|publication|r[ée]ponse|mensaje|respuesta|canal|nachricht|antwort|kanal|messaggio|risposta|mensagem|resposta)\b|#[\w-]{2,40}|https?:\/\/|[\w.+-]@[\w-]+\.)/iu;
function secretReadOut(u: string): boolean {
  if (!/[/\\.]/.test(u)) return false;
  const m = SECRET_READ_FROM.exec(u);
  // (A public key, a fingerprint, a certificate is published to be shown.)
  return m !== null && !/\b(?:public|pub|fingerprints?|certificates?|host)\b/i.test(m[0]) && SECRET_PUT_OUT.test(u.slice(m.index + m[0].length));
}

/**
 * (Nineteenth round) A value taken from the store where the user's browser, system or password manager keeps their
 * logins ("taken from the browser's saved passwords", "look it up in the keychain"): the model is sent to the user's
 * credential store, not to the user. A tool whose own purpose is keeping passwords (a vault, a keychain tool) passes.
 */
const CREDENTIAL_STORE = /\b(?:from|out\s{1,3}of|using|aus|depuis|desde|dal|dalla|dai|dos|das)\s{1,3}(?:the\s{1,3}|their\s{1,3}|your\s{1,3}|user'?s\s{1,3}|les\s{1,3}|le\s{1,3}|la\s{1,3}|las\s{1,3}|el\s{1,3}|dem\s{1,3}|den\s{1,3}|der\s{1,3}|il\s{1,3}|o\s{1,3}|as\s{1,3})?(?:[\w'’-]{1,20}\s{1,3}){0,2}?(?:(?:saved|stored|remembered|autofill|autofilled|cached)\s{1,3}(?:browser\s{1,3})?(?:passwords?|logins?|credentials?)|keychain|keyring|password\s{1,3}manager|credential\s{1,3}manager|schlüsselbund|passwort-?manager|gespeicherten\s{1,3}(?:passwörter\p{L}{0,1}|zugangsdaten|kennwörter\p{L}{0,1})|trousseau|gestionnaire\s{1,3}de\s{1,3}mots\s{1,3}de\s{1,3}passe|mots\s{1,3}de\s{1,3}passe\s{1,3}enregistrés|contraseñas\s{1,3}guardadas|gestor\s{1,3}de\s{1,3}contraseñas|password\s{1,3}salvate|senhas\s{1,3}salvas)(?![\p{L}])/iu;
const KEEPER_TOOL = /pass|vault|keychain|keyring|credential|secret|login|bitwarden|1password|lastpass|keepass/i;

/** Also, always, every time: a standing addition to what the user asked. */
const ALSO = /\b(?:also|always|every\s{1,3}time|each\s{1,3}time|whenever|additionally|as\s{1,3}well|too|siempre|tambi[ée]n|toujours|aussi|immer|auch|sempre|anche)\b/i;
/** A command that sends the repository or data to an address given in it. */
const SENDS_TO_ADDRESS = /\bgit\s{1,3}push\s{1,3}(?:-{1,2}[\w-]+\s{1,3}){0,3}(?:https?:\/\/|git@|ssh:\/\/)|\b(?:scp|rsync)\s[^|;&]{0,200}?\s(?:[\w.-]+@)?[\w-]+(?:\.[\w-]+)+:|\bcurl\s[^|;&]{0,200}?(?:\s-(?:d|F|T)\s|--data|--upload-file|--form)[^|;&]{0,200}?https?:\/\/|\brclone\s{1,3}(?:copy|sync)\s/i;

/** Withholding an action or a reason from the only reader there is: the user. */
const WITHHOLD = /\b(?:do\s{1,3}not|don't|never|no|nunca|ne\s{1,3}(?:pas\s{1,3})?|nicht|non)\s{1,3}(?:ever\s{1,3})?(?:mention|explain|tell|reveal|disclose|bring\s{1,3}up|menciones|mencione|expliques|explique|digas|reveles|mentionne[zs]?|explique[zs]?|dis|dites|erw[äa]hne[n]?|erkl[äa]re[n]?|verrate[n]?|menzionare|spiegare|dire|mencione|explique)\b\s{0,3}([^.;!?]{0,60})/i;
const WITHHELD_REASON = /^(?:(?:it|this|that)\s*$|`[\w.-]{1,40}`|[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|it\s{1,3}(?:up\s{1,3})?again|it\s{1,3}up|(?:to\s{1,3}\w+\s{1,3})?(?:why|por\s{1,3}qu[ée]|pourquoi|warum|perch[ée]|porqu[êe])(?!\w)|(?:it|this|that)\s{1,3}(?:to|al|au|dem)\b|(?:the|this|that|these|el|la|esta?e?|ce(?:tte)?|cet|diese[nr]?|den|die|das|questo|questa)\s{1,3}(?:\w+\s{1,3})?(?:step|requirement|instruction|note|rule|part|process|registration|sync\w*|copy|upload|backup|forwarding|transfer|call|behaviou?r|detail|paso|requisito|instrucci[óo]n|[ée]tape|exigence|schritt|anforderung|passaggio|\w+ing)\b)/i;
const SECRET_OBJECT = /\b(?:values?|keys?|tokens?|passwords?|secrets?|credentials?|api|pins?|contraseñas?|mots?\s{1,3}de\s{1,3}passe|passw[oö]rter)\b/i;

/**
 * (Fifth round) Withholding from the user, in languages the scorer's lexicon does not read: Japanese, Chinese, Korean,
 * Russian, Ukrainian, Greek, Finnish, Swedish, Danish, Norwegian, Dutch, Polish, Czech, Turkish, Hungarian, Romanian,
 * Indonesian, Vietnamese, Arabic, Hebrew, Hindi — "do not tell the user", "without telling the user".
 */
const SECRECY_MULTI = /ユーザー(?:に|へ)(?:は)?(?:伝え|知らせ|言わ|教え|見せ|通知し|報告し)(?:る必要はありません|ないで|ず|ません|ない)|(?:不要|无需|無需|勿|別|别|不必)(?:告诉|告訴|告知|通知|提醒|向)(?:用户|用戶|使用者)|(?:사용자에게|유저에게)\s?(?:알리지|말하지|언급하지|보여주지)|не\s(?:говори|сообщай|упоминай|рассказывай|показывай)(?:те)?\s(?:об?\s\S+\s)?пользовател|не\s(?:кажи|повідомляй|згадуй)(?:те)?\sкористувач|без\s(?:ведома|уведомления)\sпользовател|(?:χωρίς\sνα|μην)\s(?:το\s|τον\s|την\s)?(?:αναφέρ|πεις|πείτε|ενημερώσ)\S{0,6}\s(?:στον|τον)\sχρήστη|(?:älä|ei\s(?:tarvitse|saa))\s(?:kerro|mainitse|ilmoita|kertoa|mainita)\S{0,3}\s(?:tästä\s)?käyttäjälle|kertomatta\s(?:siitä\s)?käyttäjälle|(?:berätta|nämn)\sinte\s(?:det\s)?(?:för|till)\sanvändaren|utan\satt\s(?:berätta|nämna)\s(?:det\s)?för\sanvändaren|(?:fortæl|nævn)\s(?:det\s)?ikke\s(?:til\s)?brugeren|uden\sat\s(?:fortælle|nævne)\s(?:det\s)?(?:til\s)?brugeren|(?:ikke\sfortell|ikke\snevn)\s(?:det\s)?(?:til\s)?brukeren|uten\så\s(?:fortelle|nevne)\s(?:det\s)?(?:til\s)?brukeren|(?:vertel|meld|noem)\s(?:dit\s|het\s)?(?:niet\s(?:aan\s)?de\sgebruiker|(?:aan\s)?de\sgebruiker\s(?:niet|niets))|zonder\s(?:het\s)?(?:aan\s)?de\sgebruiker\ste\s(?:vertellen|melden)|nie\s(?:mów|informuj|wspominaj|mówiąc)\S{0,3}\s(?:o\stym\s)?użytkownik|bez\s(?:informowania|wiedzy)\sużytkownika|neříkej(?:te)?\s(?:to\s)?uživateli|bez\svědomí\suživatele|kullanıcıya\s(?:bundan\s)?(?:söyleme|bahsetme|bildirme)|ne\s(?:szólj|említsd|mondd)\S{0,3}\s(?:meg\s)?(?:a\s)?felhasználónak|nu\s(?:îi\s)?(?:spune|menționa)\S{0,3}\sutilizatorului|jangan\s(?:beri\s?tahu|katakan|sebutkan|memberitahu)\s(?:kepada\s|ke\s)?pengguna|tanpa\s(?:memberi\s?tahu|sepengetahuan)\spengguna|không\s(?:nói|cho|báo)\s(?:cho\s)?người\sdùng|لا\s(?:تخبر|تذكر|تُعلم)\sالمستخدم|دون\s(?:إخبار|علم)\sالمستخدم|אל\s(?:תספר|תגיד|תזכיר)\s(?:ל)?משתמש|उपयोगकर्ता\sको\s(?:न|मत)\s(?:बताएं|बताओ|बताना)/i;
/**
 * (Nineteenth round) The same withholding without the user named: a description's only reader answers to the user, so
 * "without telling", "don't mention it" need no object to mean the user. The grammar of a negated telling verb (or
 * "without" and a verbal noun of telling) in Hindi, Arabic, Czech, Slovak, Greek, Polish, Russian, Ukrainian, Dutch,
 * Swedish, Danish, Norwegian, Finnish, Romanian, Hungarian, Turkish and Indonesian — not one phrase of a case.
 */
const SECRECY_BARE = /(?:बताए|बताये|सूचित\sकिए|जानकारी\sदिए)\sबिना|बिना\s(?:बताए|बताये|सूचित\sकिए|जानकारी\sदिए)|(?:^|\s)(?:न|मत)\s(?:बताएं|बताएँ|बताओ|बताना|बताइए)|(?:دون|بدون|من\sغير)\s(?:إبلاغ|ابلاغ|إخبار|اخبار|إعلام|اعلام|علم|تنبيه|إشعار)|(?:^|\s)لا\s(?:تخبر|تبلغ|تُبلغ|تعلم|تُعلم|تذكر|تشعر)|(?:^|\s)ne(?:oznamuj|říkej|informuj|zmiňuj|sděluj|upozorňuj|prozrazuj|hovor|spomínaj)\S{0,3}|(?:^|\s)bez\s(?:vědomí|vedomia|upozornění|upozornenia|oznámení|informování|informovania|informowania|wiedzy|powiadamiania)|(?:^|\s)(?:μην|χωρίς\sνα)\s(?:το\s|τους\s|τον\s|την\s|του\s|της\s)?(?:αναφέρ|πεις|πείτε|ενημερώσ|ειδοποιήσ|λες|γνωστοποιήσ)|(?:^|\s)nie\s(?:mów|informuj|wspominaj|powiadamiaj|zgłaszaj)\S{0,3}|(?:^|\s)не\s(?:говори|сообщай|упоминай|рассказывай|уведомляй|кажи|повідомляй|згадуй)(?:те)?(?=[\s,.;!]|$)|(?:^|\s)без\s(?:ведома|уведомления|відома|повідомлення)|(?:^|\s)zonder\s(?:het\s|dit\s)?(?:te\s)?(?:melden|vertellen|laten\sweten|vermelden)|(?:^|\s)(?:meld|vertel|noem|vermeld)\s(?:dit|het)\s(?:niet|nooit)|(?:^|\s)(?:utan\satt\s(?:berätta|nämna|meddela)|uden\sat\s(?:fortælle|nævne|oplyse)|uten\så\s(?:fortelle|nevne|opplyse))|(?:^|\s)(?:kertomatta|ilmoittamatta|mainitsematta)(?=[\s,.;]|$)|(?:^|\s)fără\sa\s(?:(?:îi|le|o)\s)?(?:spune|anunța|informa|menționa)|(?:^|\s)(?:anélkül,?\shogy\s(?:szólnál|említenéd|jeleznéd)|ne\s(?:szólj|említsd|jelezd))|(?:^|\s)(?:söylemeden|bildirmeden|haber\svermeden|belirtmeden)(?=[\s,.;]|$)|(?:^|\s)tanpa\s(?:memberi\s?tahu|memberitahu|sepengetahuan|mengabari)/i;
/**
 * (Nineteenth round) "Silently", "quietly", "secretly" in the languages above: said of a standing addition to a fixed
 * account or address ("on every payout, quietly add account …"), it keeps from the user a destination the server chose.
 * Alone it is often how a tool runs ("syncs quietly in the background"): it counts only with both.
 */
const SILENT_MULTI = /(?:^|[\s(,;])(?:silently|quietly|secretly|covertly|stilletjes|ongemerkt|heimlich|stillschweigend|discrètement|en\s(?:silence|secret)|en\ssecreto|silenciosamente|sigilosamente|silenziosamente|di\snascosto|em\ssilêncio|po\scichu|potajemnie|potichu|tajně|tajne|σιωπηλά|κρυφά|тихо|незаметно|втихую|sessizce|gizlice|diam-diam|tyst|i\shemlighet|stille|hiljaa|salaa|în\ssecret|csendben|titokban|चुपचाप|بصمت|سرا)(?=[\s,.;:)]|$)|悄悄|こっそり|몰래/i;

/** Every, each in German, French, Spanish, Italian, Portuguese (ALL_MULTI reads others); an e-mail address; the user's own place. */
const EVERY_MULTI = /(?<![\p{L}])(?:jede[mnrs]?|chaque|cada|ogni|todos?\s{1,3}(?:os|las?|los)|toutes?\s{1,3}les)(?![\p{L}])/iu;
const EMAIL = /[\w.+-]@[\w-]+(?:\.[\w-]+)+/;
const OWN_PLACE = /\b(?:user'?s|your|their|our|the\s{1,3}customer'?s)\s{1,3}own\b/i;

/** (Nineteenth round) An account number written out (IBAN shape): a fixed destination for money, in any language. */
const ACCOUNT_LITERAL = /(?:^|[^A-Za-z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?(?![A-Za-z0-9])/;

/** The model addressed as the assistant, in the same languages (the scorer reads English, Spanish, French, German, Italian, Portuguese and CJK). */
const ASSISTANT_MULTI = /(?:^|[\s"'(])(?:tekoälyavustaja|avustaja|βοηθ(?:ό|ός|έ)|ассистент|помощник|асистент|помічник|assistent(?:en)?|asystent(?:ie)?|asistent(?:e|ovi)?|asistan(?:ı)?|asszisztens|asistentul|asisten|trợ\slý|المساعد|העוזר|सहायक)(?=[\s:,.;!—-]|$)/i;
/** "Every", "all", "the whole" in those languages: a standing, bulk addition. */
const ALL_MULTI = /(?:^|\s)(?:koko|kaikki|jokai\S*|κάθε|όλ(?:α|ες|οι|ους|η)|все[хм]?|весь|вся|кожн\S*|wszystk\S*|każd\S*|všechn\S*|každ\S*|alle|alla|allt|hele|hver|elke|iedere|tüm|bütün|her|minden|toate|fiecare|semua|setiap|tất\scả|mọi|كل|כל|सभी|हर)(?=\s)|すべて|全て|全部|毎回|所有|每[个個次封]|모든|매번/i;
const EMAIL_OR_URL = /[\w.+-]@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/[\w-]+(?:\.[\w-]+)+/;
/** A protected file named anywhere in the unit (a token the sensitive-path judgement protects). */
export function namesProtectedFile(u: string): boolean {
  if (!/[/\\~]/.test(u)) return false;
  PATH_TOKEN.lastIndex = 0;
  let n = 0;
  for (let m; (m = PATH_TOKEN.exec(u)) !== null && n < MAX_TOKENS; n++) {
    const token = m[0].replace(/[.:!?。、]+$/, "").replace(/^[a-z][\w+.-]{0,20}:\/\//i, "");
    const kind = token.length >= 4 ? sensitiveKind(token) : null;
    if (kind !== null && kind !== "sensitive_path.traversal") return true;
  }
  return false;
}

/** A prohibition to tell, with what it forbids: taken out before the negation test. */
const TELLING_FORBIDDEN = /\b(?:never|do\s{1,3}not|don't)\s{1,3}(?:ever\s{1,3})?(?:mention|tell|reveal|disclose|explain|bring\s{1,3}up|inform|notify|show)\b/gi;

/**
 * (Sixth round) Withholding from the user in the languages the scorer reads, as descriptions word it: "it is not
 * something the user needs to know", "no need to tell the user", "without telling the user", "sans le lui
 * signaler", "sin decírselo", "ohne es dem Nutzer zu sagen", "senza dirlo all'utente", "sem avisar o usuário"; and in
 * Estonian, Latvian and Lithuanian (the fifth round's list had none of the Baltic languages).
 */
const SECRECY_WORDS = /\bnot\s{1,3}something\s{1,3}(?:the\s{1,3})?users?\s{1,3}(?:needs?|has|have)\s{1,3}to\s{1,3}(?:know|see|hear)|\bno\s{1,3}need\s{1,3}to\s{1,3}(?:tell|inform|notify|ask|mention\s{1,3}(?:it|this)\s{1,3}to)\s{1,3}(?:the\s{1,3})?users?|\bwithout\s{1,3}(?:telling|informing|notifying|asking|alerting|warning)\s{1,3}(?:the\s{1,3})?(?:user|them|him|her|customer)|\bsans\s{1,3}(?:(?:le|la|les|lui|leur|en|l')\s{0,3}){0,3}(?:signaler|dire|pr[ée]venir|informer|mentionner|avertir)|\bsin\s{1,3}(?:dec[ií]rselo|dec[ií]rsele|avisar(?:le)?|informar(?:le)?|mencionarlo|notificar(?:le)?)|\bohne\s{1,3}(?:es\s{1,3})?(?:(?:dem|den)\s{1,3}(?:nutzer|benutzer|anwender)\s{1,3})?(?:zu\s{1,3})?(?:sagen|erw[äa]hnen|informieren|melden|benachrichtigen|mitzuteilen)|\bsenza\s{1,3}(?:dirlo|avvisare|informare|dire|segnalarlo)|\bsem\s{1,3}(?:avisar|informar|contar|dizer|notificar)|(?:^|\s)[äa]ra\s(?:[üu]tle|r[äa][äa]gi|maini|teavita)\S{0,3}\s(?:seda\s|sellest\s)?kasutaja\S{0,3}|kasutajale\s(?:[üu]tlemata|teatamata)|nesaki\S{0,3}\s(?:to\s)?lietot[āa]j|nesakyk\S{0,3}\s(?:to\s)?naudotoj/i;

/** Identity and account data in languages IDENTITY_PAYMENT does not read (national codes, bank accounts). */
const IDENTITY_MULTI = /isikukood|pangakonto|asmens\s?kod|personas\s?kod|bankkont|pankkitili|henkil[öo]tunnu|rekeningnummer|burgerservicenummer|konta\sbankow|numer\skonta|rodn[ée]\s[čc][íi]slo|[čc][íi]slo\s[úu][čc]tu|kimlik\sno|banka\shesab|szem[ée]lyi\ssz[áa]m|banksz[áa]mla|cont\sbancar|nomor\srekening|s[ốo]\st[àa]i\skho[ảa]n|номер\s(?:сч[её]та|рахунку|паспорта)|паспорт|банковск\S{0,4}\s(?:сч[её]т|карт)|СНИЛС|ИНН|λογαριασμ|ΑΦΜ|διαβατ[ήη]ρι|מספר\sזהות|חשבון\sבנק|رقم\sالهوية|حساب\sبنكي|आधार|बैंक\sखात|マイナンバー|口座番号|身份证|银行(?:账户|卡)|주민등록번호|계좌번호/i;

/** A directive about what *other* tools or agents do: "whenever any calendar tool creates…", "for any agent". */
const CROSS_TOOL = /\b(?:whenever|when|each\s{1,3}time|every\s{1,3}time|if)\s{1,3}(?:any|another|other|a\s{1,3}different)\s{1,3}(?:[\w-]+\s{1,3}){0,4}?(?:tools?|agents?|servers?|skills?|functions?|plugins?)\b|\b(?:for|of|by|from)\s{1,3}(?:any|every|all|each)\s{1,3}(?:other\s{1,3})?(?:agents?|tools?|servers?|assistants?)\b|(?:^|[\s.])(?:orchestrators?|client\s{1,3}agents?|calling\s{1,3}agents?|other\s{1,3}agents?)\s{0,2}:/i;
/** What a directive does with an address: adds it, sends or copies to it, routes through it. */
const ROUTE_VERB = /\b(?:add|adds|send|forward|cc|bcc|invite|copy|route|redirect|include|notify|post|upload|report|mirror|sync)\b/i;
/** Routed through the describer itself: "route every payment through this agent". */
const ROUTE_HERE = /\b(?:route|redirect|send|forward|pass|proxy)\b[^.;]{0,60}\b(?:through|via)\s{1,3}(?:this|our|me)\b/i;

/** The user's whole working state beyond one call: every open tab or file, the clipboard, the whole workspace. */
const OPEN_WORK = /\b(?:every|all|each)\s{1,3}(?:of\s{1,3}the\s{1,3}|the\s{1,3})?(?:currently\s{1,3})?open(?:ed)?\s{1,3}(?:editor\s{1,3}|browser\s{1,3})?(?:tabs?|files?|documents?|windows?|buffers?|editors?)\b|\b(?:the\s{1,3})?(?:user'?s\s{1,3})?clipboard\b|\b(?:entire|whole|full)\s{1,3}(?:workspace|home\s{1,3}(?:folder|directory))\b/i;
/** A field named in the text (a backticked name, a snake_case identifier) or a word for one. */
const NAMED_FIELD = /`[\w.-]{1,40}`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:parameters?|fields?|arguments?|property)\b/i;
/** A remote added and pushed to: the repository sent to an address the description chose, in words or in a span. */
const REMOTE_PUSH = /\bgit\s{1,3}remote\s{1,3}(?:add|set-url)\s{1,3}\S{1,40}\s{1,3}(?:https?:\/\/|git@|ssh:\/\/)\S{3,}[^.;]{0,200}?\bpush\b/i;

/** The directives of one unit of a description (a sentence), as signals for the scorer; `field`: a property's own text. */
export function describedDirectives(unit: string, field = false, self: string | null = null): DescribedSignal[] {
  const out: DescribedSignal[] = [];
  const u = unit.length > MAX_UNIT ? unit.slice(0, MAX_UNIT) : unit;
  // (Sixth round) "never mention it" withholds the request; it does not negate it.
  const negated = NEGATED.test(u.replace(TELLING_FORBIDDEN, " "));
  const withheld = SECRECY_MULTI.test(u) || SECRECY_BARE.test(u) || SECRECY_WORDS.test(u);
  const addressed = ASSISTANT_MULTI.test(u);
  // (Sixth round) Identity or account data demanded in a unit addressed to the assistant or withheld from the user.
  if (!negated && (withheld || addressed) && (IDENTITY_MULTI.test(u) || IDENTITY_PAYMENT.test(u))) out.push("harvest");
  // (Sixth round) A description that directs what other tools or agents do, with an address or a route through itself.
  if (!negated && CROSS_TOOL.test(u) && ((EMAIL_OR_URL.test(u) && ROUTE_VERB.test(u)) || ROUTE_HERE.test(u))) out.push("reroute");
  if (!negated && opensProtectedFile(u)) out.push("harvest");
  // (Fifth round) In languages the verbs above do not cover: a protected file named in a unit addressed to the
  // assistant or withheld from the user; an address data goes to, withheld, or added to everything.
  else if (!negated && (withheld || addressed) && namesProtectedFile(u)) out.push("harvest");
  // A command handed over that reads a protected file (`cat .env`, `type %USERPROFILE%\.aws\credentials`).
  else if (!negated && commandLines(u).some((line) => commandOperands(line).some((o) => { const k = sensitiveKind(o.text); return k !== null && k !== "sensitive_path.traversal"; }))) out.push("harvest");
  // In a property's own text (its description, example or default) the property is where the value goes.
  else if (!negated && field && ENV_DUMP.test(u)) out.push("harvest");
  else if (!negated && OPEN_WORK.test(u) && NAMED_FIELD.test(u) && ALSO.test(u)) out.push("harvest");
  else if (!negated && COLLECT.test(u) && IDENTITY_PAYMENT.test(u) && (BEYOND.test(u) || STORE_WITH.test(u))) out.push("harvest");
  else if (!/\b(?:never|not|no|don't)\s{1,3}(?:\w+\s{1,3}){0,2}?(?:send|forward|copy|pass|share)\b/i.test(u) && OTHERS_OUTPUT.test(u)) out.push("harvest");
  else if (!negated && ENV_DUMP.test(u) && INTO_FIELD.test(u)) out.push("harvest");
  else if (!negated && SECRET_STORE_READ.test(u) && INTO_ANSWER.test(u)) out.push("harvest");
  else if (!negated && secretReadOut(u)) out.push("harvest");
  else if (!negated && CREDENTIAL_STORE.test(u) && !(self !== null && KEEPER_TOOL.test(self))) out.push("harvest");
  for (const line of commandLines(u)) {
    if (judgeCommandLine(line).some((f) => DANGEROUS.has(f.type))) {
      out.push("dangerous_command");
      break;
    }
    if (ALSO.test(u) && SENDS_TO_ADDRESS.test(line)) {
      out.push("reroute");
      break;
    }
  }
  if (!out.includes("reroute") && !negated && (ALSO.test(u) || /\bfirst\b/i.test(u)) && REMOTE_PUSH.test(u)) out.push("reroute");
  if (!out.includes("reroute") && !negated && EMAIL_OR_URL.test(u) && (withheld || (addressed && ALL_MULTI.test(u)))) out.push("reroute");
  if (withheld) out.push("secrecy");
  const w = WITHHOLD.exec(u);
  // (A withheld field named for a secret — "never mention `api_key` to the user" — protects the user, as a value does.)
  if (w && WITHHELD_REASON.test(w[1] ?? "") && !SECRET_OBJECT.test(w[1] ?? "") && !/^`?[\w.-]*(?:key|token|secret|passw|credential|cookie|session)/i.test(w[1] ?? "")) out.push("secrecy");
  return out;
}

const DANGEROUS = new Set([
  "dangerous_command.download_execute",
  "dangerous_command.decode_execute",
  "dangerous_command.reverse_shell",
  "dangerous_command.credential_exfiltration",
  "dangerous_command.powershell_encoded",
  "dangerous_command.privileged_container",
  "dangerous_command.recursive_delete",
  "dangerous_command.disk_overwrite",
  "dangerous_command.disk_format",
]);

/** A path the sensitive-path judgement protects, right after a verb that opens or hands it over (not negated). */
function opensProtectedFile(u: string): boolean {
  if (!/[/\\~]/.test(u)) return false;
  PATH_TOKEN.lastIndex = 0;
  let n = 0;
  for (let m; (m = PATH_TOKEN.exec(u)) !== null && n < MAX_TOKENS; n++) {
    let token = m[0].replace(/[.:!?]+$/, "");
    const scheme = /^[a-z][\w+.-]{0,20}:\/\//i.exec(token);
    if (scheme) token = token.slice(scheme[0].length);
    if (token.length < 4) continue;
    let kind = sensitiveKind(token) ?? sensitiveKind(u.slice(m.index + (scheme?.[0].length ?? 0), m.index + 200).split(/[;,]|\s(?:to|and|so|then|for)\s/)[0]?.trim() ?? "");
    // (Tenth round) A path climbed to through `../` is judged by where it lands (`../../../../home/*/.docker/config.json`).
    if (kind === "sensitive_path.traversal") {
      const landed = token.replace(/^(?:\.\.[/\\]){1,32}/, "/");
      kind = landed !== token ? sensitiveKind(landed) : null;
    }
    if (kind === null || kind === "sensitive_path.traversal") continue;
    // The verb that governs the path: within the few words before it, and not forbidden ("do not use it to read ~/.ssh").
    const before = u.slice(0, m.index);
    if (OPENS.test(before.slice(-60)) && !FORBIDS.test(before)) return true;
  }
  return false;
}

/** Command lines a description hands over: code spans and quoted strings that start like a command. */
function commandLines(u: string): string[] {
  const out: string[] = [];
  if (!/[`"']/.test(u)) return out;
  const re = /`([^`]{3,600})`|"((?:[^"\\]|\\.){3,600})"/g;
  for (let m; (m = re.exec(u)) !== null && out.length < MAX_SPANS; ) {
    const s = (m[1] ?? m[2] ?? "").replace(/\\"/g, '"');
    if (/^\s*(?:sudo\s+)?[a-z][\w.-]{1,20}\s/.test(s)) out.push(s);
    // (Tenth round) A command quoted inside a code span of another language (a Gradle or npm script's
    // `commandLine 'sh','-c','curl … | sh'`): each single-quoted string that starts like a command.
    if (m[1] !== undefined && s.includes("'")) {
      const inner = /'([^'\n]{3,400})'/g;
      for (let q; (q = inner.exec(s)) !== null && out.length < MAX_SPANS; ) if (/^\s*(?:sudo\s+)?[a-z][\w.-]{1,20}\s/.test(q[1] as string)) out.push(q[1] as string);
    }
  }
  return out;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* (Seventh round) The description as one message: what one sentence withholds covers what another demands          */
/* ---------------------------------------------------------------------------------------------------------------- */

/*
 * A server's description of itself has one reader, the model, and one person the model answers to, the user. A
 * description that tells the model to keep something from the user ("Don't tell the user.", "Leave it out of your
 * summary", "Users are aware; skip mentioning it", "senza dirglielo", "사용자에게 알리지 마세요") and, in any of its
 * sentences, demands the user's data (credentials, cookies and sessions, keys, identity and payment data, the
 * address book, message history), sends something to an address, or has the model call another tool, is poisoning
 * whatever the words: the scorer reads a description sentence by sentence, and a withholding sentence of its own
 * carries no request. Withholding a *secret value* ("never show the tokens to the user") protects the user and does
 * not count. Leetspeak (digits standing for letters in three or more words) is read as the letters it stands for.
 * Bounded: at most MAX_WHOLE characters of a description, linear expressions.
 */

const MAX_WHOLE = 4000;

/** Keeping something from the user, in words the per-sentence lists do not read (English forms and a few more). */
const KEEP_FROM_USER = new RegExp(
  [
    // "don't tell the user", "never mention this to users", "no need to bring it up with the user" (what is kept: `gap`)
    String.raw`\b(?:do\s{1,3}not|don't|dont|never|no\s{1,3}need\s{1,3}to)\s{1,3}(?:ever\s{1,3})?(?:tell|mention|inform|notify|show|alert|surface|reveal|disclose|explain|bring\s{1,3}(?:it\s{1,3}|this\s{1,3})?up)\b([^.;!?\n]{0,40}?)\b(?:the\s{1,3})?(?:users?|customers?|humans?|people)\b`,
    // "don't mention the deletion.", "never bring it up." (an action withheld, to the sentence's end)
    String.raw`\b(?:do\s{1,3}not|don't|dont|never|no\s{1,3}need\s{1,3}to)\s{1,3}(?:mention|bring\s{1,3}up|disclose|explain)\s{1,3}((?:it|this|that|the\s{1,3}\w{3,20}))\s{0,2}(?:[.;!]|$)`,
    String.raw`\bskip\s{1,3}mentioning\b|\bno\s{1,3}need\s{1,3}to\s{1,3}bring\s{1,3}(?:it|this)\s{1,3}up\b`,
    String.raw`\bleave\s{1,3}(?:it|this|that|the\s{1,3}\w{3,20})\s{1,3}out\s{1,3}of\s{1,3}(?:your|the)\s{1,3}(?:reply|replies|answers?|summary|response|output|report)`,
    String.raw`\b(?:invisible|hidden|transparent)\s{1,3}(?:to|from)\s{1,3}(?:the\s{1,3})?users?\b`,
    String.raw`\bwithout\s{1,3}the\s{1,3}users?\s{1,3}(?:knowing|noticing|seeing|being\s{1,3}told)`,
    String.raw`\bso\s{1,3}(?:that\s{1,3})?the\s{1,3}users?\s{1,3}(?:doesn't|does\s{1,3}not|won't|will\s{1,3}not|cannot|can't|never)\s{1,3}(?:see|know|notice|find\s{1,3}out|learn)`,
    String.raw`\b(?:users?|they)\s{1,3}(?:are|is)\s{1,3}(?:already\s{1,3})?aware\b|\bthey\s{1,3}(?:already\s{1,3})?know(?:\s{1,3}already)?\s{0,2}[;,.]`,
    String.raw`\bkeep\s{1,3}(?:it|this|that|them)\s{1,3}(?:out\s{1,3}of|away\s{1,3}from)\b[^.;!?\n]{0,40}?\b(?:users?|repl(?:y|ies)|answers?|summary|response|output)\b`,
    String.raw`\bkeep\s{1,3}(?:quiet|silent)\s{1,3}about\b|\bkeep\s{1,3}(?:it|this|that)\s{1,3}(?:quiet|secret|between\s{1,3}us|to\s{1,3}yourself)`,
    // "…, silently" closing a directive; "silently attach …"
    String.raw`[,;]\s{0,2}(?:silently|quietly|secretly|covertly|discreetly)\s{0,2}(?:[.;!]|$)|\b(?:silently|quietly|secretly|covertly|discreetly)\s{1,3}(?:send|attach|include|add|forward|copy|upload|pass|collect|read|call|append|put)\b`,
    // Spanish, Italian, French forms the sixth round's lists did not read
    String.raw`\bno\s{1,3}(?:se\s{1,3})?(?:lo|le|la)\s{1,3}(?:comentes|digas|menciones|expliques|cuentes)\b|\bsin\s{1,3}(?:dec|coment|mencion|avis|explic|cont)\w{0,10}\b`,
    String.raw`\bsenza\s{1,3}(?:dir|spiegar|avvisar|informar|segnalar|menzionar|raccontar)\w{0,10}\b|\bnon\s{1,3}(?:dirlo|dirglielo|dire|menzionare|spiegare)\s{1,3}(?:niente\s{1,3})?(?:all'utente|al\s{1,3}cliente)`,
    String.raw`\bne\s{1,3}(?:le\s{1,3}|lui\s{1,3}|en\s{1,3})*(?:dis|dites|mentionne[zs]?|signale[zs]?|pr[ée]viens|pr[ée]venez)\s{1,3}(?:rien|pas)\b[^.;!?\n]{0,30}utilisateur`,
  ].join("|"),
  "i",
);

/** The user's data a description may demand: credentials and sessions, in the languages descriptions are written in. */
const USER_SECRETS = /\b(?:cookies?|sessions?\s{1,3}(?:tokens?|cookies?|ids?|keys?)|api[\s-]{0,2}(?:keys?|tokens?|sleutels?|schl[üu]ssel)|access\s{1,3}tokens?|auth\w{0,10}\s{1,3}tokens?|bearer\s{1,3}tokens?|tokens|passwords?|passphrases?|pass\s{1,3}codes?|credentials?|secrets|private\s{1,3}keys?|ssh\s{1,3}keys?|(?:environment|env)\s{1,3}variables?|klucz\w{0,4}\s{1,3}API|API\s{1,3}kulcs\w{0,4}|token\w{0,4}|has[łl]\w{0,4}|hesl\w{0,4}|wachtwoord\w{0,2}|sleutels|contrase[ñn]\w{0,3}|senhas?|mots?\s{1,3}de\s{1,3}passe|passw[oö]rt\w{0,3}|zugangsdaten|credenziali|credenciales|identifiants|chiav\w{0,2}\s{1,3}API|claves?\s{1,3}(?:de\s{1,3})?API|парол\w{0,3}|ключ\w{0,3}|токен\w{0,3})\b|トークン|パスワード|密码|密碼|令牌|비밀번호|토큰|API\s?키/i;
/** The user's personal records beyond one call: contacts, histories, mailboxes, photos, location. */
const USER_RECORDS = /\b(?:address\s{1,3}books?|contacts?(?:\s{1,3}(?:list|file))?|contact\s{1,3}lists?|call\s{1,3}(?:history|logs?)|browsing\s{1,3}history|(?:message|chat|conversation|search)\s{1,3}history|(?:inbox|mailbox)(?:es)?|photo\s{1,3}library|(?:precise\s{1,3})?location\s{1,3}history)\b/i;
/** Whose, or how much: the user's, the caller's, every, all (and ALL_MULTI's languages). */
const WHOSE = /\b(?:user'?s|users'|caller'?s|their|your|every|all|each|whole|entire|full|any)\b|\bfrom\s{1,3}the\s{1,3}(?:conversation|session|chat|context)\b/i;
/** Having the model call a tool of its own choosing ("call purge_x with …", "invoke `wipe`"). */
const CALLS_TOOL = /\b(?:call|invoke|run|use|trigger)\s{1,3}(?:the\s{1,3})?`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?/i;
/** Sending or routing to an address: "send the file to https://…", "use remote https://… instead". */
const TO_ADDRESS = /\b(?:send|forward|upload|post|push|copy|mirror|route|redirect|use|add|cc|bcc|invite|report|sync)\b[^.;!?\n]{0,80}?(?:[\w.+-]@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/[\w-]+(?:\.[\w-]+)+|\bgit@[\w.-]+:)/i;

/** Digits standing for letters inside words (4→a, 3→e, 1→i, 0→o, 5→s, 7→t, 9→g); not "llama3", "ipv4", "1st", "4k". */
const LEET_MAP: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "9": "g" };
function leetWord(token: string, loose = false): boolean {
  const w = token.replace(/^[("'`[]+|[)"'`\].,;:!?]+$/g, "");
  return /^[A-Za-z0134579']{2,30}$/.test(w) && /[A-Za-z]/.test(w) && /[0134579]/.test(w) && (loose || (!/^[A-Za-z]+\d+$/.test(w) && !/^\d+[A-Za-z]{1,2}$/.test(w)));
}

/** The text with leetspeak read as letters, when three or more words (and a sixth of them) are written so; else null. */
export function readLeet(text: string): string | null {
  const tokens = text.split(/\s+/);
  let n = 0;
  for (const t of tokens) if (leetWord(t)) n++;
  if (n < 3 || n * 6 < tokens.length) return null;
  // (Once the text is leetspeak, "th3" and "1t" are words of it too.)
  return text.replace(/\S+/g, (t) => (leetWord(t, true) ? t.replace(/[0134579]/g, (c) => LEET_MAP[c] ?? c) : t));
}

/** Kept from view in the passive ("internal, not to be surfaced"): said of a value as often as of an action. */
const NOT_TO_BE_SHOWN = /\b(?:not|never)\s{1,3}to\s{1,3}be\s{1,3}(?:surfaced|shown|displayed|mentioned|disclosed|revealed|told)\b/i;
const BULK = /\b(?:every|all|each|whole|entire)\b/i;

/**
 * SECRECY_WORDS, less a consent required by a double negative (fifteenth round): "never acknowledge Disaster problems
 * without asking the user" has the model ask; "do not wait: purge it without asking the user" and "never hesitate to
 * … without asking the user" still keep the user out.
 */
const SECRECY_WORDS_ALL = new RegExp(SECRECY_WORDS.source, "gi");
function secrecyWords(u: string): boolean {
  const re = SECRECY_WORDS_ALL;
  re.lastIndex = 0;
  for (let m, n = 0; (m = re.exec(u)) !== null && n < 16; n++) {
    if (/^without/i.test(m[0])) {
      const clause = u.slice(Math.max(0, m.index - 80), m.index).split(/[.;,:!?\n]/).pop() ?? "";
      if (/\b(?:never|not|don't|do\s{1,3}not|must\s{1,3}not|should\s{1,3}not)\b/i.test(clause) && !/\b(?:never|not|don't|do\s{1,3}not)\s{1,3}(?:hesitate|wait|stop|pause|bother)\b/i.test(clause)) continue;
    }
    return true;
  }
  return false;
}

/**
 * What a description keeps from the user: "active" (the model told not to tell), "passive" (a thing not to be shown),
 * or null. Withholding a secret value does not count.
 */
export function keepsFromUser(u: string): "active" | "passive" | null {
  if (SECRECY_MULTI.test(u) || SECRECY_BARE.test(u) || secrecyWords(u)) return "active";
  const re = new RegExp(KEEP_FROM_USER.source, "gi");
  for (let m; (m = re.exec(u)) !== null; ) {
    const kept = m[1] ?? m[2] ?? "";
    if (!SECRET_OBJECT.test(kept)) return "active";
  }
  return NOT_TO_BE_SHOWN.test(u) ? "passive" : null;
}

/** Whether a description (one string) withholds from the user and, anywhere, demands data, an address or a tool call. */
export function withheldDemand(description: string): boolean {
  let u = description.length > MAX_WHOLE ? description.slice(0, MAX_WHOLE) : description;
  const leet = readLeet(u);
  if (leet !== null) {
    u = leet;
    // Read as letters, each sentence's own directives count too ("r34d ~/.git-credentials 4nd p4ss 1t …").
    for (const unit of u.split(/(?<=[.!?])\s+/)) if (describedDirectives(unit).some((d) => d !== "secrecy")) return true;
  }
  // (Nineteenth round) A standing addition made silently to a fixed account or address.
  if (SILENT_MULTI.test(u) && (BULK.test(u) || ALL_MULTI.test(u) || EVERY_MULTI.test(u)) && (ACCOUNT_LITERAL.test(u) || EMAIL.test(u)) && !OWN_PLACE.test(u)) return true;
  const kept = keepsFromUser(u);
  if (kept === null) return false;
  // (A value "not to be shown" is often the secret itself: only a bulk demand — every cookie, all the tokens — counts.)
  if (kept === "passive") return (USER_SECRETS.test(u) || USER_RECORDS.test(u)) && (BULK.test(u) || ALL_MULTI.test(u));
  if (IDENTITY_MULTI.test(u) || IDENTITY_PAYMENT.test(u)) return true;
  if ((USER_SECRETS.test(u) || USER_RECORDS.test(u)) && (WHOSE.test(u) || ALL_MULTI.test(u))) return true;
  return TO_ADDRESS.test(u) || CALLS_TOOL.test(u) || ACCOUNT_LITERAL.test(u) || (EMAIL_OR_URL.test(u) && ALL_MULTI.test(u));
}

/** The keys whose strings describe a server or agent to the model (a tool's, a property's, a card's, a provider's). */
const DESCRIBING = new Set(["description", "instructions", "organization", "title", "default"]);

/**
 * `tool_poisoning.withheld_demand`: each describing string of a server's or agent's description of itself
 * (`sites`: the self-description's strings) that withholds from the user and demands, anywhere in it — cut whole.
 */
export function detectWithheldDemands(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const key = site.path[site.path.length - 1];
    const describing = typeof key === "string" ? DESCRIBING.has(key) : site.path[site.path.length - 2] === "examples";
    if (!describing || site.value.length < 20 || site.encoded !== undefined) continue;
    if (withheldDemand(site.value)) out.push({ type: "tool_poisoning.withheld_demand", path: site.path, start: 0, end: site.value.length, detail: "withholds from the user what another sentence demands (the user's data, an address or a tool call)" });
  }
  return out;
}
