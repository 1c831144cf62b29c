import { isCjk, wordsOf, type Cue } from "./injection-lexicon.js";
import { WORLD_GENERIC } from "./injection-languages-world.js";
import { sharedUnits } from "./units.js";

/*
 * The injection scorer's gate: one pass over a text, without allocating, that notes per paragraph which cue classes
 * its words hold (a hash of each lower-cased word, and of its first 5, 6 and 7 characters for stems, looked up in a
 * table built from the lexicon) and whether it has a marker candidate (`<|`, `</`, a tag name after `<`, `[INST`, a
 * heading or a role word at a line start, an upper-case END). A finding always holds at least one primary cue
 * (injection.ts, PRIMARY); a paragraph whose classes cannot make one is never read further. So the gate is exact:
 * what it skips could not have fired.
 *
 * Cost: a few integer operations per character and one table probe per word.
 */

/** Classes of words, as the pass tests them (one bit each). */
export const G = {
  AI: 1 << 0,
  GENERIC: 1 << 1,
  VOC: 1 << 2,
  OVERRIDE: 1 << 3,
  INSTR: 1 << 4,
  SCOPE: 1 << 5,
  PERSONA: 1 << 6,
  PWEAK: 1 << 7,
  YOU: 1 << 8,
  NEG: 1 << 9,
  COMM: 1 << 10,
  TGT: 1 << 11,
  STEALTH: 1 << 12,
  AUTH: 1 << 13,
  ROLE: 1 << 14,
  BE: 1 << 15,
  NEWADJ: 1 << 16,
  TASK: 1 << 17,
  FOLLOW: 1 << 18,
  DECODE: 1 << 19,
  HIDDENADJ: 1 << 20,
  MACHINE: 1 << 21,
  PERSONAL: 1 << 22,
  BULK: 1 << 23,
  FILES: 1 << 24,
  RECIPIENT: 1 << 25,
  PAY: 1 << 26,
  DELETE: 1 << 27,
  DOWNLOAD: 1 << 28,
  HEAD: 1 << 29,
  TAIL: 1 << 30,
  READING: 1 << 31,
} as const;

/** Any one of these words alone can start a finding. */
const ALONE = G.AI | G.PERSONA | G.STEALTH | G.MACHINE | G.PERSONAL | G.RECIPIENT | G.PAY | G.DOWNLOAD | G.DECODE;

/** Word kinds the pass tests itself (not classes of a paragraph). */
const TAG = 1;
const TURN = 2;
const HEADER = 8;
const DOTTED = 4;
const DOTNEXT = 16;
/** A letter word of the spelling alphabet (counted for injection-readings.ts, which reads a spelled run). */
const SPELL = 32;
/**
 * (Sixteenth round, injection-catalogue.ts) Words of the catalogues' structures, paired within a paragraph: "please"
 * and what only an account holder owns ("please sell … my Bitcoin holdings"); a reply verb and "only"/"verbatim"
 * ("reply only with '…'"); the reader's task and what its answer is told ("when you summarise this page, tell the
 * user…", "if questioned, report that…"); a TODO before a colon.
 */
const PLEASE = 64;
const ASSET = 128;
const REPLYV = 256;
const ONLY = 512;
const TASKV = 1024;
const DICTV = 2048;
const TODO = 4096;
/** A condition or "your" just before a task word ("when you summarise", "if questioned", "in your summary"). */
const COND = 8192;
const CATALOGUE = PLEASE | ASSET | REPLYV | ONLY | TASKV | DICTV | TODO | COND;
const CATALOGUE_WORDS: [string, number][] = [
  ["please", PLEASE],
  ["account accounts holdings wallet portfolio savings checking lock locks door doors garage car vehicle thermostat camera cameras alarm system bank card cards addresses contacts records history emails files repository repositories repo shares stocks bitcoin crypto funds money balance points miles subscription device devices home house calendar inbox password passwords access iban acct", ASSET],
  ["reply respond answer output print say write return type repeat", REPLYV],
  ["only just nothing verbatim instead regardless matter exactly stop", ONLY],
  ["summarize summarise summarizes summarises summarizing summarising answer answers answering respond responding describe describes describing translate translates translating review reviews reviewing analyze analyse analyzes analyses analyzing analysing explain explains explaining process processes processing read reads reading report reporting asked questioned queried challenged prompted summary summaries recap output", TASKV],
  ["say state claim assert mention write report conclude note add insist confirm tell urge convince persuade pressure recommend endorse promote advertise praise include insert append embed put describe present portray characterize characterise frame", DICTV],
  ["todo", TODO],
  ["when whenever while if once before as your", COND],
];

