/*
 * The cue classes the injection scorer (injection.ts) reads words by. A class is a role a word plays in an
 * instruction — who is addressed, what is asked, what must be hidden — not a phrase an attack was seen using: the
 * scorer's structure (injection.ts) decides whether the classes found make an instruction aimed at the model.
 *
 * Languages: English, Spanish, French, German, Portuguese, Italian, Russian by word (lower-case, accents kept), and the
 * languages of injection-languages.ts; Chinese and
 * Japanese (no spaces to split on) and Korean (particles attach to words) by substring, in `CJK`; Polish by word. Verb lists hold the forms an instruction uses: the
 * imperative (and the English base form), and separately the forms that need a modal or "without" before them.
 */

import { MORE_IMPERATIVES, MORE_WORDS } from "./injection-languages.js";
import { NO_SPACE, WORLD_IMPERATIVES, WORLD_WORDS } from "./injection-languages-world.js";

export type Cue =
  | "ai" // the model as addressee: assistant, AI, LLM, Claude…
  | "you" // second person
  | "neg" // not, never…
  | "comm" // telling: tell, mention, inform, reveal…
  | "target" // the person kept in the dark: the user, the human
  | "anyone" // weaker: anyone, nobody, them
  | "stealth" // silently, secretly…
  | "without"
  | "override" // ignore, disregard, forget…
  | "scope" // previous, prior, above, system…
  | "instr" // instructions, rules, prompt…
  | "own" // my, our: the writer's own earlier words
  | "msgobj" // message, email: what a person retracts ("ignore my previous message")
  | "act" // other verbs an imperative opens with: add, change, update, reply, click…
  | "send"
  | "read"
  | "exec"
  | "call"
  | "pay"
  | "delete"
  | "follow" // follow, obey, comply
  | "decode"
  | "machine" // machine secrets: credentials, API keys, tokens, private keys, environment, system prompt
  | "personal" // personal secrets and bulk personal data: password, security code, passport, card, conversation
  | "bulk" // all, every, entire
  | "files" // files, documents, emails, messages, contacts: what "all …" makes bulk data
  | "urgent"
  | "modal" // must, should, need to, always…
  | "auth" // authorised, permission, approved
  | "frame" // instead, beforehand, todo…
  | "task" // task, goal, objective, job
  | "newadj" // new, real, actual, updated
  | "recipient" // recipient, bcc, payee, IBAN
  | "money"
  | "tool" // tool, function, skill, plugin
  | "command" // command, script, shell, terminal
  | "filler" // please, kindly, now, then: skipped before an imperative
  | "report" // an article's words about attacks: injection, attacker, example
  | "persona" // DAN, jailbroken, unrestricted
  | "hiddenadj"; // hidden, embedded, encoded, secret (instructions)

interface Entry {
  cues: Cue[];
  /** The form can open an imperative clause (English base forms, other languages' imperatives). */
  imp: boolean;
}

