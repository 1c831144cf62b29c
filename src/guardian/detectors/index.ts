import { detectPii, PII_TYPES } from "./pii.js";
import { detectLabelledSecrets, sendsText, withLabelled } from "./secrets-labelled.js";
import { detectReturnedLogins, returnsText } from "./secrets-returned.js";
import { detectStatedSecrets } from "./secrets-stated.js";
import { detectSecrets } from "./secrets.js";
import { compileUrlParams, detectUrls, type UrlParams } from "./urls.js";
import { detectInjection, detectPoisoning, isAgentCard, type InjectionInput, type InjectionParams } from "./injection.js";
import { detectWithheldDemands } from "./poisoning.js";
import { detectFieldPoisoning } from "./poisoning-fields.js";
import { commandName, destructiveSql, isProgramName, judgeCommandLine, podReachesHost } from "./commands.js";
import { deliveredManifest, namedScript } from "./delivered-files.js";
import { detectSensitivePath, mayHoldSensitivePath } from "./paths.js";
import { askedInReply, pathsHandedBack } from "./paths-handed.js";
import { key as argumentKey, siteRoles, type RoledSite } from "./sites.js";
import { commandsInRequest } from "./requests.js";
import { sqlHandedOver } from "./commands-reach.js";
import { handsOverInAnyLanguage, mayHandOverInResult, opensWithRunVerb } from "./commands-handed.js";
import { runsByItself } from "./commands-autorun.js";
import { detectSecretAssignments } from "./assignments.js";
import { detectConcealedPoisoning } from "./poisoning-concealed.js";
import { detectStandingPoisoning } from "./poisoning-standing.js";
import { detectUserOverrides } from "./poisoning-overrides.js";
import { detectProtectionPoisoning } from "./poisoning-protections.js";
import { detectCataloguePoisoning } from "./poisoning-catalogue.js";
import { detectShadowing } from "./poisoning-shadowing.js";
import { detectOrderedSend } from "./poisoning-ordered-send.js";
import { detectSecretDemands } from "./poisoning-secret-words.js";
import { detectInflectedSecretDemands } from "./poisoning-secret-stems.js";
import { detectKeptFromPerson, detectSplitWords } from "./poisoning-kept-words.js";
import { detectOwnFieldFill } from "./poisoning-own-field.js";
import { detectSecretAcronyms } from "./poisoning-secret-acronym.js";
import { detectSuccessorRelay } from "./poisoning-successor.js";
import { detectSelfApproval } from "./poisoning-self-approval.js";
import { detectOutputDemands } from "./poisoning-outputs.js";
import { compileExfiltrationParams, detectExfiltration, detectUrlData, type ExfiltrationParams } from "./exfiltration.js";
import { detectPiiBulk } from "./pii-bulk.js";
import { detectCallToChangedTool, detectToolChanges, pinsFor, type NewPin, type PinScope, type PinStore } from "./pins.js";
import { detectHiddenText, findAllNormalised, findInViews, hasViews, normalize, type NormalText } from "./normalize.js";
import { childrenOf, collectStrings, joinStrings, type Detection, type StringSite } from "./scan.js";
import { shellReady } from "./shell.js";
import { usedAsMeant } from "./audience.js";
import { storedSecrets } from "./secrets-stores.js";
import { modelInput, scoreText, type ModelInput, type TextModel } from "./text-model.js";
import { detectReturnedBulk } from "./pii-returned.js";
import { loadTextModel } from "./text-model-asset.js";
import { shortRequestOfAddressedFiles } from "./text-model-abstain.js";
import { listEntry, recalled, remember, type ListEntry } from "./list-memo.js";

export type { Detection } from "./scan.js";

/**
 * Resolves once every detector is loaded (the shell grammar is WebAssembly, loaded asynchronously); rejects if one
 * cannot be. Commands await it before they judge; a library caller should too (until then, command lines are read by
 * the shell tokenizer alone).
 */
export function detectorsReady(): Promise<void> {
  return shellReady;
}

export const DETECTOR_NAMES = [
  "secrets",
  "secret_assignment",
  "exfiltration",
  "url_data",
  "pii",
  "pii_bulk",
  "pii_bulk_returned",
  ...PII_TYPES,
  "prompt_injection",
  "tool_poisoning",
  "tool_changed",
  "sensitive_path",
  "dangerous_command",
  "url",
  "text_model",
] as const;

const PII: CompiledDetector = { key: "pii", run: (s) => detectPii(s.strings) };

/** A detector as a rule names it, compiled once: a cache key and how to run it over a message. */
export interface CompiledDetector {
  key: string;
  run(scan: MessageScan): Detection[];
}

export type DetectorSpec =
  | string
  | { url: UrlParams }
  | { exfiltration: ExfiltrationParams }
  | { url_data: ExfiltrationParams }
  | { prompt_injection: InjectionParams }
  | { tool_poisoning: InjectionParams }
  | { text_model: TextModelParams };

/** The text model's settings: the probability at or above which a message is flagged (default: the shipped model's). */
export interface TextModelParams {
  threshold?: number;
}

