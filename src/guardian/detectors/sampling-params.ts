/*
 * Fourteenth round ("smp14"): what a sampling request's *parameters* do to the answer, beside what its prompt says.
 * A server that asks the client's model for text chooses more than the words: where the answer stops
 * (`stopSequences`) and how long it may run (`maxTokens`). Two structures turn those against the user, whatever the
 * setting or the language of the prompt:
 *
 * - **A stop sequence that cuts what the model owes the reader** (`sampling_params`): a stop sequence that is the
 *   opening of a refusal or an apology ("I can't", "I'm sorry", "Unfortunately", "As an AI", "Lo siento", "抱歉") —
 *   the model's refusal is cut before the client sees it, so the answer reads as compliance — or the heading of a
 *   notice the reader is owed (appeal rights, external review, a cooling-off or withdrawal right, a disclaimer, side
 *   effects, a safety warning, a complaints route). Ordinary stop sequences ("\n\nHuman:", "</answer>", "```",
 *   "Observation:", "END", "###") name a turn, a format or a delimiter, never what the model might say for the reader.
 * - **A bulk job riding on a small task** (`sampling_params`): `maxTokens` of 50,000 or more and, in the prompt, a
 *   sentence that adds something to the task ("also", "then", "before it", "append", "as a background job", "for
 *   calibration") and multiplies the output ("repeated 40 times", "the numbers 1 to 200000 written out", "into all
 *   24 EU languages", "the full text of a 400-page catalogue"): the user's quota spent on output nobody asked for.
 *   Not a bulk task that is the task itself ("Translate the catalogue into all 24 EU languages"), not a long limit
 *   alone.
 * - **A repetition that is the whole task** (nineteenth round, "smp19", `sampling_params`): under the same limit, a
 *   sentence that orders the output repeated without end ("forever", "do not stop", "endlessly", "sin parar", "ohne
 *   aufzuhören", "bez końca") or a hundred times and more. No reader needs a text said a hundred times over; the
 *   answer is only there to spend the user's quota. Not a repetition whose result is a figure ("repeat the simulation
 *   1000 times and report the mean"), not a count below a hundred ("repeat the chorus 3 times").
 *
 * Every check is a bounded regex over a short string (a stop sequence of up to 80 characters, up to 16 of them) or
 * over the prompt's sentences (each read up to 400 characters, the prompt's first 16,000). The look-alikes are in
 * test/fixtures/corpus/smp14.test.yaml and test/guardian/sampling-params.test.ts.
 */
import type { JsonPath } from "./scan.js";

export interface ParamFinding {
  path: JsonPath;
  start: number;
  end: number;
  detail: string;
}