const WORDS: Partial<Record<Cue, string>> = {
  ai: "assistant assistants ai llm llms chatbot chatbots model models agent agents claude chatgpt gpt gpt-4 gpt-4o gpt-5 gemini copilot bard llama mistral bot " +
    "asistente asistentes ia modelo agente agentes assistente assistentes " + // es pt
    "modèle agents " + // fr (assistant, agent, ia above)
    "assistent assistenten ki modell sprachmodell " + // de
    "ассистент ассистенту ассистента помощник помощнику ии модель модели агент агенту нейросеть бот assistente intelligenza ki-agent ki-agenten ki-assistent ki-assistenten agenten ai-agent ai-agents ai-assistant ai-assistants llm-based ia-agent orchestrator orchestrators orkestrator orkiestrator orquestador orquestrador orchestrateur orchestratore оркестратор оркестратору bots asystent asystencie asystenta asystentowi agencie agenta agentowi czatbot",
  you: "you your yours yourself u " +
    "tú tu te ti usted tus vosotros " +
    "toi vous votre vos ton ta tes " +
    "du dich dir dein deine deinen euch " +
    "você vocês teu tua seu sua " +
    "ты вы тебе тебя вас вам твой ваш ваши твои tuo tua tuoi voi ciebie tobie twój twoja twoje twoich wasz",
  neg: "not never don't dont do-not no nor " +
    "nunca jamás jamais ne pas nicht nie niemals kein keine nichts nada rien não nem не никогда non mai nie nigdy",
  comm: "told tell mention inform notify alert reveal disclose show say report warn acknowledge explain display surface let flag " +
    "telling mentioning informing notifying alerting revealing disclosing showing saying reporting warning " +
    "digas diga decir decirle decirles menciones mencione mencionar informes informe informar reveles revele revelar avises avise avisar muestres comentes cuentes " +
    "dis dites dire mentionne mentionnez mentionner informez informer révèle révélez révéler préviens prévenez prévenir signale signalez signaler montre montrez parle parlez " +
    "sag sage sagen erwähne erwähnen informiere informieren verrate verraten mitteilen teile benachrichtige benachrichtigen zeige zeigen warne " +
    "dizer mencionar revelar conte contar mostre mostrar bring commenting mencionen digan sagt erwähnt zeigt " +
    "говори говорите сообщай сообщайте сообщать упоминай упоминайте упоминать рассказывай рассказывайте раскрывай показывай предупреждай говоря сообщая упоминая dire dirlo dirle dirgli dica menzionare menzionarlo informare informarlo avvisare rivelare mostrare wspominaj wspominać mów mówić informuj informować ujawniaj ujawniać pokazuj zgłaszaj",
  target: "user user's users human humans operator owner requester holder " +
    "usuario usuaria usuarios humano " +
    "utilisateur utilisatrice utilisateurs l'utilisateur humain " +
    "benutzer nutzer anwender benutzerin nutzerin " +
    "usuário usuária utilizador " +
    "пользователю пользователь пользователя пользователей человеку utente l'utente utenti użytkownik użytkownika użytkownikowi użytkowników klienta klientowi",
  anyone: "anyone anybody them nobody someone " +
    "nadie alguien nadie personne quiconque niemandem niemand jemandem ninguém alguém никому никого",
  stealth: "silently quietly secretly covertly discreetly invisibly unnoticed stealthily " +
    "secretamente silenciosamente discretamente secreto " +
    "secrètement discrètement silencieusement " +
    "heimlich unbemerkt stillschweigend unauffällig " +
    "segredo " +
    "тайно незаметно втайне тихо скрытно segretamente silenziosamente discretamente silencio potajemnie cichu dyskretnie",
  without: "without sin sans ohne sem без senza bez",
  override: "ignore disregard forget override bypass discard abandon neglect " +
    "ignora ignorar olvida olvide olvidar omite omita descarta " +
    "ignorez ignorer oublie oubliez oublier néglige " +
    "ignoriere ignorieren ignorier vergiss vergessen missachte missachten ignoriert vergesst ignoren olviden " +
    "esqueça esquece esquecer desconsidere desconsiderar descarte " +
    "игнорируй игнорируйте проигнорируй проигнорируйте забудь забудьте игнорировать забыть отбрось пренебреги ignora ignori ignorare dimentica dimentichi dimenticare zignoruj ignoruj zapomnij pomiń",
  scope: "previous prior above earlier preceding original initial system all existing former " +
    "anteriores anterior previas previos originales todas todos " +
    "précédentes précédents précédente antérieures initiales toutes " +
    "vorherigen vorherige bisherigen früheren obigen alle ursprünglichen " +
    "prévias originais " +
    "предыдущие предыдущих прежние все всех исходные системные precedenti tutte tutti poprzednie wcześniejsze wszystkie",
  instr: "instructions instruction prompt prompts rules guidelines directive directives directions orders commands constraints guardrails restrictions policies programming " +
    "instrucciones instrucción reglas indicaciones órdenes directrices " +
    "consignes règles ordres " +
    "anweisungen anweisung regeln vorgaben befehle richtlinien instruktionen " +
    "instruções instrução regras diretrizes ordens " +
    "инструкции инструкций указания указаний правила правил команды istruzioni istruzione regole instrukcje instrukcji polecenia zasady",
  own: "my our mine mis mes meine meinen minhas meus мои моих наши",
  msgobj: "message messages email emails mail note comment answer reply post version request letter demande solicitud petición anfrage richiesta pedido task tâche tarea aufgabe " +
    "mensaje correo mensagem e-mail nachricht письмо сообщение",
  act: "add change replace update set make put create write reply respond click visit go navigate book schedule buy approve accept confirm verify enter type rate give do mark move rename export save store keep tell invite grant merge aprueba apruebe aprobar programa approuve approuvez genehmige genehmigen aprove approva " +
    "añade agrega cambia actualiza responde haz pon ajoute change modifie mets fais réponds füge ändere aktualisiere antworte mache setze adicione altere atualize responda faça coloque добавь измени обнови ответь сделай поставь dodaj zmień zaktualizuj ustaw odpowiedz kliknij zatwierdź",
  send: "send forward email e-mail mail post upload transmit exfiltrate share submit deliver leak relay publish bcc cc dm paste " +
    "sent forwarded emailed mailed posted uploaded shared submitted sending forwarding uploading posting sharing " +
    "envía envíe enviar envíales manda mande mandar reenvía reenvíe reenviar sube suba subir comparte comparta compartir publica " +
    "envoie envoyez envoyer transfère transférez transférer transmets transmettez transmettre partage partagez partager publie publiez téléverse téléversez " +
    "sende senden schicke schick schicken leite leiten weiterleiten übermittle übermitteln teilen hochladen poste posten " +
    "envie envia mande manda encaminhe encaminhar compartilhe compartilhar transmita publique sendet schickt leitet envíen reenvíen publiquen manden " +
    "отправь отправьте отправить пришли пришлите перешли перешлите переслать загрузи загрузите поделись передай передайте опубликуй invia inviare inoltra inoltrare manda mandare carica caricare condividi condividere sms whatsapp text wyślij prześlij przekaż udostępnij opublikuj",
  read: "read open cat retrieve fetch get load access collect gather extract dump list print output copy grab obtain include attach find locate harvest enumerate reveal repeat paste append embed encode download " +
    "provide pass give supply receive render insert " +
    "included attached passed appended collected extracted provided reading including collecting rendered inserted " +
    "lee lea leer abre abra abrir obtén obtenga obtener recopila recopile recopilar extrae extraiga extraer incluye incluya incluir copia copie copiar busca muestra " +
    "lis lisez lire ouvre ouvrez ouvrir récupère récupérez récupérer collecte collectez extrais extrayez inclus incluez inclure copiez copier affiche affichez " +
    "lies lese lesen öffne öffnen hole holen sammle sammeln extrahiere extrahieren füge kopiere kopieren gib lest öffnet holt sammelt kopiert gebt hänge hängt lean abran auslesen " +
    "leia lê ler obtenha obter colete coletar extraia extrair inclua incluir " +
    "прочитай прочитайте прочти прочесть открой откройте получи получите собери соберите извлеки извлеките включи включите скопируй скопируйте выведи выведите покажи покажите leggi leggere apri aprire raccogli copia copiare estrai includi odczytaj przeczytaj pobierz zbierz dołącz skopiuj wypisz podaj",
  exec: "run execute exec eval launch install pipe spawn source " +
    "executed running executing " +
    "ejecuta ejecute ejecutar corre lanza instala " +
    "exécute exécutez exécuter lance lancez installe " +
    "führe ausführen starte starten installiere führt startet installiert ejecuten " +
    "executa executar rode rodar instale " +
    "выполни выполните выполнить запусти запустите запустить установи esegui eseguire uruchom wykonaj zainstaluj",
  call: "call invoke use trigger utilize employ " +
    "called invoked used calling invoking using " +
    "llama llame usa utiliza utilice invoca " +
    "appelle appelez utilise utilisez invoque " +
    "rufe nutze nutzen verwende verwenden benutze aufrufen ruft nutzt " +
    "chame chamar usar utilize invoque " +
    "вызови вызовите используй используйте примени wywołaj użyj",
  pay: "transfer wire pay " +
    "transfiere transfiera paga pague " +
    "vire virez payez " +
    "überweise überweisen zahle " +
    "transfira pagar " +
    "переведи переведите оплати zapłać przelej opłać refund",
  delete: "delete remove wipe erase destroy purge rm " +
    "borra borre elimina elimine supprime supprimez efface effacez lösche löschen löscht borren entferne apague exclua удали удалите сотри usuń skasuj",
  follow: "follow obey comply adhere execute perform carry " +
    "sigue obedece cumple suis suivez obéis befolge folge gehorche siga obedeça следуй выполняй подчинись",
  decode: "decode decrypt deobfuscate unescape decoded decrypted url-decode url-decoded base64-decode hex-decode " +
    "decodifica décode decodiere декодируй расшифруй",
  machine: "credentials credential apikey api_key apikeys token tokens secret secrets privatekey private_key keychain cookies wallet mnemonic passphrase " +
    "credenciales identifiants jetons jeton zugangsdaten schlüssel geheimnis credenciais учётные учетные токен токены секрет ключи credenziali chiavi segreti keystore keystores klucze tokeny poświadczenia",
  personal: "password passwords passwd otp 2fa mfa passport cvv cvc ssn iban conversation conversations " +
    "contraseña contraseñas passwort passwörter kennwort senha senhas пароль пароли пароля паролей паролем паспорт password hasło hasła haseł paszport",
  bulk: "all every each entire whole full complete todos todas cada completo tous toutes chaque entier alle jede jeden gesamte ganze inteiro все всех каждый весь всю tutte tutti ogni intero intera",
  files: "message thread contact photo picture photos pictures images dms threads mailbox folder address-book kontakte contactos statements rechnungen kontoauszüge facturas factures invoices files file documents emails messages contacts conversation conversations history chats inbox tabs archivos correos fichiers courriels dateien nachrichten arquivos mensagens файлы письма переписку email file documenti messaggi",
  urgent: "urgent urgently immediately asap important critical mandatory priority " +
    "urgente inmediatamente importante immédiatement impératif dringend sofort wichtig unverzüglich imediatamente срочно немедленно важно обязательно urgente subito immediatamente pilne natychmiast",
  modal: "must should need needs have has required shall ensure remember always " +
    "debes deberás tienes necesitas asegúrate recuerda siempre " +
    "dois devez devras faut toujours veuillez " +
    "muss musst müssen müsst soll sollst sollen sollt immer " +
    "deve deves precisa tem sempre " +
    "должен должны должна нужно необходимо всегда devi dovete sempre musisz należy zawsze",
  auth: "authorized authorised authorization authorisation permission approved consented allowed agreed pre-approved preapproved signed-off " +
    "autorizado autorizó autorisé autorisée autorisiert erlaubt autorizou разрешил разрешено авторизовал",
  frame: "instead todo beforehand " + "desormais désormais stattdessen вместо отныне",
  task: "task goal objective job mission tarea objetivo tâche objectif aufgabe ziel tarefa задача цель",
  newadj: "new real actual updated nueva nuevo nuevas nouvelle nouvelles nouveau neue neuen nova novas novo новая новые",
  recipient: "recipient recipients bcc cc payee beneficiary iban destinatario destinatarios destinataire destinataires empfänger destinatário получатель получателя destinatario",
  money: "money funds payment usd eur dollars euros dinero argent geld dinheiro деньги средства pago pagos paiement zahlung pagamento",
  tool: "tool tools function functions skill skills plugin action herramienta outil werkzeug ferramenta инструмент функцию",
  command: "command commands script shell terminal bash powershell sh zsh cmd curl wget sudo comando commande befehl команду",
  filler: "please kindly now then also and just first next finally so ok okay por favor bitte s'il пожалуйста и затем потом y et und e puis dann depois",
  report: "injection injections attack attacks attacker attackers malicious exploit exploits jailbreak jailbreaks payload payloads example examples phishing adversarial researchers researcher vulnerability vulnerabilities attempt attempts prompt-injection " +
    "inyección ataque ejemplo attaque exemple angriff beispiel injektion injeção exemplo атака инъекция пример " +
    // (Nineteenth round) Words that name a text as a fraud: a passage about scams writes about attacks.
    "scam scams scammer scammers fraudster fraudsters lure lures hoax hoaxes estafa estafas estafador estafadores arnaque arnaques escroc escrocs betrug betrüger golpe golpes golpista golpistas truffa truffatori oszustwo oszuści мошенники мошенничество",
  persona: "dan jailbroken jailbreak unrestricted unfiltered uncensored",
  hiddenadj: "hidden embedded encoded secret real true following decoded ocultas cachées versteckten ocultas скрытые",
};