export function compileDetector(spec: DetectorSpec): CompiledDetector | string {
  if (typeof spec !== "string") {
    if ("prompt_injection" in spec) {
      const p = spec.prompt_injection;
      return { key: "prompt_injection:" + JSON.stringify(p), run: (s) => injection(s, p) };
    }
    if ("tool_poisoning" in spec) {
      const p = spec.tool_poisoning;
      return { key: "tool_poisoning:" + JSON.stringify(p), run: (s) => poisoning(s, p) };
    }
    if ("text_model" in spec) return textModelDetector(spec.text_model);
    if ("exfiltration" in spec) {
      const lists = compileExfiltrationParams(spec.exfiltration);
      return { key: "exfiltration:" + JSON.stringify(spec.exfiltration), run: (s) => findAllNormalised(s, s.strings, (v) => detectExfiltration(v, lists, s.message)) };
    }
    if ("url_data" in spec) {
      const lists = compileExfiltrationParams(spec.url_data);
      return { key: "url_data:" + JSON.stringify(spec.url_data), run: (s) => findAllNormalised(s, s.strings, (v) => detectUrlData(v, lists, s.message)) };
    }
    const lists = compileUrlParams(spec.url);
    return { key: "url:" + JSON.stringify(spec.url), run: (s) => detectUrls(s.strings, lists) };
  }
  switch (spec) {
    case "secrets":
      // A credential sent where it is meant to go (a webhook URL posted to, a token to its own API) is not leaving: audience.ts.
      // (Twelfth round) A credential stored in a secret store (a masked CI variable, a repository secret): secrets-stores.ts.
      // (Fourteenth round) A credential given by its label in text a call or a message sends: secrets-labelled.ts.
      // (Twenty-third round) A login (an account and its password side by side) in a response: secrets-returned.ts.
      return { key: spec, run: (s) => storedSecrets(s.message, usedAsMeant(s.message, () => s.roles, withLabelled(findAllNormalised(s, s.strings, detectSecrets), sendsText(s.message) ? findAllNormalised(s, s.strings, (v) => detectLabelledSecrets(v, s.message)) : returnsText(s.message) ? returnedSecrets(s) : []))) };
    case "secret_assignment":
      return { key: spec, run: (s) => findAllNormalised(s, s.strings, detectSecretAssignments) };
    case "exfiltration": {
      const lists = compileExfiltrationParams({});
      return { key: spec, run: (s) => findAllNormalised(s, s.strings, (v) => detectExfiltration(v, lists, s.message)) };
    }
    case "url_data": {
      const lists = compileExfiltrationParams({});
      return { key: spec, run: (s) => findAllNormalised(s, s.strings, (v) => detectUrlData(v, lists, s.message)) };
    }
    case "pii_bulk":
      // The PII findings are the `pii` detector's, shared with the rules that log them.
      return { key: spec, run: (s) => detectPiiBulk(s.strings, () => s.run(PII), () => s.calledToolSchema()) };
    case "pii_bulk_returned":
      // (Seventeenth round) several people's identity or payment numbers in a result or a reply (pii-returned.ts).
      return { key: spec, run: (s) => detectReturnedBulk(s.strings) };
    case "pii":
      return { key: spec, run: (s) => detectPii(s.strings) };
    case "prompt_injection":
      return { key: spec, run: (s) => injection(s) };
    case "tool_poisoning":
      return { key: spec, run: (s) => poisoning(s) };
    case "tool_changed":
      return { key: spec, run: (s) => s.toolChanges().detections };
    case "sensitive_path":
      return {
        key: spec,
        run: (s) => {
          // (leak30) A remote agent's reply hands its text to the calling agent as a request (paths-handed.ts).
          const returns = returnsText(s.message);
          const roles = returns ? pathsHandedBack(s.roles) : s.roles;
          // A file system opens the literal name: only encoded layers hide a path (a percent-encoded file: URI).
          const found = mayHoldSensitivePath(s.strings) ? detectSensitivePath(roles, false) : [];
          const all = hasViews(s, s.strings, "decoded") ? findInViews(s, roles, (v) => detectSensitivePath(v), "decoded", found) : found;
          return returns && roles !== s.roles ? askedInReply(all, roles) : all;
        },
      };
    case "dangerous_command":
      // A shell runs the literal line: only encoded layers hide a command (base64 or hex handed to a decoder).
      return { key: spec, run: (s) => findAllNormalised(s, s.roles, detectDangerousCommand, "decoded") };
    case "text_model":
      return textModelDetector({});
    case "url":
      return "the url detector needs its lists: { url: { deny: [...], allow: [...] } }";
    default:
      if ((PII_TYPES as string[]).includes(spec)) return { key: spec, run: (s) => detectPii(s.strings, spec) };
      return `unknown detector "${spec}" (known: ${DETECTOR_NAMES.join(", ")})`;
  }
}

/**
 * Credentials a response hands back: a login's account and password side by side (secrets-returned.ts), and (leak30) a
 * password or a secret stated after its word in any language, or a shadow file's hash (secrets-stated.ts).
 */
function returnedSecrets(s: MessageScan): Detection[] {
  return withLabelled(findAllNormalised(s, s.strings, (v) => detectReturnedLogins(v, s.message)), findAllNormalised(s, s.strings, (v) => detectStatedSecrets(v, true)));
}

/**
 * The scored judgement (injection.ts), plus text hidden so that only a model reads it (tag characters or variation
 * selectors spelling words, text concealed in a terminal): a finding whatever it says (normalize.ts).
 */
function injection(s: MessageScan, p?: InjectionParams): Detection[] {
  return [...detectInjection(s.injectionInput, p), ...detectHiddenText(s, s.strings), ...detectOutputDemands(s.message, s.strings)];
}

/**
 * The trained text model (text-model.ts): one score for the whole message, so a finding names no span — the whole
 * message (path []), with the score in its detail. The weights are read when the rule is compiled; a missing or
 * damaged asset is a problem in the rules (the guardian refuses to start with them), never a silent pass.
 */