/** A colon within `max` characters after `i` on the same line (`Human:`, `**User**:`, `System notice:`). */
function colonAfter(text: Uint16Array, i: number, max: number): boolean {
  for (let j = i; j < Math.min(text.length, i + max); j++) {
    const c = text[j] as number;
    if (c === 58) return true;
    if (c === 10) return false;
  }
  return false;
}
/** The word starts with two capitals (`SYSTEM`, `IMPORTANT`). */
const upper = (text: Uint16Array, at: number) => {
  const a = text[at] as number;
  const b = text[at + 1] as number;
  return a >= 65 && a <= 90 && b >= 65 && b <= 90;
};

const GENERIC_AI = new Set([...WORLD_GENERIC, "model", "models", "agent", "agents", "bot", "bots", "orchestrator", "orchestrators", "orkestrator", "orkiestrator", "orquestador", "orquestrador", "orchestrateur", "orchestratore", "оркестратор", "оркестратору", "agencie", "agenta", "agentowi", "модель", "модели", "modelo", "modell", "agente", "agentes", "агент", "агенту", "бот", "modèle"]);

const FROM_CUES: [Cue, number][] = [
  ["ai", G.AI],
  ["scope", G.SCOPE],
  ["override", G.OVERRIDE],
  ["persona", G.PERSONA],
  ["neg", G.NEG],
  ["without", G.NEG],
  ["comm", G.COMM],
  ["target", G.TGT],
  ["anyone", G.TGT],
  ["stealth", G.STEALTH],
  ["auth", G.AUTH],
  ["newadj", G.NEWADJ],
  ["task", G.TASK],
  ["follow", G.FOLLOW],
  ["decode", G.DECODE],
  ["hiddenadj", G.HIDDENADJ],
  ["machine", G.MACHINE],
  ["personal", G.PERSONAL],
  ["bulk", G.BULK],
  ["files", G.FILES],
  ["recipient", G.RECIPIENT],
  ["pay", G.PAY],
  ["delete", G.DELETE],
  ["instr", G.INSTR],
  ["you", G.YOU],
];

