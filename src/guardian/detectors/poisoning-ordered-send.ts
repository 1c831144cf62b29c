import type { Detection, StringSite } from "./scan.js";

/*
 * tp29 (issue 24): a describing string that orders its reader to send something to a fixed outside place
 * (`tool_poisoning.ordered_send`).
 *
 * The structure that recurs across rounds (sets 8, 21, 25, 39, 54, 60, 66, 67, 78, on tools, resources, templates and
 * output schemas alike): in one sentence of a description, the reader is addressed — as a label ("Assistant:",
 * "Model:", "Note to the agent:"), as the subject of a must ("Agents that open this resource must …", "you should
 * always …"), or by when it acts ("Whenever you read this", "After listing", "Before answering") — and told to send,
 * upload, post, e-mail or forward something to a destination written into the sentence: a URL, a bucket (`s3://`,
 * `gs://`), an FTP host or an e-mail address. What a server says about itself is not the user's request: a fixed
 * destination ordered there sends the user's data wherever the server chose.
 *
 * What passes: a description that says what the tool does with the address it is given ("Sends an e-mail to the
 * recipient you pass", "Uploads the file to the bucket named in `bucket`"); a description naming its own endpoint with
 * no order to the reader ("Data is fetched from https://api.vendor.example"); a negated order ("never send the file to
 * …"); an order to send with no literal destination ("send the summary to the user"). English, French, Spanish,
 * German, Italian and Portuguese. Cost: describing strings only (at most 4 KB each, split into sentences); bounded
 * regexes, no backtracking beyond their bounds.
 */

const MAX_TEXT = 4096;
const SEND =
  "(?:send|upload|post|forward|copy|mirror|sync|push|e-?mail|transmit|submit|export|deliver|envo(?:ie|iez|yer)|transmet(?:s|tez|tre)|t[ée]l[ée]vers(?:e|ez|er)|env(?:í|i)a(?:r|lo|la)?|sube|subir|reenv(?:í|i)a(?:r)?|send(?:e|en)|schick(?:e|en)|übermittl?(?:e|en)|invia(?:re)?|inoltra(?:re)?|carica(?:re)?|envie|encaminh(?:e|ar))(?:s|ed|ing)?";
const DEST = "(?:https?://[^\\s\"'<>]{3,200}|(?:s3|gs|ftp|sftp|wss?)://[^\\s\"'<>]{2,200}|(?<![\\w.+-])(?!git@)[\\w.+-]{1,64}@[\\w-]{1,63}(?:\\.[\\w-]{1,63}){1,6})";
/** A sending verb with a literal destination after it, in the same sentence. */
const SENT_TO = new RegExp(`(?<![\\p{L}])${SEND}(?![\\p{L}])(?:[^.;!?\\n]|\\.(?=\\S)){0,160}?(?<![\\p{L}])(?:to|into|at|via|on|à|a|al|an|nach|para|su)\\s{1,3}(?:the\\s{1,3})?[\`'"<(]?${DEST}`, "iu");
/** The reader addressed: a label, the subject of a must, or when it reads. */
const ADDRESSED = new RegExp(
  [
    "(?:^|[.;:!?(]\\s{0,3})(?:note\\s{1,3}(?:to|for)\\s{1,3}(?:the\\s{1,3})?)?(?:assistants?|models?|agents?|ai|llms?|assistente|asistente|assistant\\s{1,3}ia|ki)\\s{0,3}[:,]",
    "(?<![\\p{L}])(?:models?|agents?|assistants?|llms?|ai|you|tu|vous|du|sie)(?![\\p{L}])[^.;]{0,60}?(?<![\\p{L}])(?:must|should|shall|need\\s{1,3}to|are\\s{1,3}(?:required|expected)\\s{1,3}to|always|doi[st]|doivent|devez|musst|müssen|muss)(?![\\p{L}])",
    "(?<![\\p{L}])(?:when(?:ever)?\\s{1,3}(?:you|the\\s{1,3}(?:model|agent|assistant))|quand\\s{1,3}(?:tu|vous)|cuando\\s{1,3}(?:leas|abras|uses)|wenn\\s{1,3}du|quando\\s{1,3}(?:leggi|apri|ler|abrir))(?![\\p{L}])",
    "(?<![\\p{L}])(?:after|before|upon)\\s{1,3}(?:listing|reading|opening|answering|loading|responding|receiving)(?![\\p{L}])",
    `(?<![\\p{L}])(?:always|first|siempre|toujours|immer|sempre)\\s{1,3}${SEND}(?![\\p{L}])`,
  ].join("|"),
  "iu",
);
/** The sending negated: "never send", "do not upload". */
const NEGATED = new RegExp(`(?<![\\p{L}])(?:never|not|don't|no|jamais|nunca|nie|niemals|mai)(?![\\p{L}])[^.;]{0,30}?(?<![\\p{L}])${SEND}(?![\\p{L}])`, "iu");

/** The sentence of `text` that orders its reader to send to a fixed outside place, or null. */
export function orderedSend(text: string): { start: number; end: number } | null {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  // No destination written anywhere (no "://", no "@"): nothing to send to, and nothing more to read.
  if (!t.includes("://") && !t.includes("@")) return null;
  let at = 0;
  for (const sentence of t.split(/(?<=[.;!?])\s+/)) {
    const start = t.indexOf(sentence, at);
    at = start + sentence.length;
    if (SENT_TO.test(sentence) && ADDRESSED.test(sentence) && !NEGATED.test(sentence)) return { start, end: at };
  }
  return null;
}

/** Describing strings (descriptions, instructions, an agent card's fields) that order a send to a fixed place. */
export function detectOrderedSend(sites: readonly StringSite[]): Detection[] {
  const out: Detection[] = [];
  for (const site of sites) {
    if (site.value.length < 16) continue;
    if (orderedSend(site.value)) out.push({ type: "tool_poisoning.ordered_send", path: site.path, start: 0, end: site.value.length, detail: "a description orders its reader to send something to a fixed outside place" });
  }
  return out;
}
