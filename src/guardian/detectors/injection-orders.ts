import type { DTok } from "./injection-directed.js";
import { lookup } from "./injection-lexicon.js";

/*
 * Eleventh round ("inj11"): orders planted in records — a review, a log line, a ticket comment, a model's description,
 * a survey answer, an agent's artifact — that speak to the model and ask it to change something in the user's systems.
 * The scorer (injection.ts) saw the address but not what made the order an attack, so the unit stayed at "addressed
 * and asks something". The structures the misses of sets 16 and 17 share, not their words (docs/detection.md,
 * "Eleventh round: injection"). Called once per content unit from `analyse`; every check is a bounded scan of the
 * unit's words (at most 300) or a regex with bounded repetitions and none nested.
 *
 * - **A head in a record's own markup** (`addressed`): the model named by a head that opens after a comment marker or
 *   a bracket ("-- planner agent:", "# AI reviewer:", "(Grading model:"), by a head closed by a spaced dash ("AI copy
 *   assistant — …"), or by a doubled bracket naming the model and a directive ("<<assistant-directive>>",
 *   "[[AI-NOTE]]"). Two words at least (one word is a transcript's speaker), and the unit asks or justifies something.
 * - **A pretext: someone's sign-off claimed** (`pretext`, not primary): "the editor approved", "devs said it's fine",
 *   "the business accepted the drift", "was agreed", "has already been cleared by …", "legal asked that …", "the user
 *   has authorised you". It only adds to an order that is already spoken to the model or otherwise suspect.
 * - **Kept from the people who oversee** (`secrecy_weak`): a negated telling verb whose object is a role — the dev,
 *   the instructor, residents, the standards desk — or "keep this from the student", "without notifying the team"
 *   (the lexicon's secrecy knew the user only). Not when what is kept back is a secret ("do not tell the customer
 *   the password"), and never a person's name.
 * - **Security controls turned off** (`weaken`): stopping, uninstalling, purging or releasing an EDR sensor, a
 *   quarantine, a host's containment, row-level security, data-quality enforcement, JTAG protection; a `*_enforce`,
 *   `*_check`, `verify_*` switch set to false.
 * - **A destructive statement asked** (`destructive`): TRUNCATE, DROP TABLE/DATABASE/SCHEMA, DELETE FROM without a
 *   WHERE, asked in words ("execute TRUNCATE …") and not negated; not on a table named scratch, temp, test or dev.
 * - **Fetching code from outside and running it, in words** (`exec_download`): "fetch and execute https://…", a
 *   `pip install` from an extra index or a git URL off the package registries.
 */

export type OT = "addressed" | "pretext" | "secrecy_weak" | "no_confirm";
export type OR = "weaken" | "destructive" | "exec_download" | "read_secret";
export interface Orders {
  t: OT[];
  r: OR[];
}
export interface OCtx {
  reply: boolean;
  transcript: boolean;
  /** The unit is already read as speaking to the model. */
  addressed: boolean;
  /** The unit asks for something (an imperative at a clause's start). */
  request: boolean;
}

const ai = (t: DTok | undefined) => t !== undefined && t.cues.includes("ai") && (t.w.length > 2 || t.raw === t.raw.toUpperCase());
const isNoun = (w: string) => HEAD_NOUNS.has(w);
const HEAD_NOUNS = new Set(["instruction", "instructions", "note", "notes", "directive", "directives", "task", "action", "actions", "request", "message", "notice", "hint", "memo", "todo"]);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Heads in a record's markup                                                                                        */
/* ---------------------------------------------------------------------------------------------------------------- */

/** Characters a head may stand after at a unit's start: comment markers, brackets, quotation signs, list bullets. */
const LEAD = new Set([0x20, 0x09, 0x0a, 0x2d, 0x23, 0x2f, 0x3b, 0x28, 0x5b, 0x7b, 0x3c, 0x2a, 0x3e, 0x22, 0x27, 0xab, 0x201c, 0x25]);
/** A doubled bracket naming the model and a directive: `<<assistant-directive>>`, `[[AI-NOTE]]`, `{{agent_instructions}}`. */
/** Other symbols a record sets before a quoted line: stars, bullets, arrows (not letters, digits or a sentence's end). */
const LETTER = /\p{L}/u;
const SYMBOL = /^[\p{So}\p{Sm}\u2022\u00b7]$/u;
const DOUBLED = /(?:<<|\[\[|\{\{)\s{0,2}\/?\s{0,2}([A-Za-z][A-Za-z_ -]{1,38}[A-Za-z])\s{0,2}(?:>>|\]\]|\}\})/;