function textModelDetector(p: TextModelParams): CompiledDetector | string {
  let model: TextModel;
  try {
    model = loadTextModel();
  } catch (e) {
    return (e as Error).message;
  }
  const threshold = p.threshold ?? model.threshold;
  return {
    key: "text_model:" + threshold,
    run: (s) => {
      const input = s.modelInput;
      // Nothing that reads as words (data only: a CSV file, a blob): the model has nothing to judge.
      if (input.text === "") return [];
      // (Twentieth round) A few words with documents given by address: the address is the rules' (text-model-abstain.ts).
      if (input.kind === "send" && shortRequestOfAddressedFiles(s.message, input.text)) return [];
      const score = scoreText(model, input.kind, input.text, input.flags);
      return score >= threshold ? [{ type: "text_model", path: [], start: 0, end: 0, detail: `text model score ${score.toFixed(3)} ≥ ${threshold} (${input.kind})` }] : [];
    },
  };
}

/** What a server says about itself to the model: its tools, prompts, resources, templates and instructions. */
const SELF_DESCRIPTION = new Set(["tools", "prompts", "resources", "resourceTemplates", "instructions"]);
const selfDescription = (site: StringSite) => site.path[0] === "result" && SELF_DESCRIPTION.has(site.path[1] as string);

function poisoning(s: MessageScan, p?: InjectionParams): Detection[] {
  const scored = detectPoisoning(s.injectionInput, p);
  // (Seventh round) A description withholding from the user what another of its sentences demands (poisoning.ts).
  const card = isAgentCard(s.message.result);
  const cut = new Set(scored.map((d) => JSON.stringify(d.path)));
  // What a server says of itself (an agent card: all of it), less the strings a finding already covers.
  const described = s.strings.filter((x) => selfDescription(x) || (card && x.path[0] === "result"));
  const uncut = () => described.filter((x) => !cut.has(JSON.stringify(x.path)));
  /** A check's findings, whose strings the checks after it no longer read. */
  const claim = <T extends Detection>(found: T[]): T[] => {
    for (const d of found) cut.add(JSON.stringify(d.path));
    return found;
  };
  const withheld = detectWithheldDemands(uncut());
  // (Tenth round) Property names spelled as sentences, skill examples stating a credential, a destination kept
  // against the user's choice (poisoning-fields.ts).
  const fields = detectFieldPoisoning(uncut(), s.message.result);
  // (Eleventh round) A directive concealed from the user, an outcome decided for a chosen few, "AI:" addressed with a
  // destination, a destination pinned by a default (poisoning-concealed.ts).
  claim(fields);
  claim(withheld);
  const concealed = claim(detectConcealedPoisoning(uncut(), s.message.result));
  // (Twelfth round) A standing order kept from the user, a read-only tool that orders a write, output given authority,
  // a bare dotfile handed over, a quoted command, others' records, every message copied (poisoning-standing.ts).
  const standing = claim(detectStandingPoisoning(uncut(), s.message.result));
  // (Thirteenth round) The user's secret asked for, the user's choice overridden, an act done behind the user's back,
  // a name that gives orders (poisoning-overrides.ts).
  const overrides = claim(detectUserOverrides(uncut(), s.message.result));
  // (Fifteenth round) A protection switched off for good, money redirected, a copy sent abroad in other languages (poisoning-protections.ts).
  const protections = claim(detectProtectionPoisoning(uncut()));
  // (Sixteenth round) Names asking for secrets, borrowed credentials, consent claimed, every command changed (poisoning-catalogue.ts).
  const catalogue = detectCataloguePoisoning(uncut(), s.message.result);
  // (Twenty-third round) A tool that has the model use it instead of another it claims no longer counts (poisoning-shadowing.ts).
  const shadowing = detectShadowing(s.message.result).filter((d) => !cut.has(JSON.stringify(d.path)));
  // (tp24) A login secret demanded in any language the lexicon reads (poisoning-secret-words.ts).
  claim([...catalogue, ...shadowing]);
  const secretWords = claim(detectSecretDemands(uncut(), s.message.result, card));
  // (tp25) The same with the secret or the demand inflected or prefixed, by stems (poisoning-secret-stems.ts).
  const secretStems = claim(detectInflectedSecretDemands(uncut(), s.message.result, card));
  // (tp26) Something kept from the person while their secret or a fixed destination is demanded, in any language (poisoning-kept-words.ts).
  const keptWords = claim(detectKeptFromPerson(uncut(), s.message.result, card));
  const splitWords = detectSplitWords(uncut(), s.message.result, card);
  // (tp27) A description in another language that has the model fill its own free-text field (poisoning-own-field.ts).
  const ownField = claim(detectOwnFieldFill(s.message.result).filter((d) => !cut.has(JSON.stringify(d.path))));
  // (tp28) A tool or agent that claims another's place and relays what passes through it to a party of its own (poisoning-successor.ts).
  const successor = claim(detectSuccessorRelay(s.message.result, card).filter((d) => !cut.has(JSON.stringify(d.path))));
  // (tp28) A tool's description that sets the tool's own approval field to true itself (poisoning-self-approval.ts).
  const selfApproval = claim(detectSelfApproval(s.message.result).filter((d) => !cut.has(JSON.stringify(d.path))));
  // (tp29) A describing string that orders its reader to send something to a fixed outside place (poisoning-ordered-send.ts).
  const orderedSend = claim(detectOrderedSend(uncut()));
  // (tp31) A PIN, code or CVV put into a free-text field of the tool's own, or named after a label addressing the reader (poisoning-secret-acronym.ts).
  const secretAcronyms = claim(detectSecretAcronyms(uncut(), s.message.result, card).filter((d) => !cut.has(JSON.stringify(d.path))));
  return [...scored, ...withheld, ...fields, ...concealed, ...standing, ...overrides, ...protections, ...catalogue, ...shadowing, ...secretWords, ...secretStems, ...keptWords, ...splitWords, ...ownField, ...successor, ...selfApproval, ...orderedSend, ...secretAcronyms, ...detectHiddenText(s, s.strings.filter(selfDescription), "tool_poisoning.hidden_text")];
}