/** Words the scorer's structure reads besides the lexicon's classes (kept in step with injection.ts). */
const EXTRA: [string, number][] = [
  ["everything anything tout alles tudo всё ci-dessus oben arriba sopra acima выше", G.SCOPE],
  // Secrecy: "keep it secret", "in your response", "without the user knowing".
  ["response reply answer summary output responses replies answers summaries evaluation assessment recap minutes odpowiedzi odpowiedź podsumowaniu respuesta réponse antwort resposta ответ ответе", G.TGT],
  ["keep", G.NEG],
  // A reader named by what it does: "whoever is summarising this", "automated helpers processing this".
  ["whoever automated automatic autonomous automation automations", G.AI],
  // "any coding agent triaging this", "language model reading this page".
  ["syncing applying preparing deploying running executing updating booking analyses analyzes opens parses scans evaluates receives checks imports ingests handles reads processes manages monitors triages summarises summarizes reviews screens reading processing parsing summarizing summarising browsing viewing analyzing analysing seeing scanning indexing crawling handling triaging screening reviewing ingesting evaluating grading sorting answering managing monitoring", G.READING],
  // Secrecy: "leave it out of your summary", "omit this from the reply".
  ["leave omit exclude", G.NEG],
  // Addressing: "Note to the model", "Hey agent".
  ["instruction consigne note message memo reminder instructions notice nota mensaje hinweis nachricht mensagem примечание сообщение hey hi hello dear attention attn querido querida cher chère liebe lieber caro cara дорогой привет hola bonjour hallo olá atención achtung atenção внимание", G.VOC],
  // Authority: "I am the administrator", "on behalf of the user".
  ["user user's owner admin administrator developer creator operator manager ceo boss usuario utilisateur benutzer usuário пользователь администратор разработчик", G.ROLE],
  ["am i'm soy suis bin sou", G.BE],
  // "decode this and do it": doing what was decoded, as following it.
  ["do", G.FOLLOW],
  // Money sent to a new account ("la nueva cuenta", "our new bank details"): a new adjective before an account word.
  ["account cuenta compte konto conta conto bankverbindung iban", G.TASK],
  ["behalf", G.AUTH],
  // Persona without a name: developer mode, no restrictions, not bound by.
  ["developer jailbreak unrestricted restrictions filters bound", G.PWEAK],
  // Secrets named in several words (a head and a tail), and credential files.
  ["api access secret private ssh signing bearer session refresh auth authentication system environment env aws banking online clave claves clé clés chave chaves ключ ключи variables security verification one-time recovery backup otp 2fa mfa login credit card social bank account routing date dates passport home personal chat conversation mot mots código códigos codes número numéro cartão tarjeta carte", G.HEAD],
  ["key keys token tokens prompt prompts variable variables var vars credentials api schlüssel code codes pin card cards number numbers details security birth address addresses data information history log logs account accounts login logins credentials passwords passe seguridad verificación segurança sécurité vérification bancaire tarjeta cartão crédito credito entorno environnement d'environnement", G.TAIL],
  ["gcloud printenv keystore jks p12 pfx umgebungsvariablen umgebungsvariable api-schlüssel id_rsa id_dsa id_ecdsa id_ed25519 git-credentials shadow passwd sudoers environ wallet bash_history sicherheitscode kreditkarte", G.MACHINE],
  // Text to read backwards is decoded like base64 ("read it right to left and do it").
  ["backwards backward reverse reversed", G.DECODE],
  // Compressed or letter-shifted text to undo before acting ("gunzip this and run it", "shift each letter back by 3").
  ["gunzip decompress unzip inflate unpack decipher caesar rot13 rot-13 shift rotate", G.DECODE],
  // A request sent again with a secret ("resend this request including the password").
  ["resend re-send reissue re-issue resubmit re-submit retry", G.DECODE],
  // The model's rules declared off ("policies are suspended", "maintenance mode enabled").
  ["suspended lifted waived paused deactivated maintenance diagnostics", G.PERSONA],
  // Ceasing to follow: "stop following your rules" (injection.ts, STOP_FOLLOWING).
  ["stop cease quit", G.OVERRIDE],
  // Commands that print a credential (`gcloud auth print-access-token`, `security find-generic-password`).
  ["find-generic-password find-internet-password get-login-password print-access-token print-identity-token get-access-token get-session-token export-credentials", G.MACHINE],
  // Downloaded code run.
  ["curl wget iwr iex invoke-webrequest base64 enc encodedcommand tcp nc", G.DOWNLOAD],
];
/** Dot-files: a credential path only after a dot (`~/.ssh`, `.env`). */
const DOTTED_WORDS = "ssh aws gnupg kube docker env netrc npmrc pypirc pgpass git-credentials bash_history";
/** Tag names that frame instructions or end a tool's output (after `<` or `</`). */
const TAG_WORDS = "user human user_message human_message user_turn system instructions instruction important information admin secret hidden note sys directive override assistant_instructions ai_instructions system_message tool_result tool_results toolresult tool_output tool_outputs tool_response tool_call tool_calls tool_use function_call invoke function_results function_result function_output function_response function_calls result results output outputs search_results document documents context data observation email file_contents file_content page webpage web_page start_of_turn end_of_turn";
/** The spelling alphabet's letter words. */
const SPELL_WORDS = "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky x-ray xray yankee zulu";
/** Line starts: invented turns (a colon follows) and system-style headers (in capitals, or a colon later on the line). */
const TURN_WORDS = "human user assistant ai system claude chatgpt gpt model bot h a";
const HEADER_WORDS = "platform systemnachricht systemhinweis systemmeldung mensaje aviso message avis system_message system admin administrator developer security operator important urgent new updated instructions instruction priority task request order orders rules";
/** Stems (7 characters) whatever the ending: typos and inflections ("iunstructions" is read by the scorer's substring). */
const STEM_WORDS: [string, number][] = [
  ["instruc anweisu инструк", G.INSTR],
  ["credent", G.MACHINE],
  ["passwor contras", G.PERSONAL],
  ["untrust externa retriev", 0],
];

// (About 6,500 words and kinds with the languages of injection-languages-world.ts: a table of 32,768 keeps it a fifth
// full, so a word not in it — most words — ends its probe at once.)
const SIZE = 1 << 15;
/**
 * Words by hash (open addressing): one probe per word gives both its classes (`vals`) and the pass's own word kinds
 * (`kinds`: TAG, TURN…), at the same slot.
 */
const keys = new Int32Array(SIZE);
const vals = new Int32Array(SIZE);
const kinds = new Int32Array(SIZE);

/**
 * Lower-cases a character code as the pass reads words, as `toLowerCase` does for the scripts the lexicon has words in
 * (Latin with its extensions, IPA letters and combining marks, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic
 * scripts, Sinhala, Georgian, Ethiopic, Vietnamese); -1 if not a word character.
 */