/** Verb classes whose words open an imperative clause when they come first (minus their -ing/-ed/infinitive forms). */
const VERBS: Cue[] = ["send", "read", "exec", "call", "pay", "delete", "follow", "decode", "override", "comm", "act"];
const NON_FINITE = /(?:ing|ed|ar|er|ir|ть|ться|ен|ён|ан|ян)$/;

/** English base forms that end like non-finite forms but are imperatives. */
const IMPERATIVE_ANYWAY = new Set(["render", "enter", "answer", "forward", "transfer", "order", "enter", "deliver", "wipe", "answer", "filter", "render", "gather", "register", "ignore", "discard", "disregard", "remember", "enumerate", "pipe", "override", "share", "leak", "include", "provide", "paste", "use", "execute", "delete", "erase", "remove", "source", "ensure", "surface", "embed", "encode", "decode", "cat", "get", "list", "print", "copy", "dump", "run", "call", "send", "post", "mail", "email", "read", "tell", "let", "say", "alert", "reveal", "show", "report", "warn", "notify", "mention", "inform", "explain", "display", "invoke", "trigger", "utilize", "employ", "pay", "wire", "launch", "install", "spawn", "follow", "obey", "comply", "adhere", "perform", "carry", "fetch", "load", "access", "collect", "extract", "grab", "obtain", "attach", "find", "locate", "harvest", "repeat", "append", "output", "open", "retrieve", "upload", "transmit", "exfiltrate", "submit", "relay", "publish", "bcc", "cc", "dm", "forget", "bypass", "abandon", "neglect", "destroy", "purge", "rm", "eval", "exec", "decrypt", "deobfuscate", "unescape", "acknowledge", "disclose", "rufe", "lese", "lies", "sende", "schicke", "führe", "hole", "sammle", "gib", "vergiss", "ignoriere", "lösche", "zeige", "sage", "sag", "teile", "leite", "nutze", "verwende", "benutze", "öffne", "kopiere", "füge", "starte", "installiere", "überweise", "zahle", "entferne"]);