/**
 * Dangerous command lines, judged by their grammar, where a tool runs one (`command` sites: commands.ts) or a request
 * to another agent hands one over to be run (`request` sites: requests.ts).
 */
export function detectDangerousCommand(sites: readonly RoledSite[]): Detection[] {
  const out: Detection[] = [];
  for (const line of [...argvLines(sites), ...toolLines(sites)]) {
    for (const f of judgeCommandLine(line.text)) out.push({ type: f.type, path: line.site.path, start: 0, end: line.site.value.length, detail: f.detail });
  }
  for (const site of sites) {
    if (site.role === "command") {
      for (const f of judgeCommandLine(site.value)) out.push({ type: f.type, path: site.path, start: f.start, end: f.end, detail: f.detail });
    } else if (site.tool !== undefined && sqlSite(site)) {
      const hit = destructiveSql(site.value, databaseNamed(sites, site));
      if (hit) out.push({ type: "dangerous_command.database_destroy", path: site.path, start: 0, end: site.value.length, detail: hit });
    } else if (site.role === "content" && deliveredScript(site, sites)) {
      const body = site.value.length > MAX_SCRIPT ? site.value.slice(0, MAX_SCRIPT) : site.value;
      for (const f of judgeCommandLine(body)) out.push({ type: f.type, path: site.path, start: f.start, end: f.end, detail: f.detail });
    } else if (site.path[0] === "params" && site.tool !== undefined && site.value.length >= 8 && writtenWhereRun(site, sites)) {
      // (Twentieth round) A file written where another program runs it by itself (commands-autorun.ts): its content
      // is the command line that program will run.
      const body = site.value.length > MAX_SCRIPT ? site.value.slice(0, MAX_SCRIPT) : site.value;
      for (const f of judgeCommandLine(body)) out.push({ type: f.type, path: site.path, start: f.start, end: f.end, detail: `a file written where it runs by itself: ${f.detail}` });
    } else if (site.role === "content" && deliveredManifest(site)) {
      // (Twelfth round) A workload manifest a remote agent delivers, judged as `kubectl apply` judges one.
      const how = podReachesHost(site.value);
      if (how) out.push({ type: "dangerous_command.privileged_container", path: site.path, start: 0, end: site.value.length, detail: `a delivered manifest runs a pod with ${how}` });
    } else if (site.role === "request" || (site.role === "content" && handedBack(site.path) && (!toolResult(site.path) || mayHandOverInResult(site.value)))) {
      // (Thirty-first round) A tool's result with no verb of running in the 64 KB both readings below take is not read
      // for command lines or statements at all (commands-handed.ts).
      for (const span of site.role === "request" ? commandsInRequest(site.value) : commandsHandedBack(site.value, toolResult(site.path))) {
        for (const f of judgeCommandLine(site.value.slice(span.start, span.end))) out.push({ type: f.type, path: site.path, start: span.start + f.start, end: span.start + f.end, detail: f.detail });
      }
      // (Eleventh round) SQL handed over to be run: judged as a SQL tool's statement (commands-reach.ts).
      if (site.role === "request") {
        // (Thirteenth round) Where the request says to run it ("On pm-prod run: …"): its words before the statement.
        for (const sql of sqlHandedOver(site.value)) {
          const at = site.value.indexOf(sql);
          const hit = destructiveSql(sql, at > 0 ? site.value.slice(Math.max(0, at - 160), at) : "");
          if (hit) out.push({ type: "dangerous_command.database_destroy", path: site.path, start: 0, end: site.value.length, detail: hit });
        }
      } else {
        // (leak30) A statement a reply hands the caller to run, its line's words before it handing it over (commands-handed.ts).
        for (const sql of sqlHandedOver(site.value)) {
          const at = site.value.indexOf(sql);
          const lead = at > 0 ? site.value.slice(site.value.lastIndexOf("\n", at - 1) + 1, at) : "";
          if (WARNED_OFF.test(lead) || !(toolResult(site.path) ? opensWithRunVerb(lead) : HANDING_OVER.test(lead) || handsOverInAnyLanguage(lead))) continue;
          const hit = destructiveSql(sql, lead.slice(-160));
          if (hit) out.push({ type: "dangerous_command.database_destroy", path: site.path, start: at, end: at + sql.length, detail: hit });
        }
      }
    }
    // (Twelfth round) A statement in a request's data part (`{"sql": …, "target": "prod"}`): a SQL tool's statement.
    if (site.path[0] === "params" && site.path.includes("data") && SQL_DATA_KEY.test(String(site.path[site.path.length - 1])) && site.value.length <= 1048576) {
      const where = childrenOf(sites, site.path.slice(0, -1))
        .filter((x) => x !== site && /^(?:database|db|target|env|environment|connection|cluster)$/i.test(String(x.path[x.path.length - 1])))
        .map((x) => x.value.slice(0, 256))
        .join(" ");
      const hit = destructiveSql(site.value, where);
      if (hit) out.push({ type: "dangerous_command.database_destroy", path: site.path, start: 0, end: site.value.length, detail: hit });
    }
  }
  return out;
}
/** The body a tool writes (`content`, `text`…) beside a path (`path`, `file`…) that is run by itself. */
function writtenWhereRun(site: RoledSite, sites: readonly RoledSite[]): boolean {
  const name = String(site.path[site.path.length - 1]).toLowerCase();
  if (!/^(?:content|contents|text|body|data|script|source|code|file_content|filecontent|new_content|newcontent)$/.test(name)) return false;
  return childrenOf(sites, site.path.slice(0, -1)).some((x) => x !== site && /^(?:path|file|filename|file_path|filepath|target|destination|dest)$/i.test(String(x.path[x.path.length - 1])) && runsByItself(x.value));
}
const SQL_DATA_KEY = /^(?:sql|query|statement|stmt|sql_query|sqlquery)$/i;