function fold(c: number): number {
  if (c < 128) {
    const l = c | 32;
    if (l >= 97 && l <= 122) return l;
    if ((c >= 48 && c <= 57) || c === 95) return c;
    return -1;
  }
  if (c <= 0xff) return c < 0xc0 || c === 0xd7 || c === 0xf7 ? -1 : c <= 0xde ? c + 32 : c;
  // Latin Extended-A: capitals and small letters in pairs (even, odd), but for Ĺ–ň and Ź–ž (odd, even) and Ÿ.
  if (c <= 0x17f) {
    if (c === 0x178) return 0xff;
    if (c === 0x130) return 0x69;
    if (c === 0x131 || c === 0x138 || c === 0x149 || c === 0x17f) return c;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) return c & 1 ? c + 1 : c;
    return c | 1;
  }
  // Latin Extended-B (Ə, Ɓ, Ɗ, Ƙ to their IPA small letters), IPA letters, modifier letters ("ʻ"), combining marks.
  if (c <= 0x36f) return c === 0x18f ? 0x259 : c === 0x181 ? 0x253 : c === 0x18a ? 0x257 : c === 0x198 ? 0x199 : c;
  if (c >= 0x386 && c <= 0x3ce) return c >= 0x391 && c <= 0x3ab ? c + 32 : c;
  if (c >= 0x400 && c <= 0x52f) {
    if (c >= 0x410 && c <= 0x42f) return c + 32;
    if (c < 0x410) return c + 80;
    if (c < 0x460 || (c >= 0x482 && c <= 0x489)) return c;
    if (c === 0x4c0) return 0x4cf;
    if (c >= 0x4c1 && c <= 0x4ce) return c & 1 ? c + 1 : c;
    return c | 1;
  }
  // Armenian (capitals folded; not its punctuation).
  if (c >= 0x531 && c <= 0x556) return c + 48;
  if (c >= 0x559 && c <= 0x588 && !(c >= 0x55a && c <= 0x55f)) return c;
  // Hebrew, Arabic, Persian, Urdu, Pashto and Kurdish letters and marks (without Arabic's comma, semicolon, question
  // mark and full stop), the Indic scripts and Sinhala (without the danda stops and Sinhala's kunddaliya).
  if ((c >= 0x5d0 && c <= 0x5ea) || (c >= 0x620 && c <= 0x65f) || (c >= 0x670 && c <= 0x6d3) || c === 0x6d5 || (c >= 0x6ee && c <= 0x6ff) || (c >= 0x900 && c <= 0x963) || (c >= 0x966 && c <= 0xdf3)) return c;
  // Georgian (Mtavruli capitals folded), Ethiopic (without its word space and stops).
  if (c >= 0x10d0 && c <= 0x10ff && c !== 0x10fb) return c;
  if (c >= 0x1c90 && c <= 0x1cbf) return c - 0x1c90 + 0x10d0;
  if ((c >= 0x1200 && c <= 0x135f) || (c >= 0x1369 && c <= 0x139f)) return c;
  // Latin Extended Additional (Vietnamese, Yoruba): capitals and small letters in pairs.
  if (c >= 0x1e00 && c <= 0x1eff) return c >= 0x1e96 && c <= 0x1e9f ? c : c | 1;
  return -1;
}

/** A table key: the hash, with 0 (an empty slot) moved aside. */
const key = (h: number) => (h === 0 ? 1 : h);
const SALT7 = 0x7c7c7;

function hashOf(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    h = (Math.imul(h, 31) + (c === 0x2019 ? 39 : c === 39 || c === 45 ? c : fold(c))) | 0;
  }
  return h;
}

function put(v: Int32Array, h: number, bits: number): void {
  const m = SIZE - 1;
  let j = h & m;
  while (keys[j] !== 0 && keys[j] !== h) j = (j + 1) & m;
  keys[j] = h;
  v[j] = (v[j] as number) | bits;
}

/** The slot of a hash (a table key), or -1 when it is absent. */
function slot(h: number): number {
  const m = SIZE - 1;
  let j = h & m;
  let x: number;
  while ((x = keys[j] as number) !== 0) {
    if (x === h) return j;
    j = (j + 1) & m;
  }
  return -1;
}

for (const [cue, bits] of FROM_CUES) for (const w of wordsOf(cue)) put(vals, key(hashOf(w.replace(/^\./, ""))), cue === "ai" && GENERIC_AI.has(w) ? G.GENERIC : bits);
for (const [words, bits] of EXTRA) for (const w of words.split(" ")) put(vals, key(hashOf(w)), bits);
for (const [stems, bits] of STEM_WORDS) {
  for (const s of stems.split(" ")) {
    if (s.length !== 7) throw new Error(`a stem is 7 characters: ${s}`);
    if (bits !== 0) put(vals, key(hashOf(s) ^ SALT7), bits);
    else put(kinds, key(hashOf(s) ^ SALT7), TAG);
  }
}
for (const w of DOTTED_WORDS.split(" ")) put(kinds, key(hashOf(w)), DOTTED);
for (const w of TAG_WORDS.split(" ")) put(kinds, key(hashOf(w)), TAG);
for (const w of TURN_WORDS.split(" ")) put(kinds, key(hashOf(w)), TURN);
for (const w of HEADER_WORDS.split(" ")) put(kinds, key(hashOf(w)), HEADER);
for (const w of ["mcp", "claude_desktop_config"]) put(kinds, key(hashOf(w)), DOTNEXT);
for (const w of SPELL_WORDS.split(" ")) put(kinds, key(hashOf(w)), SPELL);
for (const [words, k] of CATALOGUE_WORDS) for (const w of words.split(" ")) put(kinds, key(hashOf(w)), k);

