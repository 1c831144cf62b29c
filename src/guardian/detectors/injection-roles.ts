/*
 * Thirtieth round ("inj30"): the system's turn forged inside a remote agent's reply, in any language. An A2A agent's
 * message, streamed status or artifact is the agent speaking to the calling agent; a line in it that opens with the
 * bare name of the system voice as a turn label — "[SYSTEM]: …", "[system] …", "<system>…</system>", "[ਸਿਸਟਮ]: …",
 * "[سیستم]: …", "【系统】…", "[developer]: …" — over a clause hands the caller an order in its own system's voice. In the
 * open sets the structure recurs from the second round to the eighty-first; the scorer caught it when it knew the
 * body's verbs (English, German, Serbian, Hausa…) and let it through in languages whose verbs it does not list
 * (Burmese, Punjabi, Igbo, Pashto): a header over a sentence that "asks nothing" is read as a service's notice. The
 * label's shape is the structure: a notice names itself a notice ("System notice: maintenance 02:00–03:00 UTC",
 * "[시스템 공지] …", "SYSTEM ALERT"), a forged turn names a speaker — the role word alone, in brackets or as an element.
 *
 * `systemTurns(text, s, e)` finds, in a region, the lines that open (after at most four spaces or list marks) with:
 * - a bracket ("[", "[[", "(", "【", "<", "<<") around one word that is the system's name in the world's main languages
 *   and scripts, or the developer's (the chat role that stands above the user) — nothing else inside;
 * - then an optional colon (":", "：") or spaced dash, and a body on the same line (to an element's closing tag) of a
 *   clause: five words or more, or twenty letters of a script written without spaces; its first word not a number.
 * The caller (injection.ts `markers`) reads them only in a remote agent's reply and counts each as a `system_turn`
 * (4.5, a chat-template token's weight: the role boundary written in words) over the rest of its paragraph.
 *
 * Left alone: a notice's label ("System notice:", "SYSTEM NOTICE —", "[시스템 공지]", "SYSTEM CHECK: 3/3 nodes"); the
 * role word without brackets ("SYSTEM: planned maintenance …", a log's or a transcript's label, read as before); other
 * speakers in brackets ("[admin]:", "[Opérateur] Je regarde ça.", "[user]:" — inj26's reading); a process's name
 * ("[systemd] Started nginx"); a short body ("[system] ok", "<system>3 rows</system>"); tool results (a chat export or a
 * build log read by a tool is full of "[system]" lines); a turn shown in a fenced block of a text about attacks or in a
 * code span (the caller's rules).
 *
 * And two smaller readings of the same round: `agentShaped`, an A2A reply read as one by its shape when it carries no
 * `kind` (a message with `parts`, a status with a `state`, an artifact, a task's artifacts), so every reading of an
 * agent's reply (this one, inj26's forged user turn, inj27's banners) holds for agents that leave `kind` out; and
 * `recordLabel`, a verb naming a record before its number and a colon ("Alert FR-2201:", "Update 7:") read as the
 * record's label, not as an imperative — a fraud desk's "Alert FR-2201: a customer pasted "ignore previous
 * instructions …"" reports the quoted attack (the quotation's rules, eleventh round) instead of ordering an alert.
 *
 * Linear: one pass over the region's lines, each read for at most its first 400 characters; no regular expression.
 */

/** The system's name (and the developer's) as a turn label, lower case, matched whole. */
const SYSTEM_WORDS = new Set([
  "system", "sys", "sistema", "système", "systeme", "sistem", "systeem", "systém", "süsteem", "sistēma", "järjestelmä", "rendszer", "kerfi",
  "σύστημα", "система", "সিস্টেম", "सिस्टम", "प्रणाली", "ਸਿਸਟਮ", "સિસ્ટમ", "சிஸ்டம்", "கணினி", "సిస్టమ్", "ಸಿಸ್ಟಮ್", "സിസ്റ്റം", "සිස්ටම",
  "سیستم", "سيستم", "النظام", "نظام", "سسٹم", "מערכת", "המערכת", "სისტემა", "համակարգ", "жүйе", "систем", "тизим", "tizim", "sistemi",
  "mfumo", "sisitemu", "tsarin", "hệ thống", "ระบบ", "ລະບົບ", "စနစ်", "ប្រព័ន្ធ", "系统", "系統", "システム", "시스템",
  "developer", "entwickler", "desarrollador", "développeur", "sviluppatore", "desenvolvedor", "ontwikkelaar", "разработчик", "розробник",
]);

/** Opening brackets and their closes. */
const CLOSE: Record<string, string> = { "[": "]", "(": ")", "【": "】", "<": ">", "［": "］", "〔": "〕" };