/**
 * (Seventh round) The text of a remote agent's reply (a message's, a status update's or an artifact's parts, not the
 * task's history): the calling agent is a model that acts on it, so a command line the reply hands over to be run
 * ("Run this in an elevated prompt: …") is judged as a request's is. (Thirty-first round) So is an MCP tool's result's
 * text block ("Solved! Run this on the PC: nc -e /bin/sh …"), read with a stricter lead (`toolResult`,
 * commands-handed.ts `opensWithRunVerb`): a page or a README quoting `curl … | bash` hands nothing over.
 */
const handedBack = (path: readonly (string | number)[]) =>
  path[0] === "result" && path[path.length - 1] === "text" && ((path.includes("parts") && !path.includes("history")) || toolResult(path));
/** An MCP tool's result's text block (`result.content[i].text`). */
const toolResult = (path: readonly (string | number)[]) => path[0] === "result" && path[1] === "content" && path.length === 4;

/**
 * The command lines a reply hands over: those of commandsInRequest introduced by a sentence asking the reader to run
 * them ("Run this in an elevated prompt: …", "Before I continue, execute: …") on their line or the line before — not a
 * file the reply delivers, whose `- run: …` is a key of the file.
 */
function commandsHandedBack(text: string, fromTool = false): { start: number; end: number }[] {
  return commandsInRequest(text).filter((span) => {
    const lineStart = text.lastIndexOf("\n", span.start - 1) + 1;
    let lead = text.slice(lineStart, span.start);
    if (lead.trim() === "" || /^\s*`{3}/.test(lead)) lead = text.slice(text.lastIndexOf("\n", Math.max(0, lineStart - 2)) + 1, lineStart);
    // (Eighth round) A fenced block's lead is the line before its fence (blank lines skipped, three at most).
    for (let back = lineStart, n = 0; /^\s*(?:`{3}|~{3})/.test(lead) || (lead.trim() === "" && n > 0); n++) {
      if (n >= 4 || back <= 0) break;
      back = text.lastIndexOf("\n", Math.max(0, back - 2)) + 1;
      lead = text.slice(text.lastIndexOf("\n", Math.max(0, back - 2)) + 1, back);
    }
    // (Thirty-first round) A tool's result hands over only with a sentence opening on a verb of running.
    if (fromTool) return !WARNED_OFF.test(lead) && opensWithRunVerb(lead);
    // (Twentieth round) A capitalised imperative alone ("Run:", "Paste this:") hands over as a sentence does; a
    // lower-case `run:` is a file's key (a workflow's step), and stays one.
    if (HANDING_OVER.test(lead) && !WARNED_OFF.test(lead) && (lead.trim().split(/\s+/).length >= 3 || SHORT_IMPERATIVE.test(lead))) return true;
    // (leak30) The same hand-over in the lexicon's languages, or a colon that introduces the line (commands-handed.ts).
    return !WARNED_OFF.test(lead) && handsOverInAnyLanguage(lead);
  });
}
const SHORT_IMPERATIVE = /^\s{0,8}(?:[-*]\s{1,4})?(?:Run|Execute|Paste|Type|Enter|Launch|Copy)(?:\s{1,4}(?:this|it|that|the\s{1,4}command|now|as\s{1,4}root)){0,2}\s{0,4}:\s{0,4}$/;
const HANDING_OVER = /\b(?:run|execute|paste|type|enter|launch|copy)\b/i;
/** "Never run …", "don't paste …", "avoid running …": a warning, not a hand-over. */
const WARNED_OFF = /\b(?:never|don't|dont|do\s{1,3}not|avoid|should\s{1,3}not|shouldn't|must\s{1,3}not)\b/i;

/*
 * (Eighth round) Where else a tool's arguments make a command line:
 * - a tool named after a program (`kubectl`, `git`, `helm`, `psql`, `docker`): its `args` string or vector is that
 *   program's arguments — `kubectl(args: "run x --overrides='{…hostPID…}'")` is `kubectl run x --overrides=…`;
 * - a tool that runs containers (`docker_run`, `run_container`): its options, volumes, image and command are the `docker
 *   run` line they make, so a socket mounted by an option is judged with the command the container runs;
 * - a tool that runs SQL (`execute_sql`, `db_query`, `run_query`): its statement is judged for a database destroyed;
 * - a file a remote agent's reply delivers that is a script (its first line a shell's `#!`): the calling agent runs it,
 *   so all of it is judged, up to MAX_SCRIPT.
 */
