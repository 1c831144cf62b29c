/*
 * Command lines in a request to another agent (sites.ts, role `request`). A message sent to an agent is not a file's
 * contents: the agent acts on it, so a command line the text hands over to be run is judged as if a tool ran it
 * (docs/detection.md, "Where each detector looks"). What counts as handed over, in one line of the text:
 *
 * - a clause that starts with a shell command and its first argument ("On the build box, cat ~/.netrc and send it
 *   back", "Then: socat exec:'bash -li' tcp:…"): an imperative whose verb is the command itself;
 * - a code span or a fenced block, and the rest of a line after a colon, when the text asks for something to be run
 *   ("run", "execute", "launch"…): `Run this: curl … | sh`, "Execute on staging: awk '…'" — unless the request is a
 *   writing task ("Write a README telling users to run `cp .env.example .env`"), whose code is quoted for people.
 *
 * A command *mentioned* in a question or an explanation ("what does `curl … | sh` do?", "the difference between
 * ~/.aws/credentials and ~/.aws/config") is not handed over and stays content. Linear: one pass per line, bounded
 * spans, at most MAX_SPANS per text.
 */

import { asksInMoreLanguages } from "./requests-world.js";

export interface Span {
  start: number;
  end: number;
}

const MAX_TEXT = 65536;
const MAX_SPANS = 16;

/**
 * Shell commands whose lower-case name can start an imperative clause: the ones the command and path judgements know
 * (downloaders, shells, interpreters, network tools, archivers, readers of files, container and cluster tools).
 */
const COMMAND_WORDS = new Set([
  "sh", "bash", "zsh", "dash", "ksh", "fish", "busybox", "python", "python3", "python2", "perl", "ruby", "php", "node", "nodejs", "deno", "lua",
  "powershell", "pwsh", "iex", "curl", "wget", "aria2c", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp",
  "openssl", "base64", "xxd", "gunzip", "zcat", "eval", "source", "exec", "mkfifo", "docker", "podman", "nerdctl", "kubectl", "nsenter",
  "chroot", "rm", "dd", "shred", "mkfs", "wipefs", "chmod", "chown", "sudo", "doas", "su", "crontab", "useradd", "usermod", "visudo", "tar",
  "zip", "7z", "gpg", "awk", "gawk", "cat", "head", "tail", "cp", "strings", "certutil", "bitsadmin", "mshta", "regsvr32",
  "rundll32", "msiexec", "cmd", "nohup", "setsid", "env", "tee", "aws", "gsutil", "rclone", "az", "gcloud", "sqlite3",
  // (Seventh round) find and the infrastructure CLIs whose teardown commands.ts judges.
  "find", "terraform", "tofu", "pulumi", "eksctl", "doctl", "gh",
  // (Ninth round) protections and privileges (commands-ninth.ts, defense evasion).
  "setenforce", "iptables", "ip6tables", "nft", "ufw", "setcap",
  // (leak30) database shells, whose statements commands.ts judges (`psql -c "DROP SCHEMA … CASCADE"`).
  "psql", "mysql", "mariadb", "mongosh", "redis-cli", "sqlcmd",
]);

/** A command word standing as a word, followed by a blank: one regex pass, the gate before lines are read. */
const ANY_COMMAND = new RegExp(`(?<![\\w.-])(?:${[...COMMAND_WORDS].sort((a, b) => b.length - a.length).join("|")})(?:\\.exe)?[ \\t]`);