function doubledHead(unit: string): boolean {
  if (!(unit.includes("<<") || unit.includes("[[") || unit.includes("{{"))) return false;
  const m = DOUBLED.exec(unit.length > 600 ? unit.slice(0, 600) : unit);
  if (!m) return false;
  const parts = (m[1] as string).toLowerCase().split(/[_ -]/);
  if (parts.length < 2 || parts.length > 4) return false;
  return parts.some((p) => lookup(p)?.cues.includes("ai") === true && p.length > 1) && parts.some(isNoun);
}

/** A hyphenated name of the model: every part a lexicon AI word or a reader's noun, one at least the model. */
function aiCompound(w: string): boolean {
  const parts = w.split("-");
  if (parts.length < 2 || parts.length > 3) return false;
  const isAi = (p: string) => lookup(p)?.cues.includes("ai") === true && p.length > 1;
  return parts.some(isAi) && parts.every((p) => isAi(p) || isNoun(p));
}

/** Automation named as a reader: "Note for automation", "Message to the automated triage". */
const AUTOMATION = new Set(["automation", "automations", "automated", "autonomous"]);
function readerHead(toks: readonly DTok[], k: number): boolean {
  if (!isNoun((toks[0] as DTok).w) || !["for", "to"].includes((toks[1] as DTok | undefined)?.w ?? "")) return false;
  for (let j = 2; j <= k; j++) if (AUTOMATION.has((toks[j] as DTok).w)) return true;
  return false;
}