for (const [cue, words] of Object.entries(MORE_WORDS) as [Cue, string][]) WORDS[cue] = (WORDS[cue] ?? "") + " " + words;
for (const w of MORE_IMPERATIVES) IMPERATIVE_ANYWAY.add(w);
for (const [cue, words] of Object.entries(WORLD_WORDS) as [Cue, string][]) WORDS[cue] = (WORDS[cue] ?? "") + " " + words;
for (const w of WORLD_IMPERATIVES) IMPERATIVE_ANYWAY.add(w);

const lexicon = new Map<string, Entry>();
for (const [cue, words] of Object.entries(WORDS) as [Cue, string][]) {
  for (const w of words.split(/\s+/)) {
    if (w === "") continue;
    let e = lexicon.get(w);
    if (!e) {
      e = { cues: [], imp: false };
      lexicon.set(w, e);
    }
    if (!e.cues.includes(cue)) e.cues.push(cue);
    if (VERBS.includes(cue) && (IMPERATIVE_ANYWAY.has(w) || !NON_FINITE.test(w))) e.imp = true;
  }
}

/** The words of a class (for the gate's table). */
export function wordsOf(cue: Cue): string[] {
  return (WORDS[cue] ?? "").split(/\s+/).filter((w) => w !== "");
}

/** The cue classes of a lower-cased word, or undefined. */
export function lookup(word: string): Entry | undefined {
  return lexicon.get(word);
}