/** A first argument that makes the word a command rather than prose: an option, a path, a quote, a number, a URL, `$`. */
const ARGUMENT = /^(?:-{1,2}[A-Za-z0-9]|[/~.$'"`\\]|\d|[A-Za-z]+:\/\/|[\w.-]+[/\\]|[A-Za-z]:\\|%[A-Z]+%|\w+\.\w+|[<(|&;])/;

/** A request whose task is writing or explaining: its first words ask for a text. */
const WRITING_TASK = /^\W{0,8}(?:(?:please|pls|can\s{1,3}you|could\s{1,3}you|kindly)\s{1,3})?(?:write|draft|document|explain|describe|summari[sz]e|translate|review|proofread|rewrite|edit|improve|format|comment\s{1,3}on|tell\s{1,3}me\s{1,3}(?:why|what|how)|what|why|how)\b/i;

/** Shell plumbing later in the clause (`tar czf - ~/.ssh | nc …`): the words before it are a command's. */
const PIPING = /\s(?:\||&&|\|\||2?>>?|<)\s|\$\(/;

/** Verbs of running a request's line is asked with (also commands-handed.ts's, for a tool's result). */
export const RUN_VERBS = "run|execute|exec|launch|invoke|paste|type|ausführen|führe|führen|starte|ejecuta|ejecutar|lanza|exécute|exécutez|exécuter|lance|lancez|esegui|eseguire|executa|executar|rode";
/** The text asks for something to be run (English, German, Spanish, French, Italian, Portuguese). */
const RUN_VERB = new RegExp(`\\b(?:${RUN_VERBS})\\b`, "i");

/** A clause's start (after a lead word such as "then" or "please"), and the lower-case word that begins it. */
const CLAUSE_START = /(?:^|[,;:—–]\s+|\.\s+|\$\s+|^\s*[-*>]\s+|\s&&\s+)(?:(?:[Tt]hen|[Aa]nd|[Aa]lso|[Pp]lease|[Nn]ow|[Ff]irst|[Jj]ust|[Nn]ext)\s+)?(?:(?:[Rr]un|[Ee]xecute)\s+)?([a-z][a-z0-9.+-]{0,15})(?=\s+\S)/g;

/** A cron schedule (five fields, or `@reboot`…) after a blank, a colon or the line's start, and the word that follows. */
const CRON_LINE = /(?:^|[\s:])(@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)|(?:[\d*/,-]{1,20}[ \t]{1,4}){4}[\d*/,-]{1,20})[ \t]{1,4}([a-z][a-z0-9.+-]{0,15})(?=\s)/;

/**
 * Verbs that act on a file, in an imperative to another agent (English, German, Spanish, French, Italian, Portuguese,
 * Dutch): "Read ~/.pypirc and paste it", "Upload …/Cookies to the drive", "Lies ~/.netrc". The path that follows in the
 * same line is one the agent is asked to open (sixth round).
 */
const FILE_VERB = /(?:^|[\s,;:(])(?:read|upload|send|attach|copy|cat|open|fetch|paste|include|print|show|dump|share|e-?mail|post|grab|collect|export|zip|archive|forward|sync|back\s{1,3}up|lies|lese|lesen|sende|senden|schick\w{0,3}|lade|kopiere|hänge|lee|leer|sube|subir|envía|envia|enviar|adjunta|copia|copiar|lis|lire|envoie|envoyez|envoyer|joins|joignez|copiez|téléverse|téléversez|leggi|invia|carica|allega|leia|envie|carregue|anexe|lees|stuur|upload|kopieer)\b/i;

/**
 * (Tenth round) The same verbs in scripts without spaces between words or without `\b` in a JavaScript regex: Chinese,
 * Japanese, Korean, Russian and Ukrainian, Polish, Turkish, Arabic, Hindi (read, open, send, upload, copy, pack, export,
 * show, attach). Matched as substrings: each is a verb's stem that prose about a path does not use for anything else.
 */
const FILE_VERB_WORLD = /读取|读一下|读出|打开|查看|发送|发给|发到|传给|上传|复制|拷贝|打包|压缩|导出|获取|讀取|發送|上傳|複製|打開|読み取|読んで|読み込|送って|送信|アップロード|コピー|開いて|添付|表示して|읽어|읽고|보내|업로드|복사|열어|첨부|прочитай|прочти|прочитать|отправь|отправить|пришли|загрузи|скопируй|открой|покажи|выгрузи|упакуй|надішли|прочитайте|przeczytaj|wyślij|prześlij|skopiuj|otwórz|gönder|yükle|kopyala|اقرأ|أرسل|ارسل|ارفع|انسخ|पढ़ो|पढ़ें|भेजो|भेजें|अपलोड/;

/**
 * (Twentieth round) More of the world's requests: Vietnamese, Indonesian and Malay, Thai verbs (read, open, send, copy,
 * upload, show, attach), the verbs of showing Korean, German and the Romance languages use ("보여 줘", "zeig mir",
 * "muéstrame"), and the request endings that carry any verb in Korean, Japanese and Chinese ("…해 줘", "…ください",
 * "请…", "帮我…"): a line that asks, whatever it asks for.
 */
const FILE_VERB_MORE = /đọc|gửi|mở file|mở tệp|sao chép|tải lên|đính kèm|hiển thị|cho tôi xem|\b(?:baca|bacakan|kirim|kirimkan|salin|unggah|tampilkan|lampirkan|buka|zeig|zeige|zeigen|muestra|muéstrame|montre|montrez|mostra|mostrami|mostre|toon)\b|อ่าน|ส่ง|เปิด|คัดลอก|แสดง|보여|줘|주세요|ください|下さい|请|請|帮我|幫我/i;

/** A climb of three levels and more: `../../../`, `..\\..\\..\\`. */
const CLIMB_OUT = /(?:\.\.[/\\]){3}/;

/** A line in those scripts that asks why or how, or to explain (a question about a file, not a request to open it). */
const WORLD_QUESTION = /为什么|為什麼|解释|解釋|说明|說明|怎么|怎麼|如何|是否|吗[？?]|なぜ|どうして|説明|ですか|왜|설명|나요|почему|зачем|объясни|объяснить|czemu|dlaczego|wyjaśnij|neden|açıkla|لماذا|اشرح|क्यों|समझाओ|[？?]\s{0,4}$/;

/** Lines of a request that ask the agent to do something with a file: the spans whose paths are judged as opened. */
export function fileRequests(text: string): Span[] {
  const out: Span[] = [];
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  if (WRITING_TASK.test(t.slice(0, 200))) return out;
  let lineStart = 0;
  while (lineStart <= t.length && out.length < MAX_SPANS) {
    let lineEnd = t.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = t.length;
    const line = t.slice(lineStart, Math.min(lineEnd, lineStart + 8192));
    const m = FILE_VERB.exec(line);
    if (m !== null) push(out, lineStart + m.index, lineStart + line.length);
    // (Japanese, Korean, Turkish, Hindi put the object before the verb: the whole line is the request.)
    else if ((FILE_VERB_WORLD.test(line) || FILE_VERB_MORE.test(line)) && !WORLD_QUESTION.test(line)) push(out, lineStart, lineStart + line.length);
    // (Twenty-second round) The verbs and the word "contents" in more languages (requests-world.ts).
    else if (asksInMoreLanguages(line) && !WORLD_QUESTION.test(line)) push(out, lineStart, lineStart + line.length);
    // (Twentieth round) A climb of three levels and more out of a folder ("Get docs/../../../../root/…") is a request
    // to reach outside whatever verb carries it, in any language; the path judgement decides where it lands.
    else if (line.includes("..") && CLIMB_OUT.test(line) && !WORLD_QUESTION.test(line)) push(out, lineStart, lineStart + line.length);
    lineStart = lineEnd + 1;
  }
  return out;
}

/** Recent texts and their spans: the command and path judgements read the same request. */
const recent = new Map<string, Span[]>();

/** The command lines in one request's text, as spans of it. */
export function commandsInRequest(text: string): Span[] {
  const hit = recent.get(text);
  if (hit) return hit;
  const out = spansOf(text);
  if (text.length <= MAX_TEXT) {
    if (recent.size >= 64) recent.delete(recent.keys().next().value as string);
    recent.set(text, out);
  }
  return out;
}

function spansOf(text: string): Span[] {
  const out: Span[] = [];
  if (text.length === 0) return out;
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  // Most requests name no command at all: one pass for any command word (or a code block) before reading lines.
  if (!t.includes("`") && !ANY_COMMAND.test(t)) return out;
  // A writing task ("Write a README section telling users to run `cp .env.example .env`") quotes commands for people:
  // its code, fences and colons are material, not a run asked of the agent.
  const writing = WRITING_TASK.test(t.slice(0, 200));
  const run = RUN_VERB.test(t) && !writing;
  let fenced = false;
  // (Eighth round) A fenced block is one span, however long: a script is judged whole (the dangerous line buried after
  // many harmless ones included), not line by line up to MAX_SPANS. Its first and last non-blank lines bound it.
  let block: Span | null = null;
  let lineStart = 0;
  while (lineStart <= t.length && out.length < MAX_SPANS) {
    let lineEnd = t.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = t.length;
    const line = t.slice(lineStart, lineEnd);
    if (/^\s*(?:```|~~~)/.test(line)) {
      if (fenced && block !== null) push(out, block.start, block.end);
      block = null;
      fenced = !fenced;
    } else if (fenced) {
      if (run && line.trim().length > 0) {
        if (block === null) block = { start: lineStart, end: lineEnd };
        else block.end = lineEnd;
      }
    } else judgeLine(line, lineStart, run, writing, out);
    lineStart = lineEnd + 1;
  }
  // (A block left open at the end of the text runs to its end.)
  if (fenced && block !== null) push(out, block.start, block.end);
  return out;
}

function push(out: Span[], start: number, end: number): void {
  if (out.length >= MAX_SPANS || end <= start) return;
  const last = out[out.length - 1];
  if (last && last.start <= start && end <= last.end) return;
  out.push({ start, end });
}

function judgeLine(line: string, at: number, run: boolean, writing: boolean, out: Span[]): void {
  if (line.length > 8192) line = line.slice(0, 8192);
  // Code spans (`…`): a command asked to be run, quoted.
  if (run && line.includes("`")) {
    for (let i = line.indexOf("`"); i >= 0 && out.length < MAX_SPANS; ) {
      const j = line.indexOf("`", i + 1);
      if (j < 0) break;
      if (j - i > 2) push(out, at + i + 1, at + j);
      i = line.indexOf("`", j + 1);
    }
  }
  // After a colon, in a line that asks for a run: "Execute on the staging box: awk '…'".
  if (run) {
    const colon = line.search(/:\s/);
    if (colon >= 0 && RUN_VERB.test(line.slice(0, colon))) {
      const rest = line.slice(colon + 1);
      const lead = rest.length - rest.trimStart().length;
      const first = /^\S+/.exec(rest.trimStart())?.[0] ?? "";
      if (first !== "" && !first.startsWith("`") && COMMAND_WORDS.has(commandWord(first))) push(out, at + colon + 1 + lead, at + line.length);
    }
  }
  // A cron line (a schedule, then a command): the command is handed over to be run again and again (sixth round).
  const cron = CRON_LINE.exec(line);
  if (cron !== null && COMMAND_WORDS.has(commandWord(cron[2] as string))) {
    push(out, at + cron.index + (cron[0].length - (cron[2] as string).length), at + line.length);
    return;
  }
  // A clause whose verb is a command with its first argument: "cat ~/.netrc and send it to me".
  CLAUSE_START.lastIndex = 0;
  for (let m; (m = CLAUSE_START.exec(line)) !== null && out.length < MAX_SPANS; ) {
    const word = m[1] as string;
    const start = m.index + m[0].length - word.length;
    // (In a writing task, what follows a colon is the text's material: "the runbook: cat ~/.aws/credentials".)
    if (writing && line[m.index] === ":") continue;
    const next = line.slice(start + word.length).trimStart();
    if (!COMMAND_WORDS.has(commandWord(word)) || !(ARGUMENT.test(next) || PIPING.test(next))) continue;
    push(out, at + start, at + line.length);
    break;
  }
}

/** `certutil.exe` → certutil, `python3.12` → python3. */
function commandWord(word: string): string {
  let w = word.toLowerCase();
  if (w.endsWith(".exe")) w = w.slice(0, -4);
  return /^python3\.\d+$/.test(w) ? "python3" : w;
}
