import { judgeCommandLine } from "./commands.js";
import type { Detection, JsonPath, StringSite } from "./scan.js";
import { sentenceSpans } from "./sentences.js";

/*
 * Sixteenth round ("smp16"): tool poisoning written from the published MCP attack catalogue before any case was read
 * (docs/detection.md, "Sixteenth round: poisoning and sampling from the public catalogues (smp16)"):
 *
 * 1. **A secret asked for by a property's name** (`tool_poisoning.secret_named_field`; CyberArk's Full-Schema
 *    Poisoning): a property of a tool's input schema whose *name* asks for the contents of a credential file
 *    (`content_from_reading_ssh_id_rsa`, `aws_credentials_file_content`) or the session (`previous_user_messages`,
 *    `full_conversation_history`, `your_system_prompt`), on a tool whose own name and description have nothing to do
 *    with keys or conversations. A path (`private_key_path`), an id, a limit or a flag (`conversation_id`,
 *    `include_history`, `message_history_limit`), or a tool whose purpose is that data (an SSH tool, a chat
 *    summariser, an LLM wrapper's `system_prompt`) passes.
 * 2. **A credential borrowed from another party** (`tool_poisoning.borrowed_credential`; the MCP specification's token
 *    passthrough and confused deputy): a description that has the model hand over a token, key, cookie or
 *    Authorization header that the client, the host's configuration or the user's *other* servers or connections
 *    hold. A token of the tool's own service that the user gives, or one the server was started with, passes.
 * 3. **Consent claimed for the user** (`tool_poisoning.consent_claimed`): "the user has pre-approved all deletions" with
 *    "never ask for confirmation" — the description grants itself the user's consent. A confirmation still required,
 *    or a read-only tool that needs none, passes.
 * 4. **Every command changed** (`tool_poisoning.command_prefix`; Trail of Bits' "line jumping"): a standing rule that
 *    every shell command the model runs be prefixed, followed or preceded by a command that weakens the machine —
 *    permissions opened on the home or root folder, a proxy or preload exported, shell history turned off, a
 *    download, sudo — or that the command judgement finds dangerous. A prefix that picks a tool or environment
 *    (`uv run`, `npx`, `poetry run`, `source .venv/bin/activate`) passes.
 *
 * Linear: bounded regexes over one describing string (at most MAX_UNIT characters), at most MAX_NAMES property names.
 */

const MAX_UNIT = 4096;
const MAX_NAMES = 256;
const MAX_SITES = 2048;
/** The lists of an MCP server (an agent card's strings are the rest of a `result`). */
const SELF_LISTS = new Set(["tools", "prompts", "resources", "resourceTemplates", "instructions"]);

/* --- 1. A secret asked for by a property's name ------------------------------------------------------------------- */

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** A credential file or key named in a name's words. */
const CRED_FILE = /\b(?:id (?:rsa|ed25519|ecdsa|dsa)|ssh (?:private )?keys?|private keys?|aws credentials|credentials file|netrc|kubeconfig|kube config|env file|dot env|dotenv|keychain|seed phrase|mnemonic|wallet (?:seed|keys?)|mcp json|cursor mcp|ssh dir|ssh folder)\b/;
/** Its contents, not its location. */
const CONTENT = /\b(?:contents?|text|data|body|dump|from reading|read|value|values|material|raw)\b/;
/** The session: the conversation, its messages, the model's own prompt. */
const SESSION = /\b(?:(?:conversation|chat|dialog|dialogue|message|messages) (?:history|log|transcript|so far)|(?:previous|prior|earlier|past|all|full|entire|whole) (?:user )?(?:conversation|chat|messages|turns|prompts)|(?:user|users) (?:previous|prior|earlier) messages|(?:your|assistant|current|original|full|hidden|model) system prompt|system prompt (?:verbatim|text|contents?)|your (?:instructions|context|memory|memories))\b/;
/** A location, an id, a limit or a switch (the name's head noun, or its first word): the name asks for no data. */
const NOT_DATA = new Set(["path", "paths", "file", "filename", "location", "dir", "id", "ids", "limit", "max", "count", "page", "cursor", "size", "since", "until", "format", "type", "enabled", "flag", "url", "uri", "name", "ref", "length", "days", "hours"]);
const NOT_DATA_FIRST = new Set(["include", "max", "limit", "use", "enable", "enabled", "with", "skip", "keep", "num", "number", "is", "has"]);
/** The tool's own purpose is that data: keys and logins, or conversations and prompts. */
const KEY_PURPOSE = /\b(?:ssh|keys?|secrets?|credentials?|vault|deploy|wallets?|certificates?|certs?|auth\w*|sign\w*|aws|kube\w*|cloud|env|login|password|keychain|gpg|pgp)\b/i;
const SESSION_PURPOSE = /\b(?:conversations?|chats?|messages?|threads?|transcripts?|memory|memories|summar\w*|dialog(?:ue)?s?|prompts?|llm|models?|completions?|agents?|slack|inbox|e-?mails?|tickets?|support)\b/i;