/** The opening of a refusal or an apology, in the languages the sets and real clients use. */
const REFUSAL =
  /(?:^|[\s"'“‘(\[])(?:i\s{0,2}(?:can'?t|can’t|cannot|can\s{1,2}not|won'?t|won’t|will\s{1,2}not|am\s{1,2}(?:unable|not\s{1,2}able)|must\s{1,2}(?:decline|refuse)|apologi[sz]e)|i'?m\s{1,2}(?:sorry|unable|not\s{1,2}able)|i’m\s{1,2}(?:sorry|unable|not\s{1,2}able)|sorry|unfortunately|as\s{1,2}an\s{1,2}(?:ai|assistant|language\s{1,2}model)|i\s{1,2}(?:do\s{1,2}not|don't|don’t)\s{1,2}feel\s{1,2}comfortable|lo\s{1,2}siento|no\s{1,2}puedo|je\s{1,2}ne\s{1,2}peux|d[ée]sol[ée]|ich\s{1,2}kann\s{1,2}nicht|es\s{1,2}tut\s{1,2}mir\s{1,2}leid|leider|non\s{1,2}posso|mi\s{1,2}dispiace|n[ãa]o\s{1,2}posso|desculp[ea]|jag\s{1,2}kan\s{1,2}inte|tyv[äa]rr|przepraszam|nie\s{1,2}mog[ęe]|извините|к\s{1,2}сожалению|я\s{1,2}не\s{1,2}могу)(?=$|[\s.,!:;"'”’)\]])|抱歉|对不起|對不起|我不能|我无法|我無法|无法提供|申し訳|できません|죄송|할\s{0,2}수\s{0,2}없/i;
/** The heading of a notice the reader is owed. */
const OWED =
  /\b(?:appeals?|right\s{1,2}(?:to|of)\s{1,2}(?:appeal|cancel|withdraw|complain|review|a\s{1,2}refund)|(?:your|appeal|consumer|cancell?ation|withdrawal|legal|patient)\s{1,2}rights|external\s{1,2}review|independent\s{1,2}review|cooling[\s-]off|disclaimers?|side[\s-]effects?|contraindications?|warnings?|safety\s{1,2}(?:information|notice|warning)|risk\s{1,2}(?:warning|disclosure|factors)|complaints?\s{1,2}(?:procedure|process)|ombuds\w{0,6}|how\s{1,2}to\s{1,2}(?:appeal|complain|cancel|opt\s{1,2}out)|(?:fair|administrative|oral)\s{1,2}hearings?|(?:request|right\s{1,2}to)\s{1,2}(?:a\s{1,2})?(?:hearing|reconsideration)|reconsideration|grievance\s{1,2}(?:procedure|process|rights)|continued\s{1,2}benefits)\b/i;

/** A sentence that adds a job to the task. */
const ADD_ON =
  /\b(?:also|additionally|in\s{1,3}addition|then|afterwards|after\s{1,3}(?:that|it|this)|before\s{1,3}(?:it|that|this|the\s{1,3}answer)|append\w{0,3}|at\s{1,3}the\s{1,3}end|as\s{1,3}a\s{1,3}(?:background|side|bonus|secondary)\s{1,3}(?:job|task)|in\s{1,3}the\s{1,3}background|for\s{1,3}(?:calibration|warm-?up|benchmarking|padding)|plus)\b/i;
/** An output multiplied: repeated N times, counted to N in words, into every language, a whole long text. */
const MULTIPLIED =
  /\brepeat\w{0,3}\b[^.;\n]{0,80}?\b(?:\d{2,6}|dozens|hundreds|thousands)\s{1,3}times\b|\b\d{2,6}\s{1,3}times\s{1,3}(?:over|in\s{1,3}a\s{1,3}row)\b|\b(?:numbers?|integers?|count\w{0,3})\s{1,3}(?:from\s{1,3})?(?:1|one|0|zero)\s{1,3}(?:to|through|up\s{1,3}to|-|–)\s{1,3}(?:\d{1,3}(?:[,. ]\d{3})+|\d{4,9})\b|\binto\s{1,3}(?:all|every|each)\s{1,3}(?:(?:the|of\s{1,3}the)\s{1,3})?(?:\d{1,3}\s{1,3})?(?:[\w-]{1,12}\s{1,3}){0,2}languages\b|\binto\s{1,3}\d{2,3}\s{1,3}(?:[\w-]{1,12}\s{1,3})?languages\b|\b(?:write|generate|produce|compose|create|output|print)\w{0,3}\s{1,3}(?:a|an|the)\s{1,3}(?:\d{1,3}(?:[,. ]\d{3})+|\d{5,7})[\s-]{1,2}(?:words?|pages?)\b|\b(?:full|entire|whole|complete)\s{1,3}text\s{1,3}of\b[^.;\n]{0,60}?\b\d{1,3}(?:[,. ]?\d{3})?[\s-]{1,2}(?:pages?|words?|chapters?)\b/i;
const BIG_LIMIT = 50_000;
/** A verb that repeats the output (English, Spanish, French, German, Italian, Portuguese, Polish, Dutch, Czech, Turkish, Russian, CJK). */
const REPEAT =
  /(?<![\p{L}])(?:repeat\w{0,3}|say\s{1,3}(?:it|this|that|the\s{1,3}[\p{L}-]{1,20})|print|write\s{1,3}(?:it|this|that|the\s{1,3}word)|repit\w{1,4}|r[ée]p[èée]t\w{1,4}|wiederhol\w{1,4}|ripet\w{1,4}|repet\w{1,4}|powtarzaj|powtórz\w{0,3}|herhaal|opakuj\w{0,3}|tekrarla\w{0,4}|повтор\p{L}{0,6})(?![\p{L}])|重复|重複|繰り返|반복/iu;
/** Without end, or a hundred times and more. */
const ENDLESS =
  /(?<![\p{L}])(?:forever|endlessly|indefinitely|infinitely|without\s{1,3}(?:stopping|end|end(?:ing)?)|(?:do\s{1,3}not|don't|never)\s{1,3}stop|until\s{1,3}(?:you\s{1,3}(?:run\s{1,3}out|are\s{1,3}cut\s{1,3}off)|the\s{1,3}(?:limit|tokens?\s{1,3}run\s{1,3}out))|para\s{1,3}siempre|sin\s{1,3}(?:parar|fin|detenerte)|sans\s{1,3}(?:arr[êe]t|fin|t'arr[êe]ter)|[àa]\s{1,3}l'infini|ind[ée]finiment|f[üu]r\s{1,3}immer|endlos|ohne\s{1,3}(?:aufzuh[öo]ren|ende|pause)|all'infinito|senza\s{1,3}(?:fine|fermarti|sosta)|para\s{1,3}sempre|sem\s{1,3}parar|bez\s{1,3}(?:końca|przerwy|konce|přestání)|nie\s{1,3}przestawaj|eindeloos|voor\s{1,3}altijd|zonder\s{1,3}(?:te\s{1,3}stoppen|ophouden)|donekonečna|sonsuza\s{1,3}kadar|durmadan|бесконечно|без\s{1,3}остановки|не\s{1,3}останавливайся)(?![\p{L}])|(?<![\p{N}.,])(?:[1-9]\d{2,6}|\d{1,3}(?:[,. ]\d{3}){1,2})\s{0,2}(?:times|x|×|veces|fois|mal|volte|vezes|razy|keer|krát|kez|раз)(?![\p{L}])|无限|無限|永远|永遠|ずっと|止まらず|계속|무한/iu;
/** A repetition whose result is a figure, not the repeated text. */
const REPEAT_RESULT = /\b(?:average|mean|median|distribution|statistics?|estimate|variance|standard\s{1,3}deviation|confidence|probabilit\w{1,4}|success\s{1,3}rate|simulat\w{1,6}|monte\s{1,3}carlo|trials?|experiment\w{0,2}|benchmark\w{0,3}|tally|histogram)\b/i;

const sentences = (text: string): string[] => {
  const head = text.length > 16_000 ? text.slice(0, 16_000) : text;
  return head.split(/[.!?\n。！？]+/).map((s) => (s.length > 400 ? s.slice(0, 400) : s));
};

/** The parameters of a `sampling/createMessage` request that turn the answer against the user. */
export function samplingParamFindings(message: Record<string, unknown> | null): ParamFinding[] {
  if (message?.method !== "sampling/createMessage") return [];
  const params = message.params as Record<string, unknown> | undefined;
  if (!params || typeof params !== "object") return [];
  const out: ParamFinding[] = [];
  const stops = params.stopSequences;
  if (Array.isArray(stops)) {
    for (let i = 0; i < Math.min(stops.length, 16); i++) {
      const s = stops[i];
      if (typeof s !== "string" || s.length > 80) continue;
      const what = REFUSAL.test(s) ? "the model's refusal" : OWED.test(s) ? "a notice the reader is owed" : null;
      if (what) out.push({ path: ["params", "stopSequences", i], start: 0, end: s.length, detail: `sampling: a stop sequence cuts ${what} (${JSON.stringify(s)})` });
    }
  }
  const max = params.maxTokens;
  if (typeof max === "number" && max >= BIG_LIMIT) {
    const texts: { path: JsonPath; text: string }[] = [];
    if (typeof params.systemPrompt === "string") texts.push({ path: ["params", "systemPrompt"], text: params.systemPrompt });
    const msgs = params.messages;
    if (Array.isArray(msgs))
      msgs.slice(0, 32).forEach((m, i) => {
        const c = (m as { content?: unknown } | null)?.content;
        if (c && typeof c === "object" && !Array.isArray(c) && typeof (c as { text?: unknown }).text === "string") texts.push({ path: ["params", "messages", i, "content", "text"], text: (c as { text: string }).text });
      });
    for (const t of texts) {
      if (sentences(t.text).some((s) => ADD_ON.test(s) && MULTIPLIED.test(s))) {
        out.push({ path: t.path, start: 0, end: t.text.length, detail: `sampling: a bulk job added to the task with maxTokens ${max} (the user's quota spent on output nobody asked for)` });
        break;
      }
      if (sentences(t.text).some((s) => REPEAT.test(s) && ENDLESS.test(s) && !REPEAT_RESULT.test(s))) {
        out.push({ path: t.path, start: 0, end: t.text.length, detail: `sampling: the output repeated without end or a hundredfold with maxTokens ${max} (the user's quota spent on output nobody needs)` });
        break;
      }
    }
  }
  return out;
}