/** Whether a code point is of a script written without spaces between words (Thai, Lao, Myanmar, Khmer, CJK, kana). */
function spaceless(c: number): boolean {
  return (c >= 0x0e00 && c <= 0x0eff) || (c >= 0x1000 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** Whether a line's body (after the label) is a clause: five words, or twenty letters of a spaceless script; not opening with a number. */
function clause(body: string): boolean {
  let words = 0;
  let inWord = false;
  let letters = 0;
  let first = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 32 || c === 9 || c === 0xa0) {
      inWord = false;
      continue;
    }
    if (first < 0 && !(c === 58 || c === 0xff1a || c === 45 || c === 0x2014 || c === 0x2013)) first = c;
    if (!inWord) {
      words++;
      inWord = true;
    }
    if (spaceless(c)) letters++;
  }
  if (first >= 0x30 && first <= 0x39) return false;
  return words >= 5 || letters >= 20;
}

/** Whether the bracketed label `inner` is the system's (or the developer's) name alone. */
function systemWord(inner: string): boolean {
  const w = inner.trim().toLowerCase();
  return w.length > 0 && w.length <= 24 && SYSTEM_WORDS.has(w);
}

/** The forged system turns of `text` between `s` and `e`: each label's span and the end of its line. */
export function systemTurns(text: string, s: number, e: number): { s: number; e: number; end: number }[] {
  const out: { s: number; e: number; end: number }[] = [];
  let at = s;
  while (at < e && out.length < 16) {
    let nl = text.indexOf("\n", at);
    if (nl < 0 || nl > e) nl = e;
    const lineEnd = Math.min(nl, at + 400);
    let a = at;
    let marks = 0;
    while (a < lineEnd && marks < 4) {
      const c = text.charCodeAt(a);
      if (c === 32 || c === 9 || c === 62 || c === 42 || c === 45 || c === 95 || c === 35) {
        a++;
        marks++;
      } else break;
    }
    const open = text.charAt(a);
    const close = CLOSE[open];
    if (close !== undefined) {
      let b = a + 1;
      // A doubled bracket ("[[SYSTEM]]", "<<SYS>>" is a chat token, read elsewhere).
      const doubled = text.charAt(b) === open;
      if (doubled) b++;
      const shut = text.slice(b, Math.min(lineEnd, b + 26)).indexOf(close) + b;
      if (shut > b && shut - b <= 24 && shut < lineEnd && systemWord(text.slice(b, shut))) {
        let c = shut + 1;
        if (doubled && text.charAt(c) === close) c++;
        // An element's body runs to its closing tag on the line; a label's to the end of the line.
        let bodyEnd = lineEnd;
        if (open === "<") {
          const tag = text.slice(c, lineEnd).indexOf("</");
          if (tag >= 0) bodyEnd = c + tag;
        }
        if (clause(text.slice(c, bodyEnd))) out.push({ s: a, e: c, end: nl });
      }
    }
    at = nl + 1;
  }
  return out;
}

/** A plain object. */
function obj(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/**
 * Whether a response's result has the shape of an A2A agent's reply without saying its `kind`: a message (`parts`,
 * with the agent's role or none), a task or a status update (`status` with a `state`), an artifact update (`artifact`
 * with `parts`), a task's `artifacts`. (An MCP result holds `content`, a task's `status` there is a string.)
 */
export function agentShaped(result: unknown): boolean {
  if (!obj(result) || result.content !== undefined) return false;
  if (Array.isArray(result.parts)) return result.role === undefined || result.role === "agent";
  if (obj(result.status) && typeof result.status.state === "string") return true;
  if (obj(result.artifact) && Array.isArray(result.artifact.parts)) return true;
  return Array.isArray(result.artifacts) && result.artifacts.every((a) => obj(a) && Array.isArray(a.parts));
}

/**
 * Whether the word ending at `at` is a record's label: one to three spaces, then an identifier with a digit in it
 * ("FR-2201", "#44", "3", "R-12", "2026-11") of at most 24 characters, then a colon. "Alert FR-2201: a customer
 * pasted …" names an alert, it does not ask anyone to alert; "Update 3: the bridge reopened" is the third update. The
 * scorer (injection.ts) does not read such a word as an imperative; "Alert the team: …", "Update the payee to …" (no
 * number before the colon) are read as before.
 */
export function recordLabel(text: string, at: number): boolean {
  let i = at;
  const end = Math.min(text.length, at + 28);
  let spaces = 0;
  while (i < end && text.charCodeAt(i) === 32 && spaces < 3) {
    i++;
    spaces++;
  }
  if (spaces === 0) return false;
  let digit = false;
  const from = i;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 35 || c === 46 || c === 47 || c === 95)) break;
  }
  return digit && i > from && i - from <= 24 && text.charCodeAt(i) === 58;
}