const MAX_SCRIPT = 65536;
const TOOL_ARGS = new Set(["args", "argv", "arguments", "params", "parameters", "argstring", "commandargs", "flags"]);
/** Cloud and cluster CLIs a tool may wrap, taking the CLI's line without its name (toolLines). */
const WRAPPED_CLI = new Set(["aws", "gcloud", "az", "kubectl", "helm", "oc", "terraform", "vault", "nomad", "consul", "gh", "glab", "doctl", "flyctl", "heroku", "eksctl", "gsutil", "pulumi", "hcloud", "wp"]);
/** A tool name's second word that says it runs the program, not which of its subcommands (`kubectl_run`, `aws_cli`). */
const SCOPE_KEYS = new Set(["profile", "region", "context", "namespace", "project", "subscription", "cluster"]);
const TOOL_VERBS = new Set(["run", "exec", "execute", "cli", "command", "cmd", "tool", "call", "invoke", "shell"]);
const CONTAINER_TOOL = /^(?:docker|podman|nerdctl|container|containers)$/;
const CONTAINER_RUN = /^(?:run|create|start|launch|exec)$/;
const OPTION_KEYS = new Set(["options", "opts", "flags", "args", "extraargs", "dockerargs", "runargs", "runoptions"]);
const VOLUME_KEYS = new Set(["volumes", "volume", "mounts", "mount", "binds", "bind"]);
const IMAGE_KEYS = new Set(["image", "imagename", "img"]);
const CMD_KEYS = new Set(["command", "cmd", "commands", "entrypoint", "argv"]);

/** An argument's name as sites.ts compares names (`sql_query`, `sqlQuery` → sqlquery); "" for an index. */
const lowerKey = (k: string | number | undefined) => (typeof k === "string" ? argumentKey(k) : "");

function toolWords(tool: string): readonly string[] {
  // (Issue 25) Kept per name, for names of up to 128 characters (256 of them at most): a call's every argument asks
  // for its tool's words, and a server has a few tools, called again and again.
  let words = toolWordsOf.get(tool);
  if (words === undefined) {
    words = tool.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9.-]+/).filter(Boolean);
    if (tool.length <= 128) {
      if (toolWordsOf.size >= 256) toolWordsOf.clear();
      toolWordsOf.set(tool, words);
    }
  }
  return words;
}
const toolWordsOf = new Map<string, readonly string[]>();

function toolLines(sites: readonly RoledSite[]): { site: RoledSite; text: string }[] {
  const out: { site: RoledSite; text: string }[] = [];
  const first = sites.find((x) => x.tool !== undefined && x.path[1] === "arguments");
  if (first === undefined || first.tool === undefined) return out;
  const words = toolWords(first.tool);
  const program = words[0] ?? "";
  const args = sites.filter((x) => x.tool !== undefined && x.path[1] === "arguments");
  if (CONTAINER_TOOL.test(program) && words.some((w) => CONTAINER_RUN.test(w))) {
    const parts: string[] = [program === "podman" || program === "nerdctl" ? program : "docker", words.find((w) => CONTAINER_RUN.test(w)) === "exec" ? "exec" : "run"];
    const pick = (keys: Set<string>) => args.filter((x) => keys.has(lowerKey(x.path[2])));
    // (Thirty-first round) An options string ("-v /var/run/docker.sock:/var/run/docker.sock --net=host") is the
    // line's own words, as a command string is; a vector's items are each one word.
    for (const x of pick(OPTION_KEYS)) parts.push(typeof x.path[3] === "number" ? shellWord(x.value) : x.value);
    for (const x of pick(VOLUME_KEYS)) parts.push("-v", shellWord(x.value));
    const image = pick(IMAGE_KEYS)[0];
    if (image === undefined) return out;
    parts.push(shellWord(image.value));
    const cmd = pick(CMD_KEYS);
    for (const x of cmd) parts.push(typeof x.path[3] === "number" ? shellWord(x.value) : x.value);
    const text = parts.join(" ");
    if (text.length <= 16384 && parts.length > 3) out.push({ site: image, text });
    return out;
  }
  // (Thirteenth round, "cps13") A tool that wraps one cloud or cluster CLI takes that CLI's line without its name:
  // `aws_cli({command: "rds delete-db-instance …"})` is `aws rds delete-db-instance …`.
  if (WRAPPED_CLI.has(program) && words.length <= 2) {
    for (const x of args) {
      if (x.role !== "command" || typeof x.path[3] === "number" || x.path.length !== 3) continue;
      const head = /^\s*([^\s]{1,64})/.exec(x.value)?.[1] ?? "";
      if (head === "" || commandName(head) === program || x.value.length > 16384) continue;
      // (Its scope arguments as the CLI's own options: `{"profile": "prod"}` is `--profile prod`.)
      const scope = args.filter((y) => y.path.length === 3 && SCOPE_KEYS.has(lowerKey(y.path[2])) && /^[\w.:/-]{1,128}$/.test(y.value)).map((y) => `--${lowerKey(y.path[2])} ${y.value}`);
      out.push({ site: x, text: [program, x.value, ...scope].join(" ") });
    }
    if (out.length > 0) return out;
  }
  if (!isProgramName(program) || words.length > 2) return out;
  const vector = args.filter((x) => TOOL_ARGS.has(lowerKey(x.path[2])));
  if (vector.length === 0 || vector.some((x) => x.role === "command" && typeof x.path[3] !== "number")) return out;
  const sub = words[1] !== undefined && !TOOL_VERBS.has(words[1]) && !vector.some((x) => x.value.trimStart().startsWith(words[1] as string)) ? [words[1]] : [];
  const text = [program, ...sub, ...vector.slice(0, 64).map((x) => (typeof x.path[3] === "number" ? shellWord(x.value) : x.value))].join(" ");
  if (text.length <= 16384) out.push({ site: vector[0] as RoledSite, text });
  return out;
}

