import { INSTRUCTION, MESSAGE } from "./injection-asides.js";

/*
 * Twenty-seventh round ("inj27"): a banner that announces an authority's voice, in any language. Returned data (a
 * tool's result, a remote agent's reply, its streamed status, an artifact) that, after its own content, puts a line
 * that is nothing but a framed label naming the system, an operator, an administrator or a developer — "### OPERATØR
 * ###", "=== SYSTEM NOTICE (priority override) ===", "*** SİSTEM MESAJI ***", "[SYSTÈME]", "### புதிய கணினி
 * அறிவுறுத்தல் ###" — fakes the data's end and a new speaker above the reader: what follows reads as that voice's order.
 * The scorer knew such banners only in English words (BANNER, HEADER_LINE); in the open sets the same structure recurs
 * from the seventh round to the seventieth in a dozen languages, and the ones whose body the lexicon cannot read went
 * through.
 *
 * `roleBanners(text, s, e)` finds, in a region, the lines that are such a banner:
 * - framed: a run of two or more of the same mark (#, =, *, -, ~) on both sides, or square brackets around the line;
 * - a label of at most 8 words (words in parentheses aside: "(BRS v9 policy engine)") holding an authority's name —
 *   system, operator, administrator, developer in the world's main languages (by stem where they inflect: "SYSTÉMOVÁ",
 *   "СИСТЕМНОЕ") — and otherwise only message or instruction words ("notice", "zpráva", "अनुदेश"), "new", "priority",
 *   "update", "override" and linking words;
 * - written as a banner is: in a script with case, the authority's name in capitals ("*** System restart required ***",
 *   Ubuntu's login notice, is a sentence; "--- processing operator remark ---" a section);
 * - standing after other text (a banner that opens a text is its title) — or anywhere in a remote agent's reply, whose
 *   streamed status or artifact is the agent speaking: a status that opens "### OPERATØR ###" is a voice faked mid-stream
 *   — and before a line of text.
 * The caller (injection.ts `markers`) counts the banner as a header (2.5) and as a faked end (`after_marker`, 1.5) over
 * the paragraph after it; the paragraph must still ask something (any request) for a finding, so a banner before data
 * ("=== SYSTEM ===\nOS: Ubuntu 24.04") adds nothing.
 *
 * Left alone: banners of anything else ("=== Application Startup ===", "--- page 3 ---", "=== short test summary ==="),
 * a label with other words ("### SYSTEM REQUIREMENTS ###"), a speaker's label before chat text ("[Opérateur] Je regarde
 * ça."), and a banner in a fenced code block shown by a text about attacks (the caller's rule).
 *
 * Linear: one pass over the region's lines; a line is read only when it starts with a mark and is at most 160 long.
 */

/** An authority's name, read whole or by stem (lower case). */
const ROLE_WORDS = new Set([
  "system", "systems", "sistem", "sistema", "systeem", "système", "systeme", "systém", "systému", "süsteem", "sistēma", "sistemos", "järjestelmä", "rendszer",
  "kerfi", "system", "σύστημα", "συστήματος", "система", "системы", "системи", "систем", "системно", "سیستم", "النظام", "نظام", "מערכת", "המערכת",
  "सिस्टम", "प्रणाली", "সিস্টেম", "ব্যবস্থা", "சிஸ்டம்", "அமைப்பு", "கணினி", "సిస్టమ్", "സിസ്റ്റം", "ಸಿಸ್ಟಮ್", "સિસ્ટમ", "ਸਿਸਟਮ", "mfumo", "sisitemu",
  "operator", "operators", "operatør", "operatör", "operador", "opérateur", "operatore", "operátor", "operaattori", "oператор", "оператор", "оператора",
  "اپراتور", "مشغل", "المشغل", "מפעיל", "ऑपरेटर", "অপারেটর", "ஆபரேட்டர்", "ఆపరేటర్", "ഓപ്പറേറ്റർ", "mwendeshaji",
  "admin", "administrator", "administrador", "administrateur", "amministratore", "administrátor", "ylläpitäjä", "yönetici", "админ", "администратор",
  "адміністратор", "ادمین", "مدیر", "المسؤول", "מנהל", "एडमिन", "प्रशासक", "অ্যাডমিন", "நிர்வாகி", "నిర్వాహకుడు", "msimamizi", "quản",
  "developer", "developers", "entwickler", "desarrollador", "développeur", "sviluppatore", "desenvolvedor", "ontwikkelaar", "utvecklare", "udvikler",
  "utvikler", "deweloper", "vývojář", "geliştirici", "разработчик", "розробник", "توسعه‌دهنده", "المطور", "מפתח", "डेवलपर", "டெவலப்பர்",
]);
/** Stems of the same names in languages that inflect them ("systémová", "systemowy", "системное", "sistemului"). */
const ROLE_STEMS = ["system", "sistem", "systém", "систем", "operátor", "operator", "оператор", "administr", "администр", "адміністр"];
/** Names written without spaces around them (Thai, Chinese, Japanese, Korean): found inside the label. */
const ROLE_INSIDE = ["ระบบ", "ผู้ดูแล", "โอเปอเรเตอร์", "系统", "系統", "システム", "管理员", "管理者", "操作员", "オペレーター", "개발자", "시스템", "관리자", "운영자", "開発者", "开发者", "hệ thống"];
/** Other words a banner holds: new, priority, update, override, urgent, important, linking words, in the main languages. */
const BANNER_WORDS = new Set([
  "new", "priority", "update", "updated", "override", "urgent", "important", "policy", "alert", "from", "the", "to", "for", "of", "and", "mode",
  "neue", "neu", "wichtig", "dringend", "nueva", "nuevo", "nuevas", "nuevos", "urgente", "prioritario", "prioritaria", "nouvelle", "nouveau", "nouvelles",
  "prioritaire", "nuova", "nuovo", "nova", "novo", "novas", "nieuwe", "nye", "ny", "nya", "uusi", "nowa", "nowe", "nový", "nová", "nové", "новое", "новая",
  "новые", "нове", "нова", "нові", "yeni", "baru", "mới", "नया", "नई", "নতুন", "புதிய", "కొత్త", "mpya", "جدید", "جديد", "חדש", "חדשה",
  "del", "de", "da", "du", "des", "der", "des", "van", "von", "для", "від", "от", "dari", "từ", "से", "கணினி",
  "zpráva", "zprávy", "správa", "wiadomość", "komunikat", "повідомлення", "сообщение", "mesaj", "mesajı", "mesaji", "mensaje", "message", "meddelelse", "melding",
  "meddelande", "viesti", "üzenet", "μήνυμα", "پیام", "رسالة", "הודעה", "संदेश", "বার্তা", "செய்தி", "సందేశం", "ujumbe", "pesan", "tin",
  "அறிவுறுத்தல்", "அறிவிப்பு", "निर्देश", "অনুদেশ", "নির্দেশ", "సూచన", "maagizo", "maelekezo", "dastur", "دستور", "تعليمات", "הוראות", "hướng", "dẫn",
  "hệ", "thống", "besked", "beskjed", "ilmoitus", "közlemény", "uyarı", "talimat", "talimatı", "pengumuman", "thông", "báo",
]);

