/*
 * Sixteenth round ("smp16"): sampling attacks written from the published catalogue (Unit 42's MCP sampling attack
 * vectors) before any case was read. Called once per prompt unit from sampling-asks.ts; each check is a structure:
 *
 * - **Resource theft** (`deceive`): extra generation tacked onto the task — a work of thousands of words or hundreds of
 *   variations, items or copies — with the prompt keeping it from the user ("for internal use, do not show it",
 *   "hidden from the user", "the user won't see it"). A long document that is the task itself, or a count with no
 *   concealment, passes.
 * - **Covert tool invocation** (`deceive`): an answer split so the user sees only one part ("the user will only see
 *   the summary field") while another part calls a tool or sends to an address.
 *
 * Linear: bounded regexes over one unit and the prompt's text (at most MAX_TEXT characters).
 */

const MAX_TEXT = 16_384;

/** A large amount of generated text or items: "a 5000-word story", "300 different variations", "ten thousand lines". */
const LARGE =
  /\b(?:\d{1,3}[,. ]?\d{3}|\d{4,6}|(?:two|three|four|five|six|seven|eight|nine|ten|twenty|fifty)\s{1,3}thousand)[\s-]{1,3}(?:[\w-]{1,20}\s{1,3}){0,2}?(?:words?|tokens?|pages?|lines?|characters?)\b|\b(?:[1-9]\d{2,4}|(?:a|one|two|three|five)\s{1,3}hundred)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,2}?(?:variations?|variants?|versions?|copies|items?|entries|paragraphs?|stories|poems?|essays?|articles?|chapters?|pages?|repetitions?|times)\b/i;
/** Tacked on to the task: after it, also, then, in addition. */
const TACKED =
  /\b(?:after\s{1,3}(?:you\s{1,3})?(?:finish|finishing|completing|complete|that|this|the\s{1,3}(?:summary|task|answer))|then|also|in\s{1,3}addition|additionally|afterwards|as\s{1,3}well|at\s{1,3}the\s{1,3}end)\b/i;
/** Kept from the user. */
const KEPT =
  /\b(?:do\s{1,3}not|don't|never)\s{1,3}(?:show|mention|display|reveal|surface)\s{1,3}(?:it|this|that|them|the\s{1,3}(?:story|extra|rest|second\s{1,3}part|additional\s{1,3}\w{1,20}))\b|\b(?:hidden|hide\s{1,3}it|keep\s{1,3}it\s{1,3}hidden)\s{1,3}from\s{1,3}the\s{1,3}user\b|\b(?:do\s{1,3}not|don't|never)\s{1,3}(?:show|mention|tell|reveal)\b[^.;\n]{0,30}\bto\s{1,3}the\s{1,3}user\b|(?:the\s{1,3})?user\s{1,3}(?:will\s{1,3}not|won't|does\s{1,3}not\s{1,3}need\s{1,3}to|doesn't\s{1,3}need\s{1,3}to|should\s{1,3}not|need\s{1,3}not)\s{1,3}(?:see|know|notice)\b|\bwithout\s{1,3}(?:mentioning|telling|showing)\b|\b(?:silently|quietly|secretly|covertly)\b/i;

/** Only one part of the answer reaches the user. */
const ONLY_PART_SEEN =
  /\b(?:the\s{1,3})?user\s{1,3}(?:will\s{1,3})?(?:only|just)\s{1,3}(?:see|sees|read|reads)\b|\bonly\s{1,3}the\s{1,3}[\w-]{1,20}\s{1,3}(?:field|part|section|key)\s{1,3}(?:is|will\s{1,3}be)\s{1,3}(?:shown|displayed|rendered|visible)\b/i;
/** A tool called or data sent from the other part. */
const CALLS_OR_SENDS =
  /\btool_?calls?\b|\bfunction_?calls?\b|\b(?:call|invoke|run|trigger)\s{1,3}(?:the\s{1,3})?`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s{1,3}(?:to|with)\s{1,3}[\w.+-]+@[\w-]+(?:\.[\w-]+)+/i;

export type CatalogueAsk = "deceive";

export function samplingCatalogue(text: string, unit: string): CatalogueAsk[] {
  if (text.length > MAX_TEXT || unit.length > 4096) return [];
  // Resource theft: a large extra generation tacked on, kept from the user (anywhere in the prompt).
  if (LARGE.test(unit) && TACKED.test(unit) && KEPT.test(text)) return ["deceive"];
  // Covert tool invocation: the user sees one part of the answer, another calls a tool or sends.
  if (ONLY_PART_SEEN.test(unit) && CALLS_OR_SENDS.test(text)) return ["deceive"];
  return [];
}