/** ASCII characters as the pass sees them: > 0 a word character (folded), 0 nothing special, < 0 a special. */
const NL = -1;
const LT = -2;
const LB = -3;
const DOT = -4;
const APOS = -5;
const HYPHEN = -6;
const STOP = -7;
const CJK_CHAR = -8;
/** A zero-width joiner or non-joiner: inside a word, part of its spelling, not hashed (the scorer reads it so too). */
const ZWJ = -9;
const ASCII = new Int16Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = fold(c) > 0 ? fold(c) : 0;
ASCII[10] = NL;
ASCII[60] = LT;
ASCII[91] = LB;
ASCII[46] = DOT;
ASCII[39] = APOS;
ASCII[45] = HYPHEN;
ASCII[33] = STOP;
ASCII[63] = STOP;

function other(c: number): number {
  if (c === 0x2019) return APOS;
  if (c === 0x3002) return STOP;
  if (c === 0x200c || c === 0x200d) return ZWJ;
  if (c >= 0x0e01 && isCjk(c)) return CJK_CHAR;
  const f = fold(c);
  return f > 0 ? f : 0;
}

/**
 * The hash of the units `a` to `b` of a word as the pass hashes them: word characters folded; an apostrophe or a
 * hyphen joining two parts of the word as 39 or 45 when `joins` is set, skipped otherwise (the part after an elision
 * is hashed from its letters alone). A word's stem (its first 7 units) and its part after an elision are hashed here,
 * at the word's end, so the per-character loop keeps one hash.
 */
function hashUnits(text: Uint16Array, a: number, b: number, joins: boolean): number {
  let h = 0;
  for (let i = a; i < b; i++) {
    const c = text[i] as number;
    const t = c < 128 ? (ASCII[c] as number) : other(c);
    if (t > 0) h = (Math.imul(h, 31) + t) | 0;
    else if (t === ZWJ) continue;
    else if (joins) h = (Math.imul(h, 31) + (t === APOS ? 39 : 45)) | 0;
  }
  return h;
}

/** A `#` between the line's start and a word (the line is a Markdown heading). */
function hashLead(text: Uint16Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if ((text[i] as number) === 35) return true;
  return false;
}

const FORGED_KEYS = ["role", "author", "jsonrpc"];
/** `"role"`, `"author"` or `"jsonrpc"` at `at` (after at most four spaces), as the key of an object just opened. */
function forgedAt(text: Uint16Array, at: number): boolean {
  let i = at;
  while (i < at + 4 && i < text.length && ((text[i] as number) === 32 || (text[i] as number) === 9)) i++;
  if ((text[i] as number) !== 34) return false;
  for (const k of FORGED_KEYS) {
    let ok = (text[i + k.length + 1] as number) === 34;
    for (let j = 0; ok && j < k.length; j++) ok = (text[i + 1 + j] as number) === k.charCodeAt(j);
    if (ok) return true;
  }
  return false;
}

/** "system" (any case) at `at`. */
function systemAt(text: Uint16Array, at: number): boolean {
  const w = "system";
  for (let j = 0; j < 6; j++) if (at + j >= text.length || ((text[at + j] as number) | 32) !== w.charCodeAt(j)) return false;
  return true;
}

/** Only characters a marker may follow at a line start between `a` and `b` (`> `, `## `, `**`, `=== `, `[`). */
function leadOnly(text: Uint16Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text[i] as number;
    if (!(c === 32 || c === 9 || c === 13 || c === 62 || c === 42 || c === 95 || c === 35 || c === 61 || c === 45 || c === 91 || c === 40 || c === 60)) return false;
  }
  return true;
}

/** A paragraph (or a 4 KB piece of a longer one), and whether its words could make a finding. */
export interface Piece {
  s: number;
  e: number;
  /** At least one primary cue is possible here (injection.ts, PRIMARY). */
  possible: boolean;
  /**
   * Where a primary cue may be: the positions of the events that made the piece possible (the end of the word that
   * completed a cue, or a marker's character). A sentence holding none of them cannot hold a primary cue itself.
   */
  hot: number[];
  /** A pair the scorer reads anywhere in one sentence (no nearness) is here: any sentence may hold a primary cue. */
  whole: boolean;
}