/** A mark that frames a banner. */
function isMark(c: number): boolean {
  return c === 35 || c === 61 || c === 42 || c === 45 || c === 126;
}

function isRole(w: string, raw: string): boolean {
  let role = ROLE_WORDS.has(w);
  if (!role) for (const s of ROLE_STEMS) if (w.startsWith(s) && w.length <= s.length + 6) role = true;
  if (!role) return false;
  // (In a script with case, a banner's name is in capitals.)
  return raw.toUpperCase() === raw;
}

/** The label of a framed line (its inside), or null. `line` is trimmed. */
function framedLabel(line: string): string | null {
  const n = line.length;
  if (n < 4) return null;
  const a = line.charCodeAt(0);
  if (a === 91) return line.charCodeAt(n - 1) === 93 ? line.slice(1, n - 1) : null;
  if (!isMark(a)) return null;
  let i = 0;
  while (i < n && line.charCodeAt(i) === a) i++;
  let j = n;
  while (j > i && line.charCodeAt(j - 1) === a) j--;
  if (i < 2 || n - j < 2 || j <= i) return null;
  return line.slice(i, j);
}

/** Whether a framed label names an authority and holds nothing else but banner words (see the header). */
export function roleLabel(label: string): boolean {
  let depth = 0;
  let bare = "";
  for (const ch of label) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) bare += ch;
  }
  // (Turkish "İ" lowers to "i" and a combining dot: the dot is dropped.)
  const lower = bare.toLowerCase().replace(/\u0307/g, "");
  let role = ROLE_INSIDE.some((x) => lower.includes(x));
  const raws = bare.split(/[\s:—–,|/]+/).filter((x) => x !== "" && x !== "-");
  if (raws.length === 0 || raws.length > 8) return false;
  let others = 0;
  for (const raw of raws) {
    const w = raw.toLowerCase().replace(/\u0307/g, "");
    if (isRole(w, raw)) role = true;
    else if (!BANNER_WORDS.has(w) && !MESSAGE.has(w) && !INSTRUCTION.has(w) && !/^[\d.v]{1,8}$/.test(w) && !ROLE_INSIDE.some((x) => w.includes(x))) others++;
  }
  return role && others === 0;
}

/** The role banners of `text` between `s` and `e`: each banner line's span. */
export function roleBanners(text: string, s: number, e: number, reply = false): { s: number; e: number }[] {
  const out: { s: number; e: number }[] = [];
  let at = s;
  while (at < e && out.length < 16) {
    let nl = text.indexOf("\n", at);
    if (nl < 0 || nl > e) nl = e;
    const len = nl - at;
    if (len >= 4 && len <= 160) {
      let a = at;
      while (a < nl && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
      const c = text.charCodeAt(a);
      if (isMark(c) || c === 91) {
        let b = nl;
        while (b > a && /\s/.test(text.charAt(b - 1))) b--;
        const label = framedLabel(text.slice(a, b));
        if (label !== null && roleLabel(label) && (reply || /\S/.test(text.slice(Math.max(0, at - 400), at))) && /\p{L}/u.test(text.slice(nl, nl + 200))) out.push({ s: a, e: b });
      }
    }
    at = nl + 1;
  }
  return out;
}