const SQL_TOOL = /^(?:sql|query|queries|db|database|databases|postgres|postgresql|pg|mysql|mariadb|sqlite|sqlite3|mssql|sqlserver|snowflake|bigquery|clickhouse|redshift|duckdb|supabase|neon|cockroach|oracle)$/;
const SQL_KEYS = new Set(["sql", "query", "statement", "statements", "sqlquery", "querytext", "sqlstatement", "command", "script"]);
/** An argument of a tool that runs SQL, holding the statement. */
function sqlSite(site: RoledSite): boolean {
  return site.path[1] === "arguments" && SQL_KEYS.has(lowerKey(site.path[2])) && (lowerKey(site.path[2]).startsWith("sql") || toolWords(site.tool ?? "").some((w) => SQL_TOOL.test(w))) && site.value.length <= 1048576;
}
/** The database or connection a SQL tool's call names (`database`, `db`, `connection`, `dsn`, `host`…), for "production". */
function databaseNamed(sites: readonly RoledSite[], site: RoledSite): string {
  return sites.filter((x) => x !== site && x.path[1] === "arguments" && /^(?:database|db|dbname|connection|connectionstring|dsn|url|uri|host|server|target|env|environment|profile|cluster)$|^(?:database|db|dsn|connection|datasource|data_source)_?(?:name|id|alias|key)$/.test(lowerKey(x.path[2]))).map((x) => x.value.slice(0, 256)).join(" ");
}

/** A file a remote agent's reply delivers (an artifact's or a message's file part) that is a script: its first line a shell's `#!`. */
const SHEBANG = /^\uFEFF?#!\s{0,4}\/(?:usr\/)?(?:local\/)?bin\/(?:env\s{1,4}(?:-S\s{1,4})?)?(?:ba|z|da|k|mk|a|fi)?sh\b|^\uFEFF?#!\s{0,4}\/(?:usr\/)?(?:local\/)?bin\/(?:env\s{1,4})?pwsh\b|^\uFEFF?@echo\s{1,4}off\b/i;
function deliveredScript(site: RoledSite, sites: readonly RoledSite[]): boolean {
  const p = site.path;
  // (Twelfth round) A streamed artifact (`artifact`), and one named as a script (`plan.sh`): delivered-files.ts.
  return p[0] === "result" && !p.includes("history") && (p.includes("file") || p.includes("artifacts") || p.includes("artifact")) && (SHEBANG.test(site.value.slice(0, 128)) || namedScript(site, sites));
}

