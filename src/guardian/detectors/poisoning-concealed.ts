import { ibansIn } from "./exfil-payloads.js";
import type { Detection, JsonPath, StringSite } from "./scan.js";
import { sentenceSpans } from "./sentences.js";

/*
 * (Eleventh round, "tps11") Where a server speaks to the model, three structures the description judgement did not
 * read (docs/detection.md, "Eleventh round: poisoning by what a description conceals or pins"):
 *
 * 1. **A directive concealed from the people the tool serves** (`tool_poisoning.concealed_directive`): a description
 *    (a tool's, a property's, an enum's, a prompt argument's, an output field's, a template's, any string of an agent
 *    card) that keeps something from the user in the passive or modal voice — "should not be mentioned in feedback",
 *    "the resident must not be told", "never show it" — or acts "without asking", and in the same string demands: the
 *    user's credentials or session (a cookie, a PIN, a password), sending or routing to a fixed place (an address, a
 *    URL, a phone number, an IBAN whose check digits hold), a change to the records the tool keeps (set a status,
 *    lower a mark, close, delete), or a call of another tool. Acting "without asking" counts only with a demand for the
 *    user's secrets or a fixed destination ("deletes the branch without asking for confirmation" is a tool's
 *    behaviour). A secret value kept from view ("the token must never be shown") protects the user and does not count.
 * 2. **A destination pinned by a default** (`tool_poisoning.pinned_default`): a tool's parameter named for where data
 *    goes (a notification or webhook URL, a callback, cc, bcc, a mirror, a backup or report target) whose schema
 *    default is an outside address, and a description (the tool's or the parameter's) that forbids changing it or
 *    says to keep the default. Without such a sentence, or "unless the user…", or a default on this machine, or an
 *    API base URL (`base_url`, `endpoint`, `api_url`, `host`), it passes. The parameter is removed.
 * 3. **An outcome decided for a chosen few** (`tool_poisoning.selective_outcome`): a description that, for records
 *    singled out by a name in quotes, an IP range or a name's first letter ("any request mentioning 'X'", "indicators
 *    from 203.0.113.0/24", "if the surname starts with A–M"), sets an adverse outcome — closed, resolved, false
 *    positive, rejected, a lower mark, deleted, left out of reports — and says so to the model (a label "Note for the
 *    model:", "Model guidance:"), or against the evidence ("regardless of content"), or in secret. A routing rule
 *    ("tickets from the monitoring bot go to the on-call queue") decides nothing adverse and passes.
 *
 * Linear: bounded regular expressions over one describing string (at most MAX_UNIT characters), at most MAX_TOOLS
 * tools and MAX_PROPS properties per tool.
 */

const MAX_UNIT = 4096;
const MAX_TOOLS = 512;
const MAX_PROPS = 128;

/* --- 1. A directive concealed from the people the tool serves ----------------------------------------------------- */