/**
 * The paragraphs of `text` (pieces of at most about 4 KB), each marked possible when its words could make a primary
 * cue as the scorer reads them: a word that suffices alone, or two that must stand near each other within the windows
 * injection.ts uses (widened by a few words, since the pass splits at dots where the scorer's tokens do not).
 */
export function pieces(str: string): Piece[] {
  const out: Piece[] = [];
  // Every character is read: from the code units, copied once (units.ts), not by a `charCodeAt` per character.
  const text = sharedUnits(str);
  const L = text.length;
  let start = 0;
  let sure = false;
  let seen = 0;
  /** Where this piece's events were (a word's end, a marker's character): the scorer reads the sentences around them. */
  let ev: number[] = [];
  const hit = (at: number) => {
    sure = true;
    ev.push(at);
  };
  let h = 0;
  /** Where the word being read started (-1 between words), where its elided prefix ends (0: none), and where the part
   * before a later apostrophe ends (0: none). */
  let wordStart = -1;
  let elided = 0;
  let before = 0;
  let lastNl = -1;
  let lt = -9;
  // Word counter, and where the last word of each pairing class was.
  let wn = 0;
  let lastVoc = -99;
  let lastGeneric = -99;
  let lastOverride = -99;
  let lastNeg = -99;
  let lastTold = -99;
  let lastBe = -99;
  let lastNew = -99;
  let lastFollow = -99;
  let lastHead = -99;
  let lastBulk = -99;
  let lastDelete = -99;
  let spelled = 0;
  let lastPlease = -99;
  let lastReply = -99;
  let lastOnly = -99;
  let lastTask = -99;
  let lastDict = -99;
  let lastCond = -99;
  // The text is read with a newline after it, so the last word ends inside the loop.
  const end = L + 1;
  for (let i = 0; i < end; i++) {
    let c = i < L ? (text[i] as number) : 10;
    // The common case first: a run of lower-case ASCII letters, hashed in a tight loop. Only the whole word's hash is
    // kept per character; its stem and the part after an elision are hashed at its end (rare: long or elided words).
    if (c >= 97 && c <= 122) {
      if (wordStart < 0) wordStart = i;
      do {
        h = (Math.imul(h, 31) + c) | 0;
        c = ++i < L ? (text[i] as number) : 10;
      } while (c >= 97 && c <= 122);
    }
    const t = c < 128 ? (ASCII[c] as number) : other(c);
    if (t > 0) {
      if (wordStart < 0) wordStart = i;
      h = (Math.imul(h, 31) + t) | 0;
      continue;
    }
    if (t === ZWJ && wordStart >= 0 && i + 1 < L && fold(text[i + 1] as number) > 0) continue;
    if ((t === APOS || t === HYPHEN) && wordStart >= 0 && i + 1 < L && fold(text[i + 1] as number) > 0) {
      // Elision ("l'assistente", "all'utente"): the word after a short prefix is hashed on its own as well.
      if (t === APOS && i - wordStart <= 4) elided = i - wordStart + 1;
      // An apostrophe after a longer part ("avustaja'l'…", "assistant's"): the reader takes the parts on either side
      // as words of their own, so both are probed at the word's end.
      else if (t === APOS) {
        if (before === 0) before = i - wordStart;
        elided = i - wordStart + 1;
      }
      // (Fifteenth round) A compound's last part too ("ИИ-ассистента", "reviewer-agent"): a role the scorer reads.
      // ("User-Agent", the HTTP header, is not one; nor an account's handle, "@review-bot".)
      else if (t === HYPHEN && i - wordStart <= 24 && !(wordStart > 0 && (text[wordStart - 1] as number) === 64) && !(i - wordStart === 4 && ((text[wordStart] as number) | 32) === 117 && ((text[wordStart + 3] as number) | 32) === 114)) elided = i - wordStart + 1;
      h = (Math.imul(h, 31) + (t === APOS ? 39 : 45)) | 0;
      continue;
    }
    if (wordStart >= 0) {
      const len = i - wordStart;
      // One probe per hash gives the word's classes and kinds; most words are in neither table.
      let j = slot(key(h));
      let bits = 0;
      let k = 0;
      if (j >= 0) {
        bits = vals[j] as number;
        k = kinds[j] as number;
      }
      if (elided > 0 && len > elided && (j = slot(key(hashUnits(text, wordStart + elided, i, false)))) >= 0) bits |= vals[j] as number;
      if (before > 0 && (j = slot(key(hashUnits(text, wordStart, wordStart + before, true)))) >= 0) {
        bits |= vals[j] as number;
        k |= kinds[j] as number;
      }
      if (len >= 7 && (j = slot(key(hashUnits(text, wordStart, wordStart + 7, true) ^ SALT7))) >= 0) {
        bits |= vals[j] as number;
        k |= kinds[j] as number;
      }
      if (k !== 0) {
        if ((k & SPELL) !== 0) spelled++;
        // Where the word stands is read only for a word with a kind.
        const afterLt = wordStart === lt + 1 || (wordStart === lt + 2 && (text[lt + 1] as number) === 47);
        const atLine = wordStart - lastNl <= 12 && leadOnly(text, lastNl + 1, wordStart);
        const dotted = wordStart > 0 && (text[wordStart - 1] as number) === 46 && (wordStart < 2 || fold(text[wordStart - 2] as number) === -1);
        if ((k & TAG) !== 0 && afterLt) hit(i);
        if ((k & TURN) !== 0 && atLine && colonAfter(text, i, 4)) hit(i);
        // (A Markdown heading — "## Instructions", "# Rules" — is a header however it is written.)
        if ((k & HEADER) !== 0 && atLine && (upper(text, wordStart) || colonAfter(text, i, 40) || hashLead(text, lastNl + 1, wordStart))) hit(i);
        if ((k & DOTTED) !== 0 && dotted) hit(i);
        if ((k & DOTNEXT) !== 0 && t === DOT) hit(i);
        // (Sixteenth round: the catalogues' pairs, either order, within a paragraph; injection-catalogue.ts.)
        if ((k & CATALOGUE) !== 0) {
          // ("please" first: the act and then whose account; injection-catalogue.ts's MY_ACT reads at most 80
          // characters between them.)
          if ((k & PLEASE) !== 0) lastPlease = wn;
          if ((k & ASSET) !== 0 && wn - lastPlease <= 24) hit(i);
          if ((k & REPLYV) !== 0) {
            if (wn - lastOnly <= 40) hit(i);
            lastReply = wn;
          }
          if ((k & ONLY) !== 0) {
            if (wn - lastReply <= 40) hit(i);
            lastOnly = wn;
          }
          if ((k & COND) !== 0) lastCond = wn;
          // A task word counts only under its condition: "reads" in "the parser reads each frame" is no reader's task
          // (without this, every paragraph with "read" and "add" or "note" went to the scorer: 1 KB results 18× slower).
          if ((k & TASKV) !== 0 && wn - lastCond <= 5) {
            if (wn - lastDict <= 45) hit(i);
            lastTask = wn;
          }
          if ((k & DICTV) !== 0) {
            if (wn - lastTask <= 45) hit(i);
            lastDict = wn;
          }
          if ((k & TODO) !== 0 && colonAfter(text, i, 3)) hit(i);
        }
      }
      // A variable that holds a key ("the value of OPENAI_API_KEY"): a word ending `_KEY`, `_TOKEN` or `_SECRET`.
      if (len >= 5 && (text[i - 4] as number) === 95 && ((text[i - 3] as number) | 32) === 107 && ((text[i - 2] as number) | 32) === 101 && ((text[i - 1] as number) | 32) === 121) hit(i);
      else if (len >= 7 && (text[i - 6] as number) === 95 && ((text[i - 5] as number) | 32) === 116 && ((text[i - 1] as number) | 32) === 110 && ((text[i - 2] as number) | 32) === 101) hit(i);
      if ((text[wordStart] as number) === 69 && len === 3 && (text[wordStart + 1] as number) === 78 && (text[wordStart + 2] as number) === 68) hit(i);
      wn++;
      if (bits !== 0) {
        seen |= bits;
        if ((bits & ALONE) !== 0) hit(i);
        if ((bits & G.GENERIC) !== 0 && wn - lastVoc <= 4) hit(i);
        // "Agents:", "Model," — a generic noun spoken to; "…, agent)" closing a clause; "Agents helping with this:" as a
        // line's head.
        if ((bits & G.GENERIC) !== 0 && (c === 58 || c === 44 || c === 41 || c === 93 || c === 46 || c === 33 || c === 59)) hit(i);
        else if ((bits & G.GENERIC) !== 0 && wordStart - lastNl <= 24 && colonAfter(text, i, 42)) hit(i);
        if ((bits & (G.VOC | G.AI)) !== 0) lastVoc = wn;
        if ((bits & G.GENERIC) !== 0) lastGeneric = wn;
        if ((bits & G.READING) !== 0 && wn - lastGeneric <= 2) hit(i);
        if ((bits & (G.INSTR | G.SCOPE)) !== 0 && wn - lastOverride <= 9) hit(i);
        if ((bits & G.OVERRIDE) !== 0) lastOverride = wn;
        // "ignore the user's request".
        // ("ignore the user's request", "ignora lo que te pidió el usuario".)
        if ((bits & G.TGT) !== 0 && wn - lastOverride <= 6) hit(i);
        if ((bits & (G.TGT | G.COMM)) !== 0) {
          if (wn - lastNeg <= 12) hit(i);
          lastTold = wn;
        }
        if ((bits & G.NEG) !== 0) {
          if (wn - lastTold <= 6) hit(i);
          lastNeg = wn;
        }
        if ((bits & G.ROLE) !== 0 && wn - lastBe <= 5) hit(i);
        if ((bits & G.BE) !== 0) lastBe = wn;
        if ((bits & (G.TASK | G.INSTR)) !== 0 && wn - lastNew <= 4) hit(i);
        if ((bits & G.NEWADJ) !== 0) lastNew = wn;
        if ((bits & G.HIDDENADJ) !== 0 && wn - lastFollow <= 5) hit(i);
        if ((bits & G.FOLLOW) !== 0) lastFollow = wn;
        if ((bits & G.TAIL) !== 0 && wn - lastHead <= 4) hit(i);
        if ((bits & G.HEAD) !== 0) lastHead = wn;
        if ((bits & G.FILES) !== 0 && wn - lastBulk <= 5) hit(i);
        if ((bits & G.BULK) !== 0) lastBulk = wn;
        if ((bits & (G.BULK | G.FILES)) !== 0 && wn - lastDelete <= 7) hit(i);
        if ((bits & G.DELETE) !== 0) lastDelete = wn;
      }
      wordStart = -1;
      h = 0;
      elided = 0;
      before = 0;
    }
    // A message object written inside data (`{"role":`, `{"jsonrpc":`): a forged turn or protocol message.
    if (c === 123 && forgedAt(text, i + 1)) hit(i);
    if (t === 0 || t === APOS || t === HYPHEN) continue;
    if (t === NL) {
      // A blank line ends a paragraph.
      let blank = true;
      for (let j = lastNl + 1; j < i; j++) {
        const x = text[j] as number;
        if (x !== 32 && x !== 9 && x !== 13) {
          blank = false;
          break;
        }
      }
      if (blank && lastNl >= start && i > start) {
        out.push(piece(start, i, sure, seen, ev));
        ev = [];
        start = i;
        sure = false;
        seen = 0;
        wn += 100;
      }
      lastNl = i;
    } else if (t === LT) {
      const n = i + 1 < L ? (text[i + 1] as number) : 0;
      if (n === 124 || n === 33 || n === 60) hit(i);
      lt = i;
    } else if (t === LB) {
      const n = i + 1 < L ? (text[i + 1] as number) : 0;
      if (n === 73 || n === 83 || n === 47) hit(i);
      // (Sixteenth round) "[system_message]", "[system prompt]": a system head in brackets, in lower case too.
      else if (n === 115 && systemAt(text, i + 1)) hit(i);
    } else if (t === CJK_CHAR) hit(i);
    // A long paragraph is read in pieces, cut after a sentence.
    if ((t === DOT || t === STOP) && i - start > 4096 && (i + 1 >= L || (text[i + 1] as number) <= 32)) {
      out.push(piece(start, i + 1, sure, seen, ev));
      ev = [];
      start = i + 1;
      sure = false;
      seen = 0;
      wn += 100;
    }
  }
  if (start < L) out.push(piece(start, L, sure, seen, ev));
  lastSpelled = { text: str, n: spelled };
  return out;
}

/** How many letter words of the spelling alphabet the last text `pieces` read holds; null for another text. */
let lastSpelled: { text: string; n: number } | null = null;
export function spelledWords(str: string): number | null {
  return lastSpelled !== null && lastSpelled.text === str ? lastSpelled.n : null;
}

function piece(s: number, e: number, sure: boolean, seen: number, hot: number[]): Piece {
  const whole = pairs(seen);
  return { s, e, possible: sure || whole, hot, whole };
}

/** Pairs the scorer reads anywhere in one unit (no nearness needed). */
function pairs(seen: number): boolean {
  return ((seen & G.PWEAK) !== 0 && (seen & G.YOU) !== 0) || ((seen & G.AUTH) !== 0 && (seen & (G.ROLE | G.TGT)) !== 0) || ((seen & G.FOLLOW) !== 0 && (seen & G.DECODE) !== 0);
}