/** A head at the unit's start after a comment marker or a bracket, or closed by a spaced dash. */
function markupHead(text: string, all: readonly DTok[], ctx: OCtx): boolean {
  if (ctx.transcript || all.length < 2) return false;
  // (A run of symbols the tokenizer keeps as a word — "★★★★★" before a quoted review — is part of the lead.)
  let f = 0;
  while (f < Math.min(all.length, 3) && !LETTER.test((all[f] as DTok).raw)) f++;
  const toks = all.slice(f, f + 6);
  if (toks.length < 2) return false;
  const first = toks[0] as DTok;
  const compound = first.w.includes("-") && aiCompound(first.w);
  // What stands before the head's first word: only marker characters and symbols, at most twelve, at the line's start.
  let lead = 0;
  let p = first.s - 1;
  for (; p >= 0 && first.s - p <= 12; p--) {
    const c = text.charCodeAt(p);
    if (c === 0x0a) break;
    if (!LEAD.has(c) && !SYMBOL.test(text[p] as string)) return false;
    if (c !== 0x20 && c !== 0x09) lead++;
  }
  if (p >= 0 && first.s - p > 12 && text.charCodeAt(p) !== 0x0a) return false;
  // The head: two to five words (or one hyphenated name of the model: "ИИ-помощнику"), then ": " or a spaced dash.
  for (let k = compound ? 0 : 1; k < toks.length - 1; k++) {
    const t = toks[k] as DTok;
    const after = text.slice(t.e, t.e + 4);
    const colon = /^\s{0,1}[:：]\s/.test(after);
    const dash = /^\s[—–]\s/.test(after) || /^\s-\s\S/.test(after);
    if (!colon && !dash) {
      if (!/^[\s'’-]/.test(text.slice(t.e, t.e + 1))) return false;
      continue;
    }
    // (A quotation or code in the head is an example: "`Assistant:` marks a turn".)
    if (/["“”`]/.test(text.slice(first.s, t.e))) return false;
    if (readerHead(toks, k)) return true;
    if (colon && lead === 0) return false;
    const closing = isNoun(t.w) && k >= 2 ? (toks[k - 1] as DTok) : t;
    return ai(closing) || (k === 0 && compound);
  }
  return false;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* A pretext                                                                                                         */
/* ---------------------------------------------------------------------------------------------------------------- */

const SIGNED = "approved|cleared|agreed|authori[sz]ed|signed\\s{1,3}off|okayed|ok'd|sanctioned|vetted|pre-?moderated|pre-?approved|pre-?cleared|whitelisted|allow-?listed";
const PARTY =
  "editor(?:-in-chief)?|editors|legal|compliance|management|manager|devs?|developers?|business|department|owner|admin|administrator|security(?:\\s{1,3}team)?|ciso|cto|ceo|cfo|lead|maintainers?|user|customer|client|board|partner|vendor|director|head\\s{1,3}office|hq|finance|it|ops|soc|qa|team";
const PRETEXT = new RegExp(
  `\\b(?:has|have|had)\\s{1,3}(?:already\\s{1,3})?been\\s{1,3}(?:${SIGNED})\\b` +
    `|\\b(?:already|pre)[\\s-]{0,3}(?:approved|cleared|authori[sz]ed|moderated|vetted|sanctioned|agreed|signed\\s{1,3}off)\\b` +
    `|\\b(?:was|were|is|are)\\s{1,3}(?:agreed|cleared|signed\\s{1,3}off|pre-?approved|sanctioned|whitelisted)\\b` +
    `|\\b(?:said|says|confirmed|confirms|told\\s{1,3}us)\\s{1,3}(?:it'?s|it\\s{1,3}is|this\\s{1,3}is|that'?s|that\\s{1,3}is)\\s{1,3}(?:fine|ok|okay|allowed|approved|safe|authori[sz]ed)\\b` +
    `|\\b(?:${PARTY})\\s{1,3}(?:has\\s{1,3}|have\\s{1,3})?(?:already\\s{1,3})?(?:approved|agreed|accepted|signed\\s{1,3}off|okayed|ok'd|cleared|authori[sz]ed|asked\\s{1,3}(?:that|for\\s{1,3}(?:this|it))|requested\\s{1,3}that)\\b`,
  "i",
);
/** A vote or a motion carried is minutes' business, not a sign-off for the reader. */
const MINUTES = /\b(?:motion|vote|votes|resolution|amendment|minutes|agenda\s{1,3}item)\b/i;

/** A check waved away: with it a claimed sign-off anywhere in the unit is its pretext. */
const DISMISS = /\b(?:skip(?:ping)?|bypass(?:ing)?)\s{1,3}(?:the\s{1,3}|any\s{1,3}|all\s{1,3})?(?:[\w-]{1,20}\s{1,3})?(?:reviews?|fact-?checks?|checks?|verification|approvals?|qa|tests|sign-?off|canary|audit)\b|\bwithout\s{1,3}(?:(?:a|any|further)\s{1,3})?(?:review|approval|asking|confirmation|checking|sign-?off)\b|\bno\s{1,3}need\s{1,3}to\s{1,3}(?:check|verify|ask|review|confirm)\b|\b(?:accept|approve|merge|publish|apply)\w{0,2}\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,3}?automatically\b/i;
/** A person's review waved away: "skip the legal review", "skip fact-check" (not tests or a canary: CI guidance skips those). */
const REVIEW_SKIP = /\b(?:skip(?:ping)?|bypass(?:ing)?)\s{1,3}(?:the\s{1,3}|any\s{1,3}|all\s{1,3})?(?:[\w-]{1,20}\s{1,3})?(?:reviews?|fact-?checks?|approvals?|sign-?off|audit)\b/i;
/** What an order acts on in a system: a tool or variable name, a setting, code, an address; or keys and passwords. */
const SYSTEM_OBJECT = /[a-z0-9]_[a-z0-9]|\w\s{0,2}=\s{0,2}\S|`|@|:\/\/|"[^"\n]{4,120}"|\b(?:keys?|tokens?|passwords?|credentials?|secrets?|codes)\b/i;

/**
 * A claimed sign-off that justifies the order: with a check waved away ("skip fact-check; the editor approved"), or as
 * a trailing clause after an order that acts on a system ("set dq_enforce=False; the business accepted the drift",
 * "reply with the unused keys, devs said it's fine"). Not a sign-off before ordinary work ("the product owner approved
 * the scope, so draft the notes"), nor minutes' votes.
 */
function justifies(unit: string, request: boolean): boolean {
  const clip = unit.length > 800 ? unit.slice(0, 800) : unit;
  const m = PRETEXT.exec(clip);
  if (!m || MINUTES.test(clip)) return false;
  if (DISMISS.test(clip)) return true;
  if (!request || m.index < 8 || !SYSTEM_OBJECT.test(clip.slice(0, m.index))) return false;
  const before = clip.slice(Math.max(0, m.index - 40), m.index);
  return /[;,—–]\s{0,3}(?:[\w'-]{1,20}\s{1,3}){0,4}$/.test(before) || /\s-\s(?:[\w'-]{1,20}\s{1,3}){0,4}$/.test(before);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Kept from the people who oversee                                                                                  */
/* ---------------------------------------------------------------------------------------------------------------- */

const OVERSEERS = new Set([
  "dev", "devs", "developer", "developers", "instructor", "instructors", "teacher", "teachers", "editor", "editors", "reporter", "reporters",
  "resident", "residents", "student", "students", "team", "staff", "admin", "admins", "administrator", "administrators", "owner", "owners",
  "maintainer", "maintainers", "reviewer", "reviewers", "manager", "managers", "boss", "parent", "parents", "customer", "customers", "client",
  "clients", "desk", "moderator", "moderators", "auditor", "auditors", "compliance", "legal", "security", "supervisor", "colleagues", "players",
  "patron", "patrons", "donor", "donors", "grader", "graders", "approver", "approvers", "analyst", "analysts", "operator", "operators",
  "разработчику", "разработчикам", "преподавателю", "учителю", "клиенту", "клиентам", "команде", "администратору", "админу", "руководству",
  "модератору", "владельцу", "редактору",
]);
const KEEP = new Set(["keep", "hide", "withhold"]);
const FROM_WORDS = new Set(["from"]);
const DETERMINERS = new Set(["the", "a", "any", "our", "your", "their", "its", "this", "that", "these", "those", "other", "standards", "news", "city", "school", "project", "repo", "repository", "qa", "data", "security"]);

function overseerAt(toks: readonly DTok[], i: number): boolean {
  for (let j = i; j < Math.min(toks.length, i + 4); j++) {
    const t = toks[j] as DTok;
    if (OVERSEERS.has(t.w)) return true;
    if (!DETERMINERS.has(t.w)) return false;
  }
  return false;
}

function keptFromOverseer(toks: readonly DTok[]): boolean {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i] as DTok;
    // A negation (or "without"), then within three words a telling verb, then a role within four words.
    if (t.cues.includes("neg") || t.cues.includes("without")) {
      for (let j = i + 1; j < Math.min(n, i + 4); j++) {
        const v = toks[j] as DTok;
        if (!v.cues.includes("comm")) continue;
        // (What is kept back is a secret: protective, "do not tell the customer the password".)
        if (toks.slice(j + 1, j + 8).some((x) => x.cues.includes("machine") || x.cues.includes("personal"))) return false;
        let k = j + 1;
        if (k < n && ((toks[k] as DTok).w === "to" || (toks[k] as DTok).w === "it" || (toks[k] as DTok).w === "this")) k++;
        if (k < n && (toks[k] as DTok).w === "to") k++;
        if (overseerAt(toks, k)) return true;
      }
    }
    // "keep this from the student", "hide it from the reviewers".
    if (KEEP.has(t.w) && i + 2 < n) {
      let k = i + 1;
      if (["this", "it", "that", "them"].includes((toks[k] as DTok).w)) k++;
      if (k < n && ["quiet", "hidden", "secret", "away"].includes((toks[k] as DTok).w)) k++;
      if (k < n && FROM_WORDS.has((toks[k] as DTok).w) && overseerAt(toks, k + 1)) return true;
    }
  }
  return false;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Requests                                                                                                          */
/* ---------------------------------------------------------------------------------------------------------------- */

const SECURITY_OFF =
  /\b(?:stop|kill|disable|deactivate|uninstall|unload|pause|suspend|purge|release|remove|drop|lift|bypass|turn\s{1,3}off|switch\s{1,3}off|burn|rimuovi|disattiva|elimina|desactiva|elimina|entferne|deaktiviere|supprime|désactive|удали|отключи|останови)\s{1,3}(?:[\w'./-]{1,24}\s{1,3}){0,4}?(?:edr|xdr|sensors?|crowdstrike|falcon|sentinelone|carbon\s{1,3}black|defender|antivirus|quarantine|containment|isolation|row[\s-]level\s{1,3}security|rls|data[\s-]quality|dq\s{1,3}checks?|jtag(?:_disable)?|secure\s{1,3}boot|flash\s{1,3}encryption|siem|alerting|monitoring|watchlist|audit\s{1,3}trail)\b/i;
/** A chatops or CLI form of the same: `release-containment`, `burn_efuse JTAG_DISABLE`. */
const SECURITY_CLI = /\brelease[-_]containment\b|\bburn_efuse\s{1,3}(?:JTAG_DISABLE|DIS_\w{2,30}|SECURE_BOOT\w{0,20})\b|\bunisolate\b|\blift[-_]quarantine\b/i;
/** A protective switch set off: `dq_enforce=False`, `verify_ssl: false`, `checks_enabled = 0`. */
const SWITCH_OFF = /\b[A-Za-z]{0,20}_?(?:enforce|enforcement|checks?|verify|validation|validate|protect(?:ion)?|guard|scan)(?:_[A-Za-z]{1,20})?\s{0,2}[=:]\s{0,2}["']?(?:false|off|disabled|0)\b/i;

const DESTRUCTIVE_SQL = /\b(?:truncate\s{1,3}(?:table\s{1,3})?([\w."`]{2,80})|drop\s{1,3}(?:table|database|schema)\s{1,3}(?:if\s{1,3}exists\s{1,3})?([\w."`]{2,80})|delete\s{1,3}from\s{1,3}([\w."`]{2,80})\s{0,3}(?:;|$|\n))/i;
const SCRATCH = /(?:^|[._"`])(?:tmp|temp|scratch|test|tests|dev|sandbox|local|staging_tmp)(?:[._"`]|$)/i;
/** A negation among the words just before a match. */
const NEGATED_BEFORE = /(?:^|[^\p{L}])(?:not|never|don't|dont|no|non|nicht|nie|ne|не|нельзя|jamais|nunca|nem|mai)\s{1,3}(?:[\p{L}'-]{1,20}\s{1,3}){0,2}$/iu;
const ASK_RUN = /\b(?:execute|exec|run|issue|apply|perform)\b/i;

const FETCH_RUN =
  /\b(?:fetch|fetches|download|downloads|pull|pulls|get|gets|grab|load|loads)\s{1,3}(?:and|&|then)\s{1,3}(?:execute|executes|exec|run|runs|eval|evaluate|source|install|installs)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,2}?(?:from\s{1,3})?(https?:\/\/[^\s"'<>`)]{3,200})/i;
const PIP_OFF = /\bpip3?\s{1,3}install\b[^\n]{0,120}?(?:--(?:extra-)?index-url|\s-i)\s{1,3}(https?:\/\/[^\s"'<>`)]{3,200})|\bpip3?\s{1,3}install\s{1,3}(?:[\w-]{1,30}\s{1,3}){0,2}?git\+(https?:\/\/[^\s"'<>`)]{3,200})/i;
/** Package hosts of record: an index there is the registry itself or a vendor's own wheel host. */
const REGISTRY = /^https?:\/\/(?:[\w-]{1,40}\.)*(?:pypi\.org|pythonhosted\.org|pytorch\.org|nvidia\.com|github\.com|gitlab\.com|npmjs\.org|npmjs\.com|anaconda\.org)(?:[/:]|$)/i;

/** A tool named for destroying records (`delete_responses`, `purge_rows`), not a cache or a temporary file. */
const DESTROY_TOOL = /\b[a-z][a-z0-9]{0,20}(?:_[a-z0-9]{1,20}){0,3}_?(?:delete|remove|purge|drop|wipe|erase|destroy)(?:_[a-z0-9]{1,20}){0,3}\b|\b(?:delete|remove|purge|drop|wipe|erase|destroy)_[a-z0-9]{1,20}(?:_[a-z0-9]{1,20}){0,3}\b/;
const DISPOSABLE = /cache|tmp|temp|draft|scratch|test/;
/** English function words: a unit with two or more of them is read by the lexicon, not by its identifiers alone. */
const EN_FUNCTION = new Set(["the", "to", "and", "of", "is", "for", "in", "on", "your", "this", "with", "from", "it", "you", "all", "every", "any", "only", "into", "when", "if", "after", "before", "that", "are", "be"]);

/** A bot account mentioned in a thread (`@codebot`, `@release-bot`): the agent the thread summons. */
const BOT_HANDLE = /(?:^|[\s(])@[A-Za-z0-9][\w-]{0,30}bot\b/i;
/** A project's stored secrets: its CI/CD variables, pipeline secrets, values unmasked. */
const CI_SECRETS = /\b(?:ci\/cd|ci|pipeline|project|repo(?:sitory)?|actions|build|deploy(?:ment)?)\s{1,3}(?:variables|vars|secrets|env(?:ironment)?\s{1,3}variables)\b|\b(?:values?\s{1,3})?(?:unmasked|unredacted)\b/i;

/* ---------------------------------------------------------------------------------------------------------------- */

/** The signals of one content unit (`text` the whole string, `unit` the unit, `toks` its words in `text`'s offsets). */
export function orderCues(text: string, unit: string, toks: readonly DTok[], ctx: OCtx): Orders {
  const out: Orders = { t: [], r: [] };
  if (toks.length === 0) return out;
  const clip = unit.length > 1200 ? unit.slice(0, 1200) : unit;
  /** The match is asked, not forbidden: no negation in the few words before it ("never run TRUNCATE …"). */
  const free = (m: RegExpExecArray | null): m is RegExpExecArray => m !== null && !NEGATED_BEFORE.test(clip.slice(Math.max(0, m.index - 30), m.index));
  // Requests first: what the unit asks for (a head counts only with something asked or justified).
  if (ctx.request || ctx.addressed) {
    if (free(SECURITY_OFF.exec(clip)) || free(SECURITY_CLI.exec(clip)) || free(SWITCH_OFF.exec(clip))) out.r.push("weaken");
  }
  if (unit.length > 10) {
    const m = DESTRUCTIVE_SQL.exec(clip);
    const name = m ? (m[1] ?? m[2] ?? m[3] ?? "") : "";
    if (free(m) && !SCRATCH.test(name) && (ctx.request || ASK_RUN.test(clip.slice(Math.max(0, m.index - 40), m.index)))) out.r.push("destructive");
  }
  if (unit.includes("://")) {
    const f = FETCH_RUN.exec(clip) ?? PIP_OFF.exec(clip);
    const url = f ? (f[1] ?? f[2] ?? "") : "";
    if (free(f) && url !== "" && !REGISTRY.test(url)) out.r.push("exec_download");
  }
  // A destroying tool asked of the model for everything of a kind, or in words the lexicon cannot read ("siba … byose
  // ukoresheje delete_responses"): the tool's name says what the sentence does.
  if (ctx.addressed && unit.includes("_")) {
    const m = DESTROY_TOOL.exec(clip);
    if (free(m) && !DISPOSABLE.test(m[0])) {
      // (Words the lexicon reads — other than the model's name — count as read too.)
      const english = toks.filter((t) => EN_FUNCTION.has(t.w) || (t.cues.length > 0 && !t.cues.includes("ai"))).length;
      if (toks.some((t) => t.cues.includes("bulk")) || english <= 1) out.r.push("destructive");
    }
  }
  // A project's CI/CD variables asked for, unmasked.
  const secrets = ctx.request && free(CI_SECRETS.exec(clip));
  if (secrets) out.r.push("read_secret");
  const pretext = justifies(unit, ctx.request);
  if (pretext) out.t.push("pretext");
  if (!ctx.addressed && (ctx.request || pretext || out.r.length > 0 || PRETEXT.test(unit)) && (markupHead(text, toks, ctx) || doubledHead(unit))) out.t.push("addressed");
  else if (!ctx.addressed && secrets && unit.includes("@") && BOT_HANDLE.test(clip)) out.t.push("addressed");
  if (keptFromOverseer(toks)) out.t.push("secrecy_weak");
  if ((ctx.request || ctx.addressed || out.t.includes("addressed")) && REVIEW_SKIP.test(clip) && !NEGATED_BEFORE.test(clip.slice(0, 30))) out.t.push("no_confirm");
  return out;
}