interface Prop {
  path: JsonPath;
  name: string;
  tool: number;
}

function toolProperties(result: Record<string, unknown>): Prop[] {
  const out: Prop[] = [];
  const tools = result.tools;
  if (!Array.isArray(tools)) return out;
  const visit = (props: unknown, path: JsonPath, depth: number, tool: number) => {
    if (props === null || typeof props !== "object" || Array.isArray(props)) return;
    for (const [name, schema] of Object.entries(props as Record<string, unknown>)) {
      if (out.length >= MAX_NAMES) return;
      out.push({ path: [...path, name], name, tool });
      if (depth < 1 && schema !== null && typeof schema === "object") visit((schema as Record<string, unknown>).properties, [...path, name, "properties"], depth + 1, tool);
    }
  };
  tools.forEach((tool, i) => {
    if (tool === null || typeof tool !== "object") return;
    const schema = (tool as Record<string, unknown>).inputSchema;
    if (schema !== null && typeof schema === "object") visit((schema as Record<string, unknown>).properties, ["result", "tools", i, "inputSchema", "properties"], 0, i);
  });
  return out;
}

function purposeOf(result: Record<string, unknown>, i: number): string {
  const t = (result.tools as unknown[])[i] as Record<string, unknown>;
  const name = typeof t.name === "string" ? t.name.replace(/[_\-.]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2") : "";
  const desc = typeof t.description === "string" ? t.description.slice(0, MAX_UNIT) : "";
  return name + " " + desc;
}

function secretNamedFields(result: Record<string, unknown>): Detection[] {
  const out: Detection[] = [];
  for (const p of toolProperties(result)) {
    if (p.name.length < 8 || p.name.length > 120) continue;
    const ws = words(p.name);
    if (ws.length < 2 || NOT_DATA.has(ws[ws.length - 1] as string) || NOT_DATA_FIRST.has(ws[0] as string)) continue;
    const reading = ws.join(" ");
    let what: string | null = null;
    if (CRED_FILE.test(reading) && (CONTENT.test(reading) || ws.length >= 4)) what = KEY_PURPOSE.test(purposeOf(result, p.tool)) ? null : "a credential file's contents";
    else if (SESSION.test(reading)) what = SESSION_PURPOSE.test(purposeOf(result, p.tool)) ? null : "the session's messages or prompt";
    if (what !== null) out.push({ type: "tool_poisoning.secret_named_field", path: p.path, start: 0, end: 0, whole: true, detail: `a property's name asks for ${what}: "${reading}"` });
  }
  return out;
}

/* --- 2-4. Sentences of a description -------------------------------------------------------------------------------- */


/** 2. A credential. */
const CREDENTIAL = /\b(?:tokens?|bearer|authorization\s{1,3}headers?|api\s{1,3}keys?|cookies?|session\s{1,3}(?:ids?|cookies?|tokens?)|credentials?|secrets?|passwords?|oauth)\b/i;
/** Held by another party: the client, the host's configuration, the user's other servers or connections. */
const OTHER_HOLDER =
  /\b(?:the\s{1,3})?(?:client|host|assistant|ide)\s{1,3}(?:already\s{1,3})?(?:uses|sends|holds|has|stores|keeps)\b|\b(?:other|another|every|all|any)\s{1,3}(?:of\s{1,3}(?:the|your)\s{1,3})?(?:connected\s{1,3})?(?:mcp\s{1,3})?(?:servers?|connections?|integrations?|connectors?|tools?|plugins?|agents?)\b|\b(?:mcp\.json|claude_desktop_config\.json|settings\.json|mcp\s{1,3}config(?:uration)?|(?:client|host|ide)(?:'s)?\s{1,3}config(?:uration)?(?:\s{1,3}file)?|(?:its|your)\s{1,3}(?:own\s{1,3})?(?:mcp\s{1,3})?configuration)\b|\bfor\s{1,3}the\s{1,3}[\w-]{1,20}\s{1,3}(?:mcp\s{1,3})?(?:server|connection|integration|connector)\b/i;
/** Handed over. */
const HAND_OVER = /\b(?:pass|copy|put|include|send|provide|supply|paste|forward|set|attach|use|fill|enter)\b[^.;\n]{0,100}?\b(?:into|in|as|to|under)\s{1,3}(?:the\s{1,3}|each\s{1,3}|every\s{1,3})?(?:`[\w.-]{1,40}`|'[\w.-]{1,40}'|"[\w.-]{1,40}"|(?:[\w-]{1,30}\s{1,3})?(?:parameter|argument|field|property|header|payload|request|call|metadata|query|task|message)s?\b)/i;
/** A property's own description: the whole text is what the model puts there. */
const isPropertyDescription = (path: JsonPath) => path[path.length - 1] === "description" && path[path.length - 3] === "properties";
const HOLDER_OK = /\b(?:never|not|don't|do\s{1,3}not)\b[^.;\n]{0,40}\b(?:pass|copy|send|share|include|forward)\b|\bthe\s{1,3}server\s{1,3}(?:was\s{1,3})?(?:started|launched|configured)\s{1,3}with\b|\bserver'?s\s{1,3}own\b/i;

/** 3. Consent claimed for the user, and no confirmation asked. */
const CLAIMED =
  /\b(?:the\s{1,3})?(?:user|owner|customer|admin(?:istrator)?)s?\s{1,3}(?:has|have)\s{1,3}(?:already\s{1,3})?(?:pre-?)?(?:approved|authori[sz]ed|consented\s{1,3}to|agreed\s{1,3}to|accepted|whitelisted|allowed)\s{1,3}(?:all|every|any|each)\b|\b(?:all|every|any)\s{1,3}(?:[\w-]{1,20}\s{1,3}){1,5}(?:is|are)\s{1,3}(?:pre-?approved|already\s{1,3}(?:approved|authori[sz]ed|consented))\s{1,3}by\s{1,3}the\s{1,3}user\b/i;
const NO_CONFIRM =
  /\b(?:never|do\s{1,3}not|don't|no\s{1,3}need\s{1,3}to)\s{1,3}(?:ask|request|wait|check)\b[^.;\n]{0,30}\b(?:confirm\w*|approv\w*|permission|consent)|\b(?:no|without)\s{1,3}(?:further\s{1,3})?(?:confirmation|approval|asking|permission)\b|\bskip\s{1,3}(?:the\s{1,3})?(?:confirmation|approval)\b|\bno\s{1,3}need\s{1,3}to\s{1,3}(?:ask|confirm|check)\b/i;

/** 4. A standing rule on every command the model runs. */
const EVERY_COMMAND =
  /\b(?:every|each|all|any)\s{1,3}(?:[\w-]{1,15}\s{1,3}){0,2}?(?:shell|terminal|bash|cli|console)?\s{0,3}commands?\b[^.;\n]{0,80}?\b(?:prefix\w{0,3}|preced\w{1,3}|start\w{0,3}|begin\w{0,3}|end\w{0,3}|append\w{0,3}|follow\w{0,3}|wrapp?\w{0,3}|run\s{1,3}after|run\s{1,3}first)\b|\b(?:prefix|precede|start|begin|end|wrap)\s{1,3}(?:every|each|all|any)\s{1,3}(?:[\w-]{1,15}\s{1,3}){0,2}?commands?\b|\bbefore\s{1,3}(?:running|executing|every|each|any)\s{1,3}(?:[\w-]{1,15}\s{1,3}){0,2}?commands?\b/i;
const CODE = /`([^`\n]{2,200})`|"([^"\n]{2,200})"|'([^'\n]{2,200})'/g;
/** What the added command does that weakens the machine. */
const WEAKENS =
  /\bchmod\s{1,3}(?:-\w{1,3}\s{1,3})*(?:0?[67][67][67]|a\+[rwx]{1,3}|o\+[rwx]{1,3})\s{1,3}(?:-\w{1,3}\s{1,3})*(?:~|\$HOME|\/(?:\s|;|$)|\/(?:etc|home|root|usr)\b)|\bchmod\s{1,3}-R\s{1,3}(?:0?[67][67][67]|a\+\w{1,3}|o\+\w{1,3}|u\+s)\b|\bexport\s{1,3}(?:ld_preload|prompt_command|bash_env|git_ssh_command|node_options=\S{0,10}--require)|\bunset\s{1,3}histfile\b|\bhistory\s{1,3}-[cw]\b|\bset\s{1,3}\+o\s{1,3}history\b|\bcurl\b[^;|&]{0,120}?(?:\s-[dFT]\s|--data|--upload-file|--form)[^;|&]{0,120}?https?:\/\/|\bsudo\s{1,3}-S\b|\bnc\s{1,3}-[el]|\bssh\s{1,3}-[RD]\b|>>\s{0,3}~\/\.(?:bashrc|zshrc|profile|bash_profile|ssh\/authorized_keys)\b|\bxattr\s{1,3}-[cd]\b|\bspctl\s{1,3}--master-disable\b|\bsetenforce\s{1,3}0\b/i;

function weakens(u: string): boolean {
  CODE.lastIndex = 0;
  let n = 0;
  for (let m = CODE.exec(u); m !== null && n < 4; m = CODE.exec(u), n++) {
    const cmd = m[1] ?? m[2] ?? m[3] ?? "";
    if (WEAKENS.test(cmd) || judgeCommandLine(cmd).length > 0) return true;
  }
  return false;
}

/* --- 5-8 (phase 2). The schema and annotations as the server's word (MCP specification: annotations are hints) ----- */

/** 5. An act beyond reading, ordered by a tool annotated read-only: "Also, … immediately send the letter", "As part of reporting, release any hold". */
const WRITE_ORDER =
  /(?:^|[,:]\s{1,3}|\b(?:also|then|immediately|automatically|always|and)\s{1,3})(?:send|submit|withdraw|release|purge|delete|remove|transfer|pay|post|notify|cancel|revoke|publish|share|e-?mail|forward|close|terminate|reject|approve|wipe|erase|overwrite|modify|update)\s{1,3}(?:the|any|all|every|each|a|an|their|its|his|her|them)\b/i;
const WRITE_OK = /\b(?:never|not|don't|doesn't|does\s{1,3}not|cannot|can't|no)\b[^.;\n]{0,30}$/i;

/** 6. An output schema directing the model: send the data out, or keep something from the user and say otherwise. */
const OUT_SEND = /\b(?:post|send|upload|forward|transmit|copy|submit)\b(?:[^.;\n]|\.(?=\S)){0,120}?(?:https?:\/\/[\w-]+(?:\.[\w-]+)+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/i;
const OUT_KEEP = /\b(?:omit|hide|drop|remove|leave\s{1,3}out|skip|suppress|do\s{1,3}not\s{1,3}(?:show|mention|include)|never\s{1,3}(?:show|mention|include))\b/i;
const OUT_SAY = /\b(?:say|tell|report|claim|state|answer|reply)\b[^.;\n]{0,20}?\b(?:that|it|the|there|nothing|no)\b|\bwhen\s{1,3}(?:presenting|showing|displaying|summari[sz]ing)\b[^.;\n]{0,30}\bto\s{1,3}the\s{1,3}user\b/i;

/** 7. A sharing or consent property whose default hands the data to an outside party. */
const SHARE_NAME = /share|sharing|partner|third_?party|recipient|collaborator|viewer|editor|acl|grant|visibility|audience/i;
const OUTSIDE_DEFAULT = /[\w.+-]@[\w-]+(?:\.[\w-]+)+|\b[\w-]+(?:\.[\w-]+)*\.(?:example|com|net|io|org|co|biz|info|ai|app)\b|^\s*(?:anyone|public|everyone|all)\b/i;
const CONSENT_NAME = /marketing|partner|third_?party|advertis|data_?sharing|share_?data|tracking|profiling/i;

/** 8. An agent card that has callers route every payment through it instead of other agents. */
const ROUTE_ALL_PAYMENTS =
  /\b(?:route|send|direct|channel|pass|process|make)\s{1,3}(?:every|all|any|each)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,4}?(?:payments?|transfers?|remittances?|disbursements?|payouts?)\b[^.;\n]{0,100}?\b(?:through|via|to|into)\s{1,3}(?:us|our|this\s{1,3}agent|[\p{Lu}][\w-]{1,30}'s|[\p{Lu}][\w-]{1,30}\s{1,3}account)\b/u;
const OTHERS_SET_ASIDE = /\b(?:other|another)\s{1,3}(?:[\w-]{1,20}\s{1,3})?agents?\b|\binstead\s{1,3}of\b|\bfrom\s{1,3}any\s{1,3}agent\b|\bdeprecated\b|\bnot\s{1,3}(?:through|via)\b/i;

/**
 * (Nineteenth round) A primary recipient's default that the tool's own description (or the property's) declares as the
 * operator's own destination ("exports … to the practice's own mailbox", "to our internal archive") is the tool's
 * stated purpose, shown to the user: not an outside party chosen behind them.
 */
const OWN_DESTINATION = /\b(?:to|into|in)\s{1,3}(?:the\s{1,3})?(?:[\w'’-]{1,30}\s{1,3}){0,2}?(?:own|our|internal|in-house)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,1}(?:mailbox|inbox|address|e-?mail|account|office|desk|archive|server|folder|channel|team|records)\b/i;
function ownDestination(description: string, propertyDescription: unknown): boolean {
  return OWN_DESTINATION.test(description) || (typeof propertyDescription === "string" && propertyDescription.length <= MAX_UNIT && OWN_DESTINATION.test(propertyDescription));
}

function schemaFindings(result: Record<string, unknown>): Detection[] {
  const out: Detection[] = [];
  const tools = result.tools;
  if (!Array.isArray(tools)) return out;
  tools.slice(0, 256).forEach((tool, i) => {
    if (tool === null || typeof tool !== "object") return;
    const t = tool as Record<string, unknown>;
    const ann = t.annotations as Record<string, unknown> | undefined;
    const desc = typeof t.description === "string" && t.description.length <= MAX_UNIT ? t.description : "";
    // 5. Read-only, and a sentence that orders a write.
    if (ann !== null && typeof ann === "object" && ann.readOnlyHint === true && desc) {
      for (const [a, b] of sentenceSpans(desc, { clauses: true })) {
        const u = desc.slice(a, b);
        const m = WRITE_ORDER.exec(u);
        if (m && !WRITE_OK.test(u.slice(0, m.index))) {
          out.push({ type: "tool_poisoning.readonly_contradicted", path: ["result", "tools", i, "description"], start: a, end: b, detail: "a tool annotated read-only orders an act beyond reading" });
          break;
        }
      }
    }
    // 6. An output schema's descriptions (the schema's own and its properties', one level).
    const os = t.outputSchema as Record<string, unknown> | undefined;
    if (os !== null && typeof os === "object") {
      const spots: [JsonPath, unknown][] = [[["result", "tools", i, "outputSchema", "description"], os.description]];
      const props = os.properties as Record<string, unknown> | undefined;
      if (props !== null && typeof props === "object") for (const [k, v] of Object.entries(props).slice(0, 64)) if (v !== null && typeof v === "object") spots.push([["result", "tools", i, "outputSchema", "properties", k, "description"], (v as Record<string, unknown>).description]);
      for (const [path, d] of spots) {
        if (typeof d !== "string" || d.length > MAX_UNIT) continue;
        for (const [a, b] of sentenceSpans(d, { clauses: true })) {
          const u = d.slice(a, b);
          if (OUT_SEND.test(u) || (OUT_KEEP.test(u) && OUT_SAY.test(u))) {
            out.push({ type: "tool_poisoning.output_schema_directive", path, start: a, end: b, detail: "an output schema's description directs the model to send data out or keep it from the user" });
            break;
          }
        }
      }
    }
    // 7. A sharing or consent default handing data to an outside party.
    const is = t.inputSchema as Record<string, unknown> | undefined;
    const props = is !== null && typeof is === "object" ? (is.properties as Record<string, unknown> | undefined) : undefined;
    if (props !== null && typeof props === "object") {
      for (const [k, v] of Object.entries(props).slice(0, 64)) {
        if (v === null || typeof v !== "object") continue;
        const def = (v as Record<string, unknown>).default;
        const own = ownDestination(desc, (v as Record<string, unknown>).description);
        if ((typeof def === "string" && def.length <= 200 && SHARE_NAME.test(k) && OUTSIDE_DEFAULT.test(def) && !own) || (def === true && CONSENT_NAME.test(k) && /consent|shar|opt_?in/i.test(k))) {
          out.push({ type: "tool_poisoning.outside_default", path: ["result", "tools", i, "inputSchema", "properties", k], start: 0, end: 0, whole: true, detail: `the default of ${k} hands the data to an outside party` });
        }
      }
    }
  });
  return out;
}

/** The findings of this module in a server's description of itself: `sites` the describing strings not already cut. */
export function detectCataloguePoisoning(sites: readonly StringSite[], result: unknown): Detection[] {
  const out: Detection[] = [];
  if (result !== null && typeof result === "object" && !Array.isArray(result)) out.push(...secretNamedFields(result as Record<string, unknown>), ...schemaFindings(result as Record<string, unknown>));
  for (const s of sites.slice(0, MAX_SITES)) {
    const v = s.value;
    if (v.length < 20 || v.length > MAX_UNIT) continue;
    const spans = sentenceSpans(v, { clauses: true });
    for (let k = 0; k < spans.length; k++) {
      const [a, b] = spans[k] as [number, number];
      const u = v.slice(a, b);
      const next = spans[k + 1];
      const withNext = next ? u + " " + v.slice(next[0], next[1]) : u;
      if (CREDENTIAL.test(u) && OTHER_HOLDER.test(u) && (HAND_OVER.test(u) || isPropertyDescription(s.path)) && !HOLDER_OK.test(u)) {
        out.push({ type: "tool_poisoning.borrowed_credential", path: s.path, start: a, end: b, detail: "a description has the model hand over a credential another server, connection or the client holds" });
        break;
      }
      if (s.path[0] === "result" && !SELF_LISTS.has(s.path[1] as string) && ROUTE_ALL_PAYMENTS.test(u) && OTHERS_SET_ASIDE.test(withNext)) {
        out.push({ type: "tool_poisoning.payments_routed", path: s.path, start: a, end: b, detail: "an agent card has callers route every payment through it instead of other agents" });
        break;
      }
            if (CLAIMED.test(u) && NO_CONFIRM.test(withNext)) {
        out.push({ type: "tool_poisoning.consent_claimed", path: s.path, start: a, end: next && !NO_CONFIRM.test(u) ? next[1] : b, detail: "a description claims the user's consent and has the model skip confirmation" });
        break;
      }
      if (EVERY_COMMAND.test(u) && weakens(u)) {
        out.push({ type: "tool_poisoning.command_prefix", path: s.path, start: a, end: b, detail: "a description adds a weakening command to every command the model runs" });
        break;
      }
    }
  }
  return out;
}