/** Where an argv-style tool names the program it runs: `{"file": "php", "args": ["-r", "…"]}`. */
const PROGRAM_KEYS = new Set(["file", "program", "executable", "exe", "binary", "bin", "cmd", "command", "path", "name", "tool", "filename"]);
/** The arguments of such a tool. */
const ARGV_KEYS = new Set(["args", "argv", "arguments", "params", "parameters"]);
/** A word as a shell would need it written to read it back as one word. */
const shellWord = (w: string) => (/^[A-Za-z0-9_/.:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/**
 * A program run with an argument vector (no shell): its name and its arguments are one command line, judged as a
 * line is — `{"file": "php", "args": ["-r", "$s=fsockopen(…);proc_open(…)"]}` is `php -r '…'`, `{"file": "mshta.exe",
 * "args": ["https://…/x.hta"]}` is `mshta https://…`. Each argument is also judged alone (a `command` site), as before.
 * At most 8 vectors of 64 words, 16 KB each.
 */
function argvLines(sites: readonly RoledSite[]): { site: RoledSite; text: string }[] {
  const out: { site: RoledSite; text: string }[] = [];
  let i = 0;
  while (i < sites.length && out.length < 8) {
    const first = sites[i] as RoledSite;
    const p = first.path;
    const key = p[p.length - 2];
    if (first.role !== "command" || typeof p[p.length - 1] !== "number" || typeof key !== "string" || !ARGV_KEYS.has(key.toLowerCase())) {
      i++;
      continue;
    }
    const parent = p.slice(0, -1);
    const words: string[] = [];
    let j = i;
    for (; j < sites.length; j++) {
      const s = sites[j] as RoledSite;
      if (s.path.length !== p.length || !parent.every((k, n) => s.path[n] === k) || typeof s.path[p.length - 1] !== "number") break;
      if (words.length < 64) words.push(s.value);
    }
    i = j;
    const holder = parent.slice(0, -1);
    const program = sites.find((s) => s.path.length === holder.length + 1 && holder.every((k, n) => s.path[n] === k) && typeof s.path[holder.length] === "string" && PROGRAM_KEYS.has((s.path[holder.length] as string).toLowerCase()) && /^\S{1,256}$/.test(s.value));
    if (program === undefined && words.length < 2) continue;
    const text = [...(program ? [program.value] : []), ...words].map(shellWord).join(" ");
    if (text.length <= 16384) out.push({ site: first, text });
  }
  return out;
}

/**
 * One message as the detectors see it: its strings collected once, each detector run at most once and only when a
 * rule that matches the message asks for it.
 */
export class MessageScan {
  private sites: StringSite[] | undefined;
  private readonly results = new Map<string, Detection[]>();
  private changes: { detections: Detection[]; newPins: NewPin[] } | undefined;

  constructor(
    readonly message: Record<string, unknown>,
    /** Whose pins `tool_changed` compares with (a name alone: the key). */
    server: PinScope | string,
    private readonly pins: PinStore | null,
  ) {
    this.scope = typeof server === "string" ? { key: server } : server;
  }

  private readonly scope: PinScope;

  get strings(): StringSite[] {
    this.sites ??= collectStrings(this.message);
    return this.sites;
  }

  /**
   * Each string with its role (sites.ts): a path a tool opens, a command it runs, a URL, content, or other. A tool's
   * input schema, when its definition is pinned, refines the roles of arguments whose names say nothing.
   */
  get roles(): RoledSite[] {
    this.roled ??= siteRoles(this.message, this.strings, this.pins ? (tool) => this.schemaOf(tool) : undefined);
    return this.roled;
  }

  private roled: RoledSite[] | undefined;

  /** The pinned input schema of the tool a `tools/call` calls (undefined without pins or a definition): pii-form.ts. */
  calledToolSchema(): unknown {
    const params = this.message.params as Record<string, unknown> | undefined;
    return this.pins && this.message.method === "tools/call" && typeof params?.name === "string" ? this.schemaOf(params.name) : undefined;
  }

  private schemaOf(tool: string): unknown {
    const pins = this.pins as PinStore;
    return pins.get(pinsFor(pins, this.scope).at, tool)?.definition?.inputSchema;
  }

  /** All the message's text, as `text` in rules: the same strings the detectors scan. */
  get text(): string {
    this.joined ??= this.sites ? this.sites.map((s) => s.value).join("\n") : joinStrings(this.message);
    return this.joined;
  }

  private joined: string | undefined;

  /**
   * Only the text parts (strings under a `text` key): A2A's `text` in rules — the words of messages, task history,
   * status messages and artifacts, without ids, kinds and roles.
   */
  get partsText(): string {
    this.parts ??= this.strings
      .filter((s) => s.path[s.path.length - 1] === "text")
      .map((s) => s.value)
      .join("\n");
    return this.parts;
  }

  private parts: string | undefined;

  /**
   * A string of this message as the detectors read it (normalize.ts), made once per string: kept on the site, and by
   * value for the copies of sites that `roles` makes.
   */
  normal(site: StringSite): NormalText {
    let n = site.normal;
    if (n === undefined) {
      n = this.normals?.get(site.value);
      if (n === undefined) {
        n = normalize(site.value);
        (this.normals ??= new Map()).set(site.value, n);
      }
      site.normal = n;
    }
    return n;
  }

  private normals: Map<string, NormalText> | undefined;

  /** Whether every string of the message is its own view: normalised once, then the view helpers skip the message. */
  allPlain(): boolean {
    if (this.plainAll === undefined) {
      let all = true;
      for (const site of this.strings) if (!this.normal(site).identity) all = false;
      this.plainAll = all;
    }
    return this.plainAll;
  }

  private plainAll: boolean | undefined;

  /** What the injection scorer reads: the strings, the message (for where each sits) and their normal forms. */
  get injectionInput(): InjectionInput {
    this.injection ??= { sites: this.strings, message: this.message, normal: (site) => this.normal(site), memo: [] };
    return this.injection;
  }

  private injection: InjectionInput | undefined;

  /** What the text model reads of this message (text-model.ts): the normalised strings, windowed. */
  get modelInput(): ModelInput {
    this.model ??= modelInput(this.message, this.strings, (site) => this.normal(site));
    return this.model;
  }

  private model: ModelInput | undefined;

  run(detector: CompiledDetector): Detection[] {
    let found = this.results.get(detector.key);
    if (!found) {
      // A list a server sent before is not read again (list-memo.ts); the pins' check always runs.
      const list = detector.key === "tool_changed" ? null : this.listEntry;
      found = list === null ? undefined : (recalled(list, detector.key) as Detection[] | undefined);
      if (!found) {
        found = this.onOriginal(detector.run(this));
        if (list !== null) remember(list, detector.key, found);
      }
      this.results.set(detector.key, found);
    }
    return found;
  }

  /** The list memo's entry of this message, looked up once (null: not a list result, or too long). */
  private get listEntry(): ListEntry | null {
    if (this.list === undefined) this.list = listEntry(this.message, this.scope.key, this.scope.reported);
    return this.list;
  }

  private list: ListEntry | null | undefined;

  /** Findings in a file's decoded text stand for the whole encoded payload: the text a redaction can replace. */
  private onOriginal(found: Detection[]): Detection[] {
    if (found.length === 0) return found;
    let encoded: Map<unknown, number> | undefined;
    for (const site of this.sites ?? []) if (site.encoded !== undefined) (encoded ??= new Map()).set(site.path, site.encoded);
    if (encoded === undefined) return found;
    const e = encoded;
    return found.map((d) => {
      const length = e.get(d.path);
      return length === undefined ? d : { ...d, start: 0, end: length, encoded: "base64" as const, detail: d.detail ?? "in a file's decoded content" };
    });
  }

  /** Rug pulls: changed tools in a tools/list result, or a call to a tool whose change is not approved yet. */
  toolChanges(): { detections: Detection[]; newPins: NewPin[] } {
    if (!this.changes) {
      const pins = this.pins;
      if (pins === null) this.changes = { detections: [], newPins: [] };
      else if (this.message.method === "tools/call") this.changes = { detections: detectCallToChangedTool(this.message, this.scope, pins), newPins: [] };
      else this.changes = detectToolChanges(this.message, this.scope, pins, this.listEntry?.fingerprints);
    }
    return this.changes;
  }

  /** Tools seen for the first time by a tool_changed check, to be pinned by the guardian. */
  get newPins(): NewPin[] {
    return this.changes?.newPins ?? [];
  }
}