/**
 * The cue classes of a short text's first `max` words (runs of letters and marks with their apostrophes; NFKC, lower
 * case, `’` read as `'`), and how many words it read: a lead or a line read by its words in any language
 * (commands-handed.ts, paths-handed.ts).
 */
export function cuesOfWords(text: string, max: number): { words: number; cues: Set<Cue> } {
  const cues = new Set<Cue>();
  let words = 0;
  for (const m of text.matchAll(/[\p{L}\p{M}'’]{1,40}/gu)) {
    if (words >= max) break;
    words++;
    for (const c of lookup(m[0].normalize("NFKC").toLowerCase().replace(/’/g, "'"))?.cues ?? []) cues.add(c);
  }
  return { words, cues };
}

/**
 * Words that carry a class whatever their ending (a prefix), and one fragment that does anywhere in a word (typos:
 * "iunstructions"). The gate (injection-gate.ts) reads the same prefixes.
 */
export const STEMS: [string, Cue, "prefix" | "inside"][] = [
  ["instruc", "instr", "prefix"],
  ["nstruct", "instr", "inside"],
  ["anweisu", "instr", "prefix"],
  ["инструк", "instr", "prefix"],
  ["credent", "machine", "prefix"],
  ["passwor", "personal", "prefix"],
  ["contras", "personal", "prefix"],
];

/**
 * Chinese and Japanese cues, found by substring in a sentence: no spaces to split words on. Each entry is one class;
 * `secrecy` and `override` are whole cue pairs (negation + telling, ignoring + instructions), since word order there
 * is fixed enough for a short list.
 */
export const CJK: Record<string, string[]> = {
  ai: ["助手", "人工智能", "智能体", "大模型", "语言模型", "アシスタント", "人工知能", "エージェント", "言語モデル", "ＡＩ", "AI 에이전트", "에이전트", "어시스턴트", "인공지능", "챗봇", "언어 모델", "ผู้ช่วย", "เอเจนต์"],
  you: ["你", "您", "あなた", "君は", "당신", "너는", "귀하", "คุณ"],
  override: ["忽略", "无视", "忘记", "忘掉", "不要理会", "無視", "忘れて", "忘れろ", "무시하", "무시하고", "잊어"],
  instr: ["指令", "指示", "说明", "规则", "提示词", "命令", "ルール", "プロンプト", "指図", "지시", "지침", "명령", "규칙", "프롬프트"],
  scope: ["之前", "以上", "先前", "所有", "以前", "これまで", "上記", "前の", "全ての", "すべての", "이전", "모든", "위의"],
  secrecy: ["触れないで", "不要告诉", "别告诉", "不要提及", "不要提到", "不要透露", "不要通知", "勿告知", "不要让用户知道", "不告诉用户", "不让用户", "言わないで", "伝えないで", "知らせないで", "教えないで", "言及しないで", "報告しないで", "報告せずに", "不要报告", "不要汇报", "知らせずに", "伝えずに", "内緒", "秘密に", "悄悄", "偷偷", "秘密地", "默默地", "こっそり", "密かに", "黙って", "알리지 마", "말하지 마", "언급하지 마", "알리지 말", "말하지 말", "모르게", "몰래", "อย่าบอก", "ไม่ต้องบอก", "อย่าแจ้ง"],
  target: ["用户", "使用者", "ユーザー", "利用者", "사용자", "유저", "ผู้ใช้"],
  send: ["发送", "发给", "发到", "转发", "上传", "送信", "転送", "アップロード", "送って", "送る", "送ってください", "보내", "전송", "전달", "업로드", "포함해", "포함하", "첨부", "ส่ง"],
  read: ["读取", "获取", "收集", "打开", "读出", "読み取", "読んで", "取得", "収集", "開いて", "읽어", "읽고", "가져와", "수집", "추출", "포함해", "포함하", "เปิด", "อ่าน"],
  exec: ["执行", "运行", "実行", "실행", "รัน"],
  call: ["调用", "呼び出", "호출"],
  machine: ["密钥", "凭据", "凭证", "令牌", "环境变量", "私钥", "秘密鍵", "認証情報", "トークン", "APIキー", "環境変数", "系统提示", "API 키", "토큰", "자격 증명", "환경 변수", "개인 키", "비밀 키", "โทเค็น", "คีย์ API"],
  personal: ["密码", "パスワード", "护照", "信用卡", "パスポート", "クレジットカード", "비밀번호", "암호", "여권", "신용카드", "카드 번호", "인증 코드", "รหัสผ่าน", "หนังสือเดินทาง", "บัตรเครดิต"],
  bulk: ["所有", "全部", "すべて", "全て", "모든", "전부", "전체", "ทั้งหมด"],
  urgent: ["紧急", "立即", "马上", "立刻", "至急", "直ちに", "すぐに", "今すぐ", "緊急", "重要", "긴급", "즉시", "지금 바로", "ด่วน", "ทันที"],
  modal: ["请", "务必", "必须", "需要你", "ください", "下さい", "しなさい", "せよ", "必ず", "してほしい", "해야", "하세요", "하십시오", "반드시", "주세요", "ต้อง", "กรุณา"],
  frame: ["在回答之前", "回答前", "从现在开始", "你的新任务", "回答する前に", "代わりに", "今から", "新しいタスク", "新的任务", "답변하기 전에", "응답하기 전에", "대신"],
  auth: ["授权", "许可", "許可", "承認", "승인", "허가", "동의"],
};

for (const [k, words] of Object.entries(NO_SPACE)) CJK[k] = [...(CJK[k] ?? []), ...words];

/**
 * Whether a character is Han, Hiragana, Katakana, Hangul, Thai, Lao, Burmese or Khmer (Korean is read by substring
 * too: particles attach to words; the others have no spaces between words).
 */
export function isCjk(c: number): boolean {
  return (c >= 0x0e01 && c <= 0x0edf) || (c >= 0x1000 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0x3130 && c <= 0x318f) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff66 && c <= 0xff9f);
}
