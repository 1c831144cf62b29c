/*
 * Nineteenth round ("inj19", docs/detection.md): two benign readings, each by its principle.
 *
 * - `documentHead(toks, j)`: the "instructions" a verb of setting aside reaches are a paper or a file the reader holds
 *   — "the old instruction sheet", "la hoja de instrucciones anterior", "the leaflet of instructions" — when the word
 *   for instructions only qualifies a noun for a document (the English compound's head after it, or the Romance and
 *   English "<document> of/de <instructions>" before it). To discard a superseded leaflet is an ordinary correction
 *   (a dose changed, a model revised); to discard the model's instructions has no document in between.
 * - `asksNothing(sig)`: a system-style header over a sentence that asks nothing — no request of any kind, nobody
 *   addressed beyond the header's own words — is a service announcing its own state ("System notice: maintenance
 *   tonight 23:00"). The header still counts over every sentence of its paragraph that asks something.
 *
 * Both read a handful of tokens: constant work per cue.
 */

/** Nouns for a document or a medium that carries instructions (a compound's head, or the noun before "of"/"de"). */
const DOC_HEADS = new Set([
  // English
  "sheet", "sheets", "leaflet", "leaflets", "card", "cards", "booklet", "booklets", "manual", "manuals", "label", "labels",
  "insert", "inserts", "pamphlet", "pamphlets", "handout", "handouts", "printout", "brochure", "poster", "pdf", "video",
  "videos", "diagram", "diagrams", "binder", "slip", "sticker", "placard",
  // Spanish, Portuguese, French, Italian
  "hoja", "hojas", "folleto", "prospecto", "tarjeta", "etiqueta", "folha", "folheto", "bula", "cartão", "etiqueta",
  "feuille", "feuillet", "notice", "fiche", "livret", "foglio", "foglietto", "scheda", "opuscolo",
]);
/** "of" and its Romance forms, between a document's noun and the instructions it holds. */
const OF = new Set(["of", "de", "des", "du", "da", "do", "das", "dos", "di", "delle", "del"]);

interface Tok {
  w: string;
  s: number;
  e: number;
}

/**
 * Whether the instructions word at `j` only qualifies a document: a document noun right after the singular (one space
 * between, "instruction sheet") or before it across "of"/"de" ("hoja de instrucciones"), or across "of the"/"de las".
 */
export function documentHead(toks: readonly Tok[], j: number, gap: (k: number) => string): boolean {
  const next = toks[j + 1];
  // (English compounds take the singular: "instruction sheet"; "instructions sheet" is not how a document is named.)
  if (next !== undefined && DOC_HEADS.has(next.w) && gap(j + 1) === " " && !(toks[j]?.w ?? "").endsWith("s")) return true;
  let k = j - 1;
  if (k >= 1 && ["the", "las", "los", "les", "la", "le", "as", "os", "le"].includes(toks[k]?.w ?? "") && OF.has(toks[k - 1]?.w ?? "")) k--;
  return k >= 1 && OF.has(toks[k]?.w ?? "") && DOC_HEADS.has(toks[k - 1]?.w ?? "");
}

/** Targeting a header's own words lend: the header names the system, and a colon after it names it as a head. */
const HEADER_OWN = new Set(["addressed", "addressed_2p", "addressed_subject"]);

/** Whether a sentence under a system-style header asks nothing of anyone (no request, no other targeting signal). */
export function asksNothing(sig: { t: Record<string, number | undefined>; r: Record<string, number | undefined> }): boolean {
  if (Object.keys(sig.r).length > 0) return false;
  for (const k of Object.keys(sig.t)) if (!HEADER_OWN.has(k)) return false;
  return true;
}