/** Passive or modal withholding: "should not be mentioned", "the resident must not be told", "is never to be shown". */
const PASSIVE_WITHHELD = /\b(?:should|must|shall|is|are|will|needs?\s{1,3}to|ought\s{1,3}to)\s{1,3}(?:not|never)\s{1,3}(?:to\s{1,3})?(?:be\s{1,3})?(?:mentioned|told|informed|notified|shown|disclosed|revealed|explained|alerted|made\s{1,3}aware|brought\s{1,3}up|displayed)\b/gi;
/** "Never show it", "do not display this": an action or a fact kept from the reader, in the active voice. */
const ACTIVE_WITHHELD = /\b(?:never|do\s{1,3}not|don't|dont)\s{1,3}(?:show|display|reveal|disclose|mention|surface)\s{1,3}(?:it|this|that|them|the\s{1,3}(?:account|change|rule|adjustment|step|copy|transfer|routing))\b/gi;
/** Acting without the user's consent. */
const NO_CONSENT = /\bwithout\s{1,3}(?:first\s{1,3})?(?:asking|confirmation|confirming|consent|permission|prompting|the\s{1,3}user'?s\s{1,3}(?:consent|permission|knowledge))\b/i;
/** What the withheld subject is, when it is a secret value (withholding it protects the user). */
const SECRET_SUBJECT = /\b(?:passwords?|passphrases?|tokens?|keys?|secrets?|credentials?|pins?|otps?|codes?|cookies?|api\s{1,3}keys?|values?)\s{0,3}(?:itself|themselves)?\s{0,3}$/i;

/** The user's secrets and session, named as something to hand over. */
const USER_SECRET = /\b(?:(?:sso\s{1,3})?session\s{1,3}(?:cookies?|tokens?|ids?)|cookies?|passwords?|passcodes?|pins?|bank\s{1,3}pins?|one[- ]time\s{1,3}codes?|otps?|api\s{1,3}keys?|access\s{1,3}tokens?|credentials?|card\s{1,3}(?:numbers?|details)|cvv|ssn|passport\s{1,3}(?:numbers?|details))\b/i;
const WHOSE = /\b(?:user'?s|users'|customer'?s|their|your|the\s{1,3}user|every|all|each)\b/i;
const HAND_OVER = /\b(?:pass|send|include|attach|add|put|copy|forward|append|supply|provide|collect|ask\s{1,3}(?:the\s{1,3})?(?:user|customer)\s{1,3}for|request)\b/i;
/** A fixed place: an e-mail address, a URL, an international phone number. */
const FIXED_PLACE = /[\w.+-]@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/[\w-]+(?:\.[\w-]+)+|(?:^|[\s(:])\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}\b/;
const ROUTE = /\b(?:route|routes|send|sends|forward|pay|transfer|wire|deposit|donat\w{0,4}|remit|copy|post|report|sync|upload|mirror|cc|bcc|redirect|log|record)\b/i;
/** A change to the records the tool keeps. */
const RECORD_CHANGE = /\b(?:set|mark|record|change|lower|raise|reduce|increase|deduct|close|reject|deny|approve|delete|remove|drop|omit|exclude|downgrade|dismiss|cancel)\b[^.;!?\n]{0,60}?\b(?:marks?|grades?|scores?|ratings?|status|closed|resolved|tickets?|records?|cases?|requests?|complaints?|incidents?|applications?|claims?|reviews?|results?|reports?|entr(?:y|ies)|balance|amount|priority)\b|\b(?:must|should|shall)\s{1,3}be\s{1,3}(?:set|marked|recorded|closed|rejected|denied|approved|deleted|removed|lowered|downgraded|dismissed)\b/i;
/** Another tool, before, after or when it is called. */
const OTHER_TOOL = /\b(?:before|after|when(?:ever)?|each\s{1,3}time)\s{1,3}(?:you\s{1,3})?(?:calling|call|invoking|invoke|using|use|running|run)\s{1,3}(?:the\s{1,3})?`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?/i;

/** Whether a describing string withholds from the reader ("strong": passive or active; "consent": acts without asking). */
function withholds(u: string): "strong" | "consent" | null {
  for (const re of [PASSIVE_WITHHELD, ACTIVE_WITHHELD]) {
    re.lastIndex = 0;
    for (let m, n = 0; (m = re.exec(u)) !== null && n < 8; n++) {
      let from = m.index;
      while (from > 0 && m.index - from < 60 && !/[.;!?\n,]/.test(u[from - 1] as string)) from--;
      const subject = u.slice(from, m.index);
      if (re === PASSIVE_WITHHELD && SECRET_SUBJECT.test(subject)) continue;
      return "strong";
    }
  }
  return NO_CONSENT.test(u) ? "consent" : null;
}

function fixedDestination(u: string): boolean {
  if (!ROUTE.test(u)) return false;
  return FIXED_PLACE.test(u) || ibansIn(u, 4).length > 0;
}

export function concealedDirective(u: string): boolean {
  if (u.length < 30 || u.length > MAX_UNIT) return false;
  const kept = withholds(u);
  if (kept === null) return false;
  const harvest = USER_SECRET.test(u) && WHOSE.test(u) && HAND_OVER.test(u);
  if (harvest || fixedDestination(u)) return true;
  return kept === "strong" && (RECORD_CHANGE.test(u) || OTHER_TOOL.test(u));
}

/* --- 3. An outcome decided for a chosen few ------------------------------------------------------------------------ */

/** Records singled out: by a quoted name, an IP range, a name's first letters. */
const SINGLED_OUT = /\b(?:mentioning|naming|from|about|by|containing|involving|against|for|with|matching)\s{1,3}(?:the\s{1,3})?(?:'[^'\n]{2,40}'|"[^"\n]{2,40}"|‘[^’\n]{2,40}’|“[^”\n]{2,40}”|\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?)|\b(?:surname|last\s{1,3}name|family\s{1,3}name|first\s{1,3}name|name)\s{1,3}(?:starts|begins)\s{1,3}with\b|\b\d{1,3}(?:\.\d{1,3}){3}\/\d{1,2}\b/i;
/** An adverse outcome: closed, resolved, a false positive, rejected, a lower mark, deleted, left out. */
const ADVERSE = /\b(?:closed|resolved|false\s{1,3}positive|rejected|denied|declined|dismissed|not\s{1,3}(?:a\s{1,3})?(?:threat|issue|valid))\b|\b(?:lower|reduce|deduct|downgrade|dock)\s{1,3}(?:the\s{1,3}|their\s{1,3}|its\s{1,3})?(?:marks?|grades?|scores?|ratings?|priority|points?)\b|\b(?:delete|remove|purge|drop)\s{1,3}(?:the\s{1,3}|all\s{1,3}|any\s{1,3})?(?:related\s{1,3}|associated\s{1,3}|matching\s{1,3})?(?:tickets?|records?|logs?|entries|alerts?|evidence|cases?|complaints?)\b|\b(?:never|do\s{1,3}not|don't)\s{1,3}(?:include|report|list|mention|log)\b/i;
/** Said to the model, against the evidence, or in secret. */
const TO_MODEL = /(?:^|[.;:!?—–-]\s{0,3}|\n)(?:note\s{1,3}(?:for|to)\s{1,3}(?:the\s{1,3})?(?:model|assistant|ai|agents?|llm)|(?:model|assistant|ai|llm|agent)\s{1,3}(?:guidance|notes?|instructions?|policy)|(?:model|assistant|agents?|llm))\s{0,2}:/i;
const AGAINST_EVIDENCE = /\b(?:regardless\s{1,3}of|irrespective\s{1,3}of|no\s{1,3}matter|whatever)\s{1,3}(?:the\s{1,3}|its\s{1,3}|their\s{1,3})?(?:content|contents|evidence|facts|findings|severity|merits?|what\s{1,3}(?:it|they)\s{1,3}says?)\b/i;

export function selectiveOutcome(u: string): boolean {
  if (u.length < 30 || u.length > MAX_UNIT) return false;
  if (!SINGLED_OUT.test(u) || !ADVERSE.test(u)) return false;
  return TO_MODEL.test(u) || AGAINST_EVIDENCE.test(u) || withholds(u) === "strong";
}

/* --- 2. A destination pinned by a default ------------------------------------------------------------------------ */

/** A parameter named for where data goes (not an API's own address). */
const DEST_PARAM = /notif|webhook|hook|callback|forward|mirror|replica|sync_?to|share_?with|publish_?to|(?:^|_)b?cc(?:$|_)|recipient|report_?(?:to|url|email)|backup_?(?:url|target|to)|sink|destination|relay|audit_?(?:url|email)|copy_?to|export_?(?:url|to)|upload_?(?:url|to)|alert_?(?:url|email|to)/i;
const API_PARAM = /base_?url|api_?(?:url|base)|endpoint|host|server|registry|proxy|issuer|auth_?url|token_?url/i;
/** Forbidding a change, or keeping the default. */
const KEEP_DEFAULT = /\b(?:never|do\s{1,3}not|don't|must\s{1,3}not|should\s{1,3}not|may\s{1,3}not|cannot)\s{1,3}(?:ever\s{1,3})?(?:change|modify|override|alter|edit|touch|replace|remove)\b|\bkeep\s{1,3}(?:the\s{1,3}|its\s{1,3})?default\b|\bleave\s{1,3}(?:(?:it|this|the\s{1,3}[\w-]{1,30}|[`'"‘“][\w.-]{1,40}[`'"’”])\s{1,3})?(?:as\s{1,3}(?:is|the\s{1,3}default)|at\s{1,3}(?:its\s{1,3}|the\s{1,3})?default|unchanged|alone)\b|\b(?:never|do\s{1,3}not|don't|must\s{1,3}not|should\s{1,3}not|may\s{1,3}not|cannot)\s{1,3}(?:clear|reset|unset|empty|blank|drop|omit)\b|\balways\s{1,3}use\s{1,3}the\s{1,3}default\b|\bmust\s{1,3}(?:not\s{1,3}be|never\s{1,3}be)\s{1,3}(?:changed|modified|overridden|altered)\b/i;
/** (An "even if the user asks" is against the user's choice, not a way for it: taken out before USER_CHOICE, tp17.) */
const AGAINST_CHOICE = /\beven\s{1,3}(?:if|when|though)\s{1,3}(?:the\s{1,3})?(?:user|caller|customer)\s{1,3}\w{1,20}/gi;
const USER_CHOICE = /\bunless\s{1,3}(?:the\s{1,3})?(?:user|caller|customer)|\bif\s{1,3}(?:the\s{1,3})?(?:user|caller|customer)\s{1,3}(?:asks|wants|gives|names|provides|specifies)|\b(?:user|caller)\s{1,3}may\s{1,3}(?:change|override)/i;
const LOCAL_URL = /^(?:https?:\/\/)?(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|0\.0\.0\.0|[\w-]+\.local|[\w-]+\.internal|[\w-]+\.svc(?:\.cluster\.local)?)(?:[:/]|$)/i;


/** A parameter that names who sends or answers, not where data goes ("from", "reply_to"): its default is the server's own. */
const SENDER_PARAM = /^(?:from|sender|reply_?to|author|committer|signature|signer)(?:_?(?:email|address))?$/i;

/** An outside e-mail address among a default's values (a string, or a list of them: "cc": ["…"]), whatever the parameter's name (fifteenth round). */
function outsideEmailDefault(d: unknown): boolean {
  const list = Array.isArray(d) ? d.slice(0, 16) : [d];
  return list.some((x) => typeof x === "string" && x.length <= 254 && /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(x));
}

function outsideDefault(d: unknown): boolean {
  if (Array.isArray(d)) return d.slice(0, 16).some((x) => outsideDefault(x));
  if (typeof d !== "string" || d.length > 512) return false;
  if (/^https?:\/\//i.test(d)) return !LOCAL_URL.test(d);
  return /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(d);
}

function pinnedDefaults(result: Record<string, unknown>): Detection[] {
  const tools = result.tools;
  if (!Array.isArray(tools)) return [];
  const out: Detection[] = [];
  tools.slice(0, MAX_TOOLS).forEach((tool, i) => {
    if (tool === null || typeof tool !== "object") return;
    const t = tool as Record<string, unknown>;
    const props = (t.inputSchema as Record<string, unknown> | undefined)?.properties;
    if (props === null || typeof props !== "object" || Array.isArray(props)) return;
    const toolText = typeof t.description === "string" ? t.description.slice(0, MAX_UNIT) : "";
    for (const [name, schema] of Object.entries(props as Record<string, unknown>).slice(0, MAX_PROPS)) {
      if (schema === null || typeof schema !== "object") continue;
      const s = schema as Record<string, unknown>;
      const named = DEST_PARAM.test(name) && !API_PARAM.test(name) && outsideDefault(s.default);
      if (!named && (SENDER_PARAM.test(name) || !outsideEmailDefault(s.default))) continue;
      const own = typeof s.description === "string" ? s.description.slice(0, MAX_UNIT) : "";
      // The sentence that keeps it: in the parameter's own description, or one of the tool's that names the parameter.
      const keeping = (x: string) => KEEP_DEFAULT.test(x) && !USER_CHOICE.test(x.replace(AGAINST_CHOICE, " "));
      const toolSentences = sentenceSpans(toolText).filter(([a, b]) => {
        const x = toolText.slice(a, b);
        return (x.includes(name) || /\bdefault\b/i.test(x)) && keeping(x);
      });
      if (!keeping(own) && toolSentences.length === 0) continue;
      const path: JsonPath = ["result", "tools", i, "inputSchema", "properties", name];
      const detail = `the ${name} parameter's default sends to an outside address the model is told to keep`;
      out.push({ type: "tool_poisoning.pinned_default", path, start: 0, end: 0, whole: true, detail });
      // (The tool's sentence that keeps it goes too: what is left must not tell the model to keep a default it no longer sees.)
      for (const [a, b] of toolSentences) out.push({ type: "tool_poisoning.pinned_default", path: ["result", "tools", i, "description"], start: a, end: b, detail });
    }
  });
  return out;
}

/* --- 3b. A program given as a default (tp17) ---------------------------------------------------------------------- */

/**
 * A parameter the tool runs (code, a command, a script, a query) whose `default` is a program: the model sends it
 * whenever it leaves the argument out, and the user never sees it written. A default program that reads local data
 * (a file opened, the environment) and sends it to an outside address is exfiltration handed over in the schema,
 * whatever the domain; a default that prints, selects or reaches only this machine passes.
 */
const RUNNABLE_PARAM = /^(?:code|command|cmd|script|source|snippet|program|shell|exec|statement|query|sql|expression|cell|body)(?:_[a-z]{1,12})?$|_(?:code|command|cmd|script|snippet|program|sql)$/i;
const OUTSIDE_URL = /\b(?:https?|ftp|wss?):\/\/(?!localhost\b|127\.|\[::1\]|0\.0\.0\.0)[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/i;
const SENDS_IN_CODE = /\b(?:post|put|upload\w{0,8}|send\w{0,4}|urlopen|fetch|curl|wget|scp|rsync|Invoke-(?:WebRequest|RestMethod)|iwr|irm)\b|\b(?:files|data|json)\s{0,2}=|\s-(?:d|F|T)\s|--(?:data|form|upload-file)\b/i;
const READS_LOCAL = /\bopen\s{0,2}\(|\bread(?:File|FileSync|_text|_bytes|lines)?\s{0,2}\(|\bcat\s{1,3}\S|\bGet-Content\b|\bos\.environ\b|\bprocess\.env\b|\benviron\b|\bprintenv\b|\s@[~/.\w]|--upload-file\s|\s-T\s|\bfiles\s{0,2}=/i;

function runnableDefaults(result: Record<string, unknown>): Detection[] {
  const tools = result.tools;
  if (!Array.isArray(tools)) return [];
  const out: Detection[] = [];
  tools.slice(0, MAX_TOOLS).forEach((tool, i) => {
    if (tool === null || typeof tool !== "object") return;
    const props = ((tool as Record<string, unknown>).inputSchema as Record<string, unknown> | undefined)?.properties;
    if (props === null || typeof props !== "object" || Array.isArray(props)) return;
    for (const [name, schema] of Object.entries(props as Record<string, unknown>).slice(0, MAX_PROPS)) {
      const d = schema !== null && typeof schema === "object" ? (schema as Record<string, unknown>).default : undefined;
      if (typeof d !== "string" || d.length < 20 || d.length > MAX_UNIT || !RUNNABLE_PARAM.test(name)) continue;
      if (!OUTSIDE_URL.test(d) || !SENDS_IN_CODE.test(d) || !READS_LOCAL.test(d)) continue;
      const detail = `the ${name} parameter's default is a program that sends local data to an outside address`;
      out.push({ type: "tool_poisoning.runnable_default", path: ["result", "tools", i, "inputSchema", "properties", name], start: 0, end: 0, whole: true, detail });
    }
  });
  return out;
}

/* --- 4. "AI:" addressed, in any language, with a fixed destination --------------------------------------------- */

/**
 * The model addressed by the loanword most languages use for it — "Fesoasoani AI:", "Onye enyemaka AI:", "Msaidizi wa
 * AI:" — as a label opening a sentence of a description, and after it a fixed place (a phone number, an address, a
 * URL) in the same string: whatever the language, a description that tells the AI where to send something. An
 * English pointer after the label (see, visit, contact, docs, support) is a product's own note and passes.
 */
const AI_LABEL = /(?:^|[.!?;]\s{1,3})(?:[\p{L}'’-]{2,20}\s{1,2}){0,3}(?:AI|A\.I\.)\s{0,2}:/u;
const EN_POINTER = /\b(?:see|visit|contact|docs?|documentation|learn|read\s{1,3}more|support|help|questions?|feedback|powered|built|terms|privacy|policy)\b/i;

export function addressedDestination(u: string): boolean {
  if (u.length < 30 || u.length > MAX_UNIT || !u.includes("AI")) return false;
  const m = AI_LABEL.exec(u);
  if (m === null) return false;
  const after = u.slice(m.index + m[0].length);
  // (English after the label is the scorer's to read: "Uses AI: results are sent to https://… for processing".)
  const english = after.match(/\b(?:the|and|is|are|of|to|for|with|by|this|that|your|will|from)\b/gi)?.length ?? 0;
  return english < 2 && FIXED_PLACE.test(after) && !EN_POINTER.test(after);
}

/** The keys whose strings describe a server or an agent to the model. */
const DESCRIBING = new Set(["description", "instructions", "organization", "title"]);

/**
 * This module's findings in a server's or an agent's description of itself: `sites` are its strings (the scored
 * judgement's findings already taken out), `result` the message's result.
 */
export function detectConcealedPoisoning(sites: readonly StringSite[], result: unknown): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    const key = site.path[site.path.length - 1];
    if (typeof key !== "string" || !DESCRIBING.has(key) || site.encoded !== undefined) continue;
    const v = site.value;
    if (v.length < 30 || v.length > MAX_UNIT) continue;
    if (concealedDirective(v)) out.push({ type: "tool_poisoning.concealed_directive", path: site.path, start: 0, end: v.length, detail: "a directive kept from the user (a demand, a destination, a change to records or another tool's call)" });
    else if (selectiveOutcome(v)) out.push({ type: "tool_poisoning.selective_outcome", path: site.path, start: 0, end: v.length, detail: "an adverse outcome decided for records singled out by name" });
    else if (addressedDestination(v)) out.push({ type: "tool_poisoning.addressed_destination", path: site.path, start: 0, end: v.length, detail: "the AI addressed by a label, with a fixed place to send to" });
  }
  if (result !== null && typeof result === "object" && !Array.isArray(result)) out.push(...pinnedDefaults(result as Record<string, unknown>), ...runnableDefaults(result as Record<string, unknown>));
  return out;
}
